"""Where blind round 71's faults bite (faults_blind_round71.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import dataclasses
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import PERMISSION_MESSAGE
from .hook_kit import (
    after_by_op,
    each_item,
    form_fields,
    handled_with,
    kept_by_url,
    kept_json_object,
    list_items,
    media,
    path_node,
    result_action,
    sent_fields,
)
from .http_io import body_json, json_response, with_body, with_json_body, with_query, with_raw_body
from .service import Service, now_ms

KEPT_S = 2.0
"""How long round71-user-questions-kept-by-url keeps a user's question list by its URL (whoever read it)."""
_kept: dict[str, tuple[float, Response]] = {}
_HOUR_MS = 3_600_000
_BODY_MAX = 255
_READS_BODY = ("round71-gdpr-timestamp-past-hour-accepted", "round71-answer-long-body-cut-255",
               "round71-gdpr-operations-param-refused", "round71-gdpr-email-reassign-username-refused")


def _page(request: Request) -> int:
    raw = request.query_params.get("page", "1")
    return int(raw) if raw.isdecimal() else 1


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("scheduleGdprJob", "postAnswer") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "sendToModeration" and faults.is_on("round71-sendtomod-own-answer-let-in") \
            and not caller.can(auth.SEND_TO_MODERATION):
        node = path_node(svc, request)
        if node is None or node["type"] != "answer" or node["author_id"] != caller.id:
            return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)
        return None
    if op == "lockNode" and faults.is_on("round71-lock-answer-sibling-answerer-owns") \
            and caller.can(auth.LOCK_OWN) and not caller.can(auth.LOCK_ANY):
        node = path_node(svc, request)
        if node is not None and node["type"] == "answer" and node["author_id"] != caller.id and svc.db.one(
                "SELECT 1 FROM nodes WHERE type = 'answer' AND question_id = ? AND author_id = ?",
                (node["question_id"], caller.id)) is not None:
            return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)
    if op == "listEarnedExperts" and faults.is_on("round71-earned-experts-username-page-overlap") \
            and request.query_params.get("sort") == "username" and _page(request) >= 2:
        return await _page_one_early(svc, request, caller, handler)
    if op == "postAnswer" and faults.is_on("round71-answer-locked-question-moderated") \
            and caller.can(auth.PUBLISH_ANSWER):
        question = path_node(svc, request, "question_id")
        if question is not None and question["type"] == "question" and question["locked"]:
            held = dataclasses.replace(caller, permissions=caller.permissions - {auth.PUBLISH_ANSWER})
            response: Response = await handler(svc, request, held)
            return response
    if op == "scheduleGdprJob":
        return _job_before(request)
    return None


async def _page_one_early(svc: Service, request: Request, caller: Caller, handler: Any) -> Response:
    """round71-earned-experts-username-page-overlap: page n served from offset (n-1)*size - 1."""
    page = _page(request)
    pairs = [(k, v) for k, v in request.query_params.multi_items() if k != "page"]
    here: Response = await handler(svc, with_query(request, [*pairs, ("page", str(page))]), caller)
    before_page: Response = await handler(svc, with_query(request, [*pairs, ("page", str(page - 1))]), caller)
    body, items = list_items(here)
    _, previous = list_items(before_page)
    if here.status_code != 200 or not isinstance(body, dict) or not previous or not items:
        return here
    body["list"] = [previous[-1], *items[:-1]]
    return with_body(here, body)


def _job_before(request: Request) -> Response | None:
    fields = sent_fields(request)
    if faults.is_on("round71-gdpr-operations-param-refused") and "operations" in request.query_params:
        return json_response({"error": "The provided 'operations' is/are invalid"}, 400)
    if faults.is_on("round71-gdpr-email-reassign-username-refused") and fields.get("type") == "individual":
        user = structured(fields, "user") if "user" in fields else None
        reassign = structured(fields, "reassignUser") if "reassignUser" in fields else None
        if isinstance(user, dict) and user.get("email") not in (None, "") and isinstance(reassign, dict) \
                and reassign.get("username") not in (None, ""):
            return json_response({"error": "The provided 'user' is/are invalid"}, 400)
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listEarnedExperts" and faults.is_on("round71-earned-experts-recent-pagesize-oldest") \
            and q.get("sort") == "recent" and "pageSize" in q:
        return with_query(request, [(k, "oldest" if k == "sort" else v) for k, v in q.multi_items()])
    if op == "scheduleGdprJob" and faults.is_on("round71-gdpr-timestamp-past-hour-accepted"):
        return _stamp_read_as_local(request, _HOUR_MS)
    if op == "postAnswer" and faults.is_on("round71-answer-long-body-cut-255"):
        return _answer_body_cut(request)
    return request


