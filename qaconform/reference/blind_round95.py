"""Where blind round 95's faults bite (faults_blind_round95.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import PERMISSION_MESSAGE
from .fragments import dumps
from .hook_kit import (
    after_by_op,
    handled_with,
    kept_by_url,
    kept_json_object,
    path_node,
    sent_fields,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_json_body, with_query
from .service import Service, now_ms

KEPT_S = 3.0
"""How long round95-answer-comments-sized-kept-by-url keeps a sized comment list by its URL."""
_kept: dict[str, tuple[float, Response]] = {}
_READS_BODY = ("round95-gdpr-email-passwordless-user-refused", "round95-gdpr-suspend-only-formatted-past-accepted",
               "round95-gdpr-username-user-time-frame-unchecked", "round95-inherited-reply-author-is-parent-author",
               "round95-comment-params-beside-empty-json-object-400",
               "round95-reply-public-after-unwikify-privacy-dropped",
               "round95-kind-comment-visibility-param-beside-empty-object-dropped",
               "round95-kind-private-reply-to-public-author-is-parent-author")
_NEXT_FREE_MS = 3 * 366 * 86_400_000
"""Where the faulty job branches look for a free minute: well past every date the run asks for."""
_PRIVACY = ("visibility", "recipients")


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    q = request.query_params
    if op == "listNodeFollowers" and faults.is_on("round95-followers-wrap-untrusted-403") and "wrap" in q \
            and not caller.anonymous and not caller.can(auth.PUBLISH_ANSWER):
        return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)
    if op == "scheduleGdprJob" and faults.is_on("round95-gdpr-email-passwordless-user-refused") \
            and _passwordless_email_user(svc, sent_fields(request)):
        return json_response({"error": "The provided 'user' is invalid"}, 400)
    if op == "lockNode" and faults.is_on("round95-lock-comment-in-followed-thread") and not caller.anonymous \
            and caller.can(auth.LOCK_OWN) and not caller.can(auth.LOCK_ANY):
        node = path_node(svc, request)
        if node is not None and node["type"] == "comment" and node["author_id"] != caller.id and svc.db.one(
                "SELECT 1 FROM follows WHERE node_id = ? AND user_id = ? AND active = 1",
                (node["question_id"], caller.id)) is not None:
            return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)
    if op == "listQuestions" and faults.is_on("round95-questions-spaceid-dropped-with-wrap") \
            and "spaceId" in q and "wrap" in q:
        response: Response = await handler(svc, with_query(request, [(k, v) for k, v in q.multi_items()
                                                                     if k != "spaceId"]), caller)
        return response
    return None


def _passwordless_email_user(svc: Service, fields: dict[str, Any]) -> bool:
    """round95-gdpr-email-passwordless-user-refused: an individual job's user by email alone, a user without login."""
    try:
        user = structured(fields, "user")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return False
    if fields.get("type") != "individual" or not isinstance(user, dict):
        return False
    given = [k for k in ("username", "email", "id") if user.get(k) not in (None, "")]
    if given != ["email"] or not isinstance(user["email"], str):
        return False
    row = svc.db.one("SELECT password_hash FROM users WHERE email = ?", (user["email"],))
    return row is not None and row["password_hash"] is None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "scheduleGdprJob":
        return _job(svc, request)
    if op == "postComment" and faults.is_on("round95-comment-params-beside-empty-json-object-400") \
            and kept_json_object(request) == {} and "body" in request.query_params:
        parent = path_node(svc, request)
        if parent is not None and parent["type"] in ("question", "answer"):
            return with_query(request, [])
    if op == "postComment" and faults.is_on("round95-kind-comment-visibility-param-beside-empty-object-dropped") \
            and kept_json_object(request) == {} and "visibility" in request.query_params:
        return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k not in _PRIVACY])
    return request


def _replaced(request: Request, key: str, value: Any) -> Request:
    """The request with field ``key`` set to ``value`` where the client sent it (parameter or JSON body)."""
    q = request.query_params
    if key in q:
        text = value if isinstance(value, str) else json.dumps(value)
        return with_query(request, [*[(k, v) for k, v in q.multi_items() if k != key], (key, text)])
    body = kept_json_object(request)
    if body is not None and key in body:
        return with_json_body(request, {**body, key: value})
    return request


