"""Where a run's requests go (issue 31 item 1, "count before cutting"): per suite file and per rule, reads against
writes, and the reads that repeat an identical earlier read no write could have changed.

The counts come from the client's exchange log (qaconform/target/exchange_log.py: ``QACONFORM_EXCHANGE_LOG`` names a
folder, every process of the run appends one line per request) joined with the run's report.json (a test's rules).

A repeat: a GET of the same URL (query included) as the same account, earlier in the run (any process), with no
write in between of a kind that list can show (:data:`READ_SHOWS`; a write of an unknown path counts as every
kind). So a repeat is a read whose answer the run already had: sharing it would cut a request and keep the verdict.
The kinds are this bench's reading of the interface, a heuristic, not the contract: a list of answers shows
comments' counts, the expert lists reputation, so most lists depend on most writes; the site lists (spaces,
topics, groups, issue types) on none the interface makes.

Run: python bench/request_table.py [--only AREA|RULE ...] [--jobs N] [--seed N]   (a whole `qaconform run` against a
fresh reference server; counts, not times: it may run on a busy machine) or
     python bench/request_table.py --log DIR --report report.json   (a run already made with the log on)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from qaconform.contract import API_PREFIX

ROOT = Path(__file__).resolve().parents[1]

WRITE_KINDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"/comment\.json$"), "comments"),
    (re.compile(r"/answer\.json$"), "answers"),
    (re.compile(r"/jobs/gdpr/"), "gdpr"),
    (re.compile(r"^/node/[^/]+/[A-Za-z]+\.json$"), "nodes"),  # lock, sendToMod, cancelwiki, unmarkfavorite ...
)
"""What a write (by its path under /services/v2) changes; any other write path changes every kind."""

ALL_KINDS = frozenset({"comments", "answers", "gdpr", "nodes"})
CONTENT = frozenset({"comments", "answers", "nodes"})

READ_SHOWS: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = (
    (re.compile(r"^/(space|topic|group)\.json$"), frozenset()),
    (re.compile(r"^/[^/]+/issuetype\.json$"), frozenset()),
    (re.compile(r"^/users/gdpr/"), ALL_KINDS),
    (re.compile(r"^/answer/[^/]+/comment\.json$"), frozenset({"comments", "nodes"})),
)
"""What a read (by its path) can show of the writes; any other read (questions, answers, users, followers,
experts) shows every kind of content."""


def _path(url: str) -> str:
    path = urlsplit(url).path
    return path.split(API_PREFIX, 1)[1] if API_PREFIX in path else path


def write_kind(url: str) -> frozenset[str]:
    path = _path(url)
    return next((frozenset({k}) for rx, k in WRITE_KINDS if rx.search(path)), ALL_KINDS)


def read_shows(url: str) -> frozenset[str]:
    path = _path(url)
    return next((kinds for rx, kinds in READ_SHOWS if rx.search(path)), CONTENT)


@dataclass
class Counts:
    """Requests of one row of a table."""

    requests: int = 0
    reads: int = 0
    writes: int = 0
    repeats: int = 0
    held: int = 0

    def add(self, read: bool, repeat: bool, held: bool) -> None:
        self.requests += 1
        self.held += held
        if held:
            return
        self.reads += read
        self.writes += not read
        self.repeats += repeat


@dataclass
class Table:
    total: Counts = field(default_factory=Counts)
    files: dict[str, Counts] = field(default_factory=dict)
    rules: dict[str, Counts] = field(default_factory=dict)
    repeated_urls: Counter[str] = field(default_factory=Counter)


def read_log(folder: Path) -> list[dict[str, Any]]:
    """Every line of every process's log, in the order the answers came (their time, then process and line)."""
    lines: list[tuple[float, int, int, dict[str, Any]]] = []
    for f in sorted(folder.glob("exchanges-*.jsonl")):
        for n, raw in enumerate(f.read_text(encoding="utf-8").splitlines()):
            if raw.strip():
                e = json.loads(raw)
                lines.append((float(e["t"]), int(e.get("pid") or 0), n, e))
    return [e for *_, e in sorted(lines, key=lambda x: x[:3])]


def rules_of(report: Mapping[str, Any]) -> dict[str, list[str]]:
    """A test's rules, by node id, from report.json."""
    return {str(t.get("nodeid")): list(t.get("rules") or []) for t in report.get("tests") or []}


def tabulate(exchanges: Iterable[Mapping[str, Any]], rules: Mapping[str, list[str]]) -> Table:
    """The counts of a run's exchanges (in order): per file, per rule (a test's requests count for each of its
    rules), reads, writes and repeats (see the module docstring)."""
    table = Table()
    last_read: dict[tuple[str, str], int] = {}  # (role, url) -> index of its last read
    last_write: dict[str, int] = {}  # kind -> index of the last write of that kind
    for i, e in enumerate(exchanges):
        url, role, held = str(e.get("url")), str(e.get("role")), bool(e.get("held"))
        read = str(e.get("method")).upper() in ("GET", "HEAD")
        repeat = False
        if not held and read:
            key = (role, url)
            before = last_read.get(key)
            newest = max((last_write.get(k, -1) for k in read_shows(url)), default=-1)
            repeat = before is not None and newest < before
            last_read[key] = i
            if repeat:
                table.repeated_urls[_path(url).split("?")[0]] += 1
        elif not held:
            for k in write_kind(url):
                last_write[k] = i
        test = e.get("test")
        file = str(test).split("::", 1)[0] if test else "(outside tests: doctor, preflight, cleanup)"
        table.total.add(read, repeat, held)
        table.files.setdefault(file, Counts()).add(read, repeat, held)
        for rule in rules.get(str(test), []) if test else []:
            table.rules.setdefault(rule, Counts()).add(read, repeat, held)
    return table


