"""``qaconform report RESULTS.json [--out DIR]``: rebuild junit.xml, report.json and report.html from a results file.

Useful when the report code improves after a run, when a run was made with plain ``pytest --qaconform-results``,
or to apply an ``--expect`` file after the fact. The exit code is the verdict of the rebuilt report (as for
``qaconform run``), or 2 when the input cannot be read.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from qaconform.report.expect import load_expectations
from qaconform.report.files import RunFileError, read_run_json
from qaconform.report.options import add_report_options, check_report_options, write_extra_outputs
from qaconform.report.redact import secret_variants
from qaconform.report.terminal import format_summary
from qaconform.report.writer import COVERAGE_NAME, RUN_META_NAME, build_and_write, read_coverage


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", metavar="RESULTS.json",
                        help="a results file (pytest --qaconform-results), or a run folder holding results.json")
    parser.add_argument("--out", metavar="DIR", default=None,
                        help="where to write the three files, and a copy of the run's coverage.json "
                             "(default: the folder of the results file)")
    parser.add_argument("--expect", metavar="FILE", default=None,
                        help="expected failures (TOML or YAML: rule id -> reason + link)")
    parser.add_argument("--profile", metavar="P", default=None,
                        help="the run's target profile: its passwords are redacted from the report too")
    add_report_options(parser)


def read_results(path: Path) -> dict[str, Any]:
    """The results dict, or RunFileError (a UsageError) with a message for the user.

    A report.json also holds a 'tests' list, but it is what this command writes: rebuilt from it, the report lost
    the observations and the passing tests' details it had summarised, and overwrote the run's report.json (qa20).
    """
    data = read_run_json(path, "results.json", "tests",
                         "pass the file written by --qaconform-results or a run folder",
                         "not a qaconform results file (no 'tests' list); "
                         "was it written by pytest --qaconform-results?")
    if str(data.get("format", "")).startswith("qaconform-report"):
        beside = path.parent / "results.json"
        fix = (f"pass the run folder {path.parent} (it holds results.json)" if beside.is_file() else
               "pass the run's results.json (a report is rebuilt from it; keep it beside report.json)")
        raise RunFileError(f"{path}: a report.json, which this command writes from results.json, not a results "
                           f"file (rebuilt from it, the report would lose the observations it summarised); {fix}")
    return data


def main(args: argparse.Namespace) -> int:
    src = Path(args.results)
    results = read_results(src)
    expectations = load_expectations(args.expect) if args.expect else None
    check_report_options(args)
    folder = src if src.is_dir() else src.parent
    out = Path(args.out) if args.out else folder
    meta: dict[str, Any] = {}
    meta_path = folder / RUN_META_NAME
    if meta_path.is_file():
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            print(f"qaconform report: {meta_path} is unreadable; rebuilding without it", file=sys.stderr)
    meta.setdefault("run_id", folder.name)
    coverage = read_coverage(folder)
    if coverage is not None:
        meta["coverage"] = coverage
    secrets: set[str] = set()
    if args.profile:
        from qaconform.target.profile import load_profile

        prof = load_profile(args.profile)
        secrets = secret_variants(prof.passwords(), [a.username for a in prof.accounts.values()])
    load_dir = out / "load" if (out / "load").is_dir() else folder / "load"
    report, paths = build_and_write(results, out, expectations=expectations, meta=meta, load_dir=load_dir,
                                    secrets=secrets, baseline=args.baseline, keep_all=args.keep_all)
    if coverage is not None and out.resolve() != folder.resolve() and not (out / COVERAGE_NAME).exists():
        # the summary and the page name coverage.json beside report.html (qa20: --out DIR named DIR/coverage.json,
        # which was not there)
        shutil.copyfile(folder / COVERAGE_NAME, out / COVERAGE_NAME)
    for line in write_extra_outputs(report, args):
        print(line)
    print(format_summary(report, paths["html"]))
    return int(report["exit_code"])
