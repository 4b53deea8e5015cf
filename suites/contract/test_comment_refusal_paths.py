"""The comment refusals the description states, on every kind of node a comment is posted to and with each option
"accepted by most endpoints" (round11, issue 44: a refusal checked on one code path only).

"nodeId (integer): the question, answer or comment being commented on" and "Other options accepted by most
endpoints: wrap, v1": a refusal of comment rule 7 ("A private visibility option ... used by a caller who lacks the
permission to use private comments, or lacks the permission for that option, gives 403") and of the required body
holds whichever node the comment goes to and whichever of those options is given. The input form matrix
(test_input_form_matrix.py) sends each refusal in every form to the shared answer with no option; here each is sent
in JSON to each stated parent kind (the shared answer, the fixture question, admin's public shared comment: a reply,
where a server may look the permission up for the wrong account) crossed with each option (none, wrap, v1), the
combination the matrix already sends left out: 8 requests a rule.

round42 (issue 44): a missing body has two stated forms of absence in JSON, the key left out and the key given as
JSON null ("body (string, the comment text, required)": null is no string, and read as absent it is the stated
refusal). A reader that checks the key's presence on one path (a reply, a question) stored a comment with an empty
body while every row with the key left out was refused. So the body rule's rows are crossed with both forms of
absence: the absent rows as before, and a null row on every parent kind with every option (the shared answer with
no option too, which the matrix never sends as null): 9 more refused requests.

Each row is one POST a conforming target refuses: no accepted write (a refused write is reserved from the suites'
share and given back); a target that accepts one fails the rule, and what it created is registered as the run's.
Judged (qaconform/pytest/refusals.py): the stated 403 (any 4xx for a missing body), answered by the interface itself
(a redirect to a login page is no refusal); a 2xx or a 5xx fails. Not judged (a skip saying why): a target
before 2.16.0, an option answered with another 4xx (what wrap and v1 do is not shown, and postComment's section does
not list them), admin's shared comment not posted.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from unwikified_node import unwikified_node

from qaconform import contract
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.properties.plugin import STATE
from qaconform.pytest.refusals import ANY_4XX, refused, why_not_refused
from qaconform.pytest.seed_draws import wiki_node_kind_for_seed
from qaconform.pytest.support import register_wrongly_created
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.contract, pytest.mark.writes, pytest.mark.refused_writes]  # refusals only

PARENTS = ("answer", "question", "comment", "wiki")
"""The kinds of node a comment is posted to ("the question, answer or comment being commented on"), and (round93) a
node in the wiki state."""
WIKI_STILL = {"an accepted question": ("wiki_answer_id",)}
"""round93: the profile's wiki fixtures still wiki whatever the run unwikifies, by the seed's drawn wiki node kind
(seed_draws.WIKI_NODE_KINDS: the one-shot unwikify takes wiki_node_id, wiki_answer_id or accepted_wiki_question_id);
any other draw leaves both, the accepted question first."""
OPTIONS = ("none", "wrap", "v1")
"""No option, and each option "accepted by most endpoints"."""
WRITER = {"COMMENT-BODY-REQUIRED": "member", "COMMENT-7-NO-PRIVATE-PERMISSION": "novice",
          "COMMENT-7-NO-OPTION-PERMISSION": "member"}
"""Each refusal's account: novice lacks Use Private Comments, member the option to own groups."""
ABSENCES = ("absent", "null")
"""round42 (issue 44): the JSON forms of a missing body: the key left out, the key given as null."""
UNWIKIFIED_RULES = {**WRITER, "COMMENT-6": "member"}
"""blind94 (issue 44): the rules whose refusal is sent, with no option, to the node after a state change: member's own
wiki question once member unwikified it (unwikified_node.py, the run's one-shot: no write more), the state in which
"Afterwards only the node's author can edit it" and a server may answer its comments from another form. COMMENT-6
("recipients given while visibility is not recipients gives 400.") by member, which holds the option it names, so
only that rule refuses it: 5 refused requests more."""
REPLY_TO = "admin"
"""Whose public shared comment the reply rows go under: an account holding every private option, so that a server
that looks the option's permission up for the parent's author lets the caller in."""


def rows() -> list[Any]:
    """Each rule on each parent kind with each option; the body rule also with its body null (every cell: the
    matrix sends no null)."""
    absent = [pytest.param(rule, parent, option, "absent", id=f"{rule}-{parent}-{option}",
                           marks=pytest.mark.rule(rule))
              for rule in WRITER for parent in PARENTS for option in OPTIONS if (parent, option) != ("answer", "none")]
    body = "COMMENT-BODY-REQUIRED"
    null = [pytest.param(body, parent, option, absence, id=f"{body}-{parent}-{option}-{absence}",
                         marks=pytest.mark.rule(body))
            for absence in ABSENCES[1:] for parent in PARENTS for option in OPTIONS]
    unwikified = [pytest.param(rule, "unwikified", "none", absence, id=f"{rule}-unwikified-none-{absence}",
                               marks=pytest.mark.rule(rule))
                  for rule in UNWIKIFIED_RULES for absence in ABSENCES
                  if absence == "absent" or rule == "COMMENT-BODY-REQUIRED"]
    return absent + null + unwikified


