"""A send to moderation of a node with active followers, judged where the target has one (trade12, issue 44).

"Published node | PUT sendToMod | ... | Returns an action record with verb sent and private true" holds whoever
follows the node; round24 planted a record built otherwise once the node has active followers. The interface has no
follow, so only the site makes a node followed: the one send of a site's node a run makes is admin's of member's
one-shot wiki question once member unwikified it (unwikified_node.py, fix30), and the reference seed has that
question followed by its author, as sites do (fix33). A real site's question may have no follower: the sender reads
the node's follower list right before the send (a read, no write), and this test judges the record as that of a
followed node where the list held one, and says so where it held none or could not be read (a skip naming the
node and what the list answered: the action matrix judged the record all the same, on a node nobody follows).
No write of its own: it reads the action matrix's send. wiki20 (issue 44): on the seeds that draw "before its
unwikify" (seed_draws.MEMBER_WIKI_SENDS) that send is made while the question is still wiki, right before member's
unwikify, and this test is the one that judges it (the matrix's unwikified cell skips, saying so): a record built
from the wiki's owner (round55-sendtomod-wiki-realuser-author) fails realUser here.
"""

from __future__ import annotations

from typing import Any

import pytest
from unwikified_node import SENDER, followers_before_the_send, sent_after_unwikify

from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.contract, pytest.mark.writes, pytest.mark.actions]


def _count(followers: dict[str, Any]) -> int | None:
    """How many active followers the list showed: its totalCount, else the first page's items when it gave none."""
    if followers["status"] != 200:
        return None
    return followers["total"] if followers["total"] is not None else len(followers["ids"])


@pytest.mark.rule("ACTION-SENDTOMOD-VERB", "ACTION-SENDTOMOD-PRIVATE", "ACTION-SENDTOMOD-REALUSER")
def test_a_followed_node_sent_to_moderation_has_verb_sent_and_private_true(
        request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
        user_ids: dict[str, int]) -> None:
    resp, node = sent_after_unwikify(request, api, profile, user_ids)
    followers = followers_before_the_send(request, api, profile, user_ids)
    count = _count(followers)
    if count is None:
        skip(SkipKind.OTHER, f"not judged on a followed node: the follower list of node {node} (member's one-shot wiki "
                             f"question) answered {followers['status']} to {SENDER} right before the send, so whether "
                             "it was followed is unknown (PERM-FOLLOWERS judges the list's permission)")
    if count == 0:
        skip(SkipKind.FIXTURE_STATE, f"not judged on a followed node: node {node} (member_wiki_node_id, member's "
                                     "one-shot wiki question) had no active follower on this target right before "
                                     f"{SENDER}'s send (GET followers.json: totalCount 0); the interface cannot "
                                     "follow a node, so only a site where the question is followed (as its author "
                                     "follows it by default on many sites) judges the send of a followed node. "
                                     "test_action_matrix.py judged the same send on the node as it is")
    if not 200 <= resp.status < 300:
        fail(["ACTION-SENDTOMOD-VERB"], f"{SENDER} holds Send to moderation, and node {node} is published (a wiki "
             f"node, or again once unwikified): its send must be taken (200), whoever follows it; got "
             f"{resp.status}", resp)
    body = resp.json()
    result = body.get("result") if isinstance(body, dict) else None
    action = result.get("sendToModAction") if isinstance(result, dict) else None
    if not isinstance(action, dict):
        fail(["ACTION-SENDTOMOD-VERB"], f"the send of node {node} ({count} active follower(s)) holds no action "
                                        "record under result.sendToModAction", resp)
    assert isinstance(action, dict)
    expect(action.get("verb") == "sent", "ACTION-SENDTOMOD-VERB",
           f"\"Returns an action record with verb sent\", on node {node} with {count} active follower(s) too; got "
           f"{action.get('verb')!r}", resp)
    expect(action.get("private") is True, "ACTION-SENDTOMOD-PRIVATE",
           f"\"... and private true\", on node {node} with {count} active follower(s) too; got "
           f"{action.get('private')!r}", resp)
    real = action.get("realUser")
    known = user_ids.get(SENDER)
    expect(isinstance(real, dict) and real.get("username") == api[SENDER].username
           and (known is None or real.get("id") == known), "ACTION-SENDTOMOD-REALUSER",
           f"realUser is \"the real authenticated user\", {SENDER}, on node {node} with {count} active follower(s) "
           f"too; got {real!r}", resp)
