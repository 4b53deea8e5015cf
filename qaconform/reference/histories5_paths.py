"""Where the planted faults of a private reply under a public comment bite (issue 44, histories5; entries in
:mod:`faults_histories5`). Every helper checks ``faults.is_on`` first, so a fault costs a set lookup when off."""

from __future__ import annotations

import sqlite3

from . import faults
from .db import Database

_UNDER_PUBLIC = ("EXISTS (SELECT 1 FROM nodes p WHERE p.id = {n}.parent_id AND p.type = 'comment'"
                 " AND p.visibility = 'full')")
"""The node's parent is a public comment (``{n}``: the alias of the node)."""

_INHERITED_UNDER_PUBLIC = (
    "(n.type = 'comment' AND n.visibility <> 'full' AND EXISTS (SELECT 1 FROM nodes r WHERE r.id = n.parent_id"
    " AND r.type = 'comment' AND r.visibility <> 'full' AND " + _UNDER_PUBLIC.format(n="r") + "))")
"""A private comment whose parent is a private reply to a public comment."""


# --- posting (comments.py) -----------------------------------------------------------------------------------
def stored_privacy(db: Database, parent: sqlite3.Row, decided: tuple[str, list[int]]) -> tuple[str, list[int]]:
    """h5-reply-under-public-parent-stored-public: a reply to a private reply whose parent is public stored public."""
    if (not faults.is_on("h5-reply-under-public-parent-stored-public") or parent["type"] != "comment"
            or parent["visibility"] == "full" or parent["parent_id"] is None):
        return decided
    above = db.one("SELECT type, visibility FROM nodes WHERE id = ?", (parent["parent_id"],))
    if above is not None and above["type"] == "comment" and above["visibility"] == "full":
        return "full", []
    return decided


# --- lists (node_lists.py) -----------------------------------------------------------------------------------
def answer_comments_clause(clause: str) -> str:
    """h5-inherited-reply-under-public-listed-to-all (such a reply unfiltered in the answer's comment list) and
    h5-moderated-private-comment-listed-to-all (a private comment in moderation unfiltered there)."""
    if faults.is_on("h5-inherited-reply-under-public-listed-to-all"):
        clause = f"({clause} OR {_INHERITED_UNDER_PUBLIC})"
    if faults.is_on("h5-moderated-private-comment-listed-to-all"):
        clause = f"({clause} OR (n.type = 'comment' AND n.in_moderation = 1 AND n.visibility <> 'full'))"
    return clause


def content_clause(clause: str) -> str:
    """h5-inherited-reply-under-public-content-leak: such a reply unfiltered in its author's content list."""
    if faults.is_on("h5-inherited-reply-under-public-content-leak"):
        return f"({clause} OR {_INHERITED_UNDER_PUBLIC})"
    return clause


# --- actions (actions.py) ------------------------------------------------------------------------------------
def sendtomod_record(conn: sqlite3.Connection, node: sqlite3.Row, action_id: int) -> None:
    """h5-sendtomod-private-comment-realuser-author (a private comment's record names its author as realUser) and
    h5-sendtomod-private-comment-node-parent (a private reply's record names its parent comment as node)."""
    if node["type"] != "comment" or node["visibility"] == "full":
        return
    if faults.is_on("h5-sendtomod-private-comment-realuser-author"):
        conn.execute("UPDATE actions SET real_user_id = ? WHERE id = ?", (node["author_id"], action_id))
    parent = conn.execute("SELECT type FROM nodes WHERE id = ?", (node["parent_id"],)).fetchone()
    if faults.is_on("h5-sendtomod-private-comment-node-parent") and parent is not None and parent[0] == "comment":
        conn.execute("UPDATE actions SET node_id = ? WHERE id = ?", (node["parent_id"], action_id))
