"""Where the lists9 faults bite (issue 44; entries in :mod:`faults_lists9`): one item field of one list, wrong only
when the list is read with one stated parameter set (a sort, a page past the second, a projection naming a date, a
large page, one user's list). Wired in :data:`request_hooks.HOOKS`; the hook leaves the answer as it is unless
its fault is on and the request is the one its fault names.

Why a table: each fault is the same bug, a second query behind one parameter that builds the items its own way;
only the list, the parameter and the field differ."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .http_io import body_json, with_body
from .service import Service


def _page(params: Mapping[str, str]) -> int:
    try:
        return int(params.get("page", "1"))
    except ValueError:
        return 1


def _size(params: Mapping[str, str]) -> int:
    try:
        return int(params.get("pageSize", "0"))
    except ValueError:
        return 0


def _seconds(item: dict[str, Any]) -> None:
    if isinstance(item.get("creationDate"), int):
        item["creationDate"] //= 1000


def _last_active_seconds(item: dict[str, Any]) -> None:
    if isinstance(item.get("lastActiveDate"), int):
        item["lastActiveDate"] //= 1000


def _parent_text(item: dict[str, Any]) -> None:
    if "originalParentId" in item:
        item["originalParentId"] = str(item["originalParentId"])


def _typed_answer(item: dict[str, Any]) -> None:
    if "type" in item:
        item["type"] = "answer"


def _no_prefix(item: dict[str, Any]) -> None:
    item.pop("prefix", None)


@dataclass(frozen=True)
class Bite:
    """One fault: the list it breaks, the request that takes the broken query, what that query gets wrong."""

    op: str
    when: Callable[[Mapping[str, str]], bool]
    wrong: Callable[[dict[str, Any]], None]
    path: str = ""
    """A part of the path the request must hold too (empty: any path of the list)."""


MODERATOR_PATH = "/user/2/"
"""The demo moderator's user list (seed_people.py: moderator is user 2): a list of one user's posts built by a
per-user query of its own."""


BITES: dict[str, Bite] = {
    "lists9-user-answers-includeonly-date-seconds": Bite(
        "listUserAnswers", lambda p: "creationDate" in p.get("includeOnly", "").split(","), _seconds),
    "lists9-comments-sorted-parent-text": Bite("listAnswerComments", lambda p: bool(p.get("sort", "").strip()),
                                               _parent_text),
    "lists9-user-questions-page3-typed-answer": Bite("listUserQuestions", lambda p: _page(p) >= 3, _typed_answer),
    "lists9-spaces-large-page-no-prefix": Bite("listSpaces", lambda p: _size(p) > 10, _no_prefix),
    "lists9-moderator-questions-exclude-last-active-seconds": Bite(
        "listUserQuestions", lambda p: bool(p.get("exclude", "").strip()), _last_active_seconds, MODERATOR_PATH),
}


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 200:
        return response
    params = request.query_params
    for name, bite in BITES.items():
        if bite.op == op and faults.is_on(name) and bite.when(params) and bite.path in request.url.path:
            return _rewritten(response, bite.wrong)
    return response


def _rewritten(response: Response, wrong: Callable[[dict[str, Any]], None]) -> Response:
    """The page with ``wrong`` done to every item (the broken query's items)."""
    body: Any = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    if not isinstance(items, list) or not items:
        return response
    for item in items:
        if isinstance(item, dict):
            wrong(item)
    return with_body(response, body)
