"""Blind round 19 (issue 44, faults_blind_round19.py): the code of twelve of its fifteen planted bugs (two others
only change rows of the route table; the locked thread's, dropped by fix2nodes, is in notes/s7/fix2nodes.md),
written from the interface description alone, the way a real server ships them: ownership read from the
subscription table, a form body never read on one operation, an admin branch that builds its record without the
prompt, a flag read from the wrong row, a page served from a default-size cache, a bulk branch that defaults the
file, a date check skipped beside another field, a lock guard that skips one update, two page caches keyed by URL
only, a text column too short.

Every function is one stage of :data:`request_hooks.HOOKS` (one entry, ``round19``) and leaves the call as it is
unless its own fault is on.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import ApiError
from .http_io import body_json, is_id, json_response
from .service import Service, now_ms

Handler = Callable[[Service, Request, Caller], Awaitable[Response]]

ANSWER_BODY_COLUMN = 1000
"""round19-answer-body-cut-1000: the width of the column a new answer's text is stored in."""

PAGE_TTL_S = 10.0
"""round19-groups-cached-for-next-caller, round19-user-answers-author-copy-shared: how long a kept page is served."""

_pages: dict[tuple[int, str, str], tuple[float, bytes]] = {}
"""Kept pages by (server, fault, URL)."""


def _on(name: str) -> bool:
    return faults.is_on(f"round19-{name}")


def _same(response: Response, body: Any) -> Response:
    """``response`` with ``body`` as its JSON, status and headers kept (but the length, computed anew)."""
    headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-type")}
    return json_response(body, response.status_code, headers)


def _with_query(request: Request, drop: tuple[str, ...] = (), put: dict[str, str] | None = None) -> Request:
    """The request with query parameters dropped or replaced; its body (read or not) kept."""
    pairs = [(k, v) for k, v in request.query_params.multi_items() if k not in drop and k not in (put or {})]
    pairs += list((put or {}).items())
    scope = dict(request.scope)
    scope["query_string"] = urlencode(pairs).encode("latin-1")
    new = Request(scope, request.receive)
    if hasattr(request, "_body"):
        new._body = request._body
    return new


def _with_body(request: Request, raw: bytes) -> Request:
    scope = dict(request.scope)
    scope["headers"] = [(k, v) for k, v in request.scope["headers"] if k.lower() != b"content-length"]
    scope["headers"].append((b"content-length", str(len(raw)).encode()))
    new = Request(scope, request.receive)
    new._body = raw
    return new


def _structured(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


async def _fields(request: Request) -> tuple[dict[str, Any], dict[str, Any]]:
    """(JSON body fields, query parameters): what the call names, read without consuming the body."""
    raw = await request.body()
    body: dict[str, Any] = {}
    if raw and "json" in request.headers.get("content-type", "json"):
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = None
        body = parsed if isinstance(parsed, dict) else {}
    return body, dict(request.query_params)


def _node_id(request: Request) -> int | None:
    raw = request.path_params.get("node_id", "")
    return int(raw) if is_id(raw) else None


# --- before: a response the broken server gives instead of the handler's ----------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    if op == "lockNode" and _on("lock-own-follower"):
        return await _lock_followed(svc, request, caller, handler)
    if op == "scheduleGdprJob" and _on("gdpr-form-body-ignored") and request.headers.get(
            "content-type", "").lower().startswith("application/x-www-form-urlencoded"):
        # "each body field may also be given as a request or query parameter": the job reads JSON and the query only
        return await handler(svc, _with_body(request, b""), caller)
    if op == "scheduleGdprJob" and (_on("gdpr-bulk-no-csv-timestamp") or _on("gdpr-past-date-with-reassign")):
        return await _gdpr(request, caller, svc, handler)
    if op == "cancelWiki" and _on("cancelwiki-locked-stays-wiki"):
        return await _cancelwiki_locked(svc, request, caller, handler)
    return None


async def _lock_followed(svc: Service, request: Request, caller: Caller, handler: Handler) -> Response | None:
    """round19-lock-own-follower: "for the caller's own node, Lock comments on own posts". The own-node check reads
    the caller's "my nodes", which the broken server builds from the nodes it wrote AND the nodes it follows."""
    node_id = _node_id(request)
    if node_id is None or not caller.can(auth.LOCK_OWN) or caller.can(auth.LOCK_ANY):
        return None
    node = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (node_id,))
    follows = svc.db.one("SELECT 1 FROM follows WHERE node_id = ? AND user_id = ? AND active = 1",
                         (node_id, caller.id))
    if node is None or node["author_id"] == caller.id or follows is None:
        return None
    return await handler(svc, request, replace(caller, permissions=caller.permissions | {auth.LOCK_ANY}))


