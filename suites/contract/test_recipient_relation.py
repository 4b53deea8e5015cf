"""member's lock of a comment private to it, written by another account, found with reads (round32, issue 44:
"own" read as "a party of the comment" let member lock a comment addressed to it; the action matrix crosses the
caller's relation with the node's author, its parent's author, its question's author and none, on public nodes).

"| 13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation Roles). |":
member holds Lock comments on own posts only, so a comment another account wrote is not member's to lock, whoever it
is private to. The privacy model tries it on its own subtree when its draw makes member a recipient
(suites/properties/recipient_relation.py); here it is tried whatever the draw, on comments the accounts wrote before
the run under the fixture question's answers, found in the accounts' answer lists (member reads them: it is a
recipient), never one a run wrote (no run tag: the model locks some of its own, and the answer to a repeat is not
shown). Only refused calls are sent: a
conforming target refuses each (any 4xx), so no write is spent; a target that takes one locks a comment under the
profile's fixture question, where the kit writes anyway.
"""

from __future__ import annotations

from typing import Any

import pytest

from qaconform.contract import path as contract_path
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.refusals import why_not_refused
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.actions, pytest.mark.writes, pytest.mark.refused_writes]

ANSWERS_READ = 12
"""Answers of the fixture question (found in the accounts' answer lists) whose comment lists member reads."""
TRIED = 3
"""Comments private to member tried at most (each a refused lock)."""
WRITERS = ("admin", "moderator", "member", "novice")
"""The accounts whose answer lists are read for the fixture question's answers."""
RUN_TAG_MARK = "[qc-"
"""What a body the kit wrote carries (found_relations.RUN_TAG_MARK): such a comment is some run's."""


def _ids(value: Any) -> list[str]:
    return [str(r.get("id")) for r in value if isinstance(r, dict)] if isinstance(value, list) else []


def private_to_member(api: dict[str, ApiClient], question_id: int, user_ids: dict[str, int],
                      recipients_value: str) -> list[dict[str, Any]]:
    """Comments under the fixture question's answers (found in the accounts' answer lists, as found_relations.py finds
    nodes: no run's answer) that member reads, private to member (visibility recipients naming member's id) and written
    by another account before the run."""
    member, member_id = api["member"], user_ids["member"]
    answers: list[int] = []
    for role in WRITERS:
        if user_ids.get(role) is None:
            continue
        resp = member.get(contract_path("listUserAnswers", userId=user_ids[role]), params={"pageSize": 100})
        body = resp.json() if resp.status == 200 else None
        answers += [a["id"] for a in (body.get("list") or [] if isinstance(body, dict) else [])
                    if isinstance(a, dict) and isinstance(a.get("id"), int) and RUN_TAG_MARK not in str(a.get("body"))
                    and str(a.get("originalParentId", a.get("parentId"))) == str(question_id)]
    found: list[dict[str, Any]] = []
    for answer in answers[:ANSWERS_READ]:
        resp = member.get(contract_path("listAnswerComments", answerId=answer), params={"pageSize": 100})
        body = resp.json() if resp.status == 200 else None
        for c in body.get("list") or [] if isinstance(body, dict) else []:
            author = c.get("author") if isinstance(c, dict) else None
            if (isinstance(author, dict) and str(author.get("id")) != str(member_id)
                    and c.get("visibility") == recipients_value and str(member_id) in _ids(c.get("recipients"))
                    and RUN_TAG_MARK not in str(c.get("body"))):
                found.append(c)
    return found[:TRIED]


@pytest.mark.rule("PERM-LOCK-OWN")
def test_member_may_not_lock_a_comment_of_anothers_that_is_private_to_it(
        api: dict[str, ApiClient], question_id: int, user_ids: dict[str, int], profile: Profile, run_tag: str) -> None:
    member_id = user_ids.get("member")
    recipients_value = profile.visibility.recipients
    if member_id is None or recipients_value is None:
        skip(SkipKind.MISSING_FIXTURE, "not checked: needs member's id and the wire value of visibility recipients "
                                       "in the profile", fixtures=["accounts.member.id"])
    found = private_to_member(api, question_id, user_ids, recipients_value)
    if not found:
        skip(SkipKind.OTHER, f"not checked: no comment private to member and written by another account before the "
                             f"run under the first {ANSWERS_READ} answers of question {question_id}; the privacy "
                             f"model tries the relation on its own comments when its draw gives one")
    for c in found:
        resp = api["member"].put(contract_path("lockNode", nodeId=c["id"]),
                                 params={"prompt": f"recipient's lock [{run_tag}]"}, operation="lockNode")
        if (why := why_not_refused(resp)) is not None:
            fail(["PERM-LOCK-OWN"], f"member locked comment {c['id']}, written by {c['author'].get('username')!r} "
                 f"and private to {_ids(c.get('recipients'))} (member among them): Lock comments on own posts admits "
                 f"the caller's own node only, and a comment addressed to member is not member's; it must be refused "
                 f"(4xx); {why}", resp)
