"""The node lists' paths at a question of each kind (round82, issue 44): test_list_access.py's ``kind_paths``, read
once per run for list_access.kind_rows. A module of its own so that the test module stays under the size limit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from list_access import KIND_PATH

from qaconform.contract import path as contract_path
from qaconform.pytest.exchange_log import outside_tests
from qaconform.pytest.support import list_all
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

KIND_TESTS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "wiki": lambda q: q.get("wiki") is True, "marked": lambda q: q.get("marked") is True,
    "child-space": lambda q: isinstance(q.get("containerIds"), list) and len(q["containerIds"]) > 1}
"""How a question of each of list_access.NODE_KINDS (the same names, in order) shows in the question list (its
Node fields)."""


def kind_paths(api: dict[str, ApiClient], profile: Profile, page_size: int) -> dict[str, str]:
    """"<operationId> <kind>" -> the path of a node list (list_access.KIND_PATH) at a question of each kind: the
    question's followers, its first answer's comments. The question is one every reader lists (read as novice where
    it exists), one no fixture names first (a fixture's state changes during the run); for the comments, the first
    such question that has an answer."""
    reader = next(api[r] for r in ("novice", "member", "admin") if r in api)
    fixtures = {v for v in profile.fixtures.model_dump().values() if isinstance(v, int)}
    with outside_tests():
        questions = list_all(reader, contract_path("listQuestions"), page_size=page_size, max_pages=1)
    out: dict[str, str] = {}
    for kind, test in KIND_TESTS.items():
        found = sorted((q for q in questions if isinstance(q, dict) and str(q.get("id")).isdecimal() and test(q)),
                       key=lambda q: (int(q["id"]) in fixtures, int(q["id"])))
        if found:
            out[f"listNodeFollowers {kind}"] = contract_path("listNodeFollowers", nodeId=found[0]["id"])
        answered = [a for q in found for a in (q.get("answers") or [])[:1] if str(a).isdecimal()]
        if answered:
            out[f"listAnswerComments {kind}"] = contract_path("listAnswerComments", answerId=answered[0])
    return {k: v for k, v in out.items() if k.split()[0] in KIND_PATH}


ANSWER_STATES: dict[str, Callable[[dict[str, Any]], bool]] = {
    "wiki": lambda a: a.get("wiki") is True,
    "accepted": lambda a: a.get("marked") is True or "accepted" in (a.get("nodeStates") or []),
    "child-space": lambda a: isinstance(a.get("containerIds"), list) and len(a["containerIds"]) > 1}
"""shapes25 (issue 44): the states of an ANSWER its Node fields show (``wiki`` "true when the node is community-wiki",
``marked`` "true on an accepted answer", nodeStates "accepted", ``containerIds`` "the space and its parent": an answer
in a child space), whose comment lists test_operation_shapes.py judges against the list's schema."""
LISTED_PAGE_SIZE = 100
"""The page size of the answer lists read for :func:`answer_state_paths`."""
ANSWER_LISTERS = ("moderator", "admin", "member", "novice")
"""The accounts whose answer lists (first page) are read for an answer of each state."""


def answer_state_paths(api: dict[str, ApiClient], user_ids: dict[str, int], page_size: int) -> dict[str, str]:
    """shapes25 (issue 44): state -> the comment list's path of the answer of that state (:data:`ANSWER_STATES`) with
    the most comments (commentIds) among the first page of each :data:`ANSWER_LISTERS` account's answer list, read
    as admin (or the first account the run has); a state no listed answer is in has no path."""
    reader = next((api[r] for r in ("admin", "moderator", "member") if r in api), None)
    if reader is None:
        return {}
    answers: list[dict[str, Any]] = []
    with outside_tests():
        for role in ANSWER_LISTERS:
            if role in user_ids:
                answers += list_all(reader, contract_path("listUserAnswers", userId=user_ids[role]),
                                    page_size=page_size, max_pages=1)
    out: dict[str, str] = {}
    for state, test in ANSWER_STATES.items():
        found = [a for a in answers if isinstance(a, dict) and str(a.get("id")).isdecimal() and test(a)]
        if found:
            best = max(found, key=lambda a: (len(a.get("commentIds") or []), -int(a["id"])))
            out[state] = contract_path("listAnswerComments", answerId=best["id"])
    return out
