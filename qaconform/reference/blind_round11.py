"""Where the planted faults of the eleventh blind round bite (issue 44, round11; the entries are in
:mod:`faults_blind_round11`). Each function is called from the one handler it breaks and, with its fault off,
returns its input unchanged, so the handler reads as before. Each bug is a real server's: a check made on one
branch only, a lookup against the wrong node or column, a cache keyed too widely.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Collection, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller


# --- permissions decided on one branch only (a parameter given) ---------------------------------------------
def lock_wrap_admits(request: Request, caller: Caller) -> bool:
    """r11-lock-wrap-unchecked: the wrapped branch of lock makes no ownership check (the door is opened by the
    override of the fault's entry)."""
    return ("wrap" in request.query_params and not caller.can(auth.LOCK_OWN) and not caller.anonymous
            and faults.is_on("r11-lock-wrap-unchecked"))


def private_check_skipped(caller: Caller, from_query: Collection[str]) -> bool:
    """r11-comment-private-v1-unchecked: the v1 compatibility branch predates private comments and never checks
    Use Private Comments."""
    return ("v1" in from_query and not caller.anonymous and not caller.can(auth.USE_PRIVATE_COMMENTS)
            and faults.is_on("r11-comment-private-v1-unchecked"))


# --- ownership and permissions read from the wrong node -------------------------------------------------------


def option_checked_for(db: Any, caller: Caller, parent: sqlite3.Row) -> Caller:
    """r11-reply-option-permission-of-parent-author: on a reply to a public comment, the private option's
    permission is looked up for the parent comment's author, not the caller."""
    if (parent["type"] != "comment" or parent["visibility"] != "full" or caller.anonymous
            or not faults.is_on("r11-reply-option-permission-of-parent-author")):
        return caller
    row = db.one("SELECT role FROM users WHERE id = ?", (parent["author_id"],))
    if row is None:
        return caller
    return Caller(caller.id, caller.username, str(row["role"]), auth.ROLE_PERMISSIONS.get(str(row["role"]),
                                                                                           frozenset()))


# --- an input form on one operation ---------------------------------------------------------------------------


def reassign_lookup_key(user: Any, reassign: Any) -> Any:
    """r11-gdpr-reassign-username-by-user-key: the reassignUser's username looked up in the column of the form the
    job's user was given in (email): an existing username is then not found."""
    if (faults.is_on("r11-gdpr-reassign-username-by-user-key") and isinstance(user, dict)
            and user.get("email") not in (None, "") and isinstance(reassign, dict)
            and reassign.get("username") not in (None, "")):
        return {"email": reassign["username"]}
    return reassign




# --- a stated effect on one node kind -----------------------------------------------------------------------


def reply_default_privacy(parent: sqlite3.Row, given: bool, final: tuple[str, list[int]]) -> tuple[str, list[int]]:
    """r11-reply-to-public-default-recipient: a reply to a public comment without privacy fields is made private to
    the parent's author (the reply-to-author default of the thread view)."""
    if (not given and parent["type"] == "comment" and parent["visibility"] == "full" and final[0] == "full"
            and faults.is_on("r11-reply-to-public-default-recipient")):
        return "recipients", [int(parent["author_id"])]
    return final


# --- a parameter echoed but without its effect ------------------------------------------------------------------
def follower_where(query: Mapping[str, str], details: bool, where: str) -> str:
    """r11-followers-details-active-false-inverted: with details=true, active=false selects the inactive relations
    only (the flag compared for equality), not all of them."""
    if (details and str(query.get("active", "")).lower() == "false"
            and faults.is_on("r11-followers-details-active-false-inverted")):
        return "f.node_id = ? AND f.active = 0"
    return where


def topic_offset(query: Mapping[str, str], offset: int) -> int:
    """r11-topics-includeonly-page-ignored: the projected topic query drops the offset (every page is the first)."""
    if "includeOnly" in query and faults.is_on("r11-topics-includeonly-page-ignored"):
        return 0
    return offset


# --- privacy after a state change, and a cache keyed too widely ----------------------------------------------------


PROJECTED_KEPT_S = 2.0
"""How long r11-user-answers-projected-cached keeps a projected page."""
_projected: dict[str, tuple[float, bytes]] = {}


def projected_answers_kept(request: Request) -> Response | None:
    """r11-user-answers-projected-cached: a projected (includeOnly) page of a user's answers served from a cache
    keyed by its URL: the previous caller's view (a staff caller's, with the hidden space) goes to the next one."""
    if "includeOnly" not in request.query_params or not faults.is_on("r11-user-answers-projected-cached"):
        return None
    kept = _projected.get(str(request.url))
    if kept is not None and time.monotonic() - kept[0] < PROJECTED_KEPT_S:
        return Response(kept[1], media_type="application/json")
    return None


def projected_answers_keep(request: Request, response: Response) -> Response:
    if ("includeOnly" in request.query_params and response.status_code == 200
            and faults.is_on("r11-user-answers-projected-cached")):
        _projected[str(request.url)] = (time.monotonic(), bytes(response.body))
    return response

