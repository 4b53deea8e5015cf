"""Where blind round 75's faults bite (faults_blind_round75.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import PERMISSION_MESSAGE, ApiError
from .gdpr_jobs import _schedule_ms
from .hook_kit import (
    after_by_op,
    counts_kept_by_path,
    handled_with,
    kept_body,
    list_items,
    path_node,
    sent_fields,
    uncanceled,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_query
from .service import Service, now_ms
from .site_lists import TOPIC_SORTS

KEPT_S = 2.0
"""How long round75-spaces-totalcount-kept-by-path keeps the space list's counts by its path (whoever read it)."""
_kept_counts: dict[str, tuple[float, int, Any, Any]] = {}
_QUESTION_SORTS = ("active", "hottest", "votes", "viewCount", "usedCount", "answerCount", "answerCountAsc",
                   "commentCount", "favoriteCount", "followers", "reportCount")
"""The question list's sort names (its sorts array) that the topic list does not have."""
_PARAMS_ALONE = ("round75-answer-query-body-id-integer", "round75-kind-answer-params-alone-no-plug")
_READS_BODY = (*_PARAMS_ALONE, "round75-gdpr-email-user-time-frame-unchecked",
               "round75-comment-group-option-own-answer")


def _refused(status: int) -> Response:
    return json_response({"errors": {"message": PERMISSION_MESSAGE}}, status)


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postAnswer", "postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "listQuestions" and faults.is_on("round75-questions-topics-novice-refused") \
            and "topics" in request.query_params and not caller.anonymous and not caller.can(auth.MARK_FAVORITE):
        return _refused(403)
    if op == "unmarkFavorite":
        return _unfavorite_before(svc, request, caller)
    if op == "postComment":
        return await _comment_before(svc, request, caller, handler)
    if op == "scheduleGdprJob" and faults.is_on("round75-gdpr-email-user-time-frame-unchecked"):
        return _job_before(svc, request)
    if op == "lockNode" and faults.is_on("round75-lock-moderator-in-moderation-refused") \
            and caller.can(auth.LOCK_ANY) and not caller.can(auth.MANAGE_DATA_PROTECTION):
        node = path_node(svc, request)
        if node is not None and node["in_moderation"] and svc.db.one(
                "SELECT 1 FROM actions WHERE node_id = ? AND verb = 'sent' AND canceled = 0 AND user_id != ?",
                (node["id"], caller.id)) is not None:
            return _refused(403)
    return None


def _unfavorite_before(svc: Service, request: Request, caller: Caller) -> Response | None:
    if not faults.is_on("round75-unfavorite-novice-own-question-answer") or caller.role != "novice":
        return None
    node = path_node(svc, request)
    question = None if node is None or node["type"] != "answer" else svc.db.one(
        "SELECT author_id FROM nodes WHERE id = ?", (node["question_id"],))
    if node is None or question is None or question["author_id"] != caller.id:
        return _refused(403)  # the door let novice in (the fault's override): everywhere else it is refused
    return json_response({"success": True, "result": {"favoriteCount": int(node["favorite_count"])}})


