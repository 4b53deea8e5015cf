"""Where the faults of :mod:`faults_paths15` bite (issue 44): the send-to-moderation door and the lock's ownership
(actions.py), a reassignUser's look-up (gdpr_jobs.py) and one
:class:`request_hooks.Hook` (``after``: the user question list's marked state, a lock's record). Each function leaves
the call as it is unless its own fault is on (``faults.is_on``).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults, paths14_paths
from .auth import Caller
from .bodies import structured
from .db import Database
from .errors import denied
from .http_io import body_json, unmark_items, with_body
from .service import Service


def _answered(db: Database, caller: Caller, node: sqlite3.Row) -> bool:
    """The caller wrote a published answer directly under the node (a question)."""
    return node["type"] == "question" and db.one(
        "SELECT 1 FROM nodes WHERE parent_id = ? AND type = 'answer' AND author_id = ? AND in_moderation = 0",
        (node["id"], caller.id)) is not None


def _reply_under_own(db: Database, caller: Caller, node: sqlite3.Row) -> bool:
    """The node is a reply of another's whose parent comment the caller wrote."""
    if node["type"] != "comment" or node["author_id"] == caller.id:
        return False
    parent = db.one("SELECT type, author_id FROM nodes WHERE id = ?", (node["parent_id"],))
    return parent is not None and parent["type"] == "comment" and parent["author_id"] == caller.id


# --- actions.py ----------------------------------------------------------------------------------------------------
def sendtomod_door(db: Database, caller: Caller, node: sqlite3.Row) -> None:
    """paths15-sendtomod-answerer-allowed and paths15-sendtomod-reply-by-parent-author: the door let member in (the
    faults' route-table override); here every node but the fault's own is refused as the table says."""
    if caller.anonymous or caller.can(auth.SEND_TO_MODERATION):
        return
    if faults.is_on("paths15-sendtomod-answerer-allowed") and not _answered(db, caller, node):
        raise denied(caller.anonymous)
    if faults.is_on("paths15-sendtomod-reply-by-parent-author") and not _reply_under_own(db, caller, node):
        raise denied(caller.anonymous)


def lock_owns(db: Database, caller: Caller, node: sqlite3.Row) -> bool:
    """paths15-lock-own-by-answerer: a question the caller answered counts as its own."""
    return (faults.is_on("paths15-lock-own-by-answerer") and caller.can(auth.LOCK_OWN)
            and node["author_id"] != caller.id and _answered(db, caller, node))


# --- gdpr_jobs.py --------------------------------------------------------------------------------------------------
def reassign_refused(db: Database, fields: dict[str, Any], reassign: Any) -> bool:
    """paths15-reassign-moderator-emailed-user-refused: with the job's user given by email, a reassignUser naming a
    moderator (by username or id) is refused."""
    if not faults.is_on("paths15-reassign-moderator-emailed-user-refused") or not isinstance(reassign, dict):
        return False
    user = structured(fields, "user")
    if not isinstance(user, dict) or user.get("email") in (None, ""):
        return False
    if reassign.get("username") not in (None, ""):
        row = db.one("SELECT role FROM users WHERE username = ?", (str(reassign["username"]),))
    elif str(reassign.get("id", "")).strip().isdecimal():
        row = db.one("SELECT role FROM users WHERE id = ?", (int(str(reassign["id"]).strip()),))
    else:
        return False
    return row is not None and row["role"] == "moderator"


# --- around the call (request_hooks) -------------------------------------------------------------------------------
ACTIONS = ("lockNode", "sendToModeration", "cancelWiki", "unmarkFavorite")
_last_accepted: dict[tuple[int, int], int] = {}
"""paths15-lock-user-last-accepted-caller: (server, node) -> the account whose accepted node action came last."""


def _node_of(request: Request) -> int | None:
    raw = str(request.path_params.get("node_id", ""))
    return int(raw) if raw.isdecimal() and len(raw) < 19 else None


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The response as the broken paths serve it (:func:`unmarked_for_anonymous`, :func:`last_accepted_record`)."""
    return last_accepted_record(svc, op, request, caller, unmarked_for_anonymous(op, caller, response))


def unmarked_for_anonymous(op: str, caller: Caller, response: Response) -> Response:
    """paths15-user-questions-anonymous-unmarked: anonymous's user question list without the accepted state."""
    if (op != "listUserQuestions" or not caller.anonymous or response.status_code != 200
            or not faults.is_on("paths15-user-questions-anonymous-unmarked")):
        return response
    body = body_json(response)
    return with_body(response, body) if unmark_items(body) else response


def last_accepted_record(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """paths15-lock-user-last-accepted-caller: an accepted lock's record names the account of the node's last
    accepted action (the audit column read back before the lock's own success is written to it)."""
    node = _node_of(request)
    if (op not in ACTIONS or node is None or response.status_code >= 300
            or not faults.is_on("paths15-lock-user-last-accepted-caller")):
        return response
    last = _last_accepted.get((id(svc), node))
    _last_accepted[(id(svc), node)] = caller.id
    return paths14_paths.lock_record_names(svc, op, caller, response, last)
