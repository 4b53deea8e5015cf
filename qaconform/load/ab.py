"""`qaconform capacity --baseline-target PROFILE`: is this build slower than the baseline, asked of both at once.

Two capacity searches of one build, run one after the other on a shared machine, found 109 and 643 req/s (qa17): the
CPU the target gets moves between runs by more than any regression worth finding, and a comparison of two such
figures could only say "no regression shown" with a busy-machine caveat. So, as benchmark tools compare builds on a
noisy machine, both builds run now and are measured under the same load at the same time: rounds in which each gets
the same closed-loop load (``--probe-users`` users without think time: what each makes at saturation), each in its
own thread and Locust process (interleaving them, ABBA, left pairs measured 10 s apart: ratios of one build to itself
from 0.67 to 1.54 on a machine at load 15; at once, 0.84 to 1.13). Whatever else the machine runs weighs on both
alike. Each round gives the ratio candidate/baseline of the throughput and, for a target on this machine, of the
requests per CPU second of its process; the rounds' spread gives the noise band (a 95 % confidence interval of the
mean log ratio, Student's t), and the verdict is a regression only outside it:

- ``slower`` (exit 1): a measure's whole band is below ``1 - tolerance``;
- ``faster``: one whole band is above ``1 + tolerance``, none below;
- ``same``: every band lies within the tolerance;
- ``cannot judge`` (exit 5, ``exitcodes.CANNOT_JUDGE``): the band straddles the tolerance (more ``--rounds``, or a
  quieter machine), or a round could not be measured (failures, no requests, CPU steal, too few pairs).

Each round also records the machine: how busy its CPUs were, the CPU time a hypervisor stole, the load average, and
a calibration probe (a fixed piece of work timed just before the round: how fast this machine runs Python now). They
are said beside the answer; CPU steal above STEAL_PCT refuses to judge (the machine's clock is not the process's).
Imports neither locust nor gevent.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from qaconform import exitcodes

SAME, SLOWER, FASTER, CANNOT_JUDGE = "same", "slower", "faster", "cannot judge"
FORMAT = "qaconform-ab/1"
MIN_PAIRS = 3
ROUND_OVERHEAD_S = 6.0
"""Start-up and stop around a round's duration (capacity.STEP_OVERHEAD_S: the same Locust runs)."""
"""Fewer pairs than this say nothing about the noise: cannot judge."""
STEAL_PCT = 20.0
"""A round during which a hypervisor took at least this share of the machine's CPU time is not judged."""
MAX_FAILURE_RATIO = 0.05
"""A round whose requests failed more than this share measured failures, not throughput."""
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
"""Student's t, two-sided 95 %, for 1 to 30 degrees of freedom (1.96 beyond)."""


def t975(df: int) -> float:
    return T975[df - 1] if 1 <= df <= len(T975) else 1.96


def steal_times() -> tuple[float, float] | None:
    """(steal, total) jiffies of all the machine's CPUs since boot (/proc/stat), or None where there is none."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [float(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return (fields[7], sum(fields[:8])) if len(fields) >= 8 else None


def steal_pct(before: tuple[float, float] | None, after: tuple[float, float] | None) -> float | None:
    if before is None or after is None or after[1] <= before[1]:
        return None
    return round(100.0 * (after[0] - before[0]) / (after[1] - before[1]), 1)


def local_pid(base_url: str) -> int | None:
    """The process listening on a loopback base URL's port (/proc: the kit's own machine), else None: a target
    elsewhere, or a process this user may not read."""
    from urllib.parse import urlsplit

    parts = urlsplit(base_url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    if parts.hostname not in ("127.0.0.1", "localhost", "::1"):
        return None
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table, encoding="ascii") as f:
                rows = [line.split() for line in f.readlines()[1:]]
        except OSError:
            continue
        inodes |= {r[9] for r in rows if len(r) > 9 and r[3] == "0A" and int(r[1].rsplit(":", 1)[1], 16) == port}
    wanted = {f"socket:[{i}]" for i in inodes}
    for pid in (p for p in os.listdir("/proc") if p.isdigit()) if wanted else ():
        try:
            if any(os.readlink(f"/proc/{pid}/fd/{fd}") in wanted for fd in os.listdir(f"/proc/{pid}/fd")):
                return int(pid)
        except OSError:
            continue
    return None


def process_cpu_s(pid: int | None) -> float | None:
    """CPU seconds (user + system, all threads) process ``pid`` has used, or None."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def calibrate(n: int = 200_000) -> float:
    """The calibration probe: milliseconds a fixed piece of Python work takes now (the fastest of three)."""
    best = math.inf
    for _ in range(3):
        t0 = time.perf_counter()
        x = 0
        for i in range(n):
            x += i & 7
        best = min(best, time.perf_counter() - t0)
    return round(best * 1000, 2)


