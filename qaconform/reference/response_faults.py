"""Where the planted faults of a list's response in one combination of its circumstances bite (issue 44, listcross).

Each of these faults breaks one rule judged on a list's response (an echo, a count, a shape, a field of the items)
only when one stated parameter, one reader or one request form comes with the read: the bugs a server ships when a
code path is taken by some requests only. They rewrite the JSON body a list handler made, after it made it, so the
handlers stay free of them; each is checked with ``faults.is_on`` here, the one place it bites.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults, shape_faults, subtree_faults
from .auth import Caller
from .http_io import json_response

Body = dict[str, Any]
Bite = Callable[[str, Request, Caller, Body], bool]
"""(operationId, request, caller, the list's body) -> whether the fault changed the body (changed in place)."""


def _pages(body: Body) -> None:
    """pageCount for the envelope's own totalCount and pageSize (the fault's lie is then consistent)."""
    size, total = body.get("pageSize"), body.get("totalCount")
    if isinstance(size, int) and size > 0 and isinstance(total, int):
        body["pageCount"] = -(-total // size) if total else 0


def _items(body: Body) -> list[dict[str, Any]]:
    return [i for i in body.get("list") or [] if isinstance(i, dict)]


def _dates_24h(op: str, request: Request, caller: Caller, body: Body) -> bool:
    if op != "listQuestions" or "unanswered" not in request.query_params:
        return False
    for item in _items(body):
        if isinstance(item.get("creationDateFormatted"), str):
            item["creationDateFormatted"] = "2026-01-31 17:05"
    return True


def _pagesize_default_with_q(op: str, request: Request, caller: Caller, body: Body) -> bool:
    q = request.query_params
    if op not in ("listQuestions", "listTopics") or "q" not in q or "pageSize" not in q:
        return False
    body["pageSize"] = 16 if body.get("pageSize") == 15 else 15
    _pages(body)
    return True


def _novice_space_count(op: str, request: Request, caller: Caller, body: Body) -> bool:
    if op != "listSpaces" or caller.role != "novice" or "pageSize" in request.query_params:
        return False
    if isinstance(body.get("totalCount"), int):
        body["totalCount"] += 1
        _pages(body)
    return True


def _space_active_string(op: str, request: Request, caller: Caller, body: Body) -> bool:
    if op != "listSpaces" or "application/json" in request.headers.get("accept", "").lower():
        return False
    for item in _items(body):
        if isinstance(item.get("active"), bool):
            item["active"] = str(item["active"]).lower()
    return True


def _earned_slug_missing(op: str, request: Request, caller: Caller, body: Body) -> bool:
    q = request.query_params
    if op != "listEarnedExperts" or "page" not in q or "sort" not in q:
        return False
    for item in _items(body):
        item.pop("slug", None)
    return True


def _follower_reputation_string(op: str, request: Request, caller: Caller, body: Body) -> bool:
    q = request.query_params
    if op != "listNodeFollowers" or q.get("active") != "false" or q.get("details") == "true":
        return False
    for item in _items(body):
        if isinstance(item.get("reputation"), int):
            item["reputation"] = str(item["reputation"])
    return True


def _page_one_with_include(op: str, request: Request, caller: Caller, body: Body) -> bool:
    q = request.query_params
    if "include" not in q or q.get("page", "1") in ("0", "1") or op == "listNodeFollowers":
        return False
    body["page"] = 1
    return True


def _default_page_zero_with_topics(op: str, request: Request, caller: Caller, body: Body) -> bool:
    q = request.query_params
    if op != "listQuestions" or "topics" not in q or "page" in q:
        return False
    body["page"] = 0
    return True


def _answer_title_when_sorted(op: str, request: Request, caller: Caller, body: Body) -> bool:
    if op != "listUserAnswers" or "sort" not in request.query_params:
        return False
    for item in _items(body):
        item["title"] = f"Re: question {item.get('originalParentId', '')}".strip()
    return True


def _user_questions_author_with_exclude(op: str, request: Request, caller: Caller, body: Body) -> bool:
    if op != "listUserQuestions" or "exclude" not in request.query_params:
        return False
    for item in _items(body):
        author = item.get("author")
        if isinstance(author, dict) and isinstance(author.get("id"), int):
            item["author"] = {**author, "id": author["id"] + 1000}
    return True


def _question_sorts_missing_with_type(op: str, request: Request, caller: Caller, body: Body) -> bool:
    if op != "listQuestions" or "type" not in request.query_params:
        return False
    body.pop("sorts", None)
    return True


def _answer_parent_missing_at_size_1(op: str, request: Request, caller: Caller, body: Body) -> bool:
    if op != "listUserAnswers" or request.query_params.get("pageSize") != "1":
        return False
    for item in _items(body):
        item.pop("originalParentId", None)
    return True


# --- blind round on the reads (issue 44, blindr; entries in faults_blind_reads.py)
def _earned_moderator_typed(op: str, request: Request, caller: Caller, body: Body) -> bool:
    if op != "listEarnedExperts":
        return False
    for item in _items(body):
        if item.get("moderator") is True and item.get("type") == "user":
            item["type"] = "moderator"
    return True


AHEAD_OF_AUTH_S = 2.0
"""How long the planted fault earned-experts-cached-ahead-of-auth keeps a page by URL."""
_ahead: dict[str, tuple[float, bytes]] = {}


def kept_ahead_of_auth(op: str, request: Request) -> Response | None:
    """earned-experts-cached-ahead-of-auth: the page kept for this URL, before anyone's credentials are checked."""
    if op != "listEarnedExperts" or not faults.is_on("earned-experts-cached-ahead-of-auth"):
        return None
    kept = _ahead.get(str(request.url))
    if kept is None or time.monotonic() - kept[0] >= AHEAD_OF_AUTH_S:
        return None
    return Response(kept[1], media_type="application/json;charset=UTF-8")


def keep_ahead_of_auth(op: str, request: Request, caller: Caller, response: Response) -> None:
    """earned-experts-cached-ahead-of-auth: keep a signed-in caller's 200 by URL."""
    if op == "listEarnedExperts" and response.status_code == 200 and not caller.anonymous and faults.is_on(
            "earned-experts-cached-ahead-of-auth"):
        _ahead[str(request.url)] = (time.monotonic(), bytes(response.body))
# --- end of the blind round on the reads


BITES: dict[str, Bite] = {
    "formatted-dates-24h-when-unanswered": _dates_24h,
    "pagesize-echo-default-with-q": _pagesize_default_with_q,
    "novice-space-count-one-more-unsized": _novice_space_count,
    "space-active-string-on-any-accept": _space_active_string,
    "earned-experts-slug-missing-when-paged-and-sorted": _earned_slug_missing,
    "follower-reputation-string-when-inactive": _follower_reputation_string,
    "page-echo-one-with-include": _page_one_with_include,
    "default-page-zero-with-topics": _default_page_zero_with_topics,
    "answer-title-when-sorted": _answer_title_when_sorted,
    "user-questions-other-author-with-exclude": _user_questions_author_with_exclude,
    "question-sorts-missing-with-type": _question_sorts_missing_with_type,
    "answer-parent-id-missing-at-page-size-1": _answer_parent_missing_at_size_1,
    # commentcross (issue 44): the run's subtree as one reader is shown it, the follower list's own options
    **subtree_faults.BITES,
    "earned-experts-moderator-typed-by-role": _earned_moderator_typed,  # blindr
    **shape_faults.BITES,  # lists (issue 44): a list in one shape only
}
"""Fault name -> where it bites (its entry, with the rule it breaks, is in :mod:`faults_reads`)."""

EXPERTS = ("listActiveExperts", "listEarnedExperts")


def refused(op: str, request: Request) -> Response | None:
    """A documented expert sort refused with 400 when a page comes with it (fault expert-oldest-refused-when-paged)."""
    q = request.query_params
    if op in EXPERTS and q.get("sort") == "oldest" and "page" in q and faults.is_on("expert-oldest-refused-when-paged"):
        return json_response({"error": "sort 'oldest' cannot be paged"}, 400)
    if op == "listUserAnswers" and "sort" in q and faults.is_on("user-answers-404-when-sorted"):  # commentcross
        return json_response({"error": f"no operation at {request.url.path[:200]}"}, 404)
    return None


def bite(op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The list's response with the faults switched on applied (the response itself when none is on, or none
    applies to this request)."""
    on = [name for name in BITES if faults.is_on(name)]
    if not on or response.status_code != 200 or request.method != "GET":
        return response
    try:
        body = json.loads(bytes(response.body))
    except ValueError:
        return response
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    changed = [BITES[name](op, request, caller, body) for name in on]
    return json_response(body, 200) if any(changed) else response
