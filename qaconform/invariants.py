"""Invariants of responses that the description implies, as plain functions returning problems.

One place for them, with adapters named for the tool they serve: the contract suite asserts them with rule ids
(``suites/contract/rule_assertions.py``), :mod:`qaconform.pytest.schemathesis_checks` raises them as schemathesis
checks, and :mod:`qaconform.load.locust_checks` turns the cheap ones into Locust failures. Each function returns
human-readable problems (none when the response holds), so callers decide whether a problem is a failure or an
observation. The envelope's field names come from spec/schemas/envelope.json (:func:`qaconform.contract.envelope`).

Nothing here may be stricter than the real responses in ../shared/samples: a follower list shows page 0 and no
sorts; answerCount need not equal len(answers); totalCount 0 may come with pageCount 0 or 1.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from qaconform.contract import envelope

DATE_KEYS = ("creationDate", "modificationDate", "lastActiveDate", "followDate")
MIN_MILLIS = 10**11  # 1973-03-03 in ms; any epoch in seconds of this century is below it
_DATE_KEY_SET = frozenset(DATE_KEYS)
_CONTAINERS = (dict, list)


def is_json_content_type(value: str) -> bool:
    """application/json or an application/*+json type, parameters ignored: what a .json path may answer with."""
    main = value.split(";")[0].strip().lower()
    return main == "application/json" or (main.startswith("application/") and main.endswith("+json"))


def not_an_envelope(body: Any) -> str | None:
    """Why ``body`` is not a paged list envelope at all (not an object, or no array of items), or None."""
    if not isinstance(body, dict):
        return f"a list response must be the paged envelope object, got {type(body).__name__}"
    if not isinstance(body.get(envelope().items), list):
        return f"envelope has no {envelope().items!r} array"
    return None


def envelope_type_problems(body: Any) -> list[str]:
    """The envelope's form: an object with an array of items and integer counts (spec/schemas/envelope.json)."""
    problem = not_an_envelope(body)
    if problem:
        return [problem]
    return [f"envelope field {key!r} must be an integer, got {body.get(key)!r}" for key in envelope().counts
            if not isinstance(body.get(key), int) or isinstance(body.get(key), bool)]


def listcount_problem(body: dict[str, Any]) -> str | None:
    """listCount, when given, is the number of items the page holds."""
    count, held = body.get("listCount"), len(body[envelope().items])
    if count is not None and count != held:
        return f"listCount is {count} but the page holds {held} items"
    return None


def page_size_problem(body: dict[str, Any]) -> str | None:
    """The page holds no more items than its pageSize ("pageSize | Items per page"): the other half of listCount's
    rule, which a server breaks at a stated bound (pageSize=1 served two items) while listCount still counts them."""
    size, held = body.get("pageSize"), len(body[envelope().items])
    if isinstance(size, int) and not isinstance(size, bool) and size > 0 and held > size:
        return f"the page holds {held} items, more than pageSize {size}"
    return None


def listcount_problems(body: dict[str, Any]) -> list[str]:
    """Both halves of PAGING-LISTCOUNT: listCount is the number of items, and they are no more than pageSize."""
    return [p for p in (listcount_problem(body), page_size_problem(body)) if p]


def pagecount_problem(body: dict[str, Any]) -> str | None:
    """pageCount is ceil(totalCount / pageSize) for a positive pageSize (an empty list may also say 1 page)."""
    size, total = body["pageSize"], body["totalCount"]
    if size <= 0:
        return None
    expected = math.ceil(total / size)
    allowed = {expected, 1} if total == 0 else {expected}
    if body["pageCount"] not in allowed:
        return f"pageCount is {body['pageCount']} but ceil(totalCount {total} / pageSize {size}) is {expected}"
    return None


def envelope_problems(body: Any, *, page: int | None = None, page_size: int | None = None) -> list[str]:
    """The paged list envelope's own consistency: listCount, pageCount, echoes of page and pageSize."""
    problems = envelope_type_problems(body)
    if problems:
        return problems
    items = body[envelope().items]
    listcount = listcount_problem(body)
    if listcount:
        problems.append(listcount)
    total = body["totalCount"]
    pagecount = pagecount_problem(body)
    if pagecount:
        problems.append(pagecount)
    overfull = page_size_problem(body)
    if overfull:
        problems.append(overfull)
    if len(items) > total:
        problems.append(f"the page holds {len(items)} items, more than totalCount {total}")
    if page is not None and body["page"] != page:
        problems.append(f"page {page} was asked for, the envelope says page {body['page']}")
    if page_size is not None and body["pageSize"] != page_size:
        problems.append(f"pageSize {page_size} was asked for, the envelope says pageSize {body['pageSize']}")
    return problems


def projection_problems(items: Iterable[Any], fields: Iterable[str]) -> list[str]:
    """includeOnly=a,b limits each returned item to those fields."""
    allowed = set(fields)
    problems = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            problems.append(f"list[{i}] is not an object")
            continue
        extra = sorted(set(item) - allowed)
        if extra:
            problems.append(f"list[{i}] carries {extra} although includeOnly={','.join(sorted(allowed))}")
    return problems[:5]


def millis_problems(value: Any, path: str = "$") -> list[str]:
    """Dates documented as epoch milliseconds must be integers in milliseconds, not seconds: the first five problems,
    in document order."""
    problems: list[str] = []
    _walk_millis(value, [path], problems)
    return problems


def _walk_millis(value: Any, trail: list[str], problems: list[str]) -> None:
    """:func:`millis_problems`' walk. A path is joined only for a problem and only containers are descended (every
    response of a run is walked: a path string built for each of its values cost more than the rest of the check,
    speed21), and the walk stops at the fifth problem."""
    if isinstance(value, dict):
        for k, v in value.items():
            if len(problems) >= 5:
                return
            if k in _DATE_KEY_SET and v is not None:
                if not isinstance(v, int) or isinstance(v, bool):
                    problems.append(f"{''.join(trail)}.{k} must be an integer of epoch milliseconds, got {v!r}")
                elif v < MIN_MILLIS:
                    problems.append(f"{''.join(trail)}.{k} = {v} looks like seconds, not milliseconds")
            elif isinstance(v, _CONTAINERS):
                trail.append(f".{k}")
                _walk_millis(v, trail, problems)
                trail.pop()
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if len(problems) >= 5:
                return
            if isinstance(v, _CONTAINERS):
                trail.append(f"[{i}]")
                _walk_millis(v, trail, problems)
                trail.pop()

