"""Blind round 23 (issue 44): the code of the faults of :mod:`faults_blind_round23`, written from the interface
description alone, each the bug a real server ships on one path: a permission granted from the wrong relation, a
parameter dropped by one input form, an option that routes the parse differently, a record built from the wrong node
on one node kind, a parameter's default or effect lost in one branch, a job rule decided by the form of another
field, one account's cancel credited to the next canceler, a privacy setting lost after a state change, two caches
keyed too coarsely and a text read like a form body. Hooked through ``request_hooks.HOOKS`` (one entry): nothing
here runs unless one of the round's faults is on.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .http_io import json_response, with_query
from .kept_page_counts import KeptPageCounts
from .service import Service
from .visibility import internal_name

Handler = Callable[[Service, Request, Caller], Awaitable[Response]]

PREFIX = "r23-"
"""Every fault of the round is named so; the hooks return at once when none is on."""

CACHE_S = 30.0
"""How long the two planted caches keep what they hold (a run reads the same URL again within seconds)."""

_question_pages: dict[tuple[int, int, str, str], tuple[float, int, bytes]] = {}
_page_counts = KeptPageCounts(CACHE_S)


def _any_on() -> bool:
    return any(name.startswith(PREFIX) for name in faults.active())


def _json_body(raw: bytes, request: Request) -> dict[str, Any]:
    """The request's JSON object, or {} when it is no JSON object (the handler then answers as it does)."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if not raw.strip() or not (media == "application/json" or media.endswith("+json")):
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _without_query(request: Request, name: str, raw: bytes) -> Request:
    """The same request without the query parameter ``name``; the body already read travels along."""
    copy = with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != name])
    setattr(copy, "_body", raw)  # noqa: B010 - Starlette's own cache of the read body
    return copy


def _rebuilt(response: Response, body: Any) -> Response:
    headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-type")}
    return json_response(body, response.status_code, headers)


def _parsed(response: Response) -> Any:
    try:
        return json.loads(bytes(response.body))
    except ValueError:
        return None


# --- before: the request as the broken server reads it ---------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    if not _any_on():
        return None
    if op == "listUserQuestions" and faults.is_on("r23-user-questions-cache-ignores-page"):
        kept = _question_pages.get(_page_blind_key(svc, request, caller))
        if kept is not None and time.monotonic() - kept[0] < CACHE_S:
            return Response(kept[2], status_code=kept[1], media_type="application/json")
        return None
    if op not in ("postComment", "postAnswer", "scheduleGdprJob"):
        return None
    raw = await request.body()
    fields = _json_body(raw, request)
    if op == "postComment":
        return await _comment_before(svc, request, caller, handler, raw, fields)
    if op == "postAnswer":
        wrapped = "wrap" in request.query_params and "body" in request.query_params and "body" in fields
        if wrapped and faults.is_on("r23-answer-wrap-body-wins"):
            return await handler(svc, _without_query(request, "body", raw), caller)
        return None
    return _job_before(fields)


def _page_blind_key(svc: Service, request: Request, caller: Caller) -> tuple[int, int, str, str]:
    """The cache key of a user's question list: every parameter but page (the page is left out of the key)."""
    rest = sorted((k, v) for k, v in request.query_params.multi_items() if k != "page")
    return id(svc), caller.id, request.url.path, urlencode(rest)


async def _comment_before(svc: Service, request: Request, caller: Caller, handler: Handler, raw: bytes,
                          fields: dict[str, Any]) -> Response | None:
    q = request.query_params
    if ("visibility" in q and "recipients" in fields and "visibility" not in fields
            and faults.is_on("r23-comment-visibility-param-beside-json-recipients")):
        return await handler(svc, _without_query(request, "visibility", raw), caller)
    wire = fields.get("visibility", q.get("visibility"))
    if (isinstance(wire, str) and internal_name(wire) == "op" and not caller.can(auth.USE_PRIVATE_COMMENTS)
            and faults.is_on("r23-novice-op-comment-on-own-answer")):
        node_id = str(request.path_params.get("node_id", ""))
        parent = svc.db.one("SELECT type, author_id FROM nodes WHERE id = ?", (node_id,)) if node_id.isdecimal() \
            else None
        if parent is not None and parent["type"] == "answer" and parent["author_id"] == caller.id:
            granted = replace(caller, permissions=caller.permissions | {auth.USE_PRIVATE_COMMENTS, auth.PRIVATE_TO_OP})
            return await handler(svc, request, granted)
    return None


def _job_before(fields: dict[str, Any]) -> Response | None:
    user, reassign, operations = fields.get("user"), fields.get("reassignUser"), fields.get("operations")
    if (isinstance(user, dict) and "email" in user and isinstance(reassign, dict) and "username" in reassign
            and "id" not in reassign and faults.is_on("r23-gdpr-reassign-username-beside-email-user")):
        return json_response({"error": "The provided 'reassignUser' is/are invalid"}, 400)
    if (isinstance(operations, list) and len(operations) == 4 and isinstance(reassign, dict)
            and faults.is_on("r23-gdpr-four-operations-with-reassign")):
        return json_response({"error": "The provided 'operations' is/are invalid"}, 400)
    return None


