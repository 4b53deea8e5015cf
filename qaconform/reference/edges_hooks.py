"""Where the edges faults bite (faults_edges.py, issue 44): a value at an edge inside a field's stated type, one
operation and one field each (request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless
its own fault is on.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .hook_kit import kept_json_object, path_node
from .http_io import json_response, with_json_body
from .service import Service
from .visibility import wire_name

_COMMENT = ("edges-comment-visibility-blank-recipients-taken", "edges-answer-comment-unknown-recipients-dropped")
_JOB = ("edges-reassign-id-next-unknown-taken", "edges-operations-blank-read-as-suspend",
        "edges-reassign-username-blank-ignored")


def _blank(value: Any) -> bool:
    return isinstance(value, str) and not value.strip()


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "listUserContent" and faults.is_on("edges-content-id-blank-empty") \
            and _blank(request.path_params.get("user_id", "")) and request.path_params.get("user_id", "") != "":
        return json_response([], 200)
    if (op == "scheduleGdprJob" and any(faults.is_on(n) for n in _JOB)) or (
            op == "postComment" and any(faults.is_on(n) for n in _COMMENT)):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "postComment" and any(faults.is_on(n) for n in _COMMENT):
        return _comment(svc, request)
    if op != "scheduleGdprJob" or not any(faults.is_on(n) for n in _JOB):
        return request
    body = kept_json_object(request)
    if body is None:
        return request
    reassign = body.get("reassignUser")
    if faults.is_on("edges-reassign-id-next-unknown-taken") and isinstance(reassign, dict) \
            and type(reassign.get("id")) is int and reassign.get("username") is None:
        top = svc.db.one("SELECT MAX(id) AS top FROM users")
        if top is not None and top["top"] is not None and reassign["id"] == int(top["top"]) + 1:
            return with_json_body(request, {k: v for k, v in body.items() if k != "reassignUser"})
    operations = body.get("operations")
    if faults.is_on("edges-operations-blank-read-as-suspend") and isinstance(operations, list) and operations \
            and all(_blank(o) for o in operations):
        return with_json_body(request, {**body, "operations": ["suspend"]})
    if faults.is_on("edges-reassign-username-blank-ignored") and body.get("type") == "bulk" \
            and isinstance(reassign, dict) and list(reassign) == ["username"] and _blank(reassign["username"]):
        return with_json_body(request, {k: v for k, v in body.items() if k != "reassignUser"})
    return request


def _comment(svc: Service, request: Request) -> Request:
    body = kept_json_object(request)
    if body is None or not isinstance(body.get("recipients"), list) or not body["recipients"]:
        return request
    visibility = body.get("visibility")
    if faults.is_on("edges-comment-visibility-blank-recipients-taken") and _blank(visibility) and visibility != "":
        return with_json_body(request, {**body, "visibility": wire_name("recipients") or "recipients"})
    parent = path_node(svc, request)
    if faults.is_on("edges-answer-comment-unknown-recipients-dropped") and parent is not None \
            and parent["type"] == "answer" and all(_unknown_user(svc, r) for r in body["recipients"]):
        return with_json_body(request, {k: v for k, v in body.items() if k != "recipients"})
    return request


def _unknown_user(svc: Service, recipient: Any) -> bool:
    ident = recipient.get("id") if isinstance(recipient, dict) else None
    if isinstance(ident, str) and ident.strip().isdecimal():
        ident = int(ident)
    if type(ident) is not int:
        return False
    return svc.db.one("SELECT 1 FROM users WHERE id = ?", (ident,)) is None
