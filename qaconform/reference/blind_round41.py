"""Where the faults of round 41 (issue 44, :mod:`faults_blind_round41`) bite: each hook is called at its place in
the server's own order of checks and changes nothing unless its fault is on. The names are written out where each
bites so that the wiring test finds every one of them in the server code.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable
from typing import Any

from . import auth, faults
from .auth import Caller
from .db import Database
from .errors import bad_request, denied, not_found, unauthorized
from .fragments import FragmentCache


def door(operation: str, caller: Caller, given: Collection[str]) -> bool:
    """Before the row's permission check: True lets the caller in whatever the row requires; a refusal raises."""
    if operation == "listSpaces" and caller.anonymous and "pageSize" in given and faults.is_on(
            "round41-spaces-anonymous-pagesize-401"):
        raise unauthorized()
    return operation == "postAnswer" and caller.anonymous and "wrap" in given and faults.is_on(
        "round41-answer-anonymous-with-wrap")


def answer_body(query: Collection[str], fields: dict[str, Any], body: str | None) -> str | None:
    """The answer's text as the faults read it: the title in its place, or a query parameter read as Latin-1."""
    title = fields.get("title")
    if isinstance(title, str) and title.strip() and faults.is_on("round41-answer-title-replaces-body"):
        return title
    if "title" in query and "body" in query and faults.is_on("fix41-answer-query-title-replaces-body"):
        return str(title)  # fix41: the query string's headline wins over its body
    if body is not None and "body" in query and not body.isascii() and faults.is_on(
            "round41-answer-query-body-latin1"):
        return body.encode("utf-8").decode("latin-1")
    return body


def answer_status(db: Database, caller: Caller, question: sqlite3.Row, status: int) -> int:
    """200 for the caller's second answer to one question (taken for an edit)."""
    if status != 201 or not faults.is_on("round41-answer-second-by-same-caller-200"):
        return status
    mine = db.one("SELECT COUNT(*) FROM nodes WHERE type = 'answer' AND parent_id = ? AND author_id = ?",
                  (question["id"], caller.id))
    return 200 if mine is not None and mine[0] >= 2 else status


def comment_parent(db: Database, parent: sqlite3.Row) -> None:
    """A reply to a comment directly under a question: its thread's answer is not found."""
    if parent["type"] != "comment" or not faults.is_on("round41-reply-under-question-comment-404"):
        return
    above = db.one("SELECT type FROM nodes WHERE id = ?", (parent["parent_id"],))
    if above is not None and above["type"] == "question":
        raise not_found(f"node {parent['id']} belongs to no answer")


def csv_null(fields: dict[str, Any]) -> None:
    """A csvFileId given as JSON null is looked up as a file."""
    if "csvFileId" in fields and fields["csvFileId"] is None and faults.is_on("round41-bulk-csv-null-looked-up"):
        raise bad_request("The requested file does not exist")


def job_kind(kind: Any, fields: dict[str, Any]) -> Any:
    """A job without type dated by scheduleTime is taken as individual."""
    if kind in (None, "") and fields.get("scheduleTime") not in (None, "") and faults.is_on(
            "round41-no-type-with-schedule-time-is-individual"):
        return "individual"
    return kind


def reassign_pair(user: Any, reassign: Any, both: bool) -> tuple[Any, bool]:
    """With the job's user given by email, reassignUser is resolved by its username alone."""
    by_email = isinstance(user, dict) and user.get("email") not in (None, "")
    if both and by_email and isinstance(reassign, dict) and faults.is_on(
            "round41-reassign-both-unnoticed-user-by-email"):
        return {"username": reassign["username"]}, False
    return reassign, both


def cancelwiki_refused(db: Database, caller: Caller, node: sqlite3.Row) -> None:
    """A moderator unwikifying an administrator's node is refused (a rank check the row does not state)."""
    if caller.role != "moderator" or node["author_id"] == caller.id or not faults.is_on(
            "round41-cancelwiki-moderator-refused-on-admins-node"):
        return
    author = db.one("SELECT role FROM users WHERE id = ?", (node["author_id"],))
    if author is not None and author["role"] == "admin":
        raise denied(caller.anonymous)


def cancelwiki_owns(db: Database, caller: Caller, node: sqlite3.Row) -> bool:
    """"Own" taken from a contribution: a caller who answered the wiki question counts as its owner."""
    if node["type"] != "question" or not faults.is_on("round41-cancelwiki-own-by-answerer"):
        return False
    answered = db.one("SELECT 1 FROM nodes WHERE parent_id = ? AND type = 'answer' AND author_id = ?",
                      (node["id"], caller.id))
    return answered is not None and caller.can(auth.CONVERT_OWN_TO_WIKI)


def sendtomod_no_real_user(node: sqlite3.Row) -> bool:
    """An answer's send-to-moderation record without realUser."""
    return node["type"] == "answer" and faults.is_on("round41-sendtomod-answer-no-realuser")


def active_experts_order(query: Collection[str], sort: str | None, order: str | None, other: str) -> str | None:
    """sort=oldest with a pageSize listed in another sort's order (the sorts indexed off by one on the paged path;
    the echo stays oldest)."""
    if sort == "oldest" and "pageSize" in query and faults.is_on("round41-active-experts-oldest-pagesize-misordered"):
        return other
    return order


def content_user_id(db: Database, raw: str) -> str:
    """A username (round41) or an email (fix41) in place of the userId, looked up."""
    if raw.isdecimal():
        return raw
    user = None
    if faults.is_on("round41-content-username-as-id"):
        user = db.one("SELECT id FROM users WHERE username = ?", (raw,))
    if user is None and faults.is_on("fix41-content-email-as-id"):
        user = db.one("SELECT id FROM users WHERE email = ?", (raw,))
    return raw if user is None else str(user["id"])


def locked(fragments: FragmentCache) -> None:
    """After a lock: the rendered nodes are dropped, so that the next read renders the locked answer afresh."""
    if faults.is_on("round41-locked-answer-commentids-unfiltered"):
        fragments.clear()


def locked_comment_ids(db: Database, rows: Iterable[sqlite3.Row]) -> dict[int, list[int]]:
    """A locked answer's comment ids, private ones included."""
    if not faults.is_on("round41-locked-answer-commentids-unfiltered"):
        return {}
    return {int(r["id"]): db.ids("SELECT id FROM nodes WHERE parent_id = ? AND type = 'comment' ORDER BY id",
                                 (r["id"],)) for r in rows if r["type"] == "answer" and r["locked"]}

