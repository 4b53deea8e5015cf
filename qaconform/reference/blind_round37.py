"""Where the faults of blind round 37 (issue 44, :mod:`faults_blind_round37`) bite: hooks around the handler
(:mod:`request_hooks`) and one ownership check that actions.py asks. Every function leaves the call as it is unless
its own fault is on, so with no fault on the server is unchanged.

Faults that are rows of the route table only (``round37-groups-wrap-moderator``, an override of listGroups with
the wrap option) need no code here; their names are listed in :data:`OVERRIDES_ONLY` so the wiring check finds
them."""

from __future__ import annotations

import dataclasses
import json
import re
import time
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from . import auth, faults
from .auth import Caller
from .db import Database
from .http_io import PREFIX, body_json, json_response
from .service import Service
from .visibility import internal_name

OVERRIDES_ONLY = ("round37-groups-wrap-moderator",)
"""Faults of this round that bite through the route table's overrides (faults_blind_round37)."""

_CACHE_SECONDS = 3.0
_comment_pages: dict[str, tuple[float, int, bytes, int]] = {}
"""round37-comments-mod-view-cached: URL -> (when, reader's id, body, status) of a privileged read."""


def _new_id(response: Response) -> int | None:
    """The id at the end of a 201's Location header (any of the location forms)."""
    found = re.search(r"/(\d+)(?:\.\w+)?/?$", response.headers.get("location", ""))
    return int(found.group(1)) if found else None


async def _json_body(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _with_query(request: Request, **changes: str) -> Request:
    """The request with some query parameters replaced (the broken server reads them so)."""
    params = dict(request.query_params)
    params.update(changes)
    scope = dict(request.scope)
    scope["query_string"] = "&".join(f"{k}={v}" for k, v in params.items()).encode()
    return Request(scope, request.receive)


def _rewritten(response: Response, body: Any) -> Response:
    headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-type")}
    return json_response(body, response.status_code, headers)


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postComment" and faults.is_on("round37-novice-op-on-own-parent"):
        return await _own_parent_op(svc, request, caller, handler)
    if op == "sendToModeration" and faults.is_on("round37-sendtomod-v1-redirects-v1") and (
            "v1" in request.query_params):
        url = str(request.url).replace(f"{PREFIX}/", "/services/v1/", 1)
        return RedirectResponse(url, status_code=307)
    if op == "listEarnedExperts" and faults.is_on("round37-earned-oldest-as-recent") and (
            request.query_params.get("sort") == "oldest"):
        response: Response = await handler(svc, _with_query(request, sort="recent"), caller)
        body = body_json(response)
        if isinstance(body, dict) and body.get("sort") == "recent":
            body["sort"] = "oldest"
            return _rewritten(response, body)
        return response
    if op == "scheduleGdprJob" and faults.is_on("round37-gdpr-email-reassign-refused"):
        body = await _json_body(request)
        user = body.get("user")
        if body.get("type") == "individual" and isinstance(user, dict) and "email" in user and (
                body.get("reassignUser") is not None):
            return json_response({"error": "The provided 'reassignUser' is/are invalid"}, 400)
    if op == "listAnswerComments" and faults.is_on("round37-comments-mod-view-cached"):
        kept = _comment_pages.get(str(request.url))
        if kept is not None and time.monotonic() - kept[0] < _CACHE_SECONDS and kept[1] != caller.id:
            return Response(kept[2], status_code=kept[3], media_type="application/json")
    return None


async def _own_parent_op(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round37-novice-op-on-own-parent: 'to the original poster' under one's own node taken as 'to myself'."""
    if caller.anonymous or caller.can(auth.USE_PRIVATE_COMMENTS):
        return None
    wire = request.query_params.get("visibility") or (await _json_body(request)).get("visibility")
    if not isinstance(wire, str) or internal_name(wire) != "op":
        return None
    raw = request.path_params.get("node_id", "")
    parent = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (int(raw),)) if raw.isdecimal() else None
    if parent is None or parent["author_id"] != caller.id:
        return None
    granted = dataclasses.replace(
        caller, permissions=caller.permissions | {auth.USE_PRIVATE_COMMENTS, auth.PRIVATE_TO_OP})
    result: Response = await handler(svc, request, granted)
    return result


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """``request``: as the client sent it."""
    status = response.status_code
    if op == "postComment" and status == 201:
        _posted_comment(svc, request, response)
    elif op == "postAnswer" and status == 201 and faults.is_on("round37-moderated-answer-location-question"):
        return _moderated_location(svc, request, response)
    elif op == "lockNode" and status == 200 and faults.is_on("round37-lock-comment-wrapper"):
        return _lock_wrapper(svc, request, response)
    elif op == "sendToModeration" and status == 200 and faults.is_on("round37-sendtomod-answer-public"):
        return _public_send(svc, request, response)
    elif op == "listNodeFollowers" and status == 200 and faults.is_on("round37-followers-inactive-total-text"):
        if request.query_params.get("active", "").lower() == "false":
            body = body_json(response)
            if isinstance(body, dict) and isinstance(body.get("totalCount"), int):
                body["totalCount"] = str(body["totalCount"])
                return _rewritten(response, body)
    elif op == "listUserAnswers" and status == 200 and faults.is_on("round37-user-answers-votes-title"):
        if request.query_params.get("sort") == "votes":
            return _question_titles(svc.db, response)
    elif op == "listAnswerComments" and status == 200:
        if faults.is_on("round37-comments-mod-view-cached") and caller.sees_moderation:
            _comment_pages[str(request.url)] = (time.monotonic(), caller.id, bytes(response.body), status)
        if faults.is_on("round37-admin-comments-24h") and caller.role == "admin":
            return _dates_24h(response)
    return response


def _posted_comment(svc: Service, request: Request, response: Response) -> None:
    """COMMENT-8 (the v1 path drops privacy) and COMMENT-3 (a third-level reply loses its recipients)."""
    v1 = faults.is_on("round37-comment-v1-drops-privacy") and "v1" in request.query_params
    deep = faults.is_on("round37-depth3-reply-recipients-lost")
    if not (v1 or deep):
        return
    comment_id = _new_id(response)
    node = None if comment_id is None else svc.db.one(
        "SELECT c.id, c.visibility, p.type AS ptype, g.type AS gtype FROM nodes c LEFT JOIN nodes p"
        " ON p.id = c.parent_id LEFT JOIN nodes g ON g.id = p.parent_id WHERE c.id = ?", (comment_id,))
    if node is None or node["visibility"] == "full":
        return
    if v1:
        with svc.tx("comment") as conn:
            conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (node["id"],))
            conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (node["id"],))
    elif node["ptype"] == "comment" and node["gtype"] == "comment":
        with svc.tx("comment") as conn:
            conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (node["id"],))


