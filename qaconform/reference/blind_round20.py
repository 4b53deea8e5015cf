"""Where the twentieth blind round's planted faults bite (issue 44, round20): one fault on each of fifteen must-rules
drawn at random, each written from the interface description alone as the bug a real server ships on one path.

Most bite around the handler through :data:`request_hooks.HOOKS` (one entry: :func:`before` and :func:`after`);
three need the handler's own reading of its input and are one call each in the handler they break
(:func:`reassign_form` in gdpr_jobs.py, :func:`gdpr_operations_over_limit` in gdpr_jobs.py, :func:`reply_fields` in
comments.py). Each does nothing unless its fault is on (``faults.is_on``). The registry entries, with the sentence
of the description each breaks, are in :mod:`faults_blind_round20`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .bodies import structured
from .errors import ApiError, forbidden
from .http_io import json_response
from .service import Service

Handler = Callable[[Service, Request, Caller], Awaitable[Response]]

OPERATIONS_MESSAGE = "The provided 'operations' is/are invalid"

_answers_cache: dict[tuple[str, int], tuple[str, bytes]] = {}
"""blind20-user-answers-cache-without-user: (query string, caller id) -> (userId read, body served)."""


def _with_query(request: Request, drop: tuple[str, ...] = (), put: dict[str, str] | None = None) -> Request:
    """The same request with some query parameters dropped or replaced (what the broken branch reads)."""
    pairs = [(k, v) for k, v in parse_qsl(request.url.query, keep_blank_values=True) if k not in drop]
    if put:
        pairs = [(k, v) for k, v in pairs if k not in put] + list(put.items())
    scope = dict(request.scope)
    scope["query_string"] = urlencode(pairs).encode("ascii")
    return Request(scope, request.receive)


def _int(raw: str | None, default: int) -> int:
    try:
        return int(raw) if raw is not None else default
    except ValueError:
        return default


def _body(response: Response) -> Any:
    if response.status_code != 200:
        return None
    try:
        return json.loads(bytes(response.body))
    except ValueError:
        return None


def reassign_form(reassign: Any, both: bool) -> tuple[Any, bool]:
    """blind20-reassign-string-id-beside-username: the ambiguity test counts an id only when it is a JSON number,
    so ``{"username": ..., "id": "12"}`` (the id as text) is not seen as two ways; the username alone is looked up."""
    if (both and faults.is_on("blind20-reassign-string-id-beside-username") and isinstance(reassign, dict)
            and isinstance(reassign.get("id"), str)):
        return {"username": reassign.get("username")}, False
    return reassign, both


def gdpr_operations_over_limit(fields: dict[str, Any]) -> None:
    """blind20-gdpr-ops-over-limit-error-list: the limit of four operations is checked apart from the list's other
    checks, and its refusal carries the message in a list ({"error": [message]})."""
    if not faults.is_on("blind20-gdpr-ops-over-limit-error-list"):
        return
    operations = structured(fields, "operations")
    if isinstance(operations, list) and len(operations) > 4:
        raise ApiError(400, {"error": [OPERATIONS_MESSAGE]})


def reply_fields(parent: sqlite3.Row, fields: dict[str, Any]) -> dict[str, Any]:
    """blind20-reply-recipients-with-op: under a public comment the reply's recipients are dropped when its
    visibility is not recipients (the reply branch clears them) before rule 6 is checked, so no 400."""
    if (faults.is_on("blind20-reply-recipients-with-op") and parent["type"] == "comment"
            and parent["visibility"] == "full" and "recipients" in fields
            and fields.get("visibility") not in (None, "", "recipients")):
        return {k: v for k, v in fields.items() if k != "recipients"}
    return fields


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    """The faults that answer in the handler's place (a branch reading the request another way)."""
    q = request.query_params
    if (op == "listEarnedExperts" and q.get("sort") == "reputation"
            and faults.is_on("blind20-earned-reputation-sorted-as-text")):
        response = await handler(svc, request, caller)
        body = _body(response)
        if isinstance(body, dict) and isinstance(body.get("list"), list):
            body["list"].sort(key=lambda u: str(u.get("reputation", "")) if isinstance(u, dict) else "",
                              reverse=True)
            return json_response(body)
        return response
    if (op == "listNodeFollowers" and "includeOnly" in q and q.get("active", "").lower() == "false"
            and faults.is_on("blind20-followers-includeonly-ignored-inactive")):
        return await handler(svc, _with_query(request, drop=("includeOnly",)), caller)
    if (op == "listQuestions" and "spaceId" in q and "unanswered" in q
            and faults.is_on("blind20-spaceid-dropped-with-unanswered")):
        return await handler(svc, _with_query(request, drop=("spaceId",)), caller)
    if (op == "listUserQuestions" and caller.role == "moderator"
            and faults.is_on("blind20-moderator-own-questions-refused")
            and str(request.path_params.get("user_id")) == str(caller.id)):
        raise forbidden()
    return None


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The faults that rewrite the handler's response."""
    q = request.query_params
    if op == "listUserAnswers" and faults.is_on("blind20-user-answers-cache-without-user"):
        return _answers_cached(request, caller, response)
    body = _body(response)
    if body is None:
        return response
    if op == "listTopics" and isinstance(body, dict):
        return _topics(q, body, response)
    if (op == "listGroups" and isinstance(body, dict) and "page" not in q and q.get("sort") not in (None, "")
            and body.get("sort") != q.get("sort") and faults.is_on("blind20-groups-fallback-sort-page-zero")):
        body["page"] = 0  # the fallback branch rebuilds the paging from a zero-based default
        return json_response(body)
    if op == "listUserContent" and isinstance(body, list) and faults.is_on("blind20-content-joined-no-fraction"):
        for entry in body:
            if isinstance(entry, dict) and entry.get("actionType") == "joined" and isinstance(
                    entry.get("actionDate"), str):
                entry["actionDate"] = entry["actionDate"].rsplit(".", 1)[0]
        return json_response(body)
    if (op == "cancelWiki" and isinstance(body, dict) and caller.role == "moderator"
            and faults.is_on("blind20-cancelwiki-moderator-wiki-key")):
        result = body.get("result")
        if isinstance(result, dict) and "wikifyAction" in result:
            result["wikiAction"] = result.pop("wikifyAction")
            return json_response(body)
    if (op == "unmarkFavorite" and isinstance(body, dict) and caller.role == "admin"
            and faults.is_on("blind20-admin-unfavorite-canceler-null")):
        action = (body.get("result") or {}).get("favoriteAction")
        if isinstance(action, dict) and action.get("canceled") is True:
            action["canceledByUser"] = None
            return json_response(body)
    if (op == "listIssueTypes" and isinstance(body, list)
            and "application/json" not in request.headers.get("accept", "").lower()
            and faults.is_on("blind20-issuetypes-envelope-without-json-accept")):
        return json_response({"name": "", "sort": "", "page": 1, "pageSize": max(len(body), 1), "pageCount": 1,
                              "listCount": len(body), "totalCount": len(body), "list": body})
    return response


def _topics(q: Any, body: dict[str, Any], response: Response) -> Response:
    """blind20-topics-past-end-empty-body: a page past the last one is served with no body at all (the template
    writes nothing for no items)."""
    if (faults.is_on("blind20-topics-past-end-empty-body") and body.get("list") == []
            and _int(q.get("page"), 1) > 1):
        return Response(b"", 200, media_type="application/json")
    return response


def _answers_cached(request: Request, caller: Caller, response: Response) -> Response:
    """blind20-user-answers-cache-without-user: the answer list is cached by its query string and reader, not by
    the user whose answers it lists, so a second user's list read with the same parameters is the first one's."""
    if response.status_code != 200:
        return response
    key = (request.url.query, caller.id)
    user = str(request.path_params.get("user_id"))
    kept = _answers_cache.get(key)
    if kept is not None and kept[0] != user:
        return Response(kept[1], 200, media_type="application/json")
    _answers_cache[key] = (user, bytes(response.body))
    return response
