"""Permissions: every cell of permission_matrix.MATRIX as one test, plus the checks one cell cannot hold.

Why one parametrized test: the table is the specification (target-profile.md, derived from the description's
Authentication table and the profile's role definitions); a cell id such as ``lockNode-novice-deny`` names the
line and the caller, so a failure reads as the table's sentence that the target broke.

How a cell is judged (permission_judging.py):
- allow: not 401/403; a 2xx where the operation has no state precondition. Where it has one (unfavorite a node
  that is no favorite, unwikify a node that is not wiki, a job request that schedules nothing, the issue types of
  an integration) any status but 401/403 and 5xx passes: the permission is what the cell checks.
- deny: 401 or 403 (403 where the description fixes it, 401 on the expert lists, any 4xx for a wrong password),
  the documented body where there is one (group list, expert lists), and no effect that the interface shows.
- obs: the status is recorded with observe().

One-shot fixtures (favorite_node_id, wiki nodes) are never used here: they belong to suites/conftest.py's
``*_once`` fixtures. Refused locks and moderation go to answers this module creates; allowed ones are the run's
shared ones (below).

Few writes (issue 29: a run's writes are budgeted): a refused call changes nothing, so every denied caller acts on
one shared answer (admin's as "another's node", moderator's for the rest); only a call that was wrongly let in
spends the node, and the next cell then gets a new one. An allowed answer, comment (plain or with a private option),
lock or moderation is the run's shared write of that account (suites/conftest.py ``answer_of``, ``comment_of``,
``private_comment_of``, ``locked_by``, ``sent_to_mod_by``), which the shape, author, privacy and action tests read
too: the cell judges the same request.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from permission_calls import (
    NO_EFFECT,
    OPS,
    Attempt,
    Scene,
    is_read,
    lock_prompt,
    on_others_node,
    on_own_node,
    refused_other,
)
from permission_judging import allowed_rules, assert_allowed, assert_denied, body_kind, expert_401_form_problems
from permission_matrix import ALLOW, DENY, OBS, OWN, Cell, cells
from refused_ledger import judge

from qaconform.contract import path
from qaconform.pytest import one_shots
from qaconform.pytest.exchange_log import judged_again, outside_tests
from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.refusals import refused as refused_by_interface
from qaconform.pytest.refusals import why_not_refused
from qaconform.pytest.support import REFUSALS, expect_created, list_all
from qaconform.target import fanout
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.permissions]


# ----------------------------------------------------------------------------------------------------------
# what the module creates and reuses


@pytest.fixture(scope="module")
def scene(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile, question_id: int,
          run_tag: str, created: Any,
          user_ids: dict[str, int], answer_of: Callable[[str], Any], comment_of: Callable[[str], Any],
          locked_by: Callable[[str], Any], sent_to_mod_by: Callable[[str], Any],
          private_comment_of: Callable[[str, str], Any]) -> Scene:
    shared: dict[str, Callable[..., Any]] = {
        "postAnswer": answer_of, "postComment": comment_of, "lockNode": locked_by,
        "sendToModeration": sent_to_mod_by, "privateComment": private_comment_of,
        "othersAnswer": lambda: request.getfixturevalue("others_answer"),  # trade (issue 44)
        "ownNodeComment": lambda role: request.getfixturevalue("comment_on_own_node")(role),
        "deniedAnswer": lambda: request.getfixturevalue("answer_under_members_question"),  # budget9 (issue 44)
        "memberAnswer": lambda: request.getfixturevalue("shared_answer")}  # trade12 (issue 44)
    return Scene(api, profile, question_id, run_tag, created, user_ids, shared)


ONE_SHOT = {
    ("unmarkFavorite", "member"): ("favorite_node_id", "unfavorite_once"),
    ("cancelWiki", "moderator"): ("wiki_node_id", "cancelwiki_once"),
    ("cancelWiki", "admin"): ("wiki_node_id", "cancelwiki_once"),
    ("cancelWiki", "member"): ("member_wiki_node_id", "cancelwiki_own_once"),
}
"""Allowed cells with a state precondition that the profile's one-shot fixtures meet: (fixture, the suites' one
response on it). With the fixture, the cell needs a 2xx, not merely "no 401/403" (a refusal dressed as 404 or 409
would pass that); without it, the cell keeps the weaker check on a node the run created. wiki_node_id's unwikify is
made by the seed's unwikifier (paths16: moderator or admin, one_shot_calls.py ``unwikifier``): the other's cell keeps
the weaker check, as admin's did before."""


