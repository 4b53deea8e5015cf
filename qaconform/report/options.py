"""The report options ``qaconform run`` and ``qaconform report`` share: --baseline, --keep-all, --allure.

One place for their flags, their checks before anything runs, and the extra output they ask for, so the two commands
cannot drift apart.
"""

from __future__ import annotations

import argparse
import importlib.util
from collections.abc import Mapping
from typing import Any

from qaconform.errors import UsageError


def add_report_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--baseline", metavar="RUN", default=None,
                        help="an earlier run (report.json or run folder): rule statuses and observations that "
                             "changed since are shown near the top of report.html (`qaconform diff` prints the same)")
    parser.add_argument("--keep-all", action="store_true",
                        help="write report.json whole: every test's observations and every recorded exchange "
                             "(by default passing tests are summarised and failing tests keep their last 3 exchanges)")
    parser.add_argument("--allure", metavar="DIR", default=None,
                        help="also write Allure results into DIR, for `allure serve DIR` (needs the allure extra: "
                             "pip install 'qaconform[allure]')")


def check_report_options(args: argparse.Namespace) -> None:
    """UsageError when an option cannot work (checked before anything is sent)."""
    if getattr(args, "allure", None) and importlib.util.find_spec("allure_commons") is None:
        from qaconform.report.allure import INSTALL_HINT

        raise UsageError(f"--allure: {INSTALL_HINT}")
    if getattr(args, "baseline", None):
        from qaconform.report.diff import read_report

        try:
            read_report(args.baseline)
        except ValueError as exc:
            raise UsageError(f"--baseline {exc}") from None


def write_extra_outputs(report: Mapping[str, Any], args: argparse.Namespace) -> list[str]:
    """Write what the options ask for beside the three files (Allure results); lines to print about it."""
    if not getattr(args, "allure", None):
        return []
    from qaconform.report.allure import write_allure

    return [f"allure results: {write_allure(report, args.allure)} (allure serve {args.allure})"]
