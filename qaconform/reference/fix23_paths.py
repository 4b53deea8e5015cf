"""fix23 (issue 44): the code of the faults of :mod:`faults_fix23`, each the bug a real server ships on one path of
a kind blind round 23 found: a text decoded once more in one input form, a count cached across a write on a list the
write lands in, a reply's id lists read without the privacy filter one level down, a parameter's default lost when
another is given at its own default. Hooked through ``request_hooks.HOOKS`` (one entry): nothing here runs unless
one of these faults is on.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .http_io import json_response, with_query
from .kept_page_counts import KeptPageCounts
from .service import Service

PREFIX = "fix23-"
"""Every fault here is named so; the hooks return at once when none is on."""

CACHE_S = 30.0
"""How long the planted count cache keeps a page count (a run reads the same list again within seconds)."""

_page_counts = KeptPageCounts(CACHE_S)


def _any_on() -> bool:
    return any(name.startswith(PREFIX) for name in faults.active())


def _parsed(response: Response) -> Any:
    try:
        return json.loads(bytes(response.body))
    except ValueError:
        return None


def _rebuilt(response: Response, body: Any) -> Response:
    headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-type")}
    return json_response(body, response.status_code, headers)


# --- admitted: the request as the handler reads it -------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    """An explicit page=1 on the follower list takes the paged query's branch, whose missing active means "all";
    an answer's body given as a query parameter is decoded once more, every "+" a space."""
    q = request.query_params
    if op == "postAnswer" and "+" in q.get("body", "") and faults.is_on("fix23-answer-plus-as-space-in-query"):
        return with_query(request, [(k, v.replace("+", " ") if k == "body" else v) for k, v in q.multi_items()])
    if (op != "listNodeFollowers" or q.get("page") != "1" or "active" in q
            or not faults.is_on("fix23-followers-explicit-page-one-lists-all")):
        return request
    return with_query(request, [*q.multi_items(), ("active", "false")])


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if not _any_on() or response.status_code >= 300:
        return response
    if op == "postComment" and faults.is_on("fix23-comment-percent-decoded-twice"):
        _decoded_twice(svc, caller)
    elif op == "listAnswerComments" and faults.is_on("fix23-answer-comments-pagecount-cached"):
        body = _parsed(response)
        if isinstance(body, dict) and _page_counts.apply(svc, request, caller, body):
            return _rebuilt(response, body)
    elif op in ("listAnswerComments", "readComment") and faults.is_on("fix23-reply-ids-list-private-replies"):
        return _reply_ids_unfiltered(svc, op, response)
    return response


def _decoded_twice(svc: Service, caller: Caller) -> None:
    """The new comment's text percent-decoded once more: "a%20b" stored as "a b" (every input form)."""
    row = svc.db.one("SELECT id, body FROM nodes WHERE type = 'comment' AND author_id = ? ORDER BY id DESC LIMIT 1",
                     (caller.id,))
    if row is None or "%" not in row["body"] or unquote(row["body"]) == row["body"]:
        return
    with svc.tx("comment") as conn:
        conn.execute("UPDATE nodes SET body = ? WHERE id = ?", (unquote(row["body"]), row["id"]))




def _reply_ids_unfiltered(svc: Service, op: str, response: Response) -> Response:
    """A listed comment that is itself a reply (its parent a comment) lists every reply of its own in commentIds and
    childrenIds, private ones included: the reply's children are loaded by a second query without the filter."""
    body = _parsed(response)
    items = body.get("list") if op == "listAnswerComments" and isinstance(body, dict) else [body]
    if not isinstance(items, list):
        return response
    changed = False
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int):
            continue
        row = svc.db.one("SELECT p.type FROM nodes n JOIN nodes p ON p.id = n.parent_id WHERE n.id = ?", (item["id"],))
        if row is None or row["type"] != "comment":
            continue
        every = svc.db.ids("SELECT id FROM nodes WHERE parent_id = ? AND type = 'comment' ORDER BY id", (item["id"],))
        if every != item.get("commentIds"):
            item["commentIds"] = every
            item["childrenIds"] = sorted(set(every) | set(item.get("childrenIds") or []))
            changed = True
    return _rebuilt(response, body) if changed else response