def band(ratios: Sequence[float]) -> dict[str, Any]:
    """The mean ratio (geometric) of the pairs and its 95 % band, from the spread of their log ratios."""
    logs = [math.log(r) for r in ratios]
    mean = statistics.fmean(logs)
    half = t975(len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs)) if len(logs) > 1 else math.inf
    return {"ratio": round(math.exp(mean), 4), "low": round(math.exp(mean - half), 4),
            "high": round(math.exp(mean + half), 4) if half != math.inf else math.inf,
            "noise_pct": round(100 * (math.exp(half) - 1), 1) if half != math.inf else math.inf}


def unusable(rnd: Mapping[str, Any]) -> str | None:
    """Why one round cannot be judged, or None."""
    who = f"round {rnd['n']} ({rnd['build']})"
    if not rnd.get("achieved_rps"):
        return f"{who} made no request: see {rnd['folder']}"
    if (rnd.get("failure_ratio") or 0) > MAX_FAILURE_RATIO:
        return (f"{who}: {100 * rnd['failure_ratio']:.1f} % of its requests failed (see {rnd['folder']}): failures "
                "measure no throughput")
    if (rnd.get("steal_pct") or 0) >= STEAL_PCT:
        return (f"{who}: the hypervisor took {rnd['steal_pct']:g} % of the machine's CPU time (steal): this "
                "machine's timing cannot be trusted; run on a machine of your own")
    return None


MEASURES = (("throughput", "achieved_rps", "throughput"),
            ("cpu_efficiency", "requests_per_cpu_s", "requests per CPU second of the target process"))
"""What each pair compares: the throughput each build made, and, for a target on this machine, the requests it
answered per CPU second of its own process (what a build costs, whatever CPU share the busy machine gave it)."""


def measure_pairs(rounds: Sequence[Mapping[str, Any]], key: str) -> list[float] | None:
    """The candidate-over-baseline ratio of ``key`` per pair; None when a round lacks it."""
    pairs: dict[int, dict[str, float]] = {}
    for r in rounds:
        if not r.get(key):
            return None
        pairs.setdefault(int(r["pair"]), {})[str(r["build"])] = float(r[key])
    return [p["candidate"] / p["baseline"] for p in pairs.values() if "candidate" in p and "baseline" in p]


def verdict(rounds: Sequence[Mapping[str, Any]], tolerance_pct: float) -> dict[str, Any]:
    """The comparison of the measured rounds (``build`` "baseline" or "candidate", ``pair``, ``achieved_rps``, and
    ``requests_per_cpu_s`` when the targets' processes were readable).

    Slower when a measure's whole band is below the tolerance (a build that costs more CPU, or one that waits
    more, shows in one of them); same only when every measure's band is within it; faster when one is above and
    none below; otherwise cannot judge, naming the widest band."""
    tol = tolerance_pct / 100.0
    for r in rounds:
        why = unusable(r)
        if why:
            return {"verdict": CANNOT_JUDGE, "why": why, "pairs": 0, "measures": {}}
    found: dict[str, dict[str, Any]] = {}
    for name, key, words in MEASURES:
        ratios = measure_pairs(rounds, key)
        if ratios is None:
            continue
        if len(ratios) < MIN_PAIRS:
            return {"verdict": CANNOT_JUDGE, "pairs": len(ratios), "measures": {},
                    "why": f"{len(ratios)} round(s) measured, {MIN_PAIRS} needed to know the noise: give --max-time "
                           "more time or fewer --rounds"}
        b = band(ratios)
        b["said"] = (f"{words}: candidate {_pct(100 * (b['ratio'] - 1))} against the baseline (band "
                     f"{_pct(100 * (b['low'] - 1))} to {_pct(100 * (b['high'] - 1))}, ±{b['noise_pct']:g} % over "
                     f"{len(ratios)} rounds)")
        found[name] = {**b, "ratios": [round(x, 4) for x in ratios]}
    n = len(next(iter(found.values()))["ratios"]) if found else 0
    below = [m for m in found.values() if m["high"] < 1 - tol]
    above = [m for m in found.values() if m["low"] > 1 + tol]
    within = [m for m in found.values() if m["low"] >= 1 - tol and m["high"] <= 1 + tol]
    said = "; ".join(m["said"] for m in found.values())
    if below:
        v, why = SLOWER, f"{below[0]['said']}: the whole band is below the tolerance (−{tolerance_pct:g} %)"
    elif found and len(within) == len(found):
        v, why = SAME, f"{said}: every band is within the tolerance (±{tolerance_pct:g} %)"
    elif above:
        v, why = FASTER, f"{above[0]['said']}: the whole band is above the tolerance (+{tolerance_pct:g} %)"
    else:
        noise = max((m["noise_pct"] for m in found.values()), default=math.inf)
        more = max(2 * n, int(n * (noise / max(tolerance_pct, 0.1)) ** 2) + 1)
        v, why = CANNOT_JUDGE, (f"{said}: a band reaches past the tolerance (±{tolerance_pct:g} %), so neither "
                                f"same nor slower holds; narrow it with more rounds (--rounds {min(more, 30)}) or a "
                                "quieter machine, or accept a larger --tolerance")
    return {"verdict": v, "why": why, "pairs": n, "measures": found}


