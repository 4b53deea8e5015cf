"""The run's one-shot calls as session fixtures: the unfavorite and cancelwiki calls that consume a profile fixture
node (favorite_node_id, wiki_node_id, member_wiki_node_id), each made ONCE per run and target, also across xdist
workers, recorded beside the profile before it is sent, with the refused callers' attempts made first. Every suite
reads these responses instead of consuming the node again. suites/conftest.py imports the fixtures (their names are
the suites'); :func:`once_per_target` also serves its shared writes."""

from __future__ import annotations

import base64
import contextlib
import functools
from collections.abc import Callable
from typing import Any

import pytest

from qaconform.contract import path as contract_path
from qaconform.pytest import one_shots, pool_next
from qaconform.pytest.outcomes import SkipKind, skip, skip_of
from qaconform.pytest.properties.plugin import STATE
from qaconform.pytest.seed_draws import (  # seed15: the self-test's functions
    member_wiki_send_for_seed,
    order_for_seed,
    unwikifier_for_seed,
)
from qaconform.pytest.support import charged_to_suites, once_per_run, post_comment, shared_path
from qaconform.target import ledger
from qaconform.target.client import ApiClient, ApiResponse, Exchange
from qaconform.target.created_id import as_id
from qaconform.target.fixture_state import read_ends
from qaconform.target.profile import Profile
from qaconform.target.writes import SUITES

from . import wiki_own_question
from .wiki_answer import WikiTarget, wiki_target

__all__ = ["admin_unfavorite_first", "author_unfavorite_first", "cancelwiki_denied_first", "cancelwiki_once",
           "cancelwiki_own_once", "favorite_refusals", "lock_after_unfavorite", "member_wiki_sent_first",
           "once_per_target",
           "refused_before_admin_lock", "unfavorite_denied_first", "unfavorite_once", "wiki_locked_first",
           "wiki_refusals", "wiki_unwikified", "wiki_unwikifier"]
"""The fixtures suites/conftest.py gives every suite under their names (round33: a star import, so that a new one-shot
fixture costs conftest.py no line)."""


def _one_shot(request: pytest.FixtureRequest, name: str) -> int:
    """The node of one-shot fixture ``name`` this run takes (a pool's first still in its state, as the doctor
    found it), or a skip: not in the profile, or consumed by an earlier run (never the target's failure). pool26: a
    wiki kind's node of unknown state is read first, once per run (qaconform.pytest.pool_next.read_first)."""
    node = int(request.getfixturevalue("usable_fixture")(name))
    if name not in pool_next.POOL_KINDS[1:] or f"read {name}" in pool_next.MOVED:
        return node
    target, profile = request.getfixturevalue("qc_target"), request.getfixturevalue("profile")
    api, diagnosis, tag = request.getfixturevalue("api"), target.diagnosis, request.getfixturevalue("run_tag")
    accounts = {role: account.id for role, account in profile.accounts.items()}
    taken = once_per_run(request, profile.base_url, f"pool26 read first {name}", lambda: pool_next.read_first(
        profile, diagnosis, name, node, lambda n: one_shots.wiki_reader(api["admin"], accounts, n)(),
        lambda n: ledger.record(profile.path, profile.base_url, name, n, tag + ledger.MET)))
    pool_next.take(profile, diagnosis, name, int(taken))
    pool_next.MOVED[f"read {name}"] = taken
    return int(getattr(profile.fixtures, name))


def _consuming(request: pytest.FixtureRequest, profile: Profile, name: str, node: int,
               send: Callable[[], ApiResponse], refusal: bool = False) -> Callable[[], ApiResponse]:
    """``send``, recorded as consuming ``node`` of ``name`` beside the profile (qaconform.target.ledger) as soon as
    the target accepted it (accept22: a refused call changed nothing and is not recorded); the record names this
    run's tag. ``refusal``: a call the permission table refuses (accept24): once the suites' share is spent it is
    sent as a probe into the refusals' share (``WriteBudget.as_refusals``), never held back for want of a write a
    conforming target does not take (measured: seed 20260803 with the suites' share at 83 of 83 skipped
    test_locked_wiki.py when a worker sent the wiki node's refusals after the share filled)."""

    def sent() -> ApiResponse:
        with charged_to_suites():  # a session fixture: the must-rule tests read it whoever asked first
            budget = ApiClient.write_budget
            if budget is not None and budget.remaining() == 0 and not budget.holding() and not refusal:
                skip(SkipKind.WRITE_BUDGET, f"write budget spent: the one-shot call on {name} {node} was not sent, "
                                            f"and the node stays for the next run (a larger --write-budget checks it)")
            with budget.as_refusals() if budget is not None and refusal else contextlib.nullcontext():
                resp = send()
            if name in ledger.CONSUMABLE:  # every one-shot fixture of the profile's (wiki21: the wiki kinds too)
                ledger.record_if_accepted(profile.path, profile.base_url, name, node,
                                          request.getfixturevalue("run_tag"), resp.status)
            return resp

    return sent