def one_shot_response(cell: Cell, profile: Profile, request: pytest.FixtureRequest) -> ApiResponse | None:
    entry = ONE_SHOT.get((cell.row.key, cell.caller))
    if entry is None or getattr(profile.fixtures, entry[0], None) is None:
        return None
    if entry[1] == "cancelwiki_once" and request.getfixturevalue("wiki_unwikifier") != cell.caller:
        return None  # paths16: the seed drew the other unwikifier; this caller's cell acts on the run's node
    resp: ApiResponse = request.getfixturevalue(entry[1])
    return resp


# ----------------------------------------------------------------------------------------------------------
# the matrix

def _param(cell: Cell) -> Any:
    marks: list[Any] = [pytest.mark.rule(*cell.rules)]
    if cell.row.writes:
        marks.append(pytest.mark.writes)
    if cell.row.writes and cell.value == DENY:  # budget19 (issue 44): every write a refusal, sent once the suites'
        marks.append(pytest.mark.refused_writes)  # share is spent (the nodes it acts on are the suites' content)
    if cell.value == OBS:
        marks.append(pytest.mark.observation)
    if cell.row.operation == "postComment":
        marks.append(pytest.mark.comments)
    return pytest.param(cell, id=cell.id, marks=marks)


# speed3 (issue 44): the read cells' one GET each, read before the first cell, a few at once

@dataclass
class CellReads:
    """The answers :func:`read_ahead` read for the read cells, by cell id; each cell's test takes its own, once."""

    started: bool = False
    answers: dict[str, Attempt] = field(default_factory=dict)


@pytest.fixture(scope="module")
def cell_reads() -> CellReads:
    return CellReads()


def _read_ahead_cells(request: pytest.FixtureRequest, scene: Scene, profile: Profile) -> list[Cell]:
    """The cells of this module's session whose test sends one GET and nothing else, as it would send it: the
    lines the target's version has, not a list of comments under member's answer before that answer exists (it is
    a write, made by the first cell that needs it), not the issue types a cell may skip for a missing fixture."""
    out = []
    for item in request.session.items:
        spec = getattr(item, "callspec", None)
        cell = spec.params.get("cell") if spec is not None and getattr(item, "module", None) is request.module \
            else None
        if not isinstance(cell, Cell) or cell.value not in (OBS, ALLOW, DENY) or not is_read(cell.row.key):
            continue
        row = cell.row
        if (row.since and not profile.supports(row.since)) or (cell.value == ALLOW and row.operation ==
                                                                "listIssueTypes"):
            continue
        if row.operation == "listAnswerComments" and "member_answer" not in scene.__dict__:
            continue
        out.append(cell)
    return out


@pytest.fixture(autouse=True)
def read_ahead(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
               cell_reads: CellReads) -> None:
    """Before the first cell: every read cell's GET, a few at once (``fanout.width``), kept for its test.

    Why: the module is one unit of work (parallel.GROUPS "permissions", for its writes), among the run's longest;
    about 70 of its cells each send one GET, whose answer (status, denial body) is judged whenever it was read and
    depends on no write of the module, so against a target 25 ms away they cost 1.7 s one after another. Writes
    and their read-backs stay in the cells, in order. Each answer is logged again under the test that judges it."""
    spec = getattr(request.node, "callspec", None)
    if spec is None or not isinstance(spec.params.get("cell"), Cell) or cell_reads.started:
        return
    cell_reads.started = True  # once per module, whatever happens below
    at_once = fanout.width(profile)
    if at_once <= 1:
        return
    scene: Scene = request.getfixturevalue("scene")
    cells_ahead = _read_ahead_cells(request, scene, profile)
    try:
        with outside_tests():
            got = fanout.settled([functools.partial(OPS[c.row.key].call, api[c.caller], scene, "any")
                                  for c in cells_ahead], at_once)
    except (Exception, pytest.fail.Exception, pytest.skip.Exception):  # noqa: BLE001 - a head start only
        return  # each cell sends its own read, and meets the same answer there
    for cell, attempt in zip(cells_ahead, got, strict=True):
        if isinstance(attempt, Attempt):
            cell_reads.answers[cell.id] = attempt


