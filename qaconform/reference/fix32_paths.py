"""Where the faults of fix32 (issue 44, :mod:`faults_fix32`) bite: a private reply in a question's own thread
stored public (comments.py), member's lock of an old answer of another's and of a question it commented on
(actions.py). Each returns its input unchanged unless its own fault is on."""

from __future__ import annotations

import sqlite3
from typing import Any

from . import auth, faults
from .auth import Caller
from .histories6_paths import STARTED

SETTINGS_DROPPED = "fix32-reply-public-question-thread-settings-dropped"
OLD_ANSWER = "fix32-lock-member-old-answer-allowed"
CONTRIBUTOR = "fix32-lock-own-contributor"


def stored_privacy(parent: sqlite3.Row, final: tuple[str, list[int]]) -> tuple[str, list[int]]:
    """A private reply to a public comment posted on a question (no answer above it) stored public."""
    if (faults.is_on(SETTINGS_DROPPED) and parent["type"] == "comment" and parent["visibility"] == "full"
            and parent["answer_id"] is None and final[0] != "full"):
        return "full", []
    return final


def lock_owns(db: Any, caller: Caller, node: sqlite3.Row) -> bool:
    """Whether a planted ownership check takes member for the owner: of an old published answer of another's under
    a question it did not write, or of a question it wrote a comment directly on."""
    if caller.anonymous or caller.can(auth.LOCK_ANY) or not caller.can(auth.LOCK_OWN):
        return False
    if faults.is_on(OLD_ANSWER) and node["type"] == "answer" and node["author_id"] != caller.id:
        asker = db.one("SELECT author_id FROM nodes WHERE id = ?", (node["question_id"],))
        if (int(node["creation_date"]) < STARTED and not node["in_moderation"] and not node["locked"]
                and (asker is None or asker["author_id"] != caller.id)):
            return True
    if faults.is_on(CONTRIBUTOR) and node["type"] == "question" and node["author_id"] != caller.id:
        return db.one("SELECT 1 FROM nodes WHERE parent_id = ? AND type = 'comment' AND author_id = ?",
                      (node["id"], caller.id)) is not None
    return False
