"""The code of :mod:`faults_fix2jobs`: a job's fields rewritten, as the broken branch of one kind and one date form
reads them, before the handler checks them (issue 44, fix2jobs). Each function leaves the call alone unless its
fault is on; only a JSON body is read (the suites send the objects of a job there)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .http_io import json_object_body, with_json_body
from .service import Service

Handler = Callable[[Service, Request, Caller], Awaitable[Response]]
NAMES = ("fix2jobs-individual-no-user-timestamp", "fix2jobs-reassign-unchecked-scheduletime",
         "fix2jobs-bulk-empty-operations-timestamp")


def _stamped(body: dict[str, Any]) -> bool:
    date = body.get("scheduleDate", body.get("scheduleTime"))
    return isinstance(date, dict) and date.get("formatted") is None and date.get("timeStamp") is not None


def broken(body: dict[str, Any], caller: Caller) -> dict[str, Any] | None:
    """The body as the broken branch passes it on, or None when no fault of this module changes it."""
    if (faults.is_on(NAMES[0]) and body.get("type") == "individual" and body.get("user") in (None, "")
            and _stamped(body)):
        return {**body, "user": {"id": caller.id}}
    if (faults.is_on(NAMES[1]) and body.get("type") == "individual" and "scheduleTime" in body
            and "scheduleDate" not in body and isinstance(body.get("reassignUser"), dict)
            and len(body["reassignUser"]) == 1):
        return {k: v for k, v in body.items() if k != "reassignUser"}
    if faults.is_on(NAMES[2]) and body.get("type") == "bulk" and body.get("operations") == [] and _stamped(body):
        return {**body, "operations": ["suspend"]}
    return None


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    if op != "scheduleGdprJob" or not any(faults.is_on(n) for n in NAMES) or request.query_params:
        return None
    body = await json_object_body(request)
    changed = broken(body, caller) if body is not None else None
    if changed is None:
        return None
    return await handler(svc, with_json_body(request, changed), caller)
