"""Questions found on the target with reads, for the relations the run cannot write (issue 44).

The interface creates no question, so a question one of the profile's accounts wrote can only be found among what
the target lists. The finder reads a bounded number of pages and skips the profile's fixtures and pools, so a found
node is never one another test changes. Only questions the profile's own accounts wrote are ever found: the kit
writes only under the profile's fixtures, its accounts' questions and what the run created, so a question nobody of
the profile wrote is never the target of a call, not even one the permission table refuses (a server that wrongly
takes it would change a stranger's post).
"""
from __future__ import annotations

from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

QUESTION_PAGES = 3
"""Pages of an account's question list read (20 a page) to find a question to act under (bounded)."""


def question_of(role: str, api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int]) -> int | None:
    """A question ``role`` wrote that novice lists (so every signed-in account reads it), not wiki, not closed and no
    fixture of the profile: found with reads, since the interface cannot create a question. None when there is none."""
    uid = user_ids.get(role)
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


def members_question(api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int]) -> int | None:
    """:func:`question_of` member: the question under which moderator's answer makes member its parent's author."""
    return question_of("member", api, profile, user_ids)


def novices_question(api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int]) -> int | None:
    """:func:`question_of` novice, other than the fixture question: one on which member stands in no relation. The
    fixture question, novice's too, is never locked nor sent, so it cannot give the refusals of a lock or a send of
    another's question; novice holds neither permission, so every call drawn on it is refused."""
    return question_of("novice", api, profile, user_ids)


def question_or_skip(role: str, question: int | None) -> int:
    """A found question of ``role``'s, or a skip saying why not judged (never a failure: the target may hold none)."""
    if question is None:
        skip(SkipKind.OTHER, f"not judged: {role} wrote no question novice lists that is not wiki, closed or a "
                             f"fixture ({QUESTION_PAGES} pages of {role}'s question list read)")
    return question
