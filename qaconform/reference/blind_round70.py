"""Where blind round 70's faults bite (faults_blind_round70.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import unauthorized
from .hook_kit import (
    after_by_op,
    form_fields,
    handled_with,
    kept_by_url,
    kept_json_object,
    media,
    path_node,
    result_action,
    sent_fields,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_json_body, with_query, with_raw_body
from .service import Service

KEPT_S = 2.0
"""How long round70-spaces-kept-by-url keeps a space list by its URL (whoever read it)."""
_kept: dict[str, tuple[float, Response]] = {}
_READS_BODY = ("round70-reply-full-visibility-inherits", "round70-gdpr-csvfileid-param-ignored",
               "round70-comment-json-charset-privacy-lost", "round70-gdpr-user-id-string-refused",
               "round70-comment-own-earlier-private-inherited")
_PRIVACY = ("visibility", "recipients")


# --- ahead of auth: the credentials as the broken server reads them ---------------------------------------------
def ahead_of_auth(svc: Service, op: str, request: Request) -> None:
    """round70-comment-password-prefix-accepted: the comment write lets in a password that extends the right one."""
    if op != "postComment" or not faults.is_on("round70-comment-password-prefix-accepted"):
        return
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    try:
        decoded = base64.b64decode(token.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return
    username, sep, password = decoded.partition(":")
    row = svc.db.one("SELECT password_hash FROM users WHERE username = ?", (username,))
    if scheme.lower() != "basic" or not sep or row is None or auth.verify_password(password, row["password_hash"]):
        return
    for n in range(len(password) - 1, max(0, len(password) - 48), -1):
        if auth.verify_password(password[:n], row["password_hash"]):
            value = "Basic " + base64.b64encode(f"{username}:{password[:n]}".encode()).decode()
            request.scope["headers"] = [(k, v) for k, v in request.scope["headers"] if k != b"authorization"] \
                + [(b"authorization", value.encode())]
            vars(request).pop("_headers", None)
            return


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("scheduleGdprJob", "postComment") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "postAnswer" and faults.is_on("round70-answer-second-by-same-caller-200") and not caller.anonymous:
        question = path_node(svc, request, "question_id")
        if question is not None:
            request.state.round70_earlier = svc.db.one(
                "SELECT 1 FROM nodes WHERE type = 'answer' AND parent_id = ? AND author_id = ?",
                (question["id"], caller.id)) is not None
    if op == "postComment" and faults.is_on("round70-comment-own-earlier-private-inherited"):
        top = svc.db.one("SELECT MAX(id) AS id FROM nodes")
        request.state.round70_last = None if top is None else top["id"]
    if op == "listAnswerComments" and faults.is_on("round70-answer-comments-anonymous-sorted-401") \
            and caller.anonymous and "sort" in request.query_params:
        raise unauthorized(credentials=False)
    if op == "lockNode" and faults.is_on("round70-lock-wrap-member-any-node") and "wrap" in request.query_params \
            and not caller.anonymous and caller.can(auth.LOCK_OWN) and not caller.can(auth.LOCK_ANY):
        node = path_node(svc, request)
        if node is not None and node["author_id"] != caller.id:
            return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)
    if op == "listActiveExperts" and faults.is_on("round70-kind-active-experts-username-page-starts-at-last-seen"):
        return await _page_from_last_seen(svc, request, caller, handler)
    if op == "cancelWiki" and faults.is_on("round70-cancelwiki-answerer-owns-question"):
        return await _cancelwiki_answerer(svc, request, caller, handler)
    if op == "scheduleGdprJob" and faults.is_on("round70-gdpr-user-id-string-refused"):
        fields = sent_fields(request)
        user = structured(fields, "user") if "user" in fields else None
        if fields.get("type") == "individual" and isinstance(user, dict) \
                and [k for k in user if user.get(k) not in (None, "")] == ["id"] and isinstance(user["id"], str):
            return json_response({"error": "The provided 'user' is invalid"}, 400)
    return None


async def _cancelwiki_answerer(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    if caller.anonymous or caller.can(auth.MARK_WIKI) or not caller.can(auth.CONVERT_OWN_TO_WIKI):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "question" or node["author_id"] == caller.id:
        return None
    if svc.db.one("SELECT 1 FROM nodes WHERE type = 'answer' AND parent_id = ? AND author_id = ?",
                  (node["id"], caller.id)) is None:
        return None
    return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)


async def _page_from_last_seen(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round70-kind-active-experts-username-page-starts-at-last-seen: a page after the first by username starts at
    the last user of the page before (the cursor's bound is inclusive)."""
    q = request.query_params
    page, size = (q.get("page") or "").strip(), (q.get("pageSize") or "").strip()
    if q.get("sort") != "username" or not page.isdecimal() or int(page) < 2 or not size.isdecimal() or int(size) < 1:
        return None
    response: Response = await handler(svc, request, caller)
    start = (int(page) - 1) * int(size) - 1
    whole = body_json(await handler(svc, with_query(request, [*((k, v) for k, v in q.multi_items() if k not in (
        "page", "pageSize")), ("page", "1"), ("pageSize", str(start + int(size)))]), caller))
    body = body_json(response)
    if response.status_code != 200 or not isinstance(body, dict) or not isinstance(whole, dict):
        return response
    body["list"] = list(whole.get("list") or [])[start:start + int(size)]
    return with_body(response, body)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listNodeFollowers" and faults.is_on("round70-followers-details-inactive-default") \
            and (q.get("details") or "").strip().lower() == "true" and "active" not in q:
        return with_query(request, [*q.multi_items(), ("active", "false")])
    if op == "scheduleGdprJob" and faults.is_on("round70-gdpr-csvfileid-param-ignored") and "csvFileId" in q \
            and kept_json_object(request) is not None:
        return with_query(request, [(k, v) for k, v in q.multi_items() if k != "csvFileId"])
    if op == "postComment" and faults.is_on("round70-comment-json-charset-privacy-lost") \
            and media(request) == "application/json" and "charset" in request.headers.get("content-type", "").lower():
        body = kept_json_object(request)
        if body is not None and "visibility" in body:
            return with_json_body(request, {k: v for k, v in body.items() if k not in _PRIVACY})
    if (key := _later_username_page(op, request)) is not None:
        request.scope["round70_op"] = op
        return with_query(request, [(k, key if k == "sort" else v) for k, v in q.multi_items()])
    if op == "postComment" and faults.is_on("round70-reply-full-visibility-inherits"):
        return _full_reply_as_bare(svc, request)
    return request


