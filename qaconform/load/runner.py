"""One load run, start to summary: Locust processes for a scenario, then thresholds, nothing-lost and
``summary.json``. Used by `qaconform load` (once) and `qaconform capacity` (once per step).

Locust runs only in its own processes (``python -m locust``); this module never imports it, so the CLI and the
kit's tests stay free of gevent. Everything the Locust processes need travels in environment variables
(qaload/settings.py reads them); everything they produce lands in the run folder. The target they load is the
run's resolved target (``target.json``, qaconform.target.resolved, written by the command before the first
request): its path travels as ``QACONFORM_TARGET``, and ``QACONFORM_PROFILE`` is taken out of their environment, so
no Locust process can load another profile or URL than the one the command resolved and its preflight reached.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from qaconform.errors import KitError
from qaconform.load.check_rules import RuleTally, charge_lost
from qaconform.load.histogram import HistogramSet
from qaconform.load.judge import machine_load
from qaconform.load.live import DEFAULT_EVERY_S as LIVE_EVERY_S
from qaconform.load.live import LiveTotals
from qaconform.load.noise import cpu_times
from qaconform.load.nothing_lost import check_nothing_lost, read_created
from qaconform.load.pacing import users_for_rate
from qaconform.load.procs import LocustProcess, watch
from qaconform.load.shapes import ShapeOptions
from qaconform.load.summary import build_operations, read_stats_csv
from qaconform.load.thresholds import Limits, breaches, evaluate
from qaconform.load.write_budget import Limits as WriteLimits
from qaconform.load.write_budget import is_one_shot, one_shot_refusals
from qaconform.load.write_budget import summarize as summarize_writes
from qaconform.report.files import strict_json
from qaconform.report.tables import table_text
from qaconform.target.profile import Profile
from qaconform.target.resolved import TARGET_ENV

KEPT_UP_RATIO = 0.9
"""An open-model run kept up when it made at least this share of the asked rate."""
START_GRACE_S = 40.0
"""Time allowed beyond --duration for starting, workers connecting, stopping and writing reports."""


class LoadRunError(KitError, RuntimeError):
    """The kit could not run the load (Locust crashed or did not stop); the message says where to look. The kit's
    own failure (exit 4), not the target's."""


def loadtests_dir() -> Path:
    """The locustfiles (qaconform.kit: $QACONFORM_LOADTESTS, the installed copy, or the checkout's loadtests/)."""
    from qaconform.kit import KitNotFound, kit_dir

    try:
        return kit_dir("loadtests")
    except KitNotFound as exc:
        raise LoadRunError(str(exc)) from None


def scenarios(ldir: Path | None = None) -> tuple[str, ...]:
    """The load scenarios, sorted: each locustfile at the top of loadtests/ is one, named for its file
    (``loadtests/browse.py`` is ``--scenario browse``). Found from the files, so that a new scenario is its file and
    nothing else: a second list kept by hand here once had to follow every file. Helpers live in the packages below
    (``qaload/``, ``shapes/``) or start with an underscore. LoadRunError when there is no loadtests/ folder."""
    folder = loadtests_dir() if ldir is None else ldir
    return tuple(sorted(p.stem for p in folder.glob("*.py") if not p.name.startswith("_")))


def checks_note() -> dict[str, Any]:
    """What the load users check on every answer and what only on a sample (``locust_checks.PARSE_EVERY``, which the
    Locust side imports): reports say so next to the figures."""
    from qaconform.load.locust_checks import PARSE_EVERY

    return {"every_answer": ["status", "Content-Type", "list envelope (on the bytes)", "body size", "timeout"],
            "sampled": {"what": "list answers parsed and their envelope fully checked (listCount)",
                        "one_in": PARSE_EVERY}}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def new_run_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + "-" + secrets.token_hex(2)


