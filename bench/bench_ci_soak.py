"""The hundredth build: twelve CI-like rounds of `qaconform run` against ONE reference server kept up across them.

CI points the kit at one shared staging server on every push, from a fresh checkout, sometimes two builds at once.
This bench plays exactly that: one reference server (with several allowed variants, so it is not the kit's default
target) behind a counting proxy; each round copies only the server's profile into a fresh folder (no record of
earlier runs beside it) and runs `qaconform run --profile site.toml` there; every fourth round starts two runs at
once. The proxy counts what the target accepted (writes: requests other than GET answered with a 2xx), so the
footprint is measured at the target, not from the kit's own report.

It prints one row per run (exit code, wall time, failed rules, must-rules checked, rules not checked because a
one-shot fixture is no longer in its state, writes sent/accepted at the target) and checks the issue's criteria:
- 0 failed rules in every run (the server is clean: any failed rule is a false failure);
- the median wall time of the last three rounds within 15 % of the first three (rounds of one run: a round of two
  at once shares the machine between them, so it is shown apart);
- the same must-rules checked in the last round as in the first, less those of one-shot fixtures earlier rounds
  consumed (the run says which: not checked, fixture not in its state);
- at most --max-writes accepted writes per run (a round of two runs at once counts the pair and halves it); the
  delete actions of the run's cleanup are counted apart (column "cleanup deletes"): they remove what it wrote.
Exit 0 when every criterion holds, 1 otherwise.

Run: python bench/bench_ci_soak.py [--rounds 12] [--variant NAME ...] [--only AREA ...] [--max-writes 100]
(about 12 x 30 s on 2 cores). A run that cleans up (the reference server names its delete action) leaves every
list as it found it, so the later rounds' lists are as long as the first's.
Everything listens on 127.0.0.1; every run is bounded by --timeout.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from delay_proxy import DelayProxy  # noqa: E402

from qaconform.reference import ReferenceServer  # noqa: E402

DEFAULT_VARIANTS = ("profile-without-ids", "one-shot-pools", "gdpr-time-frame-hour", "repeat-is-400",
                    "body-html-equivalent", "page-size-cap-100")
"""Allowed variants the soak's server runs with: ids the kit must find, pools of one-shot fixtures, a time frame of
an hour for data-protection jobs (two builds at once meet each other's frames), refused repeats of state changes,
bodies stored as equivalent HTML, a pageSize cap."""


@dataclass
class RunResult:
    round: int
    slot: str
    exit_code: int
    wall_s: float
    failed: list[str] = field(default_factory=list)
    must_checked: set[str] = field(default_factory=set)
    fixture_state: set[str] = field(default_factory=set)
    writes_sent: float = 0.0
    writes_accepted: float = 0.0
    deletes: float = 0.0
    """Of the accepted writes, the delete actions of the run's cleanup (they remove what the run created)."""
    requests: float = 0.0
    """Requests that reached the target (the round's, shared out equally in a round of two)."""
    server_ms: float = 0.0
    """The target's mean time per request in the round (the proxy's upstream time): a server that slows with its
    history shows here, a kit that sends more shows in ``requests``."""
    load1: float = 0.0
    """The machine's 1-minute load average when the round started (a busy machine makes every figure slower)."""
    verdict: str = ""


def read_report(path: Path) -> tuple[list[str], set[str], set[str], str]:
    """(failed rules, must-rules checked, rules not checked for a fixture not in its state, verdict)."""
    rep = json.loads(path.read_text(encoding="utf-8"))
    failed, checked, fixture = [], set(), set()
    for rule in rep.get("rules", []):
        status = rule.get("status")
        if status in ("failed", "error"):
            failed.append(str(rule["id"]))
        if rule.get("level") == "must" and status in ("passed", "failed", "error"):
            checked.add(str(rule["id"]))
        if status == "skipped" and "fixture not in its state" in str(rule.get("skip_category") or ""):
            fixture.add(str(rule["id"]))
    return failed, checked, fixture, str(rep.get("verdict", ""))


def one_run(profile_text: str, folder: Path, only: list[str], timeout_s: float, round_no: int, slot: str
            ) -> RunResult:
    """`qaconform run` in a fresh folder that holds only the profile, as a CI build from a fresh checkout."""
    folder.mkdir(parents=True)
    (folder / "site.toml").write_text(profile_text, encoding="utf-8")
    cmd = [sys.executable, "-m", "qaconform.commands.cli", "run", "--profile", "site.toml", "--report-dir", "r"]
    if only:
        cmd += ["--only", *only]
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, timeout=timeout_s)
        code, out = proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as exc:
        code, out = 124, f"timed out after {timeout_s:.0f} s: {exc}"
    wall = time.monotonic() - t0
    (folder / "out.log").write_text(out, encoding="utf-8")
    res = RunResult(round_no, slot, code, wall)
    report = folder / "r" / "report.json"
    if report.is_file():
        res.failed, res.must_checked, res.fixture_state, res.verdict = read_report(report)
    else:
        res.verdict = f"no report.json (exit {code}); see {folder / 'out.log'}"
    return res


