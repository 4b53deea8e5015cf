"""member's shared comment to the original poster, posted under an answer to a question member wrote (round51, issue
44).

Every private comment of the run hung under an answer to the fixture question, which novice wrote (the shared answer,
suites/conftest.py ``private_comment_of``): "Use Private Comments plus one of Send private comments to original
poster, ..." holds whoever wrote the answer's question, yet no account holding an option ever commented privately on
an answer to its own question, so a server deciding the option on the commenter's relation to the question (the
original poster taken as sending to itself, round51-private-op-own-question-answer-403) passed. The permission
table's cell of member's to_original_poster, the stored-option check and COMMENT-4's parent read that one comment, so
it goes under the answer moderator posts to a question member wrote (``answer_under_members_question``, a write the
run makes anyway, and only where it was created, so the question takes posts): no write more, the same comment on
another parent, its replies and read-backs following it (``SharedWrite.node``). Where the run has no such answer, it
goes under the shared answer as before.
"""

from __future__ import annotations

import pytest

from qaconform.pytest.support import new_id

PLACED = ("member", "to_original_poster")
"""The (account, option) of the shared private comment placed under an answer to the account's own question."""


def parent(request: pytest.FixtureRequest, role: str, option: str) -> int | None:
    """The answer under a question member wrote for :data:`PLACED`; None for another pair, or where the run has
    none."""
    if (role, option) != PLACED:
        return None
    try:
        posted = request.getfixturevalue("answer_under_members_question")
    except pytest.skip.Exception:
        return None
    return new_id(posted.resp) if 200 <= posted.resp.status < 300 else None