def _read_or_call(cell: Cell, client: ApiClient, scene: Scene, target: str,
                  cell_reads: CellReads) -> Attempt:
    """The cell's answer read ahead (logged again under this test), else its call now."""
    ahead = cell_reads.answers.pop(cell.id, None)
    if ahead is None:
        return OPS[cell.row.key].call(client, scene, target)
    judged_again(ahead.resp.exchange)
    return ahead


@pytest.mark.parametrize("cell", [_param(c) for c in cells()])
def test_each_caller_gets_what_the_permission_table_allows(
        cell: Cell, api: dict[str, ApiClient], scene: Scene, profile: Profile, contract: Any, observe: Any,
        require_fixture: Callable[[str], Any], request: pytest.FixtureRequest, cell_reads: CellReads) -> None:
    row = cell.row
    if row.since and not profile.supports(row.since):
        skip(SkipKind.CONFIGURATION, f"disabled by configuration: {row.key} was added in {row.since}, "
                                     f"the target runs {profile.service_version}")
    op = OPS[row.key]
    client = api[cell.caller]
    if cell.value == OBS:
        resp = _read_or_call(cell, client, scene, "any", cell_reads).resp
        observe(row.observed or "", line=row.key, caller=cell.caller, status=resp.status,
                content_type=resp.content_type, body=body_kind(resp))
    elif cell.value == ALLOW:
        if row.operation == "listIssueTypes":
            require_fixture("issue_tracker")
        once = one_shot_response(cell, profile, request)
        if once is not None:
            # the node is in the state the operation needs (the profile's one-shot fixture): a 2xx is expected
            assert_allowed(cell, once, precondition=False)
        else:
            assert_allowed(cell, _read_or_call(cell, client, scene, "any", cell_reads).resp, op.precondition)
        for kind, attempt in on_own_node(scene, row.key, client).items():  # trade (issue 44)
            expect(200 <= attempt.resp.status < 300, allowed_rules(cell),
                   f"{cell.id}: the table allows this whoever wrote the node; on a {kind} it was refused with "
                   f"{attempt.resp.status}", attempt.resp)
        for author, attempt in on_others_node(scene, row.key, client).items():  # round72 (issue 44)
            expect(attempt.resp.status not in (401, 403) and attempt.resp.status < 500, allowed_rules(cell),
                   f"{cell.id}: the table allows this whoever wrote the node; on an {author} (not wiki, so only "
                   f"its state may refuse it) it was answered {attempt.resp.status}", attempt.resp)
    elif cell.value == DENY:
        assert_denied(cell, _read_or_call(cell, client, scene, "denied", cell_reads), contract)
        for kind, attempt in (op.elsewhere(client, scene) if op.elsewhere else {}).items():
            assert_denied(cell, attempt, contract, f" (the same call on a {kind})")
        for option, attempt in (op.options(client, scene) if op.options else {}).items():
            assert_denied(cell, attempt, contract, f" (the same call with {option})")
    elif cell.value == OWN:
        once = one_shot_response(cell, profile, request)
        if once is not None:
            assert_allowed(cell, once, precondition=False)
        else:
            assert_allowed(cell, op.call(client, scene, "own").resp, op.precondition)
        assert_denied(cell, refused_other(row.key, client, scene), contract)  # trades20: a refusal
    else:  # pragma: no cover - the matrix module validates its values
        fail(cell.rules, f"{cell.id}: unknown cell value {cell.value!r}")


# ----------------------------------------------------------------------------------------------------------
# what one cell cannot hold

@pytest.mark.writes
@pytest.mark.rule("PERM-CANCELWIKI", "PERM-CANCELWIKI-OWN")
@pytest.mark.parametrize("role,rule", [("novice", "PERM-CANCELWIKI"), ("member", "PERM-CANCELWIKI-OWN")] + [
    (f"member with {o}=true", "PERM-CANCELWIKI-OWN") for o in one_shots.COMMON_OPTIONS] + [  # round65: with an option
    ("member before its comment", "PERM-CANCELWIKI-OWN")])  # closeb: one_shot_calls.STRANGER
