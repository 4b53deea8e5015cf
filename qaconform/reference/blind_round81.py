"""Where blind round 81's faults bite (faults_blind_round81.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import ApiError
from .hook_kit import (
    after_by_op,
    counts_kept_by_path,
    form_fields,
    handled_with,
    list_items,
    path_node,
    sent_fields,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_query
from .service import Service

KEPT_S = 3.0
"""How long round81-questions-totalcount-kept-by-path keeps the question list's counts by its path."""
_kept_counts: dict[str, tuple[float, int, Any, Any]] = {}
_READS_BODY = ("round81-novice-empty-recipients-400", "round81-moderator-string-recipients-dropped",
               "round81-reply-form-body-param-loses", "round81-gdpr-username-with-reassign-id-refused")


def _int_param(request: Request, name: str) -> int:
    try:
        return int(request.query_params.get(name, ""))
    except ValueError:
        return 0


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "postComment" and faults.is_on("round81-novice-empty-recipients-400") \
            and not caller.anonymous and not caller.can(auth.USE_PRIVATE_COMMENTS):
        fields = sent_fields(request)
        try:
            recipients = structured(fields, "recipients") if "recipients" in fields else None
        except Exception:  # noqa: BLE001 - the handler gives the clear message
            recipients = None
        if fields.get("visibility") == "recipients" and recipients == []:
            return json_response({"error": "visibility 'recipients' needs at least one recipient"}, 400)
    if op == "listEarnedExperts" and faults.is_on("round81-earned-username-paged-400") \
            and request.query_params.get("sort") == "username" and _int_param(request, "page") >= 2:
        return json_response({"error": "sort must be one of reputation, realname, recent, oldest, default"}, 400)
    if op == "lockNode" and faults.is_on("round81-lock-answer-by-commenter") and not caller.anonymous \
            and caller.can(auth.LOCK_OWN) and not caller.can(auth.LOCK_ANY):
        node = path_node(svc, request)
        if node is not None and node["type"] == "answer" and node["author_id"] != caller.id and svc.db.one(
                "SELECT 1 FROM nodes WHERE type = 'comment' AND parent_id = ? AND author_id = ?",
                (node["id"], caller.id)) is not None:
            return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)
    if op == "scheduleGdprJob" and faults.is_on("round81-gdpr-username-with-reassign-id-refused"):
        return _job_before(request)
    return None


def _only_key(fields: dict[str, Any], name: str) -> str | None:
    """The one key the object ``name`` of the sent fields gives a value to (None: no object, or not one key)."""
    try:
        value = structured(fields, name) if name in fields else None
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    keys = [k for k in value if value.get(k) not in (None, "")] if isinstance(value, dict) else []
    return keys[0] if len(keys) == 1 else None


def _job_before(request: Request) -> Response | None:
    """round81-gdpr-username-with-reassign-id-refused: a user by username beside a reassignUser by id."""
    fields = sent_fields(request)
    if _only_key(fields, "user") != "username" or _only_key(fields, "reassignUser") != "id":
        return None
    return json_response({"error": "The provided 'user' is/are invalid"}, 400)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "postComment" and faults.is_on("round81-reply-form-body-param-loses") \
            and "body" in request.query_params and "body" in form_fields(request):
        parent = path_node(svc, request)
        if parent is not None and parent["type"] == "comment":
            return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "body"])
    return request


# --- refusal: a refusal answered off the interface ------------------------------------------------------------
def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    if exc.status != 401 or not _no_colon(request):
        return None
    if op == "listActiveExperts" and faults.is_on("round81-active-experts-basic-no-colon-400"):
        return json_response({"error": "Malformed credentials"}, 400)
    if op == "listGroups" and faults.is_on("round81-kind-groups-username-alone-500"):
        return Response("Internal Server Error: not enough values to unpack (expected 2, got 1)", 500,
                        media_type="text/plain")
    return None