@dataclass
class RunConfig:
    scenario: str = "mixed"
    users: int = 10
    spawn_rate: float | None = None
    duration_s: float = 20.0
    shape: str | None = None
    shape_options: dict[str, Any] = field(default_factory=dict)
    rate: float | None = None
    workers: int = 0
    remote_workers: int = 0
    master_bind_host: str = "127.0.0.1"
    master_port: int | None = None
    web: bool = False
    web_host: str = "127.0.0.1"
    web_port: int | None = None
    wait_ms: float = 0.0
    check_lost: bool = True
    lost_budget_s: float = 60.0
    loglevel: str = "WARNING"
    write_limits: WriteLimits | None = None
    """The write budget (None: the profile's [load]); a limit of None in it is no limit (``--no-write-budget``)."""
    window_s: float = 0.0
    """> 0: the Locust processes also keep figures per window of this many seconds (``latency.json``'s
    ``windows``; capacity steps judge their steady state on them: qaconform.load.steady)."""
    one_shots: bool = True
    """Send the profile's one-shot fixture calls (once per run); a capacity step never does (issue 45: a fixture an
    earlier run consumed broke steps as "cancelWiki (one-shot).failure_ratio 1")."""


def _locust_base(files: str) -> list[str]:
    return [sys.executable, "-m", "locust", "-f", files, "--loglevel", "INFO"]


@dataclass
class LoadSummary:
    """What one load run found: ``summary.json`` (``as_dict``), the load section of the report, a capacity step.

    The first thirteen fields are the keys agreed with the report (qaconform.report.loadstats reads them); the rest
    are additions for people reading the file."""

    scenario: str
    duration_s: float
    users: int
    rate: float | None
    workers: int
    requests: int
    failures: int
    rps: float
    operations: dict[str, Any]
    thresholds: list[dict[str, Any]]
    lost: list[dict[str, Any]]
    generator_cpu_warning: bool
    verdict: str
    """``pass`` or ``fail`` (a threshold breached or an item lost)."""
    run_id: str | None
    target: str
    shape: str | None
    elapsed_s: float
    total: dict[str, Any]
    latency_source: str
    open_model: dict[str, Any] | None
    nothing_lost: dict[str, Any] | None
    generator_cpu: list[dict[str, Any]]
    requests_by_worker: dict[str, Any]
    files: dict[str, str]
    checks: dict[str, Any] = field(default_factory=dict)
    """What the load users check on every answer and what on a sample only (``checks_note``)."""
    writes: dict[str, Any] | None = None
    """The write budget and what was written under it: sent, accepted and refused per request name, whether the
    budget was reached (``write_budget.summarize``)."""
    failed_rules: dict[str, Any] = field(default_factory=dict)
    """The failures charged to the rules their checks name (``charged``: rule -> request name or ``nothing-lost`` ->
    count) and those no rule decides, by check (``uncharged``: ``rate_limited``, ``total_time`` ...):
    qaconform.load.check_rules. The self-test's load part judges a run by these."""
    machine: dict[str, Any] | None = None
    """The generator's machine over the run (``judge.machine_load``): cores, load average at the end, CPUs busy, and
    the busy-machine caveat (figures measured there can only be lower than on a quiet machine)."""

    def as_dict(self) -> dict[str, Any]:
        """summary.json's content (the fields in order)."""
        return asdict(self)


@dataclass(frozen=True)
class _Plan:
    """What a RunConfig asks Locust for: the locustfiles, how many users, and each one's pace."""

    files: str
    users: int
    rate_per_user: float
    spawn_rate: float


def _plan(cfg: RunConfig, ldir: Path) -> _Plan:
    files = str(ldir / f"{cfg.scenario}.py")
    if cfg.shape:
        files += "," + str(ldir / "shapes" / f"{cfg.shape}.py")
    users = users_for_rate(cfg.rate, cfg.users) if cfg.rate else cfg.users
    rate_per_user = (cfg.rate / users) if cfg.rate else 0.0
    spawn_rate = cfg.spawn_rate or (float(users) if cfg.rate else max(1.0, users / 2.0))
    return _Plan(files, users, rate_per_user, spawn_rate)


