"""Where blind round 82's faults bite (faults_blind_round82.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import denied, unauthorized
from .hook_kit import (
    after_by_op,
    counts_kept_by_path,
    form_fields,
    handled_with,
    kept_body,
    list_items,
    media,
    path_node,
    result_action,
    sent_fields,
)
from .http_io import body_json, created_location, json_response, with_body, with_query
from .service import Service

KEPT_S = 3.0
"""How long round82-answer-comments-count-kept-by-path keeps an answer's comment list's counts by its path."""
_kept_counts: dict[str, tuple[float, int, Any, Any]] = {}
_READS_BODY = ("round82-reply-params-only-body-dropped", "round82-comment-form-charset-param-loses",
               "round82-gdpr-user-email-suspend-only-refused")


def _true(value: str | None) -> bool:
    return (value or "").strip().lower() == "true"


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "postComment":
        return _comment_before(svc, request)
    if op == "listSpaces" and faults.is_on("round82-spaces-include-unfiltered") and "include" in request.query_params \
            and caller.role == "novice":
        response: Response = await handler(svc, request, dataclasses.replace(caller, role="member"))
        return response
    if op == "listNodeFollowers" and faults.is_on("round82-followers-wiki-novice-403") and not caller.anonymous \
            and not caller.can(auth.CONVERT_OWN_TO_WIKI) and not caller.can(auth.MARK_WIKI):
        node = path_node(svc, request)
        if node is not None and node["wiki"]:
            raise denied(False)
    if op == "listAnswerComments" and faults.is_on("round82-kind-answer-comments-child-space-anonymous-401") \
            and caller.anonymous:
        answer = path_node(svc, request, "answer_id")
        if answer is not None and svc.db.one("SELECT 1 FROM nodes q JOIN spaces s ON s.id = q.space_id WHERE q.id = ?"
                                             " AND s.parent_id IS NOT NULL", (answer["question_id"],)) is not None:
            raise unauthorized(credentials=False)
    if op == "lockNode" and faults.is_on("round82-lock-comment-by-recipient") and not caller.anonymous \
            and caller.can(auth.LOCK_OWN) and not caller.can(auth.LOCK_ANY):
        node = path_node(svc, request)
        if node is not None and node["type"] == "comment" and node["author_id"] != caller.id and svc.db.one(
                "SELECT 1 FROM comment_recipients WHERE comment_id = ? AND user_id = ?",
                (node["id"], caller.id)) is not None:
            return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)
    if op == "scheduleGdprJob" and faults.is_on("round82-gdpr-user-email-suspend-only-refused"):
        return _job_before(request)
    return None


def _comment_before(svc: Service, request: Request) -> Response | None:
    if faults.is_on("round82-comment-child-space-question-500"):
        parent = path_node(svc, request)
        if parent is not None and parent["type"] == "question" and svc.db.one(
                "SELECT 1 FROM spaces WHERE id = ? AND parent_id IS NOT NULL", (parent["space_id"],)) is not None:
            return json_response({"error": "Internal Server Error"}, 500)
    if faults.is_on("round82-reply-params-only-body-dropped") and "body" in request.query_params \
            and not kept_body(request).strip():
        parent = path_node(svc, request)
        if parent is not None and parent["type"] == "comment":
            return json_response({"error": "'body' is required"}, 400)
    return None


def _job_before(request: Request) -> Response | None:
    """round82-gdpr-user-email-suspend-only-refused: the user by email on a suspension-only job."""
    fields = sent_fields(request)
    try:
        user, operations = structured(fields, "user"), structured(fields, "operations")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    if not isinstance(user, dict) or operations != ["suspend"]:
        return None
    if [k for k in user if user.get(k) not in (None, "")] != ["email"]:
        return None
    return json_response({"error": "The individual type was selected, but the request is missing the user field."},
                         400)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "postComment" and faults.is_on("round82-comment-form-charset-param-loses") and "body" in q \
            and media(request) == "application/x-www-form-urlencoded" \
            and "charset" in request.headers.get("content-type", "").lower():
        form = form_fields(request)
        if "body" in form:
            return with_query(request, [(k, form["body"] if k == "body" else v) for k, v in q.multi_items()])
    return request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round82-comment-own-question-location-names-question") or response.status_code != 201:
        return response
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "question" or parent["author_id"] != caller.id \
            or "location" not in response.headers:
        return response
    response.headers["location"] = created_location(request, "comment", int(parent["id"]), int(parent["id"]))
    return response


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round82-answer-comments-count-kept-by-path"):
        response = _kept_count(request, caller, response)
    if faults.is_on("round82-kind-answer-comments-wrap-staff-full-as-mod") and "wrap" in request.query_params:
        response = _staff_as_mod(svc, response)
    if not faults.is_on("round82-answer-comments-v1-full-recipient-author") or "v1" not in request.query_params:
        return response
    body, items = list_items(response)
    changed = False
    for item in items:
        author = item.get("author") if isinstance(item, dict) else None
        if isinstance(author, dict) and item.get("visibility") in (None, "full") and not item.get("recipients"):
            item["recipients"] = [{"id": author.get("id")}]
            changed = True
    return with_body(response, body) if changed else response


def _staff_as_mod(svc: Service, response: Response) -> Response:
    """round82-kind-answer-comments-wrap-staff-full-as-mod: a staff author's full comment listed as mod."""
    body, items = list_items(response)
    staff = {int(r["id"]) for r in svc.db.all("SELECT id FROM users WHERE role IN ('admin', 'moderator')")}
    changed = False
    for item in items:
        author = item.get("author") if isinstance(item, dict) else None
        if isinstance(author, dict) and author.get("id") in staff and item.get("visibility") in (None, "full"):
            item["visibility"] = "mod"
            changed = True
    return with_body(response, body) if changed else response


