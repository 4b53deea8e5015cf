"""The planted bugs of the fifteenth blind round (issue 44, round15; registry entries in
:mod:`faults_blind_round15`): each breaks one stated rule on one path only. Every function here is a no-op unless
its fault is on, so the handlers call them unconditionally, one line each."""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .db import Database
from .http_io import json_response

ISSUETYPES_KEPT_S = 2.0
"""How long the planted fault r15-issuetypes-reread-names-null keeps the caller who filled the issue-type cache."""
_issuetypes_filled: dict[str, tuple[float, int]] = {}


def _body(page: Response) -> Any:
    return json.loads(bytes(page.body))


# --- postAnswer (answers.py) --------------------------------------------------------------------------------
def answer_published(question: sqlite3.Row, published: bool) -> bool:
    """r15-first-answer-moderated: the first answer to a question (one with no published answer yet) goes to
    moderation whoever posts it (the first-answer notification path stores it before the Publish answer check)."""
    if published and not question["answer_count"] and faults.is_on("r15-first-answer-moderated"):
        return False
    return published


def answer_body(request: Request, body: str | None) -> str | None:
    """r15-answer-form-plus-kept: a form-encoded answer body decoded without turning '+' into a space (the form
    decoder of the answer path uses unquote, not unquote_plus); the JSON and query forms are right."""
    if body is None or not faults.is_on("r15-answer-form-plus-kept") or "body" in request.query_params:
        return body
    if not request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        return body
    return body.replace(" ", "+")


# --- scheduleGdprJob (gdpr_jobs.py) -------------------------------------------------------------------------
def gdpr_kind(kind: Any, fields: dict[str, Any]) -> Any:
    """r15-gdpr-no-type-csv-bulk: a job without type that carries a csvFileId is taken as bulk (the field beside
    the missing one decides)."""
    if kind in (None, "") and fields.get("csvFileId") not in (None, "") and faults.is_on("r15-gdpr-no-type-csv-bulk"):
        return "bulk"
    return kind


def gdpr_csv_needed(fields: dict[str, Any]) -> bool:
    """r15-gdpr-bulk-suspend-only-no-csv: a bulk job whose only operation is suspend is scheduled without a
    csvFileId (that branch was meant for a later 'suspend everyone' job and skips the file check)."""
    if not faults.is_on("r15-gdpr-bulk-suspend-only-no-csv") or fields.get("csvFileId") not in (None, ""):
        return True
    operations = fields.get("operations")
    if isinstance(operations, str):
        try:
            operations = json.loads(operations)
        except ValueError:
            operations = [o.strip() for o in operations.split(",") if o.strip()]
    return operations != ["suspend"]


def gdpr_past_unchecked(fields: dict[str, Any], schedule: Any, user: Any) -> bool:
    """r15-gdpr-past-timestamp-username: a past moment given as timeStamp passes when the user is named by
    username (that branch validates the date's format only)."""
    if not faults.is_on("r15-gdpr-past-timestamp-username"):
        return False
    stamped = isinstance(schedule, dict) and schedule.get("timeStamp") not in (None, "") and schedule.get(
        "formatted") in (None, "")
    by_name = isinstance(user, dict) and user.get("username") not in (None, "")
    return stamped and by_name and fields.get("type") == "individual"


# --- node actions (actions.py) ------------------------------------------------------------------------------
def cancelwiki_page(db: Database, caller: Caller, action_id: int, page: Response) -> Response:
    """r15-cancelwiki-by-other-not-canceled: unwikifying a node someone else wikified returns the wiki action with
    canceled false (the record is re-read from the wikifier's cache, not the updated row)."""
    if not faults.is_on("r15-cancelwiki-by-other-not-canceled") or page.status_code != 200:
        return page
    row = db.one("SELECT user_id FROM actions WHERE id = ?", (action_id,))
    if row is None or row["user_id"] == caller.id:
        return page
    body = _body(page)
    action = (body.get("result") or {}).get("wikifyAction")
    if isinstance(action, dict):
        action["canceled"] = False
        action.pop("canceledByUser", None)
        action.pop("canceledDate", None)
    return json_response(body)






# --- listIssueTypes (site_lists.py) -------------------------------------------------------------------------
def issue_types(caller: Caller, types: list[dict[str, Any]]) -> Any:
    """r15-issuetypes-admin-enveloped: the admin (who may configure the tracker) gets the paged envelope of the
    admin console; r15-issuetypes-reread-names-null: a read by another caller within ISSUETYPES_KEPT_S of the read
    that filled the cache gets names null (the cache filled one caller's locale only)."""
    if faults.is_on("r15-issuetypes-admin-enveloped") and caller.role == "admin":
        n = len(types)
        return {"name": "", "sort": "", "page": 1, "pageSize": max(n, 1), "pageCount": 1, "listCount": n,
                "totalCount": n, "list": types}
    if faults.is_on("r15-issuetypes-reread-names-null"):
        now = time.monotonic()
        kept = _issuetypes_filled.get("tracker")
        if kept is not None and now - kept[0] < ISSUETYPES_KEPT_S and kept[1] != caller.id:
            return [{"name": None} for _ in types]
        _issuetypes_filled["tracker"] = (now, caller.id)
    return types
