"""Each rule gets the status its tests prove, failed and error are never blurred, and the exit code follows."""

from __future__ import annotations

from typing import Any

from report_builders import CATALOG, entry, make_results

from qaconform import exitcodes
from qaconform.contract import Rule
from qaconform.report.model import build_report


def statuses(report: dict[str, Any]) -> dict[str, str]:
    return {r["id"]: r["status"] for r in report["rules"]}


def test_every_status_is_derived_from_the_tests_that_name_the_rule(results: dict[str, Any],
                                                                    catalog: list[Rule]) -> None:
    report = build_report(results, catalog)
    assert statuses(report) == {"PASS-1": "passed", "FAIL-1": "failed", "ERR-1": "error", "OBS-1": "observed",
                                "SKIP-1": "skipped", "SAFE-1": "skipped", "NC-1": "not covered"}
    assert report["summary"]["rules"] == {"passed": 1, "failed": 1, "observed": 1, "skipped": 2,
                                          "not covered": 1, "error": 1, "blocked": 0, "warning": 0}


def test_skipped_rules_keep_the_reason_and_its_family(results: dict[str, Any], catalog: list[Rule]) -> None:
    rules = {r["id"]: r for r in build_report(results, catalog)["rules"]}
    assert rules["SKIP-1"]["reason"] == "not checked: needs fixture wiki_node_id"  # what a profile lacks
    assert rules["SKIP-1"]["evidence"]["skips"][0]["reason"] == "fixture wiki_node_id not in profile"
    assert rules["SKIP-1"]["skip_category"] == "missing fixture"
    assert rules["SAFE-1"]["skip_category"] == "not allowed by safety"
    assert rules["NC-1"]["reason"] == "no test names this rule"


def test_a_failure_outranks_a_kit_error_in_the_same_rule_and_both_stay_visible(catalog: list[Rule]) -> None:
    res = make_results()
    res["tests"].append(entry("suites/x.py::test_other", "error", ["FAIL-1"], message="ZeroDivisionError"))
    report = build_report(res, catalog)
    fail = next(r for r in report["rules"] if r["id"] == "FAIL-1")
    assert fail["status"] == "failed"
    assert sorted(f["outcome"] for f in fail["evidence"]["failures"]) == ["error", "failed"]


def test_error_alone_is_a_kit_error_not_a_rule_failure(catalog: list[Rule]) -> None:
    res = make_results(fail=False)
    report = build_report(res, catalog)
    assert report["summary"]["failed_rules"] == []
    assert report["summary"]["error_rules"] == ["ERR-1"]
    assert report["exit_code"] == exitcodes.KIT_ERROR
    assert "kit broke" in report["verdict"]


def test_exit_code_is_1_when_a_rule_failed_even_if_the_kit_also_broke(results: dict[str, Any],
                                                                       catalog: list[Rule]) -> None:
    report = build_report(results, catalog)
    assert report["exit_code"] == exitcodes.RULE_FAILED
    assert "FAIL-1" in report["verdict"]


def test_exit_code_is_0_when_every_rule_that_ran_held(catalog: list[Rule]) -> None:
    res = make_results(fail=False)
    res["tests"] = [t for t in res["tests"] if t["outcome"] != "error"]
    report = build_report(res, catalog)
    assert report["exit_code"] == exitcodes.OK, report["verdict"]


def test_a_breached_load_threshold_fails_the_run(catalog: list[Rule]) -> None:
    res = make_results(fail=False)
    res["tests"] = [t for t in res["tests"] if t["outcome"] != "error"]
    report = build_report(res, catalog, load={"status": "breached", "message": "p95 listQuestions > 500 ms"})
    assert report["exit_code"] == exitcodes.RULE_FAILED
    assert "load threshold" in report["verdict"]


def test_a_teardown_error_after_a_passing_call_is_one_test_with_outcome_error(catalog: list[Rule]) -> None:
    res = make_results(fail=False)
    res["tests"].append(entry("suites/contract/test_paging.py::test_page_size_is_honoured", "error", ["PASS-1"],
                              when="teardown", message="cleanup failed"))
    report = build_report(res, catalog)
    tests = [t for t in report["tests"] if t["nodeid"].endswith("test_page_size_is_honoured")]
    assert len(tests) == 1 and tests[0]["outcome"] == "error"
    assert statuses(report)["PASS-1"] == "error"


def test_an_observed_rule_whose_test_recorded_nothing_is_passed_not_observed(catalog: list[Rule]) -> None:
    res = make_results()
    res["tests"] = [entry("suites/s.py::test_lock", "passed", ["OBS-1"])]
    assert statuses(build_report(res, catalog))["OBS-1"] == "passed"