async def _comment_before(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "answer":
        return None
    if faults.is_on("round75-comment-on-wiki-question-answer-refused") and not caller.anonymous \
            and not caller.can(auth.MARK_WIKI):
        question = svc.db.one("SELECT wiki, author_id FROM nodes WHERE id = ?", (parent["question_id"],))
        if question is not None and question["wiki"] and question["author_id"] != caller.id:
            return _refused(403)
    if faults.is_on("round75-comment-group-option-own-answer") and sent_fields(request).get("visibility") == "group" \
            and not caller.anonymous and caller.can(auth.USE_PRIVATE_COMMENTS) \
            and not caller.can(auth.PRIVATE_TO_GROUPS) and parent["author_id"] == caller.id:
        return await handled_with(auth.PRIVATE_TO_GROUPS, svc, request, caller, handler)
    return None


def _job_before(svc: Service, request: Request) -> Response | None:
    """round75-gdpr-email-user-time-frame-unchecked: a job for a user by email stored without the frame check."""
    fields = sent_fields(request)
    user = structured(fields, "user") if fields.get("type") == "individual" and "user" in fields else None
    if not isinstance(user, dict) or [k for k in user if user.get(k) not in (None, "")] != ["email"]:
        return None
    try:
        minute = _schedule_ms(fields) // 60_000
    except ApiError:
        return None
    if minute * 60_000 <= now_ms() or svc.db.one("SELECT 1 FROM jobs WHERE schedule_minute = ?", (minute,)) is None:
        return None
    with svc.tx("job") as conn:
        cur = conn.execute("INSERT OR REPLACE INTO jobs(type, schedule_minute, request, created_by, creation_date)"
                           " VALUES ('individual', ?, '{}', 0, ?)", (minute, now_ms()))
    return json_response({"jobId": int(cur.lastrowid or 0)}, 201)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listQuestions" and faults.is_on("round75-questions-spaceid-dropped-with-exclude") and "spaceId" in q \
            and "exclude" in q and "pageSize" not in q:
        return with_query(request, [(k, v) for k, v in q.multi_items() if k != "spaceId"])
    return request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round75-lock-marked-question-extra-null") or node is None or node["type"] != "question" \
            or not node["marked"]:
        return response
    return with_action(response, "lockAction", {"extra": None})


def _followers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    node = path_node(svc, request)
    if not faults.is_on("round75-followers-inactive-date-24h") or node is None \
            or (q.get("active") or "").lower() != "false" or (q.get("details") or "").lower() == "true":
        return response
    inactive = {int(r["user_id"]) for r in svc.db.all(
        "SELECT user_id FROM follows WHERE node_id = ? AND active = 0", (node["id"],))}
    body, items = list_items(response)
    changed = False
    for item in items:
        if isinstance(item, dict) and item.get("id") in inactive and isinstance(item.get("creationDateFormatted"), str):
            item["creationDateFormatted"] = _as_24h(item["creationDateFormatted"])
            changed = True
    return with_body(response, body) if changed else response


def _as_24h(formatted: str) -> str:
    try:
        return datetime.strptime(formatted, "%m/%d/%Y %I:%M %p").strftime("%m/%d/%Y %H:%M")
    except ValueError:
        return formatted


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    question = path_node(svc, request, "question_id")
    if faults.is_on("round75-answer-child-space-no-location") and question is not None:
        space = svc.db.one("SELECT parent_id FROM spaces WHERE id = ?", (question["space_id"],))
        if space is not None and space["parent_id"] is not None and "location" in response.headers:
            del response.headers["location"]
    if any(faults.is_on(n) for n in _PARAMS_ALONE) and not kept_body(request).strip() \
            and "body" in request.query_params:
        return _params_alone(response)
    return response


def _params_alone(response: Response) -> Response:
    """round75-answer-query-body-id-integer and its kind proof: the answer of a request without a body."""
    body = body_json(response)
    target = body.get("result", body) if isinstance(body, dict) else None
    if not isinstance(target, dict):
        return response
    if faults.is_on("round75-answer-query-body-id-integer") and isinstance(target.get("id"), str) \
            and target["id"].isdecimal():
        target["id"] = int(target["id"])
    if faults.is_on("round75-kind-answer-params-alone-no-plug"):
        target.pop("plug", None)
    return with_body(response, body)


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round75-user-answers-wiki-question-no-original-parent"):
        return response
    body, items = list_items(response)
    changed = False
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int):
            continue
        row = svc.db.one("SELECT q.wiki FROM nodes a JOIN nodes q ON q.id = a.question_id WHERE a.id = ?",
                         (item["id"],))
        if row is not None and row["wiki"] and "originalParentId" in item:
            item.pop("originalParentId")
            changed = True
    return with_body(response, body) if changed else response


def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    sort = request.query_params.get("sort")
    if not faults.is_on("round75-topics-question-sort-name-oldest") or sort not in _QUESTION_SORTS \
            or sort in TOPIC_SORTS:
        return response
    body, items = list_items(response)
    if not items or not all(isinstance(i, dict) and isinstance(i.get("creationDate"), int) for i in items):
        return response
    items.sort(key=lambda i: (i["creationDate"], -int(i.get("id") or 0)))
    return with_body(response, body)


def _cancelwiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round75-cancelwiki-answer-not-canceled") or node is None or node["type"] != "answer":
        return response
    return with_action(response, "wikifyAction", uncanceled)


def _spaces(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round75-spaces-totalcount-kept-by-path"):
        return response
    return counts_kept_by_path(_kept_counts, KEPT_S, request, caller, response)


_AFTER = {
    "lockNode": _lock,
    "listNodeFollowers": _followers,
    "postAnswer": _answer,
    "listUserAnswers": _user_answers,
    "listTopics": _topics,
    "cancelWiki": _cancelwiki,
    "listSpaces": _spaces,
}
after = after_by_op(_AFTER)
