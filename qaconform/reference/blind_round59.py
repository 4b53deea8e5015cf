"""Where blind round 59's faults bite (faults_blind_round59.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

round59-sendtomod-member-v1-allowed is let in by an override of the route table (the door decides it).
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
    path_node,
    result_action,
    sent_fields,
)
from .http_io import body_json, is_id, json_response, with_body, with_json_body, with_query
from .service import Service

COMMENTS_KEPT_S = 3.0
"""How long round59-answer-comments-kept-per-reader keeps an answer's comment list by URL and reader."""
_comments_kept: dict[tuple[int, str], tuple[float, Any]] = {}
_last_privacy: dict[int, dict[str, Any]] = {}
"""round59-comment-sticky-privacy: each account's last private comment's settings (the editor remembers them)."""

_GDPR_OPERATIONS = ("suspend", "anonymize", "delete", "anon-delete")
_EMPTY_PARAGRAPH = "<p></p>"
_READS_BODY = (
    "round59-gdpr-bulk-operation-names-unchecked", "round59-gdpr-type-individual-param-ignored",
    "round59-gdpr-bulk-reassign-unchecked", "round59-gdpr-email-user-delete-refused",
    "round59-reply-comment-body-optional", "round59-comment-sticky-privacy", "round59-comment-charset-privacy-dropped",
)


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("scheduleGdprJob", "postComment") and any(faults.is_on(name) for name in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "scheduleGdprJob" and faults.is_on("round59-gdpr-email-user-delete-refused"):
        body = kept_json_object(request)
        user = body.get("user") if body else None
        operations = body.get("operations") if body else None
        if body and body.get("type") == "individual" and isinstance(user, dict) and set(user) == {"email"} \
                and isinstance(operations, list) and ({"delete", "anon-delete"} & set(map(str, operations))):
            return json_response({"error": "The provided 'user' is invalid"}, 400)
    if op == "cancelWiki" and faults.is_on("round59-cancelwiki-answer-question-author-owns"):
        return await _unwikify_as_question_author(svc, request, caller, handler)
    return None


async def _unwikify_as_question_author(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round59-cancelwiki-answer-question-author-owns: "own" taken from the author of the answer's question."""
    return await let_in_through(svc, request, caller, handler, kind="answer", own=auth.CONVERT_OWN_TO_WIKI,
                                granted=auth.MARK_WIKI, through=("question_id", "parent_id"))


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "scheduleGdprJob":
        return _job(svc, request)
    if op == "postComment":
        return _comment(svc, request, caller)
    q = request.query_params
    if op == "listNodeFollowers" and faults.is_on("round59-followers-active-false-relations") \
            and "details" not in q and (q.get("active") or "").lower() == "false":
        return with_query(request, [*q.multi_items(), ("details", "true")])
    if op == "listEarnedExperts" and faults.is_on("round59-earned-experts-realname-by-username") \
            and q.get("sort") == "realname":
        return with_query(request, [(k, "username" if k == "sort" else v) for k, v in q.multi_items()])
    return request


def _job(svc: Service, request: Request) -> Request:
    body = kept_json_object(request)
    if body is None:
        return request
    q = request.query_params
    if faults.is_on("round59-gdpr-type-individual-param-ignored") and q.get("type") == "individual" \
            and "type" not in body:
        return with_query(request, [(k, v) for k, v in q.multi_items() if k != "type"])
    if body.get("type") != "bulk" or "type" in q:
        return request
    operations = body.get("operations")
    if faults.is_on("round59-gdpr-bulk-operation-names-unchecked") and isinstance(operations, list) \
            and 1 <= len(operations) <= 4 and any(o not in _GDPR_OPERATIONS for o in operations):
        named = [o if o in _GDPR_OPERATIONS else "suspend" for o in operations]
        return with_json_body(request, {**body, "operations": named})
    reassign = body.get("reassignUser")
    if faults.is_on("round59-gdpr-bulk-reassign-unchecked") and isinstance(reassign, dict) and len(reassign) == 1 \
            and not _user_exists(svc, reassign):
        return with_json_body(request, {k: v for k, v in body.items() if k != "reassignUser"})
    return request


def _user_exists(svc: Service, ref: dict[str, Any]) -> bool:
    if "username" in ref:
        return svc.db.one("SELECT 1 FROM users WHERE username = ?", (str(ref["username"]),)) is not None
    raw = str(ref.get("id", ""))
    return is_id(raw) and svc.db.one("SELECT 1 FROM users WHERE id = ?", (int(raw),)) is not None


def _comment(svc: Service, request: Request, caller: Caller) -> Request:
    body = kept_json_object(request)
    q = request.query_params
    if body is not None and faults.is_on("round59-comment-charset-privacy-dropped") \
            and "charset" in request.headers.get("content-type", "").lower() \
            and ("visibility" in body or "recipients" in body):
        return with_json_body(request, {k: v for k, v in body.items() if k not in ("visibility", "recipients")})
    parent = path_node(svc, request)
    if parent is None:
        return request
    if body is not None and faults.is_on("round59-reply-comment-body-optional") and parent["type"] == "comment" \
            and body.get("body") in (None, "") and not q.get("body"):
        return with_json_body(request, {**body, "body": _EMPTY_PARAGRAPH})
    kept = _last_privacy.get(caller.id)
    if body is not None and kept and faults.is_on("round59-comment-sticky-privacy") \
            and not ({"visibility", "recipients"} & (set(body) | set(q))) \
            and not (parent["type"] == "comment" and parent["visibility"] != "full"):
        return with_json_body(request, {**body, **kept})
    return request


# --- after: the handler's response as the broken server serves it --------------------------------------------
def _posted_comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round59-comment-sticky-privacy") and not caller.anonymous:
        sent = sent_fields(request)
        if sent.get("visibility") not in (None, "", "full"):
            _last_privacy[caller.id] = {k: sent[k] for k in ("visibility", "recipients") if k in sent}
    return response


def _posted_answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not faults.is_on("round59-answer-second-by-same-account-moderated") \
            or not caller.can(auth.PUBLISH_ANSWER):
        return response
    body = body_json(response)
    raw = str(body.get("id", "")) if isinstance(body, dict) else ""
    question = request.path_params.get("question_id", "")
    if not (is_id(raw) and is_id(question)):
        return response
    earlier = svc.db.one(
        "SELECT 1 FROM nodes WHERE type = 'answer' AND parent_id = ? AND author_id = ? AND id <> ?"
        " AND in_moderation = 0", (int(question), caller.id, int(raw)))
    if earlier is None:
        return response
    with svc.tx("answer", "answer_count") as conn:
        conn.execute("UPDATE nodes SET in_moderation = 1 WHERE id = ?", (int(raw),))
        conn.execute("UPDATE nodes SET answer_count = MAX(answer_count - 1, 0) WHERE id = ?", (int(question),))
    return response


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    page = request.query_params.get("page", "")
    if not faults.is_on("round59-user-questions-later-page-no-sorts") or not (is_id(page) and int(page) >= 2):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or "sorts" not in body:
        return response
    return with_body(response, {k: v for k, v in body.items() if k != "sorts"})


def _cancel_wiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if node is None or node["type"] != "question" or not node["marked"] or node["wiki"]:
        return response
    if faults.is_on("round59-cancelwiki-accepted-question-stays-wiki"):
        with svc.tx("wiki") as conn:
            conn.execute("UPDATE nodes SET wiki = 1 WHERE id = ?", (node["id"],))
    body = body_json(response)
    action = result_action(body, "wikifyAction")
    if faults.is_on("round59-kind-cancelwiki-accepted-question-not-canceled") and action is not None:
        action["canceled"] = False
        return with_body(response, body)
    return response


def _earned_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round59-earned-experts-realname-by-username") \
            or request.query_params.get("sort") != "realname":
        return response
    body = body_json(response)
    if not isinstance(body, dict) or body.get("sort") != "username":
        return response
    return with_body(response, {**body, "sort": "realname"})


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round59-answer-comments-kept-per-reader"):
        return response
    now, key = time.monotonic(), (caller.id, str(request.url))
    kept = _comments_kept.get(key)
    if kept is None or now - kept[0] >= COMMENTS_KEPT_S:
        _comments_kept[key] = (now, body_json(response))
        return response
    return with_body(response, kept[1])


_AFTER = {
    "postComment": _posted_comment,
    "postAnswer": _posted_answer,
    "listUserQuestions": _user_questions,
    "cancelWiki": _cancel_wiki,
    "listEarnedExperts": _earned_experts,
    "listAnswerComments": _answer_comments,
}
after = after_by_op(_AFTER)