def exit_code(results: Mapping[str, Mapping[str, Any]]) -> int:
    """1 when a scenario is slower, else 5 when one could not be judged, else 0."""
    verdicts = {r["verdict"] for r in results.values()}
    if SLOWER in verdicts:
        return exitcodes.RULE_FAILED
    return exitcodes.CANNOT_JUDGE if CANNOT_JUDGE in verdicts else exitcodes.OK


def _pct(x: float) -> str:
    return f"{x:+.1f} %".replace("-", "−")


def machine_note(rounds: Sequence[Mapping[str, Any]]) -> str:
    """The machine during the rounds, in one line: busy CPUs, load, steal, the calibration probe's range."""
    def span(key: str, unit: str) -> str:
        vals = [float(r[key]) for r in rounds if r.get(key) is not None]
        return f"{min(vals):g} to {max(vals):g}{unit}" if vals else "unknown"
    return (f"machine during the rounds: CPUs busy {span('machine_busy_pct', ' %')}, load average "
            f"{span('load_average', '')}, steal {span('steal_pct', ' %')}, calibration probe "
            f"{span('calibration_ms', ' ms')} (the pairs compare builds measured under the same of these)")


def run_rounds(scenario: str, args: argparse.Namespace, sides: Mapping[str, tuple[Any, Path]], out: Path,
               limits: Any, deadline: float, steps_cls: Any) -> dict[str, Any]:
    """A warm-up round, then ``args.rounds`` rounds until done or the deadline, each running both builds at once
    (one thread each, each its own Locust process); the verdict of their pairs."""
    from concurrent.futures import ThreadPoolExecutor

    from qaconform.load.noise import busy_pct, cpu_times

    seconds = float(args.round_s)
    steps = {b: steps_cls(scenario, args, prof, tf, out / b, limits) for b, (prof, tf) in sides.items()}
    rounds: list[dict[str, Any]] = []

    pids = {b: local_pid(prof.base_url) for b, (prof, _) in sides.items()}

    def one(build: str, pair: int | None) -> dict[str, Any]:
        cpu = process_cpu_s(pids[build])
        v = steps[build].run(None, seconds, "round" if pair is not None else "warm-up")
        used = process_cpu_s(pids[build])
        rec = steps[build].records[-1]
        rec.update(build=build, pair=pair, achieved_rps=round(v.achieved_rps, 2),
                   folder=str(Path(build) / rec["folder"]))
        count = _requests(out / rec["folder"])
        if cpu is not None and used is not None and used > cpu and count:
            rec.update(target_cpu_s=round(used - cpu, 3), requests_per_cpu_s=round(count / (used - cpu), 1))
        return rec

    def both(pair: int | None) -> None:
        cal, steal0, cpu0 = calibrate(), steal_times(), cpu_times()
        order = ("baseline", "candidate") if (pair or 0) % 2 == 0 else ("candidate", "baseline")
        with ThreadPoolExecutor(2) as pool:
            recs = list(pool.map(lambda b: one(b, pair), order))
        machine = {"calibration_ms": cal, "steal_pct": steal_pct(steal0, steal_times()),
                   "machine_busy_pct": busy_pct(cpu0, cpu_times())}
        tag = "warm-up" if pair is None else f"round {pair + 1} of {args.rounds}"
        said = []
        for rec in sorted(recs, key=lambda r: str(r["build"])):
            rec.update(machine)
            if pair is not None:
                rec["n"] = len(rounds) + 1
                rounds.append(rec)
            p95 = "-" if rec["p95_ms"] is None else f"{rec['p95_ms']:.1f}"
            per_cpu = f", {rec['requests_per_cpu_s']:g} per CPU s" if rec.get("requests_per_cpu_s") else ""
            said.append(f"{rec['build']} {rec['achieved_rps']:.1f} req/s (p95 {p95} ms{per_cpu})")
        print(f"[{scenario} {tag}] {', '.join(said)}; machine busy {machine['machine_busy_pct']} %, calibration "
              f"{cal:g} ms", flush=True)

    print(f"[{scenario}] target processes on this machine: " + ", ".join(
        f"{b} {'pid ' + str(p) if p else 'none found (throughput only)'}" for b, p in pids.items()), flush=True)
    both(None)
    cost = seconds + ROUND_OVERHEAD_S
    for k in range(args.rounds):
        if time.monotonic() + cost > deadline:
            print(f"[{scenario}] --max-time reached after {k} rounds", flush=True)
            break
        both(k)
    result = verdict(rounds, args.tolerance)
    means = {b: statistics.fmean([r["achieved_rps"] for r in rounds if r["build"] == b] or [0.0]) for b in sides}
    return {**result, "baseline_rps": round(means["baseline"], 1), "candidate_rps": round(means["candidate"], 1),
            "machine": machine_note(rounds), "rounds": rounds, "round_s": seconds}