def once_per_target(request: pytest.FixtureRequest, profile: Profile, key: str,
                     make: Callable[[], ApiResponse]) -> ApiResponse:
    """Run ``make`` once per run AND target, even across pytest-xdist workers (:func:`once_per_run`): on a shared
    target a one-shot call made by two workers would find the node consumed. Every worker reads the one response."""
    saved = once_per_run(request, profile.base_url, key, lambda: _as_json(make()))
    return ApiResponse(saved["status"], saved["headers"], base64.b64decode(saved["content"]), saved["url"],
                       Exchange(**saved["exchange"]))


def _as_json(resp: ApiResponse) -> dict[str, Any]:
    return {"status": resp.status, "headers": resp.headers, "url": resp.url,
            "content": base64.b64encode(resp.content).decode(), "exchange": resp.exchange.as_dict()}


def _owner_call(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile, name: str, node: int,
                key: str, send: Callable[[int], ApiResponse],
                again: Callable[[int], None] | None = None) -> ApiResponse:
    """The owner's one-shot call on ``node`` (``send(node)``, once per run and target, recorded as consuming it),
    held to its precondition: an answer that shows the node was not in its state skips the tests that need it when
    the doctor could not know its state (qaconform.pytest.one_shots), and stays theirs to judge when it knew.
    pool26: a node so met is the pool's no longer; the run moves on to the pool's next node (``again(next)`` first
    makes the calls that precede the owner's on it), and skips only when the pool has none, naming it."""
    resp = once_per_target(request, profile, key.format(node), _consuming(request, profile, name, node,
                                                                          functools.partial(send, node)))
    diagnosis = request.getfixturevalue("qc_target").diagnosis
    state = one_shots.doctor_state(diagnosis, name)
    accounts = {role: account.id for role, account in profile.accounts.items()}
    try:
        return one_shots.held(resp, name, node, state, one_shots.wiki_reader(api["admin"], accounts, node))
    except pytest.skip.Exception as exc:
        # user26: a node the call met not in its state is consumed (an earlier run's doing): recorded, so that the
        # next run from this folder takes the pool's next node instead of meeting it again, and the report says
        # "consumed before this run" (a refused unfavorite was not recorded: every build retried node 14 for ever)
        met = skip_of(exc)
        if met is None or met.met is None or name not in ledger.CONSUMABLE:
            raise
        ledger.record(profile.path, profile.base_url, name, node, request.getfixturevalue("run_tag") + ledger.MET)
        following = pool_next.next_node(diagnosis, name, node)
        if following is None:
            skip(met.kind, f"{exc.msg}{pool_next.exhausted(diagnosis, name, node)}", met=met.met)
        pool_next.move_on(profile, diagnosis, name, node, following)  # pool26: this run, not only the next one
        if again is not None:
            again(following)
        return _owner_call(request, api, profile, name, following, key, send, again)


DENIED_FIRST = ("novice", "anonymous", "wrong_password")
"""Callers the permission table refuses unfavorite and cancelwiki; they try the one-shot node before its owner."""


def _denied_first(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile, verb: str,
                  operation: str, name: str, node: int | None = None) -> dict[str, ApiResponse]:
    node = _one_shot(request, name) if node is None else node
    refused = {role: once_per_target(request, profile, f"{verb} denied {role} {node}", _consuming(
        request, profile, name, node, functools.partial(api[role].put, f"node/{node}/{verb}.json",
                                                        operation=operation), refusal=True)) for role in DENIED_FIRST}
    for option in one_shots.COMMON_OPTIONS:  # round60 (issue 44): the signed-in denied caller with each common option
        refused[f"novice with {option}=true"] = once_per_target(
            request, profile, f"{verb} denied novice {option} {node}", _consuming(
                request, profile, name, node, functools.partial(api["novice"].put, f"node/{node}/{verb}.json",
                                                                params={option: "true"}, operation=operation),
                refusal=True))
    return refused