def test_unwikifying_anothers_wiki_node_is_refused_without_the_permission(
        wiki_refusals: dict[str, ApiResponse], role: str, rule: str) -> None:
    """On a node that IS wiki (wiki_node_id, not member's), only the permission can refuse: 401 or 403."""
    if not wiki_refusals:
        skip(SkipKind.OTHER,
             "another xdist worker consumed wiki_node_id before this one could try (a one-shot fixture)")
    resp = wiki_refusals[role]
    expect(refused_by_interface(resp, (401, 403)), rule,  # answered by the interface itself (refusals.py)
           f"{role} lacks Mark as community wiki and the node is not its own, so unwikifying the wiki node "
           f"wiki_node_id must be refused (401 or 403); {why_not_refused(resp, (401, 403))}", resp)


@pytest.mark.writes
@pytest.mark.rule("PERM-LOCK-OWN")
def test_locking_anothers_question_member_last_commented_under_is_refused(
        wiki_refusals: dict[str, ApiResponse]) -> None:
    """fix32 (issue 44): member's lock of wiki_node_id (another's question) right after member's comment on it
    (one_shot_calls.py ``lock_after_contribution``): member is the question's last active user and wrote under it,
    never its author, and "for the caller's own node, Lock comments on own posts" is authorship only, so the lock is
    refused (401 or 403). Where the comment was not posted the refusal is judged all the same, without the
    relation."""
    if not wiki_refusals:
        skip(SkipKind.OTHER,
             "another xdist worker consumed wiki_node_id before this one could try (a one-shot fixture)")
    resp = wiki_refusals["member's lock"]  # one_shot_calls.LOCK
    posted = wiki_refusals.get("member's comment")  # one_shot_calls.CONTRIBUTION
    relation = ("member commented on it last" if posted is not None and posted.status == 201 else
                "member's comment on it was not posted")
    expect(refused_by_interface(resp, (401, 403)), "PERM-LOCK-OWN",
           f"member holds Lock comments on own posts only and wiki_node_id is another's question ({relation}), so "
           f"member's lock of it must be refused (401 or 403); {why_not_refused(resp, (401, 403))}", resp)


@pytest.mark.writes
@pytest.mark.rule("PERM-LOCK-OWN")
def test_locking_anothers_node_member_marked_as_favorite_is_refused(
        favorite_refusals: dict[str, ApiResponse]) -> None:
    """round33 (issue 44): member's lock of favorite_node_id (one_shot_calls.py ``favorite_refusals``), made before
    member's unfavorite: the node is member's favorite, as the profile states, but not member's post, and "for the
    caller's own node, Lock comments on own posts" is authorship only, so the lock is refused (401 or 403)."""
    if not favorite_refusals:
        skip(SkipKind.OTHER, "not checked: member wrote favorite_node_id (its question or answer list shows it), so "
                             "its lock is member's to make; a profile naming another's node as member's favorite "
                             "checks it")
    resp = favorite_refusals["member's lock"]
    expect(refused_by_interface(resp, (401, 403)), "PERM-LOCK-OWN",
           f"member holds Lock comments on own posts only and favorite_node_id is another's node that member marked "
           f"as favorite, so member's lock of it must be refused (401 or 403); {why_not_refused(resp, (401, 403))}",
           resp)


@pytest.mark.writes
@pytest.mark.refused_writes  # a probe once the suites' share is spent (one_shot_calls.lock_after_unfavorite)
@pytest.mark.rule("PERM-LOCK-OWN")
def test_locking_anothers_node_member_unfavorited_is_refused(lock_after_unfavorite: ApiResponse | None,
                                                             unfavorite_once: ApiResponse) -> None:
    """round79 (issue 44, a history): member's lock of favorite_node_id tried again after member's own unfavorite of
    it (one_shot_calls.py ``lock_after_unfavorite``): a former favorite holder is no author either, and "for the
    caller's own node, Lock comments on own posts" is authorship only, so the lock is refused (401 or 403). Where
    the unfavorite was not taken the refusal is judged all the same, without the relation."""
    if lock_after_unfavorite is None:
        skip(SkipKind.OTHER, "not checked: member wrote favorite_node_id (its question or answer list shows it), so "
                             "its lock is member's to make; a profile naming another's node as member's favorite "
                             "checks it")
    relation = ("member unfavorited it just before" if unfavorite_once.status == 200 else
                f"member's unfavorite of it was answered {unfavorite_once.status}")
    expect(refused_by_interface(lock_after_unfavorite, (401, 403)), "PERM-LOCK-OWN",
           f"member holds Lock comments on own posts only and favorite_node_id is another's node ({relation}), so "
           f"member's lock of it must be refused (401 or 403); {why_not_refused(lock_after_unfavorite, (401, 403))}",
           lock_after_unfavorite)


