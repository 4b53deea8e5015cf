"""Where the paths19 faults (faults_paths19.py, issue 44 items 2 and 5) bite: an ``after`` hook of
:mod:`request_hooks`. Each is a no-op unless its fault is on.

paths19-kind-user-questions-ids-cached: a user's question list keeps each question's commentIds and childrenIds
a few seconds per question (a node cache keyed without the reader, as round49-question-ids-cached-per-node keeps the
question list's) and serves them to whoever reads next; a comment private to the recipient then shows in the
commentIds another caller reads right after the recipient.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .http_io import body_json, with_body
from .service import Service

IDS_CACHE_S = 3.0
"""How long paths19-kind-user-questions-ids-cached keeps a question's commentIds and childrenIds."""
_ids_by_node: dict[int, tuple[float, int, Any, Any]] = {}


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if op == "listUserQuestions" and response.status_code == 200 \
            and faults.is_on("paths19-kind-user-questions-ids-cached"):
        return _ids_cached(caller, response)
    return response


def _ids_cached(caller: Caller, response: Response) -> Response:
    """A question's ids as the last fresh read saw them, for every other reader within the window."""
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    if not isinstance(items, list):
        return response
    now = time.monotonic()
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int):
            continue
        kept = _ids_by_node.get(item["id"])
        if kept is not None and now - kept[0] < IDS_CACHE_S and kept[1] != caller.id:
            for key, value in (("commentIds", kept[2]), ("childrenIds", kept[3])):
                if key in item and value is not None:
                    item[key] = value
        else:
            _ids_by_node[item["id"]] = (now, caller.id, item.get("commentIds"), item.get("childrenIds"))
    return with_body(response, body)
