"""One story per run (issue 46): the banner, the page's lists, the terminal, junit.xml and report.json say the same
of every rule under every flag that changes a verdict (--strict, --expect, --fail-under).

A QA lead met a page whose banner said "2 rule(s) failed: CONV-BODY-FORMAT, COMMENT-BODY-REQUIRED" under --strict
while its list said "Failed rules (1)" and showed the should-rule under "Warnings: ... does not fail the run": the
page decided again, without --strict, what the model had decided with it. Here each output is read back with a
parser (HTML, XML, JSON, the terminal text) and the five sets of failed and warned rules compared.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from report_builders import CATALOG, entry, exchange, make_results

from qaconform.contract import Rule
from qaconform.report.expect import Expectation
from qaconform.report.terminal import format_summary
from qaconform.report.writer import build_and_write

SHOULD = Rule("SHOULD-1", "should", "contract", ("postComment",), "1.6.3", "a body in another format is refused",
              "Conventions")
SHOULD_TEST = "suites/contract/test_request_conventions.py::test_body_format"


def _results(strict: bool) -> dict[str, Any]:
    """The kit's results: under --strict the plugin keeps a failed should-rule's test failed; without, its outcome is
    a warning (qaconform.pytest.results._entry)."""
    results = make_results()
    results["tests"] = [t for t in results["tests"] if t["outcome"] != "error"]  # a kit error would decide the exit
    failed = entry(SHOULD_TEST, "failed", ["SHOULD-1"], message="[SHOULD-1] a body in another format was taken",
                   exchanges=[exchange(201)])
    if not strict:
        failed.update(outcome="warning", warning=True)
    results["tests"].append(failed)
    return results


class _Sections(HTMLParser):
    """Rule ids of the cards under the page's failed-rules and warnings sections, and the verdict banner's text."""

    def __init__(self) -> None:
        super().__init__()
        self.section: str | None = None
        self.cards: dict[str, set[str]] = {"failed": set(), "warnings": set()}
        self.in_verdict = False
        self.verdict = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "section":
            self.section = a.get("id")
        if tag == "article" and self.section in self.cards and "rule-card" in (a.get("class") or ""):
            self.cards[str(self.section)].add(str(a.get("id")).split("-", 1)[1])
        if a.get("id") == "verdict":
            self.in_verdict = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "section":
            self.section = None
        if tag == "div":
            self.in_verdict = False

    def handle_data(self, data: str) -> None:
        if self.in_verdict:
            self.verdict += data


def _junit(path: Path) -> tuple[set[str], set[str]]:
    """Rules of the test cases junit.xml fails, and of those it reports as warnings."""
    failed, warned = set(), set()
    for case in ET.parse(path).getroot().iter("testcase"):
        rules = {p.get("value") for p in case.iter("property") if p.get("name") == "rule"}
        if case.find("failure") is not None:
            failed |= {str(r) for r in rules}
        skipped = case.find("skipped")
        if skipped is not None and skipped.get("type") == "qaconform.warning":
            warned |= {str(r) for r in rules}
    return failed, warned


def _terminal(text: str, label: str) -> set[str]:
    """The rule ids listed under the terminal summary's heading ``label:`` (one line indented by two per rule; the
    lines indented deeper under a failed rule are its story: what was sent, the curl)."""
    found: set[str] = set()
    under = False
    for line in text.splitlines():
        if not line.startswith(" "):
            under = line.startswith(label) and line.rstrip().endswith(":")
            continue
        if under and not line.startswith("   "):
            found.add(line.split()[0])
    return found


@pytest.mark.parametrize("flag", ["none", "strict", "expect", "fail-under", "strict+expect"])
def test_the_banner_the_page_the_terminal_junit_and_report_json_tell_one_story(tmp_path: Path, flag: str) -> None:
    strict = "strict" in flag
    meta: dict[str, Any] = {"strict": strict}
    expectations = {"FAIL-1": Expectation("FAIL-1", "known bug QA-12")} if "expect" in flag else None
    if flag == "fail-under":
        meta.update(fail_under=99.0, fail_under_from="--fail-under")
    report, paths = build_and_write(_results(strict), tmp_path, rules=[*CATALOG, SHOULD], meta=meta,
                                    expectations=expectations)
    data = json.loads(paths["json"].read_text(encoding="utf-8"))
    summary = data["summary"]
    failed, warned = set(summary["failed_rules"]), set(summary["warning_rules"])
    # what the flags mean, so that five outputs agreeing on a wrong answer still fail here
    assert ("SHOULD-1" in failed) is strict and ("SHOULD-1" in warned) is not strict, summary
    assert ("FAIL-1" in failed) is (expectations is None), summary

    page = _Sections()
    page.feed(paths["html"].read_text(encoding="utf-8"))
    expected_shown = set(summary["expected_failures"])  # shown among the failed, with their badge
    assert page.cards["failed"] - expected_shown == failed, page.cards
    assert page.cards["warnings"] == warned, page.cards
    banner = page.verdict
    assert f"exit code {data['exit_code']}" in banner, banner
    for rid in failed:
        assert rid in banner, (rid, banner)
    for rid in warned:
        assert rid not in banner, (rid, banner)

    text = format_summary(report)
    assert _terminal(text, "failed") == failed, text
    assert _terminal(text, "warning") == warned, text

    j_failed, j_warned = _junit(paths["junit"])
    assert j_failed == failed and j_warned == warned, (j_failed, j_warned)
    assert data["exit_code"] == (1 if failed or flag == "fail-under" else 0), (flag, data["exit_code"], banner)
