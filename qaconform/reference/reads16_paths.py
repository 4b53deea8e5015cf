"""Where the reads16 faults (faults_reads16.py) bite: an ``after`` hook of :mod:`request_hooks` (the searched
space filter's empty page) and one call in node_lists.py where the question list decides whether the caller's
spaces restrict it (the topics filter). Each is a no-op unless its fault is on.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .http_io import json_response
from .service import Service


def spaces_forgotten(q: Any) -> bool:
    """reads16-topics-filter-shows-hidden-space: a topics filter given, the caller's spaces are not applied."""
    return bool(q.get("topics")) and faults.is_on("reads16-topics-filter-shows-hidden-space")


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
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
