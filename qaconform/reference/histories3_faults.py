"""Where the planted faults of the histories at depth 3 bite (issue 44, histories3; entries in
:mod:`faults_histories3`).

Each breaks one stated rule only for a reply at depth 3 of a thread under an answer (stored depth 5: the question 0,
the answer 1, its comment 2), or only for a reply to such a reply. Every helper checks ``faults.is_on`` first, so a
fault costs a set lookup when off.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from functools import partial
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .db import Database
from .errors import bad_request
from .fragments import JSON_TYPE
from .pages import Miscount

ANSWER_DEPTH3 = 5
"""The stored depth of a reply at depth 3 under an answer's comment (the question 0, the answer 1, its comment 2)."""


def _under_answer(node: sqlite3.Row, depth: int) -> bool:
    return (node["type"] == "comment" and node["answer_id"] is not None and node["depth"] == depth
            and node["visibility"] != "full")


# --- posting (comments.py) -----------------------------------------------------------------------------------
def reply_checked(parent: sqlite3.Row, visibility: str | None, recipients: list[int]) -> str | None:
    """The visibility rule 4 is checked against, after two planted faults: h3-answer-depth3-same-fields-refused (the
    same settings on a reply to a depth-2 reply under an answer refused as another visibility) and
    h3-answer-depth4-rule4-skipped (another visibility on a reply to a depth-3 reply dropped: it inherits)."""
    if (visibility is not None and recipients and _under_answer(parent, ANSWER_DEPTH3 - 1)
            and faults.is_on("h3-answer-depth3-same-fields-refused")):
        raise bad_request("a reply to a private comment inherits its visibility and recipients; give none or the "
                          "same ones")
    if (visibility is not None and _under_answer(parent, ANSWER_DEPTH3)
            and faults.is_on("h3-answer-depth4-rule4-skipped")):
        return None
    if (visibility is not None and parent["type"] == "comment" and parent["locked"] and parent["visibility"] != "full"
            and faults.is_on("h3-locked-private-comment-rule4-skipped")):
        return None
    return visibility


def stored_privacy(parent: sqlite3.Row, decided: tuple[str, list[int]]) -> tuple[str, list[int]]:
    """h3-answer-depth3-reply-public: a reply to a depth-2 reply under an answer is stored public."""
    if _under_answer(parent, ANSWER_DEPTH3 - 1) and faults.is_on("h3-answer-depth3-reply-public"):
        return "full", []
    return decided


# --- lists (node_lists.py) -----------------------------------------------------------------------------------
_DEPTH3 = f"(n.type = 'comment' AND n.answer_id IS NOT NULL AND n.depth = {ANSWER_DEPTH3} AND n.visibility <> 'full')"


_LOCKED_PRIVATE = "(n.type = 'comment' AND n.locked = 1 AND n.visibility <> 'full')"


def content_clause(clause: str) -> str:
    """h3-answer-depth3-content-leak (a content list filters the privacy of an answer's threads at depths 0-2 only)
    and h3-locked-private-comment-content-leak (nor of a comment that is itself locked)."""
    if faults.is_on("h3-answer-depth3-content-leak"):
        clause = f"({clause} OR {_DEPTH3})"
    if faults.is_on("h3-locked-private-comment-content-leak"):
        clause = f"({clause} OR {_LOCKED_PRIVATE})"
    return clause


def answer_comments_clause(clause: str) -> str:
    """h3-answer-depth3-listed-to-all (the depth-3 replies unfiltered) and h3-locked-private-comment-listed-to-all (a
    locked private comment unfiltered)."""
    if faults.is_on("h3-answer-depth3-listed-to-all"):
        clause = f"({clause} OR {_DEPTH3})"
    if faults.is_on("h3-locked-private-comment-listed-to-all"):
        clause = f"({clause} OR {_LOCKED_PRIVATE})"
    return clause


def comment_miscount(where: list[str], params: list[Any]) -> Miscount | None:
    """h3-answer-depth3-totalcount-skipped: an answer's comment count made of its comments and their replies down to
    depth 2 (stored depth 4), while the list holds depth-3 replies too."""
    if not faults.is_on("h3-answer-depth3-totalcount-skipped"):
        return None
    return Miscount([*where, f"n.depth < {ANSWER_DEPTH3}"], list(params))


# --- responses (request_hooks.py's after chain) --------------------------------------------------------------
def after(db: Database, op: str, request: Request, response: Response) -> Response:
    """A read's response as this round's planted renderings change it."""
    if response.status_code != 200 or request.method != "GET":
        return response
    if op == "readComment" and faults.is_on("h3-answer-depth3-recipients-not-returned"):
        node = db.one("SELECT type, answer_id, depth, visibility FROM nodes WHERE id = ?",
                      (request.path_params.get("node_id"),))
        if node is not None and _under_answer(node, ANSWER_DEPTH3):
            return _rewritten(response, _drop_recipients)
    for name, which in (("h3-answer-depth3-list-settings-dropped", _DEPTH3),
                        ("h3-locked-private-comment-recipients-dropped", _LOCKED_PRIVATE)):
        if op != "listAnswerComments" or not faults.is_on(name):
            continue
        ids = set(db.ids(f"SELECT n.id FROM nodes n WHERE n.answer_id = ? AND {which}",
                         [request.path_params.get("answer_id")]))
        if ids:
            response = _rewritten(response, partial(_empty_recipients, deep=ids))
    return response


def _drop_recipients(body: dict[str, Any]) -> None:
    body.pop("recipients", None)


def _empty_recipients(body: dict[str, Any], deep: set[int]) -> None:
    for item in body.get("list") or []:
        if isinstance(item, dict) and item.get("id") in deep and item.get("recipients"):
            item["recipients"] = []


def _rewritten(response: Response, change: Callable[[dict[str, Any]], None]) -> Response:
    try:
        body = json.loads(bytes(response.body))
    except ValueError:
        return response
    if not isinstance(body, dict):
        return response
    change(body)
    return Response(json.dumps(body).encode(), media_type=JSON_TYPE)