@pytest.mark.writes
@pytest.mark.rule("SHAPE-POST-COMMENT", "COMMENT-201-LOCATION", "PERM-COMMENT")
def test_a_comment_on_a_wiki_node_is_created_with_201_and_its_location(
        wiki_refusals: dict[str, ApiResponse]) -> None:
    """member's plain comment directly on wiki_node_id (one_shot_calls.py ``contributed_before_refusal``, posted for
    the refusal above) is the run's only comment on a community-wiki node: "Success: 201. The Location response
    header holds the URL of the new comment." holds whatever the node (a wiki branch answering 200 breaks it; blind
    round 29). A server error is no refusal (fix33, issue 44: blind18-comment-on-wiki-500 was skipped as one), and
    a 401 or 403 refuses what the permission table grants (member holds Comment; nothing refuses a comment for a
    node's wiki state): both fail, as every other parent kind's comment does (support.expect_created). Another 4xx
    (a lock's refusal of posts, an allowed reading) is not this rule's: it skips, saying so."""
    posted = wiki_refusals.get("member's comment")  # one_shot_calls.CONTRIBUTION
    if posted is None:
        skip(SkipKind.OTHER, "not checked: member's comment on the wiki node was not posted by this worker (another "
                             "xdist worker consumed wiki_node_id first, or the write budget's share was spent)")
    what = f"member comments directly on the wiki node ({posted.url.split('/node/', 1)[-1].split('/')[0]})"
    if posted.status >= 500 or posted.status in REFUSALS:
        expect_created(posted, "SHAPE-POST-COMMENT", f"{what}: a valid comment on a visible node is \"Success: "
                                                     f"201\" (member holds Comment), got {posted.status}")
    if posted.status >= 400:
        skip(SkipKind.OTHER, f"not checked: the target refused member's comment on the wiki node ({posted.status})")
    expect(posted.status == 201, "SHAPE-POST-COMMENT", f"{what}: a comment is created with 201, got "
           f"{posted.status}", posted)
    location = posted.headers.get("location", "")
    expect(location.startswith(("http://", "https://", "/")), "COMMENT-201-LOCATION",
           f"{what}: the 201's Location header holds the URL of the new comment, got {location!r}", posted)


def expert_status_rule(caller: str, status: int) -> str:
    """A wrong password let in (or a 5xx) breaks AUTH-BAD-CREDENTIALS, for which any 4xx would do; a 4xx but not
    401, or anything but 401 without credentials, breaks EXPERTS-401."""
    return "AUTH-BAD-CREDENTIALS" if caller == "wrong_password" and not 400 <= status < 500 else "EXPERTS-401"


@pytest.mark.rule("EXPERTS-401", "AUTH-BAD-CREDENTIALS")
@pytest.mark.parametrize("accept", ["application/json", "text/html"], ids=["accept-json", "accept-html"])
@pytest.mark.parametrize("caller", ["anonymous", "wrong_password"])
@pytest.mark.parametrize("op", ["listActiveExperts", "listEarnedExperts"], ids=["active", "earned"])
def test_expert_lists_refuse_missing_or_bad_credentials_with_401_in_a_documented_form(
        api: dict[str, ApiClient], op: str, caller: str, accept: str, contract: Any) -> None:
    resp = api[caller].get(path(op), headers={"Accept": accept})
    expect(resp.status == 401, expert_status_rule(caller, resp.status),
           f"{caller} on the expert list must get 401", resp)
    problems = expert_401_form_problems(resp, contract)
    expect(not problems, "EXPERTS-401", "; ".join(problems), resp)


