"""The code of :mod:`faults_fix22`: a job's fields rewritten, as the broken branch reads them, before the handler
checks them (issue 44, fix22). Each leaves the call alone unless its fault is on; only a JSON body without query
parameters is read (the suites send a job's objects there).

Why a hook and not a line in gdpr_jobs.py: each bug is a branch a real server takes before the checks the reference
server shares with every round (a bulk branch for several operations, a reassign-by-id branch, an id parser for
text), so it is written as that branch around the handler."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .bodies import read_fields
from .faults_fix22 import (
    BULK_MANY_OPERATIONS_CSV,
    MOD_REPEAT_STORED_FULL,
    OPERATIONS_WITH_REASSIGN_ID,
    REASSIGN_TEXT_NEGATIVE,
    REASSIGN_TEXT_TOO_LARGE,
)
from .http_io import is_id, json_object_body, with_json_body
from .service import Service
from .visibility import internal_name

Handler = Callable[[Service, Request, Caller], Awaitable[Response]]
_NAMES = (BULK_MANY_OPERATIONS_CSV, OPERATIONS_WITH_REASSIGN_ID, REASSIGN_TEXT_NEGATIVE, REASSIGN_TEXT_TOO_LARGE)
_ALL = frozenset({*_NAMES, MOD_REPEAT_STORED_FULL})
_INT64_MAX = 2**63 - 1


def _reassign_id_text(body: dict[str, Any]) -> str | None:
    """reassignUser's id when it is given as text, alone, else None."""
    reassign = body.get("reassignUser")
    if isinstance(reassign, dict) and list(reassign) == ["id"] and isinstance(reassign["id"], str):
        return reassign["id"].strip()
    return None


def broken(svc: Service, body: dict[str, Any]) -> dict[str, Any] | None:
    """The body as the broken branch passes it on, or None when no fault of this module changes it."""
    operations = body.get("operations")
    if (faults.is_on(BULK_MANY_OPERATIONS_CSV) and body.get("type") == "bulk" and isinstance(operations, list)
            and len(operations) > 1 and body.get("csvFileId") not in (None, "")):
        known = svc.db.one("SELECT id FROM csv_files ORDER BY id LIMIT 1")
        csv = str(body["csvFileId"])
        if known is not None and (not csv.isdecimal() or svc.db.one(
                "SELECT 1 FROM csv_files WHERE id = ?", (int(csv),)) is None):
            return {**body, "csvFileId": int(known["id"])}  # the several-operations branch reads no file
    reassign = body.get("reassignUser")
    if (faults.is_on(OPERATIONS_WITH_REASSIGN_ID) and isinstance(reassign, dict) and list(reassign) == ["id"]
            and isinstance(reassign["id"], int) and svc.user_exists(reassign["id"]) and operations == []):
        return {**body, "operations": ["suspend"]}  # the reassign branch fills a default list in
    text = _reassign_id_text(body)
    if text is None:
        return None
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdecimal()):
        return None
    negative = text.startswith("-") and faults.is_on(REASSIGN_TEXT_NEGATIVE) and body.get("type") == "bulk"
    too_large = not text.startswith("-") and int(digits) > _INT64_MAX and faults.is_on(REASSIGN_TEXT_TOO_LARGE)
    if negative or too_large:
        return {k: v for k, v in body.items() if k != "reassignUser"}  # the text parser gives up: no reassignUser
    return None


async def _repeated_group_reply(svc: Service, request: Request, caller: Caller, handler: Handler) -> Response | None:
    """:data:`MOD_REPEAT_STORED_FULL`: the reply taken, then stored with full visibility (the repeat branch writes
    the visibility column from a map of the options it knows, which lacks the moderators option)."""
    raw = request.path_params.get("node_id", "")
    parent = svc.db.one("SELECT * FROM nodes WHERE id = ?", (int(raw),)) if is_id(raw) else None  # trades20: no 500
    if parent is None or parent["type"] != "comment" or parent["visibility"] != "mod":
        return None
    await request.body()  # kept by the request, so that the handler reads the body again
    given = (await read_fields(request)).get("visibility")
    if not isinstance(given, str) or internal_name(given.strip()) != "mod":
        return None
    response = await handler(svc, request, caller)
    if response.status_code == 201:
        with svc.tx() as conn:
            conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = (SELECT max(id) FROM nodes WHERE "
                         "type = 'comment' AND parent_id = ? AND author_id = ?)", (parent["id"], caller.id))
    return response


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    if not faults.active() & _ALL:
        return None
    if op == "postComment" and faults.is_on(MOD_REPEAT_STORED_FULL):
        return await _repeated_group_reply(svc, request, caller, handler)
    if op != "scheduleGdprJob" or not any(faults.is_on(n) for n in _NAMES) or request.query_params:
        return None
    body = await json_object_body(request)
    changed = broken(svc, body) if body is not None else None
    if changed is None:
        return None
    return await handler(svc, with_json_body(request, changed), caller)
