"""Where blind round 65's faults bite (faults_blind_round65.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import PERMISSION_MESSAGE, ApiError
from .gdpr_jobs import _schedule_ms
from .hook_kit import (
    after_by_op,
    each_item,
    handled_with,
    kept_by_url,
    kept_json_object,
    media,
    path_node,
    sent_fields,
)
from .http_io import PREFIX, body_json, json_response, with_body, with_json_body, with_query
from .service import Service, now_ms

KEPT_S = 2.0
"""How long round65-answer-comments-kept-by-url keeps an answer's comment list by its URL (whoever read it)."""
_kept: dict[str, tuple[float, Response]] = {}
_INHERITED = "Visibility on comment can't be defined since it's inherited"
_READS_BODY = ("round65-comment-mod-option-child-space-refused",
               "round65-gdpr-individual-scheduletime-no-user-scheduled", "round65-gdpr-json-charset-operations-lost",
               "round65-gdpr-user-id-delete-refused", "round65-reply-same-privacy-under-reply-refused")


def _forbidden() -> Response:
    return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("scheduleGdprJob", "postComment") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "postAnswer":
        return _answer_before(svc, request, caller)
    if op == "postComment":
        return _comment_before(svc, request, caller)
    if op == "scheduleGdprJob":
        return _job_before(svc, request)
    if op == "cancelWiki":
        return await _cancelwiki_before(svc, request, caller, handler)
    if op == "lockNode" and faults.is_on("round65-lock-favorite-holder-owns") and not caller.anonymous \
            and caller.can(auth.LOCK_OWN) and not caller.can(auth.LOCK_ANY):
        node = path_node(svc, request)
        if node is not None and node["author_id"] != caller.id and svc.db.one(
                "SELECT 1 FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"])) is not None:
            return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)
    return None


def _answer_before(svc: Service, request: Request, caller: Caller) -> Response | None:
    question = path_node(svc, request, "question_id")
    if question is None or question["type"] != "question":
        return None
    request.state.round65_last_active = int(question["last_active_user_id"])
    if faults.is_on("round65-answer-wiki-question-refused") and question["wiki"] and not caller.anonymous \
            and question["author_id"] != caller.id and not caller.can(auth.MARK_WIKI):
        return _forbidden()
    return None


def _comment_before(svc: Service, request: Request, caller: Caller) -> Response | None:
    sent = sent_fields(request)
    parent = path_node(svc, request)
    if parent is None:
        return None
    if faults.is_on("round65-comment-mod-option-child-space-refused") and sent.get("visibility") == "mod" \
            and not caller.anonymous and not caller.can(auth.SEND_TO_MODERATION):
        space = svc.db.one("SELECT parent_id FROM spaces WHERE id = ?", (parent["space_id"],))
        if space is not None and space["parent_id"] is not None:
            return _forbidden()
    if faults.is_on("round65-reply-same-privacy-under-reply-refused") and parent["type"] == "comment" \
            and parent["visibility"] != "full" and sent.get("visibility") == parent["visibility"]:
        grand = svc.db.one("SELECT type FROM nodes WHERE id = ?", (parent["parent_id"],))
        if grand is not None and grand["type"] == "comment":
            return json_response({"error": _INHERITED}, 400)
    return None


def _job_before(svc: Service, request: Request) -> Response | None:
    fields = sent_fields(request)
    if fields.get("type") != "individual":
        return None
    user = structured(fields, "user") if "user" in fields else None
    if faults.is_on("round65-gdpr-user-id-delete-refused") and isinstance(user, dict) \
            and [k for k in user if user.get(k) not in (None, "")] == ["id"]:
        operations = structured(fields, "operations") if "operations" in fields else None
        if isinstance(operations, list) and {"delete", "anon-delete"} & {str(o) for o in operations}:
            return json_response({"error": "The provided 'user' is invalid"}, 400)
    if faults.is_on("round65-gdpr-individual-scheduletime-no-user-scheduled") and user in (None, "") \
            and fields.get("scheduleTime") not in (None, "") and fields.get("scheduleDate") in (None, ""):
        return _scheduled_without_user(svc, fields)
    return None


