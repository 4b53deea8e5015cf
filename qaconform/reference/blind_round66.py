"""Where blind round 66's faults bite (faults_blind_round66.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
round66-sendtomod-v1-member-allowed is a route-table override (its Fault's overrides), not a hook.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .hook_kit import (
    after_by_op,
    kept_json_object,
    let_in_through,
    media,
    node_row,
    path_node,
    result_action,
    uncanceled,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_query
from .service import Service

TOTALS_KEPT_S = 5.0
"""How long round66-user-answers-totalcount-kept keeps a user's answer list's totals by its URL."""
_totals_kept: dict[str, tuple[float, int, int]] = {}
_READS_BODY = ("round66-gdpr-user-email-refused", "round66-gdpr-reassign-username-refused-bulk",
               "round66-comment-visibility-body-wins-over-param")


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("scheduleGdprJob", "postComment") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "scheduleGdprJob":
        return _job_refused(svc, request)
    if op == "postAnswer" and faults.is_on("round66-answer-second-by-same-user-moderated"):
        question = path_node(svc, request, "question_id")
        request.state.round66_had_answer = question is not None and svc.db.one(
            "SELECT 1 FROM nodes WHERE type = 'answer' AND parent_id = ? AND author_id = ? AND in_moderation = 0",
            (question["id"], caller.id)) is not None
    if op == "lockNode" and faults.is_on("round66-lock-comment-own-by-answer-author"):
        node = path_node(svc, request)
        parent = node_row(svc, str(node["parent_id"])) if node is not None and node["parent_id"] else None
        if parent is not None and parent["type"] == "answer":
            return await let_in_through(svc, request, caller, handler, kind="comment", own=auth.LOCK_OWN,
                                        granted=auth.LOCK_ANY, through=("parent_id",))
    if op == "cancelWiki" and faults.is_on("round66-cancelwiki-answer-own-by-question-author"):
        return await let_in_through(svc, request, caller, handler, kind="answer", own=auth.CONVERT_OWN_TO_WIKI,
                                    granted=auth.MARK_WIKI, through=("question_id", "parent_id"))
    return None


def _job_refused(svc: Service, request: Request) -> Response | None:
    body = kept_json_object(request)
    if body is None:
        return None
    user, reassign = body.get("user"), body.get("reassignUser")
    if faults.is_on("round66-gdpr-user-email-refused") and body.get("type") == "individual" \
            and isinstance(user, dict) and set(user) == {"email"} \
            and svc.db.one("SELECT 1 FROM users WHERE email = ?", (str(user["email"]),)) is not None:
        return json_response({"error": "The individual type was selected, but the request is missing the user"}, 400)
    if faults.is_on("round66-gdpr-reassign-username-refused-bulk") and body.get("type") == "bulk" \
            and isinstance(reassign, dict) and set(reassign) == {"username"} \
            and svc.db.one("SELECT 1 FROM users WHERE username = ?", (str(reassign["username"]),)) is not None:
        return json_response({"error": "The provided 'reassignUser' is/are invalid"}, 400)
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "postComment" and faults.is_on("round66-comment-visibility-body-wins-over-param") and "visibility" in q:
        body = kept_json_object(request)
        if body is not None and "visibility" in body:
            return with_query(request, [(k, v) for k, v in q.multi_items() if k != "visibility"])
    if op == "listEarnedExperts" and faults.is_on("round66-earned-experts-username-later-page-by-reputation") \
            and q.get("sort") == "username" and (q.get("page") or "").strip().isdecimal() and int(q["page"]) >= 2:
        return with_query(request, [(k, "reputation" if k == "sort" else v) for k, v in q.multi_items()])
    return request


# --- after: the handler's response as the broken server serves it (after_by_op(_AFTER), at the end) ----------
def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round66-answer-json-charset-no-location") and media(request) == "application/json" \
            and "charset" in request.headers.get("content-type", "").lower() and "location" in response.headers:
        del response.headers["location"]
    if not (faults.is_on("round66-answer-second-by-same-user-moderated")
            and getattr(request.state, "round66_had_answer", False)):
        return response
    body = body_json(response)
    answer = node_row(svc, str(body.get("id", ""))) if isinstance(body, dict) else None
    if answer is None or answer["in_moderation"]:
        return response
    with svc.tx() as conn:
        conn.execute("UPDATE nodes SET in_moderation = 1 WHERE id = ?", (answer["id"],))
        conn.execute("UPDATE nodes SET answer_count = MAX(answer_count - 1, 0), hot = MAX(hot - 3, 0) WHERE id = ?",
                     (answer["parent_id"],))
    return response


def _cancel_wiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if faults.is_on("round66-cancelwiki-answer-stays-wiki") and node is not None and node["type"] == "answer" \
            and result_action(body_json(response), "wikifyAction") is not None:
        with svc.tx() as conn:
            conn.execute("UPDATE nodes SET wiki = 1 WHERE id = ?", (node["id"],))
        return response
    if not faults.is_on("round66-cancelwiki-locked-node-not-canceled") or node is None or not node["locked"]:
        return response
    return with_action(response, "wikifyAction", uncanceled)


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    prompt = request.query_params.get("prompt") or ""
    if not faults.is_on("round66-lock-prompt-comma-truncated") or "," not in prompt:
        return response
    body = body_json(response)
    action = result_action(body, "lockAction")
    if action is None:
        return response
    cut = prompt.split(",")[0]
    with svc.tx() as conn:
        conn.execute("UPDATE actions SET extra = ? WHERE id = ?", (cut, action.get("id")))
    action["extra"] = cut
    return with_body(response, body)


def _send_to_mod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    if node is None or action is None:
        return response
    if faults.is_on("round66-sendtomod-after-lock-not-private") and node["locked"]:
        with svc.tx() as conn:
            conn.execute("UPDATE actions SET private = 0 WHERE id = ?", (action.get("id"),))
        action["private"] = False
        return with_body(response, body)
    if faults.is_on("round66-sendtomod-wrap-no-realuser") and "wrap" in request.query_params:
        action.pop("realUser", None)
        return with_body(response, body)
    return response


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round66-user-answers-totalcount-kept"):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("totalCount"), int):
        return response
    now, key = time.monotonic(), str(request.url)
    kept = _totals_kept.get(key)
    if kept is None or now - kept[0] >= TOTALS_KEPT_S:
        _totals_kept[key] = (now, body["totalCount"], int(body.get("pageCount") or 0))
        return response
    return with_body(response, {**body, "totalCount": kept[1], "pageCount": kept[2]})


_AFTER = {
    "postAnswer": _answer,
    "cancelWiki": _cancel_wiki,
    "lockNode": _lock,
    "sendToModeration": _send_to_mod,
    "listUserAnswers": _user_answers,
}
after = after_by_op(_AFTER)
