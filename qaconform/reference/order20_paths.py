"""Where the order20 faults bite (issue 44 item 6, faults_order20.py): a projected user list read with the caller
of the request before it, when that one was a plain read of the same list by a caller who sees every space, less
than :data:`KEPT_S` earlier (a per-list visibility kept a few seconds, as real caches do).

Wired in request_hooks.HOOKS (``before``, ``after``).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller

if TYPE_CHECKING:
    from .service import Service

Handler = Any

KEPT_S = 3.0
"""How long the plain read's visibility is reused."""
PROJECTING = ("includeOnly", "include", "exclude")
"""The projection parameters (Endpoints > Conventions > Projection parameters)."""
LISTS = {"listUserAnswers": "order20-kind-user-answers-projected-visibility-of-plain-read-before"}
"""List -> its fault."""

_previous: list[tuple[float, str, bool, Caller]] = []
"""When, which operation, whether plain, and whose: the last request served."""


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    """The projected list answered with the previous request's caller (only with the list's fault on)."""
    if op not in LISTS or not faults.is_on(LISTS[op]) or not any(k in request.query_params for k in PROJECTING):
        return None
    if not _previous or time.monotonic() - _previous[0][0] > KEPT_S:
        return None
    _when, earlier_op, plain, earlier = _previous[0]
    if earlier_op != op or not plain or earlier.id == caller.id or svc.visibility.spaces_hidden_from(earlier):
        return None
    if not svc.visibility.spaces_hidden_from(caller):
        return None
    return await handler(svc, request, earlier)  # the visibility the plain read worked out


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """Notes the request served."""
    plain = not any(k in request.query_params for k in PROJECTING)
    _previous[:] = [(time.monotonic(), op, plain, caller)]
    return response
