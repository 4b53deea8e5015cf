"""Where the planted faults of the ninth blind round bite (issue 44, blind9; entries in :mod:`faults_blind_round9`).

Most of them act around a handler, from the dispatcher: :func:`ahead_of_auth` before the caller is known,
:func:`admitted` once the route table has let the caller in (a refusal, or the request as a buggy path reads it),
:func:`after` on the response. The three data-protection faults and the answer's publication are asked by their
handlers at the one place they bite. Every helper checks ``faults.is_on`` first; the dispatcher calls them only when
some fault is on. The node flag of ``blind9-unfavorite-node-flag-cleared`` lives here, in the process, like the bug.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import sqlite3
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import denied, not_found, unauthorized
from .http_io import is_id, json_response, parse_bool
from .service import Service

PASSWORD_CUT = 16
"""blind9-spaces-password-truncated-16: the length the space list's filter cuts a password to."""

_unfavorited: set[int] = set()
"""blind9-unfavorite-node-flag-cleared: nodes flagged as nobody's favorite once one account unfavorited them."""


def _without(request: Request, *names: str) -> Request:
    """The request with the named query parameters dropped (all of them when none is named)."""
    kept = [(k, v) for k, v in request.query_params.multi_items() if names and k not in names]
    scope = dict(request.scope)
    scope["query_string"] = urlencode(kept).encode("ascii")
    return Request(scope, request.receive)


