"""accept22 (issue 44): member's answer whose body parameter wins goes under member's own community-wiki question.

"Caller has Answer questions and Publish answer | Published" names no exception for a community-wiki question, yet
no answer of a default run went to one: the answers go to the fixture question, member's own question, the locked
one and a child space's, and the profile's wiki nodes are one-shots the run unwikifies (round61-answer-to-wiki-
question-moderated: a server that sends answers to wiki threads to review passed). The interface makes no wiki
question, so the one the run may use is the profile's member_wiki_node_id, a question member wrote, while it is
still wiki: member's param_wins answer (suites/conftest.py ``OWN_QUESTION_ANSWER``, posted anyway, judged by the
answer form matrix's ANSWER-PUBLISHED) goes under it, which is also "a question its writer wrote", the relation that
answer was placed for. No write more. :func:`answer_first` makes the answer before anything changes the node
(admin's send of it on the seeds that draw it, member's unwikify); where the doctor did not find the node in its
state, or member's question list does not show it, the answer goes under member's other question, as before.
"""

from __future__ import annotations

import contextlib

import pytest

from qaconform.contract import path as contract_path
from qaconform.pytest.found_nodes import QUESTION_PAGES
from qaconform.pytest.support import charged_to_suites, find_listed, once_per_run
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

FIXTURE = "member_wiki_node_id"
ROLE, FORM = "member", "param_wins"
"""The shared answer placed under the wiki question (suites/conftest.py ``OWN_QUESTION_ANSWER``)."""


def wiki_question(request: pytest.FixtureRequest) -> int | None:
    """:data:`FIXTURE`'s node when the doctor found it wiki and member's question list shows it (bounded reads, once
    per run: every worker answers under the same one), else None."""
    profile: Profile = request.getfixturevalue("profile")

    def find() -> int:
        try:
            node = int(request.getfixturevalue("usable_fixture")(FIXTURE))
        except pytest.skip.Exception:
            return 0  # not in the profile, or not in its state (consumed by an earlier run)
        api: dict[str, ApiClient] = request.getfixturevalue("api")
        member = request.getfixturevalue("user_ids").get(ROLE)
        listed = None if member is None else find_listed(
            api["admin"], contract_path("listUserQuestions", userId=member), node, page_size=100,
            max_pages=QUESTION_PAGES)
        return node if listed is not None else 0

    found = int(once_per_run(request, profile.base_url, "wiki own question", find) or 0)
    return found or None


def answer_first(request: pytest.FixtureRequest) -> None:
    """member's param_wins answer, posted (once per run) before the one-shot calls that change :data:`FIXTURE`'s
    node; charged to the suites' share, whose write it is. A spent share leaves it to the test that asks later."""
    if wiki_question(request) is None:
        return
    with charged_to_suites(), contextlib.suppress(pytest.skip.Exception):
        request.getfixturevalue("answer_in")(ROLE, FORM)
