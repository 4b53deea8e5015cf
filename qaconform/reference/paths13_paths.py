"""Where the faults of paths13 bite (issue 44; the entries and the sentences they break: :mod:`faults_paths13`).

Each hook is a no-op unless its fault is on and names its fault literally (the self-test checks every registered name
appears in the server code). Called from actions.lock (:func:`lock_owns`) and actions.cancel_wiki
(:func:`cancelwiki_unchecked`).
"""

from __future__ import annotations

import sqlite3

from . import faults
from .auth import Caller
from .db import Database


def lock_owns(db: Database, caller: Caller, node: sqlite3.Row) -> bool:
    """paths13-anonymous-lock-question: anonymous let in on a question; paths13-lock-own-from-comment-under-it: a
    an
    answer under which the caller wrote a comment taken as its own."""
    if caller.anonymous:
        return node["type"] == "question" and faults.is_on("paths13-anonymous-lock-question")
    if node["type"] != "answer" or not faults.is_on("paths13-lock-own-from-comment-under-it"):
        return False
    return db.one("SELECT 1 FROM nodes WHERE parent_id = ? AND type = 'comment' AND author_id = ?",
                  (node["id"], caller.id)) is not None


def cancelwiki_unchecked(db: Database, caller: Caller, node: sqlite3.Row) -> int | None:
    """paths13-anonymous-cancelwiki-once-wiki: for anonymous on a node that is no longer wiki, the canceled wikify
    record it had (answered as if unwikified again, before any permission check); None otherwise."""
    if not caller.anonymous or node["wiki"] or not faults.is_on("paths13-anonymous-cancelwiki-once-wiki"):
        return None
    row = db.one("SELECT id FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled = 1"
                 " ORDER BY id DESC LIMIT 1", (node["id"],))
    return None if row is None else int(row[0])