def _clear_out_dir(out_dir: Path) -> None:
    """A folder reused by another run keeps no file this run's summary would read as its own."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in [*out_dir.glob("created-*.jsonl"), *out_dir.glob("oneshot-*"), out_dir / "latency.json",
                  out_dir / "summary.json", out_dir / "locust_stats_history.csv"]:
        stale.unlink(missing_ok=True)


def _write_env(limits: WriteLimits | None) -> dict[str, str]:
    """The write budget for the Locust processes (qaload/settings.py); nothing when the profile's [load] applies."""
    if limits is None:
        return {}
    return {"QACONFORM_MAX_WRITES": "none" if limits.max_writes is None else str(limits.max_writes),
            "QACONFORM_MAX_WRITE_RPS": "none" if limits.max_write_rps is None else repr(limits.max_write_rps)}


def target_env(target_file: Path) -> dict[str, str]:
    """The environment of a Locust process: this one's, with the resolved target's path and without a profile path
    (a QACONFORM_PROFILE left in the user's environment would be a second answer to "which target")."""
    env = {k: v for k, v in os.environ.items() if k != "QACONFORM_PROFILE"}
    env[TARGET_ENV] = str(Path(target_file).resolve())
    return env


def _locust_env(cfg: RunConfig, plan: _Plan, target_file: Path, out_dir: Path, run_id: str | None) -> dict[str, str]:
    """Everything the Locust processes need (qaload/settings.py reads it)."""
    env = target_env(target_file)
    env.update({
        "QACONFORM_RUN_DIR": str(out_dir.resolve()),
        "QACONFORM_RATE_PER_USER": repr(plan.rate_per_user),
        "QACONFORM_WAIT_MS": repr(cfg.wait_ms),
        "QACONFORM_RUN_TAG": f"qaload-{run_id or new_run_id()}",
        "QACONFORM_WINDOW_S": repr(cfg.window_s),
        "QACONFORM_ONE_SHOTS": "1" if cfg.one_shots else "0",
        "PYTHONUNBUFFERED": "1",
    })
    env.update(_write_env(cfg.write_limits))
    if cfg.shape:
        env.update(ShapeOptions(users=plan.users, duration_s=cfg.duration_s, **cfg.shape_options).to_env())
    return env


def _locust_processes(cfg: RunConfig, plan: _Plan, base_url: str, out_dir: Path) -> list[LocustProcess]:
    """The main Locust process (local, or master of ``cfg.workers`` local workers) first, then the workers."""
    argv = _locust_base(plan.files) + ["-H", base_url, "--csv", str(out_dir / "locust"), "--csv-full-history",
                                       "--html", str(out_dir / "locust.html"), "--stop-timeout", "2",
                                       "--exit-code-on-error", "0", "--only-summary"]
    if not cfg.shape:
        argv += ["-u", str(plan.users), "-r", str(plan.spawn_rate), "-t", f"{max(1, round(cfg.duration_s))}s"]
    if cfg.web:
        argv += ["--autostart", "--autoquit", "2", "--web-host", cfg.web_host,
                 "--web-port", str(cfg.web_port or free_port())]
    else:
        argv += ["--headless"]
    port = cfg.master_port or free_port()
    distributed = bool(cfg.workers or cfg.remote_workers)
    if distributed:
        argv += ["--master", "--master-bind-host", cfg.master_bind_host, "--master-bind-port", str(port),
                 "--expect-workers", str(cfg.workers + cfg.remote_workers), "--expect-workers-max-wait", "30"]
    procs = [LocustProcess("master" if distributed else "local", argv, out_dir / "locust-main.log")]
    for i in range(cfg.workers):
        wargv = _locust_base(plan.files) + ["--worker", "--master-host", "127.0.0.1", "--master-port", str(port),
                                            "--only-summary"]
        procs.append(LocustProcess(f"worker-{i + 1}", wargv, out_dir / f"locust-worker-{i + 1}.log"))
    return procs


