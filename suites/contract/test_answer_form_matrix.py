"""Posting an answer in every stated input form, by every account that may answer, on the success path (issue 44:
"a write's input form on an operation the input-form matrix does not cover: an answer body sent as a request
parameter decides 'published or moderated' differently").

"On POST endpoints that take a body, each body field may also be given as a request or query parameter of the same
name. When both are given, the parameter wins." The form a body travels in therefore changes nothing of what the
state table states for a new answer: with Answer questions and Publish answer it is Published (another account sees
it in the author's answer list), without Publish answer it is In the moderation queue, and it holds the text given
(the parameter's, under param_wins). spec/dimensions.yaml declares the dimensions each rule holds across
(``validations: postAnswer: [input_form, writer]``); input_forms.py draws their covering array (every pair).

Judged per combination (a test whose id names it, ``postAnswer-form-none-moderator``):

- ANSWER-PUBLISHED: a publisher's answer is created (201) and novice reads it, with its text, in the author's answer
  list (a read-back within the settle window);
- ANSWER-MODERATION: novice's answer is created (a 2xx) and in the same state as novice's JSON answer: whether other
  accounts see a moderated answer is not shown (OBS-ANSWER-MODERATION-VISIBILITY), so where member does not see
  novice's JSON answer, member must not see it in another form either (what must not appear is judged at once; the
  JSON one is read within the settle window first), and (place25) where member sees novice's JSON answer, it must see
  the other forms' too (read within the settle window): the answers go under novice's own question and under other
  accounts' questions, so one published under one relation differs from the rest either way. A target that shows
  member every one of novice's answers cannot tell the two states apart by reads: not judged, said so;
- ANSWER-BODY-KEPT: the new Node in the 201 holds the text and names the caller; under param_wins never the JSON
  body's (CONV-PARAM-WINS-ANSWER). A moderated answer's response body is not shown: a 2xx without a Node is not
  judged there.

A form refused with a 4xx is CONV-PARAM-AS-BODY-FIELD's failure (the target does not take the body in that form),
never the rule's.

Writes: the answers are the run's shared ones (suites/conftest.py ``answer_in``), so each is one write whichever
test asks. Under a write budget only the combinations the run posts anyway are drawn (input_forms.budget_answers:
admin's, moderator's and member's shared answers in their forms, member's winning parameter, novice in every form:
three accepted writes beyond the shared ones); without one (``--thorough``) every combination, 16 answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from answer_responses import RESPONSE_RULES, Posted, Row, judge, judges
from cells import cell_marks
from covering import parametrize_by_rule, thorough
from input_forms import FORM, INPUT_FORM, JSON, PARAM_WINS, QUERY, WRITER, Case, array, budget_answers
from rule_assertions import assert_location_names

from qaconform import contract
from qaconform.contract import Dimensions
from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.properties.plugin import STATE
from qaconform.pytest.support import (
    ANSWER_PUBLISHERS,
    LOSING_BODY,
    answer_options,
    body_holds,
    find_listed,
    present,
)
from qaconform.target.client import ApiClient

pytestmark = [pytest.mark.contract, pytest.mark.writes]

CREATION_RULES = ("ANSWER-MODERATION", "PERM-ANSWER-PUBLISH")
PUBLISHED_RULES = ("ANSWER-PUBLISHED", "PERM-ANSWER-PUBLISH")


def _no_budget(config: pytest.Config) -> bool:
    given = str(config.getoption("qc_write_budget", None) or "").strip().lower()
    return bool(config.getoption("qc_thorough", False)) or given == "unlimited"


def _cases(rule: str, dims: Dimensions, seed: int, config: pytest.Config) -> tuple[Case, ...]:
    cases = array(rule, dims, seed, thorough(config))
    if _no_budget(config):
        return cases
    posted = budget_answers(dims)
    return tuple(c for c in cases if (c.writer, c.form) in posted)


def _rows(config: pytest.Config) -> list[Any]:
    """Every (rule, answer) of answer_responses.RESPONSE_RULES: each rule on every answer the matrix posts (under a
    budget input_forms.budget_answers, else every writer in every form), the rule as the row's marker."""
    dims = contract.load_contract().dimensions
    writers, forms = dims.values[WRITER], dims.values[INPUT_FORM]
    cells = sorted(budget_answers(dims)) if not _no_budget(config) else [(w, f) for w in writers for f in forms]
    return [pytest.param(rule, Row(w, f), id=f"{rule}-{Row(w, f).label}",
                         marks=[pytest.mark.rule(rule), *cell_marks(Row(w, f))])
            for rule in RESPONSE_RULES for w, f in cells if judges(rule, Row(w, f))]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``case``: every row of the covering array of the test's rule (input_forms.py), within the budget's answers;
    ``response_rule`` and ``row``: every response rule on every answer (answer_responses.py)."""
    if "row" in metafunc.fixturenames:
        metafunc.parametrize(("response_rule", "row"), _rows(metafunc.config))
        return
    own = metafunc.definition.get_closest_marker("rule")
    rule = str(own.args[0]) if own is not None and own.args else ""
    also = {"ANSWER-PUBLISHED": (*PUBLISHED_RULES, "ANSWER-BODY-KEPT"),
            "ANSWER-MODERATION": CREATION_RULES,  # cross17: the rules the listed / returned body's checks name
            "ANSWER-BODY-KEPT": ("AUTH-ACTING-USER", "SHAPE-POST-ANSWER")}.get(rule, ())
    wins = ("CONV-PARAM-WINS-ANSWER",) if rule in ("ANSWER-PUBLISHED", "ANSWER-BODY-KEPT") else ()
    parametrize_by_rule(metafunc, "case", _cases, "an answer form matrix",
                        also=tuple(r for r in also if own is None or r not in own.args),  # round15 (issue 44)
                        also_of=lambda c: wins if c.form == PARAM_WINS else ())  # judged on those rows only


def _where(form: str) -> str:
    return {JSON: "in the JSON body", QUERY: "as a query parameter", FORM: "as a form-encoded request parameter",
            PARAM_WINS: "as a query parameter beside a body (JSON, or form-encoded: support.PARAM_WINS_OVER_FORM) "
                        "that says otherwise (the parameter wins)"}[form]


def _created(case: Case, posted: Any, answer_in: Callable[[str, str], Any]) -> int:
    """The new answer's id, or a failure: a 4xx to a parameter form while the writer's JSON answer was created is
    the form not taken; anything else breaks the creation the state table states (201 with Publish answer; "Answer
    is created" without)."""
    resp = posted.resp
    if 200 <= resp.status < 300 and posted.id is not None:
        if case.writer in ANSWER_PUBLISHERS and resp.status != 201:
            fail(["ANSWER-201"], f"{case.label}: {case.writer} holds Publish answer: 'Answer is created with 201'; got "
                                 f"{resp.status}", resp)
        return int(posted.id)
    if case.form in (QUERY, FORM) and 400 <= resp.status < 500 and answer_in(case.writer, JSON).id is not None:
        fail(["CONV-PARAM-AS-BODY-FIELD"], f"{case.label}: the answer's body given {_where(case.form)} (no JSON body) "
                                           f"must be taken; got {resp.status}", resp)
    rules = ["ANSWER-201"] if case.writer in ANSWER_PUBLISHERS else list(CREATION_RULES)
    fail(rules, f"{case.label}: {case.writer}'s answer with its body {_where(case.form)} must be created; got "
                f"{resp.status}", resp)
    raise AssertionError("unreachable")


def _author_id(user_ids: dict[str, int], role: str) -> int:
    if role not in user_ids:
        skip(SkipKind.OTHER, f"not checked: {role}'s user id is unknown, so its answer list cannot be read")
    return user_ids[role]


@pytest.mark.rule("ANSWER-PUBLISHED")
def test_an_answer_in_every_input_form_by_an_account_with_publish_answer_is_published(
        case: Case, api: dict[str, ApiClient], answer_in: Callable[[str, str], Any],
        user_ids: dict[str, int], listed_before_the_moves: Callable[[int | None, int], Any]) -> None:
    posted = answer_in(case.writer, case.form)
    answer = _created(case, posted, answer_in)
    path = contract.path("listUserAnswers", userId=_author_id(user_ids, case.writer))
    early, item = listed_before_the_moves(posted.node, answer)  # accept22: suites/wiki_own_question.py
    item = item if early else find_listed(api["novice"], path, answer, until=present)
    expect(item is not None, PUBLISHED_RULES,
           f"{case.label}: {case.writer} holds Publish answer, so its answer {answer} (body {_where(case.form)}"
           f"{', under a community-wiki question, read right after the post' if early else ''}) is published at "
           f"once: novice must see it in GET {path}, but it is not there", posted.resp)
    assert item is not None
    expect(body_holds(item.get("body"), posted.text), "ANSWER-BODY-KEPT",
           f"{case.label}: listed, the answer's body must hold {posted.text!r}; got {item.get('body')!r}", posted.resp)
    if case.form == PARAM_WINS:
        expect(not body_holds(item.get("body"), LOSING_BODY), "CONV-PARAM-WINS-ANSWER",
               f"{case.label}: the body parameter wins over the body; listed, the answer reads "
               f"{item.get('body')!r}", posted.resp)


@pytest.mark.rule("ANSWER-MODERATION")
def test_an_answer_in_every_input_form_by_an_account_without_publish_answer_goes_to_moderation(
        case: Case, api: dict[str, ApiClient], answer_in: Callable[[str, str], Any],
        user_ids: dict[str, int]) -> None:
    posted = answer_in(case.writer, case.form)
    answer = _created(case, posted, answer_in)
    if case.form == JSON:
        return  # created is all the state table says of it; it is the answer the other forms are compared with
    path = contract.path("listUserAnswers", userId=_author_id(user_ids, case.writer))
    if find_listed(api["member"], path, answer) is None:
        _json_answer_shown_alone(case, posted, answer, api, path, answer_in)  # place25 (issue 44)
        return  # member sees neither: not published
    reference = answer_in(case.writer, JSON)
    if reference.id is None:
        skip(SkipKind.OTHER, f"not judged: {case.writer}'s JSON answer, the one this form is compared with, was not "
                             f"created ({reference.resp.status}; the JSON combination judges it)")
    if find_listed(api["member"], path, int(reference.id), until=present) is not None:
        skip(SkipKind.OTHER, f"not judged: member sees {case.writer}'s JSON answer too, which is in the moderation "
                             "queue: whether other accounts see a moderated answer is not shown "
                             "(OBS-ANSWER-MODERATION-VISIBILITY), so reads cannot tell the two states apart")
    fail(list(CREATION_RULES), f"{case.label}: {case.writer} lacks Publish answer, so its answer goes to the "
                               f"moderation queue whichever form carries the body; member does not see its JSON answer "
                               f"{reference.id} in GET {path}, yet sees answer {answer} (body {_where(case.form)}): "
                               "it was published", posted.resp)


def _json_answer_shown_alone(case: Case, posted: Any, answer: int, api: dict[str, ApiClient], path: str,
                             answer_in: Callable[[str, str], Any]) -> None:
    """place25 (issue 44, round93-novice-answer-own-question-published): the comparison the other way round. member
    does not see this form's answer; where it sees the writer's JSON answer (one read) and this one stays unseen for
    the settle window, the two are not in the same state, and the one member sees was published: a failure of the
    same rules. novice's JSON answer goes under its own question and its form answers under its own and other
    accounts' questions (qaconform/pytest/found_nodes.py ``novice_answer_parent``, seed draw "novice own-question
    form"), so an answer published under one relation only is met whichever relation it is. Returns where member sees
    neither (both may be queued)."""
    reference = answer_in(case.writer, JSON)
    if reference.id is None or find_listed(api["member"], path, int(reference.id)) is None:
        return
    if find_listed(api["member"], path, answer, until=present) is not None:
        skip(SkipKind.OTHER, f"not judged: member sees {case.writer}'s JSON answer and, after the settle window, this "
                             "one too: whether other accounts see a moderated answer is not shown "
                             "(OBS-ANSWER-MODERATION-VISIBILITY), so reads cannot tell the two states apart")
    fail(list(CREATION_RULES), f"{case.label}: {case.writer} lacks Publish answer, so each of its answers goes to the "
                               "moderation queue whichever form carries the body and whoever asked the question; "
                               f"member sees its JSON answer {reference.id} (under question {reference.node}) in GET "
                               f"{path}, yet not answer {answer} (body {_where(case.form)}, under question "
                               f"{posted.node}) within the settle window: the two are not in the same state, and the "
                               "one member sees was published", reference.resp)


@pytest.mark.rule("ANSWER-BODY-KEPT")
def test_an_answer_in_every_input_form_keeps_its_text_and_names_its_writer(
        case: Case, api: dict[str, ApiClient], answer_in: Callable[[str, str], Any]) -> None:
    posted = answer_in(case.writer, case.form)
    _created(case, posted, answer_in)
    resp = posted.resp
    body = resp.json() if resp.content.strip() else None
    if not isinstance(body, dict) or "body" not in body:
        if case.writer in ANSWER_PUBLISHERS:
            fail(["SHAPE-POST-ANSWER"], f"{case.label}: 'Success: 201 with the new Node': the response carries no "
                                        "Node with a body", resp)
        skip(SkipKind.OTHER, f"not judged: {case.label}: the response to an answer that goes to moderation carries "
                             "no Node ('Answer is created': its body is not shown)")
    expect(body_holds(body.get("body"), posted.text), "ANSWER-BODY-KEPT",
           f"{case.label}: the new answer's body must hold the text given {_where(case.form)}, {posted.text!r}; got "
           f"{body.get('body')!r}", resp)
    if case.form == PARAM_WINS:
        expect(not body_holds(body.get("body"), LOSING_BODY), "CONV-PARAM-WINS-ANSWER",
               f"{case.label}: the body parameter wins over the body; the new answer reads {body.get('body')!r}",
               resp)
    author = body.get("author")
    expect(isinstance(author, dict) and author.get("username") == api[case.writer].username,
           ("ANSWER-BODY-KEPT", "AUTH-ACTING-USER"),
           f"{case.label}: the acting user is taken from the credentials: the author must be "
           f"{api[case.writer].username!r}, got {author!r}", resp)


def test_every_response_rule_of_an_answer_in_every_form_by_every_writer(
        response_rule: str, row: Row, answer_in: Callable[[str, str], Any], question_id: int, contract: Any,
        api: dict[str, ApiClient], request: pytest.FixtureRequest) -> None:
    """The matrix's own answer, judged for every rule of a posted answer's response: created, 201 for a publisher,
    and the new Node's fields, schema and Location, whichever form carried the body and whoever wrote it
    (answer_responses.py)."""
    shared = answer_in(row.writer, row.form)
    seed = request.config.stash[STATE].seed if STATE in request.config.stash else None  # forms20: whose options
    schema = contract.operation("postAnswer").response_schema(201)
    posted = Posted(shared.resp, shared.text, shared.node or question_id, api[row.writer].username,
                    lambda body: contract.schema_errors(schema, body), assert_location_names,
                    answer_options(row.writer, row.form, seed))
    judge(response_rule, row, posted, lambda why: skip(SkipKind.OTHER, why))
