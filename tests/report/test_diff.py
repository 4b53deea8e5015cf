"""`qaconform diff` names regressions, recoveries, coverage changes and changed observations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from report_builders import CATALOG, entry, invoke, make_results

from qaconform import exitcodes
from qaconform.report import diff as command
from qaconform.report.diff import compare
from qaconform.report.writer import build_and_write


def run(tmp_path: Path, name: str, results: dict[str, Any]) -> Path:
    build_and_write(results, tmp_path / name, rules=CATALOG, meta={"run_id": name})
    return tmp_path / name


def test_a_rule_that_held_and_now_fails_is_a_regression(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean = run(tmp_path, "clean", make_results(fail=False))
    broken = run(tmp_path, "broken", make_results(fail=True))
    assert invoke(command, [str(clean), str(broken)]) == exitcodes.RULE_FAILED
    out = capsys.readouterr().out
    assert "regressed (held in A, broken in B): 1" in out
    assert "FAIL-1: passed -> failed" in out
    assert "reproduce: curl" in out


def test_the_reverse_is_a_recovery_and_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean = run(tmp_path, "clean", make_results(fail=False))
    broken = run(tmp_path, "broken", make_results(fail=True))
    assert invoke(command, [str(broken / "report.json"), str(clean / "report.json")]) == exitcodes.OK
    out = capsys.readouterr().out
    assert "recovered: 1" in out and "FAIL-1: failed -> passed" in out
    assert "verdict: no regression" in out


def test_coverage_changes_and_observation_changes_are_listed(tmp_path: Path) -> None:
    a = make_results(fail=False)
    b = make_results(fail=False)
    b["tests"].append(entry("suites/gdpr/test_content.py::test_invalid_user", "passed", ["NC-1"]))
    b["tests"][3]["observations"] = [{"rule": "OBS-1", "facts": {"status": 422, "has_error_body": True}}]
    ra = json.loads((run(tmp_path, "a", a) / "report.json").read_text())
    rb = json.loads((run(tmp_path, "b", b) / "report.json").read_text())
    d = compare(ra, rb)
    assert [e["rule"] for e in d["newly_covered"]] == ["NC-1"]
    assert d["observations_changed"] == [{"rule": "OBS-1",
                                          "test": "suites/scenarios/test_lock.py::test_lock_without_prompt",
                                          "before": [{"status": 400, "has_error_body": True}],
                                          "after": [{"status": 422, "has_error_body": True}]}]
    assert d["exit_code"] == exitcodes.OK
    assert [e["rule"] for e in compare(rb, ra)["uncovered"]] == ["NC-1"]


def test_an_expected_failure_in_b_is_listed_but_does_not_count(tmp_path: Path) -> None:
    ra = json.loads((run(tmp_path, "a", make_results(fail=False)) / "report.json").read_text())
    rb = json.loads((run(tmp_path, "b", make_results(fail=True)) / "report.json").read_text())
    rb["rules"][1]["expected"] = {"rule": "FAIL-1", "reason": "known", "link": None, "state": "expected failure"}
    d = compare(ra, rb)
    assert d["regressed"][0]["expected"] == "known" and d["exit_code"] == exitcodes.OK


@pytest.mark.parametrize("bad", ["missing", "notjson", "results"])
def test_unreadable_input_exits_2_with_a_message(tmp_path: Path, bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    good = run(tmp_path, "good", make_results())
    path = tmp_path / "bad.json"
    if bad == "notjson":
        path.write_text("{not json")
    elif bad == "results":
        path.write_text(json.dumps(make_results()))
    assert invoke(command, [str(good), str(path)]) == exitcodes.USAGE
    err = capsys.readouterr().err
    assert err.startswith("qaconform diff: ") and "Traceback" not in err


def test_the_installed_command_dispatches_diff(tmp_path: Path) -> None:
    import subprocess
    import sys

    clean = run(tmp_path, "clean", make_results(fail=False))
    broken = run(tmp_path, "broken", make_results(fail=True))
    proc = subprocess.run([sys.executable, "-m", "qaconform.cli", "diff", str(clean), str(broken)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == exitcodes.RULE_FAILED, proc.stderr
    assert "FAIL-1: passed -> failed" in proc.stdout


def test_a_changed_observation_is_shown_as_the_facts_that_differ() -> None:
    from qaconform.report.diff import describe_change

    before = [{"status": 200, "listCount": 0, "sort": "name"}]
    after = [{"status": 200, "listCount": 1, "sort": "name", "extra": True}]
    assert describe_change(before, after) == "[0].extra: (absent) -> true; [0].listCount: 0 -> 1"