def _run_processes(cfg: RunConfig, procs: list[LocustProcess], env: dict[str, str], cwd: Path, out_dir: Path,
                   quiet: bool) -> float:
    """Run the Locust processes to their end; the seconds it took. LoadRunError when Locust did not stop by itself
    or left no statistics."""
    main = procs[0]
    started = time.monotonic()
    try:
        for p in procs:
            p.start(env, cwd=str(cwd))
        live = None if quiet else LiveTotals(out_dir / "locust_stats_history.csv", cfg.duration_s)
        on_time = watch(procs, main, started + cfg.duration_s + START_GRACE_S + (30 if cfg.remote_workers else 0),
                        on_tick=live.tick if live else None)
    finally:
        for p in procs:
            p.stop()
            p.close()
    elapsed = time.monotonic() - started
    if not on_time:
        raise LoadRunError(f"Locust did not stop by itself within {cfg.duration_s + START_GRACE_S:.0f} s and was "
                           f"ended; see {main.log_path}:\n{main.log_tail()}")
    if main.returncode not in (0, None) or not (out_dir / "locust_stats.csv").is_file():
        bad = next((p for p in procs[1:] if p.returncode not in (0, None)), main)
        raise LoadRunError(f"Locust exited with code {main.returncode} without its statistics; see "
                           f"{bad.log_path}:\n{bad.log_tail()}")
    return elapsed


def _cpu_warning(latency: dict[str, Any], procs: list[LocustProcess]) -> bool:
    """Whether the generator's CPU, not the target, may have been the limit (Locust's warning, or our samples)."""
    logs = "\n".join(p.log_tail(400) for p in procs)
    locust_cpu_warning = "CPU usage above" in logs or "exceeded cpu threshold" in logs
    return bool(latency.get("cpu_warning") or latency.get("worker_cpu_warning") or locust_cpu_warning
                or any(p.cpu_bound(latency.get("users_stopped_at"), latency.get("users_started_at")) for p in procs))


def _open_model(cfg: RunConfig, plan: _Plan, total: dict[str, Any], latency: dict[str, Any]) -> dict[str, Any] | None:
    """For a run at a fixed rate (``--rate``): whether the generator kept the schedule, and latency counted from each
    request's intended start (queueing included). None for a closed-model run."""
    if not cfg.rate:
        return None
    pacing = latency.get("pacing", {})
    achieved = float(total.get("rps") or 0.0)
    slots = int(pacing.get("slots", 0))
    kept_up = achieved >= KEPT_UP_RATIO * cfg.rate and int(pacing.get("missed", 0)) <= 0.01 * max(slots, 1)
    open_model = {"target_rps": cfg.rate, "achieved_rps": round(achieved, 2), "users": plan.users,
                  "rate_per_user": round(plan.rate_per_user, 4), "slots": slots, "late_starts": pacing.get("late", 0),
                  "missed_slots": pacing.get("missed", 0),
                  "max_lag_ms": round(float(pacing.get("max_lag_s", 0.0)) * 1000, 1), "kept_up": kept_up}
    intended = HistogramSet.merged([latency.get("intended", {})]).total()
    if intended.count:
        open_model["latency_from_intended_start"] = {
            f"p{q}_ms": round(intended.percentile(q) or 0.0, 3) for q in (50, 95, 99)} | {
            "max_ms": round(intended.max_ms, 3)}
    return open_model