def _followers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round82-followers-own-follow-relations") or _true(request.query_params.get("details")) \
            or caller.anonymous:
        return response
    node = path_node(svc, request)
    body, items = list_items(response)
    if node is None or not items or not all(isinstance(i, dict) and i.get("type") == "user" for i in items) \
            or svc.db.one("SELECT 1 FROM follows WHERE node_id = ? AND user_id = ? AND active = 1",
                          (node["id"], caller.id)) is None:
        return response
    body["list"] = [{"user": u, "node": {"id": int(node["id"]), "type": node["type"]}, "active": True} for u in items]
    return with_body(response, body)


def _kept_count(request: Request, caller: Caller, response: Response) -> Response:
    """round82-answer-comments-count-kept-by-path: the counts of another account's read of the path within 3 s."""
    return counts_kept_by_path(_kept_counts, KEPT_S, request, caller, response)


def _groups(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    sort = request.query_params.get("sort")
    if not faults.is_on("round82-groups-invalid-sort-wrap-by-name-desc") or not sort \
            or "wrap" not in request.query_params:
        return response
    body, items = list_items(response)
    if not isinstance(body, dict) or body.get("sort") == sort or not items \
            or not all(isinstance(i, dict) and isinstance(i.get("name"), str) for i in items):
        return response
    items.sort(key=lambda i: i["name"], reverse=True)
    return with_body(response, body)


def _sendtomod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round82-sendtomod-comment-realuser-parent-author") or node is None \
            or node["type"] != "comment":
        return response
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    owner = svc.db.one("SELECT u.id, u.username FROM nodes n JOIN users u ON u.id = n.author_id WHERE n.id = ?",
                       (node["parent_id"],))
    if action is None or owner is None or int(owner["id"]) == caller.id:
        return response
    real = action.get("realUser")
    action["realUser"] = {**(real if isinstance(real, dict) else {}), "id": int(owner["id"]),
                          "username": owner["username"]}
    return with_body(response, body)


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round82-unfavorite-count-after-other-holder") or node is None or svc.db.one(
            "SELECT 1 FROM actions WHERE node_id = ? AND verb = 'favorited' AND canceled = 1 AND canceled_by != ?",
            (node["id"], caller.id)) is None:
        return response
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not isinstance(result, dict) or not isinstance(result.get("favoriteCount"), int):
        return response
    result["favoriteCount"] += 1
    return with_body(response, body)


_AFTER = {
    "postComment": _comment,
    "listAnswerComments": _answer_comments,
    "listNodeFollowers": _followers,
    "sendToModeration": _sendtomod,
    "unmarkFavorite": _unfavorite,
    "listGroups": _groups,
}
after = after_by_op(_AFTER)
