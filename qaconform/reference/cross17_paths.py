"""Where the fault of :mod:`faults_cross17` bites (issue 44 item 7): one :class:`request_hooks.Hook` (``refusal``: a
refused lock of an answer written before the run answered 500). It leaves the refusal as it is unless its fault is on
(``faults.is_on``).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from . import faults
from .auth import Caller
from .errors import ApiError
from .http_io import path_id
from .seed_people import DAY_MS
from .service import Service, now_ms


def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    """cross17-refused-lock-of-older-answer-500: a lock refused for its caller (401, 403) of an answer written 30 days
    or more before the call (the reference seed's, before any run) answered 500."""
    if op != "lockNode" or exc.status not in (401, 403) or not faults.is_on("cross17-refused-lock-of-older-answer-500"):
        return None
    try:
        node_id = path_id(request)
    except ApiError:
        return None
    row = svc.db.one("SELECT type, creation_date FROM nodes WHERE id = ?", (node_id,))
    if row is None or row["type"] != "answer" or int(row["creation_date"]) > now_ms() - 30 * DAY_MS:
        return None
    return JSONResponse({"errors": {"message": "Internal Server Error"}}, status_code=500)
