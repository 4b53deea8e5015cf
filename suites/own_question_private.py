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

accept23 (issue 44, round65-comment-mod-option-child-space-refused): every private-option comment of the run hung
under a node of one space, the fixture question's (a root space): "Use Private Comments plus one of ..., Send private
comments to moderators, ..." names no space, and a server reading the option from the child space's own (empty)
settings instead of its parent's passed. member's shared to_moderators comment (:data:`IN_CHILD_SPACE`, posted anyway
for the permission cell, the stored-option check and COMMENT-4) goes under admin's shared answer where the run
posted that one in a child space (found_nodes.child_space_or, blind12), BEFORE moderator's shared lock of that
answer (:func:`before_lock`: what a lock does to new comments is not shown): no write more. Elsewhere (no child space
found, admin's answer not created) it goes under the shared answer as before.
"""

from __future__ import annotations

import contextlib

import pytest

from qaconform.pytest.found_nodes import CHILD_SPACE_WRITER
from qaconform.pytest.support import new_id

PLACED = ("member", "to_original_poster")
"""The (account, option) of the shared private comment placed under an answer to the account's own question."""


IN_CHILD_SPACE = ("member", "to_moderators")
"""accept23: the (account, option) of the shared private comment placed under :data:`CHILD_SPACE_WRITER`'s shared
answer when that one is in a child space."""
LOCKER = "moderator"
"""Whose shared lock acts on :data:`CHILD_SPACE_WRITER`'s answer (suites/conftest.py ``LOCKS``)."""


def parent(request: pytest.FixtureRequest, role: str, option: str) -> int | None:
    """The answer under a question member wrote for :data:`PLACED`, admin's shared answer in a child space for
    :data:`IN_CHILD_SPACE`; None for another pair, or where the run has none."""
    if (role, option) == IN_CHILD_SPACE:
        return _child_space_answer(request)
    if (role, option) != PLACED:
        return None
    try:
        posted = request.getfixturevalue("answer_under_members_question")
    except pytest.skip.Exception:
        return None
    return new_id(posted.resp) if 200 <= posted.resp.status < 300 else None



def _child_space_answer(request: pytest.FixtureRequest) -> int | None:
    """:data:`CHILD_SPACE_WRITER`'s shared answer where the run posted it under a question in a child space (not the
    fixture question) and it was created; else None."""
    try:
        posted = request.getfixturevalue("answer_of")(CHILD_SPACE_WRITER)
    except pytest.skip.Exception:
        return None
    if not 200 <= posted.resp.status < 300 or posted.node in (None, request.getfixturevalue("question_id")):
        return None
    return new_id(posted.resp)


def before_lock(request: pytest.FixtureRequest, role: str) -> None:
    """member's shared comment of :data:`IN_CHILD_SPACE`, posted (once per run) before :data:`LOCKER`'s shared lock
    of the answer it may go under (suites/conftest.py ``locked_by`` calls this inside its lock's call); nothing for
    another locker, or when the profile gives no wire value for the option (the option's own tests say so)."""
    if role == LOCKER:
        with contextlib.suppress(pytest.skip.Exception):
            request.getfixturevalue("private_comment_of")(*IN_CHILD_SPACE)
