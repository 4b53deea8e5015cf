"""The action matrix's node in a state after two transitions (combos, issue 44): an answer as created whose question
is locked (node_state ``question_locked``). The interface creates no question and undoes no lock, so the node is the
run's shared answer of moderator's under the profile's ``locked_question_id`` (suites/conftest.py
``LOCKED_QUESTION_WRITER``: no write of its own), and the question's author, which decides the callers' relations to
the answer, is read from the accounts' question lists. Only calls that write nothing are drawn on it
(action_cases.py): the refusals, and the unfavorite and unwikify calls the answer's state refuses.
"""

from __future__ import annotations

from typing import Any

import pytest
from action_cases import ASSUMED_LOCKED_QUESTION_AUTHOR, PoolNode

from qaconform.contract import path as contract_path
from qaconform.pytest.found_nodes import QUESTION_PAGES
from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.pytest.support import answer_posted, find_listed
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile


def locked_question(profile: Profile) -> int:
    """The profile's locked question, or a skip naming the missing fixture."""
    locked = profile.fixtures.locked_question_id
    if locked is None:
        skip(SkipKind.MISSING_FIXTURE, "not judged: the profile names no [fixtures] locked_question_id (a question "
             "locked on the site that every account can view), so no answer stands under a locked question "
             "(node_state question_locked)")
    return int(locked)


def answer_under_locked_question(request: pytest.FixtureRequest, profile: Profile, node: PoolNode) -> int:
    """The id of ``node``'s author's shared answer under the profile's locked question; a skip naming the fixture
    when the profile names none, or the state when the target put the answer elsewhere (a refusal to answer a locked
    question is not shown either way: suites/conftest.py ``answer_in`` posts it under the fixture question then)."""
    locked = locked_question(profile)
    shared = request.getfixturevalue("answer_of")(node.author)
    if shared.node != locked:
        status = shared.refused.status if shared.refused is not None else shared.resp.status
        skip(SkipKind.FIXTURE_STATE, f"not judged: {node.author}'s answer to the locked question {locked} was not "
             f"posted there ({status}), so no answer stands under a locked question (node_state question_locked)")
    return answer_posted(shared.resp, f"to the locked question {locked}, for the action matrix")


def locked_question_author(api: dict[str, ApiClient], user_ids: dict[str, int], profile: Profile) -> str:
    """Which account wrote the profile's locked question (``?``: none of them), read from each account's question
    list (bounded, the pool's assumption first); a skip naming the fixture when the profile names none."""
    locked = locked_question(profile)
    roles = (ASSUMED_LOCKED_QUESTION_AUTHOR, *(r for r in ("admin", "moderator", "member", "novice")
                                                if r != ASSUMED_LOCKED_QUESTION_AUTHOR))
    for role in roles:
        uid: Any = user_ids.get(role)
        if uid is not None and find_listed(api["admin"], contract_path("listUserQuestions", userId=uid), locked,
                                           page_size=100, max_pages=QUESTION_PAGES) is not None:
            return role
    return "?"
