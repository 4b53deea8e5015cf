"""The action matrix's node after the state change unwikify (fix30, issue 44: node_state ``unwikified``): the
profile's one-shot ``member_wiki_node_id`` once member unwikified it (suites/one_shot_calls.py
``cancelwiki_own_once``: "Wikified node (wiki true) | PUT cancelwiki | ... | Not wiki"), a published node again.

A rule of the state table holds whatever the node went through before ("Published node | PUT sendToMod | ... |
Returns an action record with verb sent and private true"), yet every node the matrix sent to moderation was as
created or locked: a record built from the node's history (its last action, the wiki's owner) passed. The one send
the run adds (:func:`sent_after_unwikify`, admin's, one accepted write of the suites' share) is of that node, read by
every effect rule of the send (verb, private, realUser, node, shape); the calls the permission table refuses are
tried on it too, free of writes. The interface makes no wiki node, so no other node reaches the state: the one-shot
is the only one, and it is consumed already (a later run finds it not wiki and skips, as for the unwikify itself).

trade12 (issue 44): the send's effects on a node with active followers (round24) are judged only where the node is
followed, and only the site makes a node followed (the interface has no follow). The reference seed has the question
followed by its author (fix33); a real site may not. So the sender reads the node's follower list right before the
send (:func:`followers_before_the_send`, a read: no write), and test_followed_node_send.py judges the send as one of
a followed node where the list held one, and says where it held none (a skip with its reason, never a silent pass).
"""

from __future__ import annotations

import base64
import contextlib
from typing import Any

import pytest
from comment_after_state import PLAIN, History, Posted

from qaconform.contract import path as contract_path
from qaconform.pytest.found_nodes import QUESTION_PAGES
from qaconform.pytest.one_shots import followers_read, run_seed
from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.pytest.seed_draws import (
    after_state_option_for_seed,
    after_state_parent_for_seed,
    member_wiki_send_for_seed,
)
from qaconform.pytest.support import find_listed, new_id, once_per_run, post_comment
from qaconform.target.client import ApiClient, ApiResponse, Exchange
from qaconform.target.profile import Profile
from qaconform.target.writes import SUITES

SENDER = "admin"
"""Who sends the unwikified node to moderation: an account holding the permission, neither the node's author
(member) nor the one who unwikified it (member), so a record naming either instead of the caller is seen."""


def unwikified_node(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                    user_ids: dict[str, int]) -> int:
    """member_wiki_node_id once member's unwikify answered 200, and found in member's question list (the pool takes
    it for a question member wrote); a skip saying why otherwise (consumed by an earlier run, absent, another
    kind)."""
    unwikified = request.getfixturevalue("cancelwiki_own_once")
    node = profile.fixtures.member_wiki_node_id
    if node is None or not 200 <= unwikified.status < 300:
        skip(SkipKind.FIXTURE_STATE, f"not judged: member's unwikify of member_wiki_node_id answered "
             f"{unwikified.status}, so no node of the run stands unwikified (node_state unwikified)")
    node = int(node)
    member = user_ids.get("member")
    listed = None if member is None else find_listed(
        api["admin"], contract_path("listUserQuestions", userId=member), node, page_size=100, max_pages=QUESTION_PAGES)
    if listed is None:
        skip(SkipKind.FIXTURE_STATE, f"not judged: member_wiki_node_id {node} is not in member's question list, so "
             f"the pool's unwikified question of member's is not it (node_state unwikified)")
    return node


def _sent(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
          user_ids: dict[str, int]) -> tuple[dict[str, Any], int]:
    """The saved send of the unwikified node (once per run and target) with the follower read made right before it,
    and the node. wiki20: on the seeds that draw "before its unwikify" (seed_draws.MEMBER_WIKI_SENDS) the send was
    made while the node was still wiki, right before member's unwikify (one_shot_calls.py
    ``member_wiki_sent_first``): that one."""
    node = unwikified_node(request, api, profile, user_ids)
    if sent_before_unwikify(request):
        first = request.getfixturevalue("member_wiki_sent_first")
        if first is None:
            skip(SkipKind.FIXTURE_STATE, f"not judged: admin's send of member_wiki_node_id {node}, drawn before "
                 "member's unwikify, was not made (the write budget's share spent)")
        return dict(first), node

    def send() -> dict[str, Any]:
        commented_after_unwikify(request, api, profile, user_ids)  # unwiki25: the comments right after the unwikify
        followers = followers_read(api[SENDER], node)  # before the send: what a followed node is sent as
        sent = _as_json(api[SENDER].put(contract_path("sendToModeration", nodeId=node), operation="sendToModeration"))
        return {**sent, "followers": followers}

    return once_per_run(request, profile.base_url, f"sendToMod after cancelwiki {node}", send), node


