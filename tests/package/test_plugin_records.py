"""What the plugin records as fields in the results file, for the one verdict (qaconform.report.verdict) to read:
collection errors and a stop at the time budget, never something `qaconform run` must find in pytest's output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def _pytest(folder: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    """Plain pytest on ``folder`` with the qaconform plugin (its pytest11 entry point) and a results file."""
    results = folder / "results.json"
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--qaconform-results", str(results),
           *args, str(folder)]
    proc = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, timeout=120, check=False,
                          stdin=subprocess.DEVNULL)
    assert results.is_file(), f"no results file\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    return proc, json.loads(results.read_text(encoding="utf-8"))


def test_a_module_that_cannot_be_collected_is_in_the_results_and_the_rest_still_runs(tmp_path: Path) -> None:
    # the module that can be collected: its one test checks something real, and its outcome must reach the results
    (tmp_path / "test_fine_qc.py").write_text("def test_fine():\n    assert sorted([3, 1, 2]) == [1, 2, 3]\n",
                                              encoding="utf-8")
    (tmp_path / "test_broken_qc.py").write_text("import no_such_module_of_qaconform\n", encoding="utf-8")
    proc, data = _pytest(tmp_path, "--continue-on-collection-errors")
    errors = data["collection_errors"]
    assert [e["nodeid"] for e in errors] == ["test_broken_qc.py"], proc.stdout[-2000:]
    assert "no_such_module_of_qaconform" in errors[0]["message"]
    assert [t["nodeid"] for t in data["tests"]] == ["test_fine_qc.py::test_fine"]
    assert data["tests"][0]["outcome"] == "passed", data["tests"][0]


def test_the_time_budget_stops_the_run_between_tests_with_its_reason(tmp_path: Path) -> None:
    (tmp_path / "test_slow_qc.py").write_text(
        "import time\n\ndef test_one():\n    time.sleep(0.3)\n\ndef test_two():\n    pass\n\ndef test_three():\n"
        "    pass\n", encoding="utf-8")
    proc, data = _pytest(tmp_path, "--qaconform-timeout", "0.1")
    assert data["stopped"]["reason"] == "time_budget", proc.stdout[-2000:]
    assert "within --timeout 0.1 s" in data["stopped"]["message"] and "partial" in data["stopped"]["message"]
    assert [t["nodeid"] for t in data["tests"]] == ["test_slow_qc.py::test_one"], "stopped after the first test"
    assert data["collection_errors"] == []


WARNED = '''import pytest


@pytest.mark.rule("CONV-BODY-FORMAT")
def test_a_should_rule_missed():
    raise AssertionError("[CONV-BODY-FORMAT] the target took a body that is not UTF-8")
'''


def test_a_should_rule_warning_is_warning_under_plain_pytest_and_in_the_results(tmp_path: Path) -> None:
    """The report's "rerun this test" command is plain pytest on the node id: it shows the status the report gave
    (WARNING), not SKIPPED; with --strict-should it fails as `qaconform run --strict` does."""
    (tmp_path / "test_warned_qc.py").write_text(WARNED, encoding="utf-8")
    proc, data = _pytest(tmp_path, "-vv")  # with the helper's -q: one line per test
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "WARNING" in proc.stdout and "1 warning" in proc.stdout and "SKIPPED" not in proc.stdout, proc.stdout[-3000:]
    assert [(t["outcome"], t["rules"]) for t in data["tests"]] == [("warning", ["CONV-BODY-FORMAT"])]
    strict, strict_data = _pytest(tmp_path, "--strict-should")
    assert strict.returncode == 1 and [t["outcome"] for t in strict_data["tests"]] == ["failed"]


CELLS = '''import pytest


@pytest.mark.rule("PERM-LOCK")
@pytest.mark.cell("found_relations", action="lockNode", role="novice", relation="none", kind="answer")
def test_judged():
    assert sorted([2, 1]) == [1, 2]


@pytest.mark.rule("PERM-LOCK")
@pytest.mark.cell("found_relations", action="lockNode", role="member", relation="author", kind="answer")
def test_not_placed():
    pytest.skip("no found node in that relation")


def test_no_cell():
    assert "a".upper() == "A"
'''


def test_a_tests_crossing_cell_is_in_the_results_with_its_outcome(tmp_path: Path) -> None:
    """crossing10 (issue 44): qaconform.report.run_cells counts what the run judged from these fields."""
    (tmp_path / "test_cells_qc.py").write_text(CELLS, encoding="utf-8")
    proc, data = _pytest(tmp_path)
    by_id = {t["nodeid"].split("::")[1]: t for t in data["tests"]}
    assert by_id["test_judged"]["cell"] == {"family": "found_relations", "action": "lockNode", "role": "novice",
                                            "relation": "none", "kind": "answer"}, proc.stdout[-2000:]
    assert by_id["test_judged"]["outcome"] == "passed"
    assert by_id["test_not_placed"]["outcome"] == "skipped" and by_id["test_not_placed"]["cell"]["role"] == "member"
    assert "cell" not in by_id["test_no_cell"]
