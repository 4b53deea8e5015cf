"""round25 (issue 44): where the faults of :mod:`faults_blind_round25` bite, each the way a real server ships the bug
(a Basic header split at every colon, a legacy form controller, an admin branch that reads a count before its
write, a record built from the wrong action row, a relation taken for ownership, a write-through cache ...).

Hooked through :data:`request_hooks.HOOKS` (ahead of auth, before, after) and two lines in node_lists.py. Each
function leaves the call as it is unless its own fault is on, so the server answers as before with every fault off.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import replace
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import bad_request, denied, not_found
from .hook_kit import media
from .http_io import body_json, json_response

Handler = Any
"""``request_hooks.Handler`` (not imported: request_hooks imports this module)."""

FRESH_COMMENT_BY_ANSWER: dict[int, int] = {}
"""round25-fresh-comment-author-from-session: the comment just posted on an answer, by answer id; the first read of
that answer's comment list serves it as the write path built it (kept in the list's write-through cache)."""

RESTRICTED_AUTHORS: set[int] = set()
"""round25-private-comment-refused-after-sendtomod: authors whose node another account sent to moderation; the
broken server takes them for restricted users and refuses them private comments."""

NODE_FIELDS = frozenset({"title", "topics", "wiki", "marked", "score", "slug", "parentId", "originalParentId",
                         "attachments", "plug", "nodeStates", "primaryContainerId", "containerIds", "type"})
"""Node fields other than body an answer may carry ("other Node fields may be supplied")."""

_MENTION = re.compile(r"@[A-Za-z0-9_]")
_LOCATION_ID = re.compile(r"/(\d+)\.(?:json|html)$")
_FORM = "application/x-www-form-urlencoded"
_PRIVATE = frozenset({"recipients", "op", "mod", "group", "moderators", "groups", "private"})


async def _body_fields(request: Request) -> dict[str, Any]:
    """The body's fields (JSON object or form), read once and kept on the request, so the handler reads them too."""
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        if media(request) == _FORM:
            return dict(parse_qsl(raw.decode("utf-8"), keep_blank_values=True))
        parsed = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return {}
    return parsed if isinstance(parsed, dict) else {}


async def _with_query(request: Request, pairs: list[tuple[str, str]]) -> Request:
    """The same request with another query string (its body replayed)."""
    body = await request.body()
    scope = dict(request.scope)
    scope["query_string"] = urlencode(pairs).encode()

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    return Request(scope, receive)


def _rewritten(response: Response, body: Any, status: int | None = None) -> Response:
    """A JSON response with a new body (and status), keeping its Location."""
    headers = {"Location": response.headers["location"]} if "location" in response.headers else None
    return json_response(body, response.status_code if status is None else status, headers)


def _basic_user(header: str) -> str | None:
    if not header.lower().startswith("basic "):
        return None
    try:
        decoded = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return decoded.split(":", 1)[0] if ":" in decoded else None


# --- ahead of auth ------------------------------------------------------------------------------------------
def ahead_of_auth(svc: Any, op: str, request: Request) -> None:
    """round25-question-list-sort-colon-password: the sorting controller of the question list reads Basic
    credentials with ``split(":")``, so a password holding a colon is cut at it."""
    if op != "listQuestions" or "sort" not in request.query_params or not faults.is_on(
            "round25-question-list-sort-colon-password"):
        return
    header = request.headers.get("authorization", "")
    user = _basic_user(header)
    if user is None:
        return
    decoded = base64.b64decode(header[6:].strip()).decode("utf-8")
    parts = decoded.split(":")
    if len(parts) < 3:
        return
    cut = base64.b64encode(f"{parts[0]}:{parts[1]}".encode()).decode()
    request.scope["headers"] = [(k, v) for k, v in request.scope["headers"] if k.lower() != b"authorization"] + [
        (b"authorization", f"Basic {cut}".encode())]
    if hasattr(request, "_headers"):
        del request._headers


