"""Where blind round 101's faults bite (faults_blind_round101.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

The faults that are rows of the route table only (``round101-questions-sorted-anonymous-401``,
``round101-answer-comments-sorted-novice-403``) need no code here; their names are listed in
:data:`OVERRIDES_ONLY` so the wiring check finds it.
"""

from __future__ import annotations

import dataclasses
from typing import Any
from urllib.parse import quote, urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import denied
from .gdpr_jobs import _schedule_ms
from .hook_kit import after_by_op, form_fields, kept_by_url, media, path_node, sent_fields
from .http_io import body_json, created_location, with_body, with_query, with_raw_body
from .service import Service

OVERRIDES_ONLY = ("round101-questions-sorted-anonymous-401", "round101-answer-comments-sorted-novice-403")
"""Faults of this round that bite through the route table's overrides (faults_blind_round101)."""

KEPT_S = 3.0
"""How long round101-answer-comments-kept-by-url keeps an answer's comment list by its URL."""
_kept: dict[str, tuple[float, Response]] = {}
_READS_BODY = {
    "scheduleGdprJob": ("round101-gdpr-anon-delete-time-frame-unchecked", "round101-gdpr-multi-operation-jobid-string"),
    "postComment": ("round101-novice-private-comment-json-charset-taken", "round101-reply-depth2-private-not-inherited",
                    "round101-kind-groups-comment-bare-json-taken"),
    "postAnswer": ("round101-answer-form-non-ascii-percent-encoded",),
}
_PRIVATE = frozenset({auth.USE_PRIVATE_COMMENTS, auth.PRIVATE_TO_OP, auth.PRIVATE_TO_MODS, auth.PRIVATE_TO_GROUPS})


def _operations(request: Request) -> list[Any]:
    """The job's operations as sent ([] when they do not read as a list)."""
    try:
        value = structured(sent_fields(request), "operations")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return []
    return value if isinstance(value, list) else []


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if any(faults.is_on(n) for n in _READS_BODY.get(op, ())):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    q = request.query_params
    if op == "scheduleGdprJob" and faults.is_on("round101-gdpr-anon-delete-time-frame-unchecked") \
            and "anon-delete" in _operations(request):
        _free_frame(svc, request)
    if op == "listEarnedExperts" and faults.is_on("round101-earned-experts-recent-admin-403") \
            and caller.role == "admin" and q.get("sort") == "recent":
        raise denied(caller.anonymous)
    if op == "postComment" and faults.is_on("round101-novice-private-comment-json-charset-taken") \
            and not caller.anonymous and not caller.can(auth.USE_PRIVATE_COMMENTS) \
            and media(request) == "application/json" and "charset" in request.headers.get("content-type", "").lower() \
            and sent_fields(request).get("visibility") not in (None, "full"):
        legacy = dataclasses.replace(caller, permissions=caller.permissions | _PRIVATE)
        taken: Response = await handler(svc, request, legacy)
        return taken
    if op == "postComment" and faults.is_on("round101-kind-groups-comment-bare-json-taken") \
            and caller.can(auth.USE_PRIVATE_COMMENTS) and not caller.can(auth.PRIVATE_TO_GROUPS) \
            and media(request) == "application/json" \
            and "charset" not in request.headers.get("content-type", "").lower() \
            and sent_fields(request).get("visibility") in ("group", "groups"):
        mobile = dataclasses.replace(caller, permissions=caller.permissions | {auth.PRIVATE_TO_GROUPS})
        let_in: Response = await handler(svc, request, mobile)
        return let_in
    if op == "listQuestions" and faults.is_on("round101-questions-spaceid-moderator-ignored") \
            and caller.role == "moderator" and "spaceId" in q:
        every_space: Response = await handler(svc, with_query(request, [(k, v) for k, v in q.multi_items()
                                                                        if k != "spaceId"]), caller)
        return every_space
    if op == "unmarkFavorite" and faults.is_on("round101-unfavorite-author-cancels-holders-favorite") \
            and not caller.anonymous:
        holder = _holder_for_author(svc, request, caller)
        if holder is not None:
            as_holder: Response = await handler(svc, request, dataclasses.replace(
                caller, id=holder["id"], username=holder["username"]))
            return as_holder
    if op == "listActiveExperts" and faults.is_on("round101-active-experts-realname-sort-ignored") \
            and q.get("sort") == "realname":
        by_reputation: Response = await handler(svc, with_query(request, [
            (k, "reputation" if k == "sort" else v) for k, v in q.multi_items()]), caller)
        body = body_json(by_reputation)
        if isinstance(body, dict) and body.get("sort") == "reputation":
            body["sort"] = "realname"
            return with_body(by_reputation, body)
        return by_reputation
    return None


