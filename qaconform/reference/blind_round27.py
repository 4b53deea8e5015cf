"""Where the planted bugs of blind round 27 bite (issue 44; their entries: :mod:`faults_blind_round27`).

Each function leaves the call as it is unless its own fault is on. ``before`` answers a call the broken way (the
handler called with another caller, query or body, or a kept page); ``after`` rewrites a handler's answer. Wired
in :data:`request_hooks.HOOKS`. The group fault needs no code: it is an override of the route table
(``round27-groups-moderator-with-wrap``).
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import replace
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .db import as_id
from .http_io import (
    body_json,
    is_id,
    json_object_body,
    json_response,
    parse_bool,
    with_body,
    with_json_body,
    with_query,
)
from .service import Service

Handler = Any
"""request_hooks.Handler (not imported: request_hooks imports this module)."""

REASSIGN_INVALID = "The provided 'reassignUser' is/are invalid"
KEPT_S = 3.0
"""How long round27-comment-list-kept-after-post keeps an answer's comment list."""

_kept: dict[tuple[int, str], tuple[float, bytes, int]] = {}
"""(caller id, URL) -> (when, body, status): the comment lists round27-comment-list-kept-after-post keeps."""


def _node(svc: Service, request: Request, key: str = "node_id") -> sqlite3.Row | None:
    raw = request.path_params.get(key, "")
    return svc.db.one("SELECT * FROM nodes WHERE id = ?", (int(raw),)) if is_id(raw) else None


def _parent(svc: Service, node: sqlite3.Row) -> sqlite3.Row | None:
    return svc.db.one("SELECT * FROM nodes WHERE id = ?", (node["parent_id"],))


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    if op == "listSpaces" and "page" in request.query_params and faults.is_on(
            "round27-spaces-hidden-shown-with-page") and svc.visibility.spaces_hidden_from(caller):
        return await handler(svc, request, replace(caller, role="member"))  # the paged query knows no roles
    if op == "cancelWiki" and faults.is_on("round27-cancelwiki-own-by-last-active"):
        return await _own_by(svc, request, caller, handler, auth.CONVERT_OWN_TO_WIKI, auth.MARK_WIKI, _last_active)
    if op == "lockNode" and faults.is_on("round27-lock-own-by-follower"):
        return await _own_by(svc, request, caller, handler, auth.LOCK_OWN, auth.LOCK_ANY, _follows)
    if op == "postComment":
        return await _comment(svc, request, caller, handler)
    if op == "scheduleGdprJob":
        return await _job(svc, request, caller, handler)
    q = request.query_params
    if op == "listQuestions" and "spaceId" in q and is_id(q.get("page", "")) and int(q["page"]) >= 2 and faults.is_on(
            "round27-spaceid-ignored-past-page-1"):
        return await handler(svc, with_query(request, [(k, v) for k, v in q.multi_items() if k != "spaceId"]), caller)
    if op == "listNodeFollowers" and "includeOnly" in q and faults.is_on(
            "round27-followers-includeonly-ignored-when-all") and not _active(q):
        return await handler(svc, with_query(request, [(k, v) for k, v in q.multi_items() if k != "includeOnly"]),
                             caller)
    if op == "listAnswerComments" and faults.is_on("round27-comment-list-kept-after-post"):
        kept = _kept.get((caller.id, str(request.url)))
        if kept is not None and time.monotonic() - kept[0] < KEPT_S:
            return Response(kept[1], status_code=kept[2], media_type="application/json")
    return None


def _active(q: Any) -> bool:
    try:
        return parse_bool(q, "active", True)
    except Exception:  # noqa: BLE001 - a malformed active is the handler's 400
        return True


def _last_active(svc: Service, node: sqlite3.Row, caller: Caller) -> bool:
    return bool(node["last_active_user_id"] == caller.id)


def _follows(svc: Service, node: sqlite3.Row, caller: Caller) -> bool:
    return svc.db.one("SELECT 1 FROM follows WHERE node_id = ? AND user_id = ? AND active = 1",
                      (node["id"], caller.id)) is not None


async def _own_by(svc: Service, request: Request, caller: Caller, handler: Handler, own: str, any_node: str,
                  relation: Any) -> Response | None:
    """The "own" check of cancel wiki or lock decided by another relation than authorship: the caller holding only
    the own-posts permission is let in on another's node it stands in ``relation`` to."""
    node = _node(svc, request)
    if node is None or caller.anonymous or caller.can(any_node) or not caller.can(own):
        return None
    if node["author_id"] == caller.id or not relation(svc, node, caller):
        return None
    return await handler(svc, request, replace(caller, permissions=caller.permissions | {any_node}))


async def _sent_fields(request: Request) -> dict[str, Any]:
    """The fields a POST carries (JSON or form body, then the query), read without consuming the body."""
    raw = await request.body()
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    fields: dict[str, Any] = {}
    try:
        if raw.strip() and media == "application/json":
            loaded = json.loads(raw)
            fields = loaded if isinstance(loaded, dict) else {}
        elif raw.strip() and media == "application/x-www-form-urlencoded":
            fields = dict(parse_qsl(raw.decode("utf-8"), keep_blank_values=True))
    except (ValueError, UnicodeDecodeError):
        return {}
    return {**fields, **dict(request.query_params)}


