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
from .hook_kit import kept_json_object
from .http_io import json_response, with_json_body
from .service import Service

_JOB = ("edges-reassign-id-next-unknown-taken", "edges-operations-blank-read-as-suspend",
        "edges-reassign-username-blank-ignored")


def _blank(value: Any) -> bool:
    return isinstance(value, str) and not value.strip()


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "listUserContent" and faults.is_on("edges-content-id-blank-empty") \
            and _blank(request.path_params.get("user_id", "")) and request.path_params.get("user_id", "") != "":
        return json_response([], 200)
    if op == "scheduleGdprJob" and any(faults.is_on(n) for n in _JOB):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
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
