"""Where budget24's faults bite (faults_budget24.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .hook_kit import handled_with, path_node, sent_fields
from .http_io import body_json, with_body
from .service import Service
from .visibility import wire_name

_PRIVACY = ("visibility", "recipients")


def _recipient_of_a_comment(svc: Service, node: Any, caller: Caller) -> bool:
    return svc.db.one("SELECT 1 FROM comment_recipients r JOIN nodes c ON c.id = r.comment_id "
                      "WHERE r.user_id = ? AND c.parent_id = ?", (caller.id, node["id"])) is not None


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postComment" and faults.is_on("budget24-moderated-answer-comment-private-to-author"):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if caller.anonymous or op not in ("lockNode", "cancelWiki"):
        return None
    node = path_node(svc, request)
    if node is None or not node["wiki"] or node["author_id"] == caller.id:
        return None
    if op == "lockNode" and faults.is_on("budget24-lock-wiki-by-comment-recipient") \
            and caller.can(auth.LOCK_OWN) and not caller.can(auth.LOCK_ANY) \
            and _recipient_of_a_comment(svc, node, caller):
        return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)
    if op == "cancelWiki" and faults.is_on("budget24-cancelwiki-own-by-recipient-with-option") \
            and caller.can(auth.CONVERT_OWN_TO_WIKI) and not caller.can(auth.MARK_WIKI) \
            and len(request.query_params) > 0 and _recipient_of_a_comment(svc, node, caller):
        return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)
    return None


# --- after: the handler's response changed --------------------------------------------------------------------
def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if op != "postComment" or response.status_code != 201 \
            or not faults.is_on("budget24-moderated-answer-comment-private-to-author"):
        return response
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "answer" or not parent["in_moderation"] \
            or any(n in sent_fields(request) for n in _PRIVACY):
        return response
    row = svc.db.one("SELECT id FROM nodes WHERE parent_id = ? AND type = 'comment' AND author_id = ? "
                     "ORDER BY id DESC LIMIT 1", (parent["id"], caller.id))
    if row is None:
        return response
    with svc.tx("comment") as conn:
        conn.execute("UPDATE nodes SET visibility = 'recipients' WHERE id = ?", (row["id"],))
        conn.execute("INSERT INTO comment_recipients(comment_id, user_id) VALUES (?, ?)",
                     (row["id"], parent["author_id"]))
    body = body_json(response)
    if isinstance(body, dict) and "visibility" in body:
        body["visibility"] = wire_name("recipients")
        return with_body(response, body)
    return response