def test_observations_are_grouped_by_the_rule_they_were_recorded_for(results: dict[str, Any],
                                                                     catalog: list[Rule]) -> None:
    report = build_report(results, catalog)
    assert report["observations"] == {"OBS-1": [{"test": "suites/scenarios/test_lock.py::test_lock_without_prompt",
                                                 "facts": {"status": 400, "has_error_body": True},
                                                 "summary": {"asked": "", "silent": "13.",
                                                             "did": "answered 400 with has_error_body true",
                                                             "sentence": "The target answered 400 with "
                                                                         "has_error_body true."}}]}


def test_only_selection_marks_rules_outside_it_skipped_and_inside_it_not_covered(catalog: list[Rule]) -> None:
    res = make_results()
    res["tests"] = [t for t in res["tests"] if t["rules"] == ["PASS-1"]]
    report = build_report(res, catalog, meta={"selection": {"areas": ["paging", "gdpr"], "rules": []}})
    st = statuses(report)
    assert st["PASS-1"] == "passed"
    assert st["NC-1"] == "not covered"  # area gdpr was asked for and nothing names it
    assert st["FAIL-1"] == "skipped"
    fail = next(r for r in report["rules"] if r["id"] == "FAIL-1")
    assert "not selected by --only paging gdpr" in fail["reason"]


def test_a_rule_id_missing_from_the_catalog_still_counts(catalog: list[Rule]) -> None:
    res = make_results()
    res["tests"] = [entry("suites/s.py::test_new", "failed", ["BRAND-NEW"], message="boom")]
    report = build_report(res, catalog)
    assert report["unknown_rules"] == ["BRAND-NEW"]
    assert statuses(report)["BRAND-NEW"] == "failed"
    assert report["exit_code"] == exitcodes.RULE_FAILED


def test_every_rule_of_the_catalog_is_in_the_report_with_evidence_and_timings(results: dict[str, Any]) -> None:
    report = build_report(results, CATALOG)
    assert [r["id"] for r in report["rules"]] == [r.id for r in CATALOG]
    fail = next(r for r in report["rules"] if r["id"] == "FAIL-1")
    assert fail["evidence"]["failures"][0]["curl"].startswith("curl ")
    assert fail["timings"] == {"tests": 1, "total_s": 0.25}
    assert report["created"] == [{"kind": "comment", "id": 77, "by": "member",
                                  "test": "suites/scenarios/test_comment_privacy.py::"
                                          "test_reply_with_other_visibility_is_400"}]
    assert report["duration_s"] == 12.5


def test_the_real_catalog_loads_and_every_rule_is_reported(results: dict[str, Any]) -> None:
    report = build_report(results)
    assert len(report["rules"]) > 100
    assert {r["level"] for r in report["rules"]} <= {"must", "should", "observed"}


def test_a_test_of_many_rules_that_names_the_broken_one_fails_only_that_rule(catalog: list[Rule]) -> None:
    res = make_results()
    res["tests"] = [entry("suites/properties/test_openapi.py::test_generated[GET /space.json]", "failed",
                          ["PASS-1", "FAIL-1", "ERR-1"],
                          message="generated request broke 1 rule(s):\n  FAIL-1: listCount is 2 but the page holds 1")]
    report = build_report(res, catalog)
    st = statuses(report)
    assert (st["FAIL-1"], st["PASS-1"], st["ERR-1"]) == ("failed", "passed", "passed")
    passed = next(r for r in report["rules"] if r["id"] == "PASS-1")
    assert passed["tests"][0]["note"] == "this test failed on FAIL-1 only"
    assert report["tests"][0]["failed_rules"] == ["FAIL-1"]


def test_a_failure_that_names_no_rule_or_every_rule_fails_them_all(catalog: list[Rule]) -> None:
    for message in ("expected 400, got 201", "PASS-1 and FAIL-1 both broke"):
        res = make_results()
        res["tests"] = [entry("suites/s.py::test_two", "failed", ["PASS-1", "FAIL-1"], message=message)]
        st = statuses(build_report(res, catalog))
        assert (st["PASS-1"], st["FAIL-1"]) == ("failed", "failed"), message


def test_a_rule_id_inside_a_longer_id_is_not_a_mention(catalog: list[Rule]) -> None:
    res = make_results()
    res["tests"] = [entry("suites/s.py::test_two", "failed", ["PASS-1", "FAIL-1"], message="PASS-10 broke")]
    st = statuses(build_report(res, catalog))
    assert (st["PASS-1"], st["FAIL-1"]) == ("failed", "failed")


