"""Where blind round 89's faults bite (faults_blind_round89.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote_plus

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import LOCK_ANY, LOCK_OWN, PUBLISH_ANSWER, Caller
from .bodies import structured
from .comments import INHERITED_MESSAGE
from .errors import forbidden
from .hook_kit import (
    after_by_op,
    counts_kept_by_path,
    handled_with,
    kept_body,
    kept_json_object,
    media,
    path_node,
    result_action,
    sent_fields,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_json_body, with_query, with_raw_body
from .service import Service
from .visibility import Visibility

KEPT_S = 5.0
"""How long round89-user-answers-count-kept-by-path keeps a user's answer list's counts."""
_kept_counts: dict[str, tuple[float, int, Any, Any]] = {}
_signed_in: set[int] = set()
"""round89-answer-parent-author-not-signed-in: the users seen since the server started (the session's user cache)."""
_READS_BODY = ("round89-gdpr-reassign-username-is-email", "round89-gdpr-type-empty-string-bulk",
               "round89-gdpr-user-username-four-operations", "round89-answer-form-charset-body-encoded",
               "round89-reply-same-recipients-other-order-refused")


def _only(value: Any, *keys: str) -> bool:
    return isinstance(value, dict) and sorted(k for k in value if value.get(k) not in (None, "")) == sorted(keys)


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if not caller.anonymous:
        _signed_in.add(caller.id)
    if op in ("postComment", "scheduleGdprJob", "postAnswer") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "scheduleGdprJob":
        return await _job_before(svc, request, caller, handler)
    if op == "listAnswerComments" and faults.is_on("round89-answer-comments-later-page-private-shown"):
        raw = request.query_params.get("page") or ""
        if raw.isdecimal() and int(raw) >= 2:
            return await _unfiltered(svc, request, caller, handler)
    if op == "lockNode" and faults.is_on("round89-lock-own-favorite-holder") and caller.can(LOCK_OWN) \
            and not caller.can(LOCK_ANY) and not caller.anonymous:
        node = path_node(svc, request)
        if node is not None and node["author_id"] != caller.id and svc.db.one(
                "SELECT 1 FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"])):
            return await handled_with(LOCK_ANY, svc, request, caller, handler)
    if op == "listNodeFollowers" and faults.is_on("round89-followers-details-active-true-all"):
        q = request.query_params
        if q.get("details", "").lower() == "true" and q.get("active", "").lower() == "true":
            pairs = [(k, v) for k, v in q.multi_items() if k != "active"] + [("active", "false")]
            response: Response = await handler(svc, with_query(request, pairs), caller)
            return response
    if op == "postAnswer" and faults.is_on("round89-answer-form-charset-body-encoded"):
        return await _answer_encoded(svc, request, caller, handler)
    if op == "postComment" and faults.is_on("round89-reply-same-recipients-other-order-refused"):
        return _reply_reordered(svc, request)
    return None


async def _unfiltered(svc: Service, request: Request, caller: Caller, handler: Any) -> Response:
    """The answer's comment list served without the privacy clause (round89-answer-comments-later-page-...)."""
    kept = Visibility.__dict__["comment_clause"]
    Visibility.comment_clause = staticmethod(lambda caller, alias="n": ("1", []))  # type: ignore[method-assign]
    try:
        response: Response = await handler(svc, request, caller)
    finally:
        Visibility.comment_clause = kept  # type: ignore[method-assign]
    return response


