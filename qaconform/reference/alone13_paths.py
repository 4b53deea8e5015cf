"""Where the faults of :mod:`faults_alone13` bite (issue 44 item 1): one :class:`request_hooks.Hook` (``admitted``
and ``after``). Each fault bites only when its parameter is the whole query of its list for its reader, and leaves
the call as it is otherwise.

Why hooks and not edits of the handlers: each fault is a vendor's fast path for one query shape; rewriting the
request or the response around the handler keeps every other path byte for byte as the reference server answers it.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .hook_kit import with_items_added
from .http_io import body_json, with_body, with_query
from .service import Service


def _alone(request: Request, name: str) -> bool:
    """Whether ``name`` is the only parameter of the request's query."""
    return {k for k, _ in request.query_params.multi_items()} == {name}


def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    """The request as the broken fast path reads it: the parameter dropped."""
    if op == "listTopics" and caller.role == "moderator" and _alone(request, "includeOnly") and faults.is_on(
            "alone13-topics-includeonly-alone-ignored"):
        return with_query(request, [])
    if op == "listQuestions" and caller.role == "member" and _alone(request, "spaceId") and faults.is_on(
            "alone13-questions-spaceid-alone-ignored"):
        return with_query(request, [])
    return request


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The response as the broken fast path serves it."""
    if response.status_code != 200:
        return response
    if op == "listQuestions" and caller.role == "member" and _alone(request, "pageSize") and faults.is_on(
            "alone13-questions-pagesize-alone-listcount-total"):
        body = body_json(response)
        if isinstance(body, dict) and isinstance(body.get("totalCount"), int):
            body["listCount"] = body["totalCount"]
            return with_body(response, body)
    if op == "listSpaces" and caller.role == "novice" and _alone(request, "exclude") and faults.is_on(
            "alone13-spaces-exclude-alone-hidden-shown"):
        return _hidden_spaces_shown(svc, request, caller, response)
    return response


def _hidden_spaces_shown(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """alone13-spaces-exclude-alone-hidden-shown: the spaces hidden from the caller appended to its first page, the
    counts following (so only the visibility rule is broken)."""
    hidden = svc.visibility.spaces_hidden_from(caller)
    body = body_json(response)
    if not hidden or not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    drop = {f.strip() for f in request.query_params.get("exclude", "").split(",") if f.strip()}
    rows = svc.db.all(f"SELECT * FROM spaces WHERE id IN ({','.join(str(int(s)) for s in sorted(hidden))})"
                      " ORDER BY id", [])
    added = [{k: v for k, v in svc.render.space_json(r).items() if k not in drop} for r in rows]
    return with_items_added(response, body, body["list"], added)
