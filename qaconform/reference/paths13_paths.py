"""Where paths13's own-node fault bites (issue 44; the entry and the sentence it breaks: :mod:`faults_paths13`): one
call in actions.lock (:func:`lock_owns`), a no-op unless its fault is on. The anonymous faults: :mod:`paths13_doors`.
"""

from __future__ import annotations

import sqlite3

from . import faults
from .auth import Caller
from .db import Database


def lock_owns(db: Database, caller: Caller, node: sqlite3.Row) -> bool:
    """paths13-lock-own-from-comment-under-it: an answer under which the caller wrote a comment taken as its own."""
    if node["type"] != "answer" or not faults.is_on("paths13-lock-own-from-comment-under-it"):
        return False
    return db.one("SELECT 1 FROM nodes WHERE parent_id = ? AND type = 'comment' AND author_id = ?",
                  (node["id"], caller.id)) is not None

