"""Where hist26's faults bite (faults_hist26.py, issue 44): one path each (request_hooks.HOOKS runs these stages).
Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import forbidden
from .hook_kit import handled_with, path_node, sent_fields
from .service import Service

REPLY_REFUSED = "hist26-kind-private-reply-after-unwikify-refused"
PRIVATE_COMMENTER = "hist26-kind-cancelwiki-private-answer-commenter-owns"
_PRIVATE_UNDER_ANOTHERS_ANSWER = (
    "SELECT 1 FROM nodes c JOIN nodes a ON a.id = c.answer_id WHERE c.type = 'comment' AND c.author_id = ? "
    "AND c.question_id = ? AND c.visibility != 'full' AND a.author_id != ?")
_UNWIKIFIED = "SELECT 1 FROM actions WHERE node_id IN (?, ?) AND verb = 'wikified' AND canceled = 1"


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "cancelWiki" and faults.is_on(PRIVATE_COMMENTER):
        return await _private_commenter(svc, request, caller, handler)
    if op != "postComment" or caller.anonymous or not faults.is_on(REPLY_REFUSED):
        return None
    await request.body()  # kept by Starlette: the later stages and the handler read it again
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "comment" or parent["visibility"] != "full" \
            or sent_fields(request).get("visibility") in (None, "", "full", "public"):
        return None
    thread = parent["answer_id"] or parent["question_id"]
    if svc.db.one(_UNWIKIFIED, (thread, parent["question_id"])) is not None:
        raise forbidden()
    return None


async def _private_commenter(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """hist26-kind-cancelwiki-private-answer-commenter-owns: a private comment under another's answer taken as own."""
    if caller.anonymous or caller.can(auth.MARK_WIKI) or not caller.can(auth.CONVERT_OWN_TO_WIKI):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "question" or node["author_id"] == caller.id:
        return None
    if svc.db.one(_PRIVATE_UNDER_ANOTHERS_ANSWER, (caller.id, node["id"], caller.id)) is None:
        return None
    return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)
