"""A rule skipped on many rows shows each reason once with a count, in report.json, the terminal and the page (qa15).

Oracle: qa14's release run, where GDPR-OPERATIONS-INVALID listed "not checked: GDPR-OPERATIONS-INVALID
scheduleGdprJob-json-none-admin needs fixture gdpr_csv_file_id ..." once per input-form row, each naming its row;
the blocked rules of one broken step are one line naming the step's rule and call.
"""

from __future__ import annotations

from typing import Any

from qaconform.report.html_page import render_html
from qaconform.report.model import build_report
from qaconform.report.rule_groups import reason_key
from qaconform.report.terminal import format_summary

_RULE = "GDPR-OPERATIONS-INVALID"
_ROWS = ("scheduleGdprJob-json-none-admin", "scheduleGdprJob-query-none-admin", "scheduleGdprJob-form-none-admin")


def _skip(nodeid: str, message: str, rule: str = _RULE) -> dict[str, Any]:
    return {"nodeid": nodeid, "outcome": "skipped", "rules": [rule], "message": message, "skip_kind": "other"}


def _report() -> dict[str, Any]:
    tests = [_skip(f"t.py::test_forms[{row}]", f"not checked: {_RULE} {row} needs fixture gdpr_csv_file_id (a bulk "
                                               "job whose only error is the one under test)") for row in _ROWS]
    tests.append(_skip("t.py::test_rows[operations-empty]", "inconclusive: a job whose operations (row "
                                                            "operations-empty) came as a request parameter"))
    tests.append(_skip("t.py::test_other", "not checked: the same", rule="GDPR-REASSIGN-FORMS"))
    rules = [{"id": _RULE, "level": "must"}, {"id": "GDPR-REASSIGN-FORMS", "level": "must"}]
    return build_report({"tests": tests}, rules)


def test_a_reason_given_on_every_row_is_one_reason_with_its_count() -> None:
    rule = next(r for r in _report()["rules"] if r["id"] == _RULE)
    assert rule["skip_reasons"] == [
        {"reason": f"not checked: {_RULE} needs fixture gdpr_csv_file_id (a bulk job whose only error is the one "
                   "under test)", "tests": 3},
        {"reason": "inconclusive: a job whose operations (row) came as a request parameter", "tests": 1}]
    assert rule["reason"].count("needs fixture gdpr_csv_file_id") == 1 and "(3 tests)" in rule["reason"]
    assert not any(row in rule["reason"] for row in _ROWS)


def test_the_skipped_rules_are_grouped_by_reason_in_the_summary_the_terminal_and_the_page() -> None:
    report = _report()
    groups = report["summary"]["skipped_groups"]
    assert [(g["rules"], g["tests"]) for g in groups] == [([_RULE], 4), (["GDPR-REASSIGN-FORMS"], 1)]
    text = format_summary(report)
    assert "skipped, by reason:" in text and f"\n  not checked: {_RULE} needs" in text
    assert f"\n    left unjudged: 1 rule(s) ({_RULE}); 4 test(s) skipped for it\n" in text
    page = render_html(report)
    assert "(1 rule, 4 tests)" in page and "(1 rule, 1 test)" in page


_GUARD = ("inconclusive: the target reported the guard ('A bulk request needs a csv file') before the date "
          "([safety] destructive = false)")
_KINDS_RULES = ("GDPR-PAST-DATE", "GDPR-OPERATIONS-INVALID", "GDPR-REASSIGN-INVALID", "GDPR-REASSIGN-AMBIGUOUS",
                "GDPR-BULK-NO-CSV", "GDPR-CSV-MISSING", "GDPR-INDIVIDUAL-NO-USER", "GDPR-DATE-FORMATTED")


def _guarded_report(held: tuple[str, ...] = _KINDS_RULES) -> dict[str, Any]:
    """As qa21's run with [safety] destructive = false: 48 rows each marked with nine GDPR rules (as the crossing of
    test_gdpr_kinds.py is), skipped for the guard; each rule of ``held`` held on another test, which named none of
    the others."""
    marks = [*_KINDS_RULES, "GDPR-DATE-TIMESTAMP"]
    rows = [{"nodeid": f"t.py::test_kinds[row{i}]", "outcome": "skipped", "rules": marks, "message": _GUARD,
             "skip_kind": "other"} for i in range(48)]
    others = [{"nodeid": f"t.py::test_{rid}", "outcome": "passed", "rules": [rid]} for rid in held]
    return build_report({"tests": [*rows, *others]}, [{"id": rid, "level": "must"} for rid in marks])


def test_a_skip_group_says_which_rules_it_left_unjudged_apart_from_the_tests_that_skipped_for_it() -> None:
    """tidy24: the line read "1 rule(s), 48 test(s): inconclusive: ... (GDPR-DATE-TIMESTAMP)", as if 48 tests of
    that rule were lost; the 48 tests named eight rules more, which other tests held."""
    report = _guarded_report()
    assert [r["id"] for r in report["rules"] if r["status"] == "skipped"] == ["GDPR-DATE-TIMESTAMP"]
    [group] = report["summary"]["skipped_groups"]
    assert (group["rules"], group["tests"], group["judged_elsewhere"]) == (["GDPR-DATE-TIMESTAMP"], 48, 8)
    text = format_summary(report)
    assert "\n  inconclusive: the target reported the guard ('A bulk request needs a csv file') before the date" \
        in text, text
    assert ("\n    left unjudged: 1 rule(s) (GDPR-DATE-TIMESTAMP); 48 test(s) skipped for it, which also name 8 "
            "rule(s) other tests judged\n") in text, text
    assert "rule(s), 48 test(s)" not in text
    assert "(1 rule, 48 tests; those tests also name 8 rules other tests judged)" in render_html(report)


