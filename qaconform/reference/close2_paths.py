"""Where the planted faults of :mod:`faults_close2` bite (issue 44, close2). ``before`` keeps a comment's body for
the later stages, ``admitted`` drops what the broken server drops; each checks ``faults.is_on`` first."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .hook_kit import (
    after_by_op,
    form_fields,
    has_string_recipient_ids,
    list_items,
    media,
    path_node,
    sent_fields,
    without_fields,
)
from .http_io import is_id, json_response, with_body
from .service import Service

DEEP_STRING = "close2-kind-deep-reply-string-recipients-dropped"
FORM_TYPE_PARAM = "close2-kind-gdpr-form-body-type-param-ignored"
HOTTEST_FAVORITED = "close2-kind-user-questions-hottest-sort-adds-favorited"
_PRIVACY = ("visibility", "recipients")


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postComment" and faults.is_on(DEEP_STRING):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "scheduleGdprJob" and faults.is_on(FORM_TYPE_PARAM):
        await request.body()
        if media(request) == "application/x-www-form-urlencoded" and "type" in request.query_params \
                and "type" not in form_fields(request):
            return json_response(
                {"error": "The individual type was selected, but the request is missing the user field."}, 400)
    return None


def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op != "postComment" or not faults.is_on(DEEP_STRING):
        return request
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "comment" or parent["visibility"] != "full":
        return request
    if svc.db.one("SELECT 1 FROM nodes WHERE id = ? AND type = 'comment'", (parent["parent_id"],)) is None:
        return request
    fields = sent_fields(request)
    if fields.get("visibility") == "recipients" and has_string_recipient_ids(fields):
        return without_fields(request, _PRIVACY)
    return request


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """The questions the path's user marked favorite (another's) appended to its list sorted by hottest."""
    raw = request.path_params.get("user_id", "")
    if not faults.is_on(HOTTEST_FAVORITED) or request.query_params.get("sort") != "hottest" or not is_id(raw):
        return response
    body, items = list_items(response)
    shown = {i.get("id") for i in items if isinstance(i, dict)}
    extra = []
    for row in svc.db.all("SELECT n.id FROM favorites f JOIN nodes n ON n.id = f.node_id WHERE f.user_id = ? "
                          "AND n.type = 'question' AND n.author_id <> ? ORDER BY n.id", (int(raw), int(raw))):
        try:
            svc.visible_node(caller, row["id"])
        except Exception:  # noqa: BLE001 - a question the caller may not see stays out
            continue
        if row["id"] not in shown:
            extra.append(row["id"])
    if not extra or not isinstance(body, dict):
        return response
    items.extend(json.loads(b) for b in svc.render.nodes_encoded(extra, caller))
    for key in ("totalCount", "listCount"):
        if isinstance(body.get(key), int):
            body[key] += len(extra)
    return with_body(response, body)


after = after_by_op({"listUserQuestions": _user_questions})