def _moderated_location(svc: Service, request: Request, response: Response) -> Response:
    body = body_json(response)
    answer_id = body.get("id") if isinstance(body, dict) else None
    node = None if answer_id is None else svc.db.one(
        "SELECT question_id, in_moderation FROM nodes WHERE id = ?", (int(answer_id),))
    if node is None or not node["in_moderation"] or "location" not in response.headers:
        return response
    base = str(request.base_url).rstrip("/")
    response.headers["location"] = f"{base}{PREFIX}/question/{node['question_id']}.json"
    return response


def _path_node(svc: Service, request: Request) -> Any:
    raw = request.path_params.get("node_id", "")
    return svc.db.one("SELECT type FROM nodes WHERE id = ?", (int(raw),)) if raw.isdecimal() else None


def _lock_wrapper(svc: Service, request: Request, response: Response) -> Response:
    node = _path_node(svc, request)
    body = body_json(response)
    if node is None or node["type"] != "comment" or not isinstance(body, dict):
        return response
    result = body.get("result")
    if isinstance(result, dict) and "lockAction" in result:
        result["lockCommentAction"] = result.pop("lockAction")
        return _rewritten(response, body)
    return response


def _public_send(svc: Service, request: Request, response: Response) -> Response:
    node = _path_node(svc, request)
    body = body_json(response)
    if node is None or node["type"] != "answer" or not isinstance(body, dict):
        return response
    result = body.get("result")
    action = result.get("sendToModAction") if isinstance(result, dict) else None
    if isinstance(action, dict) and action.get("private") is True:
        action["private"] = False
        return _rewritten(response, body)
    return response


def _question_titles(db: Database, response: Response) -> Response:
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    if not isinstance(items, list):
        return response
    changed = False
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("id"), int):
            row = db.one("SELECT q.title FROM nodes a JOIN nodes q ON q.id = a.question_id WHERE a.id = ?",
                         (item["id"],))
            if row is not None and row["title"]:
                item["title"] = row["title"]
                changed = True
    return _rewritten(response, body) if changed else response


def _dates_24h(response: Response) -> Response:
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    if not isinstance(items, list):
        return response
    changed = False
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("creationDate"), int) and "creationDateFormatted" in item:
            when = datetime.fromtimestamp(item["creationDate"] / 1000, tz=UTC)
            item["creationDateFormatted"] = when.strftime("%m/%d/%Y %H:%M")
            changed = True
    return _rewritten(response, body) if changed else response


def lock_owns(db: Database, caller: Caller, node: Any) -> bool:
    """round37-lock-own-commenter: an answer the caller commented on taken as its own."""
    if not faults.is_on("round37-lock-own-commenter") or node["type"] != "answer" or caller.anonymous:
        return False
    return db.one("SELECT 1 FROM nodes WHERE type = 'comment' AND parent_id = ? AND author_id = ?",
                  (node["id"], caller.id)) is not None
