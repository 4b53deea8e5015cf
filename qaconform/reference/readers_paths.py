"""The code of the readers faults (:mod:`faults_readers`, issue 44): the issue-type list (a bare JSON array) served
to one reader in another shape (an object around the array, or the paged envelope), as a server does that answers
some accounts from another serializer. Run after the handler through ``request_hooks.HOOKS`` ("readers"); it leaves
the response as it is unless one of its faults is on.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .http_io import body_json, with_body
from .service import Service

NON_ADMIN = ("member", "novice", "moderator")


def _envelope(items: list[Any]) -> dict[str, Any]:
    """The paged list envelope around ``items`` (one page holding them all)."""
    return {"name": "", "sort": "", "page": 1, "pageSize": len(items), "pageCount": 1, "listCount": len(items),
            "totalCount": len(items), "list": items}


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The shape of a bare-array list as one reader is served it."""
    if response.status_code != 200 or op != "listIssueTypes":
        return response
    body = body_json(response)
    if not isinstance(body, list):
        return response
    if faults.is_on("round16-issuetypes-wrapped-non-admin") and caller.role in NON_ADMIN:
        return with_body(response, {"issueTypes": body})
    if faults.is_on("readers-issuetypes-enveloped-novice") and caller.role == "novice":
        return with_body(response, _envelope(body))
    return response
