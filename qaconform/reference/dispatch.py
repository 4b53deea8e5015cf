"""From a row of the route table to a Starlette endpoint: who is calling (401), the planted effects of refused
calls, what they may do (the row's permissions, :mod:`access`), then the handler; and every error as a JSON body.

A handler never checks permissions of its own: it receives the caller the row has let in.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

from . import (
    access,
    blind_round41,
    faults,
    planted,
    rate_limit,
    request_hooks,
    response_faults,
    variants,
)
from .access import Requires
from .auth import Caller
from .errors import ApiError
from .http_io import html_401, json_response, wants_html
from .service import Service

EXTRA_WORK_S = 0.0
"""CPU each request burns before it is served (``serve --work-us``, 0 by default): bench/bench_capacity.py makes the
same server slower by a known share with it, to check that a capacity comparison reports the slowdown."""

Handler = Callable[[Service, Request, Caller], Awaitable[Response]]
Endpoint = Callable[[Request], Awaitable[Response]]


@dataclass(frozen=True)
class Operation:
    """One row of the route table: operationId, method, path (under the version prefix), handler, permissions.

    ``html_401``: a 401 before the handler is an HTML page to a caller who asks for HTML (the expert lists).
    ``state_first``: under the variant state-before-permission, the check of the node's state that comes before
    the permission check."""

    op_id: str
    method: str
    path: str
    handler: Handler
    requires: Requires
    html_401: bool = False
    state_first: Callable[[Service, Request, Caller], Awaitable[None]] | None = None


def endpoint(svc: Service, op: Operation) -> Endpoint:
    """The Starlette endpoint of one row."""

    async def call(request: Request) -> Response:
        caller: Caller | None = None
        if EXTRA_WORK_S:
            _burn(EXTRA_WORK_S)
        if variants.is_on("rate-limit-20rps") and (limited := rate_limit.refused(request)) is not None:
            return limited
        try:
            if faults.active() and (kept := response_faults.kept_ahead_of_auth(op.op_id, request)) is not None:
                return kept  # blindr: a planted response cache in front of authentication
            if faults.active():
                request_hooks.ahead_of_auth(svc, op.op_id, request)  # the blind rounds' (request_hooks.HOOKS)
            try:
                caller = await _admit(svc, op, request)
            except ApiError as exc:
                if op.html_401 and exc.status == 401 and wants_html(request):
                    return html_401(exc.headers)
                raise
            if not faults.active():
                return await op.handler(svc, request, caller)
            early = response_faults.refused(op.op_id, request)
            early = early or await request_hooks.before(svc, op.op_id, request, caller, op.handler)
            handled = request_hooks.admitted(svc, op.op_id, request, caller)
            response = early or await op.handler(svc, handled, caller)
            response = response_faults.bite(op.op_id, request, caller, response)
            response = request_hooks.after(svc, op.op_id, request, caller, response)
            response_faults.keep_ahead_of_auth(op.op_id, request, caller, response)  # blindr
            return response
        except ApiError as exc:
            moved = request_hooks.refusal(svc, op.op_id, request, caller, exc) if faults.active() else None
            if moved is not None:
                return moved  # a blind round's refusal answered off the interface (a redirect ...)
            return error_response(request, exc)

    call.__name__ = op.handler.__name__
    return call


def _burn(seconds: float) -> None:
    """Busy the CPU of this thread for ``seconds`` (the event loop's: every request waits for it, as for real work)."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


async def _admit(svc: Service, op: Operation, request: Request) -> Caller:
    """The caller, once the row lets it in; raises the 401 or 403 otherwise."""
    try:
        caller = svc.caller(request)
    except ApiError:
        await planted.on_bad_credentials(svc, op.op_id, request)
        let_in = planted.wrong_password_let_in(svc, op.op_id, request) if faults.active() else None
        if let_in is None:
            raise
        caller = let_in
    await planted.before_check(svc, op.op_id, request, caller)
    if op.state_first is not None and variants.is_on("state-before-permission"):
        await op.state_first(svc, request, caller)
    if faults.active() and blind_round41.door(op.op_id, caller, request.query_params.keys()):  # round41 (issue 44)
        return caller
    access.check(op.op_id, op.requires, caller, request.query_params.keys())
    return caller


def error_response(request: Request, exc: ApiError) -> Response:
    """An ApiError as its JSON response (or the HTML 401 page and {error} bodies some variants choose)."""
    if exc.status == 401 and exc.credentials and variants.is_on("bad-credentials-html"):
        return html_401(exc.headers)
    body = exc.body
    if faults.active():
        body = request_hooks.refusal_body(request, exc, body)
    if variants.is_on("denied-body-error") and exc.status in (401, 403) and "errors" in body:
        path = request.url.path
        if not (path.endswith("/group.json") or "/user/retrieve" in path):
            body = {"error": body["errors"].get("message")}
    return json_response(body, exc.status, exc.headers)


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (no route, method not allowed) with a JSON body saying what to do."""
    status = getattr(exc, "status_code", 500)
    if status == 404:
        hint = "" if request.url.path.endswith(".json") else "; every path ends in .json"
        return json_response({"error": f"no operation at {request.url.path[:200]}{hint}"}, 404)
    if status == 405:
        return json_response({"error": f"{request.method} is not allowed on {request.url.path[:200]}"}, 405)
    return json_response({"error": str(getattr(exc, "detail", "error"))}, status)


async def server_error(request: Request, exc: Exception) -> Response:
    """Any other exception: a 500 with a JSON body, never a traceback."""
    return json_response({"error": f"internal error ({type(exc).__name__}); see the server log"}, 500)
