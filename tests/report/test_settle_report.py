"""How long the target's lists took to show what the run wrote: report.json's ``settle``, a line on the page and on
the terminal. The figures come from the tests' ``settle`` entries of the results file (support.settle)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from report_builders import CATALOG

from qaconform.report.model import build_report, settle_text
from qaconform.report.terminal import format_summary
from qaconform.report.writer import build_and_write


def _with_settling(results: dict[str, Any]) -> dict[str, Any]:
    results["target"]["settle_s"] = 5.0
    results["tests"][0]["settle"] = {"reads": 4, "waits": [
        {"what": "GET answer/7/comment.json as member", "reads": 4, "waited_ms": 640, "settled": True}]}
    results["tests"][1]["settle"] = {"reads": 2, "waits": [
        {"what": "GET user/3/answer.json as novice", "reads": 9, "waited_ms": 5003, "settled": False},
        {"what": "GET answer/8/comment.json as admin", "reads": 2, "waited_ms": 60, "settled": True}]}
    return results


def test_report_json_says_the_window_how_many_read_backs_waited_and_for_how_long(results: dict[str, Any]) -> None:
    settle = build_report(_with_settling(results), CATALOG)["settle"]
    assert settle["window_s"] == 5.0 and settle["read_backs"] == 6
    assert settle["waited"] == 3 and settle["never_settled"] == 1
    assert settle["longest_ms"] == 640 and settle["median_ms"] == 640  # of those that settled: 60 and 640
    assert settle["slowest"][0]["waited_ms"] == 5003 and settle["slowest"][0]["test"].endswith("visibility_is_400")


def test_the_page_and_the_terminal_show_it_in_one_line(tmp_path: Path, results: dict[str, Any]) -> None:
    report, paths = build_and_write(_with_settling(results), tmp_path, rules=CATALOG, meta={"run_id": "RUN1"})
    line = "6 read-backs after writes, 3 waited for the lists to settle (median 640 ms, longest 640 ms; 1 never " \
           "settled; settle window 5 s)"
    assert settle_text(report["settle"]) == line
    assert line in paths["html"].read_text(encoding="utf-8")
    assert line in format_summary(report)
    assert json.loads(paths["json"].read_text(encoding="utf-8"))["settle"]["waited"] == 3


def test_without_read_backs_nothing_is_said_and_a_window_of_0_is_named_off(results: dict[str, Any]) -> None:
    assert build_report(results, CATALOG)["settle"]["read_backs"] == 0
    assert settle_text(build_report(results, CATALOG)["settle"]) == ""
    assert settle_text({"read_backs": 3, "waited": 0, "window_s": 0}) == \
        "3 read-backs after writes, none had to wait (settle window off)"


def test_a_test_reported_twice_keeps_the_read_backs_of_both_parts(results: dict[str, Any]) -> None:
    first = dict(results["tests"][0], settle={"reads": 1, "waits": []})
    teardown = dict(first, when="teardown", outcome="error", settle={"reads": 2, "waits": [
        {"what": "x", "reads": 2, "waited_ms": 10, "settled": True}]})
    results["tests"] = [first, teardown]
    settle = build_report(results, CATALOG)["settle"]
    assert settle["read_backs"] == 3 and settle["waited"] == 1
