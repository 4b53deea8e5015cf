"""hist26 (issue 44 item 2): member's unwikify of another account's wiki question right after member's comment under
one of its ANSWERS is refused (suites/contract/thread_commenter.py places the run's learned comment there and tries
the unwikify; round94-cancelwiki-thread-commenter-owns: "own" read from the caller's posts anywhere in the thread).
"""

from __future__ import annotations

import pytest
from thread_commenter import refusal, response

from qaconform.pytest.outcomes import SkipKind, expect, skip
from qaconform.pytest.refusals import refused as refused_by_interface
from qaconform.pytest.refusals import why_not_refused

pytestmark = [pytest.mark.writes]


@pytest.mark.rule("PERM-CANCELWIKI-OWN")
def test_unwikifying_anothers_wiki_question_member_commented_under_an_answer_of_is_refused(
        request: pytest.FixtureRequest) -> None:
    """'| 11 Unwikify | Mark as community wiki; for the caller's own node, Convert own posts to community wiki. |':
    member holds the second only, and a comment of member's under an answer of the question does not make the question
    member's, so the unwikify is refused (401 or 403; the node is wiki, as the question list showed it right before,
    so only the permission can refuse it)."""
    got = refusal(request)
    if "why" in got:
        skip(SkipKind.FIXTURE_STATE, f"not judged: {got['why']} (thread_commenter.py)")
    resp = response(got)
    expect(refused_by_interface(resp, (401, 403)), "PERM-CANCELWIKI-OWN",
           f"member lacks Mark as community wiki and wrote neither question {got['question']} nor its answer "
           f"{got['answer']}, only comment {got['comment']} under that answer, so its unwikify of the question must be "
           f"refused (401 or 403); {why_not_refused(resp, (401, 403))}", resp)