def _formatted_ms(date: Any) -> int | None:
    formatted = date.get("formatted") if isinstance(date, dict) else None
    if not isinstance(formatted, str):
        return None
    try:
        return int(datetime.strptime(formatted, "%m/%d/%Y %H:%M").replace(tzinfo=UTC).timestamp() * 1000)
    except ValueError:
        return None


def _stamp_ms(date: Any) -> int | None:
    if not isinstance(date, dict) or date.get("formatted") is not None:
        return _formatted_ms(date)
    stamp = date.get("timeStamp")
    return stamp if isinstance(stamp, int) and not isinstance(stamp, bool) else None


def _free_minute_ms(svc: Service) -> int:
    """A whole minute well past now that no job holds."""
    minute = (now_ms() + _NEXT_FREE_MS) // 60_000
    while svc.db.one("SELECT 1 FROM jobs WHERE schedule_minute = ?", (minute,)) is not None:
        minute += 1
    return minute * 60_000


def _job(svc: Service, request: Request) -> Request:
    fields = sent_fields(request)
    try:
        user, date, operations = (structured(fields, "user"), structured(fields, "scheduleDate"),
                                  structured(fields, "operations"))
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return request
    if faults.is_on("round95-gdpr-suspend-only-formatted-past-accepted") and operations == ["suspend"]:
        when = _formatted_ms(date)
        if when is not None and when < now_ms():
            return _replaced(request, "scheduleDate", {"timeStamp": _free_minute_ms(svc)})
    if faults.is_on("round95-gdpr-username-user-time-frame-unchecked") and fields.get("type") == "individual" \
            and isinstance(user, dict) and [k for k in ("username", "email", "id")
                                            if user.get(k) not in (None, "")] == ["username"]:
        when = _stamp_ms(date)
        if when is not None and when >= now_ms() and svc.db.one(
                "SELECT 1 FROM jobs WHERE schedule_minute = ?", (when // 60_000,)) is not None:
            return _replaced(request, "scheduleDate", {"timeStamp": _free_minute_ms(svc)})
    return request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round95-lock-restricted-space-extra-null") or node is None or svc.db.one(
            "SELECT 1 FROM space_denied WHERE space_id = ?", (node["space_id"],)) is None:
        return response
    action = svc.db.one("SELECT id FROM actions WHERE node_id = ? AND verb = 'locked' AND user_id = ? "
                        "ORDER BY id DESC LIMIT 1", (node["id"], caller.id))
    if action is not None:
        with svc.tx("lock") as conn:
            conn.execute("UPDATE actions SET extra = NULL WHERE id = ?", (action["id"],))
    return with_action(response, "lockAction", {"extra": None})


def _sendtomod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round95-sendtomod-solved-question-realuser-accepted-author") or node is None \
            or node["type"] != "question" or not node["marked"]:
        return response
    accepted = svc.db.one("SELECT author_id FROM nodes WHERE question_id = ? AND type = 'answer' AND marked = 1 "
                          "ORDER BY id LIMIT 1", (node["id"],))
    if accepted is None or accepted["author_id"] == caller.id:
        return response
    author = svc.render.users_by_id([accepted["author_id"]]).get(accepted["author_id"])
    if author is None:
        return response
    action = svc.db.one("SELECT id FROM actions WHERE node_id = ? AND verb = 'sent' ORDER BY id DESC LIMIT 1",
                        (node["id"],))
    if action is not None:
        with svc.tx() as conn:
            conn.execute("UPDATE actions SET real_user_id = ? WHERE id = ?", (author["id"], action["id"]))
    return with_action(response, "sendToModAction", {"realUser": svc.render.action_user_json(author)})


def _cancelwiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round95-cancelwiki-own-permission-stays-wiki") or node is None \
            or caller.can(auth.MARK_WIKI) or node["author_id"] != caller.id or node["wiki"]:
        return response
    with svc.tx("wiki") as conn:
        conn.execute("UPDATE nodes SET wiki = 1 WHERE id = ?", (node["id"],))
    return response


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    question = path_node(svc, request, "question_id")
    if not faults.is_on("round95-answer-wiki-question-no-parent-author") or question is None \
            or not question["wiki"]:
        return response
    body = body_json(response)
    if not isinstance(body, dict) or body.pop("parentAuthor", None) is None:
        return response
    return with_body(response, body)


def _new_comment(svc: Service, parent: sqlite3.Row, caller: Caller) -> Any:
    return svc.db.one("SELECT id FROM nodes WHERE parent_id = ? AND author_id = ? AND type = 'comment' "
                      "ORDER BY id DESC LIMIT 1", (parent["id"], caller.id))


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "comment":
        return response
    sent = sent_fields(request)
    inheriting = faults.is_on("round95-inherited-reply-author-is-parent-author") and parent["visibility"] != "full" \
        and not any(sent.get(k) not in (None, "") for k in _PRIVACY)
    own_private = faults.is_on("round95-kind-private-reply-to-public-author-is-parent-author") \
        and parent["visibility"] == "full" and sent.get("visibility") not in (None, "", "full")
    if (inheriting or own_private) and parent["author_id"] != caller.id:
        row = _new_comment(svc, parent, caller)
        if row is not None:
            with svc.tx("comment") as conn:
                conn.execute("UPDATE nodes SET author_id = ? WHERE id = ?", (parent["author_id"], row["id"]))
            body = body_json(response)
            if isinstance(body, dict) and "author" in body:
                body["author"] = svc.render.nodes_json(svc.render.nodes_by_ids([row["id"]]), caller)[0]["author"]
                return with_body(response, body)
        return response
    if faults.is_on("round95-reply-public-after-unwikify-privacy-dropped") and parent["visibility"] == "full" \
            and sent.get("visibility") not in (None, "", "full"):
        thread = parent["answer_id"] or parent["question_id"]
        if svc.db.one("SELECT 1 FROM actions WHERE node_id IN (?, ?) AND verb = 'wikified' AND canceled = 1",
                      (thread, parent["question_id"])) is None:
            return response
        row = _new_comment(svc, parent, caller)
        if row is None:
            return response
        with svc.tx("comment") as conn:
            conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (row["id"],))
            conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (row["id"],))
        body = body_json(response)
        if isinstance(body, dict) and "visibility" in body:
            body["visibility"] = "full"
            body["recipients"] = []
            return with_body(response, body)
    return response


