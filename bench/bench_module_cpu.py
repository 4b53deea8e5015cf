"""The CPU one pytest process spends on a few suite modules against the embedded reference server (speed22).

A whole run at +25 ms moves by more than most changes of the kit on this shared machine; a module run in one process
(no xdist, no delay) shows what a change of that module's items costs, as the pytest process's own CPU (user +
system, from ``wait4``), beside its wall time and its outcome line. ``--root`` runs another checkout's suites (its
``qaconform`` package first on the path), so a pair compares a base with a branch back to back.

Run: python bench/bench_module_cpu.py [--root DIR ...] [--repeat N] [--seed N] [--fault NAME ...] MODULE [MODULE ...]
(the roots alternate within each repetition: A B, B A, A B, ...; at the end every test's outcome of each root is
compared with the first root's: with ``--fault``, whether a base and a branch judge a planted fault alike, test by
test)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qaconform.reference import ReferenceServer  # noqa: E402


def run_once(root: Path, modules: list[str], seed: int, faults: tuple[str, ...] = ()
             ) -> tuple[float, float, str, dict[str, str]]:
    """(CPU seconds of the pytest process, wall seconds, its last line, each test's outcome) for one run of
    ``modules`` under ``root``."""
    with ReferenceServer(faults=faults) as srv, tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "QACONFORM_SEED": str(seed), "PYTEST_XDIST_WORKER_COUNT": "",
               "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
        args = [sys.executable, "-m", "pytest", *modules, "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                "--target-profile", str(srv.profile_path), "--basetemp", str(Path(tmp) / "t"),
                "--junitxml", str(Path(tmp) / "junit.xml")]
        start = time.monotonic()
        proc = subprocess.Popen(args, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, text=True)
        out = proc.stdout.read() if proc.stdout else ""
        _, _, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        outcomes = _outcomes(Path(tmp) / "junit.xml")
    lines = [ln for ln in out.splitlines() if ln.strip()]
    return usage.ru_utime + usage.ru_stime, wall, lines[-1] if lines else "(no output)", outcomes


def _outcomes(junit: Path) -> dict[str, str]:
    import xml.etree.ElementTree as ET

    if not junit.exists():
        return {}
    found = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        found[f"{case.get('classname')}::{case.get('name')}"] = kinds[0] if kinds else "passed"
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("modules", nargs="+")
    ap.add_argument("--root", action="append", default=None, help="a checkout to run (default: this one)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--seed", type=int, default=20260801)
    ap.add_argument("--fault", action="append", default=[], help="a planted fault the server runs with (repeatable)")
    a = ap.parse_args()
    roots = [Path(r).resolve() for r in (a.root or [str(ROOT)])]
    seen: dict[Path, dict[str, str]] = {}
    for n in range(a.repeat):
        for root in (roots if n % 2 == 0 else roots[::-1]):
            load = os.getloadavg()[0]
            cpu, wall, last, outcomes = run_once(root, a.modules, a.seed, tuple(a.fault))
            seen.setdefault(root, outcomes)
            print(f"{root}: CPU {cpu:6.1f} s  wall {wall:6.1f} s  load {load:5.1f}  {last}", flush=True)
    first = next(iter(seen.values()))
    for root, outcomes in seen.items():  # every test's outcome, compared with the first root's
        differ = sorted(t for t in first.keys() | outcomes.keys() if first.get(t) != outcomes.get(t))
        print(f"{root}: {len(outcomes)} tests, {len(differ)} outcomes differ from {roots[0]}'s {differ[:3]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