@pytest.mark.rule("PERM-SPACES-PER-SPACE")
def test_novice_space_list_lacks_the_hidden_space_and_its_questions(
        novice: ApiClient, admin: ApiClient, require_fixture: Callable[[str], Any]) -> None:
    hidden = int(require_fixture("hidden_space_id"))
    admin_spaces = {str(s.get("id")) for s in list_all(admin, path("listSpaces"))}
    assert str(hidden) in admin_spaces, (
        f"admin (every permission) must list hidden_space_id {hidden}, or the profile names a space that does not "
        f"exist; admin lists {sorted(admin_spaces)[:30]}")
    novice_spaces = {str(s.get("id")) for s in list_all(novice, path("listSpaces"))}
    assert str(hidden) not in novice_spaces, (
        f"novice lacks View the questions list in space {hidden}: the space list must not show it")

    def in_hidden(q: dict[str, Any]) -> bool:
        value = q.get("containerIds")
        containers = value if isinstance(value, list) else []
        return str(q.get("primaryContainerId")) == str(hidden) or str(hidden) in {str(c) for c in containers}

    filtered = novice.get(path("listQuestions"), params={"spaceId": hidden, "pageSize": 50}, operation="listQuestions")
    if filtered.status == 200:
        shown = [q.get("id") for q in filtered.json().get("list") or [] if isinstance(q, dict)]
        assert not shown, (
            f"novice may not view the questions of space {hidden}, yet question.json?spaceId={hidden} lists "
            f"{shown[:10]}\n{filtered.describe()}")
    else:
        why = why_not_refused(filtered)  # a 4xx of the interface, not of a login page (refusals.py)
        assert why is None, (
            f"question.json?spaceId={hidden} as novice: an empty list or a refusal, {why}\n{filtered.describe()}")
    leaked = [q.get("id") for q in list_all(novice, path("listQuestions"), max_pages=10) if in_hidden(q)]
    assert not leaked, f"novice's question list shows questions of hidden space {hidden}: {leaked[:10]}"


@pytest.mark.observation
@pytest.mark.writes
@pytest.mark.rule("OBS-PERM-DENIED-BODIES")
def test_what_denials_outside_the_group_and_expert_lists_carry(
        api: dict[str, ApiClient], scene: Scene, observe: Any) -> None:
    tries: dict[str, ApiResponse] = {}
    node = scene.moderator_answer
    novice = api["novice"]
    for op in ("unmarkFavorite", "cancelWiki", "sendToModeration", "lockNode"):
        tries[f"{op} novice"] = novice.put(path(op, nodeId=node), params=lock_prompt() if op == "lockNode" else None,
                                           operation=op)
        scene.refused.note(tries[f"{op} novice"], op, "novice", node, "answer", "observed")  # noeffect: judged late
    tries["postAnswer anonymous"] = api["anonymous"].post(
        path("postAnswer", questionId=scene.question_id), json={"body": f"anonymous answer [{scene.run_tag}]"},
        operation="postAnswer")
    observe("OBS-PERM-DENIED-BODIES", **{k.replace(" ", "_"): {"status": r.status, "body": body_kind(r),
                                                               "snippet": r.text[:200]} for k, r in tries.items()})


# ----------------------------------------------------------------------------------------------------------
# refused state changes on nodes that really are in the state (the profile's one-shot fixtures)

def _refused_then_owner(denied: dict[str, ApiResponse], owner: ApiResponse, allow_rule: str, what: str) -> None:
    """The refusals' statuses are the matrix's to judge (a server may check the node's state for the caller first,
    a 404 "not your favorite"); here any 4xx refuses, and what counts is that the owner's call still succeeds."""
    for role, resp in denied.items():
        expect(refused_by_interface(resp), allow_rule,  # a 4xx of the interface, not of a login page (refusals.py)
               f"{role} may not {what}: expected a refusal (4xx), {why_not_refused(resp)}", resp)
    if owner.status in (401, 403):
        fail(allow_rule, "the permitted caller was refused after the others", owner)
    expect(200 <= owner.status < 300, NO_EFFECT,
           f"{', '.join(denied)} were refused to {what} first; a refused call changes nothing, so the permitted "
           f"caller's call on the same node must still succeed, yet it got {owner.status}", owner)


@pytest.mark.rule("PERM-DENIED-NO-EFFECT", "PERM-UNFAVORITE")
@pytest.mark.writes
def test_refused_unfavorites_leave_members_favorite_in_place(unfavorite_denied_first: dict[str, ApiResponse],
                                                            unfavorite_once: ApiResponse) -> None:
    _refused_then_owner(unfavorite_denied_first, unfavorite_once, "PERM-UNFAVORITE",
                        "unfavorite favorite_node_id (member's favorite)")