def run_load(cfg: RunConfig, profile: Profile, target_file: Path, out_dir: Path, limits: Limits,
             run_id: str | None = None, quiet: bool = False) -> LoadSummary:
    """Run one scenario and return the summary (also written to ``out_dir/summary.json``).

    ``target_file`` is the run's resolved target (target.json) and ``profile`` what it resolves to
    (``ResolvedTarget.profile()``): the Locust processes read the file, this process checks nothing-lost with the
    profile; ``profile.base_url`` is given to Locust (``-H``), so workers on other machines test it too."""
    ldir = loadtests_dir()
    known = scenarios(ldir)
    if cfg.scenario not in known:
        raise ValueError(f"unknown scenario {cfg.scenario!r}; use one of {', '.join(known)}")
    _clear_out_dir(out_dir)
    plan = _plan(cfg, ldir)
    env = _locust_env(cfg, plan, target_file, out_dir, run_id)
    procs = _locust_processes(cfg, plan, profile.base_url, out_dir)
    if not quiet:
        print(f"load: {cfg.scenario} against {profile.base_url} for {cfg.duration_s:g} s"
              + (f" at {cfg.rate:g} req/s" if cfg.rate else f", {plan.users} users")
              + f"; live totals every {LIVE_EVERY_S:g} s", flush=True)
    cpu_before = cpu_times()
    elapsed = _run_processes(cfg, procs, env, ldir.parent, out_dir, quiet)
    machine = machine_load(cpu_before)

    stats_csv = out_dir / "locust_stats.csv"
    lat_path = out_dir / "latency.json"
    latency = json.loads(lat_path.read_text(encoding="utf-8")) if lat_path.is_file() else {}
    stats = latency.get("stats") or read_stats_csv(stats_csv)
    operations, total, source = build_operations(stats, HistogramSet.merged([latency.get("hist", {})]))
    lost: list[dict[str, Any]] = []
    lost_facts: dict[str, Any] | None = None
    created = read_created(out_dir)
    if cfg.check_lost and created:
        lost, lost_facts = check_nothing_lost(profile, created, budget_s=cfg.lost_budget_s)
    writes = summarize_writes(latency.get("writes"), cfg.duration_s)
    tally = RuleTally()
    tally.merge(latency.get("rules"))
    charge_lost(tally, lost)
    results = evaluate(limits, *judged_figures(operations, total, writes))
    summary = LoadSummary(
        scenario=cfg.scenario, duration_s=cfg.duration_s, users=plan.users, rate=cfg.rate,
        workers=cfg.workers + cfg.remote_workers, requests=total["count"], failures=total["failures"],
        rps=total["rps"], operations=operations, thresholds=results, lost=lost,
        generator_cpu_warning=_cpu_warning(latency, procs),
        verdict="fail" if breaches(results) or lost else "pass",
        run_id=run_id, target=profile.base_url, shape=cfg.shape, elapsed_s=round(elapsed, 1), total=total,
        latency_source=source, open_model=_open_model(cfg, plan, total, latency), nothing_lost=lost_facts,
        generator_cpu=[p.cpu(latency.get("users_stopped_at"), latency.get("users_started_at")) for p in procs],
        requests_by_worker=latency.get("requests_by_worker", {}),
        files={"stats_csv": stats_csv.name, "history_csv": "locust_stats_history.csv",
               "failures_csv": "locust_failures.csv", "html": "locust.html"},
        checks=checks_note(), writes=writes, failed_rules=tally.to_dict(), machine=machine,
    )
    # strict JSON for CI (a NaN from Locust's CSVs is null)
    (out_dir / "summary.json").write_text(strict_json(summary.as_dict(), indented=True), encoding="utf-8")
    if not quiet:
        print(format_summary(summary.as_dict(), out_dir))
    return summary


def judged_figures(operations: dict[str, Any], total: dict[str, Any], writes: dict[str, Any] | None
                   ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The figures the thresholds judge: a one-shot fixture call's refusals (an earlier run may have consumed the
    fixture) stay failure rows in Locust's stats and the summary, but are not counted against the target."""
    refused = one_shot_refusals(writes)
    if not refused:
        return operations, total
    ops = {name: ({**o, "failures": max(0, o["failures"] - refused[name])} if name in refused else o)
           for name, o in operations.items()}
    return ops, {**total, "failures": max(0, total["failures"] - sum(refused.values()))}


