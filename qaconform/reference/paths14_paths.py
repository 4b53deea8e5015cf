"""Where the faults of :mod:`faults_paths14` bite (issue 44 item 1), apart from the route-table override
(paths14-groups-projection-alone-moderator-served, applied by access.check): the comment list's privacy clause
(:func:`answer_comments_clause`, node_lists.py) and one :class:`request_hooks.Hook` (``after``). Each bites only
when its query is the one named (one parameter alone, or none in one request form) for its one reader, and leaves
every other call as it is.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .http_io import body_json, with_body
from .service import Service


def _alone(request: Request, name: str) -> bool:
    """Whether ``name`` is the only parameter of the request's query."""
    return {k for k, _ in request.query_params.multi_items()} == {name}


def answer_comments_clause(request: Request, caller: Caller, clause: str) -> str:
    """paths14-comments-plain-browser-novice-private-shown: novice's plain comment list asked by a browser read
    without the privacy clause (private comments unfiltered)."""
    if (faults.is_on("paths14-comments-plain-browser-novice-private-shown") and caller.role == "novice"
            and not request.query_params and "text/html" in request.headers.get("accept", "").lower()):
        return f"({clause} OR (n.type = 'comment' AND n.visibility <> 'full'))"
    return clause


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """paths14-user-answers-sort-alone-moderator-title: each answer of the page given its question's title."""
    if (op != "listUserAnswers" or response.status_code != 200 or caller.role != "moderator"
            or not _alone(request, "sort") or not faults.is_on("paths14-user-answers-sort-alone-moderator-title")):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    for item in body["list"]:
        if isinstance(item, dict) and isinstance(item.get("id"), int):
            row = svc.db.one("SELECT q.title FROM nodes a JOIN nodes q ON q.id = a.question_id WHERE a.id = ?",
                             (item["id"],))
            if row is not None and row[0]:
                item["title"] = row[0]
    return with_body(response, body)
