"""Where the faults of blind round 44 (faults_blind_round44.py) bite: hooks of :mod:`request_hooks` around the
call (``before``, ``admitted``, ``after``) and three small functions the server modules call where the query they
change is built (the user's question list, an answer's comments, the own check of cancel wiki, the reassignUser
look-up). Each is a no-op unless its fault is on.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .db import Database
from .http_io import body_json, json_response, with_body, with_query
from .service import Service
from .visibility import wire_name

OVERRIDE_ONLY = ("round44-sendtomod-member-wrap",)
"""The round's fault made by a route-table override alone (access.py applies it): named here so that every fault
of the round is wired in the server's code."""

STARTED_MS = time.time_ns() // 1_000_000
"""When the server started: round44-question-lastactive-seconds tells activity of the run by it."""

ISSUE_CACHE_S = 2.0
_issue_read: list[float] = []
"""When the issue types were last read fresh (round44-issuetypes-cached-names)."""


# --- before: a response in place of the handler's
async def before(svc: Service, op: str, request: Request, caller: Caller, _handler: Any) -> Response | None:
    if op == "listUserContent" and faults.is_on("round44-content-node-id-empty"):
        raw = str(request.path_params.get("user_id", ""))
        if raw.isascii() and raw.isdecimal() and len(raw) < 12 and not svc.user_exists(int(raw)) and svc.db.one(
                "SELECT 1 FROM nodes WHERE id = ?", (int(raw),)) is not None:
            return json_response([])  # the id found in the shared id space: a principal with no content
    return None


# --- admitted: the request as the broken server reads it
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listQuestions" and "q" in q and "spaceId" in q and faults.is_on("round44-spaceid-ignored-with-q"):
        return with_query(request, [(k, v) for k, v in q.multi_items() if k != "spaceId"])
    if op == "scheduleGdprJob" and "operations" in q and faults.is_on("round44-gdpr-operations-param-first-only"):
        first = _first_operation(q.getlist("operations")[-1])
        pairs = [(k, v) for k, v in q.multi_items() if k != "operations"]
        return with_query(request, [*pairs, ("operations", first)])
    return request


def _first_operation(raw: str) -> str:
    """The first element of an operations list given as a parameter (JSON array text or comma-separated)."""
    text = raw.strip()
    if text.startswith("["):
        try:
            parsed = json.loads(text)
        except ValueError:
            return raw
        return str(parsed[0]) if isinstance(parsed, list) and parsed else raw
    return text.split(",")[0].strip()


# --- after: the handler's response as the broken server serves it
def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if not 200 <= response.status_code < 300:
        return response
    if op == "listNodeFollowers" and faults.is_on("round44-followers-inactive-as-relations"):
        return _followers_as_relations(svc.db, request, response)
    if op in ("listQuestions", "listUserQuestions") and faults.is_on("round44-question-lastactive-seconds"):
        return _lastactive_seconds(response)
    if op == "listIssueTypes" and faults.is_on("round44-issuetypes-cached-names"):
        return _issue_types_cached(response)
    if op == "postComment" and faults.is_on("round44-kind-inherited-reply-location-names-parent"):
        return _inherited_reply_location(svc.db, request, response)
    if op == "postComment" and faults.is_on("round44-own-public-reply-privacy-dropped"):
        return _own_reply_public(svc, request, caller, response)
    if op == "postComment" and faults.is_on("round44-reply-to-reply-no-location"):
        return _reply_to_reply_unlocated(svc.db, request, response)
    if op == "postAnswer" and faults.is_on("round44-moderated-answer-date-24h"):
        return _moderated_answer_date(svc.db, response)
    if op == "sendToModeration" and faults.is_on("round44-sendtomod-answer-verb"):
        return _answer_verb(svc.db, request, response)
    return response


def _node(db: Database, request: Request, key: str = "node_id") -> sqlite3.Row | None:
    raw = str(request.path_params.get(key, ""))
    if not (raw.isascii() and raw.isdecimal() and len(raw) < 12):
        return None
    return db.one("SELECT * FROM nodes WHERE id = ?", (int(raw),))


def _followers_as_relations(db: Database, request: Request, response: Response) -> Response:
    q = request.query_params
    if q.get("active", "").lower() != "false" or q.get("details", "false").lower() == "true":
        return response
    node, body = _node(db, request), body_json(response)
    if node is None or not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    relations = []
    for item in body["list"]:
        row = db.one("SELECT active FROM follows WHERE node_id = ? AND user_id = ?",
                     (node["id"], item.get("id") if isinstance(item, dict) else None))
        relations.append({"user": item, "node": {"id": node["id"], "type": node["type"]},
                          "active": bool(row["active"]) if row is not None else True})
    body["list"] = relations
    return with_body(response, body)


def _lastactive_seconds(response: Response) -> Response:
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    changed = False
    for item in body["list"]:
        when = item.get("lastActiveDate") if isinstance(item, dict) else None
        if isinstance(when, int) and when > STARTED_MS and item.get("type", "question") == "question":
            item["lastActiveDate"] = when // 1000
            changed = True
    return with_body(response, body) if changed else response


def _issue_types_cached(response: Response) -> Response:
    body = body_json(response)
    if not isinstance(body, list):
        return response
    now = time.monotonic()
    if _issue_read and now - _issue_read[0] < ISSUE_CACHE_S:
        return with_body(response, [i.get("name") if isinstance(i, dict) else i for i in body])
    _issue_read[:] = [now]
    return response


