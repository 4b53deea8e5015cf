"""Where after25's faults bite (faults_after25.py, issue 44): a private comment on a node whose wiki action was
canceled before, one option and one rule each (request_hooks.HOOKS runs these stages). Every function leaves the call
as it is unless its own fault is on.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .hook_kit import path_node, sent_fields
from .http_io import body_json, json_response
from .service import Service

RECIPIENTS_DROPPED = "after25-recipients-comment-after-unwikify-recipients-dropped"
OP_AS_RECIPIENTS = "after25-op-comment-after-unwikify-returned-as-recipients"
IN_CONTENT = "after25-recipients-comment-after-unwikify-in-authors-content"
_UNWIKIFIED = "SELECT 1 FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled = 1"


def _unwikified(svc: Service, node_id: Any) -> bool:
    return node_id is not None and svc.db.one(_UNWIKIFIED, (node_id,)) is not None


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postComment" and (faults.is_on(RECIPIENTS_DROPPED) or faults.is_on(OP_AS_RECIPIENTS)):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
        return None
    if op != "listUserContent" or not faults.is_on(IN_CONTENT):
        return None
    shown: Response = await handler(svc, request, caller)
    raw = request.path_params.get("user_id", "")
    body = body_json(shown)
    if shown.status_code != 200 or not isinstance(body, list) or not str(raw).isdecimal() or int(raw) == caller.id:
        return shown
    as_author: Response = await handler(svc, request, dataclasses.replace(caller, id=int(raw)))
    theirs = body_json(as_author)
    if as_author.status_code != 200 or not isinstance(theirs, list):
        return shown
    have = {str(e["node"].get("id")) for e in body if isinstance(e, dict) and isinstance(e.get("node"), dict)}
    for entry in theirs:
        node = entry.get("node") if isinstance(entry, dict) else None
        if not isinstance(node, dict) or str(node.get("id")) in have:
            continue
        row = svc.db.one("SELECT parent_id, visibility FROM nodes WHERE id = ? AND type = 'comment'",
                         (node.get("id"),))
        if row is not None and row["visibility"] == "recipients" and _unwikified(svc, row["parent_id"]):
            body.append(entry)  # the unwikified node's comments indexed as the wiki's were: public
    headers = {k: v for k, v in shown.headers.items() if k.lower() not in ("content-length", "content-type")}
    return json_response(body, 200, headers)


# --- after: the handler's response changed --------------------------------------------------------------------
def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if op != "postComment" or response.status_code != 201 or not (faults.is_on(RECIPIENTS_DROPPED)
                                                                   or faults.is_on(OP_AS_RECIPIENTS)):
        return response
    parent = path_node(svc, request)
    if parent is None or not _unwikified(svc, parent["id"]):
        return response
    row = svc.db.one("SELECT id, visibility FROM nodes WHERE parent_id = ? AND type = 'comment' AND author_id = ? "
                     "ORDER BY id DESC LIMIT 1", (parent["id"], caller.id))
    if row is None:
        return response
    sent = sent_fields(request).get("visibility")
    if faults.is_on(RECIPIENTS_DROPPED) and sent == "recipients":
        with svc.tx("comment") as conn:
            conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (row["id"],))
    if faults.is_on(OP_AS_RECIPIENTS) and sent == "op":
        with svc.tx("comment") as conn:
            conn.execute("UPDATE nodes SET visibility = 'recipients' WHERE id = ?", (row["id"],))
            conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (row["id"],))
            conn.execute("INSERT INTO comment_recipients(comment_id, user_id) VALUES (?, ?)",
                         (row["id"], parent["author_id"]))
    return response
