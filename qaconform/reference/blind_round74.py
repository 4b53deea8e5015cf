"""Where blind round 74's faults bite (faults_blind_round74.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import dataclasses
import time
from datetime import datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import PERMISSION_MESSAGE
from .hook_kit import (
    after_by_op,
    form_fields,
    let_in_through,
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
"""How long round74-user-answers-count-kept-by-url keeps a user's answer list's totalCount by its URL."""
_counts: dict[str, tuple[float, int, Any]] = {}
_READS_BODY = ("round74-gdpr-reassign-id-suspend-only-invalid", "round74-gdpr-user-id-anonymize-refused",
               "round74-comment-form-body-wins")


def _refused(status: int) -> Response:
    return json_response({"errors": {"message": PERMISSION_MESSAGE}}, status)


def _page(request: Request) -> int:
    raw = request.query_params.get("page", "")
    return int(raw) if raw.strip().isdigit() else 1


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    q = request.query_params
    if op in ("scheduleGdprJob", "postComment") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "listTopics" and faults.is_on("round74-topics-sized-anonymous-401") and caller.anonymous \
            and "pageSize" in q:
        return _refused(401)
    if op == "listNodeFollowers" and faults.is_on("round74-followers-sorted-novice-403") \
            and caller.role == "novice" and q.get("sort"):
        return _refused(403)
    if op == "cancelWiki" and faults.is_on("round74-cancelwiki-answer-question-author-owns"):
        return await let_in_through(svc, request, caller, handler, kind="answer", own=auth.CONVERT_OWN_TO_WIKI,
                                    granted=auth.MARK_WIKI, through=("question_id", "parent_id"))
    if op == "listUserQuestions" and faults.is_on("round74-user-questions-projected-sorted-hidden-shown") \
            and q.get("includeOnly") and q.get("sort") and svc.visibility.spaces_hidden_from(caller):
        response: Response = await handler(svc, request, dataclasses.replace(caller, role="admin"))
        return response
    if op == "scheduleGdprJob":
        return _job_before(request)
    return None


def _job_before(request: Request) -> Response | None:
    fields = sent_fields(request)
    operations = structured(fields, "operations") if "operations" in fields else None
    operations = operations if isinstance(operations, list) else []
    if faults.is_on("round74-gdpr-reassign-id-suspend-only-invalid") and operations == ["suspend"]:
        reassign = structured(fields, "reassignUser") if "reassignUser" in fields else None
        if isinstance(reassign, dict) and [k for k in reassign if reassign.get(k) not in (None, "")] == ["id"]:
            return json_response({"error": "The provided 'reassignUser' is/are invalid"}, 400)
    if faults.is_on("round74-gdpr-user-id-anonymize-refused") and fields.get("type") == "individual" \
            and "anonymize" in operations:
        user = structured(fields, "user") if "user" in fields else None
        if isinstance(user, dict) and [k for k in user if user.get(k) not in (None, "")] == ["id"]:
            return json_response({"error": "The provided 'user' is/are invalid"}, 400)
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "postComment" and faults.is_on("round74-comment-form-body-wins") \
            and media(request) == "application/x-www-form-urlencoded":
        form = form_fields(request)
        if any(k in form for k in q):
            return with_query(request, [(k, v) for k, v in q.multi_items() if k not in form])
    if op == "listNodeFollowers" and faults.is_on("round74-followers-active-false-sorted-active-only") \
            and q.get("sort") and (q.get("active") or "").strip().lower() == "false":
        return with_query(request, [(k, "true" if k == "active" else v) for k, v in q.multi_items()])
    return request


# --- after: the handler's response as the broken server serves it ---------------------------------------------
def _send_to_mod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    if node is None or action is None:
        return response
    changed = False
    if faults.is_on("round74-sendtomod-answer-actiondate-iso-t") and node["type"] == "answer" \
            and isinstance(action.get("actionDate"), str):
        action["actionDate"] = _iso_t(action["actionDate"])
        changed = True
    if faults.is_on("round74-sendtomod-after-lock-realuser-locker") and isinstance(action.get("realUser"), dict):
        locker = svc.db.one("SELECT u.id, u.username FROM actions a JOIN users u ON u.id = a.user_id WHERE "
                            "a.node_id = ? AND a.verb = 'locked' AND a.canceled = 0 AND a.user_id != ? "
                            "ORDER BY a.id DESC LIMIT 1", (node["id"], caller.id))
        if locker is not None:
            action["realUser"] = {**action["realUser"], "id": locker["id"], "username": locker["username"]}
            changed = True
    return with_body(response, body) if changed else response


def _iso_t(stamp: str) -> str:
    """YYYY-MM-DD HH:MM:SS.S with a T between date and time; as it is when it is not in that pattern."""
    try:
        datetime.strptime(stamp.split(".")[0], "%Y-%m-%d %H:%M:%S")
    except ValueError:
        return stamp
    return stamp.replace(" ", "T", 1)


def _active_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round74-active-experts-reputation-later-pages-ascending") \
            or request.query_params.get("sort") != "reputation" or _page(request) < 2:
        return response
    body, items = list_items(response)
    items.sort(key=lambda u: u.get("reputation", 0) if isinstance(u, dict) else 0)
    return with_body(response, body)


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    return _unmarked_later("round74-questions-later-page-unmarked", request, response)


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    return _unmarked_later("round74-kind-user-questions-later-page-unmarked", request, response)


def _unmarked_later(fault: str, request: Request, response: Response) -> Response:
    if not faults.is_on(fault) or _page(request) < 2:
        return response
    body, items = list_items(response)
    for item in items:
        if isinstance(item, dict) and "marked" in item:
            item["marked"] = False
    return with_body(response, body)


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not faults.is_on("round74-unfavorite-others-hold-count-string") or node is None \
            or not isinstance(result, dict) or not isinstance(result.get("favoriteCount"), int):
        return response
    others = svc.db.one("SELECT COUNT(*) AS n FROM favorites WHERE node_id = ? AND user_id != ?",
                        (node["id"], caller.id))
    if others is None or not others["n"]:
        return response
    result["favoriteCount"] = str(result["favoriteCount"])
    return with_body(response, body)


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round74-lock-marked-question-extra-null") or node is None or node["type"] != "question" \
            or not node["marked"]:
        return response
    return with_action(response, "lockAction", {"extra": None})


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round74-user-answers-count-kept-by-url"):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("totalCount"), int):
        return response
    now, key = time.monotonic(), str(request.url)
    kept = _counts.get(key)
    if kept is None or now - kept[0] >= KEPT_S:
        _counts[key] = (now, caller.id, body["totalCount"])
        return response
    if kept[1] == caller.id or kept[2] == body["totalCount"]:
        return response
    body["totalCount"] = kept[2]
    return with_body(response, body)


_AFTER = {
    "sendToModeration": _send_to_mod,
    "listActiveExperts": _active_experts,
    "listQuestions": _questions,
    "listUserQuestions": _user_questions,
    "unmarkFavorite": _unfavorite,
    "lockNode": _lock,
    "listUserAnswers": _user_answers,
}
after = after_by_op(_AFTER)
