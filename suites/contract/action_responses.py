"""Every response rule of a node action, judged on every row of the action matrix that has something for it to
judge (issue 44: "each matrix row that succeeds (or is refused) runs every must-check of its operation's response",
not only the rule the row was drawn for).

The action matrix (test_action_matrix.py) already makes one call per combination of the caller's role, its relation
to the node, the node's kind and its state; the rules here are judged on those same responses, at no request of
their own. Which rows a rule judges follows from what the rule is, never from a list of combinations:

- a refusal rule (PERM-DENIED-STATUS: "Every operation requires the permissions below", a denial is a 4xx) on every
  row the permission table refuses;
- the anonymous rule (AUTH-ANONYMOUS-WRITES) on every anonymous row;
- a rule of the 200 (the operation's SHAPE rule, the wrappers, the action date, JSON for a .json path, served
  under /services/v2) on every row whose allowed
  call changes a node that is in the state the action needs (a lock or a send to moderation of a node as created:
  the rows that must answer 200).

Which actions a rule is judged on is its operations in spec/rules.yaml that the matrix draws (:func:`actions_of`);
qaconform/report/crossing.py counts the rule crossed with every dimension of those actions unless
spec/dimensions.yaml ``write_crossing.exclude`` says why not, and tests/test_write_crossing.py keeps the two the same.
Pure: no request; the calls are the matrix's ``Scene.act``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from action_cases import CHANGES_NODE, Case
from rule_assertions import rules_for_schema_error

from qaconform.contract import SchemaError
from qaconform.pytest.outcomes import fail
from qaconform.pytest.refusals import off_the_interface, why_not_refused
from qaconform.pytest.support import refused_in_body
from qaconform.target.client import ApiResponse

REFUSED, ANONYMOUS, CHANGED = "refused", "anonymous", "changed"
"""The rows a rule judges: the calls the permission table refuses, the anonymous calls, the allowed changes of a
node in the state the action needs."""

RESPONSE_RULES: dict[str, str] = {
    "PERM-DENIED-STATUS": REFUSED,
    "AUTH-ANONYMOUS-WRITES": ANONYMOUS,
    "SHAPE-LOCK-NODE": CHANGED,
    "SHAPE-SEND-TO-MODERATION": CHANGED,
    "SHAPE-ACTIONDATE": CHANGED,
    "ACTION-WRAPPERS": CHANGED,
    "CONV-JSON-EXTENSION": CHANGED,
    "VERSION-PATH": CHANGED,
}
"""rule -> the rows it judges (the module's docstring)."""

RECORD = {"lockNode": "lockAction", "sendToModeration": "sendToModAction"}
"""The key of the action record in the result of each action whose allowed call changes the node."""
SHAPE = {"lockNode": "SHAPE-LOCK-NODE", "sendToModeration": "SHAPE-SEND-TO-MODERATION"}
OTHERS = {"actionDate": "SHAPE-ACTIONDATE", "success": "ACTION-WRAPPERS", "ip": "ACTION-RECORD-SHAPE",
          "realUser": "ACTION-SENDTOMOD-REALUSER", "node": "ACTION-NODE-ID", "verb": "ACTION-VERBS"}
"""Fields of the 200 whose violation another rule of the matrix judges on the same row (a shape rule judges the
rest): each failure names one rule."""


def actions_of(rule: str, operations: Iterable[str], actions: Iterable[str]) -> tuple[str, ...]:
    """The actions of the matrix ``rule`` is judged on: its operations in rules.yaml that the matrix draws and on
    which some row has something for it to judge (a shape rule of the 200 only where an allowed call changes a
    node: lockNode and sendToModeration)."""
    drawn = [op for op in operations if op in set(actions)]
    if RESPONSE_RULES.get(rule) == CHANGED:
        drawn = [op for op in drawn if op in CHANGES_NODE and (rule not in SHAPE.values() or SHAPE[op] == rule)]
    return tuple(drawn)


def judges(rule: str, case: Case) -> bool:
    """Whether ``rule`` has something to judge on the row ``case``."""
    kind = RESPONSE_RULES[rule]
    if kind == REFUSED:
        return not case.allowed
    if kind == ANONYMOUS:
        return case.role == "anonymous"
    return case.changes_node and case.state_stated


def _what(case: Case) -> str:
    return f"{case.label}: {case.role} calls {case.action} on a {case.kind} ({case.state})"


def judge_refusal(rule: str, case: Case, resp: ApiResponse) -> None:
    """A refused call is answered with a 4xx: a 2xx is the permission rule's (the row's own), anything else this
    rule's (a 2xx that says in its body that nothing happened too: :func:`refused_in_body`; a 4xx of a page the
    call was redirected to too: :func:`qaconform.pytest.refusals.why_not_refused`)."""
    why = why_not_refused(resp)
    if why is None:
        return
    if 200 <= resp.status < 300 and not refused_in_body(resp) and not off_the_interface(resp):
        rules = [rule, case.rule] if rule == "AUTH-ANONYMOUS-WRITES" else [case.rule]
        fail(rules, f"{_what(case)}; the permission table refuses it, yet it answered {resp.status}", resp)
    fail([rule], f"{_what(case)}; a refused call is a 4xx (\"Every operation requires the permissions below\"), "
                 f"{why}", resp)


def judge_changed(rule: str, case: Case, resp: ApiResponse, schema_errors: Callable[[Any], list[SchemaError]]) -> None:
    """The 200 of an allowed change of a node as created: ``rule``'s part of it (the wrappers, the action date, the
    rest of the operation's schema). ``schema_errors`` validates a body against the operation's 200 schema."""
    if resp.status != 200:
        rules = ["VERSION-PATH"] if resp.status == 404 and rule == "VERSION-PATH" else [case.rule]
        fail(rules, f"{_what(case)}; allowed on a node as created, so the action answers 200 (its section's "
                    f"\"Response: 200 with ...\"; a 404 is not served under /services/v2), got {resp.status}", resp)
    if rule == "VERSION-PATH":
        return
    try:
        body = resp.json()
    except ValueError:
        fail(["CONV-JSON-EXTENSION"], f"{_what(case)}; \"Each path ends in .json, which selects the JSON format\": "
                                      "the 200 is not JSON", resp)
    if rule == "CONV-JSON-EXTENSION":
        return
    key = RECORD[case.action]
    if rule == "ACTION-WRAPPERS":
        result = body.get("result") if isinstance(body, dict) else None
        if not (isinstance(body, dict) and isinstance(body.get("success"), bool) and isinstance(result, dict)
                and isinstance(result.get(key), dict)):
            fail([rule], f"{_what(case)}; the 200 is {{success: boolean, result: {{{key}: <Action record>}}}}, on a "
                         f"{case.kind} too; got {str(body)[:300]}", resp)
        return
    errors = schema_errors(body)
    if rule == "SHAPE-ACTIONDATE":
        bad = [e for e in errors if e.field == "actionDate" and e.keyword != "required"]
        if bad:
            fail([rule], f"{_what(case)}; actionDate is \"Either YYYY-MM-DD HH:MM:SS.S or a textual form like weekday "
                         f"month day time zone year\", on a {case.kind} too: {bad[0].line}", resp)
        return
    own = [e for e in errors if rules_for_schema_error(e, rule, is_list=False, field_rules=OTHERS) == [rule]
           and e.field not in OTHERS]
    if own:
        shown = "\n  ".join(e.line for e in own[:10])
        fail([rule], f"{_what(case)}; the 200 matches its section's shape on a {case.kind} too "
                     f"({len(own)} error(s)):\n  {shown}", resp)


def judge(rule: str, case: Case, resp: ApiResponse, schema_errors: Callable[[Any], list[SchemaError]]) -> None:
    """``rule`` judged on the row ``case``'s response (:data:`RESPONSE_RULES` says which part)."""
    if RESPONSE_RULES[rule] == CHANGED:
        judge_changed(rule, case, resp, schema_errors)
    else:
        judge_refusal(rule, case, resp)