@pytest.fixture(scope="session")
def unfavorite_denied_first(request: pytest.FixtureRequest, api: dict[str, ApiClient],
                            profile: Profile) -> dict[str, ApiResponse]:
    """novice, anonymous and a wrong password try to unfavorite favorite_node_id ONCE, before member does
    (``unfavorite_once`` depends on this): a refused call must leave member's favorite in place, which member's own
    unfavorite then shows (PERM-DENIED-NO-EFFECT on a node that really is a favorite)."""
    return _denied_first(request, api, profile, "unmarkfavorite", "unmarkFavorite", "favorite_node_id")


@pytest.fixture(scope="session")
def cancelwiki_denied_first(request: pytest.FixtureRequest, api: dict[str, ApiClient],
                            profile: Profile) -> dict[str, ApiResponse]:
    """novice, anonymous and a wrong password try to unwikify wiki_node_id ONCE, before the seed's unwikifier
    (moderator or admin) does (``cancelwiki_once`` depends on this): a refused call must leave the node wiki. On the
    seeds that draw "an answer" (wiki20) they try the found wiki answer the unwikifier then acts on."""
    target = _wiki_target(request)
    return _denied_first(request, api, profile, "cancelwiki", "cancelWiki", target.name, target.node)


FAVORITE_LOCK_PROMPT = "locked by a member who marked another's node as favorite"


@pytest.fixture(scope="session")
def favorite_refusals(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                      user_ids: dict[str, int]) -> dict[str, ApiResponse]:
    """round33 (issue 44): member's lock of favorite_node_id, once per run and target, BEFORE member's unfavorite
    (``unfavorite_once`` depends on this): the profile states a relation between member and a node no other suite
    tries, "member marked it as favorite", and the lock's "for the caller's own node" is authorship only. A target
    that takes "own" from the caller's favorites (a "my content" query joining them) lets member in
    (test_permissions.py). Empty when member wrote the node (its question or answer list shows it, bounded reads:
    then the lock is member's to make and proves nothing). No write on a conforming target (the refusal); one on a
    target that takes it, charged to the suites."""
    return _favorite_refusals(request, api, profile, _one_shot(request, "favorite_node_id"))


def _favorite_refusals(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                       node: int) -> dict[str, ApiResponse]:
    member = request.getfixturevalue("user_ids").get("member")
    if member is None:
        return {}
    for kind in ("question", "answer"):
        if node in {as_id(i.get("id")) for i in read_ends(api["admin"], f"user/{member}/{kind}.json", {node})}:
            return {}

    def send() -> ApiResponse:
        with charged_to_suites():
            prompt = f"{FAVORITE_LOCK_PROMPT} [{request.getfixturevalue('run_tag')}]"
            return api["member"].put(f"node/{node}/lock.json", params={"prompt": prompt}, operation="lockNode")

    return {"member's lock": once_per_target(request, profile, f"lock member its favorite {node}", send)}


def _run_seed(request: pytest.FixtureRequest) -> int:
    return request.config.stash[STATE].seed if STATE in request.config.stash else 0


def unfavorite_order(request: pytest.FixtureRequest) -> str:
    """The run's ``qaconform.pytest.seed_draws.UNFAVORITE_ORDERS`` entry for its seed (0 when no seed is set)."""
    return order_for_seed(_run_seed(request))


def unwikifier(request: pytest.FixtureRequest) -> str:
    """paths16: the run's ``qaconform.pytest.seed_draws.UNWIKIFIERS`` entry for its seed, the account that makes
    :func:`cancelwiki_once` (moderator when no seed is set)."""
    return unwikifier_for_seed(_run_seed(request))


def _wiki_target(request: pytest.FixtureRequest) -> WikiTarget:
    """wiki20: the node :func:`cancelwiki_once` acts on (suites/wiki_answer.py: wiki_node_id's question, or on the
    seeds drawing "an answer" or "an accepted question" the profile's fixture of that kind, wiki21)."""
    return wiki_target(request, lambda: _one_shot(request, "wiki_node_id"))


@pytest.fixture(scope="session")
def wiki_unwikified(request: pytest.FixtureRequest) -> WikiTarget:
    """The node :func:`cancelwiki_once` acts on in this run (:func:`_wiki_target`), for the tests that read it back."""
    return _wiki_target(request)


@pytest.fixture(scope="session")
def wiki_unwikifier(request: pytest.FixtureRequest) -> str:
    """The role that makes :func:`cancelwiki_once` in this run (:func:`unwikifier`), for the tests that judge it."""
    return unwikifier(request)


