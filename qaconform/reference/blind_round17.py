"""Blind round 17 (issue 44, faults_blind_round17.py): the code of its planted faults, hooked around every call
through :data:`request_hooks.HOOKS` (one entry). Each bites on one path only and leaves the call alone unless its
own fault is on; written from interface-v2.md alone, as bugs a real server ships: ownership read from the wrong
field, a parameter dropped in one branch, a body form parsed differently, a cache keyed without the write that
changes it, a state flag not consulted after a transition.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import denied
from .hook_kit import path_node
from .service import Service

Handler = Any

_CACHE: dict[tuple[int, str], bytes] = {}
"""round17-answer-comments-cached: the comment pages of answers as first read, by caller and URL;
round17-projected-questions-cached-by-url: projected question pages, by URL alone (caller 0)."""


def _with_query(request: Request, drop: tuple[str, ...] = (), add: dict[str, str] | None = None) -> Request:
    """The request as the broken server reads it: some query parameters dropped, some added."""
    pairs = [(k, v) for k, v in parse_qsl(request.scope.get("query_string", b"").decode("latin-1"),
                                          keep_blank_values=True) if k not in drop]
    pairs += list((add or {}).items())
    scope = dict(request.scope, query_string=urlencode(pairs).encode("latin-1"))
    read: bytes | None = getattr(request, "_body", None)  # a hook of another fault read the body already
    return Request(scope, request.receive if read is None else _replay(read))


def _with_body(request: Request, body: dict[str, Any]) -> Request:
    """The request with another JSON body (the broken server rewrote the fields it read)."""
    raw = json.dumps(body).encode("utf-8")
    headers = [(k, v) for k, v in request.scope["headers"] if k.lower() != b"content-length"]
    headers.append((b"content-length", str(len(raw)).encode()))
    return Request(dict(request.scope, headers=headers), _replay(raw))


def _replay(raw: bytes) -> Any:
    """A receive channel that sends ``raw`` as the whole body once."""
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": raw, "more_body": False}

    return receive


async def _json_fields(request: Request) -> dict[str, Any] | None:
    if "json" not in request.headers.get("content-type", ""):
        return None
    try:
        fields = json.loads(await request.body() or b"null")
    except ValueError:
        return None
    return fields if isinstance(fields, dict) else None


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    """Ownership and GDPR lookups the broken server decides on the wrong field."""
    if op == "lockNode" and faults.is_on("round17-lock-own-refused-under-others-question"):
        node = path_node(svc, request)
        if node is not None and node["type"] != "question" and not caller.can(auth.LOCK_ANY) \
                and node["author_id"] == caller.id and request.query_params.get("prompt", "").strip():
            question = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (node["question_id"],))
            if question is not None and question["author_id"] != caller.id:
                raise denied(caller.anonymous)  # own post checked against the question's author
    if op == "scheduleGdprJob" and (faults.is_on("round17-gdpr-reassign-ambiguous-email-user")
                                    or faults.is_on("round17-gdpr-reassign-invalid-suspend-only")):
        return await _gdpr(svc, request, caller, handler)
    return None


async def _gdpr(svc: Service, request: Request, caller: Caller, handler: Handler) -> Response | None:
    fields = await _json_fields(request)
    if fields is None:
        return None
    user, reassign = fields.get("user"), fields.get("reassignUser")
    if not isinstance(reassign, dict):
        return None
    if faults.is_on("round17-gdpr-reassign-ambiguous-email-user") and isinstance(user, dict) \
            and user.get("email") and reassign.get("username") and reassign.get("id") is not None:
        # the email branch of the user lookup reads reassignUser by id alone
        return await handler(svc, _with_body(request, dict(fields, reassignUser={"id": reassign["id"]})), caller)
    if faults.is_on("round17-gdpr-reassign-invalid-suspend-only") and fields.get("operations") == ["suspend"] \
            and set(reassign) == {"id"} and not svc.db.one("SELECT 1 FROM users WHERE id = ?",
                                                           (str(reassign["id"]),)):
        # reassignUser only looked up when content is to move: a suspend-only job never checks it
        return await handler(svc, _with_body(request, {k: v for k, v in fields.items() if k != "reassignUser"}),
                             caller)
    return None


def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    """Parameters the broken server reads differently in one branch."""
    query = request.query_params
    form = request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded")
    if op == "postAnswer" and form and "body" in query and faults.is_on("round17-answer-form-param-loses"):
        return _with_query(request, drop=("body",))  # the form parser fills fields before the parameters
    if op == "scheduleGdprJob" and faults.is_on("round17-gdpr-params-ignored-with-body") and query \
            and request.headers.get("content-length", "0") not in ("", "0"):
        return _with_query(request, drop=tuple(query.keys()))  # parameters read only when no body came
    if op == "listQuestions" and "spaceId" in query and query.get("page", "1") not in ("", "1") \
            and faults.is_on("round17-questions-spaceid-dropped-past-page1"):
        return _with_query(request, drop=("spaceId",))  # the paged query builder forgets the space filter
    if op == "listNodeFollowers" and query.get("details", "").lower() == "true" and "active" not in query \
            and faults.is_on("round17-followers-details-shows-inactive"):
        return _with_query(request, add={"active": "false"})  # the details branch defaults active to false
    return request


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """Effects the broken server skips on one node kind or after one transition; a cache it never clears."""
    if not faults.active() or not any(f.startswith("round17-") for f in faults.active()):
        return response
    if op == "postComment" and response.status_code == 201:
        _reply_to_reply(svc, request, caller)
    elif op == "listAnswerComments" and faults.is_on("round17-answer-comments-cached"):
        return _cached(request, caller.id, response)
    elif op == "listQuestions" and "includeOnly" in request.query_params \
            and faults.is_on("round17-projected-questions-cached-by-url"):
        return _cached(request, 0, response)  # keyed by URL alone: the first caller's page serves every caller
    elif request.method != "GET":
        _CACHE.clear()  # every write but a comment empties the cache
    if op == "sendToModeration" and response.status_code == 200 and faults.is_on("round17-sendtomod-verb-answers"):
        node = path_node(svc, request)
        if node is not None and node["type"] == "answer":
            return _rewrite_action(response, "sendToModAction", "verb", "moderated")
    if op == "lockNode" and response.status_code == 200 and faults.is_on("round17-lock-extra-dropped-in-moderation"):
        node = path_node(svc, request)
        if node is not None and node["in_moderation"]:
            return _rewrite_action(response, "lockAction", "extra", None)
    return response


def _reply_to_reply(svc: Service, request: Request, caller: Caller) -> None:
    """round17-reply-to-reply-not-inherited: inheritance looked up one level only (the parent's own privacy is
    copied only when the parent is a top-level comment)."""
    if not faults.is_on("round17-reply-to-reply-not-inherited"):
        return
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "comment" or parent["visibility"] == "full":
        return
    grand = svc.db.one("SELECT type FROM nodes WHERE id = ?", (parent["parent_id"],))
    if grand is None or grand["type"] != "comment":
        return
    new = svc.db.one("SELECT MAX(id) AS id FROM nodes WHERE type = 'comment' AND parent_id = ? AND author_id = ?",
                     (parent["id"], caller.id))
    if new is None or new["id"] is None:
        return
    with svc.tx("comment") as conn:
        conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (new["id"],))
        conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (new["id"],))


def _cached(request: Request, caller_id: int, response: Response) -> Response:
    if response.status_code != 200:
        return response
    key = (caller_id, str(request.url))
    kept = _CACHE.setdefault(key, bytes(response.body))
    return Response(kept, status_code=200, media_type=response.media_type)


def _rewrite_action(response: Response, wrapper: str, field: str, value: Any) -> Response:
    try:
        body = json.loads(bytes(response.body))
    except ValueError:
        return response
    found = _find(body, wrapper)
    if not isinstance(found, dict):
        return response
    found[field] = value
    headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-type")}
    return Response(json.dumps(body), status_code=response.status_code, headers=headers,
                    media_type="application/json")


def _find(body: Any, key: str) -> Any:
    """The action record under ``key`` wherever the wrap variant put it."""
    if isinstance(body, dict):
        if key in body:
            return body[key]
        for value in body.values():
            if (found := _find(value, key)) is not None:
                return found
    return None