def _requests(folder: Path) -> int:
    """Requests a round sent in all (its summary.json), the count its target's CPU time was spent on."""
    import json

    try:
        return int(json.loads((folder / "summary.json").read_text(encoding="utf-8"))["total"]["count"] or 0)
    except (OSError, ValueError, KeyError, TypeError):
        return 0


def main(args: argparse.Namespace, steps_cls: Any) -> int:
    """The A/B comparison: ``--profile`` (or the embedded server) is the candidate, ``--baseline-target`` the
    baseline; writes ab.json in the output folder and exits as :func:`exit_code` says. ``steps_cls``: capacity's
    Steps, which runs and judges one load (passed in: this module is imported by capacity, never the reverse)."""
    from qaconform.load.cli import load_thresholds, preflight, target, write_target
    from qaconform.load.runner import new_run_id
    from qaconform.report.files import strict_json

    if not args.profile:  # the embedded server sets the demo passwords' variables, which a real profile may name
        from qaconform.errors import UsageError

        raise UsageError("--baseline-target needs --profile: the candidate build running too (`qaconform serve "
                         "--port 0 --profile-out candidate.toml` for the reference server)")
    if args.rounds < MIN_PAIRS or args.round_s < 4:
        from qaconform.errors import UsageError

        raise UsageError(f"--rounds must be {MIN_PAIRS} or more and --round-s 4 or more (a 2 s warm-up is left out)")
    run_id = new_run_id()
    from qaconform.load.cli import default_out

    out = Path(args.out) if args.out else default_out(run_id).parent / "capacity"
    deadline = time.monotonic() + args.max_time
    scenarios = args.scenario or ["browse"]
    limits = load_thresholds(args.thresholds, args.threshold)
    results: dict[str, Any] = {}
    with target(args.baseline_target, "capacity", option="--baseline-target") as (res_a, prof_a), \
            target(args.profile, "capacity") as (res_b, prof_b):
        preflight(prof_a)
        preflight(prof_b)
        sides = {"baseline": (prof_a, write_target(res_a, out / "baseline")),
                 "candidate": (prof_b, write_target(res_b, out / "candidate"))}
        from qaconform.load.footprint import clean_up, said_on_interrupt

        with said_on_interrupt(prof_b, out / "candidate", "capacity"):
            for i, sc in enumerate(scenarios):
                share = (deadline - time.monotonic()) / (len(scenarios) - i)
                results[sc] = run_rounds(sc, args, sides, out, limits, time.monotonic() + share, steps_cls)
        for name, prof in (("baseline", prof_a), ("candidate", prof_b)):
            clean_up(prof, out / name, keep=args.no_cleanup, command="capacity", label=f"{name} {prof.base_url}")
    report = {"format": FORMAT, "run_id": run_id, "baseline": prof_a.base_url, "candidate": prof_b.base_url,
              "tolerance_pct": args.tolerance, "probe_users": args.probe_users, "scenarios": results}
    out.mkdir(parents=True, exist_ok=True)
    (out / "ab.json").write_text(strict_json(report, indented=True), encoding="utf-8")
    print(summary_text(report))
    print(f"A/B report: {out / 'ab.json'}")
    return exit_code(results)


def summary_text(report: Mapping[str, Any]) -> str:
    lines = [f"A/B: baseline {report['baseline']} against candidate {report['candidate']}, closed loop of "
             f"{report['probe_users']} users, tolerance ±{report['tolerance_pct']:g} %"]
    for sc, r in report["scenarios"].items():
        lines.append(f"{sc}: {r['verdict'].upper()}: baseline {r['baseline_rps']:g} req/s, candidate "
                     f"{r['candidate_rps']:g} req/s (means of the rounds); {r['why']}")
        lines.append(f"  {r['machine']}")
    return "\n".join(lines)
