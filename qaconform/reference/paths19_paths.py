"""Where the paths19 faults (faults_paths19.py, issue 44 items 2 and 5) bite: an ``after`` hook of
:mod:`request_hooks`. Each is a no-op unless its fault is on.

paths19-kind-user-questions-ids-cached: a user's question list keeps each question's commentIds and childrenIds
a few seconds per question (a node cache keyed without the reader, as round49-question-ids-cached-per-node keeps the
question list's) and serves them to whoever reads next; a comment private to the recipient then shows in the
commentIds another caller reads right after the recipient.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .hook_kit import ids_cached
from .service import Service

IDS_CACHE_S = 3.0
"""How long paths19-kind-user-questions-ids-cached keeps a question's commentIds and childrenIds."""
_ids_by_node: dict[int, tuple[float, int, Any, Any]] = {}


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if op == "listUserQuestions" and response.status_code == 200 \
            and faults.is_on("paths19-kind-user-questions-ids-cached"):
        return ids_cached(_ids_by_node, IDS_CACHE_S, caller, response)
    return response


