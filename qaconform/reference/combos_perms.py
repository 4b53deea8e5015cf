"""Where the planted faults of the three-value combinations bite (issue 44, combos; the entries, the cell each bites
at and the sentence each breaks are in :mod:`faults_combos`). A node action calls :func:`refuse_at_cell` once it
knows the node (the lock asks :func:`allowed_at_cell` whether it is let in); with no such fault on both return at
their first test.
"""

from __future__ import annotations

import sqlite3

from . import faults
from .auth import Caller
from .errors import denied
from .faults_combos import COMBINATIONS, Cell
from .service import Service


def _author(svc: Service, node_id: int | None) -> int | None:
    row = None if node_id is None else svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (node_id,))
    return None if row is None else int(row["author_id"])


def _relation(svc: Service, caller: Caller, node: sqlite3.Row) -> str:
    """The caller's relation to the node as the action matrix names it (its author; else its parent's or its
    question's author; else none). An answer's parent is its question: parent_author wins there."""
    if node["author_id"] == caller.id:
        return "author"
    if _author(svc, node["parent_id"]) == caller.id:
        return "parent_author"
    if _author(svc, node["question_id"]) == caller.id:
        return "question_author"
    return "none"


def _state(svc: Service, node: sqlite3.Row) -> str:
    if node["in_moderation"]:
        return "moderated"
    if node["locked"]:
        return "locked"
    question = svc.db.one("SELECT locked FROM nodes WHERE id = ?", (node["question_id"],))
    locked_question = node["type"] == "answer" and question is not None and bool(question["locked"])
    return "question_locked" if locked_question else "created"


def _at_cell(svc: Service, action: str, caller: Caller, node: sqlite3.Row, allow: bool) -> bool:
    cells = [cell.where for name, cell in COMBINATIONS.items()
             if faults.is_on(name) and cell.action == action and cell.allow == allow]
    if not cells or caller.anonymous:
        return False
    return Cell(action, caller.role, _relation(svc, caller, node), node["type"], _state(svc, node)).where in cells


def refuse_at_cell(svc: Service, action: str, caller: Caller, node: sqlite3.Row) -> None:
    """Refuse with 403 when a combination fault is on whose cell is this call's."""
    if _at_cell(svc, action, caller, node, allow=False):
        raise denied(caller.anonymous)


def allowed_at_cell(svc: Service, action: str, caller: Caller, node: sqlite3.Row) -> bool:
    """Whether a combination fault that lets a refused caller in is on for this call's cell."""
    return _at_cell(svc, action, caller, node, allow=True)
