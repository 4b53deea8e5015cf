"""The results file is read into typed records at one boundary (``qaconform.report.records``), leniently: what an
older plugin, a hand-written file or an unlimited run writes becomes the values the report always gave it."""

from __future__ import annotations

from qaconform.report.model import build_report
from qaconform.report.records import ReportRecord, Results, TestResult
from qaconform.status import Status
from qaconform.vocabulary import SkipKind


def test_an_unlimited_write_budget_reads_as_unlimited_shares() -> None:
    """``--write-budget unlimited`` records every share's limit as null: the report says unlimited, never breaks."""
    budget = {"budget": None, "limits": {"suites": None, "observations": None}, "thorough": False}
    results = Results.of({"tests": [], "write_budget": budget})
    assert results.write_budget is not None and results.write_budget.limits == {"suites": None, "observations": None}
    report = build_report({"tests": [], "write_budget": budget}, [])
    assert report["settings"]["write_budget"] == "unlimited" and report["writes"]["budget"] is None


def test_an_entry_is_read_with_the_defaults_the_report_always_gave() -> None:
    older = TestResult.of({"nodeid": "t.py::a", "outcome": "failed", "warning": True, "skip_kind": "no such kind"}, 1)
    assert older.outcome is Status.WARNING and older.kind is SkipKind.OTHER and older.rules == []
    odd = TestResult.of({"outcome": "exploded", "message": "boom", "exchanges": [{"curl": "c"}, "not an object"]}, 3)
    assert odd.nodeid == "<unnamed test 3>" and odd.outcome is Status.ERROR
    assert odd.message == "unknown outcome 'exploded' in the results file; boom" and odd.exchanges == [{"curl": "c"}]


def test_a_report_read_back_keeps_what_diff_decides_by() -> None:
    report = {"rules": [{"id": "A", "level": "must", "status": "failed", "skip_category": None,
                         "evidence": {"failures": [{"test": "suites/properties/t.py::x", "message": "m", "curl": "c"}]},
                         "expected": {"state": "expected failure", "reason": "known"}}],
              "selection": {"areas": ["paging"], "rules": []}, "target": {"base_url": "http://h"}}
    record = ReportRecord.of(report)
    rule = record.rules["A"]
    assert (rule.failures[0].curl, rule.expected_state, rule.expected_reason) == ("c", "expected failure", "known")
    assert record.chosen == ("paging",) and record.base_url == "http://h" and record.checked_must_rules() == {"A"}
