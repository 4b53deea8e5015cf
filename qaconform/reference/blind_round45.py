"""Where the faults of round 45 (faults_blind_round45.py, issue 44) bite: one small hook per fault, each a no-op
unless its fault is on, called from the server module whose path it breaks, in that module's order of checks."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .db import Database
from .errors import bad_request, denied
from .http_io import json_response, parse_bool
from .listing import Paging


# --- 5 and 6 experts
def experts_offset(q: Mapping[str, str], earned: bool, paging: Paging) -> int:
    """round45-earned-experts-username-pages-overlap: the username keyset of later pages starts one row early."""
    if (earned and q.get("sort") == "username" and paging.page > 1 and paging.offset > 0
            and faults.is_on("round45-earned-experts-username-pages-overlap")):
        return paging.offset - 1
    return paging.offset


def earned_order(q: Mapping[str, str], order: str | None, by_username: str) -> str | None:
    """round45-earned-experts-realname-by-username-when-sized: sort=realname with a pageSize orders by username."""
    if q.get("sort") == "realname" and "pageSize" in q and faults.is_on(
            "round45-earned-experts-realname-by-username-when-sized"):
        return by_username
    return order


# --- 15 a user's questions, 4 a user's answers
def user_questions_refused(request: Request, caller: Caller) -> None:
    """round45-user-questions-include-anonymous-denied: include checked against a signed-in session."""
    if caller.anonymous and "include" in request.query_params and faults.is_on(
            "round45-user-questions-include-anonymous-denied"):
        raise denied(True)


def _rewritten(page: Response, change: Any) -> Response:
    if page.status_code != 200:
        return page
    body = json.loads(bytes(page.body))
    if not isinstance(body, dict):
        return page
    change(body)
    return json_response(body)


def user_questions_page(page: Response) -> Response:
    """round45-user-questions-unanswered-answers-null: answers null on a question without answers."""
    if not faults.is_on("round45-user-questions-unanswered-answers-null"):
        return page

    def change(body: dict[str, Any]) -> None:
        for item in body.get("list") or []:
            if isinstance(item, dict) and item.get("answers") == []:
                item["answers"] = None
    return _rewritten(page, change)


def user_answers_page(request: Request, page: Response) -> Response:
    """round45-user-answers-empty-page-zero: an empty answer list asked without page reports page 0."""
    if "page" in request.query_params or not faults.is_on("round45-user-answers-empty-page-zero"):
        return page

    def change(body: dict[str, Any]) -> None:
        if body.get("totalCount") == 0 and body.get("list") == []:
            body["page"] = 0
    return _rewritten(page, change)


# --- 8 a user's content
def content_clause(clause: str) -> str:
    """round45-content-private-under-moderated-answer: private comments under a moderated answer shown."""
    if not faults.is_on("round45-content-private-under-moderated-answer"):
        return clause
    return (f"({clause} OR (n.type = 'comment' AND n.visibility <> 'full' AND EXISTS (SELECT 1 FROM nodes a"
            " WHERE a.id = n.answer_id AND a.in_moderation = 1)))")


# --- 17 groups, 9 spaces, 16 followers
def groups_order(q: Mapping[str, str], sort: str, paging: Paging, order: str, oldest: str) -> str:
    """round45-groups-invalid-sort-later-page-oldest: an invalid sort on page 2 and later ordered oldest first."""
    invalid = bool(q.get("sort")) and sort != q.get("sort")
    if invalid and paging.page > 1 and faults.is_on("round45-groups-invalid-sort-later-page-oldest"):
        return oldest
    return order


def spaces_items(q: Mapping[str, str], spaces: dict[str, Any]) -> None:
    """round45-spaces-child-typed-subspace-when-sorted: a child space typed subspace under a sort."""
    if not q.get("sort") or not faults.is_on("round45-spaces-child-typed-subspace-when-sorted"):
        return
    for item in spaces.get("list") or []:
        parent = item.get("parentId")
        if item.get("type") == "space" and isinstance(parent, int) and parent > 0:
            item["type"] = "subspace"


def followers_refused(q: Mapping[str, str], caller: Caller) -> None:
    """round45-followers-details-anonymous-denied: the relations view asks for a signed-in caller."""
    if caller.anonymous and parse_bool(q, "details", False) and faults.is_on(
            "round45-followers-details-anonymous-denied"):
        raise denied(True)


# --- 18 an answer's comments
def answer_comments_refused(db: Database, caller: Caller, answer: sqlite3.Row) -> None:
    """round45-answer-comments-asker-refused: the asker (not the answerer, not a moderator) refused."""
    if caller.anonymous or caller.sees_moderation or answer["author_id"] == caller.id:
        return
    if not faults.is_on("round45-answer-comments-asker-refused"):
        return
    asked = db.one("SELECT 1 FROM nodes WHERE id = ? AND author_id = ?", (answer["question_id"], caller.id))
    if asked is not None:
        raise denied(False)


# --- 2 data-protection jobs
def reassign_self_refused(caller: Caller, reassign: Any) -> None:
    """round45-reassign-self-by-username-invalid: the caller's own username as reassignUser not found."""
    if not (isinstance(reassign, dict) and set(reassign) == {"username"}):
        return
    if str(reassign.get("username")) == caller.username and faults.is_on("round45-reassign-self-by-username-invalid"):
        raise bad_request("The provided 'reassignUser' is/are invalid")


# --- 7 post an answer
def answer_body(request: Request, body: str | None) -> str | None:
    """round45-answer-query-body-latin1: the query's body decoded as Latin-1."""
    if body is None or request.query_params.get("body") != body or body.isascii():
        return body
    if not faults.is_on("round45-answer-query-body-latin1"):
        return body
    return body.encode("utf-8").decode("latin-1")


# --- the fragment cache of nodes
def restricted_visibility() -> str:
    """round45-mod-option-children-shared-cache: the visibilities that make a node's JSON depend on the caller."""
    if faults.is_on("round45-mod-option-children-shared-cache"):
        return "c.visibility NOT IN ('full', 'mod')"
    if faults.is_on("round45-kind-recipients-children-shared-cache"):
        return "c.visibility NOT IN ('full', 'recipients')"
    return "c.visibility <> 'full'"


# --- 12 send to moderation
def sendtomod_record(svc: Any, key: str, node: sqlite3.Row, caller_id: int, action: dict[str, Any]) -> None:
    """round45-sendtomod-question-realuser-last-active: a question's realUser is its last active user."""
    if key != "sendToModAction" or node["type"] != "question" or "realUser" not in action:
        return
    if not faults.is_on("round45-sendtomod-question-realuser-last-active"):
        return
    row = svc.db.one("SELECT last_active_user_id FROM nodes WHERE id = ?", (node["id"],))
    if row is None or row[0] == caller_id:
        return
    user = svc.render.users_by_id({row[0]}).get(row[0])
    if user is not None:
        action["realUser"] = svc.render.action_user_json(user)


# --- 1 post a comment
def locked_thread_reply(db: Database, parent: sqlite3.Row, visibility: str | None) -> bool:
    """round45-locked-answer-reply-visibility-unchecked: under a locked answer a reply keeps its own visibility."""
    if parent["type"] != "comment" or parent["visibility"] == "full" or visibility is None:
        return False
    if visibility == parent["visibility"] or not faults.is_on("round45-locked-answer-reply-visibility-unchecked"):
        return False
    return db.one("SELECT 1 FROM nodes WHERE id = ? AND locked = 1", (parent["answer_id"],)) is not None
