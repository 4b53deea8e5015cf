"""Where the planted faults of the node actions on nodes written before the run bite (issue 44, histories6; entries in
:mod:`faults_histories6`). Every helper checks ``faults.is_on`` first, so a fault costs a set lookup when off.

"Before the run" is before this server process started (:data:`STARTED`): the seed's nodes, which the profile's
accounts wrote; every node a run posts is newer.
"""

from __future__ import annotations

import sqlite3

from . import auth, faults
from .auth import Caller
from .errors import denied
from .service import Service, now_ms

STARTED = now_ms()
"""When the server process started (the module is imported at start-up)."""


def _old(node: sqlite3.Row) -> bool:
    return int(node["creation_date"]) < STARTED


def _author(svc: Service, node_id: int | None) -> int | None:
    row = None if node_id is None else svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (node_id,))
    return None if row is None else int(row["author_id"])


def _published(node: sqlite3.Row) -> bool:
    return not node["in_moderation"] and not node["locked"]


def _stranger(svc: Service, caller: Caller, node: sqlite3.Row) -> bool:
    """The caller wrote neither the node, its parent nor its question."""
    return caller.id not in (node["author_id"], _author(svc, node["parent_id"]), _author(svc, node["question_id"]))


# --- lock (actions.py) -------------------------------------------------------------------------------------------
def lock_door(caller: Caller, node: sqlite3.Row) -> None:
    """h6-lock-novice-old-answer-allowed: the door let novice in; only an old published answer passes, as if the
    caller held Lock comments on posts."""
    if (not faults.is_on("h6-lock-novice-old-answer-allowed") or caller.can(auth.LOCK_ANY)
            or caller.can(auth.LOCK_OWN)):
        return
    if not (node["type"] == "answer" and _old(node) and _published(node)):
        raise denied(caller.anonymous)


def lock_any(caller: Caller, node: sqlite3.Row) -> bool:
    """h6-lock-novice-old-answer-allowed: the any-node grant held for an old published answer (lock_door let only
    those in)."""
    return (faults.is_on("h6-lock-novice-old-answer-allowed") and caller.role == "novice"
            and node["type"] == "answer" and _old(node) and _published(node))


def lock_owns(svc: Service, caller: Caller, node: sqlite3.Row) -> bool:
    """h6-lock-member-old-comment-allowed: an old public comment of a stranger's counts as the caller's own."""
    return (faults.is_on("h6-lock-member-old-comment-allowed") and caller.role == "member"
            and node["type"] == "comment" and node["visibility"] == "full" and _old(node) and _published(node)
            and _stranger(svc, caller, node))


# --- send to moderation (actions.py) -----------------------------------------------------------------------------
def sendtomod_door(svc: Service, caller: Caller, node: sqlite3.Row) -> None:
    """h6-sendtomod-member-old-answer-allowed (member in on a stranger's old published answer) and
    h6-refused-sendtomod-novice-old-answer-moved (novice's send of an old published answer moved, then refused):
    the door let the role in; every other node is refused here."""
    if caller.can(auth.SEND_TO_MODERATION) or caller.anonymous:
        return
    old_answer = node["type"] == "answer" and _old(node) and _published(node)
    if caller.role == "member" and faults.is_on("h6-sendtomod-member-old-answer-allowed"):
        if not (old_answer and _stranger(svc, caller, node)):
            raise denied(caller.anonymous)
    if caller.role == "novice" and faults.is_on("h6-refused-sendtomod-novice-old-answer-moved"):
        if old_answer:
            with svc.tx() as conn:
                conn.execute("UPDATE nodes SET in_moderation = 1 WHERE id = ?", (node["id"],))
        raise denied(caller.anonymous)