def _scheduled_without_user(svc: Service, fields: dict[str, Any]) -> Response | None:
    """round65-gdpr-individual-scheduletime-no-user-scheduled: the legacy branch stores the job unchecked."""
    try:
        minute = _schedule_ms(fields) // 60_000
    except ApiError:
        return None
    if minute * 60_000 <= now_ms() or svc.db.one("SELECT 1 FROM jobs WHERE schedule_minute = ?", (minute,)):
        return None
    with svc.tx("job") as conn:
        cur = conn.execute("INSERT INTO jobs(type, schedule_minute, request, created_by, creation_date)"
                           " VALUES ('individual', ?, '{}', 0, ?)", (minute, now_ms()))
    return json_response({"jobId": int(cur.lastrowid or 0)}, 201)


async def _cancelwiki_before(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    node = path_node(svc, request)
    if node is None:
        return None
    if faults.is_on("round65-cancelwiki-answer-redirects-v1") and node["type"] == "answer":
        return RedirectResponse(str(request.url).replace(PREFIX + "/", "/services/v1/", 1), status_code=308)
    option = "wrap" if faults.is_on("round65-cancelwiki-wrap-member-any-node") else "v1" if faults.is_on(
        "round65-kind-cancelwiki-v1-member-any-node") else None
    if option is not None and option in request.query_params and not caller.anonymous \
            and caller.can(auth.CONVERT_OWN_TO_WIKI) and not caller.can(auth.MARK_WIKI) \
            and node["author_id"] != caller.id:
        return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listQuestions" and faults.is_on("round65-questions-spaceid-dropped-later-pages") and "spaceId" in q \
            and (q.get("page") or "").strip().isdecimal() and int(q["page"]) >= 2:
        return with_query(request, [(k, v) for k, v in q.multi_items() if k != "spaceId"])
    if op == "scheduleGdprJob" and faults.is_on("round65-gdpr-json-charset-operations-lost") \
            and media(request) == "application/json" and "charset" in request.headers.get("content-type", "").lower():
        body = kept_json_object(request)
        if body is not None and "operations" in body:
            return with_json_body(request, {k: v for k, v in body.items() if k != "operations"})
    return request


# --- after: the handler's response as the broken server serves it (after_by_op(_AFTER), at the end) ----------
def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    last = getattr(request.state, "round65_last_active", None)
    question = path_node(svc, request, "question_id")
    if not faults.is_on("round65-answer-parent-author-last-active") or last is None or question is None \
            or last == question["author_id"]:
        return response
    user = svc.db.one("SELECT username, realname FROM users WHERE id = ?", (last,))
    body = body_json(response)
    if user is None or not isinstance(body, dict) or "parentAuthor" not in body:
        return response
    body["parentAuthor"] = {"username": user["username"], "realname": user["realname"]}
    return with_body(response, body)


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round65-answer-comments-replies-no-privacy"):
        return each_item(response, _reply_without_privacy)
    if not faults.is_on("round65-answer-comments-kept-by-url") or response.status_code != 200:
        return response
    return kept_by_url(_kept, KEPT_S, request, response)


def _reply_without_privacy(item: dict[str, Any]) -> None:
    if isinstance(item.get("depth"), int) and item["depth"] >= 3:
        item.pop("visibility", None)
        item.pop("recipients", None)


def _cancelwiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if faults.is_on("round65-cancelwiki-accepted-question-stays-wiki") and node is not None \
            and node["type"] == "question" and node["marked"]:
        with svc.tx() as conn:
            conn.execute("UPDATE nodes SET wiki = 1 WHERE id = ?", (node["id"],))
    return response


_AFTER = {
    "postAnswer": _answer,
    "listAnswerComments": _answer_comments,
    "cancelWiki": _cancelwiki,
}
after = after_by_op(_AFTER)


def refusal_body(request: Request, exc: ApiError, body: dict[str, Any]) -> dict[str, Any]:
    """round65-groups-denied-paged-message-list: a denied group list read with page, its message in a list."""
    errors = body.get("errors")
    if not faults.is_on("round65-groups-denied-paged-message-list") or exc.status not in (401, 403) \
            or not request.url.path.endswith("/group.json") or "page" not in request.query_params \
            or not isinstance(errors, dict) or not isinstance(errors.get("message"), str):
        return body
    return {**body, "errors": {**errors, "message": [errors["message"]]}}
