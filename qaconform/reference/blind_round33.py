"""Where the faults of blind round 33 bite (issue 44; the entries: :mod:`faults_blind_round33`).

Each hook is a no-op unless its fault is on, and each names its fault literally (the self-test checks every
registered name appears in the server code). Kept apart from the handlers so that a round's paths are read in one
place and the handlers stay under the module size limit.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

from starlette.responses import Response

from . import faults
from .auth import SITE_ADMINISTRATION_ROLES, Caller
from .db import Database
from .errors import bad_request
from .http_io import json_response


# --- 10 Unmark favorite
def unfavorite_count(node: sqlite3.Row, count: int) -> int:
    """round33-unfavorite-count-stale-while-held: the count of the row loaded before the delete, while another
    user still holds a favorite."""
    if count > 0 and faults.is_on("round33-unfavorite-count-stale-while-held"):
        return int(node["favorite_count"])
    return count


# --- 7 Post answer
def posted_answer_id(fields: Mapping[str, Any], item: dict[str, Any], answer_id: int) -> None:
    """round33-answer-id-integer-with-node-fields: other Node fields beside body make the id an integer."""
    if set(fields) - {"body", "wrap", "v1"} and faults.is_on("round33-answer-id-integer-with-node-fields"):
        item["id"] = answer_id


def form_fields(path: str, text: str, fields: dict[str, Any]) -> dict[str, Any]:
    """round33-answer-form-body-plus-kept: a form-encoded answer body decoded without + as a space."""
    if not (path.endswith("/answer.json") and faults.is_on("round33-answer-form-body-plus-kept")):
        return fields
    for part in text.split("&"):
        key, _, value = part.partition("=")
        if unquote(key) == "body":
            fields["body"] = unquote(value)
    return fields


# --- 1 Post comment
def comment_body_required(caller: Caller, required: bool) -> bool:
    """round33-comment-body-optional-for-admin: the body check skipped for Site Administration Roles."""
    if caller.permissions & SITE_ADMINISTRATION_ROLES and faults.is_on("round33-comment-body-optional-for-admin"):
        return False
    return required


def own_answer_default(parent: sqlite3.Row, caller: Caller, fields: Mapping[str, Any],
                       final: tuple[str, list[int]]) -> tuple[str, list[int]]:
    """round33-comment-on-own-answer-default-op: a plain comment on one's own answer stored as a note to the OP."""
    plain = "visibility" not in fields and "recipients" not in fields
    if (plain and parent["type"] == "answer" and parent["author_id"] == caller.id and final[0] == "full"
            and faults.is_on("round33-comment-on-own-answer-default-op")):
        return "op", []
    return final


def locked_parent_public(parent: sqlite3.Row) -> bool:
    """round33-reply-to-locked-private-public: a reply without privacy fields to a locked private comment is
    public."""
    return bool(parent["locked"]) and faults.is_on("round33-reply-to-locked-private-public")


# --- 2 Schedule a data-protection job
def bulk_timestamp_future(fields: Mapping[str, Any], spec: Any) -> bool:
    """round33-gdpr-bulk-past-timestamp-accepted: a bulk job's timeStamp (``spec``: its scheduleDate, parsed)
    compared with the clock in seconds."""
    stamped = isinstance(spec, dict) and spec.get("formatted") is None and spec.get("timeStamp") is not None
    return (stamped and fields.get("type") == "bulk"
            and faults.is_on("round33-gdpr-bulk-past-timestamp-accepted"))


def email_user_refused(operations: Any) -> None:
    """round33-gdpr-email-user-with-delete-refused: a user by email refused when the operations (parsed) hold
    delete."""
    if not faults.is_on("round33-gdpr-email-user-with-delete-refused"):
        return
    if isinstance(operations, str):
        operations = [o.strip() for o in operations.split(",")]
    if isinstance(operations, list) and "delete" in operations:
        raise bad_request("The provided 'user' is invalid")


# --- lists
def _rewritten(page: Response, change: Any) -> Response:
    if page.status_code != 200:
        return page
    body = json.loads(bytes(page.body))
    change(body)
    return json_response(body)


def user_questions_page(page: Response) -> Response:
    """round33-user-questions-wiki-typed-wiki: a wiki question typed by its subtype."""
    if not faults.is_on("round33-user-questions-wiki-typed-wiki"):
        return page

    def change(body: dict[str, Any]) -> None:
        for item in body.get("list") or []:
            if item.get("wiki") is True and "type" in item:
                item["type"] = "wiki"

    return _rewritten(page, change)


def topics_page(page: Response, query: Mapping[str, str], system_size: int) -> Response:
    """round33-topics-sorted-pagesize-default: a sorted topic list echoes the system page size."""
    if not (query.get("sort") and faults.is_on("round33-topics-sorted-pagesize-default")):
        return page

    def change(body: dict[str, Any]) -> None:
        body["pageSize"] = system_size
        total = body.get("totalCount")
        body["pageCount"] = math.ceil(total / system_size) if isinstance(total, int) else body.get("pageCount")

    return _rewritten(page, change)


def groups_order(query: Mapping[str, str], sort: str, order: str, oldest: str) -> str:
    """round33-groups-invalid-sort-paged-oldest: an invalid sort with page falls back to oldest first."""
    invalid = bool(query.get("sort")) and sort != query.get("sort")
    if invalid and "page" in query and faults.is_on("round33-groups-invalid-sort-paged-oldest"):
        return oldest
    return order


def spaces_where(query: Mapping[str, str], where: str) -> str:
    """round33-spaces-sorted-shows-hidden: a named sort other than the default lists every space."""
    if where != "0" and query.get("sort") in ("newest", "oldest") and faults.is_on(
            "round33-spaces-sorted-shows-hidden"):
        return "1"
    return where


def earned_order(query: Mapping[str, str], order: str | None, by_reputation: str) -> str | None:
    """round33-earned-experts-recent-by-reputation: sort=recent echoed, the list ordered by reputation."""
    if query.get("sort") == "recent" and faults.is_on("round33-earned-experts-recent-by-reputation"):
        return by_reputation
    return order


# --- 13 Lock, and the action record
def lock_owns(db: Database, caller: Caller, node: sqlite3.Row) -> bool:
    """round33-lock-own-includes-favorites: a node the caller marked as favorite taken as its own."""
    if not faults.is_on("round33-lock-own-includes-favorites"):
        return False
    return db.one("SELECT 1 FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"])) is not None


def lock_record(key: str, node: sqlite3.Row, action: dict[str, Any]) -> None:
    """round33-lock-answer-user-no-avatarurl: an answer's lock action names its user without avatarUrl."""
    if key == "lockAction" and node["type"] == "answer" and faults.is_on("round33-lock-answer-user-no-avatarurl"):
        user = action.get("user")
        if isinstance(user, dict):
            user.pop("avatarUrl", None)
