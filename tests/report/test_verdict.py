"""The exit code is decided once, from fields (qaconform.report.verdict): the plugin's stop reason, its collection
errors, each test's outcome and the runner's own facts, never from pytest's terminal output."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from report_builders import CATALOG, entry, make_results

from qaconform import exitcodes
from qaconform.report.html_page import render_html
from qaconform.report.junit import build_junit
from qaconform.report.model import build_report
from qaconform.report.terminal import format_summary
from qaconform.report.verdict import stop_verdict, verdict

GONE = "GET http://127.0.0.1:9/services/v2/question.json: no answer (ConnectionResetError(104))"


def _died_mid_run() -> dict[str, Any]:
    """A run whose target stopped answering after one test passed: the plugin's fields as it writes them."""
    results = make_results(fail=False)
    results["tests"] = [
        results["tests"][0],
        entry("suites/scenarios/test_comments.py::test_reply_inherits", "blocked", ["FAIL-1"],
              message=f"blocked: the target gave no answer ({GONE})", unreachable=GONE),
    ]
    results["stopped"] = {"reason": "unreachable",
                          "message": f"target http://127.0.0.1:9 stopped answering during the run: {GONE}"}
    return results


def test_a_target_that_dies_mid_run_is_exit_3_with_no_failed_rule_in_any_output() -> None:
    report = build_report(_died_mid_run(), CATALOG)
    assert report["exit_code"] == exitcodes.UNREACHABLE and "stopped answering" in report["verdict"]
    assert report["summary"]["failed_rules"] == [] and report["summary"]["rules"].get("failed", 0) == 0
    rule = next(r for r in report["rules"] if r["id"] == "FAIL-1")
    assert rule["status"] == "blocked" and "gave no answer" in rule["reason"]
    assert next(t for t in report["tests"] if t.get("unreachable"))["outcome"] == "blocked"
    junit = ET.fromstring(build_junit(report))
    assert junit.get("failures") == "0" and junit.find(".//failure") is None
    terminal = format_summary(report)
    assert "exit code 3" in terminal and "\nfailed:" not in terminal
    html = render_html(report)
    assert "stopped answering" in html and "No rule failed." in html and "1 of 1 test(s) blocked" in html


def test_a_request_the_target_dropped_is_blocked_and_exit_3_even_if_it_answers_again() -> None:
    results = _died_mid_run()
    results["stopped"] = None  # the probe after the test got an answer: the run went on
    report = build_report(results, CATALOG)
    assert (report["exit_code"], report["summary"]["failed_rules"]) == (exitcodes.UNREACHABLE, [])
    assert "blocked, not failed" in report["verdict"]


def test_a_failed_rule_outranks_a_dropped_request_but_not_a_stop() -> None:
    results = _died_mid_run()
    results["stopped"] = None
    results["tests"].append(make_results()["tests"][1])  # FAIL-1 failed in another test
    assert verdict(build_report(results, CATALOG))[0] == exitcodes.RULE_FAILED
    results["stopped"] = {"reason": "time_budget", "message": "did not finish within --timeout 5 s"}
    assert build_report(results, CATALOG)["exit_code"] == exitcodes.KIT_ERROR


def test_a_collection_error_is_a_kit_error_named_in_the_report() -> None:
    results = make_results(fail=False)
    results["tests"] = results["tests"][:1]
    results["collection_errors"] = [{"nodeid": "suites/contract/test_broken.py", "message": "SyntaxError: bad"}]
    report = build_report(results, CATALOG)
    assert report["exit_code"] == exitcodes.KIT_ERROR
    assert report["kit_errors"] == ["suites/contract/test_broken.py could not be collected: SyntaxError: bad"]
    assert "test_broken.py could not be collected" in render_html(report)


def test_the_runners_own_stop_outranks_what_pytest_recorded_when_it_was_stopped() -> None:
    results = make_results(fail=False)
    results["stopped"] = {"reason": "interrupted", "message": "the run was interrupted"}
    report = build_report(results, CATALOG, meta={"stopped": {"reason": "time_budget", "message": "--timeout 9"}})
    assert (report["exit_code"], report["verdict"]) == (exitcodes.KIT_ERROR, "--timeout 9")


def test_each_stop_reason_has_its_documented_exit_code() -> None:
    expected = {"profile": exitcodes.USAGE, "usage": exitcodes.USAGE, "unreachable": exitcodes.UNREACHABLE,
                "interrupted": exitcodes.INTERRUPTED, "time_budget": exitcodes.KIT_ERROR,
                "internal": exitcodes.KIT_ERROR, "no_results": exitcodes.KIT_ERROR}
    for reason, code in expected.items():
        assert stop_verdict({"reason": reason, "message": "m"}) == (code, "m"), reason
    assert stop_verdict({"reason": "no_tests"}, {"areas": ["paging"], "rules": []}) == (
        exitcodes.USAGE, "no test matched --only paging")
    assert stop_verdict({"reason": "no_tests"}, {"areas": [], "rules": []})[0] == exitcodes.KIT_ERROR
    assert stop_verdict(None) is None


def test_a_should_rule_warning_is_named_warning_in_every_output_of_a_run_that_exits_0(tmp_path: Any) -> None:
    import dataclasses
    import json

    from qaconform.report.allure import write_allure

    should = [dataclasses.replace(r, level="should") if r.id == "FAIL-1" else r for r in CATALOG]
    results = make_results()
    results["tests"] = [t for t in results["tests"] if t["outcome"] != "error"]
    warned = next(t for t in results["tests"] if t["outcome"] == "failed")
    warned.update(outcome="warning", warning=True)  # as the plugin writes it
    report = build_report(results, should)
    assert report["exit_code"] == exitcodes.OK, report["verdict"]
    assert next(r for r in report["rules"] if r["id"] == "FAIL-1")["status"] == "warning"
    assert next(t for t in report["tests"] if t["nodeid"] == warned["nodeid"])["outcome"] == "warning"
    assert report["summary"]["rules"]["warning"] == 1 and report["summary"]["rules"]["failed"] == 0
    assert report["summary"]["warning_rules"] == ["FAIL-1"] and report["summary"]["failed_rules"] == []
    junit = ET.fromstring(build_junit(report))
    assert junit.get("failures") == "0" and junit.get("tests") == str(len(report["tests"]))
    assert junit.find(".//skipped[@type='qaconform.warning']") is not None
    terminal = format_summary(report)
    head, row = next((line, terminal.splitlines()[i + 1]) for i, line in enumerate(terminal.splitlines())
                     if line.startswith("rules "))
    counts = dict(zip(head.split()[1:], row.split(), strict=False))
    assert (counts["failed"], counts["warning"]) == ("0", "1") and "\nwarning (a should-rule" in terminal
    html = render_html(report)
    assert "1 warning</span>" in html and "failed</span>" not in html and 'id="warnings"' in html
    write_allure(report, tmp_path)
    statuses = [json.loads(p.read_text())["status"] for p in tmp_path.glob("*-result.json")]
    assert "failed" not in statuses and "skipped" in statuses
    message = [json.loads(p.read_text()).get("statusDetails", {}).get("message", "")
               for p in tmp_path.glob("*-result.json")]
    assert any(m.startswith("warning [FAIL-1]") for m in message), message
