"""Where blind round 50's faults bite (faults_blind_round50.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

round50-active-experts-novice-refused and round50-followers-details-anonymous-denied need no code here: they are
overrides of the route table (the door decides them), named here so that every fault of the round is wired by name in
the server's code.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import ApiError, forbidden
from .hook_kit import after_by_op, handled_with, kept_body, kept_json_object, let_in_through, path_node
from .http_io import body_json, is_id, json_response, with_body, with_json_body, with_query
from .service import Service

OVERRIDE_ONLY = ("round50-active-experts-novice-refused", "round50-followers-details-anonymous-denied")
"""The round's faults decided at the door by their overrides (faults_blind_round50.py), not by code here."""

SPACES_CACHE_S = 3.0
"""How long round50-spaces-url-cache-privileged-first's cache answers a repeated URL."""
_spaces_by_url: dict[str, tuple[float, Any]] = {}

_PRIVATE = frozenset({"recipients", "op", "mod"})
_BODY_READERS = ("round50-private-visibility-param-unchecked", "round50-gdpr-bulk-formatted-date-invalid",
                 "round50-recipients-first-only-stored", "round50-comment-form-body-beats-param",
                 "round50-gdpr-reassign-id-string-invalid", "round50-depth2-other-visibility-ignored")


def _invalid(message: str) -> Response:
    return json_response({"error": message}, 400)


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _BODY_READERS):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "listUserAnswers" and faults.is_on("round50-user-answers-own-without-publish-refused"):
        raw = request.path_params.get("user_id", "")
        if not caller.anonymous and is_id(raw) and int(raw) == caller.id and not caller.can(auth.PUBLISH_ANSWER):
            raise forbidden()
    if op == "postComment" and faults.is_on("round50-private-visibility-param-unchecked"):
        return await _visibility_param(request, caller, handler, svc)
    if op == "cancelWiki" and faults.is_on("round50-cancelwiki-question-author-owns-answer"):
        return await _cancelwiki_as_asker(svc, request, caller, handler)
    if op == "cancelWiki" and faults.is_on("round50-kind-cancelwiki-wiki-answer-own-unchecked"):
        return await _cancelwiki_answer(svc, request, caller, handler)
    if op == "scheduleGdprJob":
        return _job(svc, request)
    return None


async def _visibility_param(request: Request, caller: Caller, handler: Any, svc: Service) -> Response | None:
    """round50-private-visibility-param-unchecked: the permission check reads the JSON body's visibility only."""
    if caller.anonymous or caller.can(auth.USE_PRIVATE_COMMENTS) or kept_json_object(request, loose=True) is None:
        return None
    if request.query_params.get("visibility") not in _PRIVATE:
        return None
    let_in = dataclasses.replace(caller, permissions=caller.permissions | {
        auth.USE_PRIVATE_COMMENTS, *auth.PRIVATE_OPTION_PERMISSION.values()})
    response: Response = await handler(svc, request, let_in)
    return response


