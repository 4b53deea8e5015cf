"""How often and how long the target held the run back (429, 503 with Retry-After): report.json's ``held_back``, a
line on the page and on the terminal, from the tests' ``held_back`` entries of the results file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from report_builders import CATALOG

from qaconform.pytest.outcomes import SkipKind
from qaconform.report import holdbacks
from qaconform.report.model import build_report
from qaconform.report.terminal import format_summary
from qaconform.report.writer import build_and_write


def _held(results: dict[str, Any]) -> dict[str, Any]:
    results["tests"][0]["held_back"] = {"times": 3, "waited_s": 3.0, "statuses": {"429": 3}, "paced_s": 1.25}
    results["tests"][1]["held_back"] = {"times": 1, "waited_s": 0.0, "statuses": {"503": 1},
                                        "given_up": ["the target answered 503 (Retry-After 3600 s): longer ..."]}
    results["tests"][1].update(outcome="skipped", skip_kind=SkipKind.HELD_BACK.value)
    results["tests"][2]["held_back"] = {"paced_s": 0.5}  # waited only for the pace another test's 429 lowered
    return results


def test_report_json_sums_the_hold_backs_and_lists_the_tests_not_checked(results: dict[str, Any]) -> None:
    held = build_report(_held(results), CATALOG)["held_back"]
    assert (held["times"], held["waited_s"], held["paced_s"], held["tests"]) == (4, 3.0, 1.8, 2)
    assert held["statuses"] == {"429": 3, "503": 1}
    assert held["not_checked"] == [results["tests"][1]["nodeid"]]
    assert held["longest"][0] == {"test": results["tests"][0]["nodeid"], "times": 3, "waited_s": 3.0}


def test_the_page_and_the_terminal_show_it_in_one_line(tmp_path: Path, results: dict[str, Any]) -> None:
    report, paths = build_and_write(_held(results), tmp_path, rules=CATALOG, meta={"run_id": "RUN1"})
    line = ("held back by the target 4 time(s) (3x 429, 1x 503) in 2 test(s): waited 3.0 s as told, 1.8 s at a "
            "lowered pace (summed over the tests); 1 test(s) not checked (held back too long)")
    assert holdbacks.text(report["held_back"]) == line
    assert line in paths["html"].read_text(encoding="utf-8")
    assert line in format_summary(report)
    assert json.loads(paths["json"].read_text(encoding="utf-8"))["held_back"]["times"] == 4


def test_a_run_never_held_back_says_nothing(results: dict[str, Any]) -> None:
    report = build_report(results, CATALOG)
    assert report["held_back"]["times"] == 0 and holdbacks.text(report["held_back"]) == ""
    assert "held back" not in format_summary(report)


def test_a_test_reported_twice_keeps_the_hold_backs_of_both_parts(results: dict[str, Any]) -> None:
    first = dict(results["tests"][0], held_back={"times": 1, "waited_s": 1.0, "statuses": {"429": 1}})
    teardown = dict(first, when="teardown", outcome="error",
                    held_back={"times": 2, "waited_s": 2.5, "statuses": {"429": 2}})
    results["tests"] = [first, teardown]
    held = build_report(results, CATALOG)["held_back"]
    assert (held["times"], held["waited_s"], held["tests"]) == (3, 3.5, 1)