def _limit_text(w: dict[str, Any]) -> str:
    if w["max_writes"] is None and w["max_write_rps"] is None:
        return "none (--no-write-budget)"
    total = "no total" if w["max_writes"] is None else f"{w['max_writes']} writes"
    rate = "no rate limit" if w["max_write_rps"] is None else f"{w['max_write_rps']:g}/s"
    return f"{total} at {rate}"


def format_writes(w: dict[str, Any]) -> list[str]:
    """The write budget's lines of the terminal summary: totals, a row per operation, the budget reached."""
    lines = [f"writes: {w['sent']} sent, {w['accepted']} accepted, {w['refused']} refused "
             f"({w['rps']:g} writes/s; budget {_limit_text(w)})"]
    if w["by_operation"]:
        rows = [(name, t["sent"], t["accepted"], t["refused"]) for name, t in w["by_operation"].items()]
        lines.append(table_text(("write", "sent", "accepted", "refused"), rows, numeric=range(1, 4)))
    if w["budget_reached"]:
        shares = (f" ({w['shares_spent']} of {w['processes']} worker shares spent)"
                  if w.get("processes", 1) > 1 else "")
        lines.append(f"WRITE BUDGET REACHED: {w['sent']} of {w['max_writes']} writes sent{shares}; the users only "
                     "read from then on (raise [load] max_writes or --max-writes to write more)")
    for name, t in w["by_operation"].items():
        if is_one_shot(name) and t["refused"]:
            lines.append(f"{name}: refused {t['refused']} time(s): a failure row, not held against the target (the "
                         "profile's one-shot fixture may be consumed by an earlier run; `qaconform doctor` tells)")
    return lines


def _ms(v: Any) -> str:
    return "-" if v is None else (f"{v:.3f}" if v < 10 else f"{v:.1f}")