def sent_before_unwikify(request: pytest.FixtureRequest) -> bool:
    """Whether the run's seed draws admin's send of member_wiki_node_id before member's unwikify (wiki20)."""
    return member_wiki_send_for_seed(run_seed(request.config)) == "before its unwikify"


def sent_after_unwikify(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                        user_ids: dict[str, int]) -> tuple[ApiResponse, int]:
    """admin's send to moderation of the unwikified node, once per run and target (every worker reads the one
    response), and the node; on the seeds drawing "before its unwikify", the send made while it was wiki."""
    saved, node = _sent(request, api, profile, user_ids)
    return ApiResponse(saved["status"], saved["headers"], base64.b64decode(saved["content"]), saved["url"],
                       Exchange(**saved["exchange"])), node


RECIPIENT = "moderator"
"""after25: whom member's comment with the option ``recipients`` names (neither its writer nor novice, so novice is a
non-recipient of every option drawn; test_comment_after_state.py reads member's content list as novice)."""


def commenters(seed: int) -> tuple[tuple[str, str | None], ...]:
    """unwiki25 (issue 44): who comments on the unwikified node right after member's unwikify, and with which private
    option (comment_after_state.py, the history "unwikified question"): novice, not the node's author and holding no
    wiki permission, plainly (round91-93: a non-author refused, a plain comment stored "to the original poster");
    member, its author and unwikifier, with the option the seed draws (after25: ``seed_draws.AFTER_STATE_OPTIONS``,
    to the original poster, to moderators, or to recipients naming :data:`RECIPIENT`; every option member holds meets
    both histories across seeds: round96-comment-on-moderated-node-privacy-dropped); hist26: member's is a reply to
    novice's on the seeds drawing it (:func:`_parent`). Two accepted writes of the suites' share (granted by the lead for this history; docs/write-audit.md "unwiki25"), whatever the draw."""
    return (("novice", PLAIN), ("member", after_state_option_for_seed(seed)))


COMMENT_TEXT = "comment after the node's unwikify"


def commented_after_unwikify(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                             user_ids: dict[str, int]) -> History:
    """:func:`commenters`' comments on the unwikified node, once per run and target, made right after member's
    unwikify: on the seeds drawing the send after the unwikify, :func:`_sent`'s send makes them first (so they meet
    a published question again: the "(new comment)" row's "a question"); on the seeds drawing the send before it,
    the node is in moderation when they come (who sees it is not shown: a refusal is not judged). A comment the
    write budget holds back is kept as held (the others are still sent)."""
    node = unwikified_node(request, api, profile, user_ids)
    tag, created = request.getfixturevalue("run_tag"), request.getfixturevalue("created")

    drawn = commenters(run_seed(request.config))
    as_reply = after_state_parent_for_seed(run_seed(request.config)) == REPLY_PARENT

    def post_all() -> dict[str, Any]:
        out: dict[str, Any] = {}
        for writer, option in drawn:
            parent, under = _parent(out, writer, node, as_reply)
            value = None if option is None else getattr(profile.visibility, option)  # PLAIN is None
            if option is not PLAIN and (value is None or not profile.supports("2.16.0")):
                out[writer] = {"held": f"the profile names no wire value for {option} (or the target is older than "
                                       "2.16.0)"}
                continue
            named = [user_ids[RECIPIENT]] if option == "recipients" and RECIPIENT in user_ids else None
            if option == "recipients" and named is None:
                out[writer] = {"held": f"no user id of {RECIPIENT} to name as the recipient"}
                continue
            budget = ApiClient.write_budget
            try:
                with budget.charged_to(SUITES) if budget is not None else contextlib.nullcontext():
                    resp = post_comment(api[writer], parent, tag, created, text=f"{COMMENT_TEXT} by {writer}",
                                        visibility=value, recipients=named)
            except pytest.skip.Exception as held:
                out[writer] = {"held": f"held back: {held}"}
                continue
            out[writer] = {**_as_json(resp), "value": value, "recipients": named or [], "reply_to": under}
        return out

    kept: dict[str, dict[str, Any]] = request.session.stash.setdefault(_COMMENTED, {})
    key = f"{profile.base_url}|{node}"  # once per process too: once_per_run keeps nothing without xdist workers
    if key not in kept:
        kept[key] = once_per_run(request, profile.base_url, f"comments after cancelwiki {node}", post_all)
    saved = kept[key]
    posted = []
    for writer, option in drawn:
        got = saved.get(writer, {"held": "not posted"})
        resp = None if "held" in got else ApiResponse(got["status"], got["headers"], base64.b64decode(got["content"]),
                                                      got["url"], Exchange(**got["exchange"]))
        posted.append(Posted(writer, option, got.get("value"), resp, got.get("held", ""),
                             recipients=(RECIPIENT,) if got.get("recipients") else (),
                             reply_to=str(got.get("reply_to") or "")))
    before = sent_before_unwikify(request)
    return History("unwikified question", node, "Wikified node (wiki true) | PUT cancelwiki | ... | Not wiki (closed "
                   "for editing)", stated=not before,
                   why_not="admin's send to moderation came before member's unwikify on this seed (wiki20's draw), so "
                           "the comments met a question in moderation: who sees it is not shown" if before else "",
                   comments=tuple(posted))