def _stamp_read_as_local(request: Request, shift: int) -> Request:
    """round71-gdpr-timestamp-past-hour-accepted: a timeStamp within the last ``shift`` milliseconds (an hour) read
    ``shift`` later (as local time, UTC+1)."""
    body = kept_json_object(request)
    if body is None:
        return request
    schedule = body.get("scheduleDate")
    if not isinstance(schedule, dict) or schedule.get("formatted") not in (None, ""):
        return request
    stamp = schedule.get("timeStamp")
    if isinstance(stamp, bool) or not isinstance(stamp, int) or not now_ms() - shift <= stamp < now_ms():
        return request
    return with_json_body(request, {**body, "scheduleDate": {**schedule, "timeStamp": stamp + shift}})


def _answer_body_cut(request: Request) -> Request:
    """round71-answer-long-body-cut-255: the text kept to its first 255 characters, whatever form it came in."""
    q = request.query_params
    text = q.get("body")
    if text is not None:
        if len(text) <= _BODY_MAX:
            return request
        return with_query(request, [(k, v[:_BODY_MAX] if k == "body" else v) for k, v in q.multi_items()])
    body = kept_json_object(request)
    if body is not None:
        if isinstance(body.get("body"), str) and len(body["body"]) > _BODY_MAX:
            return with_json_body(request, {**body, "body": body["body"][:_BODY_MAX]})
        return request
    form = form_fields(request)
    if media(request) == "application/x-www-form-urlencoded" and len(form.get("body", "")) > _BODY_MAX:
        form["body"] = form["body"][:_BODY_MAX]
        return with_raw_body(request, urlencode(form).encode())
    return request


# --- after: the handler's response as the broken server serves it (after_by_op(_AFTER), at the end) ----------
def _issue_types(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not faults.is_on("round71-issuetypes-repeated-name-bare-string") or not isinstance(body, list):
        return response
    seen: set[Any] = set()
    out: list[Any] = []
    for item in body:
        name = item.get("name") if isinstance(item, dict) else None
        out.append(name if name in seen else item)
        seen.add(name)
    return with_body(response, out)


def _followers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    node = path_node(svc, request)
    if not faults.is_on("round71-followers-inactive-type-follow") or node is None \
            or q.get("active", "").lower() != "false" or q.get("details", "").lower() == "true":
        return response
    inactive = {int(r["user_id"]) for r in svc.db.all(
        "SELECT user_id FROM follows WHERE node_id = ? AND active = 0", (node["id"],))}

    def relation(item: dict[str, Any]) -> None:
        if item.get("id") in inactive and item.get("type") == "user":
            item["type"] = "follow"

    return each_item(response, relation)


def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round71-topics-includeonly-keeps-usedcount") or "includeOnly" not in request.query_params:
        return response

    def counted(item: dict[str, Any]) -> None:
        row = svc.db.one("SELECT used_count FROM topics WHERE id = ?", (item.get("id"),)) \
            if isinstance(item.get("id"), int) else None
        if row is not None:
            item["usedCount"] = row["used_count"]

    return each_item(response, counted)


def _send_to_mod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    if not faults.is_on("round71-sendtomod-wiki-node-not-private") or node is None or not node["wiki"] \
            or action is None:
        return response
    action["private"] = False
    return with_body(response, body)


def _experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    q = request.query_params
    if not faults.is_on("round71-earned-experts-recent-pagesize-oldest") or q.get("sort") != "recent" \
            or "pageSize" not in q or not isinstance(body, dict) or body.get("sort") != "oldest":
        return response
    body["sort"] = "recent"
    return with_body(response, body)


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round71-user-questions-kept-by-url"):
        return response
    return kept_by_url(_kept, KEPT_S, request, response)


_AFTER = {
    "listIssueTypes": _issue_types,
    "listNodeFollowers": _followers,
    "listTopics": _topics,
    "sendToModeration": _send_to_mod,
    "listEarnedExperts": _experts,
    "listUserQuestions": _user_questions,
}
after = after_by_op(_AFTER)
