"""Where the planted faults of refusals3 bite (issue 44; the entries and the sentences they break are in
:mod:`faults_refusals3`): a refusal the service raised, answered otherwise only where the node in the path is a
reply (a comment under a comment: depth 2) or a reply to a reply (depth 3). Called from the dispatch's error path
through request_hooks.HOOKS; with no such fault on it returns None at its first test.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .errors import ApiError
from .faults_refusals3 import REFUSALS3
from .http_io import json_response
from .service import Service

NAMES = frozenset(f.name for f in REFUSALS3)
MEMBER_GROUPS = "refusals3-member-own-groups-under-others-reply-accepted"
WRONG_PASSWORD = "refusals3-wrong-password-comment-on-published-reply-accepted"
ANONYMOUS_500 = "refusals3-anonymous-comment-on-published-reply-500"
MEMBER_LOCK = "refusals3-member-lock-of-others-reply-allowed"
MEMBER_SEND = "refusals3-member-sendtomod-of-others-reply-allowed"
ANONYMOUS_LOCK = "refusals3-anonymous-lock-of-published-reply-allowed"
ANONYMOUS_UNFAVORITE = "refusals3-anonymous-unfavorite-of-published-reply-redirected"
MAX_WALK = 50
"""How many ancestors the depth walk reads at most (a cycle in a broken tree never loops)."""


@dataclass(frozen=True)
class Reply:
    """The node in the path, where it is a public comment at depth 2 or 3."""

    depth: int
    author_id: int
    published: bool
    """Neither locked nor in moderation."""


def reply_in_path(svc: Service, raw: Any) -> Reply | None:
    """The node ``raw`` when it is a public reply (a comment under a comment) or a reply to a reply; else None. The
    depth counts the comments from it up to the question or answer: 1 a comment on either, 2 a reply to it."""
    try:
        node: int | None = int(str(raw))
    except (TypeError, ValueError):
        return None
    first = svc.db.one("SELECT type, author_id, locked, in_moderation, visibility FROM nodes WHERE id = ?", (node,))
    if first is None or first["type"] != "comment" or first["visibility"] != "full":
        return None
    depth = 0
    while node is not None and depth < MAX_WALK:
        row = svc.db.one("SELECT type, parent_id FROM nodes WHERE id = ?", (node,))
        if row is None or row["type"] != "comment":
            break
        depth += 1
        node = row["parent_id"]
    if depth < 2:
        return None
    return Reply(depth, int(first["author_id"]), not (first["locked"] or first["in_moderation"]))


def _who(svc: Service, request: Request, caller: Caller | None) -> Caller | None:
    """The caller of a refused request (the dispatch knows it only when the handler refused): None for bad
    credentials."""
    if caller is not None:
        return caller
    try:
        return svc.caller(request)
    except ApiError:
        return None


def _accepted() -> Response:
    return json_response({"id": 0, "type": "comment", "note": "planted: refusals3"}, 201)


def _done() -> Response:
    return json_response({"result": {"planted": "refusals3"}}, 200)


def refusal(svc: Service, op_id: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    """The refusal ``exc`` answered otherwise when a refusals3 fault is on for this call on a reply."""
    if not (400 <= exc.status < 500 and any(faults.is_on(n) for n in NAMES)):
        return None
    reply = reply_in_path(svc, request.path_params.get("node_id"))
    if reply is None:
        return None
    signed = "authorization" in request.headers
    who = _who(svc, request, caller)
    member_of_another = who is not None and who.role == "member" and who.id != reply.author_id
    if op_id == "postComment":
        if reply.published and exc.status == 401 and signed and who is None and faults.is_on(WRONG_PASSWORD):
            return _accepted()
        if reply.published and not signed and faults.is_on(ANONYMOUS_500):
            return json_response({"error": "internal error (planted: refusals3)"}, 500)
        if exc.status == 403 and member_of_another and faults.is_on(MEMBER_GROUPS):
            return _accepted()
    if op_id == "lockNode" and member_of_another and faults.is_on(MEMBER_LOCK):
        return _done()
    if op_id == "sendToModeration" and member_of_another and faults.is_on(MEMBER_SEND):
        return _done()
    if op_id == "lockNode" and reply.published and not signed and faults.is_on(ANONYMOUS_LOCK):
        return _done()
    if op_id == "unmarkFavorite" and reply.published and not signed and faults.is_on(ANONYMOUS_UNFAVORITE):
        return Response(b"", status_code=302, headers={"Location": "/users/login.html?next=" + request.url.path})
    return None
