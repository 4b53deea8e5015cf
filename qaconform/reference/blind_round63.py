"""Where blind round 63's faults bite (faults_blind_round63.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .hook_kit import (
    after_by_op,
    each_item,
    handled_with,
    kept_by_url,
    kept_json_object,
    list_items,
    media,
    path_node,
    result_action,
    sent_fields,
)
from .http_io import body_json, json_response, with_body, with_query
from .service import Service

ANSWERS_KEPT_S = 2.0
"""How long round63-user-answers-kept-by-url keeps a user's answer list by its URL (whoever read it)."""
_answers_kept: dict[str, tuple[float, Response]] = {}
_NAMED_SORTS = ("name", "newest", "oldest")
_PRIVATE = ("op", "mod", "group", "recipients")
_READS_BODY = ("round63-comment-wrap-private-without-permission", "round63-comment-form-charset-recipients-dropped",
               "round63-gdpr-bulk-several-operations-202", "round63-gdpr-user-integer-id-refused")


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("scheduleGdprJob", "postComment") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "scheduleGdprJob" and faults.is_on("round63-gdpr-user-integer-id-refused"):
        body = kept_json_object(request)
        user = body.get("user") if body else None
        if body and body.get("type") == "individual" and isinstance(user, dict) and set(user) == {"id"} \
                and type(user["id"]) is int \
                and svc.db.one("SELECT 1 FROM users WHERE id = ?", (user["id"],)) is not None:
            return json_response(
                {"error": "The individual type was selected, but the request is missing the user field."}, 400)
    if op == "postComment" and faults.is_on("round63-comment-wrap-private-without-permission") \
            and "wrap" in request.query_params and not caller.anonymous \
            and not caller.can(auth.USE_PRIVATE_COMMENTS) and sent_fields(request).get("visibility") in _PRIVATE:
        let_in = dataclasses.replace(caller, permissions=caller.permissions | {
            auth.USE_PRIVATE_COMMENTS, auth.PRIVATE_TO_OP, auth.PRIVATE_TO_MODS, auth.PRIVATE_TO_GROUPS})
        response: Response = await handler(svc, request, let_in)
        return response
    if op == "lockNode" and faults.is_on("round63-lock-own-by-favorite"):
        return await _lock_as_holder(svc, request, caller, handler)
    return None


