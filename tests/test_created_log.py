"""What a run created survives a Ctrl-C mid-test (qaconform.target.created_log).

A test's ``created`` reaches the results file only when the test ends, so a run interrupted while a test that had
written was running said "cleanup: the run created nothing on the target" and report.json did not list what the
target had accepted: ``qaconform cleanup RUN_DIR`` could not remove it. Each created item is now appended to the run
folder's ``created.jsonl`` the moment the target answers 201; the cleanup and report.json add what only the log holds.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qaconform.commands.cleanup import after_run, unfinished_created
from qaconform.report.model import build_report
from qaconform.target.created_log import CREATED_LOG, UNFINISHED, read
from qaconform.target.profile import profile_from_dict
from qaconform.target.recording import Recorder
from tests.report.report_builders import CATALOG, entry

ROLES = ("admin", "moderator", "member", "novice")
SECRET = "Sekr1t-pw-for-the-log"


def _profile() -> object:
    accounts = {r: {"username": r, "password": "pw"} for r in ROLES}
    return profile_from_dict({"base_url": "http://127.0.0.1:9", "accounts": accounts,
                              "fixtures": {"question_id": 1, "space_id": 1}})


def test_a_created_item_is_in_the_log_at_once_and_without_a_password(tmp_path: Path) -> None:
    rec = Recorder(secrets={SECRET}, created_log=tmp_path / CREATED_LOG)
    rec.note_created("member", f"http://h/services/v2/question/1/answer.json?p={SECRET}", b'{"id": 41}', None)
    rec.note_created("novice", "http://h/services/v2/node/41/comment.json", b"", "/services/v2/comment/42")
    logged = read(tmp_path / CREATED_LOG)  # before the plugin took anything from the recorder
    assert [(i["kind"], i["id"], i["by"]) for i in logged] == [("answer", 41, "member"), ("comment", 42, "novice")]
    assert SECRET not in (tmp_path / CREATED_LOG).read_text()
    assert Recorder().created_log is None, "a recorder outside a run (no results file) logs nowhere"


def _interrupted_run(tmp_path: Path) -> Path:
    """A run folder whose results list one finished test's answer, while the log also holds two comments of a test
    a Ctrl-C stopped (and the finished answer, logged when it was made); a torn last line from the interrupt."""
    results = tmp_path / "results.json"
    answer = {"kind": "answer", "id": 41, "by": "member", "url": "http://h/services/v2/question/1/answer.json"}
    results.write_text(json.dumps({"tests": [{"nodeid": "suites/a.py::test_done", "created": [
        {**answer, "test": "suites/a.py::test_done"}]}]}), "utf-8")
    lines = [answer, {"kind": "comment", "id": "42", "by": "novice", "url": "http://h/services/v2/node/41/comment.json"},
             {"kind": "comment", "id": 43, "by": "member", "url": "http://h/services/v2/node/42/comment.json"}]
    (tmp_path / CREATED_LOG).write_text("".join(json.dumps(i) + "\n" for i in lines) + '{"kind": "ans', "utf-8")
    return results


def test_after_a_ctrl_c_the_cleanup_counts_what_unfinished_tests_created(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    results = _interrupted_run(tmp_path)
    record = after_run(_profile(), results, tmp_path, keep=False, why_not="the run was interrupted")
    line = capsys.readouterr().out.strip()
    assert "created nothing" not in line
    assert (record["created"], record["left_behind"], record["calls"]) == (3, 3, 0), record
    assert line.endswith("left behind: 3 created items (1 answer, 2 comment)"), line
    unfinished = unfinished_created(results)
    assert [(i["id"], i["test"]) for i in unfinished] == [("42", UNFINISHED), (43, UNFINISHED)]


def test_a_results_file_with_no_finished_test_still_counts_the_log(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C before any test ended (the session's first writes made): the case that said "created nothing"."""
    results = _interrupted_run(tmp_path)
    results.write_text(json.dumps({"tests": []}), "utf-8")
    record = after_run(_profile(), results, tmp_path, keep=False, why_not="the run was interrupted")
    assert record["created"] == 3 and "created nothing" not in capsys.readouterr().out
    (tmp_path / "results.json").unlink()  # pytest wrote no results at all
    assert len(unfinished_created(results)) == 3


def test_report_json_lists_what_unfinished_tests_created_so_a_later_cleanup_finds_it(tmp_path: Path) -> None:
    results = _interrupted_run(tmp_path)
    meta = {"created_unfinished": unfinished_created(results)}
    data = {"tests": [entry("suites/a.py::test_done", "passed", ["PASS-1"], created=[
        {"kind": "answer", "id": 41, "by": "member", "test": "suites/a.py::test_done"}])]}
    created = build_report(data, CATALOG, meta=meta)["created"]
    assert [(c["kind"], str(c["id"]), c["test"]) for c in created] == [
        ("answer", "41", "suites/a.py::test_done"), ("comment", "42", UNFINISHED), ("comment", "43", UNFINISHED)]


@pytest.mark.slow  # qaconform run in a subprocess, stopped with SIGINT
def test_a_run_stopped_with_ctrl_c_after_its_first_write_lists_every_logged_item(tmp_path: Path) -> None:
    """The Ctrl-C comes once the log holds a first item (a test is writing): exit 130, report.json lists every
    item of the log, and the cleanup line never says the run created nothing."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from qaconform.reference import ReferenceServer

    out = tmp_path / "run"
    with ReferenceServer() as srv:
        proc = subprocess.Popen(
            [sys.executable, "-m", "qaconform.commands.cli", "run", "--profile", str(srv.profile_path), "--only",
             "comments", "--jobs", "1", "--report-dir", str(out)],
            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        deadline = time.monotonic() + 300
        while not read(out / CREATED_LOG) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before it wrote: nothing to interrupt"
        os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C: the whole process group
        stdout, _ = proc.communicate(timeout=300)
    assert proc.returncode == 130, stdout[-3000:]
    logged = {(str(i["kind"]), str(i["id"])) for i in read(out / CREATED_LOG)}
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert logged and logged <= {(str(c["kind"]), str(c["id"])) for c in report["created"]}, (logged, report["created"])
    cleanup = [line for line in stdout.splitlines() if line.startswith("cleanup: ")]
    assert cleanup and "created nothing" not in cleanup[0] and "left behind" in cleanup[0], cleanup


def test_the_writes_line_says_what_tests_a_ctrl_c_stopped_wrote(tmp_path: Path) -> None:
    """After a Ctrl-C, "writes: 20 accepted" counted only finished tests while the target held 26 items the run had
    made: the line says how many more the log holds."""
    from qaconform.target.writes import writes_text

    results = _interrupted_run(tmp_path)
    meta = {"created_unfinished": unfinished_created(results)}
    data = {"tests": [entry("suites/a.py::test_done", "passed", ["PASS-1"], writes={
        "operations": {"postAnswer": {"sent": 1, "accepted": 1, "held": 0}}})]}
    line = writes_text(build_report(data, CATALOG, meta=meta)["writes"])
    assert line.startswith("writes: 1 accepted") and line.endswith(
        "; and at least 2 more, made by tests that did not finish (report.json created)"), line
    assert writes_text(build_report({"tests": []}, CATALOG, meta=meta)["writes"]).startswith("writes: 0 accepted")
    assert "did not finish" not in writes_text(build_report(data, CATALOG)["writes"])