NOT_HOLDERS_ASKED = ("admin", "moderator")
"""round54 (issue 44): the accounts holding Mark as favorite (member is the holder the profile names) whose unfavorite
of favorite_node_id is tried first when one of them wrote it and the profile names it no holder."""


@pytest.fixture(scope="session")
def author_unfavorite_first(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                            user_ids: dict[str, int],
                            unfavorite_denied_first: dict[str, ApiResponse]) -> dict[str, ApiResponse]:
    """round54 (issue 44, ownership on the wrong relation): the author of favorite_node_id (moderator on the
    reference data), holding no favorite on it, unfavorites it ONCE per run and target, before every holder does
    (``unfavorite_once`` and ``admin_unfavorite_first`` depend on this). "Favorites are per user; the user is taken
    from the credentials": whatever the author's call answers (no outcome is stated for a node that is not the
    caller's favorite), the holders' favorites stay, which member's and admin's own unfavorites then show
    (test_node_actions.py judges them: a server that looks a favorite up by the node's owner relation removed one).
    Empty when no such account wrote the node (bounded reads of their question and answer lists). No write on a
    conforming target that refuses it; one, charged to the suites, on a target that answers it 2xx."""
    return _author_first(request, api, profile, _one_shot(request, "favorite_node_id"))


def _author_first(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                  node: int) -> dict[str, ApiResponse]:
    user_ids: dict[str, int] = request.getfixturevalue("user_ids")
    holders = {"member", *profile.fixtures.favorite_also_held_by}
    for role in (r for r in NOT_HOLDERS_ASKED if r not in holders and r in user_ids and r in api):
        wrote = any(node in {as_id(i.get("id")) for i in read_ends(api["admin"], f"user/{user_ids[role]}/{kind}.json",
                                                                   {node})} for kind in ("question", "answer"))
        if wrote:
            return {role: once_per_target(request, profile, f"unmarkfavorite author {role} {node}", _consuming(
                request, profile, "favorite_node_id", node, functools.partial(
                    api[role].put, f"node/{node}/unmarkfavorite.json", operation="unmarkFavorite")))}
    return {}


@pytest.fixture(scope="session")
def admin_unfavorite_first(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                           unfavorite_denied_first: dict[str, ApiResponse],
                           favorite_refusals: dict[str, ApiResponse],
                           author_unfavorite_first: dict[str, ApiResponse]) -> ApiResponse | None:
    """admin's unfavorite of favorite_node_id, ONCE per run and target, BEFORE member's when the seed draws "admin
    first" (:func:`unfavorite_order`; ``unfavorite_once`` depends on this); None when it draws "member first" (then
    test_node_actions.py sends admin's after member's). Admin's favorite is the older on the reference data, so this
    order tries a holder unfavoriting while a NEWER favorite of another account stands."""
    if unfavorite_order(request) != "admin first":
        return None
    return _admin_first(request, api, profile, _one_shot(request, "favorite_node_id"))


def _admin_first(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                 node: int) -> ApiResponse:
    return once_per_target(request, profile, f"unmarkfavorite admin first {node}", _consuming(
        request, profile, "favorite_node_id", node, functools.partial(
            api["admin"].put, f"node/{node}/unmarkfavorite.json", operation="unmarkFavorite",
            params=one_shots.stated_options("unmarkFavorite"))))  # round47 (issue 44): admin's call carries the options


@pytest.fixture(scope="session")
def unfavorite_once(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                    unfavorite_denied_first: dict[str, ApiResponse],
                    favorite_refusals: dict[str, ApiResponse],
                    author_unfavorite_first: dict[str, ApiResponse],
                    admin_unfavorite_first: ApiResponse | None) -> ApiResponse:
    """member unfavorites favorite_node_id ONCE per run; every suite reads this one response. When the seed draws
    "admin first", admin's own unfavorite is made before it (:func:`admin_unfavorite_first`).

    A favorite can be removed only once and the interface cannot create one, so a second call anywhere in the run
    would meet a node that is no longer a favorite (see /work/briefs/coordination.md).
    """
    def again(node: int) -> None:  # pool26: the calls before member's, made again on the pool's next node
        unfavorite_denied_first.update(_denied_first(request, api, profile, "unmarkfavorite", "unmarkFavorite",
                                                     "favorite_node_id", node))
        for value, made in ((author_unfavorite_first, _author_first), (favorite_refusals, _favorite_refusals)):
            value.clear()
            value.update(made(request, api, profile, node))
        if admin_unfavorite_first is not None:  # its write spent on the met node: not made again (no write more)
            spent = 200 <= admin_unfavorite_first.status < 300 and not one_shots.refused_by_state(
                admin_unfavorite_first)
            pool_next.MOVED["admin_unfavorite_first"] = pool_next.SPENT if spent else _admin_first(
                request, api, profile, node)

    return _owner_call(request, api, profile, "favorite_node_id", _one_shot(request, "favorite_node_id"),
                       "unmarkfavorite {}", lambda node: api["member"].put(f"node/{node}/unmarkfavorite.json",
                                                                          operation="unmarkFavorite"), again)


