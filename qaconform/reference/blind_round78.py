"""Where blind round 78's faults bite (faults_blind_round78.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

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
    handled_with,
    kept_json_object,
    list_items,
    media,
    path_node,
    result_action,
    sent_fields,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_query
from .service import Service

KEPT_S = 3.0
"""How long round78-user-questions-totalcount-kept-by-path keeps a user's question list's counts by its path."""
_kept_counts: dict[str, tuple[float, int, Any, Any]] = {}
_READS_BODY = ("round78-gdpr-user-email-as-parameter-refused", "round78-reply-no-body-created",
               "round78-comment-json-charset-visibility-dropped")


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "scheduleGdprJob" and faults.is_on("round78-gdpr-user-email-as-parameter-refused"):
        return _job_before(request)
    if op == "lockNode" and faults.is_on("round78-lock-question-by-answerer") and not caller.anonymous \
            and caller.can(auth.LOCK_OWN) and not caller.can(auth.LOCK_ANY):
        node = path_node(svc, request)
        if node is not None and node["type"] == "question" and node["author_id"] != caller.id and svc.db.one(
                "SELECT 1 FROM nodes WHERE type = 'answer' AND question_id = ? AND author_id = ?",
                (node["id"], caller.id)) is not None:
            return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)
    if op == "scheduleGdprJob" and faults.is_on("round78-reassign-id-no-realname-refused"):
        return _reassign_before(svc, request)
    return None


def _job_before(request: Request) -> Response | None:
    """round78-gdpr-user-email-as-parameter-refused: the user object given as a request parameter, by email."""
    if "user" not in request.query_params:
        return None
    try:
        user = structured(dict(request.query_params), "user")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    if not isinstance(user, dict) or [k for k in user if user.get(k) not in (None, "")] != ["email"]:
        return None
    return json_response({"error": "The individual type was selected, but the request is missing the user field."},
                         400)


def _reassign_before(svc: Service, request: Request) -> Response | None:
    """round78-reassign-id-no-realname-refused: a reassignUser by id naming a user without a real name."""
    fields = sent_fields(request)
    try:
        reassign = structured(fields, "reassignUser")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    if not isinstance(reassign, dict) or [k for k in reassign if reassign.get(k) not in (None, "")] != ["id"]:
        return None
    try:
        uid = int(reassign["id"])
    except (TypeError, ValueError):
        return None
    row = svc.db.one("SELECT realname FROM users WHERE id = ?", (uid,))
    if row is None or row["realname"]:
        return None
    return json_response({"error": "The provided 'reassignUser' is/are invalid"}, 400)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "postComment" and faults.is_on("round78-reply-no-body-created"):
        parent = path_node(svc, request)
        if parent is not None and parent["type"] == "comment" and sent_fields(request).get("body") is None:
            return with_query(request, [*request.query_params.multi_items(), ("body", "<p></p>")])
    return request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not faults.is_on("round78-questions-spaceid-pagecount-unfiltered") or "spaceId" not in q \
            or "pageSize" not in q:
        return response
    body = body_json(response)
    size = body.get("pageSize") if isinstance(body, dict) else None
    if not isinstance(size, int) or size <= 0:
        return response
    row = svc.db.one("SELECT COUNT(*) AS n FROM nodes WHERE type = 'question' AND listed = 1 AND in_moderation = 0")
    body["pageCount"] = math.ceil(int(row["n"]) / size) if row is not None else body.get("pageCount")
    return with_body(response, body)


def _earned(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    sort = request.query_params.get("sort")
    body, items = list_items(response)
    if not isinstance(body, dict):
        return response
    changed = False
    if sort == "realname" and faults.is_on("round78-earned-realname-echo-username"):
        body["sort"], changed = "username", True
    if sort == "recent" and faults.is_on("round78-earned-recent-moderator-int"):
        for item in items:
            if isinstance(item, dict) and item.get("moderator") is True:
                item["moderator"], item["superuser"] = 1, int(bool(item.get("superuser")))
                changed = True
    if sort == "oldest" and faults.is_on("round78-earned-oldest-by-recent") and items \
            and all(isinstance(i, dict) and isinstance(i.get("creationDate"), int) for i in items):
        items.sort(key=lambda i: -i["creationDate"])
        changed = True
    return with_body(response, body) if changed else response


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round78-unfavorite-wrap-canceledby-first-holder") or "wrap" not in request.query_params:
        return response
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "favoriteAction")
    if node is None or action is None or not isinstance(action.get("canceledByUser"), dict):
        return response
    holder = svc.db.one("SELECT u.id, u.username FROM favorites f JOIN users u ON u.id = f.user_id"
                        " WHERE f.node_id = ? AND f.user_id != ? ORDER BY f.action_id LIMIT 1", (node["id"], caller.id))
    if holder is None:
        return response
    action["canceledByUser"] = {**action["canceledByUser"], "id": int(holder["id"]), "username": holder["username"]}
    return with_body(response, body)


def _groups(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    sort = request.query_params.get("sort")
    if not faults.is_on("round78-groups-invalid-sort-exclude-by-id-desc") or not sort \
            or "exclude" not in request.query_params:
        return response
    body, items = list_items(response)
    if not isinstance(body, dict) or body.get("sort") == sort or not items \
            or not all(isinstance(i, dict) and isinstance(i.get("id"), int) for i in items):
        return response
    items.sort(key=lambda i: -i["id"])
    return with_body(response, body)


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    ctype = request.headers.get("content-type", "").lower()
    if not faults.is_on("round78-comment-json-charset-visibility-dropped") or media(request) != "application/json" \
            or "charset" not in ctype:
        return response
    sent = kept_json_object(request) or {}
    if sent.get("visibility") != "recipients" or "visibility" in request.query_params:
        return response
    row = svc.db.one("SELECT MAX(id) AS id FROM nodes WHERE type = 'comment' AND author_id = ?", (caller.id,))
    if row is None or row["id"] is None:
        return response
    with svc.tx("comment") as conn:
        conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (row["id"],))
        conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (row["id"],))
    return response


def _sendtomod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round78-sendtomod-comment-not-private") or node is None or node["type"] != "comment":
        return response
    return with_action(response, "sendToModAction", {"private": False})


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round78-lock-after-unwikify-extra-null") or node is None or svc.db.one(
            "SELECT 1 FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled = 1", (node["id"],)) is None:
        return response
    return with_action(response, "lockAction", {"extra": None})


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round78-user-questions-totalcount-kept-by-path"):
        return response
    return counts_kept_by_path(_kept_counts, KEPT_S, request, caller, response)


_AFTER = {
    "listQuestions": _questions,
    "listEarnedExperts": _earned,
    "unmarkFavorite": _unfavorite,
    "listGroups": _groups,
    "postComment": _comment,
    "sendToModeration": _sendtomod,
    "lockNode": _lock,
    "listUserQuestions": _user_questions,
}
after = after_by_op(_AFTER)
