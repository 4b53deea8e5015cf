"""Where the planted faults of blind round 8 (issue 44, :mod:`faults_blind_round8`) bite: a hook before a handler
(a request changed or refused the way the broken server does), a hook after it (a served body rewritten), and the
one-line checks the handlers call. With none of these faults on, every function returns at its first line."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import ApiError, bad_request, conflict
from .http_io import is_id, json_response, projects
from .service import Service

NAMES = frozenset({
    "blind8-reply-json-body-wins-over-param",
    "blind8-topics-invalid-sort-later-pages-newest", "blind8-earned-experts-recent-refused",
    "blind8-follower-relations-envelope-no-sort", "blind8-spaces-admin-locale-null",
    "blind8-anonymous-form-comment-redirected", "blind8-gdpr-csv-string-unchecked",
    "blind8-answer-own-question-no-parent-author", "blind8-novice-second-pending-answer-409",
    "blind8-comment-option-param-unchecked",
})
"""The faults of the round wired in code (the topic search refusal is a route-table override)."""


def _any_on() -> bool:
    return not faults.active().isdisjoint(NAMES)


def _node(svc: Service, raw: str | None) -> sqlite3.Row | None:
    if raw is None or not is_id(raw):
        return None
    return svc.db.one("SELECT * FROM nodes WHERE id = ?", (int(raw),))


def _without(request: Request, name: str) -> None:
    """Drop one query parameter from the request as the handler will read it."""
    kept = [(k, v) for k, v in request.query_params.multi_items() if k != name]
    request._query_params = QueryParams(kept)  # noqa: SLF001 - the broken server's own request parsing


async def before(svc: Service, op: str, request: Request, caller: Caller) -> Response | None:
    """Run after the route table let the caller in, before the handler: a request changed in place, a refusal
    raised, or a response that replaces the handler's."""
    if not _any_on():
        return None
    q = request.query_params
    if op == "postComment" and "body" in q and faults.is_on("blind8-reply-json-body-wins-over-param"):
        parent = _node(svc, request.path_params.get("node_id"))
        if parent is not None and parent["type"] == "comment" and "json" in request.headers.get("content-type", ""):
            try:
                sent = json.loads(await request.body())
            except ValueError:
                sent = None
            if isinstance(sent, dict) and "body" in sent:
                _without(request, "body")
    if op == "listEarnedExperts" and q.get("sort") == "recent" and faults.is_on("blind8-earned-experts-recent-refused"):
        raise bad_request("'sort' must be one of reputation, username, realname, oldest, default, not 'recent'")
    if op == "postAnswer" and faults.is_on("blind8-novice-second-pending-answer-409") and not caller.can(
            auth.PUBLISH_ANSWER):
        question = request.path_params.get("question_id")
        pending = is_id(question or "") and svc.db.one(
            "SELECT 1 FROM nodes WHERE type = 'answer' AND question_id = ? AND author_id = ? AND in_moderation = 1",
            (int(str(question)), caller.id)) is not None
        if pending:
            raise conflict(f"you already have an answer awaiting moderation under question {question}")
    return None


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """Run on the handler's response: the served body as the broken server writes it."""
    if not _any_on() or response.status_code not in (200, 201):
        return response
    q = request.query_params
    change = None
    if op == "listNodeFollowers" and (q.get("details") or "").lower() in ("true", "1") and faults.is_on(
            "blind8-follower-relations-envelope-no-sort"):
        change = _drop_sort
    if op == "listSpaces" and caller.role == "admin" and not projects(q) and "include" not in q and faults.is_on(
            "blind8-spaces-admin-locale-null"):
        change = _null_locale
    if op == "postAnswer" and faults.is_on("blind8-answer-own-question-no-parent-author"):
        question = _node(svc, request.path_params.get("question_id"))
        change = _drop_parent_author if question is not None and question["author_id"] == caller.id else None
    if change is None:
        return response
    try:
        body = json.loads(bytes(response.body))
    except ValueError:
        return response
    if not isinstance(body, dict) or not change(body):
        return response
    headers = {k: v for k, v in response.headers.items() if k.lower() == "location"}
    return json_response(body, response.status_code, headers)


def refusal(request: Request, exc: ApiError) -> Response | None:
    """blind8-anonymous-form-comment-redirected: the refusal of an anonymous form post to the comment endpoint as
    a redirect to the login page; None for every other refusal."""
    if exc.status != 401 or not request.url.path.endswith("/comment.json") or not faults.is_on(
            "blind8-anonymous-form-comment-redirected"):
        return None
    if not request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        return None
    return Response(b"", status_code=302, headers={"Location": "/users/login.html?next=" + request.url.path})


def _drop_sort(body: dict[str, Any]) -> bool:
    return body.pop("sort", None) is not None


def _null_locale(body: dict[str, Any]) -> bool:
    changed = False
    for item in body.get("list") or []:
        if isinstance(item, dict) and "locale" not in item:
            item["locale"] = None
            changed = True
    return changed


def _drop_parent_author(body: dict[str, Any]) -> bool:
    return body.pop("parentAuthor", None) is not None


# --- one-line checks called from the handlers ----------------------------------------------------------------
def topic_order(query: Mapping[str, str], page: int, known: Mapping[str, str], order: str) -> str:
    """blind8-topics-invalid-sort-later-pages-newest: the order of a topic page asked with an unknown sort name."""
    sort = query.get("sort")
    if page >= 2 and sort and sort not in known and faults.is_on("blind8-topics-invalid-sort-later-pages-newest"):
        return known["newest"]
    return order


def csv_lookup_skipped(csv: Any) -> bool:
    """blind8-gdpr-csv-string-unchecked: a csvFileId given as a string is taken without looking the file up."""
    return isinstance(csv, str) and faults.is_on("blind8-gdpr-csv-string-unchecked")


def option_check_skipped(caller: Caller, from_query: frozenset[str]) -> bool:
    """blind8-comment-option-param-unchecked: visibility from a request parameter checked for Use Private Comments
    only."""
    return ("visibility" in from_query and caller.can(auth.USE_PRIVATE_COMMENTS)
            and faults.is_on("blind8-comment-option-param-unchecked"))
