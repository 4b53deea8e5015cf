"""The steps of `qaconform run` for what a run covered and its cassettes: --fail-under, --har, coverage.json.

Kept beside run.py so that the runner only calls in: the pytest arguments that log every exchange
(``qaconform.pytest.exchange_log``, one file per process, so xdist workers need no merging but a read of the folder),
then before the report the interface map and the HAR files (into the runner's meta, where the report reads them),
and after it coverage.json, whole, in the run folder.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from collections.abc import Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from qaconform import __version__
from qaconform.errors import UsageError
from qaconform.report.files import strict_json

EXCHANGES_DIR = "exchanges"
"""Where the suites' processes log their exchanges during the run (removed once the report is written)."""
COVERAGE_NAME = "coverage.json"
CASSETTE_OUTCOMES = ("failed", "blocked", "error")
"""Tests whose exchanges are kept as HAR files (and warned ones): a failure, a step another rule's failure blocked
(the page shows it under that rule), a test the kit broke in."""
ENV_FAIL_UNDER = "QACONFORM_FAIL_UNDER"
"""--fail-under from the environment (a CI job's setting), when the option is not given."""


class FailUnderProblem(UsageError, ValueError):
    """--fail-under (or its environment variable) is not a share of 0 to 100: a usage error (exit 2)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fail-under", metavar="PCT", default=None,
                        help=f"fail the run (exit 1) when it checked fewer than PCT%% of the must-rules (env "
                             f"{ENV_FAIL_UNDER}, else the profile's fail_under); the summary always says 'checked "
                             "N of M must-rules'")
    parser.add_argument("--har", choices=("failed", "all"), default="failed",
                        help="HAR 1.2 cassettes in <run>/har/: of every failed or warned test (default), or also "
                             "every exchange of the run (all: har/all.har)")


PROFILE_FAIL_UNDER = "the profile's fail_under"


def fail_under_of(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> tuple[float | None, str]:
    """The share --fail-under (else the environment) asks for, or None, and where it came from;
    FailUnderProblem when it is not a share."""
    environ = os.environ if environ is None else environ
    raw = getattr(args, "fail_under", None)
    where = "--fail-under"
    if raw is None and str(environ.get(ENV_FAIL_UNDER, "")).strip():
        raw, where = environ[ENV_FAIL_UNDER].strip(), ENV_FAIL_UNDER
    if raw is None:
        return None, where
    try:
        pct = float(str(raw).rstrip("%"))
    except ValueError:
        raise FailUnderProblem(f"{where} {raw!r} is not a share: give a number from 0 to 100, like 90") from None
    if not 0 <= pct <= 100:
        raise FailUnderProblem(f"{where} {raw} is not a share: give a number from 0 to 100, like 90")
    return pct, where


def pytest_args(run_dir: Path) -> list[str]:
    """What the suites' pytest needs to log every exchange of every process of the run."""
    return ["-p", "qaconform.pytest.exchange_log", "--qaconform-exchanges", str(run_dir / EXCHANGES_DIR)]


def read_exchanges(folder: Path) -> Iterator[dict[str, Any]]:
    """Every exchange the processes of a run logged (one file each); a torn last line of a killed worker is left
    out."""
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("*.jsonl")):
        with path.open(encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if isinstance(entry, dict):
                    yield entry


def read_in_background(run_dir: Path, results_path: Path, meta: dict[str, Any], args: argparse.Namespace,
                       fail_under: tuple[float | None, str], secrets: set[str]) -> Future[dict[str, Any] | None]:
    """What the report takes from the run folder besides the results, read in a thread: the coverage the suites'
    pytest collected (the future's result), and into ``meta`` the interface map and the HAR files. It needs the
    suites ended, never the target, so the runner reads it while the cleanup's deletes wait for their answers, time
    the end of a run used to add to it (issue 31); ``Future.result`` raises what the reading raised."""
    def read() -> dict[str, Any] | None:
        from qaconform.report.writer import read_coverage

        collected = read_coverage(run_dir)
        if collected is not None:
            meta["coverage"] = collected  # not in run.json: `qaconform report` reads coverage.json itself
        if results_path.is_file():
            before_report(run_dir, json.loads(results_path.read_text(encoding="utf-8")), meta, har=args.har,
                          read_only=bool(args.read_only or args.dry_run), only=list(args.only),
                          fail_under=fail_under, secrets=secrets)
        return collected

    pool = ThreadPoolExecutor(1, "qc-report-inputs")
    try:
        return pool.submit(read)
    finally:
        pool.shutdown(wait=False)


def before_report(run_dir: Path, results: Mapping[str, Any], meta: dict[str, Any], *, har: str,
                  read_only: bool, only: list[str], fail_under: tuple[float | None, str],
                  secrets: set[str]) -> None:
    """The interface map and the cassettes, into ``meta`` (the coverage's interface keys, ``har``, ``fail_under``
    and where it came from)."""
    from qaconform.contract import load_contract
    from qaconform.report.coverage import interface_map  # here, not at the top: read after the suites (PyYAML)
    from qaconform.report.har import write_cassettes

    tests = [t for t in results.get("tests") or [] if isinstance(t, Mapping)]
    exchanges = list(read_exchanges(run_dir / EXCHANGES_DIR))  # read and parsed once for both
    interface = interface_map(exchanges, tests, load_contract(), read_only=read_only, only=only)
    meta["coverage"] = {**(meta.get("coverage") or {}), **interface}
    keep = [str(t["nodeid"]) for t in tests if t.get("outcome") in CASSETTE_OUTCOMES or t.get("warning")]
    failed = {str(t["nodeid"]): t["failure"]["exchange"] for t in tests
              if isinstance(t.get("failure"), dict) and isinstance(t["failure"].get("exchange"), dict)}
    meta["har"] = write_cassettes(run_dir, exchanges, keep, keep_all=har == "all",
                                  version=__version__, secrets=secrets, failed=failed)
    meta["fail_under"], meta["fail_under_from"] = fail_under


def after_report(run_dir: Path, report: Mapping[str, Any], collected: Mapping[str, Any] | None) -> Path:
    """coverage.json, whole and strict (the collected rule ids stay under ``rules``, which ``qaconform report``
    reads to tell "not selected" from "not covered"); the exchange logs go, the cassettes hold what is kept."""
    data = {**dict(report.get("coverage") or {}),
            **{k: v for k, v in (collected or {}).items() if k in ("collected", "rules")}}
    path = run_dir / COVERAGE_NAME
    path.write_text(strict_json(data, indented=True) + "\n", encoding="utf-8")
    shutil.rmtree(run_dir / EXCHANGES_DIR, ignore_errors=True)
    return path
