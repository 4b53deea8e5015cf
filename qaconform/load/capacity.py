"""`qaconform capacity`: the highest throughput a target sustains within the thresholds, per scenario, to a stated
precision, with the curve that shows it.

How: a short closed-loop probe (``--probe-users`` users without think time) says roughly what the target makes at
saturation; open-model steps (``--rate``: a fixed arrival rate, so a slower target is not simply asked less) then
bracket the break and bisect between the highest rate that held and the lowest that broke until they are within
``--precision`` (qaconform.load.bracket), and the highest held rate runs once more. Each step is judged on its
steady state (qaconform.load.judge): warm-up left out, a queue building counts as broken. When the time budget
(``--max-time``) ends first, the answer is printed as a lower bound with the rates the truth lies between; when the
load generator's CPU was the limit, it says so and how many workers it would take. Writes ``capacity.json`` (every
step: offered, achieved, p50/p95/p99 from the harness's histogram, failure ratio, generator CPU) and
``capacity.html`` (qaconform.report.capacity_page). ``--baseline`` compares with an earlier capacity.json.
Imports neither locust nor gevent.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from qaconform import exitcodes
from qaconform.errors import UsageError
from qaconform.load.bracket import START_SHARE, Bracket
from qaconform.load.cli import (
    add_target_arguments,
    default_out,
    load_thresholds,
    preflight,
    target,
    write_limits,
    write_target,
)
from qaconform.load.judge import (
    GENERATOR,
    KIT,
    NETWORK,
    TARGET,
    TIME,
    Verdict,
    busy_machine,
    cores,
    judge,
    workers_needed,
)
from qaconform.load.noise import busy_pct, cpu_times, inconclusive, inside_noise, interval, measured
from qaconform.report.files import strict_json
from qaconform.report.progress import duration
from qaconform.report.tables import table_text

if TYPE_CHECKING:
    from qaconform.load.thresholds import Limits

FORMAT = "qaconform-capacity/1"
STEP_OVERHEAD_S = 6.0
"""Start-up, stop and checks around each step's duration before any step measured it (about 3 to 6 s)."""
EXPECTED_STEPS = 8
"""Steps a search is planned for when the step duration is derived from the budget (typically 5 to 9 are run)."""
WINDOW_S = 1.0
PROBE_S = 6.0
MAX_STEP_S = 12.0
"""Longest step the budget gives: 9 s of steady state after its warm-up, 2,700 requests at 300 req/s, enough to tell a
queue from noise; longer steps made a default search against a 300 req/s target take 154 s, shorter ones keep it
within the two minutes a capacity tester waits (issue 45)."""
MIN_STEP_S = 8.0
"""Shortest step the budget may give: its warm-up (2 s) and two partial windows leave about 4 s of steady state, where
one request per paced user either side of a window's edge is 5 % of the rate (see judge.shortfall_allowed)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from qaconform.load.runner import scenarios

    parser.add_argument("--scenario", "-s", action="append", choices=scenarios(),
                        help="scenario to measure (repeatable; default browse and mixed)")
    parser.add_argument("--precision", type=float, default=5.0, help="stop bisecting when the highest rate that "
                        "held and the lowest that broke are within this many percent (default 5)")
    parser.add_argument("--max-time", type=float, default=180.0, help="upper bound on the whole search in seconds, "
                        "all scenarios together (default 180)")
    parser.add_argument("--step-duration", type=float, default=None, help="seconds per step (default: from the "
                        "budget, 8 to 12)")
    parser.add_argument("--start-rate", type=float, default=None, help="first open-model step in req/s (default: "
                        f"{START_SHARE * 100:.0f}%% of what the closed-loop probe made)")
    parser.add_argument("--probe-users", type=int, default=16, help="users of the closed-loop probe (default 16)")
    parser.add_argument("--baseline", metavar="CAPACITY_JSON", help="an earlier capacity.json: compare the two "
                        "intervals per scenario (here, in capacity.json and on the page); exit 1 only on a fall beyond "
                        "--tolerance that the measured noise cannot explain ('cannot tell at this noise' otherwise; exit 5 when this "
                        "search is inconclusive)")
    parser.add_argument("--tolerance", type=float, default=5.0, help="with --baseline or --baseline-target: the "
                        "change in percent that is still no change (default 5)")
    parser.add_argument("--baseline-target", metavar="PROFILE", help="the baseline build, running now (its profile): "
                        "instead of a search, rounds of the same closed-loop load (--probe-users) against it and the "
                        "candidate (--profile, or the embedded server) in turn, ABBA; the verdict is same, slower "
                        "(exit 1), faster, or cannot judge (exit 5) from the pairs' noise band: what holds on a busy "
                        "machine (ab.json; default scenario browse)")
    parser.add_argument("--rounds", type=int, default=6, help="with --baseline-target: pairs of rounds (default 6)")
    parser.add_argument("--round-s", type=float, default=8.0, help="with --baseline-target: seconds per round, "
                        "a 2 s warm-up left out (default 8)")
    parser.add_argument("--no-cleanup", action="store_true", help="keep the answers and comments the write "
                        "scenarios created (by default removed at the end with the profile's [cleanup])")
    add_target_arguments(parser)


def max_steps(budget_s: float, step_s: float, overhead_s: float = STEP_OVERHEAD_S) -> int:
    """How many steps of ``step_s`` (plus their overhead) fit in ``budget_s``: the N of "step n of at most N"."""
    return max(0, int(budget_s // (step_s + overhead_s)))


def step_duration(args: argparse.Namespace, share_s: float) -> float:
    """The given --step-duration, else what the scenario's share of the budget allows for EXPECTED_STEPS steps
    after the probe (longer steps give a steadier steady state)."""
    if args.step_duration:
        return float(args.step_duration)
    per = (share_s - PROBE_S - STEP_OVERHEAD_S) / EXPECTED_STEPS - STEP_OVERHEAD_S
    return float(min(MAX_STEP_S, max(MIN_STEP_S, round(per))))


class Steps:
    """Runs the steps of one scenario, each in its own folder, and keeps their records and what they cost."""

    def __init__(self, scenario: str, args: argparse.Namespace, profile: Any, target_file: Path, out: Path,
                 limits: Limits) -> None:
        self.scenario, self.args, self.profile, self.target_file = scenario, args, profile, target_file
        self.out, self.limits = out, limits
        self.records: list[dict[str, Any]] = []
        self.overheads: list[float] = []

    def overhead(self) -> float:
        """What the next step will cost beyond its duration: the mean of the last two (the first run of a search
        also pays for cold imports, and a busy machine's slow minute passes)."""
        last = self.overheads[-2:]
        return sum(last) / len(last) if last else STEP_OVERHEAD_S

    def run(self, rate: float | None, seconds: float, kind: str) -> Verdict:
        from qaconform.load.runner import RunConfig, run_load

        n = len(self.records) + 1
        folder = self.out / self.scenario / f"step-{n:02d}"
        users = 0 if rate else max(1, self.args.probe_users)
        cfg = RunConfig(scenario=self.scenario, rate=rate, users=users, duration_s=seconds,
                        workers=self.args.workers, wait_ms=self.args.wait_ms, window_s=WINDOW_S,
                        write_limits=write_limits(self.args, self.profile), one_shots=False)
        started, cpu = time.monotonic(), cpu_times()
        summary = run_load(cfg, self.profile, self.target_file, folder, self.limits, quiet=True).as_dict()
        machine_busy = busy_pct(cpu, cpu_times())
        self.overheads.append(max(0.0, time.monotonic() - started - seconds))
        lat_path = folder / "latency.json"
        latency = json.loads(lat_path.read_text(encoding="utf-8")) if lat_path.is_file() else {}
        verdict = judge(summary, latency, folder / "locust_failures.csv", self.limits, rate, warmup(seconds))
        rec = {"n": n, "kind": kind, "duration_s": seconds, "users": summary["users"],
               "folder": str(folder.relative_to(self.out)), **verdict.record(),
               "load_average": round(os.getloadavg()[0], 2), "machine_busy_pct": machine_busy}
        self.records.append(rec)
        return verdict


def warmup(seconds: float) -> float:
    """What each step leaves out as warm-up: a quarter of it, at least 2 s."""
    return max(2.0, seconds / 4)


def _print_step(sc: str, rec: dict[str, Any], most: int, left: float) -> None:
    if rec["kind"] == "probe":
        what = f"closed-loop probe, {rec['users']} users: made {rec['achieved_rps']:.1f} req/s"
    else:
        what = f"asked {rec['offered_rps']:g} req/s, made {rec['achieved_rps']:.1f}"
        if rec.get("repeated"):
            what += (f" -> inside the machine's noise (±{rec['inside_noise_pct']:g} %: "
                     + "; ".join(rec["reasons"]) + "): repeated, the repeat decides")
        else:
            what += " -> held" if rec["held"] else " -> broke (" + "; ".join(rec["reasons"]) + ")"
    p95 = rec["p95_ms"]
    print(f"[{sc} step {rec['n']} of at most {most}] {what}, p95 {'-' if p95 is None else f'{p95:.1f}'} ms, "
          f"generator CPU {rec['generator_cpu_pct']:.0f}% (at most {duration(left)} left)", flush=True)


def search(scenario: str, args: argparse.Namespace, profile: Any, target_file: Path, out: Path, limits: Limits,
           deadline: float) -> dict[str, Any]:
    """Probe, bracket, bisect and confirm one scenario until done, the deadline, or a limit not the target's.

    A step the generator limited before any rate held does not end the search: a lower rate costs the generator
    less, so it steps down (within the budget) until a rate holds, which is then a lower bound the generator, not
    the target, set. Any other limit not the target's (the network, the kit) ends it at once."""
    seconds = step_duration(args, deadline - time.monotonic())
    steps = Steps(scenario, args, profile, target_file, out, limits)
    bracket = Bracket(precision=args.precision / 100.0)
    verdicts: dict[float, list[Verdict]] = {}
    limit: dict[str, Any] | None = None
    repeated: set[float] = set()
    ran_out = False

    def most() -> int:
        return len(steps.records) + max_steps(deadline - time.monotonic(), seconds, steps.overhead())

    if args.start_rate:
        bracket.start_rate = args.start_rate
    elif time.monotonic() + PROBE_S + steps.overhead() <= deadline:
        probe = steps.run(None, PROBE_S, "probe")
        _print_step(scenario, steps.records[-1], most() + 1, deadline - time.monotonic())
        if probe.achieved_rps <= 0:
            return _result(steps, bracket, verdicts, {"kind": TARGET, "detail": "the closed-loop probe made no "
                                                      "request: see " + steps.records[-1]["folder"]}, seconds)
        bracket.start_rate = max(0.1, START_SHARE * probe.achieved_rps)
    while (rate := bracket.next_rate()) is not None:
        if time.monotonic() + seconds + steps.overhead() > deadline:
            ran_out = True
            break
        v = steps.run(rate, seconds, "confirm" if rate in bracket.runs else "step")
        band = inside_noise(steps.records[-1], cores()) if rate not in repeated else None
        if band is not None and time.monotonic() + seconds + steps.overhead() <= deadline:
            repeated.add(rate)  # once per rate: the repeat decides, and counts as any step does
            steps.records[-1].update(inside_noise_pct=band, repeated=True)
            _print_step(scenario, steps.records[-1], max(most(), len(steps.records)), deadline - time.monotonic())
            v = steps.run(rate, seconds, "repeat")
        verdicts.setdefault(rate, []).append(v)
        _print_step(scenario, steps.records[-1], max(most(), len(steps.records)), deadline - time.monotonic())
        if limit is not None and v.held:
            bracket.add(rate, v.held)
            break  # the first rate that held under the generator's limit: above it nothing can be judged
        if not v.held and v.cause != TARGET:
            limit = _limit_not_target(v, rate, args)  # the lowest such rate says most
            if v.cause != GENERATOR or bracket.lo is not None:
                break
        elif not v.held:
            limit = None  # the target broke below where the generator did: the target's limit, searched as such
        bracket.add(rate, v.held)
    if bracket.done() and limit is None and bracket.lo:
        _curve(scenario, steps, bracket.lo, seconds, deadline, most)
    return _result(steps, bracket, verdicts, limit, seconds, ran_out)


CURVE_SHARES = (0.5, 0.25, 0.75)
"""With the answer found and time left, steps at these shares of it draw the low end of the curve (how latency grows
with load, which the bisection near the break does not show). They do not change the answer, so they are the
shortest steps that still have a steady state (MIN_STEP_S)."""


def _curve(scenario: str, steps: Steps, lo: float, seconds: float, deadline: float, most: Any) -> None:
    for share in CURVE_SHARES:
        if time.monotonic() + min(seconds, MIN_STEP_S) + steps.overhead() > deadline:
            return
        rate = max(0.1, round(lo * share, 1))
        steps.run(rate, min(seconds, MIN_STEP_S), "curve")
        _print_step(scenario, steps.records[-1], max(most(), len(steps.records)), deadline - time.monotonic())


def _limit_not_target(v: Verdict, rate: float, args: argparse.Namespace) -> dict[str, Any]:
    """The search stops: what broke this step is not the target's capacity."""
    if v.cause == GENERATOR:
        n = workers_needed(v.cpu_s_per_request, rate)
        procs = ", ".join(f"{c['name']} {c['mean_cpu_pct']}%" for c in v.generator_cpu)
        detail = (f"the load generator's CPU was the limit at {rate:g} req/s ({procs} of a core): it made "
                  f"{v.achieved_rps:.1f} req/s")
        if n and n > max(args.workers, 1):
            detail += f"; offering {rate:g} req/s takes about {n} generator processes: rerun with --workers {n}"
            if n + 1 > cores():
                detail += (f" (this machine has {cores()} cores, shared with anything else running here: put "
                           "workers on other machines with --remote-workers)")
        else:
            detail += (f"; its users waited for their start slots, not for answers, and it fell behind them: "
                       f"another generator process (--workers {max(args.workers, 1) + 1}) spreads that load")
        return {"kind": GENERATOR, "detail": detail, "workers_needed": n}
    if v.cause == NETWORK:
        return {"kind": NETWORK, "detail": f"at {rate:g} req/s most failures had no HTTP answer at all (refused, "
                f"reset or timed out connections): the network or a connection limit in front of the target, not "
                f"its capacity; see {v.failure_kinds}"}
    return {"kind": KIT, "detail": f"at {rate:g} req/s the failures were 4xx answers to state changes the kit sent "
            f"({v.failure_kinds.get('state_4xx', 0)} of them): the kit's own state errors, not the target's "
            "capacity; see the step's locust_failures.csv"}


def _result(steps: Steps, bracket: Bracket, verdicts: dict[float, list[Verdict]], limit: dict[str, Any] | None,
            seconds: float, ran_out: bool = False) -> dict[str, Any]:
    lo, hi = bracket.lo, bracket.hi
    achieved = None
    if lo is not None:
        runs = verdicts.get(lo, [])
        achieved = round(sum(v.achieved_rps for v in runs) / len(runs), 1) if runs else None
    done = bracket.done()
    if limit is None:
        if done:
            first = _first_breach(steps.records, hi)
            limit = {"kind": TARGET, "detail": f"the target at {hi:g} req/s: {first}",
                     "operations": _broke_first(steps.records, hi)}
        else:
            limit = {"kind": TIME, "detail": "the time budget (--max-time) ran out before the answer was within "
                     "--precision and confirmed"}
    lower_bound = not (done and lo is not None and hi is not None)
    unstable = [r["offered_rps"] for r in steps.records if r["kind"] == "curve" and not r["held"]]
    between = [lo, hi]
    probe = next((r for r in steps.records if r["kind"] == "probe"), None)
    if lo is None and limit["kind"] == GENERATOR and probe is not None:
        statement = (f"a lower bound: the target answered {probe['achieved_rps']:g} req/s to the closed-loop probe; "
                     "no offered rate above it could be judged, because the load generator, not the target, was the "
                     "limit (see limited by)")
    elif lo is not None and limit["kind"] == GENERATOR:
        statement = (f"a lower bound: it held {achieved:g} req/s (asked {lo:g}); no higher rate could be judged, "
                     "because the load generator, not the target, was the limit above it (see limited by)")
    elif lower_bound or lo is None or hi is None:
        held = f"it held {achieved:g} req/s (asked {lo:g})" if lo else _held_nothing(bracket)
        statement = ("a lower bound: " + held
                     + ("; the truth lies between " + f"{lo or 0:g} and {hi:g} req/s" if hi else
                        "; no step broke, so the truth lies above it"))
    else:
        statement = (f"{achieved:g} req/s (asked {lo:g}, confirmed); the next rate up, {hi:g} req/s, broke: "
                     f"within {(hi / lo - 1) * 100:.1f} % of the break")
    if unstable:
        statement += (f"; but {', '.join(f'{r:g}' for r in unstable)} req/s, below it, broke as well: the target "
                      "does not hold its capacity steadily (see the steps)")
    verdict = "answer" if not lower_bound else "lower bound"
    if achieved is None and limit["kind"] == TIME and ran_out:  # no rate held before the budget ran out (user26)
        verdict, statement = "inconclusive", inconclusive(steps.records, hi, cores(), seconds)
        if bracket.runs and _held_nothing(bracket) != "it held nothing":
            statement += "; " + _held_nothing(bracket)
    noise = measured(steps.records)
    return {"verdict": verdict, "capacity_rps": achieved, "capacity_rate": lo, "lower_bound": lower_bound, "between": between,
            "noise": noise, "interval": interval(achieved, None if lower_bound else hi, noise["noise_pct"]),
            "caveats": caveats(steps.records),
            "precision_reached": bracket.precise(), "confirmed": bracket.confirmed(), "statement": statement,
            "broke_below": unstable,
            "limited_by": limit, "knee_rps": knee(steps.records), "step_duration_s": seconds,
            "warmup_s": warmup(seconds), "steps": steps.records, "usl": _usl(steps.records),
            # the names of the previous format, for readers of older capacity.json files
            "held_rps": achieved, "held_rate": lo, "stopped_because": limit["detail"]}


def _held_nothing(bracket: Bracket) -> str:
    """No rate held every time: said with the rates that held once and broke when tried again (two searches at once
    on a busy machine held 192 and 210 req/s, then broke at both, and "it held nothing" contradicted the steps)."""
    once = sorted(r for r, v in bracket.runs.items() if any(v))
    if not once:
        return "it held nothing"
    rates = ", ".join(f"{r:g}" for r in once[:-1]) + (" and " if len(once) > 1 else "") + f"{once[-1]:g}"
    return f"no rate held every time it was tried ({rates} req/s held, then broke when tried again)"


def exit_code(results: dict[str, dict[str, Any]], changes: list[dict[str, Any]]) -> int:
    """1 for a regression against the baseline, or for a scenario the baseline does not compare that held nothing;
    5 (CANNOT_JUDGE) for a search whose time ran out before any rate held every time (``verdict`` inconclusive: no
    answer, never "nothing held"); 0 otherwise. A scenario compared with the baseline fails only as a regression, as
    --baseline's help says."""
    if any(c["regressed"] for c in changes):
        return exitcodes.RULE_FAILED
    if any(r.get("verdict") == "inconclusive" for r in results.values()):
        return exitcodes.CANNOT_JUDGE
    compared = {c["scenario"] for c in changes}
    if any(not r["capacity_rps"] for sc, r in results.items() if sc not in compared):
        return exitcodes.RULE_FAILED
    return exitcodes.OK


def caveats(records: list[dict[str, Any]]) -> list[str]:
    """What the reader should weigh beside the answer without it being the reason for it: a machine busier than its
    cores during a step (the highest load average after a step), which can only have made the figures lower."""
    loads = [float(r["load_average"]) for r in records if r.get("load_average") is not None]
    busy = busy_machine(max(loads), cores()) if loads else None
    return [busy] if busy else []


def _broke_first(records: list[dict[str, Any]], hi: float | None) -> list[str]:
    """The operations whose limits broke at the lowest broken rate, worst (actual over limit) first."""
    at = [r for r in records if r["kind"] != "probe" and r["offered_rps"] == hi and not r["held"]
          and not r.get("repeated")]
    if not at:
        return []
    bs = sorted(at[0]["breaches"], key=lambda b: -((b["actual"] or 0) / (b["limit"] or 1)))
    return [b["name"] for b in bs]


def _first_breach(records: list[dict[str, Any]], hi: float | None) -> str:
    at = [r for r in records if r["kind"] != "probe" and r["offered_rps"] == hi and not r["held"]
          and not r.get("repeated")]
    if not at:
        return "none broke"
    ops = _broke_first(records, hi)
    return ("; ".join(at[0]["reasons"])) + (f" (broke first: {ops[0]})" if ops else "")


def _usl(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The USL model of the steps (qaconform.report.usl), without its drawn curve: a fit, labelled as one."""
    from qaconform.report.usl import fit_usl

    fit = fit_usl(records)
    return None if fit is None else {k: v for k, v in fit.items() if k != "curve"}


def knee(records: list[dict[str, Any]], factor: float = 2.0) -> float | None:
    """Where latency starts to climb (the bend of the hockey stick): the lowest offered rate from which every step's
    p95 is above ``factor`` times the lowest p95 measured (one noisy low step does not make a knee). None with fewer
    than three open-model steps or no such rate."""
    pts = sorted((r["offered_rps"], r["p95_ms"]) for r in records
                 if r["kind"] != "probe" and r["p95_ms"] is not None)
    if len(pts) < 3:
        return None
    limit = factor * max(min(p for _, p in pts), 0.001)
    found = None
    for rate, p95 in reversed(pts):
        if p95 <= limit:
            break
        found = rate
    return found if found is not None and found > pts[0][0] else None


def main(args: argparse.Namespace) -> int:
    from qaconform.load.runner import checks_note, new_run_id

    _check_options(args)
    if getattr(args, "baseline_target", None):
        if args.baseline:
            raise UsageError("give --baseline (an earlier capacity.json) or --baseline-target (the baseline build "
                             "running now), not both")
        from qaconform.load import ab

        return ab.main(args, Steps)
    baseline = None
    if args.baseline:
        from qaconform.report.capacity_diff import read_capacity

        baseline = read_capacity(args.baseline)
    run_id = new_run_id()
    out = Path(args.out) if args.out else default_out(run_id).parent / "capacity"
    deadline = time.monotonic() + args.max_time
    scenarios = args.scenario or ["browse", "mixed"]
    limits = load_thresholds(args.thresholds, args.threshold)
    with target(args.profile, "capacity") as (resolved, profile):
        preflight(profile)
        target_file = write_target(resolved, out)  # resolved once: every step's Locust processes read it
        results = {}
        from qaconform.load.footprint import clean_up, said_on_interrupt

        with said_on_interrupt(profile, out, "capacity"):
            for i, sc in enumerate(scenarios):
                share = (deadline - time.monotonic()) / (len(scenarios) - i)  # each scenario gets a fair part
                results[sc] = search(sc, args, profile, target_file, out, limits, time.monotonic() + share)
        base_url = profile.base_url

        clean_up(profile, out, keep=args.no_cleanup, command="capacity")  # every step's nodes, the target still up
    report = {"format": FORMAT, "run_id": run_id, "target": base_url, "workers": args.workers,
              "precision_pct": args.precision, "max_time_s": args.max_time, "window_s": WINDOW_S,
              "thresholds": {"defaults": limits.defaults, "total": limits.total, "operations": limits.operations},
              "checks": checks_note(), "scenarios": results}
    changes: list[dict[str, Any]] = []
    if baseline is not None:  # in capacity.json and on the page too (issue 45), not only on the terminal
        from qaconform.report.capacity_diff import compare_capacity

        changes = compare_capacity(baseline, report, args.tolerance)
        report["baseline"] = {"run_id": baseline.get("run_id"), "path": str(args.baseline),
                              "tolerance_pct": args.tolerance, "changes": changes,
                              "verdict": "REGRESSION" if any(c["regressed"] for c in changes) else "no regression"}
    code = exit_code(results, changes)
    out.mkdir(parents=True, exist_ok=True)
    (out / "capacity.json").write_text(strict_json(report, indented=True), encoding="utf-8")
    from qaconform.report.capacity_page import render_capacity

    (out / "capacity.html").write_text(render_capacity(report), encoding="utf-8")
    print(summary_text(report))
    print(f"capacity report: {out / 'capacity.json'}  page: {out / 'capacity.html'}")
    if baseline is not None:
        from qaconform.report.capacity_diff import compare_text

        print(compare_text(changes, args.tolerance))
    return code


def _check_options(args: argparse.Namespace) -> None:
    """UsageError for an option the search cannot work with (before the reference server or any request)."""
    if not 0 < args.precision < 100:
        raise UsageError("--precision is a percentage between 0 and 100 (default 5)")
    if args.max_time <= 0 or (args.step_duration is not None and args.step_duration <= 0):
        raise UsageError("--max-time and --step-duration must be positive")
    if args.start_rate is not None and args.start_rate <= 0:
        raise UsageError("--start-rate must be positive")
    if args.probe_users < 1 or args.workers < 0 or args.tolerance < 0:
        raise UsageError("--probe-users must be 1 or more, --workers and --tolerance 0 or more")


def summary_text(report: dict[str, Any]) -> str:
    rows = []
    for sc, r in report["scenarios"].items():
        cap = "nothing held" if r["capacity_rps"] is None else f"{r['capacity_rps']:g} req/s"
        if r.get("verdict") == "inconclusive":
            cap = f"inconclusive (noise ±{r['noise']['noise_pct']:g} %)"
        if r["lower_bound"] and r["capacity_rps"] is not None:
            cap = "at least " + cap
        rows.append((sc, cap, len(r["steps"]), r["limited_by"]["kind"]))
    lines = [table_text(("scenario", "highest sustained throughput", "steps", "limited by"), rows, numeric=(2,))]
    for sc, r in report["scenarios"].items():
        lines.append(f"{sc}: {r['statement']}")
        iv = r.get("interval") or {}
        if iv.get("best") is not None:
            upper = "no upper end (a lower bound)" if iv.get("upper") is None else f"upper {iv['upper']:g}"
            lines.append(f"  interval: lower {iv['lower']:g}, best {iv['best']:g}, {upper} req/s at the measured "
                         f"noise ±{iv['noise_pct']:g} %")
        lines.append(f"  limited by {r['limited_by']['kind']}: {r['limited_by']['detail']}")
        lines.extend(f"  caveat: {c}" for c in r.get("caveats") or [])
    sampled = (report.get("checks") or {}).get("sampled")
    if sampled:
        lines.append(f"checks: every answer's status, Content-Type and envelope bytes; {sampled['what']} on one "
                     f"in {sampled['one_in']} calls per user")
    return "\n".join(lines)
