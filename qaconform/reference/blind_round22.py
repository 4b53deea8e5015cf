"""Blind round 22 (issue 44): the code of fifteen faults written from the description alone, one on each of fifteen
must-rules drawn at random, each on the one path a real server's bug would take (a role branch, a parameter
combination, an input form, a state after a transition, a tree, a read order, a later page, a list other than the
obvious one). Entries: :mod:`faults_blind_round22`; hooked through ``request_hooks.HOOKS`` (one entry).

Why hooks and not edits of the handlers: each bug here is a branch a real server takes before or after the code the
reference server shares with every other round, so it is written as that branch around the handler, and the shared
handlers stay as they are.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import USE_PRIVATE_COMMENTS, Caller
from .bodies import read_fields, structured
from .errors import bad_request, denied
from .faults_blind_round22 import (
    ADMIN_EXPERT_FLAGS_TEXT,
    ANONYMOUS_UNFAVORITE,
    ANSWER_COMMENTS_PRIVATE_REFUSED,
    CONTENT_LOCKED_DATE_MILLIS,
    CSV_UNCHECKED_WITH_REASSIGN,
    EMAIL_USER_ANON_DELETE,
    FOLLOWERS_INACTIVE_PAGESIZE,
    GROUPS_FALLBACK_WRAPPED,
    ISSUE_TYPES_CACHED,
    NOVICE_OWN_NODE_COMMENT,
    OWNER_CHANGES_VISIBILITY,
    REASSIGN_ID_TEXT,
    REPLY_SAME_OPTION_REFUSED,
    SPACE_FILTER_DATE_SECONDS,
    USER_ANSWERS_IDS_TEXT,
)
from .http_io import json_response
from .service import Service

Handler = Callable[[Service, Request, Caller], Awaitable[Response]]
INHERITED_MESSAGE = "Visibility on comment can't be defined since it's inherited"
"""The stated message of comment rule 4 (as comments.py words it)."""
_issue_types: dict[str, Any] | None = None
"""The issue-type cache of :data:`ISSUE_TYPES_CACHED`: the first call's items keyed by name."""


_GROUP_SORTS = frozenset({"", "name", "newest", "oldest", "active"})
"""The group sorts the broken server's sorted branch knows; any other takes its fallback branch."""


def _with_json_body(request: Request, fields: dict[str, Any]) -> Request:
    """The request as the broken server passes it on: the same call with this JSON body."""
    raw = json.dumps(fields).encode()
    headers = [(k, v) for k, v in request.scope["headers"] if k not in (b"content-length", b"content-type")]
    headers += [(b"content-length", str(len(raw)).encode()), (b"content-type", b"application/json")]
    scope = dict(request.scope, headers=headers)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": raw, "more_body": False}

    return Request(scope, receive)


def _json_only(request: Request, *names: str) -> bool:
    """Whether the body is JSON and none of ``names`` is a query parameter (the one form these bugs rewrite)."""
    return "json" in request.headers.get("content-type", "") and not any(n in request.query_params for n in names)


def _node(svc: Service, raw: str | None) -> Any:
    return svc.db.one("SELECT * FROM nodes WHERE id = ?", (int(raw),)) if raw and raw.isdecimal() else None


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    """The broken server's branches ahead of the handler: a refusal, or the handler called on a rewritten request."""
    if not faults.active() & _ALL:
        return None
    if op == "postComment":
        return await _post_comment(svc, request, caller, handler)
    if op == "scheduleGdprJob":
        return await _schedule(svc, request, caller, handler)
    if op == "unmarkFavorite" and faults.is_on(ANONYMOUS_UNFAVORITE) and caller.anonymous:
        node = _node(svc, request.path_params.get("node_id"))
        count = int(node["favorite_count"] or 0) if node is not None else 0
        if count <= 0:
            raise denied(caller.anonymous)  # the row's refusal, on every node nobody favorited
        # the favorite looked up by node, not by caller: the permission check sits in the branch never reached
        return json_response({"success": True, "result": {"favoriteCount": count - 1}})
    if op == "listAnswerComments" and faults.is_on(ANSWER_COMMENTS_PRIVATE_REFUSED) and not caller.can(
            USE_PRIVATE_COMMENTS):
        answer = request.path_params.get("answer_id", "")
        if answer.isdecimal() and svc.db.one("SELECT 1 FROM nodes WHERE answer_id = ? AND type = 'comment'"
                                             " AND visibility != 'full'", (int(answer),)):
            raise denied(caller.anonymous)  # the privacy filter refuses the list instead of leaving items out
    return None