def _wiki_parent(request: pytest.FixtureRequest, profile: Profile) -> int:
    """round93: a wiki node of the profile this run leaves wiki (:data:`WIKI_STILL`), or a skip saying why not."""
    seed = request.config.stash[STATE].seed if STATE in request.config.stash else 0
    names = WIKI_STILL.get(wiki_node_kind_for_seed(seed), ("accepted_wiki_question_id", "wiki_answer_id"))
    node = next((n for n in (getattr(profile.fixtures, name, None) for name in names) if n is not None), None)
    if node is None:
        skip(SkipKind.CONFIGURATION, "not judged: the profile names no wiki node this run leaves wiki "
                                     f"({', '.join(names)})")
    return int(node)


def _parent(kind: str, shared_answer: int, question_id: int, comment_of: Callable[[str], Any]) -> int:
    if kind == "answer":
        return shared_answer
    if kind == "question":
        return question_id
    shared = comment_of(REPLY_TO)
    if shared.id is None:
        skip(SkipKind.OTHER, f"not judged: {REPLY_TO}'s shared comment was not posted ({shared.resp.status}), so "
                             "there is no public comment to reply to")
    return int(shared.id)


@pytest.mark.comments
@pytest.mark.parametrize(("rule", "parent", "option", "absence"), rows())
def test_a_stated_comment_refusal_holds_on_every_parent_and_option(
        rule: str, parent: str, option: str, absence: str, api: dict[str, ApiClient], shared_answer: int,
        question_id: int, comment_of: Callable[[str], Any], profile: Profile, created: Any, run_tag: str,
        request: pytest.FixtureRequest, user_ids: dict[str, int]) -> None:
    """One refused POST: the rule's account, to the parent kind, with the option given as ``true`` (a missing body
    left out, or given as null: ``absence``)."""
    writer = UNWIKIFIED_RULES[rule]
    kind = {"wiki": "wiki node", "unwikified": "node its author unwikified"}.get(parent, parent)
    label = f"{rule} to a{'n' if parent == 'answer' else ''} {kind}" + ("" if option == "none" else f" with {option}")
    fields: dict[str, Any] = {}
    if rule != "COMMENT-BODY-REQUIRED":
        if not profile.supports("2.16.0"):
            skip(SkipKind.CONFIGURATION, f"disabled by configuration: visibility was added in 2.16.0, the target runs "
                                         f"{profile.service_version}")
        lacked = (profile.visibility.to_original_poster if rule in ("COMMENT-7-NO-PRIVATE-PERMISSION", "COMMENT-6")
                  else profile.visibility.to_own_groups)
        if lacked is None:
            skip(SkipKind.OTHER, f"not judged: {label} needs the wire value of to_own_groups, which the profile's "
                                 "[visibility] does not give")
        fields = {"body": f"comment refusal paths {rule} [{run_tag}] {uuid.uuid4().hex[:8]}", "visibility": lacked}
        if rule == "COMMENT-6":  # blind94: recipients beside a visibility that is not recipients
            if "admin" not in user_ids:
                skip(SkipKind.MISSING_FIXTURE, f"not judged: {label} names admin as a recipient, whose user id is "
                                               "unknown", fixtures=["accounts.admin.id"])
            fields["recipients"] = [{"id": user_ids["admin"]}]
    elif absence == "null":
        fields = {"body": None}  # round42 (issue 44): the key given, its value JSON null
    node = (_wiki_parent(request, profile) if parent == "wiki"
            else unwikified_node(request, api, profile, user_ids) if parent == "unwikified"
            else _parent(parent, shared_answer, question_id, comment_of))
    params = {} if option == "none" else {option: "true"}
    resp = api[writer].post(contract.path("postComment", nodeId=node), params=params or None, json=fields,
                            operation="postComment")
    register_wrongly_created(resp, created, writer)
    statuses = ANY_4XX if rule == "COMMENT-BODY-REQUIRED" else (400,) if rule == "COMMENT-6" else (403,)
    if parent == "unwikified" and rule != "COMMENT-BODY-REQUIRED" and 400 <= resp.status < 500 \
            and not refused(resp, statuses):
        skip(SkipKind.FIXTURE_STATE, f"not judged: {label} answered {resp.status}: the run may have sent the node to "
                                     "moderation or locked it by now, and who sees a node in moderation, or what a "
                                     "post under a locked node answers, is not shown (only an acceptance is judged)")
    if refused(resp, statuses):  # the stated status, answered by the interface itself (refusals.py)
        return
    if option != "none" and refused(resp):
        skip(SkipKind.OTHER, f"not judged: {label} was refused with {resp.status} {resp.text[:120]!r}; what {option} "
                             "does on postComment is not shown, so a refusal of the option itself is no answer here")
    stated = ("a 4xx (\"body ... required\")" if rule == "COMMENT-BODY-REQUIRED" else "400" if rule == "COMMENT-6"
              else "403")
    sent = ("no body" if not fields else "body null" if absence == "null" else
            "visibility " + repr(fields["visibility"]) + (" and recipients" if "recipients" in fields else ""))
    fail([rule], f"{label} by {writer} ({sent}) "
                 f"must be refused with {stated}, whatever node it goes to and whatever option is given; "
                 f"{why_not_refused(resp, statuses)}", resp)