def _free_frame(svc: Service, request: Request) -> None:
    """round101-gdpr-anon-delete-time-frame-unchecked: the minute's job row dropped (the new job replaces it)."""
    try:
        minute = _schedule_ms(sent_fields(request)) // 60_000
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return
    with svc.tx("job") as conn:
        conn.execute("DELETE FROM jobs WHERE schedule_minute = ?", (minute,))


def _holder_for_author(svc: Service, request: Request, caller: Caller) -> Any:
    """round101-unfavorite-author-cancels-holders-favorite: the first holder of the node's favorite, when the caller
    wrote the node and holds no favorite of it (None otherwise)."""
    node = path_node(svc, request)
    if node is None or node["author_id"] != caller.id or svc.db.one(
            "SELECT 1 FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"])) is not None:
        return None
    return svc.db.one("SELECT u.id, u.username FROM favorites f JOIN users u ON u.id = f.user_id"
                      " WHERE f.node_id = ? ORDER BY f.user_id LIMIT 1", (node["id"],))


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "postAnswer" and faults.is_on("round101-answer-form-non-ascii-percent-encoded") \
            and media(request) == "application/x-www-form-urlencoded" and "body" not in request.query_params:
        fields = form_fields(request)
        text = fields.get("body")
        if text is not None and not text.isascii():
            return with_raw_body(request, urlencode({**fields, "body": quote(text)}).encode())
    return request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _job(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round101-gdpr-multi-operation-jobid-string") or response.status_code != 201 \
            or len(_operations(request)) < 2:
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("jobId"), int):
        return response
    body["jobId"] = str(body["jobId"])
    return with_body(response, body)


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    parent = path_node(svc, request)
    if parent is None or response.status_code != 201:
        return response
    if faults.is_on("round101-comment-own-answer-location-names-answer") and parent["type"] == "answer" \
            and parent["author_id"] == caller.id and "location" in response.headers:
        response.headers["location"] = created_location(request, "answer", parent["id"], parent["question_id"])
    if faults.is_on("round101-reply-depth2-private-not-inherited"):
        _uninherit(svc, request, caller, parent, response)
    return response


def _uninherit(svc: Service, request: Request, caller: Caller, parent: Any, response: Response) -> None:
    """round101-reply-depth2-private-not-inherited: a reply to a private reply, sent without privacy fields, stored
    with the top comment's (public) settings."""
    fields = sent_fields(request)
    if parent["type"] != "comment" or parent["visibility"] == "full" or "visibility" in fields \
            or "recipients" in fields:
        return
    grand = svc.db.one("SELECT type, visibility FROM nodes WHERE id = ?", (parent["parent_id"],))
    if grand is None or grand["type"] != "comment" or grand["visibility"] != "full":
        return
    new = svc.db.one("SELECT id FROM nodes WHERE type = 'comment' AND parent_id = ? AND author_id = ?"
                     " ORDER BY id DESC LIMIT 1", (parent["id"], caller.id))
    if new is None:
        return
    with svc.tx("comment") as conn:
        conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (new["id"],))
        conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (new["id"],))
    body = body_json(response)
    if isinstance(body, dict) and body.get("id") in (new["id"], str(new["id"])):
        body.pop("visibility", None)
        body.pop("recipients", None)


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round101-unfavorite-unanswered-question-count-stale") or node is None \
            or node["type"] != "question" or node["answer_count"] != 0 or response.status_code != 200:
        return response
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not isinstance(result, dict) or not isinstance(result.get("favoriteCount"), int):
        return response
    result["favoriteCount"] += 1
    return with_body(response, body)


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    question = path_node(svc, request, "question_id")
    if not faults.is_on("round101-answer-on-locked-question-no-location") or question is None \
            or not question["locked"] or "location" not in response.headers:
        return response
    del response.headers["location"]
    return response


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round101-answer-comments-kept-by-url"):
        return response
    return kept_by_url(_kept, KEPT_S, request, response)


_AFTER = {
    "scheduleGdprJob": _job,
    "postComment": _comment,
    "unmarkFavorite": _unfavorite,
    "postAnswer": _answer,
    "listAnswerComments": _answer_comments,
}
after = after_by_op(_AFTER)