def format_summary(s: dict[str, Any], out_dir: Path) -> str:
    lines = [f"{s['scenario']}: {s['requests']} requests, {s['failures']} failures, {s['rps']:.1f} req/s, "
             f"{s['users']} users, {s['workers']} workers, {s['elapsed_s']} s"]
    rows = [(name, o["count"], o["failures"], f"{o['rps']:.1f}", _ms(o["p50_ms"]), _ms(o["p95_ms"]),
             _ms(o["p99_ms"]), _ms(o["max_ms"])) for name, o in sorted(s["operations"].items())]
    lines.append(table_text(("operation", "count", "fail", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms"), rows,
                            numeric=range(1, 8)))
    for b in breaches(s["thresholds"]):
        actual = "none recorded" if b["actual"] is None else f"{b['actual']:.4g}"
        lines.append(f"THRESHOLD BREACHED {b['name']}: {actual} (limit {b['limit']:g})")
    for item in s["lost"]:
        lines.append(f"LOST {item['kind']} {item['id']} (parent {item['parent']}, {item['role']}): {item['problem']}")
    if s.get("nothing_lost"):
        f = s["nothing_lost"]
        by = ", ".join(f"{role} {a['answers']}+{a['comments']}" for role, a in (f.get("accounts") or {}).items())
        lines.append(f"nothing-lost check: {f['answers']} answers and {f['comments']} comments created"
                     + (f" (answers+comments by {by})" if by else "")
                     + f", {len(s['lost'])} not listed exactly once ({f['list_requests']} list requests)")
        for why, n in (f.get("not_checked") or {}).items():
            lines.append(f"  not checked: {n} answers {why.replace('_', ' ')} (whether their author's list shows "
                         "them then is not stated)")
    if s.get("writes"):
        lines += format_writes(s["writes"])
    om = s.get("open_model")
    if om:
        state = "kept up" if om["kept_up"] else "COULD NOT KEEP UP"
        lines.append(f"open model: asked {om['target_rps']:g} req/s, made {om['achieved_rps']:g} ({state}; "
                     f"{om['late_starts']} late starts, {om['missed_slots']} missed slots, "
                     f"max lag {om['max_lag_ms']} ms)")
        fi = om.get("latency_from_intended_start")
        if fi:
            lines.append(f"  latency from intended start (queueing included): p50 {_ms(fi['p50_ms'])} ms, "
                         f"p99 {_ms(fi['p99_ms'])} ms, max {_ms(fi['max_ms'])} ms")
    if om and not om["kept_up"] and not s["generator_cpu_warning"]:
        lines.append(f"  the generator had CPU to spare: the target answered too slowly for {s['users']} users at "
                     f"{om['rate_per_user']:g} req/s each; raise --users to keep asking, or take this as its limit")
    if s["generator_cpu_warning"]:
        cpu = ", ".join(f"{c['name']} {c['mean_cpu_pct']}%" for c in s["generator_cpu"])
        lines.append(f"WARNING: the load generator's CPU was the bottleneck ({cpu}); figures understate the "
                     "target: add --workers or machines")
    m = s.get("machine") or {}
    if m.get("load_average_1m") is not None:
        busy = "" if m.get("cpu_busy_pct") is None else f", its CPUs {m['cpu_busy_pct']:g} % busy during the run"
        lines.append(f"machine: load average {m['load_average_1m']:g} on {m['cores']} cores at the end{busy}")
    if m.get("caveat"):
        lines.append(f"  caveat: {m['caveat']}")
    lines.append(f"verdict: {s['verdict']}  (reports in {out_dir})")
    return "\n".join(lines)


WORKER_LINE = "qaconform worker"
"""What a worker's own lines start with (loadtests/qaload/hooks.py, which this package never imports)."""


def run_workers_only(cfg: RunConfig, target_file: Path, out_dir: Path, master_host: str, master_port: int,
                     max_wait_s: float) -> int:
    """Start ``cfg.workers`` Locust workers that join a master on another machine; return when they end.

    The master (`qaconform load --remote-workers N --master-bind-host 0.0.0.0` on that machine) decides users,
    duration, reports and the URL (Locust hands its ``-H`` to every worker); the workers read this machine's
    resolved target (``target_file``) for the rest (accounts, fixtures, timeouts). They stop when the master quits,
    and are ended after ``max_wait_s`` at the latest.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    ldir = loadtests_dir()
    env = target_env(target_file)
    env.update({"QACONFORM_RUN_DIR": str(out_dir.resolve()), "QACONFORM_RATE_PER_USER": "0", "PYTHONUNBUFFERED": "1"})
    env.update(_write_env(cfg.write_limits))  # each worker takes its share of it (loadtests/qaload/hooks.py)
    procs = [LocustProcess(f"worker-{i + 1}", _locust_base(str(ldir / f"{cfg.scenario}.py"))
                           + ["--worker", "--master-host", master_host, "--master-port", str(master_port)],
                           out_dir / f"locust-worker-{i + 1}.log") for i in range(max(1, cfg.workers))]
    print(f"load: {len(procs)} worker(s) joining the master at {master_host}:{master_port} (each says when it "
          "joined, then its users and rate)", flush=True)
    for p in procs:
        p.start(env, cwd=str(ldir.parent))
    tails = {p.name: 0 for p in procs}

    def relay() -> None:
        """The workers' own lines (qaload/hooks.py WORKER_LINE), from their logs to this terminal."""
        for p in procs:
            try:
                with p.log_path.open("rb") as fh:
                    fh.seek(tails[p.name])
                    chunk = fh.read()
            except OSError:
                continue
            done = chunk.rfind(b"\n") + 1
            tails[p.name] += done
            for line in chunk[:done].decode("utf-8", errors="replace").splitlines():
                if WORKER_LINE in line:
                    print(line[line.index(WORKER_LINE):], flush=True)

    on_time = watch(procs, procs[0], time.monotonic() + max_wait_s, on_tick=relay)
    relay()
    return 0 if on_time else 1
