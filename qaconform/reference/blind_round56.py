"""Where blind round 56's faults bite (faults_blind_round56.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

round56-user-answers-member-page-denied needs no code here: it is an override of the route table (the door decides
it), named here so that every fault of the round is wired by name in the server's code.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import ApiError, unauthorized
from .hook_kit import after_by_op, let_in_through, path_node, result_action
from .http_io import (
    body_json,
    json_object_body,
    json_response,
    with_body,
    with_json_body,
    with_query,
    with_raw_body,
)
from .service import Service

OVERRIDE_ONLY = ("round56-user-answers-member-page-denied",)
"""The round's fault decided at the door by its override (faults_blind_round56.py), not by code here."""

GUEST_CACHE_S = 3.0
"""How long round56-answer-comments-signed-in-page-cached keeps a signed-in reader's page for guests."""
_guest_pages: dict[str, tuple[float, bytes]] = {}

_MISSING_USER = "The individual type was selected, but the request is missing the user field."
_INHERITED = "Visibility on comment can't be defined since it's inherited"
_GDPR_FAULTS = ("round56-bulk-reassign-both-taken", "round56-gdpr-past-scheduletime-accepted",
                "round56-gdpr-user-id-reassign-username-refused", "round56-kind-reassign-id-wraps-32-bit")


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postAnswer" and faults.is_on("round56-answer-form-charset-plus-kept"):
        await request.body()  # kept by Starlette: the admitted stage rewrites it
    if op == "listAnswerComments" and caller.anonymous \
            and faults.is_on("round56-answer-comments-accepted-anonymous-refused"):
        answer = path_node(svc, request, "answer_id")
        if answer is not None and answer["type"] == "answer" and answer["marked"]:
            raise unauthorized()
    if op == "lockNode" and faults.is_on("round56-lock-answer-question-author-owns"):
        return await _lock_as_question_author(svc, request, caller, handler)
    if op == "scheduleGdprJob" and any(faults.is_on(name) for name in _GDPR_FAULTS):
        return await _job(svc, request, caller, handler)
    return None


