"""Where the planted faults of a list in one shape only bite (issue 44, lists; the entries, with the rule each breaks,
are in :mod:`faults_list_shapes`). Like :mod:`subtree_faults`, each rewrites the JSON body a list handler made, and
:mod:`response_faults` (whose ``BITES`` holds these too) checks ``faults.is_on`` there, the one place it bites.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request

from .auth import Caller

Body = dict[str, Any]


def _items(body: Body) -> list[dict[str, Any]]:
    return [i for i in body.get("list") or [] if isinstance(i, dict)]


def _int(query: Mapping[str, str], name: str) -> int | None:
    value = query.get(name)
    return int(value) if value is not None and value.isdecimal() else None


def _user_questions_empty(op: str, request: Request, caller: Caller, body: Body) -> bool:
    if op != "listUserQuestions" or body.get("totalCount") != 0:
        return False
    body.pop("sorts", None)
    return True


def _followers_empty(op: str, request: Request, caller: Caller, body: Body) -> bool:
    if op != "listNodeFollowers" or "details" in request.query_params or body.get("totalCount") != 0:
        return False
    body["totalCount"] = 1
    size = body.get("pageSize")
    if isinstance(size, int) and size > 0:
        body["pageCount"] = 1
    return True


def _groups_past_end(op: str, request: Request, caller: Caller, body: Body) -> bool:
    page, count = _int(request.query_params, "page"), body.get("pageCount")
    if op != "listGroups" or page is None or not isinstance(count, int) or page <= max(count, 1) or _items(body):
        return False
    body["totalCount"], body["pageCount"] = 0, 0
    return True


def _spaces_exact(op: str, request: Request, caller: Caller, body: Body) -> bool:
    size, total = _int(request.query_params, "pageSize"), body.get("totalCount")
    if op != "listSpaces" or size is None or size < 2 or total != size or _int(request.query_params, "page") not in (
            None, 1):
        return False
    body["pageCount"] = 2
    return True


def _topics_last_short(op: str, request: Request, caller: Caller, body: Body) -> bool:
    page, size = _int(request.query_params, "page"), body.get("pageSize")
    held = len(_items(body))
    if op != "listTopics" or page is None or page < 2 or page != body.get("pageCount") or not isinstance(size, int) \
            or not 0 < held < size:
        return False
    body["page"] = page - 1
    return True


def _active_experts_short(op: str, request: Request, caller: Caller, body: Body) -> bool:
    size, total = _int(request.query_params, "pageSize"), body.get("totalCount")
    if op != "listActiveExperts" or size is None or not isinstance(total, int) or not 0 < total < size:
        return False
    for item in _items(body):
        when = item.get("creationDateFormatted")
        if isinstance(when, str) and len(when) >= 10 and when[2] == "/" and when[5] == "/":
            item["creationDateFormatted"] = f"{when[3:5]}/{when[0:2]}{when[5:]}"
    return True


def _followers_last_untyped(op: str, request: Request, caller: Caller, body: Body) -> bool:
    page, size = _int(request.query_params, "page"), body.get("pageSize")
    held = _items(body)
    if op != "listNodeFollowers" or "details" in request.query_params or page is None or page < 2 \
            or not isinstance(size, int) or not 0 < len(held) < size:
        return False
    for item in held:
        item.pop("type", None)
    return True


BITES = {
    "shapes-user-questions-empty-sorts-missing": _user_questions_empty,
    "shapes-followers-empty-totalcount-one": _followers_empty,
    "shapes-groups-past-end-totalcount-zero": _groups_past_end,
    "shapes-spaces-exact-page-pagecount-two": _spaces_exact,
    "shapes-topics-last-short-page-echo-previous": _topics_last_short,
    "shapes-active-experts-short-page-formatted-day-first": _active_experts_short,
    "shapes-followers-default-users-untyped-on-last-page": _followers_last_untyped,
}
"""Fault name -> where it bites (response_faults.BITES holds these too)."""
