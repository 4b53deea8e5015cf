"""Where blind round 83's faults bite (faults_blind_round83.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages) and one clause of the answer comment list. Every function leaves the call as
it is unless its own fault is on.
"""

from __future__ import annotations

import dataclasses
import sqlite3
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import ApiError
from .hook_kit import (
    after_by_op,
    handled_with,
    kept_json_object,
    path_node,
    sent_fields,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_query
from .service import Service
from .visibility import internal_name

KEPT_S = 3.0
"""How long round83-unfavorite-count-kept-by-node keeps a node's favoriteCount."""
_kept_counts: dict[int, tuple[float, int, Any]] = {}
_READS_BODY = ("round83-gdpr-operations-string-message-body", "round83-novice-op-question-comment-stored-before-403",
               "round83-novice-private-comment-wrap-let-in", "round83-comment-query-op-recipients-201",
               "round83-answer-wrap-json-body-wins", "round83-gdpr-email-user-timestamp-refused")
_PRIVATE = frozenset({auth.USE_PRIVATE_COMMENTS, auth.PRIVATE_TO_OP, auth.PRIVATE_TO_MODS, auth.PRIVATE_TO_GROUPS})


def answer_comments_clause(svc: Service, answer: sqlite3.Row, caller: Caller, clause: str) -> str:
    """node_lists._answer_comments: the question's author reads the recipients comments as if they were op ones."""
    if caller.anonymous or not faults.is_on("round83-question-author-reads-recipients-comments"):
        return clause
    asker = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (answer["question_id"],))
    if asker is None or asker["author_id"] != caller.id:
        return clause
    return f"({clause} OR n.visibility = 'recipients')"


def _visibility(fields: dict[str, Any]) -> str | None:
    value = fields.get("visibility")
    return internal_name(value) if isinstance(value, str) else None


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob", "postAnswer") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "scheduleGdprJob":
        return _job_before(request)
    if op == "cancelWiki" and faults.is_on("round83-cancelwiki-answer-by-commenter") and not caller.anonymous \
            and caller.can(auth.CONVERT_OWN_TO_WIKI) and not caller.can(auth.MARK_WIKI):
        node = path_node(svc, request)
        if node is not None and node["type"] == "answer" and node["author_id"] != caller.id and svc.db.one(
                "SELECT 1 FROM nodes WHERE type = 'comment' AND parent_id = ? AND author_id = ?",
                (node["id"], caller.id)) is not None:
            return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)
    if op == "postComment":
        return await _comment_before(svc, request, caller, handler)
    return None