# --- admitted: the request as the handler reads it -------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    """An explicit details=false takes the relation query's branch, whose default for a missing active is "all"."""
    q = request.query_params
    if (op != "listNodeFollowers" or q.get("details", "").lower() != "false" or "active" in q
            or not faults.is_on("r23-followers-explicit-details-false-lists-all")):
        return request
    return with_query(request, [*q.multi_items(), ("active", "false")])


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if not _any_on() or response.status_code >= 300:
        return response
    if op == "listUserQuestions" and faults.is_on("r23-user-questions-cache-ignores-page"):
        key = _page_blind_key(svc, request, caller)
        if key not in _question_pages or time.monotonic() - _question_pages[key][0] >= CACHE_S:
            _question_pages[key] = (time.monotonic(), response.status_code, bytes(response.body))
        return response
    if op == "sendToModeration" and faults.is_on("r23-sendtomod-comment-record-names-answer"):
        return _record_names_answer(svc, response)
    if op == "unmarkFavorite" and faults.is_on("r23-unfavorite-canceledby-earlier-canceler"):
        return _canceled_by_earlier(svc, caller, response)
    if op == "listTopics" and faults.is_on("r23-topics-search-invalid-sort-reversed"):
        return _topics_reversed(request, response)
    if op == "postComment" and faults.is_on("r23-comment-plus-read-as-space"):
        _plus_as_space(svc, caller)
        return response
    if op == "listUserAnswers" and faults.is_on("r23-user-answers-pagecount-cached"):
        body = _parsed(response)
        return _rebuilt(response, body) if isinstance(body, dict) and _page_counts.apply(svc, request, caller,
                                                                                        body) else response
    if op in ("listAnswerComments", "readComment") and faults.is_on("r23-comment-privacy-lost-after-sendtomod"):
        return _comment_reads(svc, op, response)
    return response


def _record_names_answer(svc: Service, response: Response) -> Response:
    """The send-to-moderation record of a comment built from the comment's answer (the thread's moderated post)."""
    body = _parsed(response)
    action = body.get("result", {}).get("sendToModAction") if isinstance(body, dict) else None
    node = action.get("node") if isinstance(action, dict) else None
    if not isinstance(node, dict) or node.get("type") != "comment":
        return response
    row = svc.db.one("SELECT answer_id FROM nodes WHERE id = ?", (node.get("id"),))
    if row is None or row["answer_id"] is None:
        return response
    node["id"] = row["answer_id"]
    return _rebuilt(response, body)


def _canceled_by_earlier(svc: Service, caller: Caller, response: Response) -> Response:
    """canceledByUser read from the node's first canceled favorite: another account's unfavorite names the next."""
    body = _parsed(response)
    action = body.get("result", {}).get("favoriteAction") if isinstance(body, dict) else None
    if not isinstance(action, dict) or not isinstance(action.get("canceledByUser"), dict):
        return response
    node = action.get("node")
    if not isinstance(node, dict):
        return response
    row = svc.db.one("SELECT u.* FROM actions a JOIN users u ON u.id = a.canceled_by WHERE a.verb = 'favorited'"
                     " AND a.node_id = ? AND a.canceled = 1 AND a.canceled_by != ? ORDER BY a.canceled_date, a.id"
                     " LIMIT 1", (node.get("id"), caller.id))
    if row is None:
        return response
    action["canceledByUser"] = svc.render.action_user_json(row)
    return _rebuilt(response, body)


def _topics_reversed(request: Request, response: Response) -> Response:
    """An invalid sort name beside a search: the default echoed, but the search branch's ORDER BY ascending."""
    from .site_lists import TOPIC_SORTS

    sort = request.query_params.get("sort")
    if not sort or sort in TOPIC_SORTS or not request.query_params.get("q"):
        return response
    body = _parsed(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list) or len(body["list"]) < 2:
        return response
    body["list"] = list(reversed(body["list"]))
    return _rebuilt(response, body)


def _plus_as_space(svc: Service, caller: Caller) -> None:
    """The new comment's text decoded like a form body once more: every ``+`` becomes a space."""
    row = svc.db.one("SELECT id, body FROM nodes WHERE type = 'comment' AND author_id = ? ORDER BY id DESC LIMIT 1",
                     (caller.id,))
    if row is None or "+" not in row["body"]:
        return
    with svc.tx("comment") as conn:
        conn.execute("UPDATE nodes SET body = ? WHERE id = ?", (row["body"].replace("+", " "), row["id"]))


def _comment_reads(svc: Service, op: str, response: Response) -> Response:
    """Comments under an answer in moderation rendered from the moderation copy, which has no privacy fields."""
    body = _parsed(response)
    if not isinstance(body, dict):
        return response
    items = body.get("list") if op == "listAnswerComments" else [body]
    if not isinstance(items, list):
        return response
    changed = False
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int):
            continue
        row = svc.db.one("SELECT n.visibility, a.in_moderation FROM nodes n JOIN nodes a ON a.id = n.answer_id"
                         " WHERE n.id = ?", (item["id"],))
        if row is None or row["visibility"] == "full" or not row["in_moderation"]:
            continue
        item.pop("visibility", None)
        item.pop("recipients", None)
        changed = True
    return _rebuilt(response, body) if changed else response


