"""Every write in every stated form, on every parent kind (forms9, issue 44 item 3).

Blind rounds kept finding a stated input form tried on one operation or one parent kind only. Two halves:

- **Success** (no write of its own): the run's shared writes that were JSON only (suites/placed_forms.py SLOTS:
  four answers, a comment directly on a question, a reply to one's own comment) take an input form the seed draws
  (every form on the answers each run; the comments two forms a run, all over two seeds). Each is judged as the
  plain form is: taken (a 4xx in a form the run's account writes took in that same form fails
  CONV-PARAM-AS-BODY-FIELD: the form refused on this parent or relation only), its text kept (an answer: the 201's
  Node, ANSWER-BODY-KEPT; a comment: read back at its Location by its writer), the parameter's text winning under
  param_wins (CONV-PARAM-WINS-ANSWER, -COMMENT).
- **Refusals** (nothing written on a conforming target): a private option the writer may not use (rule 7: novice
  lacks Use Private Comments, member the option to own groups; 403) in every input form on every parent kind
  (question, answer, a comment on an answer, a reply): 16 requests, the two rules alternating so that each rule meets
  every form and every parent kind. A parameter form answered with another 4xx is judged as the matrix does
  (test_input_form_matrix.py: whether the target takes the form is CONV-PARAM-AS-BODY-FIELD's), except where the
  run's shared plain comments took that very form: refused here, it is this parent kind that does not read it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from placed_slots import OPTION_COMMENTS, PRIVATE_FORMS, SLOTS, TEXTS, form_of, option_form_of
from rule_assertions import assert_location_names

from qaconform import contract
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.properties.plugin import STATE
from qaconform.pytest.refusals import off_the_interface, why_not_refused
from qaconform.pytest.support import (
    ANSWER_PUBLISHERS,
    LOSING_BODY,
    answer_form,
    body_holds,
    comment_form,
    location_path,
    new_id,
    register_wrongly_created,
)
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.contract, pytest.mark.writes]

JSON, QUERY, FORM, PARAM_WINS = "json", "query", "form", "param_wins"
PARENT_KINDS = ("question", "answer", "comment", "reply")
"""The nodes a comment is posted on: "nodeId: the question, answer or comment being commented on", a comment being
a top comment (its parent an answer) or a reply (its parent a comment)."""
REFUSALS = (("COMMENT-7-NO-PRIVATE-PERMISSION", "novice", "to_original_poster", "full"),
            ("COMMENT-7-NO-OPTION-PERMISSION", "member", "to_own_groups", "to_original_poster"))
"""(rule, writer, the option it may not use, the value a param_wins body gives instead: one the writer may use)."""
PARAMETER_FORMS = (QUERY, FORM)


def _seed(config: pytest.Config) -> int:
    return config.stash[STATE].seed if STATE in config.stash else 0


def _forms() -> tuple[str, ...]:
    return tuple(contract.load_contract().dimensions.values["input_form"])


def _success_rule(op: str, form: str, private: bool = False) -> str:
    """The rule a slot's row judges: the form's, or in the plain form the text kept (a private comment: rule 2)."""
    if form == PARAM_WINS:
        return "CONV-PARAM-WINS-ANSWER" if op == "postAnswer" else "CONV-PARAM-WINS-COMMENT"
    if form == JSON:
        return "ANSWER-BODY-KEPT" if op == "postAnswer" else "COMMENT-2" if private else "COMMENT-1"
    return "CONV-PARAM-AS-BODY-FIELD"


def _refusal_rows() -> list[Any]:
    """Every (input form, parent kind), the rule alternating along both (a Latin layout: each rule meets every form
    and every parent kind, each pair of form and parent once)."""
    rows = []
    for f, form in enumerate(_forms()):
        for p, parent in enumerate(PARENT_KINDS):
            rule = REFUSALS[(f + p) % len(REFUSALS)]
            rows.append(pytest.param(rule, form, parent, id=f"{rule[0]}-{form}-on-{parent}",
                                     marks=[pytest.mark.rule(rule[0]), pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD"),
                                            pytest.mark.cell("form_refusals", rule=rule[0], form=form,
                                                             parent=parent)]))
    return rows


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "slot" in metafunc.fixturenames:
        seed = _seed(metafunc.config)
        rows = []
        for slot, s in SLOTS.items():
            form = form_of(slot, seed)
            private = s.forms == PRIVATE_FORMS
            rules = {_success_rule(s.operation, form, private), "CONV-PARAM-AS-BODY-FIELD"}
            rules |= {"COMMENT-1"} if s.operation == "postComment" and not private else set()
            rules |= {LOCATION} if s.operation == "postComment" else set()  # states: every placed comment's 201
            cell = pytest.mark.cell("write_forms", operation=s.operation, slot=slot, form=form,
                                    forms=list(s.forms or _forms()))  # crossing10: the rotation, counted by seed
            rows.append(pytest.param(slot, id=f"{s.operation}-{form}-{slot}",
                                     marks=[*(pytest.mark.rule(r) for r in sorted(rules)), cell]))
        metafunc.parametrize("slot", rows)
    if "option_comment" in metafunc.fixturenames:  # forms20: the private-option comments drawn in a parameter form
        seed = _seed(metafunc.config)
        drawn = [(r, o, option_form_of(r, o, seed)) for r, o in OPTION_COMMENTS]
        metafunc.parametrize("option_comment", [
            pytest.param((r, o), id=f"{o}-by-{r}-{f}", marks=[
                *(pytest.mark.rule(r) for r in sorted({"CONV-PARAM-AS-BODY-FIELD", LOCATION,
                                                       _success_rule("postComment", f)})),
                pytest.mark.cell("option_forms", role=r, option=o, form=f)]) for r, o, f in drawn if f != JSON])
    if "refusal" in metafunc.fixturenames:
        metafunc.parametrize(("refusal", "form", "parent_kind"), _refusal_rows())


@pytest.fixture(scope="module")
def taken_forms(request: pytest.FixtureRequest) -> Callable[[str, str], bool]:
    """``taken(op, form)``: whether the run's account writes (answer_of / answer_in, comment_of) took ``form`` on
    ``op`` somewhere: the plain path, against which a form refused on another parent or relation is judged."""
    seed = _seed(request.config)

    def taken(op: str, form: str) -> bool:
        if op == "postAnswer":
            answer_in = request.getfixturevalue("answer_in")
            roles = [r for r in ANSWER_PUBLISHERS if answer_form(r) == form]
            writes = [answer_in(r, form) for r in roles] + ([answer_in("member", form)] if form == PARAM_WINS else [])
            return any(200 <= w.resp.status < 300 for w in writes)
        comment_of = request.getfixturevalue("comment_of")
        writers = contract.load_contract().dimensions.values["writer"]
        return any(comment_of(w).form == form for w in writers if comment_form(w, seed) == form)

    return taken


def _label_of(slot: str) -> str:
    """A slot's label, or ``slot`` itself when it names a write of its own (forms20's private-option comments)."""
    return _label(slot) if slot in SLOTS else slot


def _label(slot: str) -> str:
    s = SLOTS[slot]
    return f"{s.writer}'s {'answer' if s.operation == 'postAnswer' else 'comment'} under a {s.parent}"


def test_every_shared_write_in_its_drawn_form_is_taken_with_its_text(
        slot: str, placed_write: Callable[[str], Any], taken_forms: Callable[[str, str], bool],
        api: dict[str, ApiClient], profile: Profile, request: pytest.FixtureRequest) -> None:
    """The slot's write, in the form the seed drew: taken as the plain form is, its settings and text kept, the
    parameter's value winning (the module's docstring)."""
    s, form = SLOTS[slot], form_of(slot, _seed(request.config))
    private = s.forms == PRIVATE_FORMS
    if private and not profile.supports("2.16.0"):
        skip(SkipKind.CONFIGURATION, f"disabled by configuration: visibility was added in 2.16.0, the target runs "
                                     f"{profile.service_version}")
    got = placed_write(slot)
    if got is None:
        skip(SkipKind.MISSING_FIXTURE, f"not judged: {_label(slot)} was not posted (the target lists no such node)")
    rule = _success_rule(s.operation, form, private)
    if got.refused is not None:
        plain = QUERY if private and form == PARAM_WINS else form  # the parameter form the run's writes take
        if private and form == PARAM_WINS and (alone := _visibility_alone_refused(placed_write, request)):
            skip(SkipKind.OTHER, f"not judged: {_label(slot)} in the {form} form was refused with "
                                 f"{got.refused.status}, and {alone}: the visibility parameter is not read as the "
                                 "field at all (CONV-PARAM-AS-BODY-FIELD's, judged on that write), so which of the two "
                                 "wins cannot be seen (crossing13: the premise of \"the parameter wins\")")
        if off_the_interface(got.refused) or not taken_forms(s.operation, plain):
            skip(SkipKind.OTHER, f"not judged: {_label(slot)} in the {form} form was refused with "
                                 f"{got.refused.status}, and no other shared write of the run took the {plain} form: "
                                 "whether the target takes it at all is CONV-PARAM-AS-BODY-FIELD's "
                                 "(test_stated_forms.py)")
        fail([rule], f"{_label(slot)}, in the {form} form, was refused with {got.refused.status}, though the run's "
                     f"other {s.operation} writes in the {plain} form were taken (\"each body field may also be given "
                     "as a request or query parameter of the same name\"; \"When both are given, the parameter "
                     "wins\"): the form is read on one parent or relation only", got.refused)
    resp = got.resp
    if not 200 <= resp.status < 300:
        skip(SkipKind.OTHER, f"not judged: {_label(slot)} was answered {resp.status}; the tests reading it judge that")
    if s.operation == "postComment":
        location_names_new(resp, f"{_label(slot)}, in the {form} form")
    node = _read_back(s.operation, resp, api[s.writer], profile, slot)
    text = node.get("body") if isinstance(node, dict) else None
    if private and isinstance(node, dict) and node.get("visibility") != profile.visibility.recipients:
        fail([rule], f"{_label(slot)}, visibility {profile.visibility.recipients!r} in the {form} form, reads back at "
                     f"its Location with visibility={node.get('visibility')!r}", resp)
    if not private and s.operation == "postComment" and profile.supports("2.16.0") and isinstance(node, dict) and \
            not (profile.visibility.reads_as_full(node.get("visibility")) and not node.get("recipients")):
        fail(["COMMENT-1"], f"{_label(slot)}, posted in the {form} form without privacy fields, reads back at its "
                            f"Location with visibility={node.get('visibility')!r} recipients="
                            f"{node.get('recipients')!r}: full visibility and no recipients (\"and a later GET "
                            "returns exactly that\")", resp)
    if form == JSON and s.operation == "postComment":
        return  # the text of a JSON comment: COMMENT-LISTED's, on the lists that show it
    if not body_holds(text, TEXTS[slot]):
        fail([rule], f"{_label(slot)}, its body in the {form} form, holds {str(text)[:160]!r}, not the text sent",
             resp)
    if form == PARAM_WINS and not private and body_holds(text, LOSING_BODY):
        fail([rule], f"{_label(slot)}: the body came both ways and the body's text won (\"When both are given, the "
                     "parameter wins\")", resp)


def test_every_private_option_comment_in_its_drawn_form_is_taken_and_keeps_its_option(
        option_comment: tuple[str, str], private_comment_of: Callable[[str, str], Any],
        option_form_refusal: Callable[[str, str], tuple[str, ApiResponse | None]], api: dict[str, ApiClient],
        profile: Profile) -> None:
    """forms20 (issue 44 item 3): the run's shared comment of an account with a private option that needs no
    recipients, in the parameter form the seed drew for it (suites/option_forms.py; the JSON ones are the stored-option
    tests'), is taken as its JSON twin would be and reads back at its Location with the option sent ("each body field
    may also be given as a request or query parameter of the same name"; under param_wins the parameters beside a
    JSON body of another text: "When both are given, the parameter wins")."""
    role, option = option_comment
    value = getattr(profile.visibility, option)
    if value is None or not profile.supports("2.16.0"):
        skip(SkipKind.CONFIGURATION, f"disabled by configuration: no wire value of {option}, or a target before "
                                     f"2.16.0 ({profile.service_version}): no private option to send")
    shared = private_comment_of(role, option)
    form, refused = option_form_refusal(role, option)
    rule, label = _success_rule("postComment", form), f"{role}'s shared {option} comment ({value!r})"
    said = {QUERY: "query", FORM: "form-encoded", PARAM_WINS: "param_wins (query over a JSON body)"}.get(form, form)
    if refused is not None:
        if off_the_interface(refused) or not 200 <= shared.resp.status < 300:
            skip(SkipKind.OTHER, f"not judged: {label} in the {said} form was refused with {refused.status}, and "
                                 f"as JSON {shared.resp.status}: the option itself is refused (rule 7's to judge), or "
                                 "the form is off the interface")
        fail([rule], f"{label} in the {said} form was refused with {refused.status}, though the same comment as "
                     f"JSON was taken ({shared.resp.status}): the option is not read in that form", refused)
    if not 200 <= shared.resp.status < 300:
        skip(SkipKind.OTHER, f"not judged: {label} was answered {shared.resp.status} in the {said} form and as JSON "
                             "alike: the option itself is refused (rule 7's and the permission table's to judge)")
    location_names_new(shared.resp, label)
    node = _read_back("postComment", shared.resp, api[role], profile, f"{role}'s {option} comment")
    got = node.get("visibility") if isinstance(node, dict) else None
    if form == PARAM_WINS and isinstance(node, dict) and body_holds(node.get("body"), LOSING_BODY):
        fail([rule], f"{label}: the body came both ways and the JSON body's text won (\"When both are given, the "
                     "parameter wins\")", shared.resp)
    if got != value:
        how = "given as a parameter is dropped" if profile.visibility.reads_as_full(got) else "is misread"
        fail(["CONV-PARAM-AS-BODY-FIELD"], f"{label}, its visibility in the {said} form, was taken "
                                           f"({shared.resp.status}) and reads back to its writer at its Location with "
                                           f"visibility {got!r}: the option {how} in that form", shared.resp)


def _visibility_alone_refused(placed_write: Callable[[str], Any], request: pytest.FixtureRequest) -> str:
    """Why the run's private comments show the visibility parameter alone is not read: the shared private comment
    drawn in the query form (visibility a query parameter, recipients in the JSON body) refused on the interface;
    "" when it was taken or none was drawn in that form this run."""
    for slot, s in SLOTS.items():
        if s.forms != PRIVATE_FORMS or form_of(slot, _seed(request.config)) != QUERY:
            continue
        got = placed_write(slot)
        if got is not None and got.refused is not None and not off_the_interface(got.refused):
            return f"{_label(slot)} with visibility as a query parameter alone was refused with {got.refused.status}"
    return ""


LOCATION = "COMMENT-201-LOCATION"


def location_names_new(resp: ApiResponse, what: str) -> None:
    """states (issue 44): "Success: 201. The Location response header holds the URL of the new comment", judged on
    every comment the run places across parents, writers and visibilities (a comment on a question by its own author,
    a reply, private ones), not only on the plain comments under the shared answer (comment_responses.py): a 201's
    Location names the new comment's id (its body's; where the 201 carries no body the id is read from the Location,
    and this judges nothing more than presence). A 2xx other than 201 is SHAPE-POST-COMMENT's, judged elsewhere."""
    if resp.status == 201:
        assert_location_names(resp, new_id(resp), what, LOCATION)


