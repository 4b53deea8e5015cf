"""Typed outcomes reach the results file as fields: a RuleFailure's rules and curl, a skip's kind and fixtures.

Oracle: a small test file run under the kit's plugin (as ``qaconform run`` runs the suites) whose tests end in each
way; the results file must carry the fields the report reads, while pytest still counts a RuleFailure as a failure
and a typed skip as a skip with its reason. The tests carry no rule marker, so no target is needed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from qaconform.pytest.outcomes import RuleFailure, SkipKind
from qaconform.report.model import build_report
from qaconform.status import Status

_TESTS = '''
from qaconform.pytest.outcomes import RuleFailure, SkipKind, skip

def test_fixture_step_broke_another_rule():
    raise RuleFailure(["ANSWER-201"], "member could not post an answer")

def test_plain_assert_naming_a_rule():
    assert False, "[ANSWER-201] member could not post an answer"

def test_needs_a_fixture():
    skip(SkipKind.MISSING_FIXTURE, "fixture wiki_node_id not in profile", fixtures=["wiki_node_id"])

def test_forbidden_by_safety():
    skip(SkipKind.SAFETY, "not allowed by safety: --read-only")

def test_answer_the_kit_cannot_use():
    from qaconform.target.client import TargetError
    raise TargetError("GET http://h/x answered 200 with a body that is not JSON", curl="curl -sS -i http://h/x")

def test_a_step_whose_answer_broke_the_json_rule():
    from qaconform.target.client import TargetError
    raise TargetError("[CONV-JSON-EXTENSION] PUT http://h/services/v2/node/9/lock.json?prompt=a answered 200 with a "
                      "body that is not JSON", curl="curl -sS -i -X PUT http://h/services/v2/node/9/lock.json",
                      rules=("CONV-JSON-EXTENSION",), call="PUT /services/v2/node/9/lock.json as member -> 200")

import pytest as _pytest

@_pytest.mark.rule("CONV-JSON-EXTENSION")
def test_the_json_rule_judged_on_its_own_call():
    from qaconform.target.client import TargetError
    raise TargetError("[CONV-JSON-EXTENSION] PUT http://h/services/v2/node/9/lock.json answered 200 with a body that "
                      "is not JSON", rules=("CONV-JSON-EXTENSION",), call="PUT /services/v2/node/9/lock.json -> 200")

@_pytest.mark.rule("CONV-JSON-EXTENSION")
def test_a_lock_answered_with_html():
    from qaconform.target.client import ApiResponse, Exchange
    url = "http://h/services/v2/node/9/lock.json?prompt=" + "%F0%9F%98%80" * 40
    curl = 'curl -sS -i -X PUT -u "$USER:$PASSWORD" ' + url + '   # as member'
    body = b"<html>oops</html>"
    exchange = Exchange("member", "PUT", url, 200, {}, None, {}, body.decode(), 1.0, curl)
    ApiResponse(200, {"content-type": "text/html"}, body, url, exchange).json()

def test_judging_a_cached_answer():
    from qaconform.pytest.exchange_log import judged_again
    from qaconform.target.client import Exchange
    judged_again(Exchange("admin", "GET", "http://h/y", 200, {}, None, {}, "{}", 1.0, "curl -sS -i http://h/y"))
    assert False, "listCount is 16 but the page holds 15 items"

def test_plain_skip():
    import pytest
    pytest.skip("nothing to check")

def test_skip_with_what_varies_between_builds():
    skip(SkipKind.OTHER, "not checked: the list is longer than the longest page", detail="it holds 29 items")
'''


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    folder = tmp_path_factory.mktemp("outcomes")
    (folder / "test_ends.py").write_text(_TESTS)
    results = folder / "results.json"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "--qaconform-results",
                           str(results), "test_ends.py"], cwd=folder, capture_output=True, text=True, timeout=120,
                          check=False)
    assert results.is_file(), f"no results file\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    return proc, json.loads(results.read_text())


def _test(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(t for t in data["tests"] if t["nodeid"].endswith(name))


def test_pytest_still_sees_a_failure_and_skips_with_their_reasons(ran: tuple[Any, dict[str, Any]]) -> None:
    proc, _ = ran
    assert "7 failed, 4 skipped" in proc.stdout, proc.stdout[-2000:]
    # the reason at the test's own line, as pytest.skip shows it
    assert "SKIPPED [1] test_ends.py:11: fixture wiki_node_id not in profile" in proc.stdout, proc.stdout[-2000:]


def test_a_rule_failure_carries_its_rules_into_the_results_and_blocks_on_them(ran: tuple[Any, dict[str, Any]]) -> None:
    _, data = ran
    typed = _test(data, "test_fixture_step_broke_another_rule")
    assert typed["outcome"] == Status.BLOCKED and typed["blocked_by"] == ["ANSWER-201"]
    assert typed["failure"] == {"rules": ["ANSWER-201"], "curl": None, "exchange": None}
    plain = _test(data, "test_plain_assert_naming_a_rule")  # the message form still works, without the field
    assert plain["outcome"] == Status.BLOCKED and plain["blocked_by"] == ["ANSWER-201"] and "failure" not in plain


def test_a_step_whose_answer_broke_a_rule_blocks_the_test_and_names_the_call(ran: tuple[Any, dict[str, Any]]) -> None:
    """qa15: a test that locked a node only as a step (the shared lock with the kit's awkward prompt) and met a 200
    that is not JSON was failed under its own rule: one broken lock answer turned 24 rules red. The client names the
    answer's rule on the TargetError; the test is blocked by it, with the call in one line, and the rule is charged
    once; a test whose own rule it is fails on it."""
    _, data = ran
    step = _test(data, "test_a_step_whose_answer_broke_the_json_rule")
    assert step["outcome"] == Status.BLOCKED and step["blocked_by"] == ["CONV-JSON-EXTENSION"]
    assert step["blocked_call"] == "PUT /services/v2/node/9/lock.json as member -> 200"
    own = _test(data, "test_the_json_rule_judged_on_its_own_call")
    assert own["outcome"] == Status.FAILED and "blocked_by" not in own
    report = build_report({"tests": [{**step, "rules": ["SHAPE-LOCK-NODE"]}]},
                          [{"id": "SHAPE-LOCK-NODE", "level": "must"}, {"id": "CONV-JSON-EXTENSION", "level": "must"}])
    by_id = {r["id"]: r for r in report["rules"]}
    assert by_id["SHAPE-LOCK-NODE"]["status"] == "blocked" and by_id["CONV-JSON-EXTENSION"]["status"] == "failed"
    assert "PUT /services/v2/node/9/lock.json as member -> 200" in by_id["SHAPE-LOCK-NODE"]["reason"]
    assert report["summary"]["blocked"] == [{"by": ["CONV-JSON-EXTENSION"], "rules": ["SHAPE-LOCK-NODE"], "tests": 1,
                                             "calls": 1, "call": "PUT /services/v2/node/9/lock.json as member -> 200"}]
    assert report["summary"]["failed_rules"] == ["CONV-JSON-EXTENSION"]


def test_an_answer_the_kit_cannot_use_carries_its_curl_as_a_field(ran: tuple[Any, dict[str, Any]]) -> None:
    """The report shows a TargetError's curl from the results' ``reproduce`` field, not from its message."""
    _, data = ran
    unusable = _test(data, "test_answer_the_kit_cannot_use")
    assert unusable["outcome"] == Status.FAILED and unusable["reproduce"] == "curl -sS -i http://h/x"
    assert "reproduce" not in _test(data, "test_plain_assert_naming_a_rule")
    # a test that judged only answers read before it (the contract suites' cached fetch) sent nothing itself: the
    # curl is that of the last answer it judged
    assert _test(data, "test_judging_a_cached_answer")["reproduce"] == "curl -sS -i http://h/y"


def test_a_skip_records_its_kind_and_the_fixtures_it_needs(ran: tuple[Any, dict[str, Any]]) -> None:
    _, data = ran
    assert _test(data, "test_needs_a_fixture")["skip_kind"] == SkipKind.MISSING_FIXTURE
    assert _test(data, "test_needs_a_fixture")["needs_fixtures"] == ["wiki_node_id"]
    assert _test(data, "test_forbidden_by_safety")["skip_kind"] == SkipKind.SAFETY
    assert _test(data, "test_plain_skip")["skip_kind"] == SkipKind.OTHER


def test_a_skips_detail_stays_out_of_the_reason_ci_compares(ran: tuple[Any, dict[str, Any]]) -> None:
    """user13: CI compares a skip's JUnit message from build to build with --seed; the facts that vary (a list's
    size, an id drawn at random) are the skip's detail: in results.json, report.json and the JUnit element's text,
    never in its message."""
    import xml.etree.ElementTree as ET

    from qaconform.report.junit import build_junit

    _, data = ran
    entry = _test(data, "test_skip_with_what_varies_between_builds")
    assert entry["skip_detail"] == "it holds 29 items"
    assert "29" not in entry["message"] and "longest page" in entry["message"]
    assert "skip_detail" not in _test(data, "test_plain_skip")
    report = build_report(data, [])
    assert next(t for t in report["tests"] if t["nodeid"] == entry["nodeid"])["skip_detail"] == "it holds 29 items"
    case = next(c for c in ET.fromstring(build_junit(report)).iter("testcase")
                if c.get("name") == "test_skip_with_what_varies_between_builds")
    skipped = case.find("skipped")
    assert skipped is not None and "29" not in (skipped.get("message") or "-29")
    assert "longest page" in (skipped.get("message") or "") and skipped.text == "it holds 29 items"


def test_the_report_groups_skips_by_kind_not_by_their_wording() -> None:
    """The same reason text under two kinds lands in two groups: the report reads the field."""
    def skipped(rule: str, kind: SkipKind, **kw: Any) -> dict[str, Any]:
        return {"nodeid": f"t.py::test_{rule}", "outcome": "skipped", "rules": [rule], "message": "nothing to check",
                "skip_kind": kind.value, **kw}

    results = {"tests": [skipped("A-1", SkipKind.SAFETY), skipped("B-1", SkipKind.OTHER),
                         skipped("C-1", SkipKind.MISSING_FIXTURE, needs_fixtures=["space_id"])]}
    rules = [{"id": rid, "level": "must"} for rid in ("A-1", "B-1", "C-1")]
    by_id = {r["id"]: r for r in build_report(results, rules)["rules"]}
    assert by_id["A-1"]["skip_category"] == "not allowed by safety"
    assert by_id["B-1"]["skip_category"] == "skipped"
    assert by_id["C-1"]["skip_category"] == "missing fixture"
    assert by_id["C-1"]["reason"] == "not checked: needs fixture space_id"


def test_a_rule_failure_reads_like_the_messages_the_report_blames_by() -> None:
    failure = RuleFailure(["PAGING-LISTCOUNT", "PAGING-LISTCOUNT", "VERSION-PATH"], "listCount is 2")
    assert str(failure) == "[PAGING-LISTCOUNT, VERSION-PATH] listCount is 2"
    assert isinstance(failure, AssertionError) and failure.rules == ("PAGING-LISTCOUNT", "VERSION-PATH")


def test_a_failed_rules_terminal_line_tells_its_story_not_the_exception_class(ran: tuple[Any, dict[str, Any]]) -> None:
    """qa16: pytest's crash line starts with the exception's class path, and every output took the message from it:
    the terminal's failed-rule line read ``CONV-JSON-EXTENSION  qaconform.target.client.TargetError: [CONV-JSON-EXTE``
    and then a lock URL full of the kit's prompt, cut at the line's width. The message is the test's own; the line
    says the call and what came back, the lines under it what was sent and the whole curl."""
    from qaconform.report.terminal import format_summary

    _, data = ran
    html = _test(data, "test_a_lock_answered_with_html")
    for name in ("test_a_lock_answered_with_html", "test_fixture_step_broke_another_rule",
                 "test_plain_assert_naming_a_rule", "test_answer_the_kit_cannot_use"):
        message = _test(data, name)["message"]
        assert message.startswith(("[", "GET ")), f"{name}: {message[:120]}"
    report = build_report({"tests": [html]}, [{"id": "CONV-JSON-EXTENSION", "level": "must"}])
    lines = format_summary(report).splitlines()
    at = lines.index("failed:") + 1
    assert lines[at].startswith("  CONV-JSON-EXTENSION  PUT /services/v2/node/9/lock.json as member answered 200 "
                                "with a body that is not JSON (Content-Type text/html)"), lines[at:at + 3]
    assert lines[at + 1].startswith("      sent: PUT http://h/services/v2/node/9/lock.json?prompt=%F0%9F%98%80")
    assert lines[at + 1].endswith(" ...") and len(lines[at + 1]) <= 166
    assert lines[at + 2] == "      replay: " + html["reproduce"] and html["reproduce"].endswith("%98%80   # as member")
