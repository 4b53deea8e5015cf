"""`qaconform capacity`: raise the arrival rate in steps until a threshold breaks, per scenario, and report the
highest throughput that held.

Why the open model (``--rate``) for the steps: with a fixed number of users, a slower target simply gets
fewer requests and "holds" at any load; a fixed arrival rate keeps asking, so latency limits break where the
target saturates. A step also stops the search when the generator itself could not make the asked rate (it
says so, rather than blaming the target). Total time is bounded by ``--max-time``: a step that would not fit
is not started. Imports neither locust nor gevent.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from qaconform import exitcodes
from qaconform.load.cli import add_target_arguments, default_out, load_thresholds, preflight, target
from qaconform.load.thresholds import ThresholdError, breaches
from qaconform.report.progress import duration
from qaconform.report.tables import table_text

if TYPE_CHECKING:
    from qaconform.load.runner import LoadSummary

STEP_OVERHEAD_S = 6.0
"""Start-up, stop and checks around each step's duration (measured: about 3 to 5 s)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from qaconform.load.runner import SCENARIOS

    parser.add_argument("--scenario", "-s", action="append", choices=SCENARIOS,
                        help="scenario to measure (repeatable; default browse and mixed)")
    parser.add_argument("--start-rate", type=float, default=20.0, help="requests/s of the first step (default 20)")
    parser.add_argument("--factor", type=float, default=1.5, help="each step asks this many times the previous "
                        "rate (default 1.5)")
    parser.add_argument("--step-duration", type=float, default=8.0, help="seconds per step (default 8)")
    parser.add_argument("--max-time", type=float, default=180.0, help="upper bound on the whole search in seconds, "
                        "all scenarios together (default 180)")
    add_target_arguments(parser)


def _step_record(rate: float, s: LoadSummary) -> dict[str, Any]:
    om = s.open_model or {}
    return {"rate": rate, "achieved_rps": om.get("achieved_rps", s.rps), "verdict": s.verdict,
            "kept_up": om.get("kept_up", True), "breaches": [b["name"] for b in breaches(s.thresholds)],
            "lost": len(s.lost), "generator_cpu_warning": s.generator_cpu_warning,
            "p95_ms": (s.total or {}).get("p95_ms")}


def max_steps(budget_s: float, step_s: float) -> int:
    """How many steps of ``step_s`` (plus their overhead) fit in ``budget_s``: the N of "step n of at most N"."""
    return max(0, int(budget_s // (step_s + STEP_OVERHEAD_S)))


def search_deadline(args: argparse.Namespace) -> float:
    """The end of the whole search (all scenarios), for the "left" of the progress lines."""
    return float(getattr(args, "search_deadline", time.monotonic()))


def search(scenario: str, args: argparse.Namespace, profile: Any, profile_path: str, out: Path, limits: Any,
           deadline: float) -> dict[str, Any]:
    """Steps for one scenario until a breach, a generator limit, or the deadline."""
    from qaconform.load.runner import RunConfig, run_load

    steps: list[dict[str, Any]] = []
    held: dict[str, Any] | None = None
    rate = args.start_rate
    stopped = "time budget (--max-time) reached before a threshold broke"
    for i in range(1, 100):
        if time.monotonic() + args.step_duration + STEP_OVERHEAD_S > deadline:
            break
        most = i - 1 + max(1, max_steps(deadline - time.monotonic(), args.step_duration))  # steps run faster or slower
        cfg = RunConfig(scenario=scenario, rate=rate, users=0, duration_s=args.step_duration,
                        workers=args.workers, wait_ms=args.wait_ms)
        s = run_load(cfg, profile, profile_path, out / scenario / f"step-{i:02d}", limits, quiet=True)
        rec = _step_record(rate, s)
        steps.append(rec)
        left = max(0.0, search_deadline(args) - time.monotonic())
        print(f"[{scenario} step {i} of at most {most}] asked {rate:.0f} req/s, made {rec['achieved_rps']:.1f}, "
              f"p95 {rec['p95_ms']} ms -> {'held' if s.verdict == 'pass' and rec['kept_up'] else 'broke'}"
              + (f" ({', '.join(rec['breaches'])})" if rec["breaches"] else "")
              + f" (at most {duration(left)} left)", flush=True)
        if s.verdict != "pass":
            stopped = "threshold breached: " + ", ".join(rec["breaches"] or ["items lost"])
            break
        if not rec["kept_up"]:
            stopped = ("the load generator could not make the asked rate (its CPU was the limit: add --workers)"
                       if rec["generator_cpu_warning"] else
                       "the target could not absorb the asked rate (answers too slow for the schedule)")
            break
        held = rec
        rate *= args.factor
    return {"held_rps": held["achieved_rps"] if held else None, "held_rate": held["rate"] if held else None,
            "stopped_because": stopped, "steps": steps}


def main(args: argparse.Namespace) -> int:
    from qaconform.load.runner import LoadRunError, new_run_id
    from qaconform.target.profile import ProfileError

    if args.start_rate <= 0 or args.factor <= 1 or args.step_duration <= 0 or args.max_time <= 0:
        print("qaconform capacity: --start-rate, --step-duration and --max-time must be positive and --factor above 1",
              file=sys.stderr)
        return exitcodes.USAGE
    run_id = new_run_id()
    out = Path(args.out) if args.out else default_out(run_id).parent / "capacity"
    deadline = time.monotonic() + args.max_time
    args.search_deadline = deadline
    scenarios = args.scenario or ["browse", "mixed"]
    try:
        limits = load_thresholds(args.thresholds, args.threshold)
        with target(args.profile) as (profile_path, profile):
            problem = preflight(profile)
            if problem:
                print(f"qaconform capacity: {problem}", file=sys.stderr)
                return exitcodes.UNREACHABLE
            results = {}
            for i, sc in enumerate(scenarios):
                share = (deadline - time.monotonic()) / (len(scenarios) - i)  # each scenario gets a fair part
                results[sc] = search(sc, args, profile, profile_path, out, limits, time.monotonic() + share)
    except (ProfileError, ThresholdError) as exc:
        print(f"qaconform capacity: {exc}", file=sys.stderr)
        return exitcodes.USAGE
    except LoadRunError as exc:
        print(f"qaconform capacity: {exc}", file=sys.stderr)
        return exitcodes.KIT_ERROR
    out.mkdir(parents=True, exist_ok=True)
    (out / "capacity.json").write_text(json.dumps({"run_id": run_id, "scenarios": results}, indent=2))
    rows = [(sc, f"{r['held_rps']:.1f} req/s (asked {r['held_rate']:.0f})" if r["held_rps"] else "nothing held",
             len(r["steps"]), r["stopped_because"]) for sc, r in results.items()]
    print(table_text(("scenario", "highest sustained throughput", "steps", "stopped because"), rows, numeric=(2,)))
    print(f"capacity report: {out / 'capacity.json'}")
    return exitcodes.OK if all(r["held_rps"] for r in results.values()) else exitcodes.RULE_FAILED
