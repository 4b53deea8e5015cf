"""Where blind round 51's faults bite (faults_blind_round51.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

round51-sendtomod-wrap-any-signed-in needs no code here: it is an override of the send-to-moderation row (the door
decides it), named here so that every fault of the round is wired by name in the server's code.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import read_fields
from .errors import ApiError
from .hook_kit import after_by_op, each_item, kept_json_object, let_in_through, path_node, result_action
from .http_io import body_json, json_response, with_body, with_json_body, with_query, with_raw_body
from .service import Service

OVERRIDE_ONLY = ("round51-sendtomod-wrap-any-signed-in",)
"""The round's fault decided at the door by its override (faults_blind_round51.py), not by code here."""

_READS_BODY = ("round51-individual-user-from-reassign", "round51-private-op-own-question-answer-403",
               "round51-comment-form-body-undecoded", "round51-gdpr-user-id-string-refused")


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "listTopics" and faults.is_on("round51-topics-password-colon-refused"):
        return _credentials_refused(request, caller, lambda password: ":" in password)
    if op == "listNodeFollowers" and faults.is_on("round51-kind-followers-password-non-ascii-refused"):
        return _credentials_refused(request, caller, lambda password: not password.isascii())
    if op == "postComment" and faults.is_on("round51-private-op-own-question-answer-403"):
        return await _private_op_own_question(svc, request, caller)
    if op == "lockNode" and faults.is_on("round51-lock-comment-on-own-answer"):
        return await _lock_by_parent_author(svc, request, caller, handler)
    if op == "scheduleGdprJob" and faults.is_on("round51-gdpr-user-id-string-refused"):
        body = kept_json_object(request, loose=True)
        user = body.get("user") if body is not None else None
        if body is not None and body.get("type") == "individual" and isinstance(user, dict) and set(user) == {"id"} \
                and isinstance(user["id"], str) and user["id"].isdecimal():
            return json_response({"error": "The provided 'user' is invalid"}, 400)
    return None


def _credentials_refused(request: Request, caller: Caller, refused: Callable[[str], bool]) -> Response | None:
    """round51-topics-password-colon-refused (the credentials split at the last colon) and
    round51-kind-followers-password-non-ascii-refused (decoded as Latin-1): a valid password ``refused`` names."""
    header = request.headers.get("authorization", "")
    if caller.anonymous or not header.lower().startswith("basic "):
        return None
    try:
        decoded = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    if not refused(decoded.partition(":")[2]):
        return None
    return json_response({"errors": {"message": "You don't have permission to perform this action. Log in as "
                                                "another user."}}, 401)


async def _private_op_own_question(svc: Service, request: Request, caller: Caller) -> Response | None:
    """round51-private-op-own-question-answer-403: op on an answer to the caller's own question refused."""
    if caller.anonymous or not caller.can(auth.USE_PRIVATE_COMMENTS, auth.PRIVATE_TO_OP):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "answer":
        return None
    question = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (node["question_id"],))
    if question is None or question["author_id"] != caller.id:
        return None
    try:
        fields = await read_fields(request)
    except ApiError:
        return None
    if fields.get("visibility") != "op" or not fields.get("body"):
        return None
    return json_response({"errors": {"message": "You don't have permission to send private comments."}}, 403)


