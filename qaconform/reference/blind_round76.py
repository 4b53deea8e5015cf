"""Where blind round 76's faults bite (faults_blind_round76.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import re
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
    kept_json_object,
    list_items,
    media,
    path_node,
    result_action,
    sent_fields,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_json_body, with_query
from .service import Service, now_ms

KEPT_S = 2.0
"""How long round76-user-questions-totalcount-kept-by-path keeps a user's question counts by its path."""
_kept_counts: dict[str, tuple[float, int, Any, Any]] = {}
_READS_BODY = ("round76-comment-novice-param-body-refused", "round76-comment-json-charset-latin1",
               "round76-reply-own-private-other-visibility-accepted", "round76-gdpr-bulk-reassign-no-csv-scheduled",
               "round76-gdpr-user-id-string-past-accepted")


def _refused(status: int) -> Response:
    return json_response({"errors": {"message": PERMISSION_MESSAGE}}, status)


def _child_space(svc: Service, node: Any) -> bool:
    space = None if node is None else svc.db.one("SELECT parent_id FROM spaces WHERE id = ?", (node["space_id"],))
    return space is not None and space["parent_id"] is not None


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "postComment" and faults.is_on("round76-comment-novice-param-body-refused") \
            and not caller.anonymous and caller.can(auth.COMMENT) and not caller.can(auth.USE_PRIVATE_COMMENTS) \
            and "body" in request.query_params and not kept_body(request).strip():
        return _refused(403)
    if op == "listAnswerComments" and faults.is_on("round76-answer-comments-exclude-anonymous-401") \
            and caller.anonymous and "exclude" in request.query_params:
        return _refused(401)
    if op == "lockNode" and faults.is_on("round76-lock-answer-question-follower-owns"):
        return await _lock_follower(svc, request, caller, handler)
    if op == "scheduleGdprJob":
        return _job_before(svc, request)
    return None


async def _lock_follower(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    if caller.anonymous or caller.can(auth.LOCK_ANY) or not caller.can(auth.LOCK_OWN):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "answer" or node["author_id"] == caller.id:
        return None
    if svc.db.one("SELECT 1 FROM follows WHERE node_id = ? AND user_id = ? AND active = 1",
                  (node["question_id"], caller.id)) is None:
        return None
    return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)


def _job_before(svc: Service, request: Request) -> Response | None:
    """The two job faults: a job stored without the check its own path skips."""
    fields = sent_fields(request)
    kind = fields.get("type")
    if kind == "bulk" and faults.is_on("round76-gdpr-bulk-reassign-no-csv-scheduled") \
            and fields.get("csvFileId") in (None, "") and isinstance(structured(fields, "reassignUser"), dict):
        return _stored(svc, fields, "bulk", future=True)
    if kind == "individual" and faults.is_on("round76-gdpr-user-id-string-past-accepted"):
        user = structured(fields, "user")
        if isinstance(user, dict) and list(user) == ["id"] and isinstance(user["id"], str) \
                and user["id"].isdecimal():
            return _stored(svc, fields, "individual", future=False)
    return None


