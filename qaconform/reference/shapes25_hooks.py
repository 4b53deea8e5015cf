"""Where shapes25's faults bite (faults_shapes25.py, issue 44): the comment list of an answer in one state (accepted;
in a child space). ``after`` rewrites the list's items; each checks ``faults.is_on`` first and leaves every other
list as it is.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .hook_kit import after_by_op, each_item, path_node
from .service import Service

DATE_TEXT = "shapes25-accepted-answer-comments-date-text"
AUTHOR_ID_TEXT = "shapes25-child-space-answer-comments-author-id-text"


def _date_text(item: dict[str, Any]) -> None:
    value = item.get("creationDate")
    if isinstance(value, int) and not isinstance(value, bool):
        item["creationDate"] = datetime.fromtimestamp(value / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _author_id_text(item: dict[str, Any]) -> None:
    author = item.get("author")
    if isinstance(author, dict) and isinstance(author.get("id"), int):
        author["id"] = str(author["id"])


def _comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on(DATE_TEXT) or faults.is_on(AUTHOR_ID_TEXT)):
        return response
    answer = path_node(svc, request, "answer_id")
    if answer is None:
        return response
    if faults.is_on(DATE_TEXT) and answer["marked"]:
        response = each_item(response, _date_text)
    if faults.is_on(AUTHOR_ID_TEXT) and svc.db.one(
            "SELECT 1 FROM spaces WHERE id = ? AND parent_id IS NOT NULL", (answer["space_id"],)) is not None:
        response = each_item(response, _author_id_text)
    return response


after = after_by_op({"listAnswerComments": _comments})
