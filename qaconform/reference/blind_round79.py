"""Where blind round 79's faults bite (faults_blind_round79.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import base64
import binascii
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import ApiError, forbidden, unauthorized
from .hook_kit import (
    after_by_op,
    handled_with,
    kept_json_object,
    list_items,
    media,
    path_node,
    sent_fields,
    with_action,
)
from .http_io import body_json, with_body, with_json_body, with_query
from .service import Service, now_ms

KEPT_S = 3.0
"""How long round79-followers-totalcount-kept-by-path keeps a follower list's counts by its path."""
LAG_MS = 2_000
"""How far behind round79-gdpr-time-frame-replica-lag's replica reads the jobs."""
INT32_MAX = 2**31 - 1
_ORDINALS = ("suspend", "anonymize", "delete", "anon-delete")
_kept_counts: dict[str, tuple[float, Any, Any]] = {}
_READS_BODY = ("round79-gdpr-csv-id-past-32-bits-unchecked", "round79-gdpr-operations-ordinals-taken",
               "round79-gdpr-time-frame-replica-lag", "round79-gdpr-username-user-id-key",
               "round79-answer-form-charset-author-no-reputation")


def _password_has_colon(request: Request) -> bool:
    """Whether the Basic credentials' password (everything after the first colon) holds a colon itself."""
    header = request.headers.get("authorization", "")
    if not header.lower().startswith("basic "):
        return False
    try:
        decoded = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    return ":" in decoded.partition(":")[2]


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("scheduleGdprJob", "postAnswer") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "listAnswerComments" and faults.is_on("round79-answer-comments-v1-colon-password-refused") \
            and "v1" in request.query_params and not caller.anonymous and _password_has_colon(request):
        raise unauthorized()
    if op == "lockNode" and not caller.anonymous:
        return await _lock_before(svc, request, caller, handler)
    if op == "scheduleGdprJob" and faults.is_on("round79-gdpr-time-frame-replica-lag"):
        return await _job_on_lagging_replica(svc, request, caller, handler)
    return None


async def _lock_before(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    node = path_node(svc, request)
    if node is None or node["author_id"] == caller.id:
        return None
    if faults.is_on("round79-lock-moderator-accepted-answer-refused") and caller.can(auth.LOCK_ANY) \
            and not caller.can(auth.EDIT_USERS_AND_GROUPS) and node["type"] == "answer" and node["marked"]:
        raise forbidden()
    if faults.is_on("round79-lock-own-after-own-unfavorite") and caller.can(auth.LOCK_OWN) \
            and not caller.can(auth.LOCK_ANY) and svc.db.one(
                "SELECT 1 FROM actions WHERE node_id = ? AND verb = 'favorited' AND canceled = 1 AND user_id = ?",
                (node["id"], caller.id)) is not None:
        return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)
    return None


async def _job_on_lagging_replica(svc: Service, request: Request, caller: Caller, handler: Any) -> Response:
    """round79-gdpr-time-frame-replica-lag: the jobs scheduled in the last LAG_MS are not seen by the frame check;
    the new job takes their frame (one row a frame: it replaces the one there), the others are kept."""
    recent = svc.db.all("SELECT * FROM jobs WHERE creation_date >= ?", (now_ms() - LAG_MS,))
    if not recent:
        response: Response = await handler(svc, request, caller)
        return response
    with svc.tx("job") as conn:
        conn.executemany("DELETE FROM jobs WHERE id = ?", [(r["id"],) for r in recent])
    try:
        response = await handler(svc, request, caller)
    finally:
        with svc.tx("job") as conn:
            conn.executemany(
                "INSERT INTO jobs(type, schedule_minute, request, created_by, creation_date)"
                " SELECT ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE schedule_minute = ?)",
                [(r["type"], r["schedule_minute"], r["request"], r["created_by"], r["creation_date"],
                  r["schedule_minute"]) for r in recent])
    return response


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listQuestions" and faults.is_on("round79-questions-spaceid-v1-ignored") and "v1" in q \
            and "spaceId" in q:
        return with_query(request, [(k, v) for k, v in q.multi_items() if k != "spaceId"])
    if op == "scheduleGdprJob" and faults.is_on("round79-gdpr-csv-id-past-32-bits-unchecked"):
        request = _csv_past_32_bits(svc, request)
    if op == "scheduleGdprJob" and "operations" not in q and (
            faults.is_on("round79-gdpr-operations-ordinals-taken")
            or faults.is_on("round79-kind-gdpr-operations-ordinals-email-user")):
        return _ordinals_named(request)
    return request


