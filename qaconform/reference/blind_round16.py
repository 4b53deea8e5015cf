"""Sixteenth blind round (issue 44, round16): one planted bug on each of fifteen must-rules drawn at random, each on
a path a real server gets wrong while passing the obvious test (one account, one relation to the node, one value
form, one input form, one state, one order of reads). The entries are :mod:`faults_blind_round16`; this module is
their code, run around the handler through ``request_hooks.HOOKS`` (``before`` and ``after``), plus one-line
calls in the handlers they break (gdpr_jobs, comments).

Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .http_io import body_json, is_id, json_response, with_body
from .render import avatar
from .service import Service

_FORMATTED = re.compile(r"^(\d{2})/(\d{2})/(\d{4}) (\d{2}):(\d{2})$")
_issue_type_calls: dict[int, int] = {}
"""Calls of the issue-type list per server (round16-issuetypes-cached-raw): the cache fills on the first."""
_first_real_user: dict[int, dict[str, Any]] = {}
"""The realUser of each server's first send-to-moderation (round16-sendtomod-realuser-first-caller)."""


def _find(body: Any, key: str) -> dict[str, Any] | None:
    """The first object (depth first) that holds ``key``: the envelope or action record whatever wraps it."""
    if isinstance(body, dict):
        if key in body:
            return body
        for value in body.values():
            if (found := _find(value, key)) is not None:
                return found
    elif isinstance(body, list):
        for value in body:
            if (found := _find(value, key)) is not None:
                return found
    return None


def _node(svc: Service, request: Request, key: str = "node_id") -> Any:
    raw = request.path_params.get(key, "")
    return svc.db.one("SELECT id, type, author_id FROM nodes WHERE id = ?", (int(raw),)) if is_id(raw) else None


async def _fields(request: Request) -> dict[str, Any]:
    """The body fields and parameters as the handler will read them (the body is kept for the handler)."""
    fields: dict[str, Any] = {}
    raw = await request.body()
    if "json" in request.headers.get("content-type", "") and raw:
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            fields.update(parsed)
    fields.update(request.query_params)
    return fields


async def before(svc: Service, op: str, request: Request, caller: Caller, _handler: Any) -> Response | None:
    """A planted refusal in front of the handler."""
    if op == "scheduleGdprJob" and faults.is_on("round16-gdpr-formatted-day-month"):
        # GDPR-DATE-FORMATTED: the formatted date read day first; a day over 12 is then no month.
        spec = structured(await _fields(request), "scheduleDate")
        formatted = spec.get("formatted") if isinstance(spec, dict) else None
        match = _FORMATTED.match(formatted) if isinstance(formatted, str) else None
        if match and int(match.group(2)) > 12:
            return json_response({"error": "The provided 'scheduleDate' is invalid"}, 400)
    if op == "listActiveExperts" and faults.is_on("round16-experts-text-sort-paged"):
        # SORT-EXPERTS-VALUES: keyset paging knows numeric sort keys only; a text sort past page 1 is refused.
        page = request.query_params.get("page", "1")
        if request.query_params.get("sort") in ("username", "realname") and page.isdecimal() and int(page) > 1:
            return json_response({"error": f"sort '{request.query_params['sort']}' cannot be paged"}, 400)
    return None


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The handler's response as the broken server serves it."""
    if not any(name.startswith("round16-") for name in faults.active()):
        return response
    if op == "postAnswer":
        return _posted_answer(svc, request, caller, response)
    if op == "listUserQuestions" and faults.is_on("round16-envelope-empty-page-no-list"):
        # PAGING-ENVELOPE: the list written only when the page has items.
        body = body_json(response)
        env = _find(body, "pageCount")
        if env is not None and env.get("list") == []:
            del env["list"]
            return with_body(response, body)
    if op == "listUserAnswers" and faults.is_on("round16-default-page-zero-with-pagesize"):
        # PAGING-DEFAULT-PAGE: pageSize without page takes the follower lists' page base.
        body = body_json(response)
        env = _find(body, "pageCount")
        if env is not None and "page" not in request.query_params and "pageSize" in request.query_params:
            env["page"] = 0
            return with_body(response, body)
    if op == "sendToModeration" and faults.is_on("round16-sendtomod-realuser-first-caller"):
        return _realuser_first_caller(svc, response)
    if op == "listIssueTypes":
        return _issue_types(svc, caller, response)
    return response


def _posted_answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201:
        return response
    if faults.is_on("round16-answer-location-moderated") and not caller.can(auth.PUBLISH_ANSWER):
        # ANSWER-LOCATION: the moderation branch builds its 201 without the header.
        headers = {k: v for k, v in response.headers.items()
                   if k.lower() not in ("location", "content-length", "content-type")}
        return Response(bytes(response.body), 201, headers=headers, media_type=response.media_type)
    body = body_json(response)
    if not isinstance(body, dict):
        return response
    if faults.is_on("round16-answer-param-author-question-author") and "body" in request.query_params:
        # ANSWER-BODY-KEPT (author is the caller): the parameter form renders the question's author.
        question = _node(svc, request, "question_id")
        user = svc.db.one("SELECT id, username, realname, reputation, email FROM users WHERE id = ?",
                          (int(question["author_id"]),)) if question is not None else None
        if user is not None and isinstance(body.get("author"), dict):
            body["author"] = {"id": int(user["id"]), "username": user["username"],
                              "reputation": int(user["reputation"]), "realname": user["realname"],
                              "avatar": avatar(user["email"], int(user["id"]))}
            return with_body(response, body)
    return response


def _realuser_first_caller(svc: Service, response: Response) -> Response:
    """ACTION-SENDTOMOD-REALUSER: the real user is kept from the server's first send-to-moderation (a session
    object cached too widely), so every later caller is recorded as that first one."""
    body = body_json(response)
    holder = _find(body, "realUser")
    if response.status_code != 200 or holder is None or not isinstance(holder["realUser"], dict):
        return response
    first = _first_real_user.setdefault(id(svc), holder["realUser"])
    if first.get("id") == holder["realUser"].get("id"):
        return response
    holder["realUser"] = first
    return with_body(response, body)


def _issue_types(svc: Service, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if response.status_code != 200 or not isinstance(body, list):
        return response
    if faults.is_on("round16-issuetypes-cached-raw"):
        # ISSUETYPES-ARRAY: the first call converts the tracker's objects; the cache kept them unconverted.
        calls = _issue_type_calls[id(svc)] = _issue_type_calls.get(id(svc), 0) + 1
        if calls > 1:
            return with_body(response, [{"id": i + 1, "name": {"value": t.get("name")}} if isinstance(t, dict) else t
                                       for i, t in enumerate(body)])
    return response


def comment_body_required(fields: dict[str, Any], required: bool) -> bool:
    """COMMENT-BODY-REQUIRED (round16-comment-private-body-optional): the private-comment branch forgot the check."""
    if required and faults.is_on("round16-comment-private-body-optional") and fields.get("visibility") not in (
            None, ""):
        return False
    return required
