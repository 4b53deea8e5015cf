"""The code of the histories4 faults on a posted comment's text (:mod:`faults_histories4`, issue 44): non-ASCII text
stored differently on one path of postComment only, where the run's carrier comment (member's, on one answer, in
four forms: test_stated_forms.py) never goes: the parameter that wins beside a JSON body, and one writer's comments.
Called by the comment handler once it has the body (comments.py, one line); it returns the body as it is unless one
of its faults is on.
"""

from __future__ import annotations

from starlette.requests import Request

from . import faults
from .auth import Caller


def comment_body(request: Request, caller: Caller, body: str) -> str:
    """The body as the broken server stores it."""
    json_body = request.headers.get("content-type", "").split(";")[0].strip().lower() == "application/json"
    if faults.is_on("histories4-comment-param-wins-latin1") and json_body and "body" in request.query_params:
        # the merge of a query parameter into a JSON body's fields re-reads the raw query string as Latin-1
        return body.encode("utf-8").decode("latin-1")
    if faults.is_on("histories4-novice-comment-astral-dropped") and caller.role == "novice":
        # a comment of an account without reputation goes through a filter whose column holds no 4-byte UTF-8
        return "".join(ch for ch in body if ord(ch) <= 0xFFFF)
    return body