async def _lock_as_question_author(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round56-lock-answer-question-author-owns: "own" taken from the answer's question's author."""
    return await let_in_through(svc, request, caller, handler, kind="answer", own=auth.LOCK_OWN,
                                granted=auth.LOCK_ANY, through=("parent_id",))


async def _job(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """The round's three data-protection paths, each on a JSON body with no request parameters."""
    from . import crossing2_paths  # here: gdpr_jobs imports the hooks' neighbours
    from .gdpr_jobs import _schedule

    body = await json_object_body(request)
    if body is None or request.query_params:
        return None
    reassign, user = body.get("reassignUser"), body.get("user")
    if faults.is_on("round56-kind-reassign-id-wraps-32-bit") and isinstance(reassign, dict) \
            and isinstance(reassign.get("id"), int) and reassign["id"] >= 2**32:
        cut = {**body, "reassignUser": {**reassign, "id": reassign["id"] % 2**32}}
        wrapped: Response = await handler(svc, with_json_body(request, cut), caller)
        return wrapped
    if faults.is_on("round56-bulk-reassign-both-taken") and body.get("type") == "bulk" \
            and isinstance(reassign, dict) and {"username", "id"} <= set(reassign):
        taken = {**body, "reassignUser": {"username": reassign["username"]}}
        response: Response = await handler(svc, with_json_body(request, taken), caller)
        return response
    if faults.is_on("round56-gdpr-past-scheduletime-accepted") and "scheduleTime" in body \
            and body.get("scheduleDate") in (None, ""):
        return _schedule(svc, caller, body, frozenset({crossing2_paths.PAST}))
    if faults.is_on("round56-gdpr-user-id-reassign-username-refused") and body.get("type") == "individual" \
            and isinstance(user, dict) and set(user) == {"id"} and isinstance(reassign, dict) \
            and set(reassign) == {"username"}:
        return json_response({"error": _MISSING_USER}, 400)
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listUserContent" and faults.is_on("round56-user-content-id-wraps-32-bit"):
        raw = request.path_params.get("user_id", "")
        if raw.isascii() and raw.isdecimal() and int(raw) >= 2**32:
            scope = dict(request.scope)
            scope["path_params"] = {**request.path_params, "user_id": str(int(raw) % 2**32)}
            return Request(scope, request.receive)
    if op == "listNodeFollowers" and faults.is_on("round56-followers-pagesize-default-all") \
            and "pageSize" in q and "active" not in q:
        return with_query(request, [*q.multi_items(), ("active", "false")])
    if op == "listQuestions" and faults.is_on("round56-questions-spaceid-sorted-unfiltered") \
            and "spaceId" in q and q.get("sort"):
        return with_query(request, [(k, v) for k, v in q.multi_items() if k != "spaceId"])
    if op == "postAnswer" and faults.is_on("round56-answer-form-charset-plus-kept"):
        media = request.headers.get("content-type", "").lower()
        raw = vars(request).get("_body")
        if media.startswith("application/x-www-form-urlencoded") and ";" in media and isinstance(raw, bytes):
            return with_raw_body(request, raw.replace(b"+", b"%2B"))
    return request


# --- refusal_body: a refusal's JSON body as the broken server writes it -----------------------------------------
def refusal_body(request: Request, exc: ApiError, body: dict[str, Any]) -> dict[str, Any]:
    if request.method != "POST" or not request.url.path.endswith("/comment.json") or exc.status != 400 \
            or body.get("error") != _INHERITED:
        return body
    if faults.is_on("round56-reply-visibility-param-message") and "visibility" in request.query_params:
        return {"error": "Invalid value for parameter visibility"}
    if faults.is_on("round56-kind-reply-visibility-form-message") and request.headers.get(
            "content-type", "").lower().startswith("application/x-www-form-urlencoded"):
        return {"error": "Invalid value for field visibility"}
    return body


# --- after: the handler's response as the broken server serves it --------------------------------------------
def _post_answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round56-answer-wrap-no-location") and "wrap" in request.query_params \
            and "location" in response.headers:
        del response.headers["location"]
    return response


def _send_to_mod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round56-sendtomod-answer-no-canceled"):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    if node is None or node["type"] != "answer" or action is None or "canceled" not in action:
        return response
    del action["canceled"]
    return with_body(response, body)


def _post_comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round56-reply-to-own-private-not-inherited: the author's reply in its own private thread stored public."""
    if not faults.is_on("round56-reply-to-own-private-not-inherited"):
        return response
    parent = path_node(svc, request)
    body = body_json(response)
    new_id = str(body.get("id")) if isinstance(body, dict) else ""
    if parent is None or parent["type"] != "comment" or parent["visibility"] == "full" \
            or parent["author_id"] != caller.id or not new_id.isdecimal():
        return response
    new = svc.db.one("SELECT visibility FROM nodes WHERE id = ? AND parent_id = ?", (int(new_id), parent["id"]))
    if new is None or new["visibility"] != parent["visibility"]:
        return response
    with svc.tx() as conn:
        conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (int(new_id),))
        conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (int(new_id),))
    item = svc.render.nodes_json(svc.render.nodes_by_ids([int(new_id)]), caller)[0]
    return with_body(response, {**body, **item})


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 200 or not faults.is_on("round56-answer-comments-signed-in-page-cached"):
        return response
    now, key = time.monotonic(), str(request.url)
    if not caller.anonymous:
        _guest_pages[key] = (now, bytes(response.body))
        return response
    kept = _guest_pages.get(key)
    if kept is None or now - kept[0] >= GUEST_CACHE_S:
        return response
    headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
    return Response(kept[1], status_code=200, headers=headers)


_AFTER = {
    "postAnswer": _post_answer,
    "sendToModeration": _send_to_mod,
    "postComment": _post_comment,
    "listAnswerComments": _answer_comments,
}
after = after_by_op(_AFTER)