async def _post_comment(svc: Service, request: Request, caller: Caller, handler: Handler) -> Response | None:
    parent = _node(svc, request.path_params.get("node_id"))
    if parent is None:
        return None
    await request.body()  # kept by the request, so that the handler reads the body again
    fields = await read_fields(request)
    given_visibility = fields.get("visibility")
    if faults.is_on(NOVICE_OWN_NODE_COMMENT) and caller.role == "novice" and parent["author_id"] == caller.id and (
            given_visibility is None):
        raise denied(caller.anonymous)  # a "comment on own posts" permission the description does not have
    if parent["type"] != "comment" or parent["visibility"] == "full":
        return None
    if (faults.is_on(REPLY_SAME_OPTION_REFUSED) and given_visibility == parent["visibility"] != "recipients"
            and "recipients" not in fields):
        raise bad_request(INHERITED_MESSAGE)  # compared as (visibility, recipients): None is not the stored []
    if (faults.is_on(OWNER_CHANGES_VISIBILITY) and parent["author_id"] == caller.id and given_visibility
            not in (None, parent["visibility"]) and _json_only(request, "visibility", "recipients")):
        kept = {k: v for k, v in fields.items() if k not in ("visibility", "recipients")}
        return await handler(svc, _with_json_body(request, kept), caller)  # the thread owner's branch: no check
    return None


async def _schedule(svc: Service, request: Request, caller: Caller, handler: Handler) -> Response | None:
    await request.body()  # kept by the request, so that the handler reads the body again
    fields = await read_fields(request)
    user = structured(fields, "user")
    reassign = structured(fields, "reassignUser")
    operations = structured(fields, "operations")
    if (faults.is_on(EMAIL_USER_ANON_DELETE) and fields.get("type") == "individual" and isinstance(user, dict)
            and user.get("email") and isinstance(operations, list) and "anon-delete" in operations):
        raise bad_request("The provided 'user' is invalid")  # the anon-delete branch looks users up by username
    if (faults.is_on(REASSIGN_ID_TEXT) and isinstance(reassign, dict) and list(reassign) == ["id"]
            and isinstance(reassign["id"], str) and reassign["id"].strip().isdecimal()
            and _json_only(request, "reassignUser") and not svc.user_exists(int(reassign["id"]))):
        kept = {k: v for k, v in fields.items() if k != "reassignUser"}
        return await handler(svc, _with_json_body(request, kept), caller)  # only an integer id is looked up
    csv = fields.get("csvFileId")
    if (faults.is_on(CSV_UNCHECKED_WITH_REASSIGN) and fields.get("type") == "bulk" and isinstance(reassign, dict)
            and reassign and csv not in (None, "") and _json_only(request, "csvFileId")):
        known = svc.db.one("SELECT id FROM csv_files ORDER BY id LIMIT 1")
        missing = not str(csv).isdecimal() or svc.db.one("SELECT 1 FROM csv_files WHERE id = ?", (int(csv),)) is None
        if missing and known is not None:
            # the bulk branch with reassignUser validates the reassign user and forgets the file
            return await handler(svc, _with_json_body(request, dict(fields, csvFileId=int(known["id"]))), caller)
    return None


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The broken server's rendering of a list it answered with 200."""
    if not faults.active() & _ALL or response.status_code != 200 or not getattr(response, "body", b""):
        return response
    try:
        body = json.loads(bytes(response.body))
    except ValueError:
        return response
    changed = _rendered(svc, op, request, caller, body)
    if changed is None:
        return response
    headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-type")}
    return json_response(changed, response.status_code, headers)


