"""Where the planted faults of combos2 bite (issue 44; the entries and the sentences they break are in
:mod:`faults_combos2`): a refusal the service raised, turned at one combination into a redirect to a login page.
Called once from the dispatch's error path; with no such fault on it returns None at its first test.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .errors import ApiError
from .service import Service

LOCK_REDIRECTED = "combos2-anonymous-lock-of-locked-node-redirected"
COMMENT_REDIRECTED = "combos2-novice-private-comment-on-locked-node-redirected"
OWN_QUESTION_GROUPS = "combos2-member-own-groups-on-own-question-allowed"
OWN_COMMENT_MODS = "combos2-novice-to-moderators-on-own-comment-allowed"


def _locked(svc: Service, request: Request) -> bool:
    raw = request.path_params.get("node_id")
    try:
        row = svc.db.one("SELECT locked FROM nodes WHERE id = ?", (int(str(raw)),))
    except (TypeError, ValueError):
        return False
    return row is not None and bool(row["locked"])


def note_fields(request: Request, fields: dict[str, Any]) -> None:
    """Keep whether a comment request gave a visibility (its body stream is read once, by the handler), for
    :func:`refusal`; nothing when the fault is off."""
    if faults.is_on(COMMENT_REDIRECTED):
        request.state.combos2_visibility = fields.get("visibility") not in (None, "")


def refusal(svc: Service, op_id: str, request: Request, caller: Caller | None,
                  exc: ApiError) -> Response | None:
    """The refusal ``exc`` as a 302 to the login page when a combos2 fault is on for this call; else None."""
    if not 400 <= exc.status < 500:
        return None
    if op_id == "lockNode" and faults.is_on(LOCK_REDIRECTED):
        anonymous = "authorization" not in request.headers
        if anonymous and _locked(svc, request):
            return _to_login(request)
    if op_id == "postComment" and faults.is_on(COMMENT_REDIRECTED):
        if caller is not None and caller.role == "novice" and _locked(svc, request):
            if getattr(request.state, "combos2_visibility", False):
                return _to_login(request)
    return None


def _to_login(request: Request) -> Response:
    return Response(b"", status_code=302, headers={"Location": "/users/login.html?next=" + request.url.path})


def option_check_skipped(caller: Caller, parent: sqlite3.Row, visibility: str | None) -> bool:
    """Rule 7 skipped at one combination: member's comment to own groups on a question member wrote
    (:data:`OWN_QUESTION_GROUPS`), novice's comment to moderators on a comment novice wrote
    (:data:`OWN_COMMENT_MODS`)."""
    own = parent["author_id"] == caller.id
    if visibility == "group" and caller.role == "member" and own and parent["type"] == "question":
        return faults.is_on(OWN_QUESTION_GROUPS)
    if visibility == "mod" and caller.role == "novice" and own and parent["type"] == "comment":
        return faults.is_on(OWN_COMMENT_MODS)
    return False
