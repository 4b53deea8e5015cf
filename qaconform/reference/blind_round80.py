"""Where blind round 80's faults bite (faults_blind_round80.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import forbidden
from .hook_kit import (
    after_by_op,
    form_fields,
    ids_cached,
    kept_json_object,
    list_items,
    media,
    path_node,
    result_action,
    sent_fields,
    with_items_added,
)
from .http_io import body_json, json_response, with_body, with_json_body, with_query
from .service import Service

CACHE_S = 5.0
"""How long round80-unfavorite-count-from-list-cache keeps a node a question list rendered."""
KEPT_S = 3.0
"""How long round80-answer-comments-ids-kept-per-node keeps a comment's ids."""
_rendered: dict[int, tuple[float, int]] = {}
_kept_ids: dict[int, tuple[float, int, Any, Any]] = {}
_STARTED_MS = int(time.time() * 1000)
_READS_BODY = ("round80-comment-privacy-json-body-text-wins", "round80-answer-node-fields-json-body-wins",
               "round80-gdpr-no-type-form-csv-bulk", "round80-comment-charset-recipients-without-visibility-201",
               "round80-gdpr-email-user-four-operations-refused", "round80-kind-gdpr-no-type-form-user-individual")
_OPERATIONS = {"suspend", "anonymize", "delete", "anon-delete"}


def _denied() -> Response:
    err = forbidden()
    return json_response(err.body, err.status)


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "postAnswer", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "cancelWiki" and faults.is_on("round80-cancelwiki-own-wrap-refused") and "wrap" in request.query_params \
            and not caller.anonymous and caller.can(auth.CONVERT_OWN_TO_WIKI) and not caller.can(auth.MARK_WIKI):
        node = path_node(svc, request)
        if node is not None and node["author_id"] == caller.id and node["wiki"]:
            return _denied()
    if op == "listQuestions" and faults.is_on("round80-questions-favoritecount-sort-novice-403") \
            and request.query_params.get("sort") == "favoriteCount" and not caller.anonymous \
            and not caller.can(auth.MARK_FAVORITE):
        return _denied()
    if op == "scheduleGdprJob" and faults.is_on("round80-gdpr-email-user-four-operations-refused"):
        return _four_by_email(request)
    return None


def _four_by_email(request: Request) -> Response | None:
    """round80-gdpr-email-user-four-operations-refused: an individual job by email with all four operations."""
    fields = sent_fields(request)
    try:
        user, operations = structured(fields, "user"), structured(fields, "operations")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    if not isinstance(user, dict) or [k for k in user if user.get(k) not in (None, "")] != ["email"]:
        return None
    if not isinstance(operations, list) or len(operations) != 4 or set(operations) != _OPERATIONS:
        return None
    return json_response({"error": "The provided 'operations' is/are invalid"}, 400)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "postComment":
        return _comment_admitted(request)
    if op == "postAnswer" and faults.is_on("round80-answer-node-fields-json-body-wins") \
            and "body" in request.query_params:
        sent = kept_json_object(request, loose=True) or {}
        if "body" in sent and set(sent) - {"body"}:
            return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "body"])
    if op == "scheduleGdprJob" and "type" not in request.query_params:
        form = form_fields(request)
        kind = None
        if form and "type" not in form and form.get("csvFileId") and faults.is_on("round80-gdpr-no-type-form-csv-bulk"):
            kind = "bulk"
        if form and "type" not in form and form.get("user") and faults.is_on(
                "round80-kind-gdpr-no-type-form-user-individual"):
            kind = "individual"
        if kind is not None:
            return with_query(request, [*request.query_params.multi_items(), ("type", kind)])
    return request