REPLY_PARENT = "novice's comment"
"""hist26: the after-state comment parent (seed_draws.AFTER_STATE_PARENTS) that makes member's comment a reply."""


def _parent(out: dict[str, Any], writer: str, node: int, as_reply: bool) -> tuple[int, str]:
    """hist26 (issue 44 item 5): where ``writer``'s comment after the unwikify goes, and whose public comment it
    replies to ("" on the node): on the seeds drawing "novice's comment" (seed_draws.AFTER_STATE_PARENTS), member's
    private comment is a reply to novice's plain comment created just before it in the node's thread ("A reply to a
    public comment may set its own visibility and recipients: 201.", after an unwikify:
    round95-reply-public-after-unwikify-privacy-dropped); where novice's was not created, on the node as before."""
    plain = out.get("novice", {})
    if not as_reply or writer != "member" or plain.get("status") != 201:
        return node, ""
    resp = ApiResponse(plain["status"], plain["headers"], base64.b64decode(plain["content"]), plain["url"],
                       Exchange(**plain["exchange"]))
    return int(new_id(resp)), "novice"


_COMMENTED = pytest.StashKey[dict[str, dict[str, Any]]]()
"""The session's saved :func:`commented_after_unwikify` comments, by target and node."""


LOCKER = "moderator"
"""accept24 (issue 44 item 5): who locks the unwikified node once admin sent it to moderation: an account holding Lock
comments on posts that is neither the node's author and unwikifier (member) nor its sender (admin), so the lock
meets a node after an unwikify AND after ANOTHER account's send (round61/round78: the lock's extra after an
unwikify; round67, paths15: the record naming the sender or the last accepted caller; round75: moderator refused
on a node another account sent)."""


def locked_after_unwikify(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                          user_ids: dict[str, int], prompt: str) -> tuple[ApiResponse, int, str]:
    """:data:`LOCKER`'s lock of the unwikified node after :func:`sent_after_unwikify`'s send (on the seeds drawing
    the send before the unwikify, after both too), once per run and target (every worker reads the one response),
    with ``prompt``: the response, the node and the prompt sent. One accepted write of the suites' share (the
    action matrix's PAID ``locked_after_unwikify``); a spent share holds it back ("write budget spent")."""
    sent_after_unwikify(request, api, profile, user_ids)  # the send first (a skip saying why when it was not made)
    node = unwikified_node(request, api, profile, user_ids)

    def lock() -> dict[str, Any]:
        budget = ApiClient.write_budget
        with budget.charged_to(SUITES) if budget is not None else contextlib.nullcontext():
            resp = api[LOCKER].put(contract_path("lockNode", nodeId=node), params={"prompt": prompt},
                                   operation="lockNode")
        return {**_as_json(resp), "prompt": prompt}

    saved = once_per_run(request, profile.base_url, f"lock by {LOCKER} after sendToMod after cancelwiki {node}", lock)
    return ApiResponse(saved["status"], saved["headers"], base64.b64decode(saved["content"]), saved["url"],
                       Exchange(**saved["exchange"])), node, str(saved["prompt"])


def followers_before_the_send(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                              user_ids: dict[str, int]) -> dict[str, Any]:
    """What the sender read of the node's followers right before :func:`sent_after_unwikify`'s send: ``status`` of
    GET followers.json (active relations, the default), ``total`` its totalCount (None when the 200 held none),
    ``ids`` the followers' ids on its first page."""
    return dict(_sent(request, api, profile, user_ids)[0]["followers"])


def _as_json(resp: ApiResponse) -> dict[str, Any]:
    return {"status": resp.status, "headers": resp.headers, "url": resp.url,
            "content": base64.b64encode(resp.content).decode(), "exchange": resp.exchange.as_dict()}