def a_round(round_no: int, runs: int, profile_text: str, work: Path, proxy: DelayProxy, only: list[str],
            timeout_s: float) -> list[RunResult]:
    """``runs`` builds started together; the writes the target accepted meanwhile are shared out equally."""
    sent0, acc0 = proxy.stats.writes(deletes=False)
    del0 = proxy.stats.writes(deletes=True)[1]
    req0, up0, load1 = proxy.stats.requests, proxy.stats.upstream_s, os.getloadavg()[0]
    results: list[RunResult | None] = [None] * runs

    def go(i: int) -> None:
        slot = "ab"[i] if runs > 1 else "-"
        results[i] = one_run(profile_text, work / f"round{round_no:02d}{slot}", only, timeout_s, round_no, slot)

    threads = [threading.Thread(target=go, args=(i,)) for i in range(runs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    sent1, acc1 = proxy.stats.writes(deletes=False)
    del1 = proxy.stats.writes(deletes=True)[1]
    done = [r for r in results if r is not None]
    req1, up1 = proxy.stats.requests, proxy.stats.upstream_s
    for r in done:
        r.writes_sent, r.writes_accepted = (sent1 - sent0) / runs, (acc1 - acc0) / runs
        r.deletes = (del1 - del0) / runs
        r.requests, r.load1 = (req1 - req0) / runs, load1
        r.server_ms = 1000 * (up1 - up0) / max(1, req1 - req0)
    return done


def row(r: RunResult, first_checked: set[str]) -> str:
    lost = sorted(first_checked - r.must_checked)
    unexplained = [x for x in lost if x not in r.fixture_state]
    return (f"{r.round:>5} {r.slot:>4} {r.exit_code:>4} {r.wall_s:>7.1f} {len(r.failed):>6} {len(r.must_checked):>5} "
            f"{len(lost) - len(unexplained):>8} {len(unexplained):>6} {r.writes_sent:>7.0f} {r.writes_accepted:>8.0f} "
            f"{r.deletes:>7.0f} {r.requests:>8.0f} {r.server_ms:>6.2f} {r.load1:>5.2f}  "
            f"{(' '.join(r.failed) or r.verdict)[:70]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--pair-every", type=int, default=4, help="every Nth round starts two runs at once (default 4)")
    ap.add_argument("--variant", action="append", default=None,
                    help=f"allowed variants of the server (repeatable; default: {', '.join(DEFAULT_VARIANTS)})")
    ap.add_argument("--only", nargs="*", default=[], help="a part of the suites, as `qaconform run --only` takes it")
    ap.add_argument("--max-writes", type=float, default=100,
                    help="accepted writes allowed per run, the cleanup's deletes apart (default 100: the issue's "
                         "bound, and the kit's default write budget)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds one run may take (default 600)")
    ap.add_argument("--keep", action="store_true", help="keep the run folders (printed at the end)")
    args = ap.parse_args()
    variants = tuple(args.variant or DEFAULT_VARIANTS)
    work = Path(tempfile.mkdtemp(prefix="qc-soak-"))
    print(f"{args.rounds} rounds against one reference server ({', '.join(variants)}); {os.cpu_count()} CPUs, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start", flush=True)
    all_runs: list[RunResult] = []
    with ReferenceServer(variants=variants) as server, DelayProxy(server.url, 0.0) as proxy:
        profile_text = Path(server.profile_path).read_text(encoding="utf-8").replace(server.url, proxy.url)
        print(f"{'round':>5} {'run':>4} {'exit':>4} {'wall s':>7} {'failed':>6} {'must':>5} {'fixture':>8} "
              f"{'other':>6} {'writes':>7} {'accepted':>8} {'cleanup':>7} {'requests':>8} {'server':>6} "
              f"{'load':>5}  verdict / failed rules", flush=True)
        print(f"{'':>5} {'':>4} {'':>4} {'':>7} {'rules':>6} {'check':>5} {'lost':>8} {'lost':>6} {'sent':>7} "
              f"{'(target)':>8} {'deletes':>7} {'':>8} {'ms/req':>6} {'1 min':>5}", flush=True)
        first: set[str] = set()
        for n in range(1, args.rounds + 1):
            runs = 2 if args.pair_every and n % args.pair_every == 0 else 1
            for r in a_round(n, runs, profile_text, work, proxy, args.only, args.timeout):
                if not first and r.must_checked:
                    first = set(r.must_checked)
                all_runs.append(r)
                print(row(r, first), flush=True)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return verdict(all_runs, first, args.max_writes, work, args.keep)


def verdict(runs: list[RunResult], first: set[str], max_writes: float, work: Path, keep: bool) -> int:
    """The issue's four criteria, one line each."""
    # like with like: a round of two runs at once shares the machine (and the target) between them, so the wall
    # times compared are those of the rounds with one run; the pairs are shown apart
    by_round: dict[int, list[float]] = {}
    for r in runs:
        by_round.setdefault(r.round, []).append(r.wall_s)
    rounds = sorted(by_round)
    singles = [n for n in rounds if len(by_round[n]) == 1] or rounds
    head = statistics.median(w for n in singles[:3] for w in by_round[n])
    tail = statistics.median(w for n in singles[-3:] for w in by_round[n])
    pairs = [n for n in rounds if len(by_round[n]) > 1]
    pair_text = "; pairs: " + ", ".join(f"round {n} {max(by_round[n]):.1f} s" for n in pairs) if pairs else ""
    last = [r for r in runs if r.round == rounds[-1]]
    unexplained = sorted({x for r in last for x in first - r.must_checked if x not in r.fixture_state})
    checks = [
        ("0 failed rules in every run", all(not r.failed and r.exit_code == 0 for r in runs),
         f"{sum(bool(r.failed) for r in runs)} of {len(runs)} runs with a failed rule, "
         f"exit codes {sorted({r.exit_code for r in runs})}"),
        ("median wall time of the last three rounds within 15 % of the first three", tail <= head * 1.15,
         f"first three {head:.1f} s, last three {tail:.1f} s ({(tail / head - 1) * 100:+.0f} %; rounds of one run "
         f"{', '.join(map(str, singles[:3]))} vs {', '.join(map(str, singles[-3:]))}){pair_text}"),
        ("same must-rules checked in the last round as in the first (less consumed one-shots)", not unexplained,
         f"{len(first)} in the first; lost otherwise: {', '.join(unexplained) or 'none'}"),
        (f"at most {max_writes:.0f} accepted writes per run", all(r.writes_accepted <= max_writes for r in runs),
         f"median {statistics.median(r.writes_accepted for r in runs):.0f}, "
         f"max {max(r.writes_accepted for r in runs):.0f} (sent: median "
         f"{statistics.median(r.writes_sent for r in runs):.0f}; the cleanup's deletes apart: median "
         f"{statistics.median(r.deletes for r in runs):.0f})"),
    ]
    for name, ok, detail in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}")
    first_runs = [r for r in runs if r.round in singles[:3]]
    last_runs = [r for r in runs if r.round in singles[-3:]]
    def med(runs: list[RunResult], what: str) -> float:
        return statistics.median(float(getattr(r, what)) for r in runs)

    print("where the time went (medians, first three vs last three rounds of one run): requests "
          f"{med(first_runs, 'requests'):.0f} vs {med(last_runs, 'requests'):.0f}, the target's time per request "
          f"{med(first_runs, 'server_ms'):.2f} vs {med(last_runs, 'server_ms'):.2f} ms, load average at their start "
          f"{med(first_runs, 'load1'):.2f} vs {med(last_runs, 'load1'):.2f}")
    if keep:
        print(f"run folders: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if all(ok for _, ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