async def _gdpr(request: Request, caller: Caller, svc: Service, handler: Handler) -> Response | None:
    body, query = await _fields(request)

    def field(name: str) -> Any:
        return _structured(query[name]) if name in query else body.get(name)

    key = "scheduleDate" if field("scheduleDate") not in (None, "") else "scheduleTime"
    date = field(key)
    stamp_only = isinstance(date, dict) and date.get("formatted") is None and date.get("timeStamp") is not None
    if (_on("gdpr-bulk-no-csv-timestamp") and field("type") == "bulk" and field("csvFileId") in (None, "")
            and stamp_only):
        # "csvFileId: Required when type is bulk": the timeStamp branch defaults it to the last file uploaded
        last = svc.db.one("SELECT MAX(id) FROM csv_files")
        if last is None or last[0] is None:
            return None
        return await handler(svc, _with_body(request, json.dumps({**body, "csvFileId": int(last[0])}).encode()),
                             caller)
    when = _date_ms(date)
    if (_on("gdpr-past-date-with-reassign") and field("reassignUser") not in (None, "", {})
            and when is not None and when < now_ms()):
        # "Date in the past" is checked on the branch without reassignUser; with one, the job is dated now
        soon = {"timeStamp": now_ms() + 61_000}
        if key in query:
            request = _with_query(request, put={key: json.dumps(soon)})
        if key in body:
            request = _with_body(request, json.dumps({**body, key: soon}).encode())
        return await handler(svc, request, caller)
    return None


def _date_ms(date: Any) -> int | None:
    if not isinstance(date, dict):
        return None
    formatted, stamp = date.get("formatted"), date.get("timeStamp")
    if isinstance(formatted, str):
        try:
            return int(datetime.strptime(formatted, "%m/%d/%Y %H:%M").replace(tzinfo=UTC).timestamp() * 1000)
        except ValueError:
            return None
    if isinstance(stamp, str) and stamp.strip().isdecimal():
        stamp = int(stamp.strip())
    return stamp if isinstance(stamp, int) and not isinstance(stamp, bool) else None


async def _cancelwiki_locked(svc: Service, request: Request, caller: Caller, handler: Handler) -> Response:
    """round19-cancelwiki-locked-stays-wiki: "Wikified node | PUT cancelwiki | ... | Not wiki". A locked node is
    read-only to the node update the unwikify makes (the lock guard), so it stays wiki; the action is recorded
    canceled all the same."""
    node_id = _node_id(request)
    node = None if node_id is None else svc.db.one("SELECT locked, wiki FROM nodes WHERE id = ?", (node_id,))
    response = await handler(svc, request, caller)
    if node is not None and node["locked"] and node["wiki"] and response.status_code == 200:
        with svc.tx("wiki") as conn:
            conn.execute("UPDATE nodes SET wiki = 1 WHERE id = ?", (node_id,))
    return response


# --- refusal: a refusal answered off the interface ---------------------------------------------------------------
def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    """round19-groups-cached-for-next-caller: "17 Groups | Edit users and groups". The group list's page is kept by
    URL in front of the permission check: a refused caller right after admin is served admin's page."""
    if op != "listGroups" or not _on("groups-cached-for-next-caller") or exc.status not in (401, 403):
        return None
    kept = _pages.get((id(svc), "groups", str(request.url)))
    if kept is None or time.monotonic() - kept[0] > PAGE_TTL_S:
        return None
    return json_response(json.loads(kept[1]))


# --- admitted: the request as the broken handler reads it --------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "listTopics" and _on("topics-pagesize-dropped") and "pageSize" in request.query_params:
        return _with_query(request, drop=("pageSize",))  # the topic page is served from the default-size cache
    if (op == "listUserAnswers" and _on("user-answers-page-ignored-unsized") and "page" in request.query_params
            and "pageSize" not in request.query_params):
        return _with_query(request, drop=("page",))  # the unsized branch reads its offset from no page
    return request


