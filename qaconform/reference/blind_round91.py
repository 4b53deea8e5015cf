"""Where blind round 91's faults bite (faults_blind_round91.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import bad_request, forbidden, unauthorized
from .hook_kit import (
    after_by_op,
    form_fields,
    kept_by_url,
    kept_json_object,
    list_items,
    media,
    path_node,
    sent_fields,
    uncanceled,
    with_action,
)
from .http_io import body_json, with_body, with_query
from .seed_people import ACCOUNTS, GDPR_USER
from .service import Service
from .site_lists import TOPIC_SORTS

KEPT_S = 3.0
"""How long round91-answer-comments-sorted-kept-by-url keeps a sorted comment list by its URL."""
_kept: dict[str, tuple[float, Response]] = {}
_READS_BODY = ("round91-wiki-question-answer-json-body-wins", "round91-comment-recipients-param-beside-json-ignored",
               "round91-novice-private-under-own-questions-answer", "round91-form-comment-recipients-dropped",
               "round91-reassign-string-id-refused", "round91-comment-after-unwikify-non-author-403",
               "round91-kind-three-recipients-stored-first-two")
_PRIVATE_OPTIONS = frozenset({auth.USE_PRIVATE_COMMENTS, *auth.PRIVATE_OPTION_PERMISSION.values()})


# --- ahead of auth: the credentials as the broken server reads them ---------------------------------------------
def ahead_of_auth(svc: Service, op: str, request: Request) -> None:
    """round91-active-experts-email-login-wrong-password (and its kind on the earned list): an email as the user part
    skips the password check (the account is let in with its own credentials: every seeded account's are known)."""
    if not ((op == "listActiveExperts" and faults.is_on("round91-active-experts-email-login-wrong-password"))
            or (op == "listEarnedExperts" and faults.is_on("round91-kind-earned-experts-email-login-wrong-password"))):
        return
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    try:
        decoded = base64.b64decode(token.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return
    email, sep, _ = decoded.partition(":")
    if scheme.lower() != "basic" or not sep or "@" not in email:
        return
    row = svc.db.one("SELECT username FROM users WHERE email = ?", (email,))
    account = None if row is None else next((a for a in (*ACCOUNTS, GDPR_USER) if a.username == row["username"]), None)
    if account is None:
        return
    value = "Basic " + base64.b64encode(f"{account.username}:{account.password}".encode()).decode()
    request.scope["headers"] = [(k, v) for k, v in request.scope["headers"] if k != b"authorization"] \
        + [(b"authorization", value.encode())]
    vars(request).pop("_headers", None)


# --- before: a response (or a refusal) instead of the handler's -------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "postAnswer", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    q = request.query_params
    if op == "listSpaces" and faults.is_on("round91-spaces-include-anonymous-401") and caller.anonymous \
            and "include" in q:
        raise unauthorized()
    if op == "listAnswerComments" and faults.is_on("round91-answer-comments-page-member-403") and "page" in q \
            and not caller.anonymous and not caller.can(auth.VIEW_MODERATION_QUEUE):
        raise forbidden()
    if op == "scheduleGdprJob" and faults.is_on("round91-reassign-string-id-refused"):
        _string_reassign_refused(svc, request)
    if op == "postComment":
        return await _comment_before(svc, request, caller, handler)
    return None


def _string_reassign_refused(svc: Service, request: Request) -> None:
    """round91-reassign-string-id-refused: a string id of an existing user looked up as a username."""
    try:
        reassign = structured(sent_fields(request), "reassignUser")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return
    if not isinstance(reassign, dict) or list(reassign) != ["id"] or not isinstance(reassign["id"], str) \
            or not reassign["id"].strip().isdecimal():
        return
    if svc.db.one("SELECT 1 FROM users WHERE id = ?", (int(reassign["id"].strip()),)) is not None \
            and svc.db.one("SELECT 1 FROM users WHERE username = ?", (reassign["id"],)) is None:
        raise bad_request("The provided 'reassignUser' is/are invalid")


async def _comment_before(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    parent = path_node(svc, request)
    if parent is None or caller.anonymous:
        return None
    visibility = sent_fields(request).get("visibility")
    if faults.is_on("round91-comment-after-unwikify-non-author-403") and parent["author_id"] != caller.id \
            and visibility in (None, "", "full") and svc.db.one(
                "SELECT 1 FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled = 1",
                (parent["id"],)) is not None:
        raise forbidden()
    if faults.is_on("round91-novice-private-under-own-questions-answer") and parent["type"] == "answer" \
            and not caller.can(auth.USE_PRIVATE_COMMENTS) and visibility not in (None, "", "full"):
        question = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (parent["question_id"],))
        if question is not None and question["author_id"] == caller.id:
            let_in = dataclasses.replace(caller, permissions=caller.permissions | _PRIVATE_OPTIONS)
            response: Response = await handler(svc, request, let_in)
            return response
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "postAnswer" and faults.is_on("round91-wiki-question-answer-json-body-wins") and "body" in q:
        question = path_node(svc, request, "question_id")
        body = kept_json_object(request)
        if question is not None and question["wiki"] and body is not None and "body" in body:
            return with_query(request, [(k, v) for k, v in q.multi_items() if k != "body"])
    if op == "postComment" and faults.is_on("round91-comment-recipients-param-beside-json-ignored") \
            and "recipients" in q:
        body = kept_json_object(request)
        if body is not None and "recipients" not in body:
            return with_query(request, [(k, v) for k, v in q.multi_items() if k != "recipients"])
    return request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _cut_recipients(response: Response) -> Response:
    body, items = list_items(response)
    cut = False
    for item in items:
        if isinstance(item, dict) and item.get("visibility") == "recipients" \
                and isinstance(item.get("recipients"), list) and len(item["recipients"]) >= 3:
            item["recipients"] = item["recipients"][:2]
            cut = True
    return with_body(response, body) if cut else response


def _comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round91-answer-comments-recipients-cut-to-two"):
        response = _cut_recipients(response)
    if faults.is_on("round91-answer-comments-sorted-kept-by-url") and "sort" in request.query_params:
        response = kept_by_url(_kept, KEPT_S, request, response)
    return response


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round91-lock-accepted-answer-verb-accepted") or node is None or node["type"] != "answer" \
            or not node["marked"]:
        return response
    return with_action(response, "lockAction", {"verb": "accepted"})


def _cancelwiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round91-cancelwiki-unanswered-question-not-canceled") or node is None \
            or node["type"] != "question" or node["answer_count"]:
        return response
    return with_action(response, "wikifyAction", uncanceled)


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    named = request.query_params.get("includeOnly")
    if not faults.is_on("round91-user-answers-includeonly-keeps-marked") or not named \
            or "marked" in [n.strip() for n in named.split(",")]:
        return response
    body, items = list_items(response)
    added = False
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("id"), int) and "marked" not in item:
            row = svc.db.one("SELECT marked FROM nodes WHERE id = ?", (item["id"],))
            if row is not None and row["marked"]:
                item["marked"] = True
                added = True
    return with_body(response, body) if added else response


def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not faults.is_on("round91-topics-invalid-sort-sized-reversed") or "pageSize" not in q \
            or not q.get("sort") or q.get("sort") in TOPIC_SORTS:
        return response
    body, items = list_items(response)
    if len(items) < 2:
        return response
    items.reverse()
    return with_body(response, body)


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round91-form-comment-recipients-dropped: a form-encoded comment's recipients not stored."""
    parent = path_node(svc, request)
    form = form_fields(request)
    if not faults.is_on("round91-form-comment-recipients-dropped") or parent is None \
            or media(request) != "application/x-www-form-urlencoded" or form.get("visibility") != "recipients" \
            or "recipients" not in form or "recipients" in request.query_params:
        return response
    row = svc.db.one("SELECT id FROM nodes WHERE parent_id = ? AND author_id = ? AND type = 'comment' "
                     "ORDER BY id DESC LIMIT 1", (parent["id"], caller.id))
    if row is None:
        return response
    with svc.tx("comment") as conn:
        conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (row["id"],))
    body = body_json(response)
    if isinstance(body, dict) and body.get("id") in (row["id"], str(row["id"])) and "recipients" in body:
        body["recipients"] = []
        return with_body(response, body)
    return response