def test_without_recorded_exchanges_the_curl_comes_from_the_reproduce_line(catalog: list[Rule]) -> None:
    """The reproduce line is a field of the results (a TargetError's ``curl``, met in a session fixture), never
    pulled out of the message: a message that merely quotes a curl gives none."""
    curl = 'curl -sS -i -X GET -u "$USER:$PASSWORD" http://h/services/v2/question.json   # as admin'
    res = make_results()
    res["tests"] = [entry("suites/s.py::test_cached", "failed", ["FAIL-1"], reproduce=curl, message=(
        f"GET http://h/services/v2/question.json answered 200 with a body that is not JSON\nReproduce with: {curl}")),
        entry("suites/s.py::test_quoting", "failed", ["FAIL-1"], message=f"see\nReproduce with: {curl}")]
    report = build_report(res, catalog)
    fail = next(r for r in report["rules"] if r["id"] == "FAIL-1")
    assert fail["evidence"]["failures"][0]["curl"] == curl
    assert report["tests"][0]["curls"] == [fail["evidence"]["failures"][0]["curl"]]
    assert fail["evidence"]["failures"][1]["curl"] is None and report["tests"][1]["curls"] == []


def test_a_fixture_failing_on_a_rule_charges_it_once_and_reports_the_tests_it_blocked(
        catalog: list[Rule]) -> None:
    """The setup of two tests failed on FAIL-1 (the target broke it); their own rules are blocked, not
    failed, and FAIL-1 is failed once."""
    res = make_results()
    message = "[FAIL-1] could not post an answer to act on (expected 201)"
    res["tests"] = [{**entry("suites/a.py::t1", "blocked", ["PASS-1"], message=message), "blocked_by": ["FAIL-1"]},
                    {**entry("suites/a.py::t2", "blocked", ["ERR-1"], message=message), "blocked_by": ["FAIL-1"]}]
    report = build_report(res, catalog)
    st = statuses(report)
    assert (st["FAIL-1"], st["PASS-1"], st["ERR-1"]) == ("failed", "blocked", "blocked")
    failed = next(r for r in report["rules"] if r["id"] == "FAIL-1")
    assert len(failed["evidence"]["failures"]) == 1
    blocked = next(r for r in report["rules"] if r["id"] == "PASS-1")
    assert "blocked by FAIL-1" in blocked["reason"]
    assert report["summary"]["tests"]["blocked"] == 2 and report["summary"]["failed_rules"] == ["FAIL-1"]


def test_a_failed_should_rule_is_a_warning_unless_strict(catalog: list[Rule]) -> None:
    should = [Rule(id="SHOULD-1", level="should", area="conventions", summary="no 5xx")]
    res = make_results()
    res["tests"] = [entry("suites/a.py::t1", "failed", ["SHOULD-1"], message="[SHOULD-1] a 500")]
    lenient = build_report(res, catalog + should)
    assert lenient["summary"]["failed_rules"] == [] and lenient["summary"]["warning_rules"] == ["SHOULD-1"]
    assert lenient["exit_code"] == 0
    strict = build_report(res, catalog + should, meta={"strict": True})
    assert strict["summary"]["failed_rules"] == ["SHOULD-1"] and strict["exit_code"] == 1


def test_a_run_stopped_before_collection_says_its_rules_were_not_reached(catalog: list[Rule]) -> None:
    """A Ctrl-C during collection left no test and no collected list: every must-rule read "no test names this
    rule", as if the kit had no tests. It says the run stopped before collecting; a run that was not stopped, or
    one that collected its tests, keeps "no test names this rule" for a rule no test names."""
    stopped = {"reason": "interrupted", "message": "the run was interrupted (Ctrl-C, or a collection error)"}
    rules = {r["id"]: r for r in build_report({"tests": []}, catalog, meta={"stopped": stopped})["rules"]}
    assert rules["NC-1"]["status"] == "not covered"
    assert rules["NC-1"]["reason"] == "not reached: the run stopped (interrupted) before its tests were collected"
    plain = {r["id"]: r for r in build_report({"tests": []}, catalog)["rules"]}
    assert plain["NC-1"]["reason"] == "no test names this rule"
    collected = {"rules": {"PASS-1": ["t::a"]}}
    after = {r["id"]: r for r in build_report({"tests": []}, catalog,
                                              meta={"stopped": stopped, "coverage": collected})["rules"]}
    assert after["NC-1"]["reason"] == "no test names this rule"
    assert after["PASS-1"]["reason"] == "its 1 test(s) were collected but none ran"