def _read_back(op: str, resp: ApiResponse, writer: ApiClient, profile: Profile, slot: str) -> dict[str, Any] | None:
    """An answer's 201 Node ("Success: 201 with the new Node"); a comment as its writer reads it at its Location
    ("Response body: not shown"; a skip where the target gives no Location it serves: LOCATION-READABLE's)."""
    if op == "postAnswer":
        try:
            body = resp.json()
        except ValueError:
            body = None
        if not isinstance(body, dict) or "body" not in body:
            skip(SkipKind.OTHER, f"not judged: {_label_of(slot)}'s 2xx holds no Node with a body (ANSWER-201's to "
                                 "judge)")
        return body
    path = location_path(profile.api_root, resp.headers.get("location", ""))
    got = writer.get(path) if path else None
    body = got.json() if got is not None and got.status == 200 else None
    if not isinstance(body, dict) or str(body.get("id")) != str(new_id(resp)):
        skip(SkipKind.OTHER, f"not judged: {_label_of(slot)}'s Location {resp.headers.get('location')!r} served "
                             f"{got.status if got is not None else 'nothing under the interface'} to its writer, not "
                             "the comment (LOCATION-READABLE's to judge; a node sent to moderation may be hidden)")
    return body


def _parent(kind: str, question_id: int, shared_answer: int, comment_of: Callable[[str], Any]) -> int:
    """The node of each parent kind the run holds anyway: the fixture question, the shared answer, admin's shared
    plain comment on it (a top comment), novice's shared comment (a reply to admin's: suites/conftest.py
    COMMENT_AS_REPLY)."""
    if kind == "question":
        return question_id
    if kind == "answer":
        return shared_answer
    top = comment_of("admin")
    if top.resp.status != 201 or top.id is None or top.node != shared_answer:
        skip(SkipKind.OTHER, f"not judged: admin's shared comment, the {kind} parent, was not posted on the answer")
    if kind == "comment":
        return int(top.id)
    reply = comment_of("novice")
    if reply.resp.status != 201 or reply.id is None:
        skip(SkipKind.OTHER, "not judged: novice's shared reply, the reply parent, was not posted")
    return int(reply.id)