@pytest.fixture
def lock_after_unfavorite(request: pytest.FixtureRequest, api: dict[str, ApiClient],
                          favorite_refusals: dict[str, ApiResponse],
                          unfavorite_once: ApiResponse) -> ApiResponse | None:
    """round79 (issue 44, a history on the found relation): member's lock of favorite_node_id tried again AFTER
    member's own unfavorite of it (``favorite_refusals`` tried it BEFORE): a former favorite holder is no author
    either, and a target that reads "own" from the caller's favorite actions, canceled ones too, lets member in
    after the unfavorite only. None where ``favorite_refusals`` is empty (member wrote the node). One test asks for
    it (function scope, no once-per-run record: that would charge it to the suites' share as content); that test is
    marked ``refused_writes``, so once the suites' share is spent (late in a whole run) the lock goes as a probe
    (qaconform.target.writes REFUSALS) instead of being held back. No write on a conforming target."""
    if not favorite_refusals:
        return None
    node = _one_shot(request, "favorite_node_id")
    prompt = f"{FAVORITE_LOCK_PROMPT}, after its unfavorite [{request.getfixturevalue('run_tag')}]"
    return api["member"].put(f"node/{node}/lock.json", params={"prompt": prompt}, operation="lockNode")


MEMBER_WIKI_SENDER = "admin"
"""Who sends member_wiki_node_id to moderation (suites/contract/unwikified_node.py ``SENDER``): neither its author
nor its unwikifier, so a record naming either instead of the caller is seen."""


@pytest.fixture(scope="session")
def member_wiki_sent_first(request: pytest.FixtureRequest, api: dict[str, ApiClient],
                           profile: Profile) -> dict[str, Any] | None:
    """wiki20 (issue 44 items 2 and 5): on the seeds that draw "before its unwikify" (seed_draws.MEMBER_WIKI_SENDS),
    admin's send to moderation of member_wiki_node_id, ONCE per run and target, made while the node is still wiki
    and BEFORE member's unwikify (``cancelwiki_own_once`` depends on this), with the follower read made right before
    it: the send unwikified_node.py makes after the unwikify on the other seeds (the same one write, charged to the
    suites), read by the same tests (test_followed_node_send.py judges its verb, private and realUser). None on the
    other seeds, or when the profile names no member_wiki_node_id."""
    wiki_own_question.answer_first(request)  # accept22: member's answer to its wiki question, while it is one
    if member_wiki_send_for_seed(_run_seed(request)) != "before its unwikify":
        return None
    node = _one_shot(request, "member_wiki_node_id")

    def send() -> dict[str, Any]:
        followers = one_shots.followers_read(api[MEMBER_WIKI_SENDER], node)  # what a followed node is sent as
        resp = api[MEMBER_WIKI_SENDER].put(contract_path("sendToModeration", nodeId=node), operation="sendToModeration")
        return {**_as_json(resp), "followers": followers}

    with contextlib.suppress(pytest.skip.Exception):  # the share spent: member's unwikify is made all the same
        saved: dict[str, Any] = once_per_run(request, profile.base_url, f"sendToMod before cancelwiki {node}", send)
        return saved
    return None


@pytest.fixture(scope="session")
def cancelwiki_own_once(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                        member_wiki_sent_first: dict[str, Any] | None) -> ApiResponse:
    """member unwikifies its own member_wiki_node_id ONCE per run (one-shot: the node is no longer wiki after); on
    the seeds drawing "before its unwikify", after admin's send of it (:func:`member_wiki_sent_first`, wiki20)."""
    return _owner_call(request, api, profile, "member_wiki_node_id", _one_shot(request, "member_wiki_node_id"),
                       "cancelwiki member {}", lambda node: api["member"].put(f"node/{node}/cancelwiki.json",
                                                                              operation="cancelWiki"))


