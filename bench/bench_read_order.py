"""Whether the suites catch a read-order fault when every request is slowed (issue 44 item 6, order20).

A fault whose hook keys on time (a response or a caller kept for a few seconds, ``*_KEPT_S``, ``*_CACHE_S`` in
qaconform/reference) is caught only by a test that sends the two reads it spoils close together. On a CI machine at
load the suites' requests come slower and further apart; this runs ``qaconform run --only RULE`` against a reference
server with the fault on, behind bench/delay_proxy.py holding each request ``--delay`` ms, ``--repeat`` times, and
prints for each run whether a test naming the rule failed, and which.

Run: python bench/bench_read_order.py --fault NAME --rule RULE [--delay 200] [--repeat 3] [--jobs N] [--suites DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from delay_proxy import DelayProxy  # noqa: E402

from qaconform.reference import ReferenceServer  # noqa: E402


def failed_tests(run_dir: Path, rule: str) -> list[str]:
    """The tests of the run's report.json that failed naming ``rule``."""
    report = json.loads((run_dir / "report.json").read_text(encoding="utf-8"))
    out = []
    for test in report.get("tests", []):
        if isinstance(test, dict) and test.get("outcome") == "failed" and rule in (test.get("failed_rules") or []):
            out.append(str(test.get("nodeid")))
    return out


def one_run(fault: str, rule: str, delay_ms: float, jobs: int | None, work: Path,
            suites: str | None = None) -> tuple[list[str], float]:
    with ReferenceServer(faults=[fault]) as srv, DelayProxy(srv.url, delay_ms / 1000) as proxy:
        text = Path(srv.profile_path).read_text(encoding="utf-8").replace(f'"{srv.url}"', f'"{proxy.url}"')
        profile = work / "profile.toml"
        profile.write_text(text, encoding="utf-8")
        out = Path(tempfile.mkdtemp(prefix="out-", dir=work))
        cmd = [sys.executable, "-m", "qaconform.commands.cli", "run", "--profile", str(profile), "--out", str(out),
               "--only", rule]
        if jobs is not None:
            cmd += ["--jobs", str(jobs)]
        if suites:
            cmd += ["--suites", suites]
        env = dict(os.environ)
        env.pop("PYTEST_CURRENT_TEST", None)
        began = time.monotonic()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1800, check=False)
        took = time.monotonic() - began
        runs = sorted(p for p in out.iterdir() if (p / "report.json").exists())
        if not runs:
            raise SystemExit(f"bench_read_order: the run wrote no report.json under {out}")
        return failed_tests(runs[-1], rule), took


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fault", required=True, help="the reference fault to turn on")
    ap.add_argument("--rule", required=True, help="the rule it breaks (the run's --only)")
    ap.add_argument("--delay", type=float, default=200.0, help="the proxy's delay per request in ms (default 200)")
    ap.add_argument("--repeat", type=int, default=1, help="runs (default 1)")
    ap.add_argument("--jobs", type=int, default=None, help="workers of each run (default: what qaconform run chooses)")
    ap.add_argument("--suites", default=None, help="run this copy of suites/ (e.g. an earlier commit's: before)")
    args = ap.parse_args()
    caught = 0
    with tempfile.TemporaryDirectory(prefix="bench-read-order-") as tmp:
        for i in range(args.repeat):
            failed, took = one_run(args.fault, args.rule, args.delay, args.jobs, Path(tmp), args.suites)
            caught += bool(failed)
            print(f"run {i + 1}: {'caught' if failed else 'MISSED'} in {took:.0f}s at +{args.delay:g} ms, load "
                  f"{os.getloadavg()[0]:.1f}; {len(failed)} failed test(s) naming {args.rule}"
                  + (f": {failed[0]}" if failed else ""))
    print(f"{args.fault}: caught {caught}/{args.repeat} at +{args.delay:g} ms per request")
    return 0


if __name__ == "__main__":
    sys.exit(main())
