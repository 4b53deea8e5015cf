"""Where the planted faults of the run's own subtree as one reader is shown it bite (issue 44, commentcross).

Each breaks one comment rule (or one rule of the follower list's own parameters) for one reader or one parameter of
a list only: the answer's comment list read by one account, the follower list asked with one of its own options.
The privacy and read-back rules were judged on the comment list as one or two accounts read it; a server that
renders the list per caller (a role's template, a cache of rendered items per role) breaks them for the others.
Like :mod:`response_faults` (whose ``BITES`` holds these too), each rewrites the JSON body a list handler made,
checked with ``faults.is_on`` there, the one place it bites.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from .auth import Caller

Body = dict[str, Any]
COMMENTS, FOLLOWERS = "listAnswerComments", "listNodeFollowers"


def _items(body: Body) -> list[dict[str, Any]]:
    return [i for i in body.get("list") or [] if isinstance(i, dict)]


def _private(item: dict[str, Any]) -> bool:
    return isinstance(item.get("recipients"), list) and bool(item["recipients"])


def _recipients_dropped_for_admin(op: str, request: Request, caller: Caller, body: Body) -> bool:
    if op != COMMENTS or caller.role != "admin":
        return False
    for item in _items(body):
        if _private(item):
            item.pop("recipients", None)
    return True


def _full_named_for_anonymous(op: str, request: Request, caller: Caller, body: Body) -> bool:
    if op != COMMENTS or not caller.anonymous:
        return False
    for item in _items(body):
        author = item.get("author")
        if not _private(item) and isinstance(author, dict) and "id" in author:
            item["recipients"] = [{"id": author["id"]}]
    return True


def _body_empty_for_admin(op: str, request: Request, caller: Caller, body: Body) -> bool:
    if op != COMMENTS or caller.role != "admin":
        return False
    for item in _items(body):
        if not _private(item):
            for key in ("body", "bodyAsHTML"):
                if key in item:
                    item[key] = ""
    return True


def _latin1_for_novice(op: str, request: Request, caller: Caller, body: Body) -> bool:
    if op != COMMENTS or caller.role != "novice":
        return False
    for item in _items(body):
        for key in ("body", "bodyAsHTML"):
            if isinstance(item.get(key), str):
                item[key] = item[key].encode("utf-8").decode("latin-1")
    return True


def _includeonly_leaks_score_with_spaceid(op: str, request: Request, caller: Caller, body: Body) -> bool:
    q = request.query_params
    if op != "listQuestions" or "spaceId" not in q or "includeOnly" not in q:
        return False
    for item in _items(body):
        item.setdefault("score", 0)
    return True


def _relations_when_inactive_asked(op: str, request: Request, caller: Caller, body: Body) -> bool:
    q = request.query_params
    if op != FOLLOWERS or q.get("active") != "false" or q.get("details") == "true":
        return False
    for item in _items(body):
        if item.get("type") == "user":
            item["type"] = "follow"
    return True


BITES = {
    "comment-recipients-dropped-for-admin": _recipients_dropped_for_admin,
    "comment-full-named-for-anonymous": _full_named_for_anonymous,
    "comment-body-empty-for-admin": _body_empty_for_admin,
    "comment-body-latin1-for-novice": _latin1_for_novice,
    "followers-relations-when-inactive-asked": _relations_when_inactive_asked,
    "includeonly-keeps-score-with-spaceid": _includeonly_leaks_score_with_spaceid,
}
"""Fault name -> where it bites (its entry, with the rule it breaks, is in :mod:`faults_reads`)."""