CONTRIBUTION = "member's comment"
"""The key of member's comment on the wiki question (:func:`contributed_before_refusal`) in :func:`wiki_refusals`,
beside the refusals by role: test_node_actions.py sends it to moderation under --thorough."""
STRANGER = "member before its comment"
"""closeb (issue 44): the key of member's refused unwikify of the wiki question made BEFORE its comment there, while
member stands to the node in no relation the earlier rounds planted (not its author, nothing of member's under it):
a server taking "own" from a relation no read names (the node's author answered a question of the caller's,
round77-cancelwiki-owner-answered-callers-question) lets member in there only. A refusal, no write."""
LOCK = "member's lock"
"""The key of member's refused lock of the wiki question after its comment (:func:`lock_after_contribution`) in
:func:`wiki_refusals`."""
LOCK_PROMPT = "locked by a member who commented last on another's question"


def contributed_before_refusal(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                               node: int) -> ApiResponse | None:
    """member's plain comment on wiki_node_id (admin's wiki question on the reference server), posted once per run and
    target before member's refused unwikify of it (budget9, issue 44): member then wrote a node under the question
    and is its last active user, but did not write the question, and "own" in "for the caller's own node, Convert
    own posts to community wiki" is authorship only. A server taking "own" from a contributor or from
    lastActiveUserId lets member in, which the refusal test (test_permissions.py) sees. One accepted write of the
    suites' share (paid by the permission matrix's denied cells sharing moderator's answer under member's question);
    a target that refuses the comment, or a spent share, leaves the refusal judged without the relation. Returns the
    comment's response (the one every worker reads), None when the share was spent."""
    def post() -> ApiResponse:
        budget = ApiClient.write_budget
        with budget.charged_to(SUITES) if budget is not None else contextlib.nullcontext():
            return _contribution(request, api, profile, node)

    with contextlib.suppress(pytest.skip.Exception):  # the share spent: the refusal is judged all the same
        return once_per_target(request, profile, f"comment by member on wiki {node}", post)
    return None


CONTRIBUTION_RECIPIENTS = ("moderator", "member")
"""budget24 (issue 44): the recipients of member's comment on wiki_node_id (:func:`contributed_before_refusal`):
member itself, so that member's refused unwikifies and lock after it are made by a RECIPIENT of a private comment
on another's wiki node too (round90-cancelwiki-own-by-comment-recipient: a server reading "own" from the node's
participants, recipients included, lets member in), and moderator, who sends the comment to moderation
(test_node_actions.py) and so must see it."""


def _contribution(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                  node: int) -> ApiResponse:
    """member's comment on wiki_node_id, private to :data:`CONTRIBUTION_RECIPIENTS` ("When visibility is recipients
    and recipients lists ids, the comment is private to those recipients"); at no write more: the same one comment
    as before, plain where the target is older than 2.16.0, names no wire value for the option, or refuses the
    private one (a refusal is no accepted write; whether an author may name itself is not shown)."""
    tag, created = request.getfixturevalue("run_tag"), request.getfixturevalue("created")
    text = "comment by member under another's wiki question, before its unwikify"
    user_ids: dict[str, int] = request.getfixturevalue("user_ids")
    ids = [user_ids[r] for r in CONTRIBUTION_RECIPIENTS if r in user_ids]
    value = profile.visibility.recipients
    if profile.supports("2.16.0") and value and len(ids) == len(CONTRIBUTION_RECIPIENTS):
        resp = post_comment(api["member"], node, tag, created, text=f"{text}, private to moderator and member",
                            visibility=str(value), recipients=ids)  # a refusal costs no accepted write
        if not 400 <= resp.status < 500:
            return resp
    return post_comment(api["member"], node, tag, created, text=text)


def lock_after_contribution(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                            node: int) -> ApiResponse:
    """member's lock of wiki_node_id, once per run and target, after its comment there and its refused unwikify
    (fix32, issue 44: ownership on the wrong relation). member holds Lock comments on own posts only, and the
    question is another's; member is now its last active user and one who wrote under it, so a target taking "own"
    from either lets member in (test_permissions.py). The lock's other clause, like the unwikify's, is authorship
    only. No write on a conforming target (the refusal); one on a target that takes it, charged to the suites."""
    def send() -> ApiResponse:
        with charged_to_suites(), _as_refusal():  # accept24: a probe once the suites' share is spent
            prompt = f"{LOCK_PROMPT} [{request.getfixturevalue('run_tag')}]"
            return api["member"].put(f"node/{node}/lock.json", params={"prompt": prompt}, operation="lockNode")

    return once_per_target(request, profile, f"lock member after its comment {node}", send)


