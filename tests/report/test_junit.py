"""junit.xml carries one testcase per test, rule ids as properties, failures with message and curl."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from typing import Any

from report_builders import CATALOG, FAIL_TEST, make_results

from qaconform.report.expect import Expectation
from qaconform.report.junit import build_junit
from qaconform.report.model import build_report


def cases(xml: str) -> dict[str, ET.Element]:
    root = ET.fromstring(xml)
    return {f"{c.get('classname')}::{c.get('name')}": c for c in root.iter("testcase")}


def test_one_testcase_per_test_with_rule_properties(results: dict[str, Any]) -> None:
    xml = build_junit(build_report(results, CATALOG))
    found = cases(xml)
    assert len(found) == len(results["tests"])
    case = found["suites.scenarios.test_comment_privacy::test_reply_with_other_visibility_is_400"]
    assert [p.get("value") for p in case.iter("property") if p.get("name") == "rule"] == ["FAIL-1"]


def test_failure_error_and_skip_are_distinct_elements_and_a_failure_has_its_curl(results: dict[str, Any]) -> None:
    root = ET.fromstring(build_junit(build_report(results, CATALOG)))
    suite = root.find("testsuite")
    assert suite is not None
    assert (suite.get("failures"), suite.get("errors"), suite.get("skipped")) == ("1", "1", "2")
    failure = root.find(".//failure")
    assert failure is not None and "expected 400, got 201" in (failure.get("message") or "")
    assert "Reproduce with:" in (failure.text or "") and "curl -sS" in (failure.text or "")
    assert '-u "qa-member:$QACONFORM_MEMBER_PASSWORD"' in (failure.text or "")
    assert f"Rerun this test alone:\n  python -m pytest {FAIL_TEST}" in (failure.text or "")
    error = root.find(".//error")
    assert error is not None and "KeyError" in (error.get("message") or "")


def test_an_expected_failure_is_written_as_skipped_with_its_reason() -> None:
    exp = {"FAIL-1": Expectation("FAIL-1", "vendor bug", "https://tracker.example.com/QA-1")}
    root = ET.fromstring(build_junit(build_report(make_results(), CATALOG, expectations=exp)))
    case = next(c for c in root.iter("testcase") if FAIL_TEST.endswith(str(c.get("name"))))
    assert case.find("failure") is None
    skipped = case.find("skipped")
    assert skipped is not None
    assert "expected failure: FAIL-1: vendor bug (https://tracker.example.com/QA-1)" == skipped.get("message")


def test_control_characters_from_a_hostile_target_do_not_break_the_xml() -> None:
    res = make_results()
    res["tests"][1]["message"] = "bad \x00\x07 bytes"
    ET.fromstring(build_junit(build_report(res, CATALOG)))


def test_a_should_rule_warning_is_neither_passed_nor_failed_unless_the_run_is_strict() -> None:
    """A failed should-rule on a run that exits 0 is no <failure> (CI test reports would show a green build with a
    red test): skipped as qaconform.warning, the whole failure in its output; with --strict it fails as before."""
    should = [dataclasses.replace(r, level="should") if r.id == "FAIL-1" else r for r in CATALOG]
    root = ET.fromstring(build_junit(build_report(make_results(), should)))
    suite = root.find("testsuite")
    assert suite is not None and suite.get("failures") == "0" and root.get("failures") == "0"
    case = next(c for c in root.iter("testcase") if FAIL_TEST.endswith(str(c.get("name"))))
    skipped, out = case.find("skipped"), case.find("system-out")
    assert case.find("failure") is None and skipped is not None and out is not None
    assert skipped.get("type") == "qaconform.warning" and "FAIL-1" in (skipped.get("message") or "")
    assert "expected 400, got 201" in (out.text or "") and "Reproduce with:" in (out.text or "")
    strict = ET.fromstring(build_junit(build_report(make_results(), should, meta={"strict": True})))
    assert strict.get("failures") == "1" and strict.find(".//failure") is not None