def _row(name: str, c: Counts, width: int) -> str:
    share = f"{100 * c.repeats / c.reads:.0f} %" if c.reads else "-"
    return f"{name:<{width}}  {c.requests:>8}  {c.reads:>6}  {c.writes:>6}  {c.repeats:>7}  {share:>8}  {c.held:>5}"


def render(table: Table, top_rules: int = 25) -> str:
    """The tables as text: the totals, per suite file (most requests first), the rules with the most requests, and
    the paths read again most often."""
    width = max([len(k) for k in table.files] + [40])
    head = f"{'':<{width}}  {'requests':>8}  {'reads':>6}  {'writes':>6}  {'repeats':>7}  {'repeat %':>8}  {'held':>5}"
    out = ["requests of the run (repeats: identical reads, same account, no write in between that the list shows; "
           "held: 429/503 answers sent again)", head,
           _row("all", table.total, width), "", "per suite file"]
    out += [_row(k, c, width) for k, c in sorted(table.files.items(), key=lambda kv: -kv[1].requests)]
    out += ["", f"per rule (a test's requests count for each of its rules; the {top_rules} with the most of "
                f"{len(table.rules)})"]
    out += [_row(k, c, width) for k, c in sorted(table.rules.items(), key=lambda kv: -kv[1].requests)[:top_rules]]
    out += ["", "paths read again most often (repeats)"]
    out += [f"{path:<{width}}  {n:>8}" for path, n in table.repeated_urls.most_common(10)]
    return "\n".join(out)


def run_with_log(work: Path, only: list[str] | None, jobs: int | None, seed: int, timeout_s: float) -> tuple[int, Path,
                                                                                                          Path]:
    """A `qaconform run` against a fresh reference server with the exchange log on: (exit code, log, report.json)."""
    sys.path.insert(0, str(ROOT))
    from qaconform.reference import ReferenceServer
    from qaconform.target.exchange_log import ENV

    log, out = work / "exchanges", work / "run"
    with ReferenceServer() as srv:
        cmd = [sys.executable, "-m", "qaconform.commands.cli", "run", "--profile", srv.profile_path,
               "--report-dir", str(out), "--seed", str(seed), "--no-cleanup"]
        cmd += ["--jobs", str(jobs)] if jobs else []
        cmd += ["--only", *only] if only else []
        # the runner's own requests (doctor, preflight) are outside any test, even when this bench runs in one
        env = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"} | {ENV: str(log)}
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout_s,
                              stdin=subprocess.DEVNULL, check=False)
    report = out / "report.json"
    if not report.is_file():
        raise SystemExit(f"qaconform run wrote no report (exit {proc.returncode}):\n{proc.stdout[-3000:]}\n"
                         f"{proc.stderr[-2000:]}")
    return proc.returncode, log, report


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="+", metavar="AREA|RULE", default=None, help="a part of the suites")
    ap.add_argument("--jobs", type=int, default=None, help="workers of the run (default: what qaconform run chooses)")
    ap.add_argument("--seed", type=int, default=20261123, help="seed of the generated tests (default 20261123)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds the run may take (default 900)")
    ap.add_argument("--log", type=Path, default=None, help="a folder of an earlier run's exchange log (no new run)")
    ap.add_argument("--report", type=Path, default=None, help="that run's report.json (with --log)")
    ap.add_argument("--rules", type=int, default=25, help="rules shown, most requests first (default 25)")
    ap.add_argument("--keep", action="store_true", help="keep the run folder and its exchange log")
    args = ap.parse_args()
    if (args.log is None) != (args.report is None):
        print("--log and --report go together: the log of a run and its report.json", file=sys.stderr)
        return 2
    code = 0
    if args.log is not None:
        if not args.log.is_dir() or not args.report.is_file():
            print(f"no exchange log in {args.log} or no report at {args.report}", file=sys.stderr)
            return 2
        log, report = args.log, args.report
        work = None
    else:
        work = Path(tempfile.mkdtemp(prefix="qaconform-bench-requests-"))
        code, log, report = run_with_log(work, args.only, args.jobs, args.seed, args.timeout)
    try:
        exchanges = read_log(log)
        if not exchanges:
            print(f"the exchange log in {log} is empty: was the run made with QACONFORM_EXCHANGE_LOG set?",
                  file=sys.stderr)
            return 2
        print(render(tabulate(exchanges, rules_of(json.loads(report.read_text(encoding="utf-8")))), args.rules))
    finally:
        if work is not None and not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    kept = f"; run folder and log kept in {work}" if work is not None and args.keep else ""
    print(f"\nqaconform run exit code {code}{kept}")
    return 0 if code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
