"""Where blind round 97's faults bite (faults_blind_round97.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

The fault that is a row of the route table only (``round97-earned-experts-paged-anonymous-served``) needs no code
here; its name is listed in :data:`OVERRIDES_ONLY` so the wiring check finds it.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .hook_kit import (
    after_by_op,
    counts_kept_by_path,
    form_fields,
    handled_with,
    kept_json_object,
    list_items,
    media,
    path_node,
    sent_fields,
    with_sent_field,
    without_fields,
)
from .http_io import body_json, json_response, with_body, with_query
from .service import Service

OVERRIDES_ONLY = ("round97-earned-experts-paged-anonymous-served",)
"""Faults of this round that bite through the route table's overrides (faults_blind_round97)."""

KEPT_S = 3.0
"""How long round97-answer-comments-sorted-count-kept-by-path keeps a sorted comment list's counts by its path."""
_counts: dict[str, tuple[float, int, Any, Any]] = {}
_READS_BODY = ("round97-reply-to-op-comment-recipients-inherits", "round97-recipients-comment-on-own-post-stored-full",
               "round97-gdpr-delete-reassign-username-invalid", "round97-novice-comment-json-body-wins",
               "round97-gdpr-form-operations-param-invalid", "round97-gdpr-email-user-unknown-operation-dropped",
               "round97-kind-gdpr-id-user-unknown-operation-dropped",
               "round97-kind-gdpr-form-scheduledate-param-ignored")
_OPTIONS = (auth.PRIVATE_TO_OP, auth.PRIVATE_TO_MODS, auth.PRIVATE_TO_GROUPS)
"""One of these beside Use Private Comments lets a caller post a comment private to recipients (Authentication, 1)."""
_OPERATIONS = ("suspend", "anonymize", "delete", "anon-delete")
_WHOLE = 1000
"""The page size round97-topics-paged-pagesize-ignored asks the handler for (every topic on one page)."""


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "postAnswer" and faults.is_on("round97-novice-answer-wiki-question-published") \
            and caller.can(auth.ANSWER) and not caller.can(auth.PUBLISH_ANSWER):
        question = path_node(svc, request, "question_id")
        if question is not None and question["type"] == "question" and question["wiki"]:
            return await handled_with(auth.PUBLISH_ANSWER, svc, request, caller, handler)
    if op == "unmarkFavorite" and faults.is_on("round97-unfavorite-admin-cancels-oldest-holder") \
            and caller.can(auth.EDIT_USERS_AND_GROUPS):
        return await _admin_unfavorite(svc, request, caller, handler)
    if op == "scheduleGdprJob":
        return _gdpr_refused(svc, request)
    if op == "cancelWiki" and faults.is_on("round97-cancelwiki-comment-on-own-post-owned") and not caller.anonymous \
            and caller.can(auth.CONVERT_OWN_TO_WIKI) and not caller.can(auth.MARK_WIKI):
        node = path_node(svc, request)
        if node is not None and node["type"] == "comment" and node["author_id"] != caller.id:
            parent = svc.db.one("SELECT type, author_id FROM nodes WHERE id = ?", (node["parent_id"],))
            if parent is not None and parent["type"] in ("question", "answer") and parent["author_id"] == caller.id:
                return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)
    q = request.query_params
    if op == "listTopics" and faults.is_on("round97-topics-paged-pagesize-ignored") and "page" in q \
            and "pageSize" in q:
        return await _topics_unlimited(svc, request, caller, handler)
    return None


