"""Where the planted faults of :mod:`faults_forms25` bite (issue 44, forms25: recipients given as a request or query
parameter or in a form-encoded body). ``before`` keeps a comment's body for the later stages, ``admitted`` drops
what the broken server drops; each checks ``faults.is_on`` first."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .hook_kit import form_fields, kept_body, media, path_node, without_fields
from .http_io import with_query
from .service import Service

BESIDE_FORM = "forms25-recipients-param-beside-form-body-dropped"
QUESTION_QUERY = "forms25-question-comment-query-recipients-ignored"
FORM_PUBLIC = "forms25-form-recipients-stored-public"
_ALL = (BESIDE_FORM, QUESTION_QUERY, FORM_PUBLIC)
_FORM = "application/x-www-form-urlencoded"


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postComment" and any(faults.is_on(n) for n in _ALL):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    return None


def _without_query_recipients(request: Request) -> Request:
    return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "recipients"])


def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op != "postComment" or not any(faults.is_on(n) for n in _ALL):
        return request
    q = request.query_params
    form = form_fields(request)
    if faults.is_on(BESIDE_FORM) and "recipients" in q and media(request) == _FORM and form \
            and "recipients" not in form:
        return _without_query_recipients(request)
    if faults.is_on(QUESTION_QUERY) and "recipients" in q and not kept_body(request).strip():
        parent = path_node(svc, request)
        if parent is not None and parent["type"] == "question":
            return _without_query_recipients(request)
    if faults.is_on(FORM_PUBLIC) and media(request) == _FORM and "recipients" in form \
            and "recipients" not in q and "visibility" not in q:
        return without_fields(request, ("visibility", "recipients"), query=False)
    return request
