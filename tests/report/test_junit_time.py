"""qa21: junit.xml's suite time is how long the run took, as pytest's own junitxml writes it.

A CI build run on five workers wrote a testsuite time of 852 s for a build that took 415 s of wall time: the kit
added up the tests' durations, which workers running side by side make longer than the run. CI dashboards show the
suite's time as the run's; it is now report.json's ``duration_s`` (the suites' start to finish), with the suite's
``timestamp`` its start. Each testcase keeps its own duration."""

from __future__ import annotations

from pathlib import Path

from report_builders import CATALOG, make_results, strict_junit

from qaconform.report.writer import build_and_write


def test_the_suite_time_is_the_runs_duration_not_the_sum_of_the_tests(tmp_path: Path) -> None:
    res = make_results()
    for t in res["tests"]:
        t["duration"] = 4.0  # side by side on the workers: the tests add up to more than the run's 12.5 s
    assert 4.0 * len(res["tests"]) > 12.5
    report, paths = build_and_write(res, tmp_path, rules=CATALOG)
    assert report["duration_s"] == 12.5
    root = strict_junit(paths["junit"].read_text(encoding="utf-8"))
    suite = root.find("testsuite")
    assert suite is not None
    assert float(suite.get("time") or "nan") == 12.5 and float(root.get("time") or "nan") == 12.5
    assert suite.get("timestamp") == res["started"]
    assert {float(c.get("time") or "nan") for c in root.iter("testcase")} == {4.0}


def test_a_report_without_its_times_still_adds_up_its_tests(tmp_path: Path) -> None:
    from qaconform.report.junit import build_junit

    root = strict_junit(build_junit({"tests": [{"nodeid": "a.py::t", "outcome": "passed", "duration": 1.5},
                                               {"nodeid": "a.py::u", "outcome": "passed", "duration": 2.0}]}))
    assert root.get("time") == "3.500"
