"""Where the planted faults of the blind round on permissions bite (issue 44, blindp; the entries and the sentence
each breaks are in :mod:`faults_blind_perms`). Handlers call one function here each, so that the bugs of this
round live in one module; with no fault on, every function returns at its first test.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import ROLE_PERMISSIONS, Caller
from .errors import ApiError, denied
from .http_io import json_response
from .listing import Paging, envelope
from .service import Service


def _form(request: Request) -> bool:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return media == "application/x-www-form-urlencoded"


# --- lists ----------------------------------------------------------------------------------------------------
def groups_for_denied(caller: Caller, paging: Paging, query: Any) -> Response | None:
    """blindp-groups-later-page-empty-for-denied: a caller the door let in only because ``page`` was given gets an
    empty later page, or the refusal on the first one; None for callers who hold the permission."""
    if not faults.is_on("blindp-groups-later-page-empty-for-denied") or caller.can(auth.EDIT_USERS_AND_GROUPS):
        return None
    if paging.page <= 1:
        raise denied(caller.anonymous)
    return json_response(envelope([], 0, paging, "name", query))


def refusal_body(request: Request, exc: ApiError, body: dict[str, Any]) -> dict[str, Any]:
    """blindp-groups-denied-body-wrapped: the group list's refusal under ``wrap`` in the legacy wrapper's body."""
    if (exc.status in (401, 403) and "wrap" in request.query_params and request.url.path.endswith("/group.json")
            and faults.is_on("blindp-groups-denied-body-wrapped")):
        message = body.get("errors", {}).get("message") if isinstance(body.get("errors"), dict) else None
        return {"success": False, "error": message or "permission denied"}
    return body


def spaces_where(caller: Caller, paging: Paging, where: str) -> str:
    """blindp-spaces-hidden-on-later-pages: from page 2 on, every space for a caller who sees the list."""
    if paging.page > 1 and where not in ("0", "1") and faults.is_on("blindp-spaces-hidden-on-later-pages"):
        return "1"
    return where


def earned_experts_refused(caller: Caller, query: Any) -> None:
    """blindp-earned-experts-realname-needs-publish: sort=realname refused to a caller without Publish answer."""
    if (query.get("sort") == "realname" and not caller.can(auth.PUBLISH_ANSWER)
            and faults.is_on("blindp-earned-experts-realname-needs-publish")):
        raise denied(caller.anonymous)


# --- node actions ---------------------------------------------------------------------------------------------
def cancelwiki_any_node(request: Request) -> str:
    """The permission that admits unwikifying any node: Mark as community wiki, or under wrap
    (blindp-cancelwiki-wrap-mark-wiki-ignored) one nobody holds."""
    if "wrap" in request.query_params and faults.is_on("blindp-cancelwiki-wrap-mark-wiki-ignored"):
        return "(no such permission)"
    return auth.MARK_WIKI


def own_refusal(exc: ApiError) -> Response | None:
    """blindp-cancelwiki-own-refusal-success-false: the own check's refusal answered 200 {success: false}."""
    if exc.status in (401, 403) and faults.is_on("blindp-cancelwiki-own-refusal-success-false"):
        return json_response({"success": False, "result": {}})
    return None


def lock_admits(caller: Caller, node: sqlite3.Row) -> None:
    """blindp-lock-novice-own-comment: the door let in a caller with neither lock permission; only its own comment
    passes here."""
    if not faults.is_on("blindp-lock-novice-own-comment") or caller.can(auth.LOCK_ANY) or caller.can(auth.LOCK_OWN):
        return
    if not (node["type"] == "comment" and node["author_id"] == caller.id):
        raise denied(caller.anonymous)


def lock_owner_skipped(node: sqlite3.Row) -> bool:
    """blindp-lock-own-skipped-on-questions: a question counts as the caller's own for the lock's own check."""
    return node["type"] == "question" and faults.is_on("blindp-lock-own-skipped-on-questions")


def sendtomod_admits(caller: Caller, node: sqlite3.Row) -> None:
    """blindp-sendtomod-moderated-node-unchecked: the door let every signed-in caller in; a caller without the
    permission is refused here unless the node is already in moderation."""
    if not faults.is_on("blindp-sendtomod-moderated-node-unchecked") or caller.can(auth.SEND_TO_MODERATION):
        return
    if not node["in_moderation"]:
        raise denied(caller.anonymous)


# --- writes ---------------------------------------------------------------------------------------------------
def answer_published(svc: Service, caller: Caller, question: sqlite3.Row, published: bool) -> bool:
    """blindp-answer-publish-by-question-author: Publish answer looked up for the question's author."""
    if not faults.is_on("blindp-answer-publish-by-question-author"):
        return published
    row = svc.db.one("SELECT role FROM users WHERE id = ?", (question["author_id"],))
    role = row["role"] if row is not None and row["role"] in ROLE_PERMISSIONS else "anonymous"
    return auth.PUBLISH_ANSWER in ROLE_PERMISSIONS[role]


def privacy_caller(request: Request, caller: Caller) -> Caller:
    """blindp-comment-private-form-unchecked: a form-encoded comment's privacy judged with every private option."""
    if not (_form(request) and faults.is_on("blindp-comment-private-form-unchecked")):
        return caller
    extra = {auth.USE_PRIVATE_COMMENTS, *auth.PRIVATE_OPTION_PERMISSION.values()}
    return Caller(caller.id, caller.username, caller.role, caller.permissions | extra, caller.group_ids)


def comment_admits(caller: Caller, parent: sqlite3.Row) -> None:
    """blindp-comment-anonymous-reply-accepted: the door let anonymous in; only a reply to a comment passes."""
    if caller.anonymous and parent["type"] != "comment" and faults.is_on("blindp-comment-anonymous-reply-accepted"):
        raise denied(True)
