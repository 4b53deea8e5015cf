"""Where hist26's faults bite (faults_hist26.py, issue 44): one path each (request_hooks.HOOKS runs these stages).
Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .errors import forbidden
from .hook_kit import path_node, sent_fields
from .service import Service

REPLY_REFUSED = "hist26-kind-private-reply-after-unwikify-refused"
_UNWIKIFIED = "SELECT 1 FROM actions WHERE node_id IN (?, ?) AND verb = 'wikified' AND canceled = 1"


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
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
