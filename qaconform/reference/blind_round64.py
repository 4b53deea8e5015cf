"""Where blind round 64's faults bite (faults_blind_round64.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .comments import INHERITED_MESSAGE
from .errors import bad_request
from .hook_kit import (
    after_by_op,
    each_item,
    handled_with,
    kept_by_url,
    kept_json_object,
    media,
    path_node,
    result_action,
    sent_fields,
)
from .http_io import body_json, is_id, with_body
from .service import Service

COMMENTS_KEPT_S = 2.0
"""How long round64-answer-comments-kept-by-url keeps an answer's comment list by its URL (whoever read it)."""
_comments_kept: dict[str, tuple[float, Response]] = {}
_READS_BODY = ("round64-answer-boolean-node-field-refused", "round64-question-comment-group-stored-full",
               "round64-gdpr-formatted-next-year-past", "round64-comment-json-charset-recipients-dropped",
               "round64-gdpr-user-id-string-refused", "round64-reply-own-public-comment-visibility-refused")
_PUBLIC = ("full", "public")


def _structured(value: Any) -> Any:
    """A body field that may come as JSON text (a parameter or a form field)."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("scheduleGdprJob", "postAnswer", "postComment") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "scheduleGdprJob":
        _job_refused(request)
    if op == "postAnswer" and faults.is_on("round64-answer-boolean-node-field-refused"):
        body = kept_json_object(request) or {}
        if any(isinstance(v, bool) for k, v in body.items() if k != "body"):
            raise bad_request("Invalid value for a node field: a string is expected")
    if op == "postComment" and faults.is_on("round64-reply-own-public-comment-visibility-refused"):
        parent = path_node(svc, request)
        visibility = sent_fields(request).get("visibility")
        if parent is not None and parent["type"] == "comment" and parent["visibility"] == "full" \
                and parent["author_id"] == caller.id and visibility not in (None, "", *_PUBLIC):
            raise bad_request(INHERITED_MESSAGE)
    if op == "lockNode" and faults.is_on("round64-lock-own-by-last-active") and not caller.anonymous \
            and caller.can(auth.LOCK_OWN) and not caller.can(auth.LOCK_ANY):
        node = path_node(svc, request)
        if node is not None and node["author_id"] != caller.id and node["last_active_user_id"] == caller.id:
            return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)
    return None


def _job_refused(request: Request) -> None:
    sent = sent_fields(request)
    user = _structured(sent.get("user"))
    if faults.is_on("round64-gdpr-user-id-string-refused") and isinstance(user, dict) and set(user) == {"id"} \
            and isinstance(user["id"], str):
        raise bad_request("The individual type was selected, but the request is missing the user field.")
    date = _structured(sent.get("scheduleDate"))
    formatted = date.get("formatted") if isinstance(date, dict) else None
    if not faults.is_on("round64-gdpr-formatted-next-year-past") or not isinstance(formatted, str):
        return
    try:
        when = datetime.strptime(formatted, "%m/%d/%Y %H:%M")
    except ValueError:
        return
    now = datetime.now()
    if when.year > now.year and formatted < now.strftime("%m/%d/%Y %H:%M"):
        raise bad_request("The desired date is in the past and is it not eligible.")


# --- after: the handler's response as the broken server serves it (after_by_op(_AFTER), at the end) ----------
def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    page = request.query_params.get("page", "1")
    if not faults.is_on("round64-questions-later-page-viewcount-string") or not is_id(page) or int(page) < 2:
        return response
    return each_item(response, _viewcount_string)


def _viewcount_string(item: dict[str, Any]) -> None:
    if isinstance(item.get("viewCount"), int):
        item["viewCount"] = str(item["viewCount"])


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round64-user-questions-wiki-integer"):
        return response
    return each_item(response, _wiki_integer)


def _wiki_integer(item: dict[str, Any]) -> None:
    if item.get("wiki") is True:
        item["wiki"] = 1


def _send_to_mod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round64-sendtomod-own-node-user-no-avatar") or node is None or node["author_id"] != caller.id:
        return response
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    if action is None or not isinstance(action.get("user"), dict):
        return response
    action["user"].pop("avatarUrl", None)
    return with_body(response, body)


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not faults.is_on("round64-answer-under-marked-question-marked-null"):
        return response
    question = path_node(svc, request, "question_id")
    body = body_json(response)
    if question is None or not question["marked"] or not isinstance(body, dict) or "marked" not in body:
        return response
    body["marked"] = None
    return with_body(response, body)


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    sent = sent_fields(request)
    parent = path_node(svc, request)
    if parent is None or response.status_code != 201:
        return response
    group = faults.is_on("round64-question-comment-group-stored-full") and parent["type"] == "question" \
        and sent.get("visibility") in ("group", "groups")
    charset = faults.is_on("round64-comment-json-charset-recipients-dropped") and media(request) == \
        "application/json" and ";" in request.headers.get("content-type", "") \
        and (kept_json_object(request) or {}).get("visibility") == "recipients"
    if group or charset:
        _stored_full(svc, parent["id"], caller, "group" if group else "recipients")
    if faults.is_on("round64-kind-question-comment-group-read-as-mod") and parent["type"] == "question" \
            and sent.get("visibility") in ("group", "groups"):
        _stored_as(svc, parent["id"], caller, "group", "mod")
    return response


def _stored_full(svc: Service, parent: int, caller: Caller, was: str) -> None:
    new = _stored_as(svc, parent, caller, was, "full")
    if new is not None:
        with svc.tx() as conn:
            conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (new,))


def _stored_as(svc: Service, parent: int, caller: Caller, was: str, now: str) -> int | None:
    """The caller's newest comment under ``parent`` stored with visibility ``was`` given ``now`` instead (its id)."""
    new = svc.db.one("SELECT id FROM nodes WHERE type = 'comment' AND parent_id = ? AND author_id = ?"
                     " AND visibility = ? ORDER BY id DESC LIMIT 1", (parent, caller.id, was))
    if new is None:
        return None
    with svc.tx() as conn:
        conn.execute("UPDATE nodes SET visibility = ? WHERE id = ?", (now, new["id"]))
    return int(new["id"])


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round64-lock-answer-extra-null") or node is None or node["type"] != "answer":
        return response
    body = body_json(response)
    action = result_action(body, "lockAction")
    if action is None:
        return response
    with svc.tx() as conn:
        conn.execute("UPDATE actions SET extra = NULL WHERE id = ?", (action.get("id"),))
    action["extra"] = None
    return with_body(response, body)


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round64-unfavorite-wrap-count-stale") or "wrap" not in request.query_params:
        return response
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not isinstance(result, dict) or not isinstance(result.get("favoriteCount"), int):
        return response
    result["favoriteCount"] += 1
    return with_body(response, body)


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round64-answer-comments-kept-by-url") or response.status_code != 200:
        return response
    return kept_by_url(_comments_kept, COMMENTS_KEPT_S, request, response)


_AFTER = {
    "listQuestions": _questions,
    "listUserQuestions": _user_questions,
    "sendToModeration": _send_to_mod,
    "postAnswer": _answer,
    "postComment": _comment,
    "lockNode": _lock,
    "unmarkFavorite": _unfavorite,
    "listAnswerComments": _answer_comments,
}
after = after_by_op(_AFTER)