async def _lock_by_parent_author(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round51-lock-comment-on-own-answer: "own" taken as having written the comment's parent."""
    return await let_in_through(svc, request, caller, handler, kind="comment", own=auth.LOCK_OWN,
                                granted=auth.LOCK_ANY, through=("parent_id",))


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "scheduleGdprJob" and faults.is_on("round51-individual-user-from-reassign"):
        body = kept_json_object(request, loose=True)
        if body is not None and body.get("type") == "individual" and body.get("user") is None \
                and isinstance(body.get("reassignUser"), dict) and "user" not in request.query_params:
            return with_json_body(request, {**body, "user": body["reassignUser"]})
    if op == "postComment" and faults.is_on("round51-comment-form-body-undecoded"):
        return _form_body_undecoded(request)
    if op == "listQuestions" and faults.is_on("round51-questions-spaceid-ignored-with-sort"):
        q = request.query_params
        if q.get("spaceId") and q.get("sort") and q.get("sort") != "active":
            return with_query(request, [(k, v) for k, v in q.multi_items() if k != "spaceId"])
    return request


def _form_body_undecoded(request: Request) -> Request:
    """round51-comment-form-body-undecoded: a form body's body field kept percent-encoded."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    raw = vars(request).get("_body")
    if media != "application/x-www-form-urlencoded" or not raw:
        return request
    try:
        text = bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        return request
    found = re.search(r"(?:^|&)body=([^&]*)", text)
    if found is None or not re.search(r"[%+]", found.group(1)):
        return request
    pairs = [(k, found.group(1) if k == "body" else v) for k, v in parse_qsl(text, keep_blank_values=True)]
    return with_raw_body(request, urlencode(pairs).encode())


# --- after: the handler's response as the broken server serves it --------------------------------------------
def _post_answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not faults.is_on("round51-answer-child-space-moderated"):
        return response
    body = body_json(response)
    raw = str(body.get("id")) if isinstance(body, dict) else ""
    answer = svc.db.one("SELECT id, question_id, space_id, in_moderation FROM nodes WHERE id = ?",
                        (int(raw),)) if raw.isdecimal() else None
    if answer is None or answer["in_moderation"] or not caller.can(auth.PUBLISH_ANSWER):
        return response
    space = svc.db.one("SELECT parent_id FROM spaces WHERE id = ?", (answer["space_id"],))
    if space is None or space["parent_id"] is None:
        return response
    with svc.tx("answer", "answer_count") as conn:
        conn.execute("UPDATE nodes SET in_moderation = 1 WHERE id = ?", (answer["id"],))
        conn.execute("UPDATE nodes SET answer_count = MAX(answer_count - 1, 0) WHERE id = ?",
                     (answer["question_id"],))
    return response


def _spaces(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on("round51-spaces-explicit-page-active-integer") and "page" in request.query_params):
        return response
    return each_item(response, _active_as_integer)


def _active_as_integer(item: dict[str, Any]) -> None:
    if isinstance(item.get("active"), bool):
        item["active"] = int(item["active"])


def _send_to_mod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round51-sendtomod-own-node-not-private"):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    if node is None or node["author_id"] != caller.id or action is None:
        return response
    action["private"] = False
    with svc.tx() as conn:
        conn.execute("UPDATE actions SET private = 0 WHERE id = ?", (action.get("id"),))
    return with_body(response, body)


def _content(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round51-content-private-comment-date-no-fraction"):
        return response
    body = body_json(response)
    if not isinstance(body, list):
        return response
    ids = [e["node"]["id"] for e in body if isinstance(e, dict) and isinstance(e.get("node"), dict)
           and e["node"].get("type") == "comment" and isinstance(e["node"].get("id"), int)]
    private = {r["id"] for r in svc.db.all(
        f"SELECT id FROM nodes WHERE visibility != 'full' AND id IN ({','.join('?' * len(ids))})", ids)} if ids \
        else set()
    changed = False
    for entry in body:
        node = entry.get("node") if isinstance(entry, dict) else None
        if isinstance(node, dict) and node.get("id") in private and isinstance(entry.get("actionDate"), str):
            entry["actionDate"] = entry["actionDate"].rsplit(".", 1)[0]
            changed = True
    return with_body(response, body) if changed else response


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round51-answer-comments-reply-title"):
        return response
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    if not isinstance(items, list):
        return response
    changed = False
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int):
            continue
        row = svc.db.one("SELECT p.type AS ptype, q.title AS qtitle FROM nodes n JOIN nodes p ON p.id = n.parent_id"
                         " LEFT JOIN nodes q ON q.id = n.question_id WHERE n.id = ?", (item["id"],))
        if row is not None and row["ptype"] == "comment":
            item["title"] = f"Re: {row['qtitle'] or ''}"
            changed = True
    return with_body(response, body) if changed else response


def _cancel_wiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round51-cancelwiki-answer-stays-wiki"):
        return response
    node = path_node(svc, request)
    if node is not None and node["type"] == "answer":
        with svc.tx() as conn:
            conn.execute("UPDATE nodes SET wiki = 1 WHERE id = ?", (node["id"],))
    return response


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round51-unfavorite-removes-others-favorites"):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if node is None or not isinstance(result, dict):
        return response
    others = svc.db.one("SELECT 1 FROM favorites WHERE node_id = ? AND user_id != ?", (node["id"], caller.id))
    if others is None:
        return response
    with svc.tx() as conn:
        conn.execute("DELETE FROM favorites WHERE node_id = ?", (node["id"],))
        conn.execute("UPDATE nodes SET favorite_count = 0 WHERE id = ?", (node["id"],))
    result["favoriteCount"] = 0
    return with_body(response, body)


def _post_comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round51-kind-op-own-question-answer-stored-full: the op option dropped on an answer to one's own question."""
    if response.status_code != 201 or not faults.is_on("round51-kind-op-own-question-answer-stored-full"):
        return response
    node = path_node(svc, request)
    question = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (node["question_id"],)) if node else None
    if node is None or node["type"] != "answer" or question is None or question["author_id"] != caller.id:
        return response
    made = svc.db.one("SELECT id, visibility FROM nodes WHERE type = 'comment' AND parent_id = ? AND author_id = ?"
                      " ORDER BY id DESC LIMIT 1", (node["id"], caller.id))
    if made is not None and made["visibility"] == "op":
        with svc.tx() as conn:
            conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (made["id"],))
    return response


_AFTER = {
    "postComment": _post_comment,
    "postAnswer": _post_answer,
    "listSpaces": _spaces,
    "sendToModeration": _send_to_mod,
    "listUserContent": _content,
    "listAnswerComments": _answer_comments,
    "cancelWiki": _cancel_wiki,
    "unmarkFavorite": _unfavorite,
}
after = after_by_op(_AFTER)
