"""Where the faults of blind round 31 (issue 44, :mod:`faults_blind_round31`) bite: each function leaves the call as
it is unless its own fault is on (``faults.is_on``). The stage hooks (``before``, ``after``) run from
:data:`request_hooks.HOOKS`; the others are called from the handler that decides what they change (comments.py,
answers.py, actions.py, gdpr_jobs.py, site_lists.py), one line each.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import bad_request, forbidden, unauthorized
from .fragments import JSON_TYPE
from .http_io import body_json, with_body
from .service import Service

Handler = Callable[[Service, Request, Caller], Awaitable[Response]]

INHERITED_MESSAGE = "Visibility on comment can't be defined since it's inherited"
INT32_MAX = 2**31 - 1
REASSIGN_PARAM = "round31-gdpr-reassign-param-unchecked"
"""The token schedule_gdpr_job adds to its skipped checks when the reassignUser came as a request parameter."""
USERNAME_EXPERT_ORDER = "username ASC, id DESC"
FOLLOWERS_KEPT_S = 2.0
_followers: dict[str, tuple[float, bytes, int]] = {}
"""round31-followers-cache-ignores-active: key (path and query without active) -> (when, body, status)."""


# --- COMMENT-5: a reply to a public comment of a question's own thread -------------------------------------
def public_reply_refused(parent: sqlite3.Row, visibility: str | None) -> None:
    """A private reply to a public comment posted on a question (no answer above it) refused with the 400."""
    if (parent["type"] == "comment" and parent["visibility"] == "full" and parent["answer_id"] is None
            and visibility not in (None, "full")
            and faults.is_on("round31-reply-public-question-thread-private-refused")):
        raise bad_request(INHERITED_MESSAGE)


# --- GDPR-DATE-FORMATTED: hour 00 ------------------------------------------------------------------------
def formatted_refused(formatted: str) -> bool:
    """Whether a formatted schedule date (already matched MM/DD/YYYY HH:MM) is refused: a future one at hour 00
    under the fault (a past one still gets the past-date message: the parser's refusal is of hours it accepts)."""
    if formatted[11:13] != "00" or not faults.is_on("round31-gdpr-formatted-hour-00-refused"):
        return False
    try:
        when = datetime.strptime(formatted, "%m/%d/%Y %H:%M").replace(tzinfo=UTC)
    except ValueError:
        return False
    return when.timestamp() > time.time()


# --- PERM-ANSWER-PUBLISH: a question in a child space -------------------------------------------------------
def answer_published(db: Any, question: sqlite3.Row, published: bool) -> bool:
    """An answer to a question of a child space held for moderation, whatever the caller holds."""
    if not published or not faults.is_on("round31-answer-child-space-moderated"):
        return published
    space = db.one("SELECT parent_id FROM spaces WHERE id = ?", (question["space_id"],))
    return not (space is not None and space["parent_id"])


# --- PERM-LOCK and PERM-LOCK-OWN -----------------------------------------------------------------------------
def lock_refused(db: Any, caller: Caller, node: sqlite3.Row) -> None:
    """A moderator (Lock comments on posts, not an administrator) refused locking an administrator's node."""
    if not faults.is_on("round31-lock-moderator-admin-node-refused") or caller.can(auth.EDIT_USERS_AND_GROUPS):
        return
    if not caller.can(auth.LOCK_ANY) or node["author_id"] == caller.id:
        return
    author = db.one("SELECT role FROM users WHERE id = ?", (node["author_id"],))
    if author is not None and author["role"] == "admin":
        raise forbidden()


def lock_owner(node: sqlite3.Row, caller: Caller) -> bool:
    """Whether the planted ownership check takes the caller for the owner: it is the node's last active user."""
    return (faults.is_on("round31-lock-own-last-active-user") and not caller.anonymous
            and node["last_active_user_id"] == caller.id)


# --- GDPR-REASSIGN-INVALID and GDPR-OPERATIONS-INVALID ------------------------------------------------------
def skipped(query_keys: Iterable[str]) -> frozenset[str]:
    """The checks the job handler skips: the lookup of a reassignUser given as a request parameter."""
    if "reassignUser" in query_keys and faults.is_on("round31-gdpr-reassign-param-unchecked"):
        return frozenset({REASSIGN_PARAM})
    return frozenset()


def operations_unchecked(fields: dict[str, Any]) -> bool:
    """Whether the operations check is skipped: an individual job naming its user by email with no operations."""
    if not faults.is_on("round31-gdpr-email-user-empty-operations"):
        return False
    user = structured(fields, "user")
    if not (isinstance(user, dict) and user.get("email") not in (None, "")):
        return False
    operations = structured(fields, "operations")
    return operations in (None, "", [])


# --- SORT-EXPERTS-ORDER: oldest on the active expert list ----------------------------------------------------
def active_experts_order(query: Any, order: str | None) -> str | None:
    """The order the active expert list uses: username order for sort=oldest under the fault (the case of the sort
    switch falls through to the next one)."""
    if query.get("sort") == "oldest" and faults.is_on("round31-active-experts-oldest-by-username"):
        return USERNAME_EXPERT_ORDER
    return order


# --- the stage hooks (request_hooks.HOOKS) -------------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, _handler: Handler) -> Response | None:
    if op == "listUserContent" and faults.is_on("round31-content-id-beyond-int32-400"):
        raw = request.path_params.get("user_id", "")
        if raw.isascii() and raw.isdecimal() and len(raw) < 19 and int(raw) > INT32_MAX:
            raise bad_request("userId must be an integer")  # Integer.parseInt in the path converter
    if op == "listUserQuestions" and caller.anonymous and faults.is_on("round31-user-questions-staff-anonymous-401"):
        raw = request.path_params.get("user_id", "")
        if raw.isascii() and raw.isdecimal() and len(raw) < 19:
            user = svc.db.one("SELECT role FROM users WHERE id = ?", (int(raw),))
            if user is not None and user["role"] in ("admin", "moderator"):
                raise unauthorized()
    if op == "listNodeFollowers" and faults.is_on("round31-followers-cache-ignores-active"):
        kept = _followers.get(_followers_key(request))
        if kept is not None and time.monotonic() - kept[0] < FOLLOWERS_KEPT_S:
            return Response(kept[1], status_code=kept[2], media_type=JSON_TYPE)
    return None


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 200:
        return response
    if op == "listEarnedExperts" and request.query_params.get("sort") == "recent" and faults.is_on(
            "round31-earned-experts-recent-echo-newest"):
        body = body_json(response)
        if isinstance(body, dict):
            return with_body(response, {**body, "sort": "newest"})
    if op == "listAnswerComments" and faults.is_on("round31-moderated-comment-date-string"):
        return _moderated_dates(svc, response)
    if op == "lockNode" and faults.is_on("round31-lock-answer-node-id-question"):
        return _lock_names_question(svc, request, response)
    if op == "listUserAnswers" and faults.is_on("round31-moderated-answer-commentids-unfiltered"):
        return _moderated_comment_ids(svc, response)
    if op == "listNodeFollowers" and faults.is_on("round31-followers-cache-ignores-active"):
        _followers[_followers_key(request)] = (time.monotonic(), bytes(response.body), response.status_code)
    return response


def _followers_key(request: Request) -> str:
    """The planted cache's key: the path and every parameter but active."""
    kept = sorted((k, v) for k, v in request.query_params.multi_items() if k != "active")
    return request.url.path + "?" + "&".join(f"{k}={v}" for k, v in kept)


def _moderated_dates(svc: Service, response: Response) -> Response:
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    if not items:
        return response
    ids = [i["id"] for i in items if isinstance(i, dict) and isinstance(i.get("id"), int)]
    held = set(svc.db.ids(f"SELECT id FROM nodes WHERE id IN ({','.join('?' * len(ids)) or 'NULL'})"
                          " AND in_moderation = 1", ids))
    if not held:
        return response
    for item in items:
        if item.get("id") in held and isinstance(item.get("creationDate"), int):
            when = datetime.fromtimestamp(item["creationDate"] / 1000, UTC)
            item["creationDate"] = when.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    return with_body(response, body)


def _lock_names_question(svc: Service, request: Request, response: Response) -> Response:
    raw = request.path_params.get("node_id", "")
    if not (raw.isascii() and raw.isdecimal() and len(raw) < 19):
        return response
    node = svc.db.one("SELECT type, question_id FROM nodes WHERE id = ?", (int(raw),))
    body = body_json(response)
    if node is None or node["type"] != "answer" or not isinstance(body, dict):
        return response
    action = (body.get("result") or {}).get("lockAction")
    if isinstance(action, dict) and isinstance(action.get("node"), dict):
        action["node"]["id"] = node["question_id"]
        return with_body(response, body)
    return response


def _moderated_comment_ids(svc: Service, response: Response) -> Response:
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    if not items:
        return response
    changed = False
    for item in items:
        if not (isinstance(item, dict) and isinstance(item.get("id"), int) and "commentIds" in item):
            continue
        row = svc.db.one("SELECT in_moderation FROM nodes WHERE id = ?", (item["id"],))
        if row is not None and row["in_moderation"]:
            item["commentIds"] = svc.db.ids(
                "SELECT id FROM nodes WHERE parent_id = ? AND type = 'comment' ORDER BY id", (item["id"],))
            changed = True
    return with_body(response, body) if changed else response
