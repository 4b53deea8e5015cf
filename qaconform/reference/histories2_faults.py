"""Where the planted faults of the histories and read orders bite (issue 44, histories2; entries in
:mod:`faults_histories2`).

Each breaks one stated rule only at one depth of a thread under a question, only after the answer was locked, or
only when an anonymous read of a URL comes right after a read of it by an account holding a Moderation Roles
permission (a one-slot cache per URL, as a reverse proxy that keys on the URL alone would keep). Every helper checks
``faults.is_on`` first, so a fault costs a set lookup when off.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .db import Database
from .errors import bad_request
from .fragments import JSON_TYPE

KEPT_S = 2.0
"""How long the one-slot caches keep a privileged read's body."""

QUESTION_DEPTH2 = 3
"""The stored depth of a reply to a reply under a comment on a question (the question 0, its comment 1)."""

_last_read: dict[str, tuple[float, bool, bytes]] = {}
"""URL -> (when, whether the reader held a Moderation Roles permission, the body it was served)."""

_ORDER_FAULTS = {
    "listUserAnswers": "h2-locked-deep-answer-ids-anonymous-after-staff",
    "listQuestions": "h2-deep-question-ids-anonymous-after-staff",
    "listAnswerComments": "h2-locked-comments-anonymous-after-staff",
}


def _under_question(node: sqlite3.Row) -> bool:
    return node["type"] == "comment" and node["answer_id"] is None


# --- posting (comments.py) -----------------------------------------------------------------------------------
def reply_visibility(parent: sqlite3.Row, visibility: str | None) -> str | None:
    """h2-question-depth3-rule4-skipped: a reply to a depth-2 reply under a question's comment asking another
    visibility is taken as inheriting (the visibility dropped before rule 4 is checked)."""
    if (visibility is not None and _under_question(parent) and parent["depth"] == QUESTION_DEPTH2
            and parent["visibility"] != "full" and faults.is_on("h2-question-depth3-rule4-skipped")):
        return None
    return visibility


def same_fields_refused(parent: sqlite3.Row, visibility: str | None, recipients: list[int]) -> None:
    """h2-question-depth2-same-fields-refused: a reply repeating the settings of a depth-1 reply under a question's
    comment refused as another visibility."""
    if (visibility is not None and recipients and _under_question(parent) and parent["depth"] == QUESTION_DEPTH2 - 1
            and parent["visibility"] != "full" and faults.is_on("h2-question-depth2-same-fields-refused")):
        raise bad_request("a reply to a private comment inherits its visibility and recipients; give none or the "
                          "same ones")


def stored_privacy(parent: sqlite3.Row, decided: tuple[str, list[int]]) -> tuple[str, list[int]]:
    """h2-question-depth2-reply-public: a reply to a depth-1 reply under a question's comment is stored public."""
    if (_under_question(parent) and parent["depth"] == QUESTION_DEPTH2 - 1 and parent["visibility"] != "full"
            and faults.is_on("h2-question-depth2-reply-public")):
        return "full", []
    return decided


# --- lists (node_lists.py) -----------------------------------------------------------------------------------
def content_clause(clause: str) -> str:
    """h2-question-depth2-content-leak: a content list filters the privacy of a question's threads at depths 0 and
    1 only."""
    if not faults.is_on("h2-question-depth2-content-leak"):
        return clause
    return f"({clause} OR (n.type = 'comment' AND n.answer_id IS NULL AND n.depth = {QUESTION_DEPTH2}))"


# --- responses (dispatch.py) ---------------------------------------------------------------------------------
def after(db: Database, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """A read's response as this round's planted caches and renderings change it."""
    if response.status_code != 200 or request.method != "GET":
        return response
    if op == "readComment" and faults.is_on("h2-question-depth2-recipients-not-returned"):
        return _recipients_dropped(db, request, response)
    name = _ORDER_FAULTS.get(op)
    if name is None or not faults.is_on(name):
        return response
    if op == "listAnswerComments":
        answer = db.one("SELECT locked FROM nodes WHERE id = ?", (request.path_params.get("answer_id"),))
        if answer is None or not answer["locked"]:
            return response
    if op == "listAnswerComments":
        return _one_slot(str(request.url), caller, response, None)
    query = _LOCKED_WITH_DEEP_REPLY if op == "listUserAnswers" else _WITH_DEEP_REPLY
    return _one_slot(str(request.url), caller, response, lambda i: db.one(query, (i,)) is not None)


_LOCKED_WITH_DEEP_REPLY = ("SELECT 1 FROM nodes a WHERE a.id = ? AND a.locked = 1 AND EXISTS (SELECT 1 FROM nodes c"
                           " WHERE c.answer_id = a.id AND c.type = 'comment' AND c.depth >= 4)")
"""An answer (depth 1) that is locked and holds a reply to a reply (its comments at depth 2, their replies 3)."""
_WITH_DEEP_REPLY = (f"SELECT 1 FROM nodes q WHERE q.id = ? AND EXISTS (SELECT 1 FROM nodes c WHERE c.question_id = q.id"
                    f" AND c.type = 'comment' AND c.answer_id IS NULL AND c.depth >= {QUESTION_DEPTH2})")
"""A question that holds a reply to a reply under one of its own comments."""


def _one_slot(key: str, caller: Caller, response: Response, kept: Callable[[Any], bool] | None) -> Response:
    """The body a privileged reader was served last for this URL, given to an anonymous read right after it: the
    whole page, or (``kept``) only the items ``kept`` names, the rest of the page as anonymous's own."""
    now = time.monotonic()
    last = _last_read.get(key)
    _last_read[key] = (now, caller.sees_moderation and not caller.anonymous, bytes(response.body))
    if not (caller.anonymous and last is not None and last[1] and now - last[0] < KEPT_S):
        return response
    if kept is None:
        return Response(last[2], media_type=JSON_TYPE)
    try:
        mine, theirs = json.loads(bytes(response.body)), json.loads(last[2])
    except ValueError:
        return response
    if not (isinstance(mine, dict) and isinstance(theirs, dict) and isinstance(mine.get("list"), list)):
        return response
    staff = {i.get("id"): i for i in theirs.get("list") or [] if isinstance(i, dict)}
    swapped = [staff.get(i.get("id"), i) if isinstance(i, dict) and kept(i.get("id")) else i for i in mine["list"]]
    if swapped == mine["list"]:
        return response
    mine["list"] = swapped
    return Response(json.dumps(mine).encode(), media_type=JSON_TYPE)


def _recipients_dropped(db: Database, request: Request, response: Response) -> Response:
    node = db.one("SELECT type, answer_id, depth FROM nodes WHERE id = ?", (request.path_params.get("node_id"),))
    if node is None or not _under_question(node) or node["depth"] != QUESTION_DEPTH2:
        return response
    try:
        body = json.loads(bytes(response.body))
    except ValueError:
        return response
    if isinstance(body, dict) and "recipients" in body:
        del body["recipients"]
    return Response(json.dumps(body).encode(), media_type=JSON_TYPE)