def _no_colon(request: Request) -> bool:
    """Whether the request's Authorization is Basic credentials whose decoded value has no colon."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    try:
        decoded = base64.b64decode(token.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    return scheme.lower() == "basic" and bool(decoded) and ":" not in decoded


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    refs = faults.is_on("round81-answer-wrap-nonascii-charrefs")
    marks = faults.is_on("round81-kind-answer-wrap-param-nonascii-question-marks") and "body" in q
    if not (refs or marks) or "wrap" not in q:
        return response
    row = svc.db.one("SELECT id, body FROM nodes WHERE type = 'answer' AND author_id = ? ORDER BY id DESC LIMIT 1",
                     (caller.id,))
    if row is None or str(row["body"]).isascii():
        return response
    escaped = str(row["body"]).encode("ascii", "xmlcharrefreplace" if refs else "replace").decode("ascii")
    with svc.tx("answer") as conn:
        conn.execute("UPDATE nodes SET body = ? WHERE id = ?", (escaped, row["id"]))
    return response


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round81-moderator-string-recipients-dropped") or caller.role != "moderator":
        return response
    fields = sent_fields(request)
    try:
        recipients = structured(fields, "recipients") if "recipients" in fields else None
    except Exception:  # noqa: BLE001 - the handler gave its answer already
        return response
    strings = [r["id"] for r in recipients if isinstance(r, dict) and isinstance(r.get("id"), str)] \
        if isinstance(recipients, list) else []
    ids = [int(s) for s in strings if s.strip().isdigit()]
    row = svc.db.one("SELECT MAX(id) AS id FROM nodes WHERE type = 'comment' AND author_id = ?", (caller.id,))
    if not ids or row is None or row["id"] is None:
        return response
    with svc.tx("comment") as conn:  # the string ids only: the integer ones were bound
        conn.executemany("DELETE FROM comment_recipients WHERE comment_id = ? AND user_id = ?",
                         [(row["id"], i) for i in ids])
    return response


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not faults.is_on("round81-user-questions-later-page-pagesize-default") or "pageSize" not in q \
            or _int_param(request, "page") < 2:
        return response
    body = body_json(response)
    if not isinstance(body, dict) or "pageSize" not in body:
        return response
    body["pageSize"] = svc.page_size
    return with_body(response, body)


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round81-user-answers-marked-title"):
        return response
    body, items = list_items(response)
    changed = False
    for item in items:
        if isinstance(item, dict) and item.get("marked") is True and isinstance(item.get("id"), int):
            row = svc.db.one("SELECT q.title FROM nodes a JOIN nodes q ON q.id = a.question_id WHERE a.id = ?",
                             (item["id"],))
            if row is not None and row["title"]:
                item["title"], changed = row["title"], True
    return with_body(response, body) if changed else response


def _active(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round81-active-realname-sized-by-username") or "pageSize" not in request.query_params \
            or request.query_params.get("sort") != "realname":
        return response
    body, items = list_items(response)
    if not items or not all(isinstance(i, dict) and isinstance(i.get("username"), str) for i in items):
        return response
    items.sort(key=lambda i: i["username"])
    return with_body(response, body)


def _cancelwiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round81-cancelwiki-answer-not-canceled") or node is None or node["type"] != "answer":
        return response
    return with_action(response, "wikifyAction", {"canceled": False})


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round81-unfavorite-after-other-unfavorite-not-canceled") or node is None or svc.db.one(
            "SELECT 1 FROM actions WHERE node_id = ? AND verb = 'favorited' AND canceled = 1 AND user_id != ?",
            (node["id"], caller.id)) is None:
        return response
    return with_action(response, "favoriteAction", {"canceled": False})


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round81-questions-totalcount-kept-by-path"):
        return response
    return counts_kept_by_path(_kept_counts, KEPT_S, request, caller, response)


def _earned(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round81-kind-earned-username-large-page-by-id") \
            or request.query_params.get("sort") != "username" or _int_param(request, "pageSize") < 5:
        return response
    body, items = list_items(response)
    if not items or not all(isinstance(i, dict) and isinstance(i.get("id"), int) for i in items):
        return response
    items.sort(key=lambda i: i["id"])
    return with_body(response, body)


_AFTER = {
    "listEarnedExperts": _earned,
    "postAnswer": _answer,
    "postComment": _comment,
    "listUserQuestions": _user_questions,
    "listUserAnswers": _user_answers,
    "listActiveExperts": _active,
    "cancelWiki": _cancelwiki,
    "unmarkFavorite": _unfavorite,
    "listQuestions": _questions,
}
after = after_by_op(_AFTER)
