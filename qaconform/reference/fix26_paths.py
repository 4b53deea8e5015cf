"""Where the faults of fix26 bite (issue 44, :mod:`faults_fix26`): a job's type parameter rewritten before the
handler (``admitted``), a reply to a reply rewritten in the answer's comment list (``after``), and the time frame's
duplicate check (one call from gdpr_jobs.py). Each leaves everything as it is unless its own fault is on."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .bodies import structured
from .db import Database
from .http_io import body_json, with_body, with_query
from .service import Service


def frame_taken(db: Database, fields: dict[str, Any], minute: int, taken: bool) -> bool:
    """fix26-time-frame-same-reassign-only: a taken frame counts only for a job with the holder's reassignUser."""
    if not taken or not faults.is_on("fix26-time-frame-same-reassign-only"):
        return taken
    earlier = (db.frame_requests(minute) or [{}])[0]
    return _reassign(earlier) == _reassign(fields)


def frame_replaces() -> bool:
    """Under fix26-time-frame-same-reassign-only the new job takes the frame's one row."""
    return faults.is_on("fix26-time-frame-same-reassign-only")


def _reassign(fields: dict[str, Any]) -> str:
    value = structured(fields, "reassignUser") if "reassignUser" in fields else None
    return json.dumps(value, sort_keys=True, default=str) if value not in (None, "", {}) else ""


async def admitted_body_type(request: Request) -> str | None:
    """The type the JSON body gives, if any (read once: Starlette keeps the body for the handler)."""
    if not request.headers.get("content-type", "").lower().startswith("application/json"):
        return None
    try:
        body = json.loads(await request.body() or b"null")
    except ValueError:
        return None
    return body.get("type") if isinstance(body, dict) and isinstance(body.get("type"), str) else None


async def before(svc: Service, op: str, request: Request, caller: Caller, _handler: Any) -> Response | None:
    """Reads the body ahead (for ``admitted``) when fix26-type-param-individual-loses-to-body is on."""
    if op == "scheduleGdprJob" and faults.is_on("fix26-type-param-individual-loses-to-body"):
        request.state.fix26_body_type = await admitted_body_type(request)
    return None


def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    """fix26-type-param-individual-loses-to-body: ?type=individual dropped when the body gives another type."""
    if op != "scheduleGdprJob" or not faults.is_on("fix26-type-param-individual-loses-to-body"):
        return request
    body_type = getattr(request.state, "fix26_body_type", None)
    if request.query_params.get("type") != "individual" or body_type in (None, "individual"):
        return request
    return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "type"])


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The answer's comment list with a reply to a reply (depth 4 here: answer 1, comment 2, reply 3) titled or
    dated in seconds."""
    titled = faults.is_on("fix26-reply-to-reply-titled")
    seconds = faults.is_on("fix26-reply-to-reply-date-seconds")
    if op != "listAnswerComments" or response.status_code != 200 or not (titled or seconds):
        return response
    page = body_json(response)
    if not isinstance(page, dict) or not isinstance(page.get("list"), list):
        return response
    items = [i for i in page["list"] if isinstance(i, dict) and isinstance(i.get("id"), int)]
    ids = [i["id"] for i in items]
    marks = ",".join("?" * len(ids)) or "NULL"
    rows = {int(r["id"]): r for r in svc.db.all(
        f"SELECT n.id, n.depth, q.title FROM nodes n JOIN nodes q ON q.id = n.question_id WHERE n.id IN ({marks})",
        ids)}
    for item in items:
        row = rows.get(item["id"])
        if row is None or row["depth"] < 4:
            continue
        if titled:
            item["title"] = row["title"]
        if seconds and isinstance(item.get("creationDate"), int):
            item["creationDate"] //= 1000
    return with_body(response, page)