# --- before the handler -------------------------------------------------------------------------------------
async def before(svc: Any, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    if op == "postComment":
        return await _comment(svc, request, caller, handler)
    if op == "postAnswer" and faults.is_on("round25-answer-node-field-param-refused") and media(request) != _FORM:
        given = sorted(NODE_FIELDS & set(request.query_params))
        if given and "json" in media(request):
            raise bad_request(f"unknown parameter {given[0]!r}")  # the JSON controller's parameter whitelist
    if op == "scheduleGdprJob" and faults.is_on("round25-gdpr-null-user-looked-up"):
        fields = await _body_fields(request)
        kind = request.query_params.get("type") or fields.get("type")
        if kind == "individual" and "user" in fields and fields["user"] is None and "user" not in request.query_params:
            raise bad_request("The provided 'user' is invalid")  # has("user") is true for a JSON null
    return None


async def _comment(svc: Any, request: Request, caller: Caller, handler: Handler) -> Response | None:
    node_id = request.path_params.get("node_id", "")
    parent = svc.db.one("SELECT type, author_id FROM nodes WHERE id = ?", (int(node_id),)) if str(
        node_id).isdecimal() and len(str(node_id)) < 19 else None
    form = media(request) == _FORM
    if form and parent is not None and parent["type"] == "comment" and faults.is_on(
            "round25-form-reply-parent-not-found"):
        raise not_found(f"node {node_id} does not exist")  # the form controller looks among questions and answers
    if form and faults.is_on("round25-form-comment-body-beats-param"):
        fields = await _body_fields(request)
        both = [k for k in request.query_params if k in fields]
        if both:
            kept = [(k, v) for k, v in request.query_params.multi_items() if k not in both]
            return await handler(svc, await _with_query(request, kept), caller)
    if faults.is_on("round25-private-comment-refused-after-sendtomod") and caller.id in RESTRICTED_AUTHORS:
        fields = {**await _body_fields(request), **request.query_params}
        if str(fields.get("visibility") or "").lower() in _PRIVATE:
            raise denied(caller.anonymous, stated_403=True)
    if (parent is not None and parent["type"] == "question" and parent["author_id"] == caller.id
            and faults.is_on("round25-group-option-on-own-question")):
        # "Send private comments to own groups" read as a permission on one's own posts
        return await handler(svc, request, replace(caller, permissions=caller.permissions | {auth.PRIVATE_TO_GROUPS}))
    return None


# --- after the handler --------------------------------------------------------------------------------------
def after(svc: Any, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.active():
        return response
    if faults.is_on("round25-fresh-comment-author-from-session") and op in ("postComment", "listAnswerComments"):
        return _fresh_comment(svc, op, request, response)
    if op == "sendToModeration" and response.status_code == 200:
        return _sent(svc, request, caller, response)
    if op == "unmarkFavorite" and response.status_code == 200 and caller.role == "admin" and faults.is_on(
            "round25-admin-unfavorite-count-before-write"):
        body = body_json(response)
        result = body.get("result") if isinstance(body, dict) else None
        if isinstance(result, dict) and isinstance(result.get("favoriteCount"), int):
            result["favoriteCount"] += 1  # the admin branch read the count before its delete committed
            return _rewritten(response, body)
    if op == "postAnswer" and response.status_code == 201 and faults.is_on("round25-answer-mention-200"):
        body = body_json(response)
        if isinstance(body, dict) and _MENTION.search(str(body.get("body") or "")):
            return _rewritten(response, body, 200)  # the mention branch answers with its own status
    return response


def _sent(svc: Any, request: Request, caller: Caller, response: Response) -> Response:
    node_id = request.path_params.get("node_id", "")
    node = svc.db.one("SELECT * FROM nodes WHERE id = ?", (int(node_id),)) if str(node_id).isdecimal() and len(
        str(node_id)) < 19 else None
    if node is None:
        return response
    if node["author_id"] != caller.id and faults.is_on("round25-private-comment-refused-after-sendtomod"):
        RESTRICTED_AUTHORS.add(int(node["author_id"]))
    body = body_json(response)
    action = body.get("result", {}).get("sendToModAction") if isinstance(body, dict) else None
    if not isinstance(action, dict):
        return response
    if faults.is_on("round25-sendtomod-verb-of-lock") and (node["locked"] or svc.db.one(
            "SELECT 1 FROM actions WHERE node_id = ? AND verb = 'locked'", (node["id"],))):
        action["verb"] = "locked"  # the record read back by node id found the lock's row first
        return _rewritten(response, body)
    last = node["last_active_user_id"]
    if (node["type"] == "question" and last is not None and last != caller.id
            and faults.is_on("round25-sendtomod-realuser-last-active")):
        user = svc.render.users_by_id([last]).get(last)
        if user is not None:
            action["realUser"] = svc.render.action_user_json(user)  # the node's last active user, not the caller
            return _rewritten(response, body)
    return response


def _fresh_comment(svc: Any, op: str, request: Request, response: Response) -> Response:
    """A comment posted on an answer, as the next read of the answer's comment list serves it: its author as the
    write path built it from the session (id and username, no reputation)."""
    raw_id = str(request.path_params.get("node_id" if op == "postComment" else "answer_id", ""))
    if not (raw_id.isdecimal() and len(raw_id) < 19):
        return response
    node_id = int(raw_id)
    if op == "postComment":
        parent = svc.db.one("SELECT type FROM nodes WHERE id = ?", (node_id,))
        found = _LOCATION_ID.search(response.headers.get("location", ""))
        if response.status_code == 201 and parent is not None and parent["type"] == "answer" and found:
            FRESH_COMMENT_BY_ANSWER[node_id] = int(found.group(1))
        return response
    fresh = FRESH_COMMENT_BY_ANSWER.pop(node_id, None)
    body = body_json(response) if fresh is not None and response.status_code == 200 else None
    items = body.get("list") if isinstance(body, dict) else None
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("id") == fresh and isinstance(item.get("author"), dict):
            item["author"] = {k: v for k, v in item["author"].items() if k in ("id", "username")}
            return _rewritten(response, body)
    return response


def question_kind(query: Any, where: list[str]) -> None:
    """round25-question-list-type-param-filters-kind: the question list's search parameter type (meaning not
    shown) is put in the node-type condition, so type=answer or type=comment lists answers or comments."""
    kind = query.get("type")
    if kind in ("answer", "comment") and faults.is_on("round25-question-list-type-param-filters-kind"):
        where[0] = f"n.type = '{kind}'"  # a literal from the fixed tuple above


def user_questions_owner(kind: str, where: list[str], params: list[Any], user_id: int) -> None:
    """round25-user-questions-last-active: a user's question list also holds the questions the user was last
    active on (answered or commented last)."""
    if kind == "question" and faults.is_on("round25-user-questions-last-active"):
        where[0] = "(n.author_id = ? OR n.last_active_user_id = ?)"
        params.insert(1, user_id)
