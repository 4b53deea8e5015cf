"""Where blind round 57's faults bite (faults_blind_round57.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

round57-groups-member-includeonly-allowed is let in by an override of the route table (the door decides it).
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .hook_kit import (
    after_by_op,
    kept_body,
    kept_json_object,
    let_in_through,
    list_items,
    media,
    path_node,
    result_action,
)
from .http_io import body_json, json_response, with_body, with_json_body, with_query, with_raw_body
from .service import Service

SPACES_CACHE_S = 3.0
"""How long round57-spaces-cached-by-url keeps a space list by its URL."""
_spaces_by_url: dict[str, tuple[float, Any]] = {}

_OPERATIONS_INVALID = "The provided 'operations' is/are invalid"
_REASSIGN_INVALID = "The provided 'reassignUser' is/are invalid"
_FORM = "application/x-www-form-urlencoded"


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    reads_body = op in ("scheduleGdprJob", "postAnswer") and any(faults.is_on(name) for name in _READS_BODY)
    if reads_body:
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if reads_body and op == "scheduleGdprJob":
        body = kept_json_object(request)
        if body is not None:
            return _job_refused(body)
    if op == "lockNode" and faults.is_on("round57-lock-answer-question-author-owns"):
        return await _lock_as_question_author(svc, request, caller, handler)
    return None


_READS_BODY = ("round57-gdpr-bulk-no-csv-with-user-scheduled", "round57-gdpr-bulk-four-operations-refused",
               "round57-gdpr-reassign-username-with-user-id-refused", "round57-answer-form-latin1")


def _job_refused(body: dict[str, Any]) -> Response | None:
    operations = body.get("operations")
    if faults.is_on("round57-gdpr-bulk-four-operations-refused") and body.get("type") == "bulk" \
            and isinstance(operations, list) and len(operations) == 4:
        return json_response({"error": _OPERATIONS_INVALID}, 400)
    user, reassign = body.get("user"), body.get("reassignUser")
    if faults.is_on("round57-gdpr-reassign-username-with-user-id-refused") and body.get("type") == "individual" \
            and isinstance(user, dict) and set(user) == {"id"} and isinstance(reassign, dict) \
            and set(reassign) == {"username"}:
        return json_response({"error": _REASSIGN_INVALID}, 400)
    return None


async def _lock_as_question_author(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round57-lock-answer-question-author-owns: "own" taken from the author of the answer's question."""
    return await let_in_through(svc, request, caller, handler, kind="answer", own=auth.LOCK_OWN,
                                granted=auth.LOCK_ANY, through=("question_id", "parent_id"))


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "scheduleGdprJob" and faults.is_on("round57-gdpr-bulk-no-csv-with-user-scheduled"):
        body = kept_json_object(request)
        if body is not None and body.get("type") == "bulk" and "csvFileId" not in body \
                and "csvFileId" not in request.query_params and isinstance(body.get("user"), dict):
            return with_json_body(request, {**body, "type": "individual"})
    if op == "postAnswer" and faults.is_on("round57-answer-form-latin1") and media(request) == _FORM:
        raw = kept_body(request)
        try:
            pairs = parse_qsl(raw.decode("ascii"), keep_blank_values=True, encoding="latin-1")
        except UnicodeDecodeError:
            return request
        garbled = urlencode(pairs, encoding="utf-8").encode()
        return request if garbled == raw else with_raw_body(request, garbled)
    if op == "listQuestions" and faults.is_on("round57-questions-spaceid-newest-unfiltered"):
        q = request.query_params
        if "spaceId" in q and q.get("sort") == "newest":
            return with_query(request, [(k, v) for k, v in q.multi_items() if k != "spaceId"])
    return request


# --- after: the handler's response as the broken server serves it --------------------------------------------
def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "lockAction")
    if node is None or action is None:
        return response
    if node["type"] == "answer" and faults.is_on("round57-lock-answer-node-id-question") \
            and isinstance(action.get("node"), dict):
        action["node"]["id"] = int(node["question_id"] or node["parent_id"])
        return with_body(response, body)
    if node["type"] == "comment" and faults.is_on("round57-lock-comment-extra-null"):
        action["extra"] = None
        return with_body(response, body)
    return response


def _send_to_mod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round57-sendtomod-answer-verb"):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    if node is None or node["type"] != "answer" or action is None:
        return response
    action["verb"] = "moderated"
    return with_body(response, body)


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round57-user-questions-accepted-nodestates-string"):
        return response
    body, items = list_items(response)
    changed = False
    for item in items:
        states = item.get("nodeStates") if isinstance(item, dict) else None
        if isinstance(states, list) and "accepted" in states:
            item["nodeStates"] = ",".join(str(s) for s in states)
            changed = True
    return with_body(response, body) if changed else response


def _followers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round57-followers-inactive-listcount-active-only") \
            or (request.query_params.get("active") or "").lower() != "false":
        return response
    node = path_node(svc, request)
    body, items = list_items(response)
    ids = [item.get("id") for item in items if isinstance(item, dict)]
    if node is None or not ids:
        return response
    active = sum(1 for user_id in ids if svc.db.one(
        "SELECT 1 FROM follows WHERE node_id = ? AND user_id = ? AND active = 1", (node["id"], user_id)) is not None)
    if active == body.get("listCount"):
        return response
    return with_body(response, {**body, "listCount": active})


def _post_answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not faults.is_on("round57-moderated-answer-no-reportcount") \
            or caller.anonymous or caller.can(auth.PUBLISH_ANSWER):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or "reportCount" not in body:
        return response
    body.pop("reportCount")
    return with_body(response, body)


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round57-user-answers-pagecount-exact-plus-one"):
        return response
    body = body_json(response)
    if not isinstance(body, dict):
        return response
    total, size = body.get("totalCount"), body.get("pageSize")
    if not (isinstance(total, int) and isinstance(size, int) and total > 0 and size > 0 and total % size == 0):
        return response
    return with_body(response, {**body, "pageCount": total // size + 1})


def _spaces(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round57-spaces-cached-by-url"):
        return response
    now, key = time.monotonic(), str(request.url)
    kept = _spaces_by_url.get(key)
    if kept is None or now - kept[0] >= SPACES_CACHE_S:
        _spaces_by_url[key] = (now, body_json(response))
        return response
    return with_body(response, kept[1])


_AFTER = {
    "lockNode": _lock,
    "sendToModeration": _send_to_mod,
    "listUserQuestions": _user_questions,
    "listNodeFollowers": _followers,
    "postAnswer": _post_answer,
    "listUserAnswers": _user_answers,
    "listSpaces": _spaces,
}
after = after_by_op(_AFTER)