# --- after: the handler's response as the broken server serves it ------------------------------------------------
def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code >= 300 or not faults.active():
        return response
    if op == "lockNode" and _on("lock-extra-admin-answer") and caller.role == "admin":
        return _lock_extra_dropped(response)
    if op == "listUserAnswers" and _on("user-answers-accepted-unmarked"):
        return _unmarked(response)
    if op == "listUserAnswers" and _on("user-answers-page-ignored-unsized"):
        return _page_echo(request, response)
    if op == "listUserAnswers" and _on("user-answers-author-copy-shared"):
        return _author_copy(svc, request, caller, response)
    if op == "listGroups" and _on("groups-cached-for-next-caller"):
        _pages[(id(svc), "groups", str(request.url))] = (time.monotonic(), bytes(response.body))
    if op == "listTopics" and _on("topics-pagesize-dropped"):
        return _topics_echo(request, response)
    if op == "postAnswer" and _on("answer-body-cut-1000"):
        return _answer_cut(svc, request, caller, response)
    return response


def _lock_extra_dropped(response: Response) -> Response:
    """round19-lock-extra-admin-answer: "The prompt is stored as extra of the returned lock action". The admin
    branch of the lock of an answer builds its record without the prompt."""
    body = body_json(response)
    action = body.get("result", {}).get("lockAction") if isinstance(body, dict) else None
    if not isinstance(action, dict) or (action.get("node") or {}).get("type") != "answer":
        return response
    action["extra"] = None
    return _same(response, body)


def _unmarked(response: Response) -> Response:
    """round19-user-answers-accepted-unmarked: "marked: true on an accepted answer". The user's answer list reads
    marked from the answer's question row joined in for the list, and shows an accepted answer with false."""
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    if not isinstance(items, list) or not any(isinstance(i, dict) and i.get("marked") is True for i in items):
        return response
    for item in items:
        if isinstance(item, dict) and item.get("marked") is True:
            item["marked"] = False
    return _same(response, body)


def _page_echo(request: Request, response: Response) -> Response:
    """round19-user-answers-page-ignored-unsized: "page: Current page"; "totalCount: Total number of items". Without
    pageSize the user's answer list serves page 1 whatever page is asked for, and echoes the page asked for."""
    raw = request.query_params.get("page", "")
    body = body_json(response)
    if not raw.isdecimal() or not isinstance(body, dict) or "page" not in body:
        return response
    body["page"] = int(raw)
    return _same(response, body)


def _author_copy(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round19-user-answers-author-copy-shared: "Only items the caller may see are returned". A user's answer list
    read by that user (who sees its own answers still in moderation) is kept by URL and served to the next caller."""
    raw = request.path_params.get("user_id", "")
    key = (id(svc), "user-answers", str(request.url))
    now = time.monotonic()
    if is_id(raw) and int(raw) == caller.id:
        _pages[key] = (now, bytes(response.body))
        return response
    kept = _pages.get(key)
    if kept is None or now - kept[0] > PAGE_TTL_S:
        return response
    return _same(response, json.loads(kept[1]))


def _topics_echo(request: Request, response: Response) -> Response:
    """round19-topics-pagesize-dropped: "pageSize: Items per page"; "listCount: Number of items in this page". The
    topic page comes from a cache of default-size pages; the envelope echoes the pageSize asked for."""
    raw = request.query_params.get("pageSize", "")
    body = body_json(response)
    if not raw.isdecimal() or int(raw) < 1 or not isinstance(body, dict) or "pageSize" not in body:
        return response
    size = int(raw)
    body["pageSize"] = size
    total = body.get("totalCount")
    if isinstance(total, int) and total > 0:
        body["pageCount"] = -(-total // size)
    return _same(response, body)


def _answer_cut(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round19-answer-body-cut-1000: "body (string, the answer text)". The answer's text is stored in a column of
    1000 characters: a longer answer is cut, silently."""
    raw = request.path_params.get("question_id", "")
    if not is_id(raw):
        return response
    new = svc.db.one("SELECT id, body FROM nodes WHERE type = 'answer' AND parent_id = ? AND author_id = ?"
                     " ORDER BY id DESC LIMIT 1", (int(raw), caller.id))
    if new is None or len(new["body"]) <= ANSWER_BODY_COLUMN:
        return response
    with svc.tx("answer") as conn:
        conn.execute("UPDATE nodes SET body = ? WHERE id = ?", (new["body"][:ANSWER_BODY_COLUMN], new["id"]))
    body = body_json(response)
    if not isinstance(body, dict):
        return response
    for key in ("body", "bodyAsHTML"):
        if isinstance(body.get(key), str):
            body[key] = body[key][:ANSWER_BODY_COLUMN]
    return _same(response, body)