async def _lock_as_holder(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round63-lock-own-by-favorite: a favorite holder let in as if the node were their own."""
    if caller.anonymous or caller.can(auth.LOCK_ANY) or not caller.can(auth.LOCK_OWN):
        return None
    node = path_node(svc, request)
    if node is None or node["author_id"] == caller.id or svc.db.one(
            "SELECT 1 FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"])) is None:
        return None
    return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listQuestions" and faults.is_on("round63-questions-spaceid-dropped-with-topics") \
            and q.get("spaceId") and q.get("topics"):
        return with_query(request, [(k, v) for k, v in q.multi_items() if k != "spaceId"])
    return request


# --- after: the handler's response as the broken server serves it (after_by_op(_AFTER), at the end) ----------
def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round63-user-answers-kept-by-url"):
        return kept_by_url(_answers_kept, ANSWERS_KEPT_S, request, response)
    if faults.is_on("round63-user-answers-sorted-commentids-objects") and request.query_params.get("sort"):
        return each_item(response, _comment_objects)
    return response


def _comment_objects(item: dict[str, Any]) -> None:
    ids = item.get("commentIds")
    if isinstance(ids, list) and ids and all(isinstance(i, int) for i in ids):
        item["commentIds"] = [{"id": i, "type": "comment"} for i in ids]


def _content(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    entries = body_json(response)
    if not faults.is_on("round63-content-wiki-question-body-null") or not isinstance(entries, list):
        return response
    wikis = {int(r[0]) for r in svc.db.conn.execute("SELECT id FROM nodes WHERE type = 'question' AND wiki = 1")}
    for entry in entries:
        node = entry.get("node") if isinstance(entry, dict) else None
        if isinstance(node, dict) and node.get("type") == "question" and node.get("id") in wikis:
            node["body"] = None
    return with_body(response, entries)


def _job(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not faults.is_on("round63-gdpr-bulk-several-operations-202"):
        return response
    sent = sent_fields(request)
    ops = sent.get("operations")
    if isinstance(ops, str):
        try:
            ops = json.loads(ops)
        except ValueError:
            ops = [o for o in ops.split(",") if o]
    if sent.get("type") == "bulk" and isinstance(ops, list) and len(ops) > 1:
        response.status_code = 202
    return response


def _active_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round63-active-experts-realname-sort-flags-int") \
            or request.query_params.get("sort") != "realname":
        return response
    return each_item(response, _flags_as_int)


def _flags_as_int(item: dict[str, Any]) -> None:
    for key in ("moderator", "superuser"):
        if isinstance(item.get(key), bool):
            item[key] = int(item[key])


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round63-answer-comments-mod-recipients-null"):
        return response
    return each_item(response, _mod_recipients_null)


def _mod_recipients_null(item: dict[str, Any]) -> None:
    if item.get("visibility") == "mod" and "recipients" in item:
        item["recipients"] = None


def _followers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    short, uncounted = (faults.is_on("round63-followers-author-short-form"),
                        faults.is_on("round63-kind-followers-author-not-counted"))
    if not (short or uncounted) or node is None:
        return response
    body, items = list_items(response)
    for i, item in enumerate(items):
        if isinstance(item, dict) and item.get("type") == "user" and item.get("id") == node["author_id"]:
            if short:
                items[i] = {k: item[k] for k in ("id", "username", "realname", "reputation", "avatar") if k in item}
            elif isinstance(body.get("listCount"), int):
                body["listCount"] -= 1
            return with_body(response, body)
    return response


def _spaces(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not faults.is_on("round63-spaces-invalid-sort-projected-by-id") or not q.get("includeOnly") \
            or not q.get("sort") or q.get("sort") in _NAMED_SORTS:
        return response
    body, items = list_items(response)
    if not items or not all(isinstance(i, dict) and isinstance(i.get("id"), int) for i in items):
        return response
    items.sort(key=lambda i: -int(i["id"]))
    return with_body(response, body)


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not faults.is_on("round63-comment-form-charset-recipients-dropped") \
            or media(request) != "application/x-www-form-urlencoded" \
            or "charset" not in request.headers.get("content-type", "").lower() \
            or sent_fields(request).get("visibility") != "recipients":
        return response
    raw = response.headers.get("location", "").rstrip("/").rsplit("/", 1)[-1].removesuffix(".json")
    if not raw.isdecimal():
        return response
    with svc.tx() as conn:
        conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ? AND type = 'comment'", (int(raw),))
        conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (int(raw),))
    return response


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round63-lock-answer-extra-null") or node is None or node["type"] != "answer":
        return response
    body = body_json(response)
    action = result_action(body, "lockAction")
    if action is None:
        return response
    with svc.tx() as conn:
        conn.execute("UPDATE actions SET extra = NULL WHERE id = ?", (action.get("id"),))
    action["extra"] = None
    return with_body(response, body)


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round63-unfavorite-count-after-other-unfavorite") or node is None:
        return response
    if svc.db.one("SELECT 1 FROM actions WHERE node_id = ? AND verb = 'favorited' AND canceled = 1"
                  " AND canceled_by IS NOT NULL AND canceled_by != ?", (node["id"], caller.id)) is None:
        return response
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not isinstance(result, dict) or not isinstance(result.get("favoriteCount"), int):
        return response
    result["favoriteCount"] += 1
    return with_body(response, body)


_AFTER = {
    "listUserAnswers": _user_answers,
    "listUserContent": _content,
    "scheduleGdprJob": _job,
    "listActiveExperts": _active_experts,
    "listAnswerComments": _answer_comments,
    "listNodeFollowers": _followers,
    "listSpaces": _spaces,
    "postComment": _comment,
    "lockNode": _lock,
    "unmarkFavorite": _unfavorite,
}
after = after_by_op(_AFTER)