def test_a_test_naming_two_rules_of_one_skip_group_is_counted_once() -> None:
    """Two rules left unjudged by the same 48 rows: 48 tests skipped for them, not 96 (each rule's count summed)."""
    groups = _guarded_report(held=_KINDS_RULES[1:])["summary"]["skipped_groups"]
    assert [(g["rules"], g["tests"], g["judged_elsewhere"]) for g in groups] == [
        (["GDPR-PAST-DATE", "GDPR-DATE-TIMESTAMP"], 48, 7)]


def test_rules_only_left_out_are_unjudged_with_no_test_said_to_have_skipped() -> None:
    """A rule --only left out has no test that ran or skipped: its group counts none (it said one per rule)."""
    tests = [{"nodeid": "t.py::test_paging", "outcome": "passed", "rules": ["PAGING-A"]}]
    rules = [{"id": rid, "level": "must", "area": area} for rid, area in (("PAGING-A", "paging"),
                                                                          ("GDPR-A", "gdpr"), ("GDPR-B", "gdpr"))]
    report = build_report({"tests": tests}, rules, meta={"selection": {"areas": ["paging"], "rules": []}})
    [group] = report["summary"]["skipped_groups"]
    assert (group["rules"], group["tests"], group["judged_elsewhere"]) == (["GDPR-A", "GDPR-B"], 0, 0)
    text = format_summary(report)
    assert "\n    left unjudged: 2 rule(s) (GDPR-A, GDPR-B)\n" in text, text
    assert "(2 rules)</span>" in render_html(report)


def test_rules_only_left_out_are_one_group_whatever_each_rules_count_of_tests() -> None:
    """user26: each rule's reason carries its own count ("(12 test(s) exist)"); an --only run listed "disabled by
    configuration: not selected by --only X" once per count (eight lines in the terminal, the rest cut off)."""
    tests = [{"nodeid": "t.py::test_paging", "outcome": "passed", "rules": ["PAGING-A"]}]
    rules = [{"id": rid, "level": "must", "area": area} for rid, area in (("PAGING-A", "paging"),
                                                                          ("GDPR-A", "gdpr"), ("GDPR-B", "gdpr"))]
    coverage = {"rules": {"PAGING-A": ["t.py::test_paging"], "GDPR-A": ["t.py::test_a"],
                          "GDPR-B": ["t.py::test_b1", "t.py::test_b2"]}}
    report = build_report({"tests": tests}, rules, meta={"selection": {"areas": ["paging"], "rules": []},
                                                         "coverage": coverage})
    reasons = {r["id"]: r["reason"] for r in report["rules"] if r["status"] == "skipped"}
    assert reasons["GDPR-A"].endswith("(1 test(s) exist)") and reasons["GDPR-B"].endswith("(2 test(s) exist)")
    [group] = report["summary"]["skipped_groups"]
    assert (group["rules"], group["reason"]) == (["GDPR-A", "GDPR-B"], "disabled by configuration: not selected by "
                                                                        "--only paging")
    assert format_summary(report).count("not selected by --only") == 1


def test_a_reason_naming_nothing_of_its_parameters_is_kept_whole() -> None:
    assert reason_key("admin could not post an answer-like thing", "t.py::test_x[admin]") == \
        "admin could not post an answer-like thing"
    assert reason_key("no parameters here: GDPR-X-Y", "t.py::test_x") == "no parameters here: GDPR-X-Y"


def test_blocked_rules_are_one_terminal_line_per_step_naming_its_rule_and_call() -> None:
    step = {"outcome": "blocked", "blocked_by": ["CONV-JSON-EXTENSION"],
            "blocked_call": "PUT /services/v2/node/99/lock.json as member -> 200"}
    tests = [{"nodeid": f"t.py::test_{i}", "rules": [rid], **step}
             for i, rid in enumerate(("SHAPE-POST-COMMENT", "COMMENT-1", "VERSION-PATH"))]
    rules = [{"id": r, "level": "must"} for r in ("SHAPE-POST-COMMENT", "COMMENT-1", "VERSION-PATH",
                                                  "CONV-JSON-EXTENSION")]
    report = build_report({"tests": tests}, rules)
    assert report["summary"]["failed_rules"] == ["CONV-JSON-EXTENSION"]
    lines = [line for line in format_summary(report).splitlines() if "broken by" in line]
    assert lines == ["  CONV-JSON-EXTENSION broken by PUT /services/v2/node/99/lock.json as member -> 200: 3 test(s) "
                     "blocked; rules left unchecked: SHAPE-POST-COMMENT, COMMENT-1, VERSION-PATH"]
    # a rule another test held is not left unchecked; a second call that broke the same rule is counted
    held = {"nodeid": "t.py::test_held", "rules": ["COMMENT-1"], "outcome": "passed"}
    other = {**tests[0], "nodeid": "t.py::test_9", "blocked_call": "PUT /services/v2/node/98/lock.json as admin -> 200"}
    report = build_report({"tests": [*tests, held, other]}, rules)
    assert report["summary"]["blocked"] == [{"by": ["CONV-JSON-EXTENSION"], "tests": 4, "calls": 2,
                                             "call": "PUT /services/v2/node/99/lock.json as member -> 200",
                                             "rules": ["SHAPE-POST-COMMENT", "VERSION-PATH"]}]
    assert "200 (and 1 other call): 4 test(s) blocked; rules left unchecked: SHAPE-POST-COMMENT, VERSION-PATH" \
        in format_summary(report)
