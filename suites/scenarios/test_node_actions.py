"""Node state changes (operations 10-13): unfavorite, unwikify, lock, send to moderation.

The description fixes each wrapper ({success, result: {<x>Action, ...}}), the action record, and what each move
does: unfavorite returns the favorite action canceled with the updated favoriteCount, per user; cancelwiki returns
the wiki action canceled and the node is no longer wiki; lock stores the prompt as extra, and only the caller's own
node may be locked with Lock comments on own posts; send to moderation returns verb sent, private true, realUser.

The one-shot nodes of the profile (favorite_node_id, wiki_node_id, member_wiki_node_id) are consumed once per run
by the shared fixtures of suites/conftest.py (unfavorite_once, cancelwiki_once, cancelwiki_own_once); the tests
here only read those responses. Lock and send to moderation act only on answers this module creates. What the
description leaves open (the same move twice, a move from the wrong state, reverse moves) is recorded.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from action_records import (
    DENIED,
    action_of,
    answer_to_act_on,
    assert_action_node,
    assert_action_valid,
    blamed,
    lock_node,
    not_wiki,
    refusal_rule,
    send_to_mod,
    summary,
    user_is,
)
from favorite_holders import (
    admin_went_first,
    count_zero_with_admins_favorite,
    expect_callers_own_favorite,
    judge_unfavorite_canceled,
    made_yet_unsuccessful,
)

from qaconform.pytest import one_shots, pool_next
from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.refusals import refused
from qaconform.pytest.support import ANY_ACCEPT, MARKUP_TEXT, find_listed, new_id, same_plain_text
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.fixture_state import FixtureState

pytestmark = [pytest.mark.actions, pytest.mark.writes]


# ------------------------------------------------------------------------------------------------ failure messages
# A test that names several rules fails in the report only for the rules its failure names (ARCHITECTURE.md), so
# every failure here is a RuleFailure carrying the rule ids the failed check concerns (ACTION-RECORD-SHAPE, ...):
# the test passes its ``marked_rules`` to action_records.py's checks, which choose among them.


@pytest.fixture
def marked_rules(request: pytest.FixtureRequest) -> tuple[str, ...]:
    """The rule ids the requesting test names (its markers, parameter marks included)."""
    return tuple(dict.fromkeys(str(a) for m in request.node.iter_markers("rule") for a in m.args))


# ------------------------------------------------------------------------------------------------ unfavorite


@pytest.mark.rule("ACTION-WRAPPERS", "ACTION-RECORD-SHAPE", "SHAPE-UNMARK-FAVORITE", "SHAPE-ACTIONDATE")
def test_unfavorite_answers_success_with_the_favorite_action_and_the_favorite_count(
        unfavorite_once: ApiResponse, contract: Any, marked_rules: tuple[str, ...]) -> None:
    action = action_of(unfavorite_once, "favoriteAction", "favorite-result", contract, marked_rules,
                       perm=("PERM-UNFAVORITE",))
    assert_action_valid(contract, action, "favoriteAction", marked_rules)


@pytest.mark.rule("ACTION-UNFAVORITE-CANCELED", "ACTION-CANCELED-FIELDS", "ACTION-NODE-ID")
def test_unfavoriting_a_favorite_returns_the_favorite_action_canceled(unfavorite_once: ApiResponse,
                                                                      profile: Any, contract: Any,
                                                                      marked_rules: tuple[str, ...]) -> None:
    action = action_of(unfavorite_once, "favoriteAction", "favorite-result", contract, marked_rules,
                       perm=("PERM-UNFAVORITE",))
    judge_unfavorite_canceled(action, unfavorite_once, profile.fixtures.favorite_node_id, "member")


@pytest.mark.rule("ACTION-UNFAVORITE-PER-USER", "AUTH-ACTING-USER")
def test_unfavorite_acts_on_the_callers_own_favorite(unfavorite_once: ApiResponse, member: ApiClient,
                                                     user_ids: dict[str, int], contract: Any,
                                                     marked_rules: tuple[str, ...]) -> None:
    action = action_of(unfavorite_once, "favoriteAction", "favorite-result", contract, marked_rules,
                       perm=("PERM-UNFAVORITE",))
    # canceledByUser is the acting user (both rules say so); a foreign action.user names another holder's favorite
    # as the caller's: both too (round60, issue 44: favorite_holders.expect_callers_own_favorite).
    expect_callers_own_favorite(action, unfavorite_once, member, "member", user_ids,
                                canceler_rules=("ACTION-UNFAVORITE-PER-USER", "AUTH-ACTING-USER"))


@pytest.mark.rule("ACTION-UNFAVORITE-COUNT")
def test_unfavorite_reports_the_updated_favorite_count(unfavorite_once: ApiResponse, contract: Any,
                                                       marked_rules: tuple[str, ...]) -> None:
    action_of(unfavorite_once, "favoriteAction", "favorite-result", contract, marked_rules, perm=("PERM-UNFAVORITE",))
    count = unfavorite_once.json()["result"].get("favoriteCount")
    expect(isinstance(count, int) and not isinstance(count, bool) and count >= 0, "ACTION-UNFAVORITE-COUNT",
           "favoriteCount must be the node's updated count, a non-negative integer", unfavorite_once)


@pytest.mark.rule("ACTION-UNFAVORITE-PER-USER", "ACTION-UNFAVORITE-COUNT", "SHAPE-UNMARK-FAVORITE", "ACTION-WRAPPERS",
                  "ACTION-UNFAVORITE-CANCELED", "ACTION-CANCELED-FIELDS", "ACTION-NODE-ID", "AUTH-ACTING-USER")
def test_another_users_favorite_survives_and_its_removal_lowers_the_count_by_one(
        unfavorite_once: ApiResponse, admin: ApiClient, profile: Any, user_ids: dict[str, int],
        contract: Any, marked_rules: tuple[str, ...], request: pytest.FixtureRequest) -> None:
    """Favorites are per user: admin's own favorite on the node is still there after member's unfavorite, and
    removing it lowers the count by exactly one more. This consumes admin's favorite on the favorite_node_id fixture
    (one-shot, like member's).

    Whether admin holds one is the profile's to say (``favorite_also_held_by``: no read shows a favorite). When it
    says so and the doctor knew the node fresh, a count of 0 after member's unfavorite, or admin's unfavorite then
    refused by the node's state, is member's call having removed admin's favorite: ACTION-UNFAVORITE-PER-USER.
    Otherwise either is read as admin holding none (an earlier run may have removed it): not checked.

    unfav14 (issue 44): when the run's seed draws "admin first" (qaconform/pytest/seed_draws.py ``UNFAVORITE_ORDERS``),
    admin's unfavorite came BEFORE member's (admin's favorite is the older on the reference data): it must cancel
    admin's own favorite action, and member's, after it, lower the count by one more
    (:func:`favorite_holders.admin_went_first`)."""
    first = request.getfixturevalue("admin_unfavorite_first")
    first = pool_next.MOVED.get("admin_unfavorite_first", first)  # pool26: the one made on the pool's next node
    if first == pool_next.SPENT:
        skip(SkipKind.MISSING_FIXTURE, f"not checked: admin's unfavorite went first to the pool's node member's call "
             f"then met consumed (an earlier run's doing), and is not made again on node "
             f"{profile.fixtures.favorite_node_id} (no accepted write more): this run sees no admin favorite removed",
             fixtures=["favorite_node_id"])
    if first is not None:
        admin_went_first(first, unfavorite_once, admin, profile, user_ids, contract, marked_rules, request)
        return
    action_of(unfavorite_once, "favoriteAction", "favorite-result", contract, marked_rules, perm=("PERM-UNFAVORITE",))
    count = unfavorite_once.json()["result"].get("favoriteCount")
    node = profile.fixtures.favorite_node_id
    state = one_shots.doctor_state(request.getfixturevalue("qc_target").diagnosis, "favorite_node_id")
    held = "admin" in profile.fixtures.favorite_also_held_by and state is FixtureState.IN_STATE
    if count == 0 and not isinstance(count, bool):  # no favorite is left on the node: admin holds none to remove
        if held:  # which rule the 0 breaks is told by admin's own unfavorite: its favorite gone, or only miscounted
            count_zero_with_admins_favorite(admin, node, unfavorite_once)
        skip(SkipKind.MISSING_FIXTURE,
             f"not checked: needs fixture favorite_node_id held as a favorite by admin too: after member's unfavorite "
             f"of node {node} its favoriteCount is 0, so admin has no favorite there whose removal could lower it (an "
             f"earlier run may have removed it; a site that answers a repeated unfavorite with the earlier action "
             f"shows this too)", fixtures=["favorite_node_id"])
    second = admin.put(f"node/{node}/unmarkfavorite.json", operation="unmarkFavorite", headers=ANY_ACCEPT,  # fix24
                       params=one_shots.stated_options("unmarkFavorite"))  # round47 (issue 44): with the stated options
    if held and made_yet_unsuccessful(second, admin, user_ids):  # round13 (issue 44): the last favorite's removal
        fail(["ACTION-WRAPPERS"], f"admin's unfavorite of node {node}, the node's last favorite (member's went "
             f"first), answers success: false, yet its record is admin's own favorite action canceled by admin: the "
             f"move was made, and a 200 is {{success: true, result}} whatever the count it leaves", second)
    if second.status != 200 or one_shots.refused_by_state(second):  # success: false: admin's favorite is gone
        expect(not (held and one_shots.refused_by_state(second)), "ACTION-UNFAVORITE-PER-USER",
               f"after member's unfavorite of node {node}, admin's own unfavorite is refused as if admin held no "
               f"favorite there, though the profile says admin marked it (favorite_also_held_by) and the node was "
               f"known fresh: member's call removed admin's favorite too", second)
        skip(SkipKind.MISSING_FIXTURE,
             f"not checked: needs fixture favorite_node_id held as a favorite by admin too: admin's unfavorite "
             f"of node {node} gave {second.status}{' with success: false' if second.status == 200 else ''}, "
             f"so the count cannot be seen to drop by one (the interface "
             f"shows favoriteCount only in this response); member's own unfavorite is checked by the other "
             f"tests", fixtures=["favorite_node_id"])
    # the second 200 is judged by the response's stated shape too (blind10, issue 44): the one that takes the count to 0
    action = action_of(second, "favoriteAction", "favorite-result", contract, marked_rules, perm=("PERM-UNFAVORITE",))
    expect_callers_own_favorite(action, second, admin, "admin", user_ids, f" of node {node} (after member's)")
    judge_unfavorite_canceled(action, second, node, "admin")  # actors (issue 44): admin's effect too
    expect(isinstance(count, int) and second.json()["result"].get("favoriteCount") == count - 1,
           "ACTION-UNFAVORITE-COUNT",
           f"after member's unfavorite the count was {count}; admin removing its own favorite must give "
           f"{count - 1 if isinstance(count, int) else '(count - 1)'}", second)



@pytest.fixture(scope="module")
def plain_answer(member: ApiClient, question_id: int, run_tag: str, created: Any) -> int:
    """member's answer that is never a favorite nor wiki: the node of the observations of an unfavorite and a
    cancelwiki it does not meet the state of, and then (they change nothing it shows: it is neither) of a lock
    without a prompt. One answer for the three (issue 29: a run's writes are budgeted); the module runs in file
    order on one worker (qaconform.pytest.parallel.GROUPS), so the lock comes last."""
    return answer_to_act_on(member, question_id, run_tag, created, "never a favorite nor wiki")


@pytest.mark.accepted_writes(1)
@pytest.mark.observation
@pytest.mark.rule("OBS-UNFAVORITE-NOT-FAVORITE")
def test_unfavoriting_a_node_that_is_not_a_favorite_is_recorded(member: ApiClient, plain_answer: int,
                                                               observe: Any) -> None:
    node = plain_answer
    resp = member.put(f"node/{node}/unmarkfavorite.json", operation="unmarkFavorite")
    observe("OBS-UNFAVORITE-NOT-FAVORITE", node="an answer the run created, never favorited", **summary(resp))


# ------------------------------------------------------------------------------------------------ cancelwiki

DRAWN = "drawn"
"""paths16: the role of the unwikify of wiki_node_id, drawn by the run's seed (one_shot_calls.py ``unwikifier``:
moderator or admin, seed_draws ``UNWIKIFIERS``); each test resolves it with :func:`_caller`."""
WIKI_CASES = [
    pytest.param("cancelwiki_once", DRAWN, "wiki_node_id", id="drawn-unwikifier-on-another-users-node"),
    pytest.param("cancelwiki_own_once", "member", "member_wiki_node_id",
                 marks=pytest.mark.rule("PERM-CANCELWIKI-OWN"), id="member-on-own-node"),
]
WIKI_PERM = {"moderator": "PERM-CANCELWIKI", "admin": "PERM-CANCELWIKI", "member": "PERM-CANCELWIKI-OWN"}
"""The rule that allows each WIKI_CASES caller to unwikify (named when the caller is refused)."""


def _caller(role: str, request: pytest.FixtureRequest) -> str:
    """The account a WIKI_CASES row's call was made by: the seed's unwikifier for :data:`DRAWN`."""
    return str(request.getfixturevalue("wiki_unwikifier")) if role == DRAWN else role


def _wiki_node(role: str, node_key: str, request: pytest.FixtureRequest, profile: Any) -> tuple[int, int | None]:
    """The node a WIKI_CASES row's call acted on, and its author where the run knows it: for :data:`DRAWN`
    wiki_node_id's question, or the found wiki answer on the seeds that draw "an answer" (wiki20:
    one_shot_calls.py ``wiki_unwikified``)."""
    if role != DRAWN:
        return int(getattr(profile.fixtures, node_key)), None
    target = request.getfixturevalue("wiki_unwikified")
    return int(target.node), target.author


@pytest.mark.rule("ACTION-WRAPPERS", "ACTION-RECORD-SHAPE", "ACTION-CANCELWIKI-CANCELED", "ACTION-CANCELED-FIELDS",
                  "ACTION-NODE-ID", "SHAPE-CANCEL-WIKI", "SHAPE-ACTIONDATE")
@pytest.mark.parametrize(("fixture", "role", "node_key"), WIKI_CASES)
@pytest.mark.rule("AUTH-ACTING-USER")  # cross17: its checks name them (tests/test_blame_in_marks.py)
def test_unwikifying_a_wiki_node_returns_the_wiki_action_canceled(fixture: str, role: str, node_key: str,
                                                                  request: pytest.FixtureRequest,
                                                                  api: dict[str, ApiClient], profile: Any,
                                                                  user_ids: dict[str, int], contract: Any,
                                                                  marked_rules: tuple[str, ...]) -> None:
    resp: ApiResponse = request.getfixturevalue(fixture)
    node_id, _ = _wiki_node(role, node_key, request, profile)
    role = _caller(role, request)
    action = action_of(resp, "wikifyAction", "wikify-result", contract, marked_rules, perm=(WIKI_PERM[role],))
    assert_action_valid(contract, action, "wikifyAction", marked_rules)
    expect(action.get("canceled") is True, "ACTION-CANCELWIKI-CANCELED",
           "the wiki action must come back with canceled true", resp)
    expect(user_is(action.get("canceledByUser"), api[role], user_ids), ("ACTION-CANCELED-FIELDS", "AUTH-ACTING-USER"),
           f"{role} unwikified, so canceledByUser must be {api[role].username}", resp)
    # its verb ("wikified" is a value seen, not stated) is recorded by OBS-ACTION-VERBS
    expect((action.get("node") or {}).get("id") == node_id, "ACTION-NODE-ID", f"node.id must be {node_id}", resp)


@pytest.mark.rule("ACTION-CANCELWIKI-NOT-WIKI")
@pytest.mark.parametrize(("fixture", "role", "node_key"), WIKI_CASES)
@pytest.mark.rule("SHAPE-CANCEL-WIKI")  # cross17: its checks name them (tests/test_blame_in_marks.py)
def test_an_unwikified_node_reads_back_not_wiki_in_the_lists(fixture: str, role: str, node_key: str,
                                                             request: pytest.FixtureRequest, admin: ApiClient,
                                                             profile: Any, user_ids: dict[str, int],
                                                             marked_rules: tuple[str, ...]) -> None:
    resp: ApiResponse = request.getfixturevalue(fixture)
    node_id, author = _wiki_node(role, node_key, request, profile)
    role = _caller(role, request)
    refused = [WIKI_PERM[role]] if resp.status in DENIED else ["SHAPE-CANCEL-WIKI"]
    expect(resp.status == 200, blamed(refused, marked_rules),
           f"{role} could not unwikify {node_key}, nothing to read back", resp)
    # every list the node can be in: the question list and its author's question and answer lists (the author is
    # the user of the wikify action; member for its own node; the found wiki answer's author, wiki20). A server may
    # update one list and not another.
    authors = {user_ids["member"]} if role == "member" and "member" in user_ids else set()
    authors |= {author} if author is not None else set()
    try:
        wiki_user = resp.json()["result"]["wikifyAction"]["user"]["id"]
        if isinstance(wiki_user, int):
            authors.add(wiki_user)
    except (AssertionError, KeyError, TypeError):
        pass
    places = ["question.json"] + [f"user/{a}/{kind}.json" for a in sorted(authors) for kind in ("question", "answer")]
    found = []
    for path in places:
        # a list served from a cache may show the old flag for a moment: read again within the settle window
        item = find_listed(admin, path, node_id, {"includeOnly": "id,wiki"}, until=not_wiki)
        if item is not None and "wiki" not in item:  # includeOnly not honoured for wiki: read the full item
            item = find_listed(admin, path, node_id, until=not_wiki)
        if item is not None:
            found.append((path, item.get("wiki")))
    if not found:
        skip(SkipKind.MISSING_FIXTURE,
             f"not checked: {node_key} {node_id} is in none of {', '.join(places)} as admin sees it; the kit "
             f"reads the wiki flag back only through the lists (needs fixture: {node_key} naming a listed "
             f"question or answer)", fixtures=[node_key])
    still = [(path, wiki) for path, wiki in found if wiki is not False]
    expect(not still, "ACTION-CANCELWIKI-NOT-WIKI",
           "after cancelwiki the node is no longer community-wiki, so every list must show wiki false for node "
           f"{node_id}; (list, wiki) {still} (all: {found})\ncancelwiki was:", resp)


@pytest.mark.accepted_writes(1)
@pytest.mark.observation
@pytest.mark.rule("OBS-CANCELWIKI-NOT-WIKI")
def test_unwikifying_a_node_that_is_not_wiki_is_recorded(admin: ApiClient, plain_answer: int, observe: Any) -> None:
    node = plain_answer
    resp = admin.put(f"node/{node}/cancelwiki.json", operation="cancelWiki")
    observe("OBS-CANCELWIKI-NOT-WIKI", node="an answer the run created, never wiki", caller="admin", **summary(resp))


# ------------------------------------------------------------------------------------------------ lock


@dataclass(frozen=True)
class Locked:
    """A lock this module made: the answer, the prompt sent, and the response."""

    node: int
    prompt: str
    resp: ApiResponse


def same_text(got: Any, sent: str) -> bool:
    """Whether ``got`` is the text ``sent``: the shared locks' prompts hold non-ASCII scripts, which a server may
    keep as HTML character references or in composed form (NFC); it may not change them otherwise (round14, issue 44:
    its HTML-special characters escaped is a change, extra being a plain string)."""
    return same_plain_text(got, sent)


def _prompt(run_tag: str) -> str:
    return f"qaconform lock reason {uuid.uuid4().hex[:8]}: {MARKUP_TEXT} [{run_tag}]"  # round14 (issue 44)


@pytest.fixture(scope="module")
def locked_by_moderator(locked_by: Callable[[str], Any]) -> Locked:
    """moderator (Lock comments on posts) locks admin's answer: the run's shared lock of moderator's
    (suites/conftest.py ``locked_by``, which the permission and shape tests read too)."""
    lock = locked_by("moderator")
    return Locked(lock.node, lock.text, lock.resp)


@pytest.mark.rule("ACTION-WRAPPERS", "ACTION-RECORD-SHAPE", "ACTION-VERBS", "ACTION-NODE-ID", "SHAPE-LOCK-NODE",
                  "SHAPE-ACTIONDATE", "PERM-LOCK")
def test_locking_a_node_returns_the_lock_action(locked_by_moderator: Locked, contract: Any,
                                                marked_rules: tuple[str, ...]) -> None:
    r = locked_by_moderator.resp
    action = action_of(r, "lockAction", "lock-result", contract, marked_rules, perm=("PERM-LOCK",))
    assert_action_valid(contract, action, "lockAction", marked_rules)
    expect(action.get("verb") == "locked", "ACTION-VERBS", f"lockAction has verb locked, got {action.get('verb')!r}", r)
    assert_action_node(action, locked_by_moderator.node, r)


@pytest.mark.rule("ACTION-LOCK-EXTRA", "AUTH-ACTING-USER")
def test_the_lock_prompt_is_stored_as_extra_of_the_lock_action(locked_by_moderator: Locked, moderator: ApiClient,
                                                                user_ids: dict[str, int], contract: Any,
                                                                marked_rules: tuple[str, ...]) -> None:
    r = locked_by_moderator.resp
    action = action_of(r, "lockAction", "lock-result", contract, marked_rules, perm=("PERM-LOCK",))
    expect(same_text(action.get("extra"), locked_by_moderator.prompt), "ACTION-LOCK-EXTRA",
           f"extra must equal the prompt {locked_by_moderator.prompt!r}, got {action.get('extra')!r}", r)
    expect(user_is(action.get("user"), moderator, user_ids), "AUTH-ACTING-USER",
           "the acting user is taken from the credentials: the lock action's user must be moderator", r)


@pytest.mark.rule("PERM-LOCK-OWN", "ACTION-LOCK-EXTRA", "AUTH-ACTING-USER")
def test_member_may_lock_its_own_answer(member: ApiClient, locked_by: Callable[[str], Any], user_ids: dict[str, int],
                                        contract: Any, marked_rules: tuple[str, ...]) -> None:
    """member's lock of its own answer: the run's shared one (suites/conftest.py ``locked_by``)."""
    lock = locked_by("member")
    prompt, resp = lock.text, lock.resp
    # A refusal: member may lock its own posts, and the answer is member's own only if its author is the caller.
    action = action_of(resp, "lockAction", "lock-result", contract, marked_rules,
                       perm=("PERM-LOCK-OWN", "AUTH-ACTING-USER"))
    expect(same_text(action.get("extra"), prompt), "ACTION-LOCK-EXTRA", f"extra must equal the prompt {prompt!r}", resp)
    expect(user_is(action.get("user"), member, user_ids), "AUTH-ACTING-USER",
           "the lock action's user must be member", resp)


@pytest.mark.refused_writes  # trades20: the lock is refused (a probe once the suites' share is spent)
@pytest.mark.rule("PERM-LOCK-OWN", "PERM-DENIED-STATUS")
def test_member_may_not_lock_another_users_answer(member: ApiClient, others_answer: int, run_tag: str) -> None:
    """trade (issue 44): the answer is the run's shared answer of admin's for refused calls (suites/conftest.py
    ``others_answer``, the permission matrix's "another's node"), no longer one of moderator's of its own: the same
    state, a published answer of another account's, at no accepted write."""
    resp = lock_node(member, others_answer, _prompt(run_tag))
    expect(refused(resp, DENIED), refusal_rule(resp, "PERM-LOCK-OWN"),
           "member holds Lock comments on OWN posts only; locking admin's answer must be denied (401 or 403)", resp)


@pytest.mark.refused_writes  # trades20: the lock is refused (a probe once the suites' share is spent)
@pytest.mark.rule("PERM-LOCK", "PERM-DENIED-STATUS")
@pytest.mark.rule("ANSWER-MODERATION")  # cross17: its checks name them (tests/test_blame_in_marks.py)
def test_novice_may_not_lock_even_its_own_answer(novice: ApiClient, answer_of: Callable[[str], Any],
                                                 run_tag: str) -> None:
    """novice's own answer is the run's shared one (nothing else locks it)."""
    posted = answer_of("novice").resp
    expect(200 <= posted.status < 300, "ANSWER-MODERATION",
           "novice could not post an answer to act on (expected a 2xx)", posted)
    node = new_id(posted)
    resp = lock_node(novice, node, _prompt(run_tag))
    expect(refused(resp, DENIED), refusal_rule(resp, "PERM-LOCK"),
           "novice holds neither Lock comments on posts nor on own posts; locking even its own answer must be denied "
           "(401 or 403)", resp)


@pytest.mark.accepted_writes(1)
@pytest.mark.observation
@pytest.mark.rule("ACTION-LOCK-PROMPT-REQUIRED")
def test_locking_without_a_prompt_is_recorded(moderator: ApiClient, plain_answer: int, observe: Any) -> None:
    node = plain_answer
    missing = lock_node(moderator, node, None)
    empty = lock_node(moderator, node, "")
    observe("ACTION-LOCK-PROMPT-REQUIRED", without_prompt=summary(missing), empty_prompt=summary(empty))


@pytest.mark.accepted_writes(1)
@pytest.mark.observation
@pytest.mark.rule("OBS-LOCK-TWICE")
def test_locking_an_already_locked_node_is_recorded(moderator: ApiClient, locked_by_moderator: Locked, run_tag: str,
                                                    observe: Any) -> None:
    """The second lock goes to the module's locked answer (the first is the lock the other lock tests read)."""
    node, first = locked_by_moderator.node, locked_by_moderator.resp
    second_prompt = _prompt(run_tag)
    second = lock_node(moderator, node, second_prompt)
    facts: dict[str, Any] = {"first_status": first.status, "second": summary(second)}
    if second.status == 200:
        with_action = second.json().get("result", {}).get("lockAction", {}) if isinstance(second.json(), dict) else {}
        facts["second_extra_is_new_prompt"] = with_action.get("extra") == second_prompt
        first_action = first.json().get("result", {}).get("lockAction", {}) if first.status == 200 else {}
        facts["same_action_id"] = first_action.get("id") == with_action.get("id")
    observe("OBS-LOCK-TWICE", **facts)


# ------------------------------------------------------------------------------------------------ send to moderation


@dataclass(frozen=True)
class Sent:
    node: int
    resp: ApiResponse
    question: int | None = None  # closeb: the question the sent answer is under (a child space's, where found)


@pytest.fixture(scope="module")
def sent_to_mod(sent_to_mod_by: Callable[[str], Any]) -> Sent:
    """moderator (Send already published question to moderation) sends its own new, published answer: the run's
    shared one (suites/conftest.py ``sent_to_mod_by``, which the permission and shape tests read too)."""
    sent = sent_to_mod_by("moderator")
    return Sent(sent.node, sent.resp, sent.question)


@pytest.mark.rule("ACTION-WRAPPERS", "ACTION-RECORD-SHAPE", "ACTION-NODE-ID", "SHAPE-SEND-TO-MODERATION",
                  "SHAPE-ACTIONDATE", "PERM-SENDTOMOD")
def test_sending_to_moderation_returns_the_send_to_mod_action(sent_to_mod: Sent, contract: Any,
                                                              marked_rules: tuple[str, ...]) -> None:
    r = sent_to_mod.resp
    action = action_of(r, "sendToModAction", "sendtomod-result", contract, marked_rules, perm=("PERM-SENDTOMOD",))
    assert_action_valid(contract, action, "sendToModAction", marked_rules)
    assert_action_node(action, sent_to_mod.node, r)


@pytest.mark.rule("ACTION-SENDTOMOD-VERB", "ACTION-SENDTOMOD-PRIVATE")
def test_the_send_to_moderation_record_has_verb_sent_and_private_true(sent_to_mod: Sent, contract: Any,
                                                                       marked_rules: tuple[str, ...]) -> None:
    r = sent_to_mod.resp
    action = action_of(r, "sendToModAction", "sendtomod-result", contract, marked_rules, perm=("PERM-SENDTOMOD",))
    expect(action.get("verb") == "sent", "ACTION-SENDTOMOD-VERB", f"verb must be sent, got {action.get('verb')!r}", r)
    expect(action.get("private") is True, "ACTION-SENDTOMOD-PRIVATE",
           f"private must be true, got {action.get('private')!r}", r)


@pytest.mark.rule("ACTION-SENDTOMOD-REALUSER")
def test_the_send_to_moderation_record_names_the_real_authenticated_user(sent_to_mod: Sent, moderator: ApiClient,
                                                                         user_ids: dict[str, int],
                                                                         contract: Any,
                                                                         marked_rules: tuple[str, ...]) -> None:
    r = sent_to_mod.resp
    action = action_of(r, "sendToModAction", "sendtomod-result", contract, marked_rules, perm=("PERM-SENDTOMOD",))
    real = action.get("realUser")
    expect(isinstance(real, dict), "ACTION-SENDTOMOD-REALUSER",
           "send-to-moderation records realUser (the authenticated user)", r)
    expect({"id", "username", "avatarUrl"} <= set(real), "ACTION-SENDTOMOD-REALUSER",
           f"realUser has the shape of user (id, username, avatarUrl), got {sorted(real)}", r)
    expect(user_is(real, moderator, user_ids), "ACTION-SENDTOMOD-REALUSER",
           f"realUser must be the authenticated caller moderator ({moderator.username}), got {real!r}", r)


@pytest.mark.rule("ACTION-SENDTOMOD-REALUSER")
def test_a_send_to_moderation_of_another_users_answer_names_the_sender_as_real_user(
        answer_sent_to_mod_by_admin: Any, admin: ApiClient, user_ids: dict[str, int], contract: Any,
        marked_rules: tuple[str, ...]) -> None:
    """admin sends an answer member wrote (suites/conftest.py ``answer_sent_to_mod_by_admin``, which the action matrix
    reads too): "the real authenticated user" is admin, who called, not the answer's author (moderator's send above is
    of its own answer, where the two are one account)."""
    r = answer_sent_to_mod_by_admin.resp
    action = action_of(r, "sendToModAction", "sendtomod-result", contract, marked_rules, perm=("PERM-SENDTOMOD",))
    real = action.get("realUser")
    expect(isinstance(real, dict) and user_is(real, admin, user_ids), "ACTION-SENDTOMOD-REALUSER",
           f"realUser must be the authenticated caller admin ({admin.username}), not member, who wrote answer "
           f"{answer_sent_to_mod_by_admin.node}; got {real!r}", r)


@pytest.mark.rule("ACTION-SENDTOMOD-VERB", "ACTION-SENDTOMOD-PRIVATE", "ACTION-SENDTOMOD-REALUSER", "ACTION-NODE-ID")
def test_a_comment_on_a_question_sent_to_moderation_has_verb_sent_and_private_true(
        api: dict[str, ApiClient], wiki_refusals: dict[str, ApiResponse],
        user_ids: dict[str, int], contract: Any, marked_rules: tuple[str, ...]) -> None:
    """budget9 (issue 44): moderator sends member's comment directly on the wiki question (one_shot_calls.py
    ``contributed_before_refusal``, of no use to any test once member's unwikify was refused) to moderation: the
    run's other sends are of answers and of a reply, never of a comment whose parent is a question ("Returns an
    action record with verb sent and private true", realUser the caller). One accepted write, paid since trade11 by
    the contract suite's commented answer and privacy thread sharing one answer (docs/write-audit.md). paths16: its
    record's node is judged (ACTION-NODE-ID) and the rule is named, so the rule's own tests run it: the run's only
    send of a comment whose parent is a question (round43-sendtomod-question-comment-names-question)."""
    posted = wiki_refusals.get("member's comment")  # one_shot_calls.CONTRIBUTION
    if posted is None or posted.status != 201:
        skip(SkipKind.OTHER, "not checked: member's comment on the wiki question was not created by this worker's "
                             "refusals (another xdist worker consumed the node first, or the target refused it)")
    comment, node = new_id(posted), posted.url.rsplit("/node/", 1)[-1].split("/")[0]
    r = api["moderator"].put(f"node/{comment}/sendToMod.json", operation="sendToModeration")  # one test: sent once
    action = action_of(r, "sendToModAction", "sendtomod-result", contract, marked_rules, perm=("PERM-SENDTOMOD",))
    expect(action.get("verb") == "sent", "ACTION-SENDTOMOD-VERB",
           f"verb must be sent on comment {comment} too (a comment directly on question {node}), got "
           f"{action.get('verb')!r}", r)
    expect(action.get("private") is True, "ACTION-SENDTOMOD-PRIVATE",
           f"private must be true on comment {comment} too, got {action.get('private')!r}", r)
    expect(user_is(action.get("realUser"), api["moderator"], user_ids), "ACTION-SENDTOMOD-REALUSER",
           f"realUser must be the caller moderator, not member who wrote comment {comment}; got "
           f"{action.get('realUser')!r}", r)
    assert_action_node(action, comment, r)


@pytest.mark.accepted_writes(1)
@pytest.mark.observation
@pytest.mark.rule("OBS-SENDTOMOD-TWICE")
def test_sending_a_node_already_in_moderation_is_recorded(sent_to_mod: Sent, moderator: ApiClient,
                                                          observe: Any) -> None:
    again = send_to_mod(moderator, sent_to_mod.node)
    observe("OBS-SENDTOMOD-TWICE", first_status=sent_to_mod.resp.status, second=summary(again))


@pytest.mark.observation
@pytest.mark.rule("OBS-SENDTOMOD-LISTED")
def test_whether_a_node_in_moderation_is_still_listed_is_recorded(sent_to_mod: Sent, api: dict[str, ApiClient],
                                                                  user_ids: dict[str, int], question_id: int,
                                                                  observe: Any) -> None:
    author_id = user_ids.get("moderator")  # the node is moderator's own answer (suites/conftest.py sent_to_mod_by)
    question = sent_to_mod.question or question_id  # closeb: under a child space's question where the run found one
    in_answer_list: dict[str, Any] = {}
    in_question: dict[str, Any] = {}
    for role in ("member", "novice", "moderator", "admin", "anonymous"):
        client = api[role]
        try:
            if author_id is not None:
                hit = find_listed(client, f"user/{author_id}/answer.json", sent_to_mod.node, max_pages=10)
                in_answer_list[role] = hit is not None
            q = find_listed(client, "question.json", question, {"includeOnly": "id,answers"}, max_pages=10)
            in_question[role] = None if q is None else sent_to_mod.node in (q.get("answers") or [])
        except AssertionError as exc:
            in_answer_list.setdefault(role, f"unreadable: {str(exc).splitlines()[0][:200]}")
    observe("OBS-SENDTOMOD-LISTED", send_status=sent_to_mod.resp.status, in_authors_answer_list=in_answer_list,
            in_its_question_answers=in_question, question=question)


# ------------------------------------------------------------------------------------------------ reverse moves


@pytest.mark.accepted_writes(2)
@pytest.mark.observation
@pytest.mark.rule("OBS-REVERSE-MOVES")
def test_that_no_operation_reverses_the_moves_is_recorded(member: ApiClient, moderator: ApiClient,
                                                          question_id: int, run_tag: str, created: Any,
                                                          contract: Any, observe: Any) -> None:
    """The description shows no way back (favorite, wikify, unlock, approve); record what the obvious paths answer.

    Probes act only on an answer this test created, so whatever they do touches nothing else.
    """
    node = answer_to_act_on(member, question_id, run_tag, created, "reverse moves")
    lock = lock_node(moderator, node, _prompt(run_tag))
    probes = {
        "unlock": moderator.put(f"node/{node}/unlock.json"),
        "markfavorite": member.put(f"node/{node}/markfavorite.json"),
        "wikify": member.put(f"node/{node}/wikify.json"),
        "approve": moderator.put(f"node/{node}/approve.json"),
    }
    reversing = [op for op in contract.operations
                 if any(w in op.lower() for w in ("unlock", "approve", "markfavorite", "wikify"))
                 and not op.lower().startswith(("unmark", "cancel"))]
    observe("OBS-REVERSE-MOVES", lock_status=lock.status,
            probes={k: {"status": v.status, "content_type": v.content_type} for k, v in probes.items()},
            contract_operations_that_reverse=reversing)


# ------------------------------------------------------------------------------------------------ edits after


_NO_EDIT = ("the interface has no operation that edits a node, so who may edit it afterwards cannot be shown; the "
            "response of the state change is recorded")


@pytest.mark.observation
@pytest.mark.rule("OBS-EDIT-AFTER-CANCELWIKI")
def test_who_may_edit_an_unwikified_node_is_recorded(cancelwiki_once: ApiResponse, observe: Any) -> None:
    observe("OBS-EDIT-AFTER-CANCELWIKI", reason=_NO_EDIT, **summary(cancelwiki_once))


@pytest.mark.observation
@pytest.mark.rule("OBS-EDIT-AFTER-LOCK")
def test_who_may_edit_a_locked_node_is_recorded(locked_by_moderator: Locked, observe: Any) -> None:
    observe("OBS-EDIT-AFTER-LOCK", reason=_NO_EDIT, **summary(locked_by_moderator.resp))
