"""Where the options faults bite (faults_options.py, issue 44): an allowed list read with one of its stated options
(wrap, v1) answered against a rule that holds whatever the option. The permission faults of the module are route-table
overrides (no hook). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .hook_kit import Fix, after_by_op, list_items
from .http_io import with_body, with_query
from .service import Service


def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    """options-questions-v1-includeonly-spaceid-ignored: spaceId dropped under v1 beside includeOnly."""
    q = request.query_params
    if op != "listQuestions" or not faults.is_on("options-questions-v1-includeonly-spaceid-ignored") \
            or "v1" not in q or "includeOnly" not in q or "spaceId" not in q:
        return request
    return with_query(request, [(k, v) for k, v in q.multi_items() if k != "spaceId"])


def _moved(name: str, option: str, sort: str, rotate: bool = False) -> Fix:
    """The list's items reversed (``rotate``: the first item served last) when ``option`` is given beside ``sort``."""

    def fix(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
        if not faults.is_on(name) or option not in request.query_params \
                or request.query_params.get("sort") != sort:
            return response
        body, items = list_items(response)
        if len(items) < 2:
            return response
        if rotate:
            items.append(items.pop(0))
        else:
            items.reverse()
        return with_body(response, body)

    return fix


_AFTER = {
    "listEarnedExperts": _moved("options-earned-username-v1-first-last", "v1", "username", rotate=True),
    "listActiveExperts": _moved("options-active-oldest-wrap-newest-first", "wrap", "oldest"),
}
after = after_by_op(_AFTER)
