"""Where the planted faults of the thirteenth blind round bite (issue 44, round13; the entries are in
:mod:`faults_blind_round13`). Each function is called from the one handler it breaks and, with its fault off,
returns its input unchanged (or raises nothing), so the handler reads as before. Each bug is one a real server
ships: a check made on one branch only, a relation read from the wrong node, a form parsed on one path only, a
state edge nobody tried.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import bad_request, denied
from .http_io import json_response


def _form(request: Request) -> bool:
    return request.headers.get("content-type", "").split(";")[0].strip().lower() == (
        "application/x-www-form-urlencoded")


# --- refusals: a redirect, an account, a relation ------------------------------------------------------------
def questions_redirect(request: Request, caller: Caller) -> Response | None:
    """r13-questions-unanswered-anonymous-redirect: the unanswered filter runs through the site's search page,
    which sends a caller without a session to the login page (302) instead of answering the list."""
    if (caller.anonymous and "unanswered" in request.query_params
            and faults.is_on("r13-questions-unanswered-anonymous-redirect")):
        return Response(b"", status_code=302, headers={"Location": "/users/login.html"})
    return None


def user_questions_refused(request: Request, caller: Caller, user_id: int) -> None:
    """r13-user-questions-novice-own-only: the user question list lets a novice read its own list only (an "own"
    clause the permission table does not have), refusing another user's list with 403."""
    if (caller.role == "novice" and user_id != caller.id
            and faults.is_on("r13-user-questions-novice-own-only")):
        raise denied(caller.anonymous)


def answer_own_question_refused(caller: Caller, question: sqlite3.Row) -> None:
    """r13-answer-member-own-question-refused: a member answering a question it wrote is refused (self-answers
    checked against a moderation permission the member does not hold)."""
    if (caller.role == "member" and question["author_id"] == caller.id
            and not caller.can(auth.SEND_TO_MODERATION)
            and faults.is_on("r13-answer-member-own-question-refused")):
        raise denied(caller.anonymous)


# --- the response to a posted answer ----------------------------------------------------------------------
def posted_answer(request: Request, caller: Caller, question: sqlite3.Row, item: dict[str, Any],
                  headers: dict[str, str]) -> dict[str, str]:
    """r13-answer-form-id-integer: the form-encoded branch builds the response from the stored row, whose id is an
    integer. r13-answer-own-question-no-location: an answer to the caller's own question is built by the
    self-answer branch, which forgets the Location header. Returns the headers to send."""
    if _form(request) and faults.is_on("r13-answer-form-id-integer") and isinstance(item.get("id"), str):
        item["id"] = int(item["id"])
    if question["author_id"] == caller.id and faults.is_on("r13-answer-own-question-no-location"):
        return {k: v for k, v in headers.items() if k.lower() != "location"}
    return headers


# --- data-protection jobs -------------------------------------------------------------------------------------
def gdpr_fields(kind: Any, fields: dict[str, Any]) -> dict[str, Any]:
    """r13-gdpr-individual-user-from-reassign: an individual job without user takes its reassignUser as the user
    (``user or reassignUser``) and is scheduled. r13-gdpr-user-email-refused-with-timestamp: the timeStamp branch
    of the date parser resolves the user by username or id only, so a user given by email is refused."""
    user = structured(fields, "user")
    reassign = structured(fields, "reassignUser")
    if (kind == "individual" and user in (None, "") and isinstance(reassign, dict) and reassign
            and faults.is_on("r13-gdpr-individual-user-from-reassign")):
        return {**fields, "user": reassign}
    if kind == "individual" and isinstance(user, dict) and user.get("email") not in (None, "") and faults.is_on(
            "r13-gdpr-user-email-refused-with-timestamp"):
        date = structured(fields, "scheduleDate")
        if date in (None, ""):
            date = structured(fields, "scheduleTime")
        if isinstance(date, dict) and date.get("formatted") is None and date.get("timeStamp") is not None:
            raise bad_request("The provided 'user' is invalid")
    return fields


