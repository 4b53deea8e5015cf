"""Where the planted faults of the tenth blind round bite (issue 44, blind10; entries in :mod:`faults_blind_round10`).

Most of them act around a handler, from the dispatcher: :func:`ahead_of_auth` before the caller is known,
:func:`before` once the route table has let the caller in (a refusal, or a response the faulty path builds itself),
:func:`after` on the response. The option check of a reply is asked by the comment handler
(:func:`option_check_skipped`). Every helper checks ``faults.is_on`` first; the dispatcher calls them only when some
fault is on.
"""

from __future__ import annotations

import base64
import binascii
import json
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import denied, not_found
from .http_io import is_id, json_response
from .service import Service

Handler = Callable[[Service, Request, Caller], Awaitable[Response]]


def _row(svc: Service, table: str, raw: str) -> sqlite3.Row | None:
    return svc.db.one(f"SELECT * FROM {table} WHERE id = ?", (int(raw),)) if is_id(raw) else None


def ahead_of_auth(svc: Service, op: str, request: Request) -> None:
    """Before the caller is known: the earned expert list that looks the Basic user up first (404)."""
    if op != "listEarnedExperts" or not faults.is_on("blind10-earned-experts-unknown-user-404"):
        return
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "basic":
        return
    try:
        decoded = base64.b64decode(token.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return
    username, sep, _ = decoded.partition(":")
    if sep and svc.db.one("SELECT 1 FROM users WHERE username = ?", (username,)) is None:
        raise not_found("no such user; check the user name")


def option_check_skipped(caller: Caller, parent: sqlite3.Row, visibility: str | None) -> bool:
    """blind10-option-permission-skipped-public-reply: a reply to a public comment checks Use Private Comments only."""
    if visibility in (None, "full", "recipients") or not faults.is_on("blind10-option-permission-skipped-public-reply"):
        return False
    reply_to_public = parent["type"] == "comment" and parent["visibility"] == "full"
    return reply_to_public and caller.can(auth.USE_PRIVATE_COMMENTS)


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    """Once the caller is let in: a planted refusal or failure, or the response the faulty path builds."""
    if op == "listAnswerComments" and caller.role == "novice" and faults.is_on(
            "blind10-answer-comments-own-answer-novice-refused"):
        answer = _row(svc, "nodes", request.path_params.get("answer_id", ""))
        if answer is not None and answer["author_id"] == caller.id:
            raise denied(caller.anonymous)
    q = request.query_params
    page = q.get("page", "")
    if op == "listTopics" and "sort" in q and page.isdecimal() and int(page) > 1 and faults.is_on(
            "blind10-topics-sorted-page-offset-back-one"):
        return await _offset_back_one(svc, request, caller, handler, int(page))
    return None


async def _offset_back_one(svc: Service, request: Request, caller: Caller, handler: Handler, page: int) -> Response:
    response = await handler(svc, request, caller)
    earlier = await handler(svc, _with_page(request, page - 1), caller)
    if response.status_code != 200 or earlier.status_code != 200:
        return response
    body, prev = json.loads(bytes(response.body)), json.loads(bytes(earlier.body))
    items, prev_items = body.get("list"), prev.get("list")
    if not (isinstance(items, list) and items and isinstance(prev_items, list) and prev_items):
        return response
    body["list"] = [prev_items[-1], *items[:-1]]
    return json_response(body)


def _with_page(request: Request, page: int) -> Request:
    kept = [(k, v) for k, v in request.query_params.multi_items() if k != "page"] + [("page", str(page))]
    scope = dict(request.scope)
    scope["query_string"] = urlencode(kept).encode("ascii")
    return Request(scope, request.receive)


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The response as the planted faults of this round change it (``request``: as the client sent it)."""
    if response.status_code != 200:
        return response
    change = _change(svc, op, request, caller)
    if change is None:
        return response
    body = json.loads(bytes(response.body))
    return json_response(body) if isinstance(body, dict) and change(body) else response


def _change(svc: Service, op: str, request: Request, caller: Caller) -> Callable[[dict[str, Any]], bool] | None:
    """The body rewrite of the fault switched on for this operation, or None."""
    q = request.query_params
    node = _row(svc, "nodes", request.path_params.get("node_id", ""))
    if op == "listAnswerComments" and faults.is_on("blind10-reply-originalparentid-string"):
        return lambda body: _reply_parent_string(svc, body)
    if op == "listAnswerComments" and faults.is_on("blind10-recipient-reads-empty-recipients"):
        return lambda body: _recipients_scrubbed(body, caller)
    if op == "sendToModeration" and node is not None and node["locked"] and faults.is_on(
            "blind10-sendtomod-locked-node-verb-locked"):
        return lambda body: _set_action(body, "sendToModAction", "verb", "locked")
    if op == "unmarkFavorite" and faults.is_on("blind10-unfavorite-last-favorite-no-action"):
        return _no_action_at_zero
    if op == "listEarnedExperts" and q.get("sort", "") not in ("", "default", "reputation") and q.get(
            "page", "").isdecimal() and int(q["page"]) > 1 and faults.is_on(
            "blind10-earned-experts-later-page-echo-default"):
        return lambda body: _set(body, "sort", "reputation")
    if op == "listEarnedExperts" and q.get("sort") == "username" and faults.is_on(
            "blind10-earned-experts-username-sort-reputation-string"):
        return _reputation_string
    if op == "listQuestions" and "spaceId" in q and faults.is_on("blind10-questions-spaceid-no-sorts"):
        return lambda body: body.pop("sorts", None) is not None
    return None


def _items(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [i for i in body.get("list") or [] if isinstance(i, dict)]


def _reply_parent_string(svc: Service, body: dict[str, Any]) -> bool:
    changed = False
    for item in _items(body):
        row = _row(svc, "nodes", str(item.get("id", "")))
        parent = None if row is None else _row(svc, "nodes", str(row["parent_id"]))
        if parent is not None and parent["type"] == "comment" and isinstance(item.get("originalParentId"), int):
            item["originalParentId"] = str(item["originalParentId"])
            changed = True
    return changed


def _recipients_scrubbed(body: dict[str, Any], caller: Caller) -> bool:
    changed = False
    for item in _items(body):
        author = item.get("author")
        mine = isinstance(author, dict) and author.get("id") == caller.id
        if item.get("visibility") == "recipients" and item.get("recipients") and not mine:
            item["recipients"] = []
            changed = True
    return changed


def _set_action(body: dict[str, Any], key: str, field: str, value: Any) -> bool:
    result = body.get("result")
    action = result.get(key) if isinstance(result, dict) else None
    if not isinstance(action, dict) or action.get(field) == value:
        return False
    action[field] = value
    return True


def _no_action_at_zero(body: dict[str, Any]) -> bool:
    result = body.get("result")
    if not isinstance(result, dict) or result.get("favoriteCount") != 0 or "favoriteAction" not in result:
        return False
    del result["favoriteAction"]
    return True


def _set(body: dict[str, Any], key: str, value: Any) -> bool:
    if body.get(key) == value:
        return False
    body[key] = value
    return True


def _reputation_string(body: dict[str, Any]) -> bool:
    items = [i for i in _items(body) if isinstance(i.get("reputation"), int)]
    for item in items:
        item["reputation"] = str(item["reputation"])
    return bool(items)