async def _admin_unfavorite(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round97-unfavorite-admin-cancels-oldest-holder: the node's oldest favorite, when another's, is canceled."""
    node = path_node(svc, request)
    if node is None:
        return None
    mine = svc.db.one("SELECT action_id FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"]))
    oldest = svc.db.one("SELECT f.user_id, u.username FROM favorites f JOIN users u ON u.id = f.user_id "
                        "WHERE f.node_id = ? ORDER BY f.action_id LIMIT 1", (node["id"],))
    if mine is None or oldest is None or oldest["user_id"] == caller.id:
        return None
    holder = dataclasses.replace(caller, id=int(oldest["user_id"]), username=str(oldest["username"]))
    response: Response = await handler(svc, request, holder)
    return response


def _gdpr_refused(svc: Service, request: Request) -> Response | None:
    if faults.is_on("round97-gdpr-form-operations-param-invalid") \
            and media(request) == "application/x-www-form-urlencoded" and "operations" in request.query_params \
            and "operations" not in form_fields(request):
        return json_response({"error": "The provided 'operations' is/are invalid"}, 400)
    if not faults.is_on("round97-gdpr-delete-reassign-username-invalid"):
        return None
    fields = sent_fields(request)
    try:
        operations, reassign = structured(fields, "operations"), structured(fields, "reassignUser")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    if isinstance(operations, str):
        operations = [o.strip() for o in operations.split(",")]
    if not isinstance(operations, list) or not {"delete", "anon-delete"} & {str(o) for o in operations}:
        return None
    if not isinstance(reassign, dict) or list(reassign) != ["username"] or not isinstance(reassign["username"], str):
        return None
    if svc.db.one("SELECT 1 FROM users WHERE username = ?", (reassign["username"],)) is None:
        return None
    return json_response({"error": "The provided 'reassignUser' is/are invalid"}, 400)


async def _topics_unlimited(svc: Service, request: Request, caller: Caller, handler: Any) -> Response:
    """round97-topics-paged-pagesize-ignored: the page's OFFSET kept, its LIMIT lost."""
    q = request.query_params
    try:
        page, size = int(q["page"]), int(q["pageSize"])
    except ValueError:
        whole: Response = await handler(svc, request, caller)
        return whole
    if page < 1 or size < 1:
        asked: Response = await handler(svc, request, caller)
        return asked
    others = [(k, v) for k, v in q.multi_items() if k not in ("page", "pageSize")]
    response: Response = await handler(svc, with_query(request, [*others, ("page", "1"),
                                                                 ("pageSize", str(_WHOLE))]), caller)
    body, items = list_items(response)
    if response.status_code != 200 or not isinstance(body, dict) or "list" not in body:
        return response
    body["list"] = items[(page - 1) * size:]
    body["listCount"] = len(body["list"])
    body["page"], body["pageSize"] = page, size
    if isinstance(body.get("totalCount"), int):
        body["pageCount"] = math.ceil(body["totalCount"] / size)
    return with_body(response, body)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "scheduleGdprJob" and faults.is_on("round97-gdpr-email-user-unknown-operation-dropped"):
        request = _unknown_operations_dropped(request, "email")
    if op == "scheduleGdprJob" and faults.is_on("round97-kind-gdpr-id-user-unknown-operation-dropped"):
        request = _unknown_operations_dropped(request, "id")
    if op == "scheduleGdprJob" and faults.is_on("round97-kind-gdpr-form-scheduledate-param-ignored") \
            and media(request) == "application/x-www-form-urlencoded" and "scheduleDate" in request.query_params \
            and "scheduleDate" not in form_fields(request):
        request = with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "scheduleDate"])
    if op != "postComment":
        return request
    if faults.is_on("round97-novice-comment-json-body-wins") and not caller.can(auth.USE_PRIVATE_COMMENTS) \
            and "body" in request.query_params:
        body = kept_json_object(request)
        if body is not None and "body" in body:
            return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "body"])
    private = caller.can(auth.USE_PRIVATE_COMMENTS) and any(caller.can(p) for p in _OPTIONS)
    if not private:  # a caller the private comment is allowed to: refusals stay as they are
        return request
    parent = path_node(svc, request)
    if parent is None:
        return request
    asked = sent_fields(request).get("visibility")
    if faults.is_on("round97-reply-to-op-comment-recipients-inherits") and parent["type"] == "comment" \
            and parent["visibility"] == "op" and asked == "recipients":
        return without_fields(request, ("visibility", "recipients"))
    if faults.is_on("round97-recipients-comment-on-own-post-stored-full") and asked == "recipients" \
            and parent["type"] in ("question", "answer") and parent["author_id"] == caller.id:
        return without_fields(request, ("visibility", "recipients"))
    return request


def _unknown_operations_dropped(request: Request, way: str) -> Request:
    """round97-gdpr-email-user-unknown-operation-dropped (``way`` email) and its kind (id): a user named that way,
    unknown operations filtered out."""
    fields = sent_fields(request)
    try:
        user, operations = structured(fields, "user"), structured(fields, "operations")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return request
    if fields.get("type") != "individual" or not isinstance(user, dict) or list(user) != [way] \
            or not isinstance(operations, list):
        return request
    known = [o for o in operations if o in _OPERATIONS]
    if not known or len(known) == len(operations):
        return request
    return with_sent_field(request, "operations", known)


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if faults.is_on("round97-answer-comments-sorted-count-kept-by-path") and q.get("sort"):
        response = counts_kept_by_path(_counts, KEPT_S, request, caller, response)
    if not faults.is_on("round97-answer-comments-sized-pagecount-counts-private") or "pageSize" not in q:
        return response
    body = body_json(response)
    answer = path_node(svc, request, "answer_id")
    size = body.get("pageSize") if isinstance(body, dict) else None
    if answer is None or not isinstance(size, int) or size < 1 or not isinstance(body.get("totalCount"), int):
        return response
    clause, params = svc.visibility.clause(caller, "n", comments=False)
    every = svc.db.one(f"SELECT COUNT(*) AS c FROM nodes n WHERE n.answer_id = ? AND n.type = 'comment' AND {clause}",
                       [answer["id"], *params])
    if every is None or int(every["c"]) <= body["totalCount"]:
        return response
    body["pageCount"] = math.ceil(int(every["c"]) / size)
    return with_body(response, body)


def _cancelwiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round97-cancelwiki-comment-stays-wiki") or node is None or node["type"] != "comment":
        return response
    with svc.tx("wiki") as conn:
        conn.execute("UPDATE nodes SET wiki = 1 WHERE id = ?", (node["id"],))
    return response


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round97-unfavorite-locked-node-count-unchanged") or node is None or not node["locked"]:
        return response
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not isinstance(result, dict) or not isinstance(result.get("favoriteCount"), int):
        return response
    result["favoriteCount"] += 1
    return with_body(response, body)


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round97-kind-moderated-wiki-answer-parent-author-null") or caller.can(auth.PUBLISH_ANSWER):
        return response
    question = path_node(svc, request, "question_id")
    body = body_json(response)
    if question is None or not question["wiki"] or not isinstance(body, dict) or "parentAuthor" not in body:
        return response
    body["parentAuthor"] = None
    return with_body(response, body)


_AFTER = {
    "postAnswer": _answer,
    "listAnswerComments": _answer_comments,
    "cancelWiki": _cancelwiki,
    "unmarkFavorite": _unfavorite,
}
after = after_by_op(_AFTER)
