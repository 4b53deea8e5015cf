"""The interface coverage map is drawn from what was sent and received, never from test names."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from qaconform.commands.run_coverage import FailUnderProblem, fail_under_of, read_exchanges
from qaconform.contract import load_contract
from qaconform.report.coverage import fail_under, interface_map, rules_checked, terminal_lines, value_form
from qaconform.report.model import build_report

BASE = "http://127.0.0.1:9/services/v2"


def ex(role: str, method: str, path: str, status: int | None = 200, body: Any = None, test: str = "t::a") -> dict:
    return {"test": test, "role": role, "method": method, "url": BASE + path, "status": status,
            "request_headers": {"Content-Type": "application/json"} if body is not None else {},
            "request_body": None if body is None else json.dumps(body), "response_headers": {},
            "response_body": "", "elapsed_ms": 1.0, "started": 1.0}


def op(cov: dict, op_id: str) -> dict:
    return next(o for o in cov["operations"] if o["operation"] == op_id)


def test_requests_are_tallied_per_operation_and_account_by_method_and_path() -> None:
    exchanges = [ex("member", "GET", "/question.json?page=2&pageSize=5"), ex("member", "GET", "/question.json", 401),
                 ex("anonymous", "GET", "/user/retrieveAllExperts.json", 401),
                 ex("admin", "GET", "/mytracker/issuetype.json"),
                 ex("admin", "GET", "/question.json", test="t::b"),
                 ex("admin", "DELETE", "/question.json"),  # not an operation of the description: counted apart
                 ex("novice", "PUT", "/node/5/delete.json")]
    cov = interface_map(exchanges, [], load_contract())
    listq = op(cov, "listQuestions")
    assert listq["accounts"]["member"]["requests"] == 2
    assert listq["accounts"]["member"]["statuses"] == {"200": 1, "401": 1}
    assert listq["accounts"]["member"]["fields"] == {"page": {"query: numeric string": 1},
                                                     "pageSize": {"query: numeric string": 1}}
    assert listq["accounts"]["admin"]["requests"] == 1 and listq["accounts"]["novice"]["requests"] == 0
    assert op(cov, "listActiveExperts")["accounts"]["anonymous"]["requests"] == 1
    assert op(cov, "listIssueTypes")["accounts"]["admin"]["requests"] == 1  # any tracker segment
    assert cov["exchanges"] == 7 and sum(cov["outside_operations"].values()) == 2
    assert len(cov["operations"]) == 19


def test_each_stated_form_counts_apart() -> None:
    exchanges = [ex("member", "POST", "/node/5/comment.json", 201, {"body": "x", "recipients": [{"id": 3}]}),
                 ex("member", "POST", "/node/5/comment.json", 201, {"body": "x", "recipients": [{"id": "3"}]}),
                 ex("admin", "POST", "/jobs/gdpr/schedule.json", 201, {"user": "a@b.example"}),
                 ex("admin", "POST", "/jobs/gdpr/schedule.json?user=7", 201, {"user": 7})]
    cov = interface_map(exchanges, [], load_contract())
    recipients = op(cov, "postComment")["accounts"]["member"]["fields"]["recipients"]
    assert recipients == {"body: array of object{id: integer}": 1, "body: array of object{id: numeric string}": 1}
    user = op(cov, "scheduleGdprJob")["accounts"]["admin"]["fields"]["user"]
    assert user == {"body: email": 1, "body: integer": 1, "query: numeric string": 1}
    assert value_form("qa-member") == "string" and value_form(True) == "boolean"


def test_a_must_rule_counts_as_checked_where_a_test_with_a_verdict_sent_its_requests() -> None:
    exchanges = [ex("member", "GET", "/question.json", test="t::passed"),
                 ex("novice", "GET", "/question.json", test="t::skipped")]
    tests = [{"nodeid": "t::passed", "outcome": "passed", "rules": ["PAGING-LISTCOUNT"]},
             {"nodeid": "t::skipped", "outcome": "skipped", "rules": ["PAGING-PAGECOUNT"],
              "skip_kind": "missing fixture"}]
    cov = interface_map(exchanges, tests, load_contract())
    listq = op(cov, "listQuestions")
    assert listq["accounts"]["member"]["must_checked"] == ["PAGING-LISTCOUNT"]
    assert listq["accounts"]["novice"]["must_checked"] == []  # called, but the test that called it judged nothing


def test_an_answer_shared_with_another_test_is_counted_once_and_checks_that_tests_rules() -> None:
    """A read made once and judged by a second test too (the contract suites' ``fetch`` cache) is logged again under
    that test, marked ``shared``: sent once, so counted once, but the second test's rule was checked on it."""
    shared = {**ex("member", "GET", "/question.json", test="t::second"), "shared": True}
    exchanges = [ex("member", "GET", "/question.json", test="t::first"), shared,
                 {**ex("member", "DELETE", "/question.json", test="t::second"), "shared": True}]
    tests = [{"nodeid": "t::first", "outcome": "passed", "rules": ["PAGING-LISTCOUNT"]},
             {"nodeid": "t::second", "outcome": "passed", "rules": ["PAGING-PAGECOUNT"]}]
    cov = interface_map(exchanges, tests, load_contract())
    member = op(cov, "listQuestions")["accounts"]["member"]
    assert member["requests"] == 1 and member["statuses"] == {"200": 1}
    assert member["must_checked"] == ["PAGING-LISTCOUNT", "PAGING-PAGECOUNT"]
    assert cov["exchanges"] == 1 and sum(cov["outside_operations"].values()) == 0


def test_what_no_request_exercised_is_listed_with_why() -> None:
    tests = [{"nodeid": "t::c", "outcome": "skipped", "rules": ["LOCK-1"], "skip_kind": "missing fixture",
              "needs_fixtures": ["lockable_node_id"]}]
    contract = load_contract()
    tests[0]["rules"] = [r.id for r in contract.rules.values() if "lockNode" in r.operations][:1]
    cov = interface_map([ex("member", "GET", "/question.json")], tests, contract, read_only=False)
    lock = [g for g in cov["unexercised"] if g["operation"] == "lockNode" and "account" in g]
    assert {g["account"] for g in lock} == {"admin", "moderator", "member", "novice", "anonymous"}
    assert all(g["why"] == "fixture missing (lockable_node_id)" for g in lock)
    ro = interface_map([], [], contract, read_only=True)
    post = next(g for g in ro["unexercised"] if g["operation"] == "postAnswer" and g.get("account") == "admin")
    assert post["why"] == "--read-only"
    only = interface_map([], [], contract, only=["paging"])
    assert next(g for g in only["unexercised"] if g["operation"] == "listGroups")["why"] == \
        "not selected by --only paging"
    fields = {g["field"] for g in interface_map([ex("member", "GET", "/question.json?page=1")], [], contract)[
        "unexercised"] if g["operation"] == "listQuestions" and "field" in g}
    assert "pageSize" in fields and "page" not in fields


def _skipped(nodeid: str, rule: str, kind: str, message: str, **kw: Any) -> dict[str, Any]:
    return {"nodeid": nodeid, "outcome": "skipped", "rules": [rule], "message": message, "skip_kind": kind, **kw}


def test_the_share_of_must_rules_checked_and_the_threshold() -> None:
    """Built from a results file: why a must-rule went unchecked comes from its tests' fields (the fixtures its
    skips need), never from the wording of its reason."""
    catalog = [{"id": rid, "level": "must"} for rid in ("A", "B", "C", "D")] + [{"id": "S", "level": "should"}]
    needs = {"needs_fixtures": ["wiki_node_id"]}
    results = {"tests": [
        {"nodeid": "t.py::test_a", "outcome": "passed", "rules": ["A", "S"]},
        {"nodeid": "t.py::test_b", "outcome": "failed", "rules": ["B"], "message": "broke"},
        _skipped("t.py::test_c1", "C", "missing fixture", "fixture wiki_node_id not in profile", **needs),
        _skipped("t.py::test_c2", "C", "missing fixture", "no wiki node to cancel", **needs),
        {"nodeid": "t.py::test_d", "outcome": "blocked", "rules": ["D"], "unreachable": "connection refused"}]}
    cov = build_report(results, catalog)["coverage"]
    assert cov["summary"]["must_checked"] == 2 and cov["summary"]["must_rules"] == 4 and cov["summary"]["share"] == 50
    assert [u["rule"] for u in cov["must_rules_not_checked"]] == ["C", "D"]
    assert cov["must_rules_not_checked"][0]["why"] == "needs fixture wiki_node_id"
    assert cov["must_rules_not_checked"][1]["why"].startswith("blocked: the target gave no answer")
    assert fail_under(cov, 90) == "checked 2 of 4 must-rules (50%), under --fail-under 90%"
    assert fail_under(cov, 50) is None and fail_under(cov, None) is None
    assert fail_under(cov, 75, "the profile's fail_under") == \
        "checked 2 of 4 must-rules (50%), under the profile's fail_under 75%"


def test_the_terminal_says_what_was_called_and_why_must_rules_went_unchecked() -> None:
    """Two lines at most: what was called, and (when some were not) why must-rules went unchecked; "checked N of M"
    itself is on the verdict line, so a run that checked every must-rule does not say it twice."""
    cov = rules_checked([{"id": "A", "level": "must", "status": "passed"}],
                        interface_map([ex("member", "GET", "/question.json")], [], load_contract()))
    lines = terminal_lines(cov)
    assert len(lines) == 1
    assert lines[0].startswith("interface coverage: 1 of 19 operations, 1 of 95 operation x account cells")
    cov = rules_checked([{"id": "A", "level": "must", "status": "passed"},
                         {"id": "B", "level": "must", "status": "skipped", "reason": "not selected by --only"}],
                        interface_map([ex("member", "GET", "/question.json")], [], load_contract()))
    lines = terminal_lines(cov)
    assert len(lines) == 2
    assert lines[1].startswith("checked 1 of 2 must-rules (50%); not checked: 1 "), lines


def test_the_reasons_on_the_terminal_add_up_to_the_must_rules_not_checked() -> None:
    """The line shows the four commonest reasons; the rest are counted, not dropped: a run against a site with
    variants said "checked 131 of 147 must-rules; not checked: 6 ..., 3 ..., 3 ..., 2 ...", 14 of the 16, and the
    reader could not tell where the other two went. A reason that ends in a space leaves no " ," behind."""
    skipped = [("B1", "reason one"), ("B2", "reason one"), ("C", "reason two"), ("D", "reason three"),
               ("E", "reason four "), ("F", "reason five"), ("G", "reason six")]
    rules = [{"id": "A", "level": "must", "status": "passed"},
             *({"id": i, "level": "must", "status": "skipped"} for i, _ in skipped)]
    cov = rules_checked(rules, interface_map([ex("member", "GET", "/question.json")], [], load_contract()),
                        dict(skipped))
    line = terminal_lines(cov)[1]
    assert line.startswith("checked 1 of 8 must-rules (12.5%); not checked: 2 reason one, 1 "), line
    assert line.endswith(", 2 for 2 other reason(s) (coverage.json: must_rules_not_checked)"), line
    assert " ," not in line
    assert sum(int(part.split()[0]) for part in line.split("not checked: ")[1].split(", ")) == 7


def test_fail_under_comes_from_the_option_else_the_environment_and_must_be_a_share() -> None:
    env = {"QACONFORM_FAIL_UNDER": "75%"}
    assert fail_under_of(argparse.Namespace(fail_under="90"), env) == (90.0, "--fail-under")
    assert fail_under_of(argparse.Namespace(fail_under=None), env) == (75.0, "QACONFORM_FAIL_UNDER")
    assert fail_under_of(argparse.Namespace(fail_under=None), {})[0] is None
    for bad in ("ninety", "120", "-1"):
        with pytest.raises(FailUnderProblem, match="give a number from 0 to 100"):
            fail_under_of(argparse.Namespace(fail_under=bad), {})


def test_the_exchanges_of_every_process_are_read_and_a_torn_line_is_left_out(tmp_path: Path) -> None:
    (tmp_path / "main.jsonl").write_text(json.dumps(ex("admin", "GET", "/space.json")) + "\n")
    (tmp_path / "gw0.jsonl").write_text(json.dumps(ex("member", "GET", "/space.json")) + "\n")
    (tmp_path / "gw1.jsonl").write_text(json.dumps(ex("novice", "GET", "/space.json")) + '\n{"test": "t::x", "ro')
    roles = sorted(e["role"] for e in read_exchanges(tmp_path))
    assert roles == ["admin", "member", "novice"]


def test_diff_reports_the_coverage_that_shrank_and_nothing_when_it_did_not() -> None:
    from qaconform.report.coverage import shrank, shrank_lines
    from qaconform.report.diff import compare, format_diff

    def report(checked: list[str], called: list[tuple[str, str]]) -> dict[str, Any]:
        rules = [{"id": rid, "level": "must", "status": "passed" if rid in checked else "skipped"}
                 for rid in ("A", "B", "C")]
        ops = {}
        for op_id, role in called:
            ops.setdefault(op_id, {"operation": op_id, "accounts": {}})["accounts"][role] = {"requests": 1}
        return {"rules": rules, "coverage": {"operations": list(ops.values())}}

    a = report(["A", "B", "C"], [("listQuestions", "member"), ("listGroups", "admin")])
    b = report(["A"], [("listQuestions", "member")])
    d = shrank(a, b)
    assert d == {"must_checked": [3, 1], "rules_no_longer_checked": ["B", "C"],
                 "cells_no_longer_called": ["listGroups as admin"]}
    assert shrank_lines(d)[0] == "coverage shrank: checked 3 -> 1 must-rules"
    assert shrank(a, a) is None and shrank(b, a) is None  # grown is not shrunk
    text = format_diff(compare(a, b))
    assert "coverage shrank: checked 3 -> 1 must-rules" in text and "listGroups as admin" in text


def test_the_profile_may_set_fail_under_as_a_share() -> None:
    from qaconform.target.profile import ProfileError, profile_from_dict

    base = {"base_url": "http://127.0.0.1:9", "fixtures": {"question_id": 1, "space_id": 1},
            "accounts": {r: {"username": f"qa-{r}", "password": "pw-123"}
                         for r in ("admin", "moderator", "member", "novice")}}
    assert profile_from_dict({**base, "fail_under": 90}, "p.toml", {}).fail_under == 90.0
    assert profile_from_dict(base, "p.toml", {}).fail_under is None
    for bad in (120, -5, True, "90"):
        with pytest.raises(ProfileError, match="fail_under"):
            profile_from_dict({**base, "fail_under": bad}, "p.toml", {})


def test_one_reason_is_one_group_whichever_test_of_the_rule_skipped_last() -> None:
    """A rule with two skipped tests carries the foremost category of its skips but is grouped by its first skip's
    own reason, as another rule skipped only for that reason is: one reason, one group (a run once said "3 [safety]
    destructive is false ..., 3 not allowed by safety: [safety] destructive is false ...", one reason as two). The
    group is made from the skips' fields, not read out of the rule's reason."""
    safety = "not allowed by safety: [safety] destructive is false, so no job may succeed"
    results = {"tests": [
        _skipped("t.py::test_g1", "G1", "not allowed by safety", safety),
        _skipped("t.py::test_g2a", "G2", "not allowed by safety", safety),
        _skipped("t.py::test_g2b", "G2", "missing fixture", "not checked: [safety] gdpr_user is not set")]}
    report = build_report(results, [{"id": "G1", "level": "must"}, {"id": "G2", "level": "must"}],
                          meta={"coverage": interface_map([ex("member", "GET", "/question.json")], [],
                                                          load_contract())})
    assert [r["skip_category"] for r in report["rules"]] == ["not allowed by safety", "missing fixture"]
    cov = report["coverage"]
    assert {u["why"] for u in cov["must_rules_not_checked"]} == {safety}
    assert terminal_lines(cov)[1].endswith(f"not checked: 2 {safety}")


def test_a_long_reason_is_shortened_at_a_word_not_inside_one() -> None:
    """A CI build after an earlier one consumed the favorite ended its summary with "4 fixture not in its state:
    favorite_node_id node 14 answered 200 with success: false (...), and the doctor could not tell its s, 2 ...":
    the reason was cut at 160 characters, inside a word. It is cut at a word and says that it was cut."""
    long = ("fixture not in its state: favorite_node_id node 14 answered 200 with success: false (no read shows a "
            "favorite), and the doctor could not tell its state before the run: renew it and say so")
    results = {"tests": [_skipped("t.py::test_f", "F", "fixture not in its state", long)]}
    report = build_report(results, [{"id": "F", "level": "must"}],
                          meta={"coverage": interface_map([ex("member", "GET", "/question.json")], [],
                                                          load_contract())})
    why = report["coverage"]["must_rules_not_checked"][0]["why"]
    assert len(why) <= 160 and why.endswith(" ..."), why
    assert long.startswith(why.removesuffix(" ...") + " "), why


def test_postanswers_wrap_sent_in_a_refused_answer_is_no_longer_a_field_never_sent() -> None:
    """crossing10 (issue 44 item 1): "Option wrap" of postAnswer; the permission matrix sends it in a refused answer
    (suites/scenarios/permission_calls.py ``_answer_options``), so coverage.json lists no stated field unsent there.
    Read back as strict JSON."""
    contract = load_contract()
    plain = interface_map([ex("anonymous", "POST", "/question/3/answer.json", 401, {"body": "x"})], [], contract)
    assert {g["field"] for g in plain["unexercised"] if g["operation"] == "postAnswer" and "field" in g} == {"wrap"}
    sent = interface_map([ex("anonymous", "POST", "/question/3/answer.json?wrap=true", 401, {"body": "x"})], [],
                         contract)
    cov = json.loads(json.dumps(rules_checked([], sent), allow_nan=False),
                     parse_constant=lambda name: (_ for _ in ()).throw(AssertionError(name)))
    answer = op(cov, "postAnswer")
    assert answer["fields_not_sent"] == []
    assert answer["accounts"]["anonymous"]["fields"]["wrap"] == {"query: boolean string": 1}
    assert not [g for g in cov["unexercised"] if g["operation"] == "postAnswer" and "field" in g]


def test_the_permission_matrix_sends_every_option_postanswer_states_in_a_refused_answer() -> None:
    """The refused answer again with each stated option: wrap ("Option wrap") and nothing the description does not
    state for postAnswer (v1 is stated for lists and some actions only)."""
    import sys

    scenarios = str(Path(__file__).resolve().parents[2] / "suites" / "scenarios")
    sys.path.insert(0, scenarios)
    try:
        import permission_calls
    finally:
        sys.path.remove(scenarios)
    assert permission_calls.stated_options("postAnswer") == ("wrap",)
    sent: list[tuple[str, dict[str, Any]]] = []

    class Client:
        role = "anonymous"

        def post(self, path: str, **kw: Any) -> Any:
            sent.append((path, kw))
            return type("R", (), {"status": 401, "headers": {}})()

    scene = type("S", (), {"question_id": 3, "run_tag": "qc-t", "created": None,
                           "refused": permission_calls.Ledger()})()
    attempts = permission_calls.OPS["postAnswer"].options(Client(), scene)
    assert list(attempts) == ["wrap=true"]
    assert [(e.operation, e.node) for e in scene.refused.entries] == [("postAnswer", 3)]  # noeffect: judged late
    assert [(p, kw["params"]) for p, kw in sent] == [("/question/3/answer.json", {"wrap": "true"})]
