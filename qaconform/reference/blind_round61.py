"""Where blind round 61's faults bite (faults_blind_round61.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .hook_kit import after_by_op, handled_with, kept_json_object, list_items, media, path_node, result_action
from .http_io import body_json, is_id, json_response, with_body, with_json_body, with_query
from .service import Service

SPACE_PAGE_KEPT_S = 3.0
"""How long round61-questions-space-page-kept keeps a question list asked with spaceId, by URL alone."""
_space_pages: dict[str, tuple[float, Any, int]] = {}

_READS_BODY = (
    "round61-comment-on-reply-to-reply-refused", "round61-reply-public-recipients-first-only",
    "round61-group-option-member-parent-author-peer", "round61-gdpr-user-id-anon-delete-refused",
    "round61-kind-plain-reply-under-question-refused",
)


def _denied(message: str, status: int = 403) -> Response:
    return json_response({"errors": {"message": message}}, status)


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("scheduleGdprJob", "postComment") and any(faults.is_on(name) for name in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "postComment":
        return await _comment_before(svc, request, caller, handler)
    if op == "postAnswer" and faults.is_on("round61-answer-charset-json-refused") \
            and media(request) == "application/json" and "charset" in request.headers.get("content-type", "").lower():
        return json_response({"error": "Unsupported media type: application/json expected"}, 415)
    if op == "listUserAnswers" and faults.is_on("round61-user-answers-projected-novice-403") \
            and "includeOnly" in request.query_params and not caller.anonymous \
            and not caller.can(auth.PUBLISH_ANSWER):
        return _denied("You do not have permission to use the field filter; log in as another user")
    if op == "scheduleGdprJob" and faults.is_on("round61-gdpr-user-id-anon-delete-refused"):
        body = kept_json_object(request)
        user = body.get("user") if body else None
        operations = body.get("operations") if body else None
        if body and body.get("type") == "individual" and isinstance(user, dict) and set(user) == {"id"} \
                and isinstance(operations, list) and "anon-delete" in map(str, operations):
            return json_response({"error": "The provided 'user' is invalid"}, 400)
    if op == "listQuestions" and faults.is_on("round61-questions-space-page-kept") \
            and "spaceId" in request.query_params:
        kept = _space_pages.get(str(request.url))
        if kept is not None and time.monotonic() - kept[0] < SPACE_PAGE_KEPT_S:
            return json_response(kept[1], kept[2])
    return None


async def _comment_before(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    parent = path_node(svc, request)
    if parent is None:
        return None
    if faults.is_on("round61-comment-on-reply-to-reply-refused") and parent["type"] == "comment":
        grand = svc.db.one("SELECT type FROM nodes WHERE id = ?", (parent["parent_id"],))
        if grand is not None and grand["type"] == "comment":
            return json_response({"error": "Maximum comment depth reached"}, 400)
    if faults.is_on("round61-kind-plain-reply-under-question-refused") and parent["type"] == "comment" \
            and not ({"visibility", "recipients"} & (set(kept_json_object(request) or {}) | set(request.query_params))):
        grand = svc.db.one("SELECT type FROM nodes WHERE id = ?", (parent["parent_id"],))
        if grand is not None and grand["type"] == "question":
            return _denied("Replies to question comments are disabled on this site")
    if faults.is_on("round61-group-option-member-parent-author-peer"):
        return await _group_option_as_peer(svc, request, caller, handler, parent)
    return None


async def _group_option_as_peer(svc: Service, request: Request, caller: Caller, handler: Any,
                                parent: Any) -> Response | None:
    """round61-group-option-member-parent-author-peer: the to-own-groups option let in when the parent's author
    shares a group with the caller (the option checked against the audience, not the caller's permission)."""
    body = kept_json_object(request) or {}
    visibility = request.query_params.get("visibility", body.get("visibility"))
    if visibility != "group" or caller.anonymous or caller.can(auth.PRIVATE_TO_GROUPS) \
            or not caller.can(auth.USE_PRIVATE_COMMENTS) or parent["author_id"] == caller.id:
        return None
    peer = svc.db.one(
        "SELECT 1 FROM user_groups a JOIN user_groups b ON a.group_id = b.group_id"
        " WHERE a.user_id = ? AND b.user_id = ?", (caller.id, parent["author_id"]))
    if peer is None:
        return None
    return await handled_with(auth.PRIVATE_TO_GROUPS, svc, request, caller, handler)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    later = _LATER_PAGES.get(op)
    if later is not None and faults.is_on(later[1]) and q.get("sort") == later[0] and is_id(q.get("page", "")) \
            and int(q.get("page", "0")) >= 2:
        return with_query(request, [(k, v) for k, v in q.multi_items() if k != "sort"])
    if op == "postComment" and faults.is_on("round61-reply-public-recipients-first-only"):
        return _first_recipient_only(svc, request)
    return request


_LATER_PAGES = {
    "listUserAnswers": ("votes", "round61-user-answers-votes-later-pages-default"),
    "listUserQuestions": ("answerCount", "round61-kind-user-questions-answercount-later-pages-default"),
}
"""The sort each list's continuation query drops from page 2 on (its echo kept: :func:`_sort_echo_kept`)."""


def _first_recipient_only(svc: Service, request: Request) -> Request:
    body = kept_json_object(request)
    parent = path_node(svc, request)
    if body is None or parent is None or parent["type"] != "comment" or parent["visibility"] != "full":
        return request
    recipients = body.get("recipients")
    if body.get("visibility") != "recipients" or not isinstance(recipients, list) or len(recipients) < 2 \
            or {"visibility", "recipients"} & set(request.query_params):
        return request
    return with_json_body(request, {**body, "recipients": recipients[:1]})


# --- after: the handler's response as the broken server serves it (after_by_op(_AFTER), at the end) ----------
def _items(response: Response) -> tuple[Any, list[Any]]:
    """:func:`hook_kit.list_items` with only the object items."""
    body, items = list_items(response)
    return body, [i for i in items if isinstance(i, dict)]


def _sort_echo_kept(op: str, request: Request, response: Response) -> Response | None:
    later = _LATER_PAGES[op]
    if not faults.is_on(later[1]) or request.query_params.get("sort") != later[0]:
        return None
    body = body_json(response)
    if isinstance(body, dict) and body.get("sort") != later[0]:
        return with_body(response, {**body, "sort": later[0]})
    return None


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    kept = _sort_echo_kept("listUserAnswers", request, response)
    if kept is not None:
        return kept
    if not faults.is_on("round61-user-answers-wiki-author-reputation-null"):
        return response
    body, items = _items(response)
    changed = False
    for item in items:
        if item.get("wiki") is True and isinstance(item.get("author"), dict):
            item["author"]["reputation"] = None
            changed = True
    return with_body(response, body) if changed else response


def _groups(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round61-groups-builtin-everyone-type-role"):
        return response
    body, items = _items(response)
    first = svc.db.one("SELECT MIN(id) AS id FROM groups")
    changed = False
    for item in items:
        if first is not None and item.get("id") == first["id"] and "type" in item:
            item["type"] = "role"
            changed = True
    return with_body(response, body) if changed else response


def _active_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round61-active-experts-realname-echo-camel") \
            or request.query_params.get("sort") != "realname":
        return response
    body = body_json(response)
    if not isinstance(body, dict) or body.get("sort") != "realname":
        return response
    return with_body(response, {**body, "sort": "realName"})


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    own_door = faults.is_on("round61-lock-own-action-id-string") and not caller.can(auth.LOCK_ANY)
    after_unwikify = faults.is_on("round61-lock-after-unwikify-extra-null")
    if not (own_door or after_unwikify):
        return response
    body = body_json(response)
    action = result_action(body, "lockAction")
    if not isinstance(action, dict):
        return response
    if own_door and isinstance(action.get("id"), int):
        action["id"] = str(action["id"])
        return with_body(response, body)
    node = path_node(svc, request)
    unwikified = node is not None and svc.db.one(
        "SELECT 1 FROM actions WHERE verb = 'wikified' AND node_id = ? AND canceled = 1", (node["id"],))
    if not (after_unwikify and unwikified and isinstance(action.get("id"), int)):
        return response
    with svc.tx("lock") as conn:
        conn.execute("UPDATE actions SET extra = NULL WHERE id = ?", (action["id"],))
    action["extra"] = None
    return with_body(response, body)


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    kept = _sort_echo_kept("listUserQuestions", request, response)
    if kept is not None:
        return kept
    fields = {f.strip() for f in request.query_params.get("includeOnly", "").split(",") if f.strip()}
    if not faults.is_on("round61-user-questions-includeonly-keeps-answers") or not fields or "answers" in fields:
        return response
    body, items = _items(response)
    changed = False
    for item in items:
        row = svc.db.one("SELECT answer_count FROM nodes WHERE id = ?", (item["id"],)) \
            if isinstance(item.get("id"), int) else None
        if row is not None and row["answer_count"] > 0:
            ids = svc.db.all("SELECT id FROM nodes WHERE type = 'answer' AND parent_id = ? ORDER BY id", (item["id"],))
            item["answers"] = [r["id"] for r in ids]
            changed = True
    return with_body(response, body) if changed else response


def _posted_answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not faults.is_on("round61-answer-to-wiki-question-moderated") \
            or not caller.can(auth.PUBLISH_ANSWER):
        return response
    question = path_node(svc, request, "question_id")
    body = body_json(response)
    raw = str(body.get("id", "")) if isinstance(body, dict) else ""
    if question is None or not question["wiki"] or not is_id(raw):
        return response
    with svc.tx("answer", "answer_count") as conn:
        conn.execute("UPDATE nodes SET in_moderation = 1 WHERE id = ?", (int(raw),))
        conn.execute("UPDATE nodes SET answer_count = MAX(answer_count - 1, 0) WHERE id = ?", (question["id"],))
    return response


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round61-questions-space-page-kept") and "spaceId" in request.query_params:
        now, key = time.monotonic(), str(request.url)
        kept = _space_pages.get(key)
        if kept is None or now - kept[0] >= SPACE_PAGE_KEPT_S:
            _space_pages[key] = (now, body_json(response), response.status_code)
    return response


_AFTER = {
    "listUserAnswers": _user_answers,
    "listGroups": _groups,
    "listActiveExperts": _active_experts,
    "lockNode": _lock,
    "listUserQuestions": _user_questions,
    "postAnswer": _posted_answer,
    "listQuestions": _questions,
}
after = after_by_op(_AFTER)