def _send(client: ApiClient, node: int, form: str, fields: dict[str, str], losing: str) -> ApiResponse:
    """``fields`` in ``form``; under param_wins visibility also in the JSON body with ``losing``."""
    path = contract.path("postComment", nodeId=node)
    if form == JSON:
        return client.post(path, json=fields, operation="postComment")
    if form == QUERY:
        return client.post(path, params=fields, operation="postComment")
    if form == FORM:
        return client.post(path, data=fields, operation="postComment")
    return client.post(path, params={"visibility": fields["visibility"]}, json={**fields, "visibility": losing},
                       operation="postComment")


@pytest.mark.refused_writes  # every request is one a conforming target refuses: 403
def test_a_private_option_the_writer_may_not_use_is_403_in_every_form_on_every_parent_kind(
        refusal: tuple[str, str, str, str], form: str, parent_kind: str, api: dict[str, ApiClient], question_id: int,
        shared_answer: int, comment_of: Callable[[str], Any], profile: Profile, created: Any, run_tag: str,
        taken_forms: Callable[[str, str], bool]) -> None:
    """Rule 7 ("... used by a caller who lacks the permission to use private comments, or lacks the permission for
    that option, gives 403") whatever form the fields arrive in and whatever node is commented on."""
    rule, writer, option, instead = refusal
    if not profile.supports("2.16.0"):
        skip(SkipKind.CONFIGURATION, f"disabled by configuration: visibility was added in 2.16.0, the target runs "
                                     f"{profile.service_version}")
    lacked, losing = getattr(profile.visibility, option), getattr(profile.visibility, instead)
    if lacked is None or (form == PARAM_WINS and losing is None):
        skip(SkipKind.OTHER, f"not judged: the profile's [visibility] gives no wire value of {option}"
                             + (f" or {instead}" if form == PARAM_WINS else ""))
    node = _parent(parent_kind, question_id, shared_answer, comment_of)
    fields = {"body": f"forms9 {rule} {form} on a {parent_kind} [{run_tag}] {uuid.uuid4().hex[:8]}",
              "visibility": lacked}
    resp = _send(api[writer], node, form, fields, losing or "")
    register_wrongly_created(resp, created, writer)
    if (why := why_not_refused(resp, (403,))) is None:
        return
    where = {JSON: "in the JSON body", QUERY: "as query parameters", FORM: "form-encoded",
             PARAM_WINS: f"visibility also a query parameter, winning over the body's {losing!r}"}[form]
    if form in PARAMETER_FORMS and 400 <= resp.status < 500 and not off_the_interface(resp):
        if taken_forms("postComment", form):
            fail(["CONV-PARAM-AS-BODY-FIELD"], f"{writer}'s comment on a {parent_kind} ({node}), its fields {where}, "
                                               f"was refused with {resp.status}, not rule 7's 403, though the run's "
                                               f"shared plain comments in that form were taken: the form is not read "
                                               f"on a {parent_kind}", resp)
        skip(SkipKind.OTHER, f"not judged: refused with {resp.status}, not 403; the target takes no comment {where} "
                             "(CONV-PARAM-AS-BODY-FIELD's to judge, test_stated_forms.py)")
    fail([rule], f"{writer} may not use {option}; its comment on a {parent_kind} ({node}) with visibility {lacked!r} "
                 f"{where} must be refused with 403; {why}", resp)