def _stored_first_two(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round91-kind-three-recipients-stored-first-two: a comment's third and later recipients not stored."""
    parent = path_node(svc, request)
    if not faults.is_on("round91-kind-three-recipients-stored-first-two") or parent is None:
        return response
    try:
        recipients = structured(sent_fields(request), "recipients")
    except Exception:  # noqa: BLE001 - the handler gave its answer
        return response
    if not isinstance(recipients, list) or len(recipients) < 3:
        return response
    row = svc.db.one("SELECT id FROM nodes WHERE parent_id = ? AND author_id = ? AND type = 'comment' "
                     "ORDER BY id DESC LIMIT 1", (parent["id"], caller.id))
    if row is None:
        return response
    with svc.tx("comment") as conn:
        conn.execute("DELETE FROM comment_recipients WHERE comment_id = ? AND user_id NOT IN (SELECT user_id FROM "
                     "comment_recipients WHERE comment_id = ? ORDER BY user_id LIMIT 2)", (row["id"], row["id"]))
    return response


_AFTER = {
    "listAnswerComments": _comments,
    "lockNode": _lock,
    "cancelWiki": _cancelwiki,
    "listUserAnswers": _user_answers,
    "listTopics": _topics,
    "postComment": lambda svc, request, caller, response: _stored_first_two(
        svc, request, caller, _comment(svc, request, caller, response)),
}
after = after_by_op(_AFTER)
