"""Where the fix28 faults bite (issue 44; entries in :mod:`faults_fix28`): the question list asked with one of its
optional parameters (type, includeOnly). Wired in :data:`request_hooks.HOOKS`; the hook leaves the answer as it is
unless its fault is on and the request carries the parameter."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .http_io import body_json, unmark_items, with_body
from .service import Service


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 200 or op != "listQuestions":
        return response
    params = request.query_params
    if faults.is_on("fix28-questions-type-unmarked") and params.get("type", "").strip():
        return _unmarked(response)
    if faults.is_on("fix28-questions-includeonly-unmarked") and params.get("includeOnly", "").strip():
        return _unmarked(response)
    return response


def _unmarked(response: Response) -> Response:
    """The page with every question's marked turned false (the accepted state the parameter's query leaves out)."""
    body: Any = body_json(response)
    return with_body(response, body) if unmark_items(body) else response