# --- node actions ---------------------------------------------------------------------------------------------
def unfavorite_success(count: int) -> bool:
    """r13-unfavorite-last-success-false: success is computed as "the node still has favorites", so removing the
    node's last favorite answers success false."""
    return not (count == 0 and faults.is_on("r13-unfavorite-last-success-false"))


def cancelwiki_drop(svc: Any, action_id: int, caller: Caller, drop: str | None) -> str | None:
    """r13-cancelwiki-other-canceledby-missing: canceledByUser is filled from the wikify action's own user, and
    left out when someone other than the user who wikified the node cancels it."""
    if drop is not None or not faults.is_on("r13-cancelwiki-other-canceledby-missing"):
        return drop
    row = svc.db.one("SELECT user_id FROM actions WHERE id = ?", (action_id,))
    return "canceledByUser" if row is not None and row["user_id"] != caller.id else None


def lock_page(svc: Any, node: sqlite3.Row, page: Response) -> Response:
    """r13-lock-reply-result-key: locking a reply (a comment whose parent is a comment) goes through the thread
    code, which names the record lockCommentAction."""
    if node["type"] != "comment" or page.status_code != 200 or not faults.is_on("r13-lock-reply-result-key"):
        return page
    parent = svc.db.one("SELECT type FROM nodes WHERE id = ?", (node["parent_id"],))
    if parent is None or parent["type"] != "comment":
        return page
    body = json.loads(bytes(page.body))
    result = body.get("result") or {}
    if "lockAction" in result:
        result["lockCommentAction"] = result.pop("lockAction")
    return json_response(body, page.status_code)


# --- comments -------------------------------------------------------------------------------------------------
def body_required(parent: sqlite3.Row, required: bool) -> bool:
    """r13-comment-on-question-body-optional: the question-comment branch never checks that body is given."""
    return required and not (parent["type"] == "question" and faults.is_on("r13-comment-on-question-body-optional"))


def private_reply_refused(caller: Caller, parent: sqlite3.Row, visibility: str | None) -> None:
    """r13-reply-private-option-wrong-permission: on a reply to a public comment the private option is checked
    against Send private comments to own groups whatever the option, so a member (who lacks it) is refused 403."""
    if (visibility not in (None, "full") and parent["type"] == "comment" and parent["visibility"] == "full"
            and not caller.anonymous and not caller.can(auth.PRIVATE_TO_GROUPS)
            and faults.is_on("r13-reply-private-option-wrong-permission")):
        raise denied(caller.anonymous, stated_403=True)


def inherited_refusal(svc: Any, parent: sqlite3.Row) -> None:
    """r13-inherited-message-deep-reply: a reply whose parent is itself a reply inside a private thread is refused
    by the thread walker with its own message, not the stated one."""
    if not faults.is_on("r13-inherited-message-deep-reply"):
        return
    grand = svc.db.one("SELECT type, visibility FROM nodes WHERE id = ?", (parent["parent_id"],))
    if grand is not None and grand["type"] == "comment" and grand["visibility"] != "full":
        raise bad_request("Reply visibility mismatch")


def reply_recipients(parent: sqlite3.Row, fields: Mapping[str, Any], visibility: str,
                     recipients: list[int]) -> list[int]:
    """r13-reply-string-recipients-dropped: on a reply to a public comment the recipients are read with an
    integer-only parser, so ids given as strings are dropped (the recipient cannot read the reply)."""
    if (visibility != "recipients" or parent["type"] != "comment" or parent["visibility"] != "full"
            or not faults.is_on("r13-reply-string-recipients-dropped")):
        return recipients
    raw = structured(dict(fields), "recipients")
    if not isinstance(raw, list):
        return recipients
    as_strings = {str(i.get("id")).strip() for i in raw if isinstance(i, dict) and isinstance(i.get("id"), str)}
    return [r for r in recipients if str(r) not in as_strings]
