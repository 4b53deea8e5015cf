"""Where the types faults bite (faults_types.py, issue 44): a field given in another JSON type than the description
states, one operation and one field each (request_hooks.HOOKS runs these stages). Every function leaves the call as
it is unless its own fault is on.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from . import faults
from .auth import Caller
from .hook_kit import kept_json_object, path_node
from .http_io import json_response, with_json_body
from .service import Service

_JOB = ("types-job-type-number-html-400", "types-job-user-string-message-body",
        "types-job-reassign-number-errors-body")
_COMMENT = ("types-comment-visibility-number-dropped", "types-answer-comment-recipients-object-dropped")
_HTML = "<html><head><title>HTTP Status 400 - Bad Request</title></head><body><h1>Bad Request</h1></body></html>"


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postComment" and any(faults.is_on(n) for n in _COMMENT):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op != "scheduleGdprJob" or not any(faults.is_on(n) for n in _JOB):
        return None
    await request.body()
    body = kept_json_object(request) or {}
    if faults.is_on("types-job-type-number-html-400") and isinstance(body.get("type"), (int, float)):
        return HTMLResponse(_HTML, 400)
    if faults.is_on("types-job-user-string-message-body") and isinstance(body.get("user"), str):
        return json_response({"message": "Cannot construct instance of `UserSpec`: no String-argument constructor"},
                             400)
    if faults.is_on("types-job-reassign-number-errors-body") and isinstance(body.get("reassignUser"), (int, float)) \
            and not isinstance(body.get("reassignUser"), bool):
        return json_response({"errors": {"message": "reassignUser: a number is no user"}}, 400)
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op != "postComment":
        return request
    body = kept_json_object(request)
    if body is None:
        return request
    if faults.is_on("types-comment-visibility-number-dropped") and "visibility" in body \
            and isinstance(body["visibility"], (int, float)):
        return with_json_body(request, {k: v for k, v in body.items() if k not in ("visibility", "recipients")})
    if faults.is_on("types-answer-comment-recipients-object-dropped") and isinstance(body.get("recipients"), dict):
        parent = path_node(svc, request)
        if parent is not None and parent["type"] == "answer":
            return with_json_body(request, {k: v for k, v in body.items() if k != "recipients"})
    return request
