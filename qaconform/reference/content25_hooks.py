"""Where content25's faults bite (faults_content25.py, issue 44): a user's content list (operation 8) shows some of
the user's comments of a private option to every reader, each on one path. Every function leaves the call as it is
unless its own fault is on.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .fragments import dumps
from .hook_kit import after_by_op
from .http_io import body_json, with_body
from .service import Service


def _op_on_question(svc: Service, caller: Caller, r: sqlite3.Row) -> bool:
    """content25-op-comment-on-question-listed: the op filter joins through the answer, so a comment whose parent is
    the question itself matches no filter row."""
    return r["visibility"] == "op" and r["parent_id"] == r["question_id"]


def _op_by_question_author(svc: Service, caller: Caller, r: sqlite3.Row) -> bool:
    """content25-op-comment-by-question-author-listed: a note to the original poster by the original poster itself
    is taken for an unrestricted one."""
    if r["visibility"] != "op" or not r["question_id"]:
        return False
    q = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (r["question_id"],))
    return q is not None and q["author_id"] == r["author_id"]


def _group_of_parent_author(svc: Service, caller: Caller, r: sqlite3.Row) -> bool:
    """content25-group-comment-parent-author-groups: the group filter compares the reader's groups with those of the
    comment's PARENT's author instead of the comment's own author."""
    if r["visibility"] != "group" or not r["parent_id"] or caller.anonymous or not caller.group_ids:
        return False
    parent = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (r["parent_id"],))
    if parent is None:
        return False
    marks = ",".join("?" * len(caller.group_ids))
    return svc.db.one(f"SELECT 1 FROM user_groups WHERE user_id = ? AND group_id IN ({marks})",
                      (parent["author_id"], *sorted(caller.group_ids))) is not None


_LISTED: tuple[tuple[str, Any], ...] = (
    ("content25-op-comment-on-question-listed", _op_on_question),
    ("content25-op-comment-by-question-author-listed", _op_by_question_author),
    ("content25-group-comment-parent-author-groups", _group_of_parent_author),
)


def _content(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """The listed user's private comments a fault lets through, merged into the list in its order."""
    on = [test for name, test in _LISTED if faults.is_on(name)]
    body = body_json(response)
    raw = str(request.path_params.get("user_id", ""))
    if not on or not isinstance(body, list) or not raw.isdecimal():
        return response
    from .node_lists import _node_entry  # noqa: PLC0415 - the handler's own entry builder

    shown = {e["node"]["id"] for e in body if isinstance(e, dict) and isinstance(e.get("node"), dict)}
    rows = [r for r in svc.db.conn.execute(
        "SELECT * FROM nodes WHERE author_id = ? AND type = 'comment' AND visibility IN ('op', 'group')", (int(raw),))
        if r["id"] not in shown and any(test(svc, caller, r) for test in on)]
    if not rows:
        return response
    nodes = [e for e in body if isinstance(e, dict) and isinstance(e.get("node"), dict)]
    others = [e for e in body if not (isinstance(e, dict) and isinstance(e.get("node"), dict))]
    created = {r["id"]: r["creation_date"] for r in svc.db.conn.execute(
        f"SELECT id, creation_date FROM nodes WHERE id IN ({','.join('?' * len(shown))})", tuple(shown))} \
        if shown else {}
    oldest_first = bool(nodes) and len(nodes) > 1 and \
        created.get(nodes[0]["node"]["id"], 0) <= created.get(nodes[-1]["node"]["id"], 0)
    added = [(r["creation_date"], r["id"], json.loads(dumps(_node_entry(r)))) for r in rows]
    keyed = [(created.get(e["node"]["id"], 0), e["node"]["id"], e) for e in nodes] + added
    keyed.sort(key=lambda t: (t[0], t[1]), reverse=not oldest_first)
    return with_body(response, [*others, *(e for _, _, e in keyed)])


after = after_by_op({"listUserContent": _content})