def _comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round95-answer-comments-sized-kept-by-url") and "pageSize" in request.query_params:
        return kept_by_url(_kept, KEPT_S, request, response)
    return response


def _content(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round95-content-group-comments-listed: the listed user's group-private comments shown to every reader."""
    body = body_json(response)
    if not faults.is_on("round95-content-group-comments-listed") or not isinstance(body, list):
        return response
    from .node_lists import _node_entry  # noqa: PLC0415 - the handler's own entry builder

    shown = {e["node"]["id"] for e in body if isinstance(e, dict) and isinstance(e.get("node"), dict)}
    raw = str(request.path_params.get("user_id", ""))
    if not raw.isdecimal():
        return response
    rows = [r for r in svc.db.conn.execute(
        "SELECT * FROM nodes WHERE author_id = ? AND type = 'comment' AND visibility = 'group'", (int(raw),))
        if r["id"] not in shown]
    if not rows:
        return response
    nodes = [e for e in body if isinstance(e, dict) and isinstance(e.get("node"), dict)]
    others = [e for e in body if not (isinstance(e, dict) and isinstance(e.get("node"), dict))]
    created = {r["id"]: r["creation_date"] for r in svc.db.conn.execute(
        f"SELECT id, creation_date FROM nodes WHERE id IN ({','.join('?' * len(shown))})", tuple(shown))} \
        if shown else {}
    joined_first = bool(body) and not (isinstance(body[0], dict) and isinstance(body[0].get("node"), dict))
    added = [(r["creation_date"], r["id"], json.loads(dumps(_node_entry(r)))) for r in rows]
    keyed = [(created.get(e["node"]["id"], 0), e["node"]["id"], e) for e in nodes] + added
    keyed.sort(key=lambda t: (t[0], t[1]), reverse=not joined_first)
    merged = [e for _, _, e in keyed]
    return with_body(response, [*others, *merged] if joined_first else [*merged, *others])


_AFTER = {
    "lockNode": _lock,
    "sendToModeration": _sendtomod,
    "cancelWiki": _cancelwiki,
    "postAnswer": _answer,
    "postComment": _comment,
    "listAnswerComments": _comments,
    "listUserContent": _content,
}
after = after_by_op(_AFTER)
