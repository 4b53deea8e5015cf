"""Where shapes25's faults bite (faults_shapes25.py, issue 44): the comment list of an answer in one state (in a
child space). ``after`` rewrites the list's items; each checks ``faults.is_on`` first and leaves every other
list as it is.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .hook_kit import after_by_op, each_item, path_node
from .service import Service

AUTHOR_ID_TEXT = "shapes25-child-space-answer-comments-author-id-text"


def _author_id_text(item: dict[str, Any]) -> None:
    author = item.get("author")
    if isinstance(author, dict) and isinstance(author.get("id"), int):
        author["id"] = str(author["id"])


def _comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on(AUTHOR_ID_TEXT):
        return response
    answer = path_node(svc, request, "answer_id")
    if answer is not None and answer["type"] == "answer" and svc.db.one(
            "SELECT 1 FROM spaces WHERE id = ? AND parent_id IS NOT NULL", (answer["space_id"],)) is not None:
        response = each_item(response, _author_id_text)
    return response


after = after_by_op({"listAnswerComments": _comments})