async def _comment_before(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    fields = sent_fields(request)
    visibility = _visibility(fields)
    if caller.anonymous or caller.can(auth.USE_PRIVATE_COMMENTS) or visibility in (None, "full"):
        return None
    if faults.is_on("round83-novice-private-comment-wrap-let-in") and "wrap" in request.query_params:
        let_in = dataclasses.replace(caller, permissions=caller.permissions | _PRIVATE)
        response: Response = await handler(svc, request, let_in)
        return response
    parent = path_node(svc, request)
    if faults.is_on("round83-novice-op-question-comment-stored-before-403") and visibility == "op" \
            and parent is not None and parent["type"] == "question" \
            and isinstance(fields.get("body"), str) and fields["body"].strip():
        from .comments import _insert_comment  # the handler's own insert, as the broken thread saves first

        _insert_comment(svc, caller, parent, fields["body"], "full", [])
    return None  # the handler refuses (403)


def _job_before(request: Request) -> Response | None:
    body = kept_json_object(request)
    if faults.is_on("round83-gdpr-operations-string-message-body") and body is not None \
            and isinstance(body.get("operations"), str):
        return json_response({"message": "JSON parse error: Cannot deserialize value of type "
                                         "`java.util.ArrayList<java.lang.String>` from String value"}, 400)
    if not faults.is_on("round83-gdpr-email-user-timestamp-refused"):
        return None
    fields = sent_fields(request)
    try:
        user = structured(fields, "user") if "user" in fields else None
        date = structured(fields, "scheduleDate") if "scheduleDate" in fields else None
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    if fields.get("type") != "individual" or not isinstance(user, dict) or not isinstance(date, dict):
        return None
    keys = [k for k, v in user.items() if v not in (None, "")]
    if keys == ["email"] and "timeStamp" in date:
        return json_response({"error": "The individual type was selected, but the request is missing the user "
                                       "(username or id)."}, 400)
    return None


# --- refusal: a refusal answered off the interface ------------------------------------------------------------
def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    if op != "unmarkFavorite" or not faults.is_on("round83-novice-unfavorite-comment-200") or exc.status != 403:
        return None
    try:
        caller = caller or svc.caller(request)  # refused at the door: the caller as the credentials name it
    except ApiError:
        return None
    if caller.anonymous or caller.can(auth.MARK_FAVORITE):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "comment":
        return None
    return json_response({"success": False, "result": {}}, 200)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "postAnswer" and faults.is_on("round83-answer-wrap-json-body-wins") and "wrap" in q and "body" in q:
        body = kept_json_object(request)
        if body is not None and "body" in body:
            return with_query(request, [(k, v) for k, v in q.multi_items() if k != "body"])
    if op == "listUserAnswers" and _sorted_later_page(request) is not None:
        return with_query(request, [(k, "1" if k == "page" else v) for k, v in q.multi_items()])
    if op == "postComment" and faults.is_on("round83-comment-query-op-recipients-201") \
            and "visibility" in q and "recipients" in q and internal_name(q["visibility"]) != "recipients":
        kept = kept_json_object(request) or {}
        if "visibility" not in kept and "recipients" not in kept:
            return with_query(request, [(k, v) for k, v in q.multi_items() if k != "recipients"])
    return request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    second = faults.is_on("round83-second-private-reply-takes-first-recipients")
    sticky = faults.is_on("round83-private-comment-after-own-public-stored-full")
    parent = path_node(svc, request)
    if not (second or sticky) or parent is None:
        return response
    new = svc.db.one("SELECT id, visibility FROM nodes WHERE type = 'comment' AND author_id = ? AND parent_id = ?"
                     " ORDER BY id DESC LIMIT 1", (caller.id, parent["id"]))
    if new is None or new["visibility"] != "recipients":
        return response
    if second and parent["type"] == "comment" and parent["visibility"] == "full":
        earlier = svc.db.one("SELECT id FROM nodes WHERE type = 'comment' AND parent_id = ? AND id < ? AND "
                             "visibility = 'recipients' ORDER BY id DESC LIMIT 1", (parent["id"], new["id"]))
        if earlier is not None:
            with svc.tx("comment") as conn:
                conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (new["id"],))
                conn.execute("INSERT INTO comment_recipients(comment_id, user_id) SELECT ?, user_id FROM "
                             "comment_recipients WHERE comment_id = ?", (new["id"], earlier["id"]))
    if sticky and svc.db.one("SELECT 1 FROM nodes WHERE type = 'comment' AND author_id = ? AND parent_id = ? AND "
                             "id < ? AND visibility = 'full'", (caller.id, parent["id"], new["id"])) is not None:
        with svc.tx("comment") as conn:
            conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (new["id"],))
            conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (new["id"],))
    return response


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round83-lock-wrap-verb-lock") and "wrap" in request.query_params:
        response = with_action(response, "lockAction", {"verb": "lock"})
    node = path_node(svc, request)
    if faults.is_on("round83-lock-wiki-node-extra-null") and node is not None and node["wiki"]:
        response = with_action(response, "lockAction", {"extra": None})
    return response


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    asked = _sorted_later_page(request)
    body = body_json(response)
    if asked is None or not isinstance(body, dict) or "page" not in body:
        return response
    body["page"] = asked  # the echo is right; the items are page 1's
    return with_body(response, body)


def _sorted_later_page(request: Request) -> int | None:
    """round83-user-answers-sorted-later-pages-first: the page a sorted read of a user's answers asked past 1."""
    q = request.query_params
    if not faults.is_on("round83-user-answers-sorted-later-pages-first") or not q.get("sort"):
        return None
    try:
        page = int(q.get("page", ""))
    except ValueError:
        return None
    return page if page >= 2 else None


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round83-unfavorite-count-kept-by-node") or node is None:
        return response
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not isinstance(result, dict) or "favoriteCount" not in result:
        return response
    now = time.monotonic()
    kept = _kept_counts.get(node["id"])
    if kept is None or now - kept[0] >= KEPT_S or kept[1] == caller.id:
        _kept_counts[node["id"]] = (now, caller.id, result["favoriteCount"])
        return response
    result["favoriteCount"] = kept[2]
    return with_body(response, body)


_AFTER = {
    "postComment": _comment,
    "lockNode": _lock,
    "listUserAnswers": _user_answers,
    "unmarkFavorite": _unfavorite,
}
after = after_by_op(_AFTER)
