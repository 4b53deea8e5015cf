"""Node actions 10-13: wrappers, action records, state changes and their errors."""

from __future__ import annotations

import re
from typing import Any

from ref_helpers import Ref

ACTION_DATE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d$")
TEXTUAL_DATE = re.compile(r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d UTC \d{4}$")


def check_action(action: dict[str, Any], verb: str, node_id: int, node_type: str, user: str, ref: Ref) -> None:
    assert isinstance(action["id"], int)
    assert action["ip"] == "127.0.0.1"
    assert set(action["user"]) == {"id", "username", "avatarUrl"}
    assert action["user"]["username"] == ref.profile.accounts[user].username or verb in ("wikified", "favorited")
    assert ACTION_DATE.match(action["actionDate"]), action["actionDate"]
    assert action["verb"] == verb
    assert action["node"] == {"id": node_id, "type": node_type}
    assert isinstance(action["private"], bool) and isinstance(action["canceled"], bool)
    assert "extra" in action


def test_unmark_favorite_cancels_the_callers_favorite_once(ref: Ref) -> None:
    node = ref.profile.fixtures.favorite_node_id
    assert ref.question(node)["id"] == node
    body = ref.ok("PUT", f"/node/{node}/unmarkfavorite.json", "member")
    assert body["success"] is True and set(body["result"]) == {"favoriteAction", "favoriteCount"}
    action = body["result"]["favoriteAction"]
    check_action(action, "favorited", node, "question", "member", ref)
    assert action["canceled"] is True and action["user"]["id"] == ref.user_id("member")
    assert action["canceledByUser"]["id"] == ref.user_id("member")
    assert TEXTUAL_DATE.match(action["canceledDate"]), action["canceledDate"]
    assert body["result"]["favoriteCount"] == 1
    again = ref.put(f"/node/{node}/unmarkfavorite.json", "member")
    assert again.status_code == 404 and again.json()["error"]
    assert ref.ok("PUT", f"/node/{node}/unmarkfavorite.json", "admin")["result"]["favoriteCount"] == 0


def test_cancel_wiki_on_own_node_then_409(ref: Ref) -> None:
    node = ref.profile.fixtures.member_wiki_node_id
    body = ref.ok("PUT", f"/node/{node}/cancelwiki.json", "member")
    assert body["success"] is True and set(body["result"]) == {"wikifyAction"}
    action = body["result"]["wikifyAction"]
    check_action(action, "wikified", node, "question", "member", ref)
    assert action["canceled"] is True and TEXTUAL_DATE.match(action["canceledDate"])
    assert ref.question(node)["wiki"] is False
    again = ref.put(f"/node/{node}/cancelwiki.json", "member")
    assert again.status_code == 409 and again.json()["error"]


def test_moderator_cancels_wiki_of_someone_elses_node(ref: Ref) -> None:
    node = ref.profile.fixtures.wiki_node_id
    assert ref.put(f"/node/{node}/cancelwiki.json", "member").status_code == 403
    action = ref.ok("PUT", f"/node/{node}/cancelwiki.json", "moderator")["result"]["wikifyAction"]
    assert action["canceledByUser"]["username"] == "moderator"
    assert ref.question(node)["wiki"] is False


def test_send_to_moderation_hides_the_node_from_others(ref: Ref) -> None:
    qid = ref.profile.fixtures.question_id
    answer = ref.ok("POST", f"/question/{qid}/answer.json", "member", 201, json={"body": "soon moderated"})
    aid = int(answer["id"])
    assert aid in ref.question(qid, "novice")["answers"]
    body = ref.ok("PUT", f"/node/{aid}/sendToMod.json", "moderator")
    assert body["success"] is True and set(body["result"]) == {"sendToModAction"}
    action = body["result"]["sendToModAction"]
    check_action(action, "sent", aid, "answer", "moderator", ref)
    assert action["private"] is True and action["canceled"] is False
    assert set(action["realUser"]) == {"id", "username", "avatarUrl"}
    assert aid not in ref.question(qid, "novice")["answers"]
    assert aid in ref.question(qid, "member")["answers"]  # its author
    assert aid in ref.question(qid, "admin")["answers"]


def test_lock_stores_the_prompt_as_extra(ref: Ref) -> None:
    node = ref.profile.fixtures.question_id
    body = ref.ok("PUT", f"/node/{node}/lock.json", "admin", params={"prompt": "editing not allowed"})
    assert body["success"] is True and set(body["result"]) == {"lockAction"}
    action = body["result"]["lockAction"]
    check_action(action, "locked", node, "question", "admin", ref)
    assert action["extra"] == "editing not allowed" and action["canceled"] is False
    assert "canceledByUser" not in action and "realUser" not in action


def test_lock_without_prompt_is_400(ref: Ref) -> None:
    node = ref.profile.fixtures.question_id
    for params in ({}, {"prompt": ""}, {"prompt": "  "}):
        r = ref.put(f"/node/{node}/lock.json", "admin", params=params)
        assert r.status_code == 400 and "prompt" in r.json()["error"]


def test_actions_on_unknown_nodes_are_404(ref: Ref) -> None:
    for path in ("unmarkfavorite.json", "cancelwiki.json", "sendToMod.json", "lock.json?prompt=x"):
        r = ref.put(f"/node/98765432/{path}", "admin")
        assert r.status_code == 404 and r.json()["error"], path