@pytest.mark.rule("PERM-DENIED-NO-EFFECT", "PERM-CANCELWIKI")
@pytest.mark.writes
def test_refused_unwikifies_leave_the_node_wiki(cancelwiki_denied_first: dict[str, ApiResponse],
                                                cancelwiki_once: ApiResponse) -> None:
    _refused_then_owner(cancelwiki_denied_first, cancelwiki_once, "PERM-CANCELWIKI", "unwikify wiki_node_id")


# ----------------------------------------------------------------------------------------------------------
# the deny half of the read permissions: only where the profile names a caller that lacks one

READS_NEED: dict[str, tuple[tuple[str, ...], str]] = {
    "listQuestions": (("view_questions_list",), "PERM-LIST-QUESTIONS"),
    "listUserAnswers": (("view_questions_list", "view_answers"), "PERM-USER-ANSWERS"),
    "listActiveExperts": (("view_user_profile",), "PERM-EXPERTS"),
    "listEarnedExperts": (("view_user_profile",), "PERM-EXPERTS"),
    "listSpaces": (("use_site",), "PERM-SPACES"),
    "listTopics": (("view_users_list",), "PERM-TOPICS"),
    "listUserQuestions": (("view_questions_list",), "PERM-USER-QUESTIONS"),
    "listNodeFollowers": (("view_users_list",), "PERM-FOLLOWERS"),
    "listAnswerComments": (("view_answers", "view_question_page"), "PERM-ANSWER-COMMENTS"),
}
"""The read permissions each read operation needs (the description's permission table, Anonymous Roles) and the
must-rule whose other half (every account holding them may read) the allow cells check."""


@pytest.mark.parametrize("operation", [pytest.param(op, marks=pytest.mark.rule(rule), id=op)
                                       for op, (_, rule) in READS_NEED.items()])
def test_a_caller_the_profile_names_as_lacking_a_read_permission_is_refused(
        operation: str, api: dict[str, ApiClient], scene: Scene, profile: Profile) -> None:
    """"Every operation requires the permissions below": a caller without them gets no list. Which caller lacks
    which permission is the site's configuration, so only the profile's [lacks] can say; the status of the
    refusal is not shown (any 4xx)."""
    needs, rule = READS_NEED[operation]
    callers = profile.lacks.callers_lacking(needs)
    if not callers:
        skip(SkipKind.OTHER, f"not checked: needs [lacks] in the profile naming a caller without {' or '.join(needs)}")
    for caller in callers:
        resp = OPS[operation].call(api[caller], scene, "any").resp
        expect(refused_by_interface(resp), rule,  # a 4xx of the interface, not of a login page (refusals.py)
               f"the profile says {caller} lacks {' or '.join(needs)}, which {operation} needs; it must be refused (a "
               f"4xx), {why_not_refused(resp)}", resp)


# ----------------------------------------------------------------------------------------------------------
# noeffect (issue 44): every refused write of the module, read back once, after the last cell

@pytest.mark.rule("PERM-DENIED-NO-EFFECT")
def test_no_refused_write_of_the_matrix_left_anything_behind(scene: Scene, api: dict[str, ApiClient],
                                                              user_ids: dict[str, int]) -> None:
    """"Every operation requires the permissions below": a refused call changes nothing. Every refusal the cells
    above met (by permission or by rule 7's private option, on every parent kind, in every form, with every option)
    is in the scene's ledger; one read per account and per node judges them all (refused_ledger.py): no refused
    text in its caller's content or its answer's comment list, no acted-on answer gone from novice's view."""
    if not scene.refused.entries:
        skip(SkipKind.OTHER, "not judged: no cell of the permission matrix was refused in this session (the cells "
                             "did not run before this test, or the target let every call in)")
    findings, read = judge(api, user_ids, scene.refused, scene.authors)
    if findings:
        lines = [f"{', '.join(r.describe() for r in f.refused)}: {f.shown}" for f in findings]
        fail([NO_EFFECT], f"a refused call changes nothing, yet {len(findings)} refusal(s) left something behind "
                          f"({read}):\n" + "\n".join(lines[:20]), next((f.resp for f in findings if f.resp), None))
