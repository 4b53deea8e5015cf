"""Where the planted faults of :mod:`faults_forms20` bite (issue 44 item 3, forms20): one option of a write read
wrong in one input form only. ``before`` reads the form-encoded body (Starlette keeps it for the handler),
``admitted`` passes the request on as the broken server reads it. Each checks ``faults.is_on`` first."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import faults, visibility
from .http_io import with_raw_body

FORM_TYPE = "application/x-www-form-urlencoded"
MODS_DROPPED = "forms20-comment-form-moderators-stored-public"
OPTION_DROPS_FORM = "forms20-answer-form-option-body-dropped"
OPTIONS = ("wrap", "v1")
"""The options postAnswer states ("Option wrap"; v1 too, should a description state it)."""


def _form(request: Request) -> bool:
    return request.headers.get("content-type", "").split(";")[0].strip().lower() == FORM_TYPE


async def before(svc: Any, op: str, request: Request, caller: Any, _handler: Any) -> Response | None:
    """The form-encoded body read once, for ``admitted``."""
    if op == "postComment" and faults.is_on(MODS_DROPPED) and _form(request):
        request.state.forms20_form = parse_qsl((await request.body()).decode("utf-8", "replace"),
                                               keep_blank_values=True)
    return None


def admitted(svc: Any, op: str, request: Request, caller: Any) -> Request:
    """A form-encoded comment to moderators without its visibility (the option dropped: stored at full visibility);
    a form-encoded answer with an option in its query without its form fields (read from the query alone)."""
    if op == "postAnswer" and faults.is_on(OPTION_DROPS_FORM) and _form(request) \
            and any(o in request.query_params for o in OPTIONS):
        return with_raw_body(request, b"")
    pairs = getattr(request.state, "forms20_form", None) if op == "postComment" and faults.is_on(MODS_DROPPED) \
        else None
    if pairs and ("visibility", visibility.wire_name("mod")) in pairs:
        return with_raw_body(request, urlencode([(k, v) for k, v in pairs if k != "visibility"]).encode())
    return request
