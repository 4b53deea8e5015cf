"""Questions found on the target with reads, for the relations the run cannot write (issue 44).

The interface creates no question, so a question member wrote, or one no account of the profile wrote, can only be
found among what the target lists. Both finders read a bounded number of pages and skip the profile's fixtures and
pools, so a found node is never one another test changes.
"""
from __future__ import annotations

from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

QUESTION_PAGES = 3
"""Pages of member's question list read (20 a page) to find a question to answer under (bounded)."""


def members_question(api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int]) -> int | None:
    """A question member wrote that novice lists (so every signed-in account reads it), not wiki, not closed and no
    fixture of the profile: found with reads, since the interface cannot create a question. None when there is none."""
    uid = user_ids.get("member")
    if uid is None:
        return None
    fixtures = profile.fixtures
    taken = {fixtures.question_id, fixtures.member_wiki_node_id, fixtures.wiki_node_id, fixtures.favorite_node_id,
             fixtures.locked_question_id}
    taken |= {n for pool in profile.pools.values() for n in pool}
    for page in range(1, QUESTION_PAGES + 1):
        resp = api["novice"].get(f"user/{uid}/question.json", params={"page": page, "pageSize": 20},
                                 operation="listUserQuestions")
        body = resp.json() if resp.status == 200 else None
        items = body.get("list") if isinstance(body, dict) else None
        if not isinstance(items, list) or not items:
            return None
        for q in items:
            if (isinstance(q, dict) and isinstance(q.get("id"), int) and q["id"] not in taken
                    and q.get("wiki") is not True and "closed" not in (q.get("nodeStates") or ())
                    and (q.get("author") or {}).get("id", uid) == uid):
                return int(q["id"])
    return None


def others_question(api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int]) -> int | None:
    """A question no account of the profile wrote that novice lists, not wiki, not closed and no fixture: the node on
    which member and novice stand in no relation to a question (blindp, issue 44; only refusals are tried on it)."""
    if any(role not in user_ids for role in ("admin", "moderator", "member", "novice")):
        return None  # an account whose id is unknown could be the question's author
    ours = set(user_ids.values())
    taken = {profile.fixtures.question_id, profile.fixtures.member_wiki_node_id, profile.fixtures.wiki_node_id,
             profile.fixtures.favorite_node_id} | {n for pool in profile.pools.values() for n in pool}
    for page in range(1, QUESTION_PAGES + 1):
        resp = api["novice"].get("question.json", params={"page": page, "pageSize": 20}, operation="listQuestions")
        body = resp.json() if resp.status == 200 else None
        items = body.get("list") if isinstance(body, dict) else None
        if not isinstance(items, list) or not items:
            return None
        for q in items:
            author = (q.get("author") or {}).get("id") if isinstance(q, dict) else None
            if (isinstance(q.get("id"), int) and isinstance(author, int) and author not in ours
                    and q["id"] not in taken and q.get("wiki") is not True
                    and "closed" not in (q.get("nodeStates") or ())):
                return int(q["id"])
    return None