async def _comment(svc: Service, request: Request, caller: Caller, handler: Handler) -> Response | None:
    parent = _node(svc, request)
    if parent is None:
        return None
    if parent["type"] == "question" and faults.is_on("round27-recipient-string-id-dropped-on-question"):
        body = await json_object_body(request)
        items = body.get("recipients") if body is not None else None
        if body is not None and isinstance(items, list) and any(
                isinstance(i, dict) and isinstance(i.get("id"), str) for i in items):
            kept = [i for i in items if not (isinstance(i, dict) and isinstance(i.get("id"), str))]
            return await handler(svc, with_json_body(request, {**body, "recipients": kept}), caller)
    if (parent["type"] == "comment" and parent["visibility"] != "full" and parent["locked"]
            and faults.is_on("round27-reply-under-locked-private-not-inherited")):
        fields = await _sent_fields(request)
        if "visibility" in fields or "recipients" in fields:
            return None
        response = await handler(svc, request, caller)
        if response.status_code == 201:
            with svc.tx("comment") as conn:
                row = conn.execute("SELECT MAX(id) FROM nodes WHERE parent_id = ? AND author_id = ? AND"
                                   " type = 'comment'", (parent["id"], caller.id)).fetchone()
                conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (row[0],))
                conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (row[0],))
        return response
    return None


def _user_exists(svc: Service, who: Any) -> bool:
    if not isinstance(who, dict):
        return True
    if "id" in who:
        ident = as_id(who["id"])
        return ident is not None and svc.user_exists(ident)
    if "username" in who:
        return svc.db.one("SELECT 1 FROM users WHERE username = ?", (str(who["username"]),)) is not None
    return True


async def _job(svc: Service, request: Request, caller: Caller, handler: Handler) -> Response | None:
    body = await json_object_body(request)
    if body is None:
        return None
    user, reassign, operations = body.get("user"), body.get("reassignUser"), body.get("operations")
    date = body.get("scheduleDate", body.get("scheduleTime"))
    if (isinstance(reassign, dict) and "username" in reassign and "id" not in reassign and isinstance(date, dict)
            and "timeStamp" in date and faults.is_on("round27-gdpr-reassign-username-refused-with-timestamp")):
        return json_response({"error": REASSIGN_INVALID}, 400)  # the timeStamp branch looks up ids only
    if (isinstance(user, dict) and "email" in user and reassign is not None and not _user_exists(svc, reassign)
            and faults.is_on("round27-gdpr-reassign-unknown-taken-user-by-email")):
        return await handler(svc, with_json_body(request, {k: v for k, v in body.items() if k != "reassignUser"}),
                             caller)
    if (isinstance(user, dict) and "id" in user and isinstance(operations, list) and len(operations) > 4
            and faults.is_on("round27-gdpr-five-operations-user-by-id")):
        return await handler(svc, with_json_body(request, {**body, "operations": operations[:4]}), caller)
    return None


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if op == "lockNode" and response.status_code == 200 and faults.is_on("round27-lock-reply-action-names-parent"):
        return _action(svc, request, response, "lockAction", "comment", _names_parent)
    if op == "sendToModeration" and response.status_code == 200 and faults.is_on(
            "round27-sendtomod-verb-on-question-comments"):
        return _action(svc, request, response, "sendToModAction", "question", _verb_renamed)
    if op in ("listAnswerComments", "listUserAnswers", "listQuestions", "listUserQuestions") and faults.is_on(
            "round27-reply-to-reply-private-id-listed") and response.status_code == 200:
        return _reply_ids(svc, caller, response)
    if op == "listAnswerComments" and response.status_code == 200 and faults.is_on(
            "round27-comment-list-kept-after-post"):
        key, now = (caller.id, str(request.url)), time.monotonic()
        kept = _kept.get(key)
        if kept is None or now - kept[0] >= KEPT_S:
            _kept[key] = (now, bytes(response.body), response.status_code)
    return response


def _names_parent(action: dict[str, Any], node: sqlite3.Row, parent: sqlite3.Row) -> None:
    action["node"]["id"] = parent["id"]


def _verb_renamed(action: dict[str, Any], node: sqlite3.Row, parent: sqlite3.Row) -> None:
    action["verb"] = "sentToModeration"


def _action(svc: Service, request: Request, response: Response, key: str, parent_type: str, change: Any) -> Response:
    """The action record of a comment whose parent is of ``parent_type``, changed by ``change``."""
    node = _node(svc, request)
    if node is None or node["type"] != "comment":
        return response
    parent = _parent(svc, node)
    body = body_json(response)
    if parent is None or parent["type"] != parent_type or not isinstance(body, dict):
        return response
    action = body.get("result", {}).get(key)
    if not isinstance(action, dict) or not isinstance(action.get("node"), dict):
        return response
    change(action, node, parent)
    return with_body(response, body)


def _reply_ids(svc: Service, caller: Caller, response: Response) -> Response:
    """Every listed reply (a comment under a comment) with the ids of the private comments under it that the
    caller may not see added to its commentIds and childrenIds."""
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    if not isinstance(items, list):
        return response
    changed = False
    for item in items:
        if not isinstance(item, dict) or item.get("type") != "comment" or not isinstance(item.get("id"), int):
            continue
        node = svc.db.one("SELECT * FROM nodes WHERE id = ?", (item["id"],))
        parent = None if node is None else _parent(svc, node)
        if parent is None or parent["type"] != "comment":
            continue
        clause, params = svc.visibility.comment_clause(caller, "n")
        hidden = svc.db.ids(f"SELECT n.id FROM nodes n WHERE n.parent_id = ? AND n.type = 'comment' AND"
                            f" n.visibility <> 'full' AND NOT ({clause}) ORDER BY n.id", [item["id"], *params])
        for field in ("commentIds", "childrenIds"):
            if hidden and isinstance(item.get(field), list):
                item[field] = item[field] + [i for i in hidden if i not in item[field]]
                changed = True
    return with_body(response, body) if changed else response