def _stored(svc: Service, fields: dict[str, Any], kind: str, *, future: bool) -> Response | None:
    try:
        minute = _schedule_ms(fields) // 60_000
    except ApiError:
        return None
    if (minute * 60_000 > now_ms()) != future:
        return None
    if svc.db.one("SELECT 1 FROM jobs WHERE schedule_minute = ?", (minute,)) is not None:
        return None
    with svc.tx("job") as conn:
        cur = conn.execute("INSERT INTO jobs(type, schedule_minute, request, created_by, creation_date)"
                           " VALUES (?, ?, '{}', 0, ?)", (kind, minute, now_ms()))
    return json_response({"jobId": int(cur.lastrowid or 0)}, 201)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op != "postComment" or not faults.is_on("round76-reply-own-private-other-visibility-accepted"):
        return request
    parent = path_node(svc, request)
    sent = sent_fields(request).get("visibility")
    if parent is None or parent["type"] != "comment" or parent["visibility"] == "full" \
            or parent["author_id"] != caller.id or sent in (None, "", parent["visibility"]):
        return request
    q = request.query_params
    request = with_query(request, [(k, v) for k, v in q.multi_items() if k not in ("visibility", "recipients")])
    body = kept_json_object(request)
    if body is not None:
        request = with_json_body(request, {k: v for k, v in body.items() if k not in ("visibility", "recipients")})
    return request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _cancelwiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    marked = faults.is_on("round76-cancelwiki-marked-question-canceleddate-epoch") and node is not None \
        and node["type"] == "question" and bool(node["marked"])
    own = faults.is_on("round76-cancelwiki-own-record-no-ip") and node is not None \
        and node["author_id"] == caller.id and not caller.can(auth.MARK_WIKI)
    if not (marked or own):
        return response
    body = body_json(response)
    action = result_action(body, "wikifyAction")
    if action is None:
        return response
    if marked and "canceledDate" in action:
        action["canceledDate"] = now_ms()
    if own:
        action.pop("ip", None)
    return with_body(response, body)


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round76-lock-child-space-no-success") or not _child_space(svc, path_node(svc, request)):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or "success" not in body:
        return response
    body.pop("success")
    return with_body(response, body)


def _sendtomod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round76-sendtomod-child-space-verb-moved") or not _child_space(svc, path_node(svc, request)):
        return response
    return with_action(response, "sendToModAction", {"verb": "moved"})


def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not faults.is_on("round76-topics-includeonly-sort-null") or "includeOnly" not in q or "sort" in q:
        return response
    body = body_json(response)
    if not isinstance(body, dict) or "sort" not in body:
        return response
    body["sort"] = None
    return with_body(response, body)


def _int_param(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name, "")
    return int(raw) if raw.isdecimal() else None


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    page, size = _int_param(request, "page"), _int_param(request, "pageSize")
    if not faults.is_on("round76-user-answers-sized-page-echo-offset") or page is None or page < 2 \
            or not size or size == svc.page_size:
        return response
    body = body_json(response)
    if not isinstance(body, dict) or body.get("page") != page:
        return response
    body["page"] = (page - 1) * size // svc.page_size + 1
    return with_body(response, body)


def _experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    page = _int_param(request, "page")
    if not faults.is_on("round76-active-experts-reputation-later-pages-reversed") \
            or request.query_params.get("sort") != "reputation" or page is None or page < 2:
        return response
    body, items = list_items(response)
    if len(items) < 2:
        return response
    items.reverse()
    return with_body(response, body)


_LOCATION_ID = re.compile(r"/(\d+)\.(?:json|html)$")


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round76-comment-json-charset-latin1") or media(request) != "application/json" \
            or "charset" not in request.headers.get("content-type", "").lower():
        return response
    found = _LOCATION_ID.search(response.headers.get("location", ""))
    row = None if found is None else svc.db.one("SELECT id, body FROM nodes WHERE id = ?", (int(found.group(1)),))
    if row is None or row["body"].isascii():
        return response
    with svc.tx("node") as conn:
        conn.execute("UPDATE nodes SET body = ? WHERE id = ?",
                     (row["body"].encode("utf-8").decode("latin-1"), row["id"]))
    return response


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round76-user-questions-totalcount-kept-by-path"):
        return response
    return counts_kept_by_path(_kept_counts, KEPT_S, request, caller, response)


_AFTER = {
    "cancelWiki": _cancelwiki,
    "lockNode": _lock,
    "sendToModeration": _sendtomod,
    "listTopics": _topics,
    "listUserAnswers": _user_answers,
    "listActiveExperts": _experts,
    "postComment": _comment,
    "listUserQuestions": _user_questions,
}
after = after_by_op(_AFTER)
