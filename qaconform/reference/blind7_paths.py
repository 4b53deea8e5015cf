"""Where the planted faults of the seventh blind round bite (issue 44, blind7; :mod:`faults_blind_round7`): kept
here so that each handler carries one line per fault. Every function is a no-op unless its fault is on."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import bad_request, denied, not_found
from .http_io import json_response

QUESTION_SORT_NAMES = frozenset({"active", "hottest", "votes", "viewCount", "usedCount", "answerCount",
                                 "answerCountAsc", "commentCount", "favoriteCount", "followers", "reportCount"})
"""Sort names of the question list's sorts array that are no space sort (newest is one)."""


def _rewritten(page: Response, change: Any) -> Response:
    """The page with its JSON body changed by ``change``; the page itself when it is no 200."""
    if page.status_code != 200:
        return page
    body = json.loads(bytes(page.body))
    change(body)
    return json_response(body, page.status_code)


def space_order(asked: str | None, order: str) -> str:
    """blind7-space-question-sort-name-newest: a question sort name looked up in the question list's table."""
    if asked in QUESTION_SORT_NAMES and faults.is_on("blind7-space-question-sort-name-newest"):
        return "creation_date DESC, id DESC"
    return order


def topics_page(page: Response, searched: bool) -> Response:
    """blind7-topics-search-no-tree: the search branch's items lack the tree fields."""
    if not searched or not faults.is_on("blind7-topics-search-no-tree"):
        return page

    def change(body: dict[str, Any]) -> None:
        for item in body.get("list", []):
            item.pop("getImmediateChildren", None)
            item.pop("getParents", None)

    return _rewritten(page, change)


def groups_page(groups: dict[str, Any], query: Mapping[str, str], valid: bool) -> None:
    """blind7-groups-sorted-id-string: an explicit valid sort rendered by the user's group serializer (id string)."""
    if not (query.get("sort") and valid and faults.is_on("blind7-groups-sorted-id-string")):
        return
    for item in groups.get("list", []):
        item["id"] = str(item.get("id"))


def own_content(caller: Caller, user_id: int) -> bool:
    """blind7-own-content-enveloped: the caller reads its own content."""
    return caller.id == user_id and faults.is_on("blind7-own-content-enveloped")


def gdpr_status(kind: str, fields: Mapping[str, Any], status: int) -> int:
    """blind7-gdpr-anon-delete-202: an individual job with anon-delete answered 202."""
    operations = fields.get("operations")
    if isinstance(operations, str):
        operations = [o.strip() for o in operations.split(",")]
    if (kind == "individual" and isinstance(operations, list) and "anon-delete" in operations
            and faults.is_on("blind7-gdpr-anon-delete-202")):
        return 202
    return status


def gdpr_kind(kind: Any, fields: Mapping[str, Any]) -> Any:
    """blind7-gdpr-bulk-user-no-csv-individual: a bulk job without csvFileId but with a user taken as individual."""
    if (kind == "bulk" and fields.get("csvFileId") in (None, "") and fields.get("user") not in (None, "")
            and faults.is_on("blind7-gdpr-bulk-user-no-csv-individual")):
        return "individual"
    return kind


def gdpr_past_unchecked(fields: Mapping[str, Any], spec: Any) -> bool:
    """blind7-gdpr-bulk-timestamp-past-accepted: a bulk job's past timeStamp not judged."""
    by_stamp = isinstance(spec, dict) and spec.get("formatted") is None and spec.get("timeStamp") is not None
    return fields.get("type") == "bulk" and by_stamp and faults.is_on("blind7-gdpr-bulk-timestamp-past-accepted")


def reply_visibility_refused(parent: sqlite3.Row, visibility: str | None) -> None:
    """blind7-reply-recipients-visibility-message: the recipients validator's message for a changed visibility."""
    if (visibility == "recipients" and parent["visibility"] != "recipients"
            and faults.is_on("blind7-reply-recipients-visibility-message")):
        raise bad_request("'recipients' can not be set on this comment")


def comment_parent(parent: sqlite3.Row) -> None:
    """blind7-comment-on-question-comment-404: a comment's thread looked up through its answer."""
    if (parent["type"] == "comment" and parent["answer_id"] is None
            and faults.is_on("blind7-comment-on-question-comment-404")):
        raise not_found(f"node {parent['id']} not found")


def recipients_typed_by_first(value: list[Any]) -> list[Any]:
    """blind7-recipients-typed-by-first: string ids after an integer first id dropped."""
    if not value or not faults.is_on("blind7-recipients-typed-by-first"):
        return value
    first = value[0].get("id") if isinstance(value[0], dict) else value[0]
    if not isinstance(first, int):
        return value
    return [i for i in value if not isinstance(i.get("id") if isinstance(i, dict) else i, str)]


def answer_status(question: sqlite3.Row, published: bool, status: int) -> int:
    """blind7-first-answer-200: the first published answer of a question answered 200."""
    if published and status == 201 and question["answer_count"] == 0 and faults.is_on("blind7-first-answer-200"):
        return 200
    return status


def lock_verb(caller: Caller, verb: str) -> str:
    """blind7-lock-own-verb: a lock through the own-posts permission recorded as selflocked."""
    if not caller.can(auth.LOCK_ANY) and faults.is_on("blind7-lock-own-verb"):
        return "selflocked"
    return verb


def cancelwiki_page(page: Response, caller: Caller) -> Response:
    """blind7-cancelwiki-own-record-stale: the author's cancel answered with the record read before it."""
    if caller.can(auth.MARK_WIKI) or not faults.is_on("blind7-cancelwiki-own-record-stale"):
        return page

    def change(body: dict[str, Any]) -> None:
        action = body.get("result", {}).get("wikifyAction")
        if isinstance(action, dict):
            action["canceled"] = False
            action.pop("canceledByUser", None)
            action.pop("canceledDate", None)

    return _rewritten(page, change)


def mod_option_refused(caller: Caller, parent: sqlite3.Row, visibility: str | None) -> None:
    """blind7-mod-option-on-question-403: the moderators option on a question needs moderation rights."""
    if (visibility == "mod" and parent["type"] == "question" and not caller.can(auth.SEND_TO_MODERATION)
            and faults.is_on("blind7-mod-option-on-question-403")):
        raise denied(caller.anonymous, stated_403=True)


def v1_caller(caller: Caller) -> Caller:
    """blind7-anonymous-sendtomod-v1: the v1 route, let in without credentials, acts as the site's system user
    (the administrator account, id 1)."""
    if caller.anonymous and faults.is_on("blind7-anonymous-sendtomod-v1"):
        return Caller(1, "admin", "admin", auth.ROLE_PERMISSIONS["admin"])
    return caller
