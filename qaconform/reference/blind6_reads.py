"""The page rewrites of the planted faults of the blind round on read paths (issue 44, blind6;
:mod:`faults_blind_blind6`): kept here so that each handler carries one line per fault."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from starlette.responses import Response

from .http_io import json_response


def rewritten(page: Response, change: Callable[[dict[str, Any]], bool]) -> Response:
    """The page with its JSON body changed by ``change`` (which says whether it changed anything); the page itself
    when it is no 200 or nothing changed."""
    if page.status_code != 200:
        return page
    body = json.loads(bytes(page.body))
    if not isinstance(body, dict) or not change(body):
        return page
    return json_response(body)


def pagecount_with(size: int) -> Callable[[dict[str, Any]], bool]:
    """blind6-earned-experts-pagecount-default-size: pageCount computed with ``size``, not the page size used."""

    def change(body: dict[str, Any]) -> bool:
        total = body.get("totalCount")
        if not isinstance(total, int) or size <= 0:
            return False
        body["pageCount"] = math.ceil(total / size)
        return True

    return change


def unmarked(body: dict[str, Any]) -> bool:
    """blind6-newest-questions-unmarked: every question of the page reads marked false."""
    items = [i for i in body.get("list") or [] if isinstance(i, dict) and i.get("marked") is True]
    for item in items:
        item["marked"] = False
    return bool(items)


def replies_typed(answer_id: int) -> Callable[[dict[str, Any]], bool]:
    """blind6-reply-typed-ideacomment: comments whose parent is not the answer are typed ideacomment."""

    def change(body: dict[str, Any]) -> bool:
        replies = [i for i in body.get("list") or [] if isinstance(i, dict) and "parentId" in i
                   and i["parentId"] != answer_id and "type" in i]
        for item in replies:
            item["type"] = "ideacomment"
        return bool(replies)

    return change


def no_sorts_when_empty(body: dict[str, Any]) -> bool:
    """blind6-empty-comment-list-no-sorts: an empty comment list loses its sorts array."""
    if body.get("totalCount") != 0 or "sorts" not in body:
        return False
    del body["sorts"]
    return True


def child_spaces_in_seconds(items: list[dict[str, Any]]) -> None:
    """blind6-child-space-date-seconds: spaces with a parent carry creationDate in seconds."""
    for item in items:
        if isinstance(item.get("parentId"), int) and item["parentId"] > 0 and isinstance(item.get("creationDate"),
                                                                                          int):
            item["creationDate"] //= 1000


def repeated_names_null(types: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """blind6-issuetypes-repeated-name-null: a name seen before is served as null."""
    seen: set[Any] = set()
    out = []
    for t in types:
        name = t.get("name")
        out.append({**t, "name": None} if name in seen else t)
        seen.add(name)
    return out


def day_first(body: dict[str, Any]) -> bool:
    """blind6-active-experts-formatted-day-first: creationDateFormatted as DD/MM/YYYY hh:mm AM|PM."""
    changed = False
    for item in body.get("list") or []:
        text = item.get("creationDateFormatted") if isinstance(item, dict) else None
        if isinstance(text, str) and text.count("/") == 2:
            month, day, rest = text.split("/", 2)
            item["creationDateFormatted"] = f"{day}/{month}/{rest}"
            changed = True
    return changed