@pytest.fixture(scope="session")
def wiki_refusals(request: pytest.FixtureRequest, api: dict[str, ApiClient],
                  profile: Profile) -> dict[str, ApiResponse]:
    """novice (neither wiki permission) and member (only for own posts; round65: bare and with each common option)
    try to unwikify wiki_node_id, another's wiki node, BEFORE cancelwiki_once consumes it: the node's state allows
    the operation, so only the permission can refuse it (on the matrix's answers, which are not wiki, a server may
    answer the state first; an option's path is the one the outside round found). Empty when another
    xdist worker already consumed the node. Holds member's comment on the node too (:data:`CONTRIBUTION`), posted
    after member's first refusal (:data:`STRANGER`, closeb: made while member wrote nothing there) and before the
    others."""
    node = _one_shot(request, "wiki_node_id")
    path = shared_path(request, profile.base_url, f"cancelwiki {unwikifier(request)} {node}")  # the drawn one's
    if path is not None and path.exists():
        return {}
    stranger = _consuming(request, profile, "wiki_node_id", node, functools.partial(  # closeb: before the comment
        api["member"].put, f"node/{node}/cancelwiki.json", operation="cancelWiki"), refusal=True)()
    posted = contributed_before_refusal(request, api, profile, node)
    refusals = {STRANGER: stranger} | {role: _consuming(request, profile, "wiki_node_id", node, functools.partial(
        api[role].put, f"node/{node}/cancelwiki.json", operation="cancelWiki"), refusal=True)()
        for role in ("novice", "member")}
    for option in one_shots.COMMON_OPTIONS:  # round65 (issue 44): the own-only permission with each common option
        refusals[f"member with {option}=true"] = _consuming(request, profile, "wiki_node_id", node, functools.partial(
            api["member"].put, f"node/{node}/cancelwiki.json", params={option: "true"}, operation="cancelWiki"),
            refusal=True)()
    state = one_shots.doctor_state(request.getfixturevalue("qc_target").diagnosis, "wiki_node_id")
    accounts = {role: account.id for role, account in profile.accounts.items()}
    for resp in refusals.values():  # a server may answer the node's state first: only a node in it tells
        one_shots.held(resp, "wiki_node_id", node, state, one_shots.wiki_reader(api["admin"], accounts, node))
    if posted is not None:
        refusals[CONTRIBUTION] = posted
    refusals[LOCK] = lock_after_contribution(request, api, profile, node)
    return refusals


@pytest.fixture(scope="session")
def wiki_locked_first(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                      cancelwiki_denied_first: dict[str, ApiResponse],
                      wiki_refusals: dict[str, ApiResponse]) -> ApiResponse | None:
    """accept23 (issue 44: a rule after a lock): the drawn unwikifier (moderator or admin, both holding Lock comments
    on posts) locks the node :func:`cancelwiki_once` acts on, once per run and target, after the refused attempts
    (a locked node could be refused by its state first) and right BEFORE its own unwikify (``cancelwiki_once``
    depends on this). "Wikified node (wiki true) | PUT cancelwiki | ... | Returns the wiki action with canceled
    true" names no exception for a locked node, yet no run unwikified one (round66-cancelwiki-locked-node-not-
    canceled passed): the unwikify's tests now judge a locked wiki node, and test_locked_wiki.py judges the lock.
    One accepted write of the suites' share, sent only while the share holds it AND the unwikify after it (a lock
    left on a node never unwikified would change the next run's refusals); None otherwise (the unwikify is then
    made on the node as it is, as before). Every xdist worker reads the one response."""
    target, role = _wiki_target(request), unwikifier(request)

    def send() -> ApiResponse:
        with charged_to_suites():
            budget = ApiClient.write_budget
            if budget is not None and not budget.hold(2, WIKI_PAIR):  # accept24: both writes or neither
                skip(SkipKind.WRITE_BUDGET, f"write budget: the lock of {target.name} {target.node} before its "
                                            f"unwikify was not sent (the share holds no room for it and the unwikify)")
            prompt = f"{one_shots.WIKI_LOCK_PROMPT} [{request.getfixturevalue('run_tag')}]"
            with _from_hold():
                return api[role].put(f"node/{target.node}/lock.json", params={"prompt": prompt}, operation="lockNode")

    with contextlib.suppress(pytest.skip.Exception):
        return once_per_target(request, profile, f"lock by {role} before cancelwiki {target.node}", send)
    return None