def _comment_admitted(request: Request) -> Request:
    ctype = request.headers.get("content-type", "").lower()
    if faults.is_on("round80-comment-privacy-json-body-text-wins") and "body" in request.query_params:
        sent = kept_json_object(request, loose=True) or {}
        if "body" in sent and "visibility" in sent:
            return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "body"])
    if faults.is_on("round80-comment-charset-recipients-without-visibility-201") \
            and media(request) == "application/json" and "charset" in ctype:
        sent = kept_json_object(request) or {}
        visibility = request.query_params.get("visibility", sent.get("visibility"))
        if sent.get("recipients") and "recipients" not in request.query_params and visibility != "recipients":
            return with_json_body(request, {k: v for k, v in sent.items() if k != "recipients"})
    return request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _rendered_lists(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round80-unfavorite-count-from-list-cache"):
        now = time.monotonic()
        for item in list_items(response)[1]:
            if isinstance(item, dict) and isinstance(item.get("id"), int):
                row = svc.db.one("SELECT favorite_count FROM nodes WHERE id = ?", (item["id"],))
                if row is not None:
                    _rendered[item["id"]] = (now, int(row["favorite_count"]))
    return response


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round80-unfavorite-count-from-list-cache") or node is None:
        return response
    seen = _rendered.get(int(node["id"]))
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if seen is None or time.monotonic() - seen[0] >= CACHE_S or not isinstance(result, dict) \
            or not isinstance(result.get("favoriteCount"), int):
        return response
    result["favoriteCount"] = seen[1]  # the count as the list's rendering had it
    return with_body(response, body)


def _content(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not isinstance(body, list) or not faults.is_on("round80-content-public-reply-actiondate-no-fraction"):
        return response
    changed = False
    for entry in body:
        node = entry.get("node") if isinstance(entry, dict) else None
        if not isinstance(node, dict) or node.get("type") != "comment" or not isinstance(node.get("id"), int):
            continue
        if svc.db.one("SELECT 1 FROM nodes n JOIN nodes p ON p.id = n.parent_id WHERE n.id = ? AND p.type = 'comment'"
                      " AND n.visibility = 'full'", (node["id"],)) is not None \
                and isinstance(entry.get("actionDate"), str) and "." in entry["actionDate"]:
            entry["actionDate"] = entry["actionDate"].rsplit(".", 1)[0]
            changed = True
    return with_body(response, body) if changed else response


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round80-user-answers-commented-answers-listed: others' answers the user commented on, on the first page."""
    raw = request.path_params.get("user_id", "")
    body, items = list_items(response)
    if not faults.is_on("round80-user-answers-commented-answers-listed") or not raw.isdecimal() \
            or not isinstance(body, dict) or body.get("page") != 1 \
            or any(p in request.query_params for p in ("include", "exclude", "includeOnly")):
        return response  # the projected query is another code path
    listed = {i.get("id") for i in items if isinstance(i, dict)}
    ids = [i for i in svc.db.ids(
        "SELECT DISTINCT a.id FROM nodes a JOIN nodes c ON c.answer_id = a.id WHERE c.type = 'comment'"
        " AND c.author_id = ? AND a.type = 'answer' AND a.author_id != ? AND a.in_moderation = 0 AND a.listed = 1"
        " ORDER BY a.id", (int(raw), int(raw))) if i not in listed]
    if not ids:
        return response
    return with_items_added(response, body, items, svc.render.nodes_json(svc.render.nodes_by_ids(ids), caller))


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round80-lock-answer-success-string") or node is None or node["type"] != "answer":
        return response
    body = body_json(response)
    if result_action(body, "lockAction") is None or body.get("success") is not True:
        return response
    body["success"] = "true"
    return with_body(response, body)


def _spaces(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    sort = request.query_params.get("sort")
    if not faults.is_on("round80-spaces-invalid-sort-sized-by-name") or not sort \
            or "pageSize" not in request.query_params:
        return response
    body, items = list_items(response)
    if not isinstance(body, dict) or body.get("sort") == sort or not items \
            or not all(isinstance(i, dict) and isinstance(i.get("id"), int) for i in items):
        return response
    items.sort(key=lambda i: i["id"])
    return with_body(response, body)


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round80-answer-comments-ids-kept-per-node"):
        response = ids_cached(_kept_ids, KEPT_S, caller, response)
    if faults.is_on("round80-own-answer-comments-no-sorts"):
        answer = path_node(svc, request, "answer_id")
        body = body_json(response)
        if answer is not None and answer["type"] == "answer" and answer["creation_date"] >= _STARTED_MS \
                and isinstance(body, dict) and "sorts" in body:
            del body["sorts"]
            response = with_body(response, body)
    return response


_AFTER = {
    "listQuestions": _rendered_lists,
    "listUserQuestions": _rendered_lists,
    "unmarkFavorite": _unfavorite,
    "listUserContent": _content,
    "listUserAnswers": _user_answers,
    "lockNode": _lock,
    "listSpaces": _spaces,
    "listAnswerComments": _answer_comments,
}
after = after_by_op(_AFTER)
