"""Where closea's kind faults bite (faults_closea.py, issue 44): before the handler (request_hooks.HOOKS). Each
function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .bodies import structured
from .errors import PERMISSION_MESSAGE
from .hook_kit import form_fields, kept_json_object, media, sent_fields
from .http_io import json_response
from .service import Service

_READS_BODY = ("closea-kind-comment-member-form-body-refused",)


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "scheduleGdprJob" and faults.is_on("closea-kind-reassign-username-as-parameter-refused"):
        return _reassign_parameter(request)
    if op == "scheduleGdprJob" and faults.is_on("closea-kind-job-user-id-no-realname-refused"):
        await request.body()  # kept by Starlette: the handler reads it again
        return _user_without_realname(svc, request)
    if op == "postComment" and faults.is_on("closea-kind-comment-member-form-body-refused"):
        await request.body()  # kept by Starlette: the handler reads it again
        return _member_form_comment(request, caller)
    return None


def _reassign_parameter(request: Request) -> Response | None:
    """closea-kind-reassign-username-as-parameter-refused: reassignUser as a query parameter, by username."""
    if "reassignUser" not in request.query_params:
        return None
    try:
        reassign = structured(dict(request.query_params), "reassignUser")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    if not isinstance(reassign, dict) or [k for k in reassign if reassign.get(k) not in (None, "")] != ["username"]:
        return None
    return json_response({"error": "The provided 'reassignUser' is/are invalid"}, 400)


def _user_without_realname(svc: Service, request: Request) -> Response | None:
    """closea-kind-job-user-id-no-realname-refused: an individual job's user by id, a user without a real name."""
    fields = sent_fields(request)
    if fields.get("type") != "individual":
        return None
    try:
        user = structured(fields, "user")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    if not isinstance(user, dict) or [k for k in user if user.get(k) not in (None, "")] != ["id"]:
        return None
    try:
        row = svc.db.one("SELECT realname FROM users WHERE id = ?", (int(user["id"]),))
    except (TypeError, ValueError):
        return None
    if row is None or row["realname"]:
        return None
    return json_response({"error": "The individual type was selected, but the request is missing the user field."},
                         400)


def _member_form_comment(request: Request, caller: Caller) -> Response | None:
    """closea-kind-comment-member-form-body-refused: member's plain comment, its body form-encoded."""
    if caller.anonymous or caller.role != "member" or media(request) != "application/x-www-form-urlencoded":
        return None
    fields = {**form_fields(request), **dict(request.query_params)}
    if kept_json_object(request) is not None or "body" not in form_fields(request) or "visibility" in fields \
            or "recipients" in fields:
        return None
    return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)