def _items(body: Any) -> list[dict[str, Any]]:
    items = body.get("list") if isinstance(body, dict) else body
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def _rendered(svc: Service, op: str, request: Request, caller: Caller, body: Any) -> Any:
    """The body as the broken server renders it, or None where it renders it right."""
    query = request.query_params
    global _issue_types
    if op == "listUserAnswers" and faults.is_on(USER_ANSWERS_IDS_TEXT) and query.get("page", "1").strip() not in (
            "", "0", "1") and query.get("page", "").strip().isdecimal():
        for item in _items(body):  # the later pages come from the search index, which keeps ids as text
            if "id" in item:
                item["id"] = str(item["id"])
        return body
    if op == "listActiveExperts" and faults.is_on(ADMIN_EXPERT_FLAGS_TEXT) and caller.role == "admin":
        for item in _items(body):  # the administrators' serializer writes the account flags as text
            for flag in ("active", "suspended", "deactivated"):
                if isinstance(item.get(flag), bool):
                    item[flag] = "true" if item[flag] else "false"
        return body
    if op == "listUserContent" and faults.is_on(CONTENT_LOCKED_DATE_MILLIS) and isinstance(body, list):
        for entry in _items(body):  # a locked node's entry is read from the lock table, whose date is raw
            node = entry.get("node")
            if isinstance(node, dict) and isinstance(node.get("id"), int) and svc.db.one(
                    "SELECT 1 FROM nodes WHERE id = ? AND locked = 1", (node["id"],)):
                row = svc.db.one("SELECT creation_date FROM nodes WHERE id = ?", (node["id"],))
                entry["actionDate"] = int(row["creation_date"]) if row is not None else 0
        return body
    if op == "listQuestions" and faults.is_on(SPACE_FILTER_DATE_SECONDS) and "spaceId" in query:
        for item in _items(body):  # the space-filtered query reads the date column in seconds
            if isinstance(item.get("lastActiveDate"), int):
                item["lastActiveDate"] //= 1000
        return body
    if op == "listGroups" and faults.is_on(GROUPS_FALLBACK_WRAPPED) and "sort" in query and isinstance(body, dict) and (
            query["sort"].strip() not in _GROUP_SORTS):
        body["list"] = [{"group": item} for item in _items(body)]  # the fallback branch's serializer wraps items
        return body
    if op == "listNodeFollowers" and faults.is_on(FOLLOWERS_INACTIVE_PAGESIZE) and query.get(
            "active", "").strip().lower() == "false" and isinstance(body, dict) and "listCount" in body:
        if isinstance(body.get("pageSize"), int):
            body["pageSize"] += 1  # the branch with inactive relations reports its look-ahead limit (size + 1)
        return body
    if op == "listIssueTypes" and faults.is_on(ISSUE_TYPES_CACHED) and isinstance(body, list):
        if _issue_types is None:
            _issue_types = {str(i.get("name")): i for i in _items(body)}  # the first call fills the cache
            return None
        return dict(_issue_types)  # later calls are served the cache itself: an object keyed by name
    return None


_ALL = frozenset({USER_ANSWERS_IDS_TEXT, CSV_UNCHECKED_WITH_REASSIGN, ADMIN_EXPERT_FLAGS_TEXT,
                  REPLY_SAME_OPTION_REFUSED, NOVICE_OWN_NODE_COMMENT, EMAIL_USER_ANON_DELETE, REASSIGN_ID_TEXT,
                  OWNER_CHANGES_VISIBILITY, CONTENT_LOCKED_DATE_MILLIS, SPACE_FILTER_DATE_SECONDS, ANONYMOUS_UNFAVORITE,
                  GROUPS_FALLBACK_WRAPPED, FOLLOWERS_INACTIVE_PAGESIZE, ANSWER_COMMENTS_PRIVATE_REFUSED,
                  ISSUE_TYPES_CACHED})