def _own_reply_public(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    parent = _node(svc.db, request)
    if (parent is None or parent["type"] != "comment" or parent["visibility"] != "full"
            or parent["author_id"] != caller.id):
        return response
    reply = svc.db.one("SELECT id, visibility FROM nodes WHERE parent_id = ? AND author_id = ? AND type = 'comment'"
                       " ORDER BY id DESC LIMIT 1", (parent["id"], caller.id))
    if reply is None or reply["visibility"] == "full":
        return response
    with svc.tx("comment") as conn:  # the thread's author continues it: kept public
        conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (reply["id"],))
        conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (reply["id"],))
    body = body_json(response)
    if isinstance(body, dict) and "visibility" in body:
        shown = wire_name("full")
        if shown is None:
            body.pop("visibility", None)
            body.pop("recipients", None)
        else:
            body["visibility"], body["recipients"] = shown, []
        return with_body(response, body)
    return response


def _reply_to_reply_unlocated(db: Database, request: Request, response: Response) -> Response:
    parent = _node(db, request)
    if parent is None or parent["type"] != "comment":
        return response
    grand = db.one("SELECT type FROM nodes WHERE id = ?", (parent["parent_id"],))
    if grand is not None and grand["type"] == "comment" and "location" in response.headers:
        del response.headers["location"]  # the URL built from the thread's root, which a third level lacks
    return response


def _inherited_reply_location(db: Database, request: Request, response: Response) -> Response:
    parent = _node(db, request)
    location = response.headers.get("location", "")
    found = re.search(r"(\d+)(?!.*\d)", location)
    if parent is None or parent["type"] != "comment" or parent["visibility"] == "full" or found is None:
        return response
    response.headers["location"] = location[:found.start()] + str(parent["id"]) + location[found.end():]
    return response  # the URL of the thread's settings, built from the node the reply inherits them from


def _moderated_answer_date(db: Database, response: Response) -> Response:
    body = body_json(response)
    if not isinstance(body, dict) or body.get("id") is None:
        return response
    row = db.one("SELECT in_moderation, creation_date FROM nodes WHERE id = ?", (str(body["id"]),))
    if row is None or not row["in_moderation"] or "creationDateFormatted" not in body:
        return response
    when = datetime.fromtimestamp(row["creation_date"] / 1000, tz=UTC)
    body["creationDateFormatted"] = when.strftime("%m/%d/%Y %H:%M")  # the moderation queue's own serializer
    return with_body(response, body)


def _answer_verb(db: Database, request: Request, response: Response) -> Response:
    node, body = _node(db, request), body_json(response)
    if node is None or node["type"] != "answer" or not isinstance(body, dict):
        return response
    action = (body.get("result") or {}).get("sendToModAction") if isinstance(body.get("result"), dict) else None
    if not isinstance(action, dict):
        return response
    action["verb"] = "queued"
    return with_body(response, body)


# --- called by the server modules where their queries are built
def user_questions_owner(kind: str, where: list[str], params: list[Any]) -> None:
    """node_lists._user_nodes: the owner clause of a user's questions reads the follow table too."""
    if kind == "question" and faults.is_on("round44-user-questions-followed"):
        where[0] = ("(n.author_id = ? OR n.id IN (SELECT f.node_id FROM follows f WHERE f.user_id = ?"
                    " AND f.active = 1))")
        params.insert(1, params[0])


def answer_comments_clause(answer: sqlite3.Row, caller: Caller, clause: str) -> str:
    """node_lists._answer_comments: the answer's author reads every comment under it."""
    if caller.anonymous or answer["author_id"] != caller.id or not faults.is_on(
            "round44-answer-author-reads-all-comments"):
        return clause
    return f"({clause} OR n.answer_id = {int(answer['id'])})"


def cancelwiki_owns(db: Database, caller: Caller, node: sqlite3.Row) -> bool:
    """actions.cancel_wiki: a wiki question counts as own for an account that answered it."""
    if caller.anonymous or node["type"] != "question" or not faults.is_on("round44-cancelwiki-answerer-owns"):
        return False
    return db.one("SELECT 1 FROM nodes WHERE type = 'answer' AND question_id = ? AND author_id = ?",
                  (node["id"], caller.id)) is not None


def lock_answerer_owns(db: Database, caller: Caller, node: sqlite3.Row) -> bool:
    """actions.lock: a question counts as own for an account that answered it (round44-kind-lock-answerer-owns)."""
    if caller.anonymous or node["type"] != "question" or not faults.is_on("round44-kind-lock-answerer-owns"):
        return False
    return db.one("SELECT 1 FROM nodes WHERE type = 'answer' AND question_id = ? AND author_id = ?",
                  (node["id"], caller.id)) is not None


def reassign_names_group(db: Database, reassign: Any) -> bool:
    """gdpr_jobs._check_reassign_user: a reassignUser username that names a group is taken as found."""
    if not isinstance(reassign, dict) or not isinstance(reassign.get("username"), str) or not faults.is_on(
            "round44-reassign-group-name-accepted"):
        return False
    name = reassign["username"]
    return (db.one("SELECT 1 FROM users WHERE username = ?", (name,)) is None
            and db.one("SELECT 1 FROM groups WHERE name = ?", (name,)) is not None)
