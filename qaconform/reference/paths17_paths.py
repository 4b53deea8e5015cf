"""Where the faults of :mod:`faults_paths17` bite (issue 44): one :class:`request_hooks.Hook` (``before``: a write
whose body comes under a Content-Type with a parameter refused as an unsupported media type). ``after``: the record of
an action called with an option). Each function leaves the call as it is unless its own fault is on
(``faults.is_on``).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import blind_round46, faults
from .auth import Caller
from .http_io import body_json, json_response, with_body
from .service import Service

_REFUSED_WITH_A_PARAMETER = {
    "scheduleGdprJob": ("paths17-job-json-charset-refused", "application/json"),
    "postComment": ("paths17-comment-form-charset-refused", "application/x-www-form-urlencoded"),
}
"""operation -> (its fault, the media type it refuses when the Content-Type carries a parameter)."""


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    """paths17-job-json-charset-refused, paths17-comment-form-charset-refused: the media type compared whole.
    paths17-reply-sticky-privacy: the comment's body read once (Starlette keeps it for the handler)."""
    if op == "postComment" and faults.is_on(STICKY_REPLY):
        await request.body()
    fault, media = _REFUSED_WITH_A_PARAMETER.get(op, ("", ""))
    if not fault or not faults.is_on(fault):
        return None
    given = request.headers.get("content-type", "")
    if ";" not in given or given.split(";")[0].strip().lower() != media:
        return None
    return json_response({"error": f"unsupported Content-Type {given[:60]!r}; send {media}"}, 415)


_OPTION_RECORDS = {
    "lockNode": ("paths17-lock-wrapped-extra-dropped", "wrap", "lockAction"),
    "sendToModeration": ("paths17-sendtomod-v1-not-private", "v1", "sendToModAction"),
}
"""operation -> (its fault, the option it bites on, the record's key in the result)."""


STICKY_REPLY = "paths17-reply-sticky-privacy"
_last_private: dict[int, int] = {}
"""paths17-reply-sticky-privacy: account id -> its comment posted last with privacy fields, when private."""


def _sticky_reply(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """paths17-reply-sticky-privacy: a reply without privacy fields takes the privacy of the same account's private
    comment posted right before it (round46-comment-sticky-privacy's form state, kept for replies only)."""
    fields = blind_round46._fields(request)
    earlier = _last_private.pop(caller.id, None)
    newest = svc.db.one("SELECT id, visibility, parent_id FROM nodes WHERE type = 'comment' AND author_id = ? "
                        "ORDER BY id DESC LIMIT 1", (caller.id,))
    if newest is None:
        return response
    if "visibility" in fields or "recipients" in fields:
        if newest["visibility"] != "full":
            _last_private[caller.id] = int(newest["id"])
        return response
    parent = svc.db.one("SELECT type FROM nodes WHERE id = ?", (newest["parent_id"],))
    if earlier is None or newest["visibility"] != "full" or parent is None or parent["type"] != "comment":
        return response
    blind_round46._sticky_privacy(svc, int(newest["id"]), earlier)
    return blind_round46._fresh_comment_body(svc, caller, response)


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """paths17-lock-wrapped-extra-dropped, paths17-sendtomod-v1-not-private: an accepted action's record built on
    another path when an option is given; paths17-reply-sticky-privacy."""
    if op == "postComment" and response.status_code == 201 and faults.is_on(STICKY_REPLY):
        return _sticky_reply(svc, request, caller, response)
    fault, option, key = _OPTION_RECORDS.get(op, ("", "", ""))
    if response.status_code != 200 or not fault or not faults.is_on(fault) or option not in request.query_params:
        return response
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    record = result.get(key) if isinstance(result, dict) else None
    if not isinstance(record, dict):
        return response
    if op == "lockNode":
        record.pop("extra", None)
    else:
        record["private"] = False
    return with_body(response, body)
