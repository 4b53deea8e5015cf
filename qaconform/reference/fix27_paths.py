"""Where the fix27 faults bite (issue 44; entries in :mod:`faults_fix27`): a reply under a private comment locked on
its own. Wired in :data:`request_hooks.HOOKS`; each function leaves the call as it is unless its fault is on."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .http_io import body_json, is_id, with_body
from .service import Service

_UNDER_LOCKED = ("SELECT 1 FROM nodes c JOIN nodes p ON p.id = c.parent_id WHERE c.id = ? AND c.type = 'comment'"
                 " AND p.type = 'comment' AND p.locked = 1 AND p.visibility <> 'full' AND c.creation_date >="
                 " (SELECT MAX(a.action_date) FROM actions a WHERE a.node_id = p.id AND a.verb = 'locked')")
"""A comment posted under a private comment after that comment was locked (the replies from before stay right)."""


def _under_locked(svc: Service, node_id: Any) -> bool:
    return isinstance(node_id, int) and svc.db.one(_UNDER_LOCKED, (node_id,)) is not None


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code not in (200, 201):
        return response
    if op == "postComment" and response.status_code == 201 and faults.is_on("fix27-reply-under-locked-stored-op"):
        _store_op(svc, request, caller)
    if op in ("listAnswerComments", "readComment") and faults.is_on("fix27-reply-under-locked-recipients-dropped"):
        return _recipients_dropped(svc, response)
    return response


def _store_op(svc: Service, request: Request, caller: Caller) -> None:
    raw = request.path_params.get("node_id", "")
    parent = svc.db.one("SELECT * FROM nodes WHERE id = ?", (int(raw),)) if is_id(raw) else None
    if parent is None or parent["type"] != "comment" or not parent["locked"] or parent["visibility"] == "full":
        return
    with svc.tx("comment") as conn:
        row = conn.execute("SELECT MAX(id) FROM nodes WHERE parent_id = ? AND author_id = ? AND type = 'comment'",
                           (parent["id"], caller.id)).fetchone()
        if row[0] is None:
            return
        sent = conn.execute("SELECT COUNT(*) FROM comment_recipients WHERE comment_id = ?", (row[0],)).fetchone()
        inherited = conn.execute("SELECT COUNT(*) FROM comment_recipients WHERE comment_id = ?",
                                 (parent["id"],)).fetchone()
        if sent[0] == inherited[0]:  # inherited, whichever form was sent
            conn.execute("UPDATE nodes SET visibility = 'op' WHERE id = ?", (row[0],))
            conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (row[0],))


def _recipients_dropped(svc: Service, response: Response) -> Response:
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) and "list" in body else [body]
    changed = False
    for item in items if isinstance(items, list) else ():
        if isinstance(item, dict) and item.get("recipients") and _under_locked(svc, _int(item.get("id"))):
            item["recipients"] = []
            changed = True
    return with_body(response, body) if changed else response


def _int(value: Any) -> int | None:
    return int(value) if isinstance(value, int) or (isinstance(value, str) and value.isdecimal()) else None
