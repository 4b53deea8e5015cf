"""Every response rule of a posted answer, judged on every answer the answer form matrix posts (issue 44: "each
matrix row that succeeds runs every must-check of its operation's response", whichever input form carried the body
and whoever wrote it).

The rows are test_answer_form_matrix.py's: the answers of suites/conftest.py ``answer_in(writer, form)``, each posted
once per run whichever test asks (under a write budget input_forms.budget_answers, the answers the run posts anyway;
without one every writer in every form). Which rows a rule judges follows from what it is:

- :data:`CREATED`: every row, the answer being created at all (PERM-ANSWER: every account but anonymous holds Answer
  questions; VERSION-PATH: served under /services/v2), and for a writer holding Publish answer with 201
  (ANSWER-201);
- :data:`NODE`: every row whose answer came back as "201 with the new Node": the Node's fields the description
  states for a newly posted answer (JSON for a .json path, its id a string, parentId and parentAuthor, plug null, no
  title, originalParentId, its dates in both stated forms, its text beyond ASCII, its author the writer), its schema
  and its Location, and where the body came as a parameter the parameter's text (CONV-PARAM-AS-BODY-FIELD;
  CONV-PARAM-WINS-ANSWER beside a JSON body that says otherwise). A writer without Publish answer goes to
  moderation, whose response is not shown: a 2xx without a Node is not judged there (said so).

Pure: no request. The rules' operations in spec/rules.yaml name postAnswer; qaconform/report/crossing.py counts each
crossed with the dimensions of ``validations: postAnswer`` unless spec/dimensions.yaml ``write_crossing.exclude``
says why not (tests/test_write_crossing.py keeps the two the same).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from form_rows import FormRow
from rule_assertions import rules_for_schema_error

from qaconform.contract import SchemaError
from qaconform.invariants import millis_problems
from qaconform.pytest.outcomes import fail
from qaconform.pytest.support import ANSWER_PUBLISHERS, LOSING_BODY, answer_options, body_holds
from qaconform.target.client import ApiResponse

CREATED, NODE = "created", "node"

RESPONSE_RULES: dict[str, str] = {
    "PERM-ANSWER": CREATED,
    "ANSWER-201": CREATED,
    "VERSION-PATH": CREATED,
    "CONV-JSON-EXTENSION": NODE,
    "SHAPE-POST-ANSWER": NODE,
    "ANSWER-LOCATION": NODE,
    "ANSWER-ID-STRING": NODE,
    "ANSWER-PARENT-FIELDS": NODE,
    "ANSWER-PLUG-NULL": NODE,
    "NODE-TITLE-ANSWERS-COMMENTS": NODE,
    "NODE-ORIGINAL-PARENT-ID": NODE,
    "SHAPE-DATE-FORMATTED": NODE,
    "SHAPE-DATES-MILLIS": NODE,
    "TEXT-NON-ASCII": NODE,
    "AUTH-ACTING-USER": NODE,
    "CONV-PARAM-AS-BODY-FIELD": NODE,
    "CONV-PARAM-WINS-ANSWER": NODE,
}
"""rule -> the rows it judges (the module's docstring)."""

FIELD_RULES = {"id": "ANSWER-ID-STRING", "parentId": "ANSWER-PARENT-FIELDS", "parentAuthor": "ANSWER-PARENT-FIELDS",
               "plug": "ANSWER-PLUG-NULL", "title": "NODE-TITLE-ANSWERS-COMMENTS",
               "originalParentId": "NODE-ORIGINAL-PARENT-ID"}
"""Fields of the 201's Node whose violation another rule of this module judges (SHAPE-POST-ANSWER judges the rest)."""


class Row(FormRow):
    """One answer of the matrix: who wrote it, in which form its body travelled (``postAnswer-form-none-moderator``)."""

    operation = "postAnswer"


PARAMETER_FORMS = ("query", "form", "param_wins")
"""The forms in which the body is a request parameter (CONV-PARAM-AS-BODY-FIELD's rows); param_wins gives it both ways
(CONV-PARAM-WINS-ANSWER's)."""


def judges(rule: str, row: Row) -> bool:
    """ANSWER-201 is the state table's row of a writer holding Publish answer; the conventions' rules the rows whose
    body is a parameter (both ways for the parameter winning); every other rule every row."""
    if rule == "ANSWER-201":
        return row.writer in ANSWER_PUBLISHERS
    if rule == "CONV-PARAM-AS-BODY-FIELD":
        return row.form in PARAMETER_FORMS
    if rule == "CONV-PARAM-WINS-ANSWER":
        return row.form == "param_wins"
    return True


@dataclass(frozen=True)
class Posted:
    """What the row's answer got: the response, the text sent, the question it answers, and the checks of the
    contract the module needs (a schema validation, a Location check)."""

    resp: ApiResponse
    text: str
    question_id: int
    username: str
    schema_errors: Callable[[Any], list[SchemaError]]
    location_names: Callable[[ApiResponse, int, str, str], None]
    options: dict[str, str] | None = None
    """The stated options the answer carried (support.answer_options: the run's seed draws whose answer)."""


def judge(rule: str, row: Row, posted: Posted, skip_not_shown: Callable[[str], None]) -> None:
    """``rule`` on the row's answer; ``skip_not_shown(why)`` skips a moderated answer's row that carries no Node."""
    resp, what = posted.resp, f"{row.label}: {row.writer}'s answer, its body as {row.form}"
    if resp.status in (401, 403) or not 200 <= resp.status < 300:
        rules = ["PERM-ANSWER"] if resp.status in (401, 403) else ["VERSION-PATH"] if resp.status == 404 else \
            ["CONV-PARAM-AS-BODY-FIELD"] if row.form in PARAMETER_FORMS and 400 <= resp.status < 500 else \
            ["ANSWER-201"] if row.writer in ANSWER_PUBLISHERS else ["ANSWER-MODERATION"]
        fail(rules, f"{what}: every account but anonymous holds Answer questions, so it is created; got "
                    f"{resp.status}", resp)
    if rule in ("PERM-ANSWER", "VERSION-PATH"):
        return
    if rule == "ANSWER-201" or (row.writer in ANSWER_PUBLISHERS and resp.status != 201):
        if resp.status != 201:
            fail(["ANSWER-201"], f"{what}: {row.writer} holds Publish answer: \"Answer is created with 201\"; got "
                                 f"{resp.status}", resp)
        return
    try:
        body = resp.json() if resp.content.strip() else None
    except ValueError:
        fail(["CONV-JSON-EXTENSION"], f"{what}: \"Each path ends in .json, which selects the JSON format\": the "
                                      f"{resp.status} is not JSON", resp)
    if resp.status != 201 or not isinstance(body, dict) or "body" not in body:
        if options := (answer_options(row.writer, row.form) if posted.options is None else posted.options):
            skip_not_shown(f"not judged: {what}, sent with {options}: no Node came "  # round50: effect not shown
                           f"({resp.status}); \"Values and effect of wrap and v1: not shown\"")
            return
        if row.writer in ANSWER_PUBLISHERS:
            fail(["SHAPE-POST-ANSWER"], f"{what}: \"Success: 201 with the new Node\": no Node came", resp)
        skip_not_shown(f"not judged: {what}: an answer that goes to moderation answered {resp.status} without a "
                       "Node (\"Answer is created\": its response is not shown)")
        return
    _judge_node(rule, what, body, posted)


def _judge_node(rule: str, what: str, body: dict[str, Any], posted: Posted) -> None:
    resp = posted.resp
    if rule == "ANSWER-LOCATION":
        new = str(body.get("id", ""))
        if not new.isdecimal():
            fail(["ANSWER-ID-STRING"], f"{what}: the new Node's id is a string of digits; got {body.get('id')!r}",
                 resp)
        posted.location_names(resp, int(new), what, rule)
        return
    checks: dict[str, tuple[bool, str]] = {
        "ANSWER-ID-STRING": (isinstance(body.get("id"), str) and body["id"].isdecimal(),
                             f"the id is \"A string in the response to posting an answer\"; got {body.get('id')!r}"),
        "ANSWER-PARENT-FIELDS": (body.get("parentId") == posted.question_id and isinstance(body.get("parentAuthor"),
                                 dict) and isinstance(body["parentAuthor"].get("username"), str),
                                 f"parentId is the question {posted.question_id} and parentAuthor has a username; "
                                 f"got {body.get('parentId')!r}, {body.get('parentAuthor')!r}"),
        "ANSWER-PLUG-NULL": ("plug" in body and body["plug"] is None,
                             f"plug is \"Present on a newly posted answer; it is null there\"; got "
                             f"{body.get('plug', '(absent)')!r}"),
        "NODE-TITLE-ANSWERS-COMMENTS": (body.get("title") is None,
                                        f"an answer's title is absent or null; got {body.get('title')!r}"),
        "NODE-ORIGINAL-PARENT-ID": (type(body.get("originalParentId")) is int,
                                    f"originalParentId is an integer, present on answers; got "
                                    f"{body.get('originalParentId', '(absent)')!r}"),
        "SHAPE-DATES-MILLIS": (not millis_problems(body), f"dates are epoch milliseconds: {millis_problems(body)}"),
        "TEXT-NON-ASCII": (body_holds(body.get("body"), posted.text),
                           f"the new answer's body holds the text sent, {posted.text!r}; got {body.get('body')!r}"),
        "CONV-PARAM-AS-BODY-FIELD": (body_holds(body.get("body"), posted.text),
                                     f"the body given as a parameter is the answer's text {posted.text!r}; got "
                                     f"{body.get('body')!r}"),
        "CONV-PARAM-WINS-ANSWER": (body_holds(body.get("body"), posted.text)
                                   and not body_holds(body.get("body"), LOSING_BODY),
                                   f"\"When both are given, the parameter wins\": the answer reads "
                                   f"{body.get('body')!r}"),
        "AUTH-ACTING-USER": (isinstance(body.get("author"), dict) and body["author"].get("username") == posted.username,
                             f"\"The acting user is taken from the credentials\": the author is {posted.username!r}; "
                             f"got {body.get('author')!r}"),
    }
    if rule in checks:
        held, message = checks[rule]
        if not held:
            fail([rule], f"{what}: {message}", resp)
        return
    errors = posted.schema_errors(body)
    if rule == "SHAPE-DATE-FORMATTED":
        bad = [e for e in errors if e.field == "creationDateFormatted" and e.keyword != "required"]
    else:
        bad = [e for e in errors if e.field not in FIELD_RULES and rules_for_schema_error(
            e, rule, is_list=False, field_rules=FIELD_RULES) == [rule]]
    if bad:
        shown = "\n  ".join(e.line for e in bad[:10])
        fail([rule], f"{what}: the 201's Node matches the posted answer's schema ({len(bad)} error(s)):\n  {shown}",
             resp)