async def _cancelwiki_as_asker(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round50-cancelwiki-question-author-owns-answer: "own" taken as having asked the answer's question."""
    return await let_in_through(svc, request, caller, handler, kind="answer", own=auth.CONVERT_OWN_TO_WIKI,
                                granted=auth.MARK_WIKI, through=("question_id",))


async def _cancelwiki_answer(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round50-kind-cancelwiki-wiki-answer-own-unchecked: a wiki answer's unwikify checks no ownership."""
    node = path_node(svc, request)
    if caller.anonymous or caller.can(auth.MARK_WIKI) or not caller.can(auth.CONVERT_OWN_TO_WIKI):
        return None
    if node is None or node["type"] != "answer" or not node["wiki"]:
        return None
    return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)


def _job(svc: Service, request: Request) -> Response | None:
    body = kept_json_object(request, loose=True)
    if body is None:
        return None
    if faults.is_on("round50-gdpr-reassign-id-string-invalid"):
        reassign = body.get("reassignUser")
        if isinstance(reassign, dict) and set(reassign) == {"id"} and isinstance(reassign["id"], str):
            return _invalid("The provided 'reassignUser' is/are invalid")
    if faults.is_on("round50-gdpr-bulk-formatted-date-invalid") and body.get("type") == "bulk":
        date = body.get("scheduleDate")
        csv = body.get("csvFileId")
        if isinstance(date, dict) and date.get("formatted") is not None and is_id(str(csv)) and svc.db.one(
                "SELECT 1 FROM csv_files WHERE id = ?", (int(str(csv)),)) is not None:
            return _invalid("The provided 'scheduleDate' is invalid")
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op != "postComment":
        return request
    if faults.is_on("round50-comment-form-body-beats-param"):
        request = _form_body_wins(request)
    if faults.is_on("round50-recipients-first-only-stored"):
        body = kept_json_object(request, loose=True)
        recipients = body.get("recipients") if body is not None else None
        if body is not None and isinstance(recipients, list) and len(recipients) >= 2:
            request = with_json_body(request, {**body, "recipients": recipients[:1]})
    if faults.is_on("round50-depth2-other-visibility-ignored"):
        request = _depth2_reply(svc, request)
    return request


def _form_body_wins(request: Request) -> Request:
    """round50-comment-form-body-beats-param: the form-encoded body's fields merged over the parameters."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/x-www-form-urlencoded" or "body" not in request.query_params:
        return request
    try:
        form = dict(parse_qsl(kept_body(request).decode("utf-8"), keep_blank_values=True))
    except UnicodeDecodeError:
        return request
    if "body" not in form:
        return request
    return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k not in form])


def _depth2_reply(svc: Service, request: Request) -> Request:
    """round50-depth2-other-visibility-ignored: a reply to a private reply drops its own privacy fields."""
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "comment" or parent["visibility"] == "full":
        return request
    grand = svc.db.one("SELECT type, visibility, parent_id FROM nodes WHERE id = ?", (parent["parent_id"],))
    if grand is None or grand["type"] != "comment" or grand["visibility"] == "full":
        return request
    top = svc.db.one("SELECT type, visibility FROM nodes WHERE id = ?", (grand["parent_id"],))
    if top is not None and top["type"] == "comment" and top["visibility"] != "full":
        return request  # depth 3 and below: as the server should
    body = kept_json_object(request, loose=True)
    visibility = body.get("visibility") if body is not None else None
    if body is None or visibility is None or visibility == parent["visibility"]:
        return request
    return with_json_body(request, {k: v for k, v in body.items() if k not in ("visibility", "recipients")})


# --- after: the handler's response as the broken server serves it --------------------------------------------
def refusal_body(request: Request, exc: ApiError, body: dict[str, Any]) -> dict[str, Any]:
    """round50-gdpr-missing-file-error-nested: the file service's error object as the job's error."""
    if not (faults.is_on("round50-gdpr-missing-file-error-nested") and request.url.path.endswith("/schedule.json")):
        return body
    if exc.status != 400 or body.get("error") != "The requested file does not exist":
        return body
    return {"error": {"code": "FILE_NOT_FOUND", "message": body["error"]}}


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round50-lock-answer-verb-lock"):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    action = result.get("lockAction") if isinstance(result, dict) else None
    if node is None or node["type"] != "answer" or not isinstance(action, dict) or action.get("verb") != "locked":
        return response
    action["verb"] = "lock"
    return with_body(response, body)


def _post_answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if "wrap" not in request.query_params:
        return response
    body = body_json(response)
    if not isinstance(body, dict):
        return response
    if faults.is_on("round50-posted-answer-wrapped-no-original-parent") and "originalParentId" in body:
        body.pop("originalParentId")
        return with_body(response, body)
    if faults.is_on("round50-kind-answer-wrapped-id-integer") and str(body.get("id", "")).isdecimal():
        body["id"] = int(body["id"])
        return with_body(response, body)
    return response


def _active_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on("round50-active-experts-realname-id-order")
            and request.query_params.get("sort") == "realname"):
        return response
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    if not isinstance(items, list) or not all(isinstance(i, dict) and isinstance(i.get("id"), int) for i in items):
        return response
    items.sort(key=lambda i: int(i["id"]))
    return with_body(response, body)


def _spaces(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round50-spaces-url-cache-privileged-first"):
        return response
    now = time.monotonic()
    url = str(request.url)
    kept = _spaces_by_url.get(url)
    if kept is not None and now - kept[0] < SPACES_CACHE_S:
        return with_body(response, kept[1])
    _spaces_by_url[url] = (now, body_json(response))
    return response


_AFTER = {
    "lockNode": _lock,
    "postAnswer": _post_answer,
    "listActiveExperts": _active_experts,
    "listSpaces": _spaces,
}
after = after_by_op(_AFTER)