async def _job_before(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    body = kept_json_object(request)
    if body is None:
        return None
    fields = sent_fields(request)
    try:
        user = structured(fields, "user") if "user" in fields else None
        reassign = structured(fields, "reassignUser") if "reassignUser" in fields else None
        operations = structured(fields, "operations") if "operations" in fields else None
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    name = reassign.get("username") if isinstance(reassign, dict) and _only(reassign, "username") else None
    if faults.is_on("round89-gdpr-reassign-username-is-email") and isinstance(name, str) \
            and (_only(user, "username") or _only(user, "id")) \
            and svc.db.one("SELECT 1 FROM users WHERE username = ?", (name,)) is None:
        row = svc.db.one("SELECT username FROM users WHERE email = ?", (name,))
        if row is not None and isinstance(body.get("reassignUser"), dict):
            body = {**body, "reassignUser": {"username": row["username"]}}
            response: Response = await handler(svc, with_json_body(request, body), caller)
            return response
    if faults.is_on("round89-gdpr-type-empty-string-bulk") and body.get("type") == "" \
            and "type" not in request.query_params and body.get("csvFileId") not in (None, ""):
        response = await handler(svc, with_json_body(request, {**body, "type": "bulk"}), caller)
        return response
    if faults.is_on("round89-gdpr-user-username-four-operations") and fields.get("type") == "individual" \
            and _only(user, "username") and isinstance(operations, list) and len(operations) == 4:
        return json_response({"error": "The provided 'operations' is/are invalid"}, 400)
    return None


async def _answer_encoded(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round89-answer-form-charset-body-encoded: the form body's text kept percent-encoded."""
    ctype = request.headers.get("content-type", "").lower()
    if media(request) != "application/x-www-form-urlencoded" or "charset" not in ctype:
        return None
    raw = kept_body(request).decode("utf-8", "replace")
    pairs = [p.split("=", 1) for p in raw.split("&") if "=" in p]
    if not any(k == "body" for k, _ in pairs):
        return None
    encoded = "&".join(f"{k}={quote_plus(v) if k == 'body' else v}" for k, v in pairs)
    response: Response = await handler(svc, with_raw_body(request, encoded.encode()), caller)
    return response


def _ids(value: Any) -> list[str] | None:
    if not isinstance(value, list):
        return None
    out = [str(r.get("id")) if isinstance(r, dict) else str(r) for r in value]
    return out


def _reply_reordered(svc: Service, request: Request) -> Response | None:
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "comment" or parent["visibility"] != "recipients":
        return None
    fields = sent_fields(request)
    try:
        sent = _ids(structured(fields, "recipients")) if "recipients" in fields else None
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    if fields.get("visibility") != "recipients" or sent is None or len(sent) < 2:
        return None
    stored = [str(r["user_id"]) for r in svc.db.all(
        "SELECT user_id FROM comment_recipients WHERE comment_id = ? ORDER BY user_id", (parent["id"],))]
    if sorted(sent) == sorted(stored) and sent != stored:
        return json_response({"error": INHERITED_MESSAGE}, 400)
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "postAnswer" and faults.is_on("round89-answer-body-param-no-publish-refused") \
            and "body" in request.query_params and not caller.anonymous and not caller.can(PUBLISH_ANSWER):
        raise forbidden()
    if op == "lockNode" and faults.is_on("round89-lock-child-space-moderator-refused") and caller.can(LOCK_ANY) \
            and caller.role == "moderator":
        node = path_node(svc, request)
        space = svc.db.one("SELECT parent_id FROM spaces WHERE id = ?", (node["space_id"],)) if node else None
        if space is not None and space["parent_id"] is not None:
            raise forbidden()
    return request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round89-answer-parent-author-not-signed-in"):
        return response
    question = path_node(svc, request, "question_id")
    body = body_json(response)
    if question is None or question["author_id"] in _signed_in or not isinstance(body, dict) \
            or not isinstance(body.get("parentAuthor"), dict):
        return response
    body["parentAuthor"]["username"] = None
    return with_body(response, body)


def _sendtomod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if node is None:
        return response
    if faults.is_on("round89-sendtomod-wiki-not-private") and node["wiki"]:
        response = with_action(response, "sendToModAction", {"private": False})
    if faults.is_on("round89-sendtomod-comment-result-bare") and node["type"] == "comment":
        body = body_json(response)
        action = result_action(body, "sendToModAction")
        if action is not None:
            body["result"] = action
            response = with_body(response, body)
    return response


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round89-user-answers-count-kept-by-path"):
        return response
    return counts_kept_by_path(_kept_counts, KEPT_S, request, caller, response)


_AFTER = {
    "postAnswer": _answer,
    "sendToModeration": _sendtomod,
    "listUserAnswers": _user_answers,
}
after = after_by_op(_AFTER)
