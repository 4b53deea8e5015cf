"""A plain comment on an answer in moderation (budget24, issue 44: histories no accepted write reached).

Every plain comment of a run went under a published node: novice's answers (held in moderation: novice lacks Publish
answer) took none, and the privacy model's answer is sent to moderation at its close, after which only refusals are
sent. Rule 1 of "1. Post a comment" names no parent state: "Without visibility and recipients the comment has full
visibility and no recipients, and a later GET returns exactly that." So novice, the answer's author (Comment is
every signed-in account's), comments once on its own shared answer (suites/conftest.py ``answer_of``), once per run
and target: one accepted write of the suites' share, paid by the openapi fixture reading the shared answer
(docs/write-audit.md, budget24). Whether an answer in moderation takes comments at all is not shown (the state
table's "(new comment)" row names a public node or a question), so a refusal is not judged;
suites/scenarios/test_moderated_answer_comment.py judges an accepted one.
"""

from __future__ import annotations

from typing import Any

import pytest

from qaconform.pytest.support import post_comment
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

from .option_forms import shared
from .shared_write import SharedWrite

WRITER = "novice"
"""The answer's author and the comment's: the one account without Publish answer, so its answer is held in
moderation ("Caller has Answer questions but not Publish answer | In the moderation queue")."""
TEXT = "plain comment by novice on its own answer in moderation"


@pytest.fixture(scope="session")
def comment_on_moderated_answer(request: pytest.FixtureRequest, api: dict[str, ApiClient], run_tag: str,
                                created: Any, profile: Profile) -> SharedWrite | None:
    """novice's plain comment (no visibility, no recipients) on novice's shared answer; None when that answer was
    not created (then nothing is held in moderation to comment on)."""
    answer = request.getfixturevalue("answer_of")(WRITER).id
    if answer is None:
        return None
    resp = shared(request, profile, f"comment of {WRITER} on its answer in moderation",
                  lambda: post_comment(api[WRITER], int(answer), run_tag, created, text=TEXT))
    return SharedWrite(resp, TEXT, int(answer))