@pytest.fixture(scope="session")
def cancelwiki_once(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                    cancelwiki_denied_first: dict[str, ApiResponse],
                    wiki_refusals: dict[str, ApiResponse],
                    wiki_locked_first: ApiResponse | None) -> ApiResponse:
    """The drawn unwikifier (:func:`unwikifier`: moderator or admin, both with Mark as community wiki) unwikifies
    wiki_node_id ONCE per run (one-shot, like the others), after the refused attempts of
    :func:`cancelwiki_denied_first` and :func:`wiki_refusals`. The caller is the seed's, not a choice of this
    fixture's readers: each reads it from :func:`unwikifier`. wiki20, wiki21: on the seeds that draw "an answer" (or
    "an accepted question") the node is the profile's fixture of that kind (:func:`wiki_unwikified`), and
    wiki_node_id is not acted on (the same one write)."""
    target = _wiki_target(request)
    node, role = target.node, unwikifier(request)
    if target.name == "accepted_wiki_question_id":  # hist26: member's refusal after its comment in the thread first
        import thread_commenter  # suites/contract (pyproject's pythonpath)

        thread_commenter.refusal(request)
    try:
        with _from_hold():  # accept24: the second write of wiki_locked_first's hold, when it made one
            return _owner_call(request, api, profile, target.name, node, f"cancelwiki {role} {{}}", lambda n: api[
                role].put(f"node/{n}/cancelwiki.json", operation="cancelWiki",
                          params=one_shots.stated_options("cancelWiki")))  # round47 (issue 44): the stated options
    finally:
        if ApiClient.write_budget is not None:  # a hold whose unwikify was not made (a skip) goes back to the share
            ApiClient.write_budget.release(WIKI_PAIR)


WIKI_PAIR = "lock and unwikify of the wiki node"
"""accept24 (issue 44 item 5): the hold (qaconform.target.writes.WriteBudget.hold) of :func:`wiki_locked_first`'s
lock and :func:`cancelwiki_once`'s unwikify, taken together: a run never ends with the lock made and the unwikify held
back (another worker's write taking the last room between the two)."""


def _as_refusal() -> contextlib.AbstractContextManager[None]:
    """A call the permission table refuses: once the suites' share is spent, a probe into the refusals' share."""
    budget = ApiClient.write_budget
    return budget.as_refusals() if budget is not None else contextlib.nullcontext()


def _from_hold() -> contextlib.AbstractContextManager[None]:
    budget = ApiClient.write_budget
    return budget.from_hold(WIKI_PAIR) if budget is not None else contextlib.nullcontext()


OTHER_BEFORE = "novice"
"""paths14 (issue 44 item 2): the account whose refused lock comes right before admin's shared lock of the answer
admin sent to moderation: it holds neither Lock comments on posts nor the answer (member's)."""


@pytest.fixture(scope="session")
def refused_before_admin_lock(request: pytest.FixtureRequest, api: dict[str, ApiClient],
                              profile: Profile) -> ApiResponse | None:
    """paths14 (issue 44 item 2): novice's lock of the answer admin sent to moderation (suites/conftest.py
    ``answer_sent_to_mod_by_admin``), once per run and target, made right before admin's shared lock of it
    (``locked_by`` asks for it inside its lock's call). Why: every lock of the run followed its own caller's action
    on the node or none, so a server that builds a record from the node's last caller (an audit column written at
    the door, refused calls included) named the right user every time; now another account's call comes between
    admin's send and admin's lock, and the lock's record must still name admin. No write on a conforming target
    (a refusal); one on a target that takes it, charged to the suites. None when admin's send failed (admin's lock
    then acts on another node)."""
    sent = request.getfixturevalue("answer_sent_to_mod_by_admin")
    if sent.resp.status != 200 or sent.node is None:
        return None
    node = int(sent.node)

    def send() -> ApiResponse:
        with charged_to_suites(), _as_refusal():  # accept24: a probe once the suites' share is spent
            prompt = f"refused: {OTHER_BEFORE}'s lock right before admin's [{request.getfixturevalue('run_tag')}]"
            return api[OTHER_BEFORE].put(f"node/{node}/lock.json", params={"prompt": prompt}, operation="lockNode")

    return once_per_target(request, profile, f"lock by {OTHER_BEFORE} before admin's {node}", send)