def ahead_of_auth(op: str, request: Request) -> None:
    """Before the caller is known: the space list's filter that cuts the password (401)."""
    if op != "listSpaces" or not faults.is_on("blind9-spaces-password-truncated-16"):
        return
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    try:
        decoded = base64.b64decode(token.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return
    _, sep, password = decoded.partition(":")
    if scheme.lower() == "basic" and sep and len(password) > PASSWORD_CUT:
        raise unauthorized()  # the first 16 characters never verify against the hash of the whole password


def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    """Once the caller is let in: a planted refusal, or the request as the faulty path reads it."""
    q = request.query_params
    if op == "listEarnedExperts" and q.get("sort") in ("username", "realname") and not caller.can(
            auth.EDIT_USERS_AND_GROUPS) and faults.is_on("blind9-earned-experts-name-sort-admin-only"):
        raise denied(caller.anonymous)
    if op == "postComment" and not caller.can(auth.USE_PRIVATE_COMMENTS) and faults.is_on(
            "blind9-reply-needs-private-comments") and _node_type(svc, request) == "comment":
        raise denied(caller.anonymous)
    if op == "unmarkFavorite" and faults.is_on("blind9-unfavorite-node-flag-cleared"):
        raw = request.path_params.get("node_id", "")
        if is_id(raw) and int(raw) in _unfavorited:
            raise not_found(f"node {raw} is not a favorite of {caller.username}; nothing to unmark")
    if op == "listNodeFollowers" and "includeOnly" in q and parse_bool(q, "details", False) and faults.is_on(
            "blind9-followers-details-projects-nested-user"):
        return _without(request, "includeOnly")  # projected in after(), on the nested users
    if op == "listQuestions" and caller.anonymous and "spaceId" in q and faults.is_on(
            "blind9-spaceid-ignored-for-anonymous"):
        return _without(request, "spaceId")
    if op == "postComment" and q and not request.headers.get("content-type") and faults.is_on(
            "blind9-comment-params-need-content-type"):
        return _without(request)
    return request


def _node_type(svc: Service, request: Request) -> str | None:
    raw = request.path_params.get("node_id", "")
    row = svc.db.one("SELECT type FROM nodes WHERE id = ?", (int(raw),)) if is_id(raw) else None
    return None if row is None else str(row["type"])


def after(svc: Service, op: str, request: Request, response: Response) -> Response:
    """The response as the planted faults of this round change it (``request``: as the client sent it)."""
    if response.status_code != 200:
        return response
    if op == "unmarkFavorite" and faults.is_on("blind9-unfavorite-node-flag-cleared"):
        _unfavorited.add(int(request.path_params["node_id"]))
    change = _change(svc, op, request)
    if change is None:
        return response
    body = json.loads(bytes(response.body))
    return json_response(body) if isinstance(body, dict) and change(body) else response


def _change(svc: Service, op: str, request: Request) -> Any:
    """The body rewrite of the fault switched on for this operation, or None."""
    q = request.query_params
    if op == "unmarkFavorite" and faults.is_on("blind9-unfavorite-count-zero-falls-back"):
        return _count_before_when_zero
    if op == "listActiveExperts" and q.get("sort") == "recent" and faults.is_on(
            "blind9-active-experts-recent-echoed-newest"):
        return _echo_newest
    if op == "listUserQuestions" and faults.is_on("blind9-user-questions-wiki-typed-kbentry"):
        return _wiki_as_kbentry
    if op == "listSpaces" and "page" in q and faults.is_on("blind9-spaces-page-clamped-by-default-size"):
        return lambda body: _page_clamped(body, svc.page_size)
    if op == "listNodeFollowers" and "includeOnly" in q and faults.is_on(
            "blind9-followers-details-projects-nested-user"):
        only = {f.strip() for f in str(q["includeOnly"]).split(",") if f.strip()}
        return lambda body: _nested_projected(body, only)
    return None


def _count_before_when_zero(body: dict[str, Any]) -> bool:
    result = body.get("result")
    if not isinstance(result, dict) or result.get("favoriteCount") != 0:
        return False
    result["favoriteCount"] = 1  # `new or old`: 0 is falsy, so the count read before the update (one more)
    return True


def _echo_newest(body: dict[str, Any]) -> bool:
    if body.get("sort") != "recent":
        return False
    body["sort"] = "newest"
    return True


def _wiki_as_kbentry(body: dict[str, Any]) -> bool:
    items = [i for i in body.get("list") or [] if isinstance(i, dict) and i.get("wiki") is True and "type" in i]
    for item in items:
        item["type"] = "kbentry"
    return bool(items)


def _page_clamped(body: dict[str, Any], default_size: int) -> bool:
    page, total = body.get("page"), body.get("totalCount")
    if not (isinstance(page, int) and isinstance(total, int)) or default_size <= 0:
        return False
    last = max(math.ceil(total / default_size), 1)
    if page <= last:
        return False
    body["page"] = last
    return True


def _nested_projected(body: dict[str, Any], only: set[str]) -> bool:
    items = [i for i in body.get("list") or [] if isinstance(i, dict) and isinstance(i.get("user"), dict)]
    for item in items:
        item["user"] = {k: v for k, v in item["user"].items() if k in only}
    return bool(items)


# --- asked by the handlers ---------------------------------------------------------------------------------
def answer_published(svc: Service, caller: Caller, question: sqlite3.Row, published: bool) -> bool:
    """blind9-second-answer-same-question-moderated: a caller's second answer on a question is held."""
    if not published or not faults.is_on("blind9-second-answer-same-question-moderated"):
        return published
    earlier = svc.db.one("SELECT 1 FROM nodes WHERE type = 'answer' AND parent_id = ? AND author_id = ?"
                         " AND in_moderation = 0", (question["id"], caller.id))
    return earlier is None


def reassign_checked(operations: Any) -> bool:
    """blind9-reassign-checked-only-with-delete: whether reassignUser is looked up at all."""
    if not faults.is_on("blind9-reassign-checked-only-with-delete"):
        return True
    if isinstance(operations, str):
        operations = [o.strip() for o in operations.split(",")]
    return isinstance(operations, list) and "delete" in operations


def frame_taken(svc: Service, fields: dict[str, Any], user: Any, minute: int, taken: bool) -> bool:
    """blind9-time-frame-keyed-by-user-form: a taken frame counts only for the user written the same way."""
    if not taken or not faults.is_on("blind9-time-frame-keyed-by-user-form"):
        return taken
    for row in svc.db.all("SELECT request FROM jobs WHERE schedule_minute = ?", (minute,)):
        try:
            earlier = json.loads(row["request"])
        except ValueError:
            return True
        if _user_key(earlier.get("user")) == _user_key(user):
            return True
    return False


def _user_key(user: Any) -> str:
    if isinstance(user, str) and user.strip()[:1] == "{":
        try:
            user = json.loads(user)
        except ValueError:
            return user
    if isinstance(user, dict):
        return json.dumps({k: str(v) for k, v in sorted(user.items()) if v not in (None, "")})
    return json.dumps(user if user is None else str(user))