def _ordinals_named(request: Request) -> Request:
    """round79-gdpr-operations-ordinals-taken (any JSON job) and its kind proof (an individual job naming its user by
    email only): integer elements of operations read as the names' ordinals."""
    body = kept_json_object(request)
    ops = body.get("operations") if body is not None else None
    if body is None or not isinstance(ops, list) or not any(type(o) is int for o in ops) or not all(
            (type(o) is int and 0 <= o < len(_ORDINALS)) or isinstance(o, str) for o in ops):
        return request
    user = body.get("user")
    by_email = isinstance(user, dict) and [k for k in user if user.get(k) not in (None, "")] == ["email"]
    if not faults.is_on("round79-gdpr-operations-ordinals-taken") and not by_email:
        return request
    return with_json_body(request, {**body, "operations": [_ORDINALS[o] if type(o) is int else o for o in ops]})


def _csv_past_32_bits(svc: Service, request: Request) -> Request:
    """round79-gdpr-csv-id-past-32-bits-unchecked: the lookup skipped, the job taken as if the file were there."""
    fields = sent_fields(request)
    if fields.get("type") != "bulk":
        return request
    raw = fields.get("csvFileId")
    try:
        csv = int(str(raw).strip()) if not isinstance(raw, bool) and raw is not None else None
    except ValueError:
        return request
    if csv is None or csv <= INT32_MAX:
        return request
    some = svc.db.one("SELECT MIN(id) AS id FROM csv_files")
    if some is None or some["id"] is None:
        return request
    pairs = [(k, v) for k, v in request.query_params.multi_items() if k != "csvFileId"]
    return with_query(request, [*pairs, ("csvFileId", str(some["id"]))])


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    page = request.query_params.get("page", "")
    if not faults.is_on("round79-topics-later-page-author-id") or not page.isdigit() or int(page) < 2:
        return response
    body, items = list_items(response)
    changed = False
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("author"), dict) and "id" in item["author"]:
            item["author"], changed = item["author"]["id"], True
    return with_body(response, body) if changed else response


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    ctype = request.headers.get("content-type", "").lower()
    if not faults.is_on("round79-answer-form-charset-author-no-reputation") \
            or media(request) != "application/x-www-form-urlencoded" or "charset" not in ctype:
        return response
    body = body_json(response)
    node = body.get("result", body) if isinstance(body, dict) else None
    node = node if isinstance(node, dict) and isinstance(node.get("author"), dict) else body
    if not isinstance(node, dict) or not isinstance(node.get("author"), dict) or "reputation" not in node["author"]:
        return response
    del node["author"]["reputation"]
    return with_body(response, body)


def _sendtomod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round79-sendtomod-accepted-answer-not-private") or node is None \
            or node["type"] != "answer" or not node["marked"]:
        return response
    return with_action(response, "sendToModAction", {"private": False})


def _active_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not faults.is_on("round79-active-experts-username-v1-by-id") or q.get("sort") != "username" or "v1" not in q:
        return response
    body, items = list_items(response)
    if not items or not all(isinstance(i, dict) and isinstance(i.get("id"), int) for i in items):
        return response
    items.sort(key=lambda i: i["id"])
    return with_body(response, body)


def _job(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round79-gdpr-username-user-id-key") or response.status_code != 201:
        return response
    try:
        user = structured(sent_fields(request), "user")
    except ApiError:
        return response
    if not isinstance(user, dict) or [k for k in user if user.get(k) not in (None, "")] != ["username"]:
        return response
    body = body_json(response)
    if not isinstance(body, dict) or "jobId" not in body:
        return response
    body["id"] = body.pop("jobId")
    return with_body(response, body)


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round79-lock-after-unfavorite-extra-null") or node is None or svc.db.one(
            "SELECT 1 FROM actions WHERE node_id = ? AND verb = 'favorited' AND canceled = 1 AND user_id != ?",
            (node["id"], caller.id)) is None:
        return response
    return with_action(response, "lockAction", {"extra": None})


def _followers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round79-followers-totalcount-kept-by-path"):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or "totalCount" not in body:
        return response
    now, key = time.monotonic(), request.url.path
    kept = _kept_counts.get(key)
    if kept is None or now - kept[0] >= KEPT_S:
        _kept_counts[key] = (now, body.get("totalCount"), body.get("pageCount"))
        return response
    body["totalCount"], body["pageCount"] = kept[1], kept[2]
    return with_body(response, body)


_AFTER = {
    "listTopics": _topics,
    "postAnswer": _answer,
    "sendToModeration": _sendtomod,
    "listActiveExperts": _active_experts,
    "scheduleGdprJob": _job,
    "lockNode": _lock,
    "listNodeFollowers": _followers,
}
after = after_by_op(_AFTER)
