"""Where the planted faults of :mod:`faults_recip` bite (issue 44, recip). Every helper checks ``faults.is_on``
first, so a fault costs a set lookup when off."""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .http_io import json_response

FRESH_REPLY_BY_ANSWER: dict[int, int] = {}
"""recip-fresh-reply-author-id-string: the reply just posted under an answer, by answer id, until the next read of
that answer's comment list (the write-through cache serves it as the write path built it)."""

_LOCATION_ID = re.compile(r"/(\d+)\.(?:json|html)$")

PRIVATE_UNDER_PUBLIC_REPLY = (
    "(n.type = 'comment' AND n.visibility <> 'full' AND EXISTS (SELECT 1 FROM nodes r WHERE r.id = n.parent_id AND"
    " r.type = 'comment' AND r.visibility = 'full' AND EXISTS (SELECT 1 FROM nodes g WHERE g.id = r.parent_id AND"
    " g.type = 'comment')))")
"""A private comment whose parent is a public comment that is itself a reply."""


# --- posting (comments.py) -----------------------------------------------------------------------------------
def question_recipients(parent: sqlite3.Row, fields: dict[str, Any]) -> dict[str, Any]:
    """recip-question-comment-mixed-forms-strings-dropped: under a question, a mixed list typed by its first item."""
    items = fields.get("recipients")
    if (not faults.is_on("recip-question-comment-mixed-forms-strings-dropped") or parent["type"] != "question"
            or not isinstance(items, list) or not items or not isinstance(items[0], dict)
            or not isinstance(items[0].get("id"), int)):
        return fields
    kept = [i for i in items if not (isinstance(i, dict) and isinstance(i.get("id"), str))]
    return {**fields, "recipients": kept}


# --- lists (node_lists.py) -----------------------------------------------------------------------------------
def answer_comments_clause(clause: str) -> str:
    """recip-private-under-public-reply-listed-to-all: such a comment unfiltered in the answer's comment list."""
    if faults.is_on("recip-private-under-public-reply-listed-to-all"):
        return f"({clause} OR {PRIVATE_UNDER_PUBLIC_REPLY})"
    return clause


# --- responses (request_hooks.py) ----------------------------------------------------------------------------
def after(svc: Any, op: str, request: Request, caller: Any, response: Response) -> Response:
    """recip-fresh-reply-author-id-string: a reply's post remembered; the next read of its answer's list rewritten."""
    if not faults.is_on("recip-fresh-reply-author-id-string") or op not in ("postComment", "listAnswerComments"):
        return response
    raw = str(request.path_params.get("node_id" if op == "postComment" else "answer_id", ""))
    if not (raw.isdecimal() and len(raw) < 19):
        return response
    if op == "postComment":
        parent = svc.db.one("SELECT type, answer_id FROM nodes WHERE id = ?", (int(raw),))
        found = _LOCATION_ID.search(response.headers.get("location", ""))
        if response.status_code == 201 and parent is not None and parent["type"] == "comment" and found \
                and parent["answer_id"] is not None:
            FRESH_REPLY_BY_ANSWER[int(parent["answer_id"])] = int(found.group(1))
        return response
    fresh = FRESH_REPLY_BY_ANSWER.pop(int(raw), None)
    if fresh is None or response.status_code != 200:
        return response
    try:
        body = json.loads(bytes(response.body))
    except ValueError:
        return response
    items = body.get("list") if isinstance(body, dict) else None
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("id") == fresh and isinstance(item.get("author"), dict):
            item["author"] = {**item["author"], "id": str(item["author"].get("id"))}
            return json_response(body, response.status_code)
    return response