def _full_reply_as_bare(svc: Service, request: Request) -> Request:
    """round70-reply-full-visibility-inherits: visibility full on a reply to a private comment, dropped."""
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "comment" or parent["visibility"] == "full" \
            or str(sent_fields(request).get("visibility", "")).strip() != "full":
        return request
    q = request.query_params
    if "visibility" in q:
        request = with_query(request, [(k, v) for k, v in q.multi_items() if k != "visibility"])
    body = kept_json_object(request)
    if body is not None and "visibility" in body:
        return with_json_body(request, {k: v for k, v in body.items() if k != "visibility"})
    form = form_fields(request)
    if "visibility" in form:
        return with_raw_body(request, urlencode({k: v for k, v in form.items() if k != "visibility"}).encode())
    return request


# --- after: the handler's response as the broken server serves it (after_by_op(_AFTER), at the end) ----------
def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not getattr(request.state, "round70_earlier", False):
        return response
    headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-type")}
    return json_response(body_json(response), 200, headers)


def _send_to_mod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round70-sendtomod-answer-realuser-author") or node is None or node["type"] != "answer":
        return response
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    author = svc.db.one("SELECT * FROM users WHERE id = ?", (node["author_id"],))
    if action is None or author is None or "realUser" not in action:
        return response
    action["realUser"] = svc.render.action_user_json(author)
    return with_body(response, body)


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round70-lock-answer-extra-null") or node is None or node["type"] != "answer":
        return response
    return with_action(response, "lockAction", {"extra": None})


_LATER_PAGES = {"listEarnedExperts": ("round70-earned-experts-username-later-pages-by-reputation", "reputation")}
"""The expert list whose pages after the first, asked by username, the next-page query orders by another key."""


def _later_username_page(op: str, request: Request) -> str | None:
    """The key an expert page after the first by username is ordered by when its fault is on, else None."""
    q = request.query_params
    fault, key = _LATER_PAGES.get(op, ("", ""))
    later = (q.get("page") or "").strip().isdecimal() and int(q["page"]) >= 2
    return key if fault and faults.is_on(fault) and q.get("sort") == "username" and later else None


def _earned(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    key = _later_username_page(str(request.scope.get("round70_op", "")), request)
    if key is None or not isinstance(body, dict) or body.get("sort") != key:
        return response
    body["sort"] = "username"  # the echo comes from the request; the next-page query ran by reputation
    return with_body(response, body)


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round70-comment-own-earlier-private-inherited") or caller.anonymous \
            or any(k in sent_fields(request) for k in _PRIVACY):
        return response
    parent = path_node(svc, request)
    last = getattr(request.state, "round70_last", None)
    if parent is None or last is None:
        return response
    new = svc.db.one("SELECT id FROM nodes WHERE type = 'comment' AND parent_id = ? AND author_id = ? AND id > ?"
                     " ORDER BY id DESC", (parent["id"], caller.id, last))
    earlier = svc.db.one("SELECT id, visibility FROM nodes WHERE type = 'comment' AND parent_id = ? AND author_id = ?"
                         " AND id <= ? AND visibility != 'full' ORDER BY id DESC", (parent["id"], caller.id, last))
    if new is None or earlier is None:
        return response
    with svc.tx() as conn:
        conn.execute("UPDATE nodes SET visibility = ? WHERE id = ?", (earlier["visibility"], new["id"]))
        conn.execute("INSERT OR IGNORE INTO comment_recipients(comment_id, user_id) SELECT ?, user_id"
                     " FROM comment_recipients WHERE comment_id = ?", (new["id"], earlier["id"]))
    return response


def _spaces(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round70-spaces-kept-by-url") or response.status_code != 200:
        return response
    return kept_by_url(_kept, KEPT_S, request, response)


_AFTER = {
    "postAnswer": _answer,
    "sendToModeration": _send_to_mod,
    "lockNode": _lock,
    "listEarnedExperts": _earned,
    "postComment": _comment,
    "listSpaces": _spaces,
}
after = after_by_op(_AFTER)
