"""Where the reads16 faults (faults_reads16.py) bite: an ``after`` hook of :mod:`request_hooks` (the searched
space filter's empty page, the answer comment list a first-named recipient is not shown), one call in node_lists.py
where the question list decides whether the caller's spaces restrict it (the topics filter) and one in comments.py
where a comment is stored (the recipients a reply names). Each is a no-op unless its fault is on.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .bodies import structured
from .http_io import body_json, json_response, with_body
from .service import Service


def spaces_forgotten(q: Any) -> bool:
    """reads16-topics-filter-shows-hidden-space: a topics filter given, the caller's spaces are not applied."""
    return bool(q.get("topics")) and faults.is_on("reads16-topics-filter-shows-hidden-space")


_FIRST_NAMED: dict[int, int] = {}
"""reads16-reply-fields-first-recipient-unlisted: reply id -> the user its recipients field named first."""


def comment_posted(parent: sqlite3.Row, fields: dict[str, Any], comment_id: int) -> None:
    """A reply to a private comment that names its recipients: the one named first is kept for the list's hook."""
    if parent["type"] != "comment" or parent["visibility"] == "full" or "recipients" not in fields or not \
            faults.is_on("reads16-reply-fields-first-recipient-unlisted"):
        return
    raw = structured(fields, "recipients")
    first = raw[0].get("id") if isinstance(raw, list) and raw and isinstance(raw[0], dict) else None
    if str(first).strip().isdecimal():
        _FIRST_NAMED[comment_id] = int(str(first).strip())


def _first_named_unlisted(caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    hidden = [i for i in body["list"] if isinstance(i, dict) and isinstance(i.get("id"), int)
              and _FIRST_NAMED.get(i["id"]) == caller.id]
    if not hidden:
        return response
    body["list"] = [i for i in body["list"] if i not in hidden]
    body["listCount"] = len(body["list"])
    if isinstance(body.get("totalCount"), int):
        body["totalCount"] = max(body["totalCount"] - len(hidden), 0)
    return with_body(response, body)


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if op == "listAnswerComments" and response.status_code == 200 and _FIRST_NAMED:
        return _first_named_unlisted(caller, response)
    if (op != "listQuestions" or response.status_code != 200 or not q.get("spaceId") or not q.get("q")
            or not faults.is_on("reads16-spaceid-with-search-lists-nothing")):
        return response
    body = json.loads(bytes(response.body))
    inner = body.get("result") if isinstance(body, dict) and isinstance(body.get("result"), dict) else body
    if not isinstance(inner, dict) or not isinstance(inner.get("list"), list):
        return response
    inner.update({"list": [], "totalCount": 0, "listCount": 0, "pageCount": 0})
    return json_response(body, headers={k: v for k, v in response.headers.items()
                                        if k.lower() not in ("content-length", "content-type")})
