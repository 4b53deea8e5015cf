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
_plain_counts: dict[str, tuple[float, int]] = {}
"""URL -> (when, the totalCount a reader without a Moderation Roles permission was served)."""

_ORDER_FAULTS = {
    "listUserContent": "h2-content-anonymous-after-staff",
    "listUserAnswers": "h2-locked-answer-ids-anonymous-after-staff",
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
    if op == "listAnswerComments" and faults.is_on("h2-comment-count-staff-after-plain"):
        return _count_of_plain_reader(str(request.url), caller, response)
    name = _ORDER_FAULTS.get(op)
    if name is None or not faults.is_on(name):
        return response
    if op == "listAnswerComments":
        answer = db.one("SELECT locked FROM nodes WHERE id = ?", (request.path_params.get("answer_id"),))
        if answer is None or not answer["locked"]:
            return response
    if op == "listUserAnswers" and not _holds_locked(db, response):
        return response
    return _one_slot(str(request.url), caller, response)


def _holds_locked(db: Database, response: Response) -> bool:
    try:
        body = json.loads(bytes(response.body))
    except ValueError:
        return False
    ids = [i.get("id") for i in body.get("list") or [] if isinstance(i, dict)] if isinstance(body, dict) else []
    return any(db.one("SELECT 1 FROM nodes WHERE id = ? AND locked = 1", (i,)) is not None for i in ids
               if isinstance(i, int))


def _count_of_plain_reader(key: str, caller: Caller, response: Response) -> Response:
    """h2-comment-count-staff-after-plain: the count a plain reader was served, kept by URL, given to the next
    reader that holds a Moderation Roles permission."""
    try:
        body = json.loads(bytes(response.body))
    except ValueError:
        return response
    if not isinstance(body, dict) or not isinstance(body.get("totalCount"), int):
        return response
    now = time.monotonic()
    staff = caller.sees_moderation and not caller.anonymous
    kept = _plain_counts.get(key)
    if not staff and not caller.anonymous:
        _plain_counts[key] = (now, body["totalCount"])
        return response
    if staff and kept is not None and now - kept[0] < KEPT_S:
        _plain_counts.pop(key, None)
        body["totalCount"] = kept[1]
        return Response(json.dumps(body).encode(), media_type=JSON_TYPE)
    return response


def _one_slot(key: str, caller: Caller, response: Response) -> Response:
    now = time.monotonic()
    last = _last_read.get(key)
    if caller.anonymous and last is not None and last[1] and now - last[0] < KEPT_S:
        _last_read.pop(key, None)
        return Response(last[2], media_type=JSON_TYPE)
    _last_read[key] = (now, caller.sees_moderation and not caller.anonymous, bytes(response.body))
    return response


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
