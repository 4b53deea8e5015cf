"""Blind round 21 (issue 44): the code of fifteen faults written from the interface description alone, of the kinds
outside teams catch us on (a permission decided by an optional parameter, ownership from the wrong relation, an input
form on an operation it is rarely tried on, one account's branch, a parameter's effect, one stated form of a
data-protection job, a history, a read order a cache gets wrong, the posted text's content). Each bites on one path
only, and only while its fault (``faults_blind_round21``) is on; hooked once in ``request_hooks.HOOKS``.

Why a module of its own: every round's bugs stay out of the handlers, so the integrator can re-measure the round on
the final suites by name and drop it whole.
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import crossing2_paths, faults
from .auth import Caller
from .bodies import read_fields, structured
from .db import as_id
from .errors import bad_request, forbidden
from .http_io import body_json, json_response
from .service import Service

_COUNT_LAG_S = 5.0
_commented: dict[int, float] = {}
"""round21-comment-pagecount-lags-post: when each answer last got a comment (the page count's cache lags it)."""


def _on(name: str) -> bool:
    return faults.is_on(name)


def _node(svc: Service, request: Request) -> Any:
    node_id = as_id(str(request.path_params.get("node_id", "")))  # bounded: a 20-digit id is no node, not a 500
    return None if node_id is None else svc.db.one("SELECT * FROM nodes WHERE id = ?", (node_id,))


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() == "true"


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    """Refusals and answers that replace the handler's."""
    q = request.query_params
    if op == "listTopics" and "includeOnly" in q and caller.role == "novice" and _on(
            "round21-topics-includeonly-novice-403"):
        raise forbidden()  # the projection branch checks View User's Profile as well
    if op == "listNodeFollowers" and _truthy(q.get("details")) and caller.role != "admin" and _on(
            "round21-followers-details-admin-only"):
        raise forbidden()  # the relation view checks Edit users and groups
    if op == "unmarkFavorite" and _on("round21-unfavorite-newest-favorite"):
        return await _unfavorite_newest(svc, request, caller, handler)
    if op == "postAnswer" and "body" in q and _on("round21-answer-param-body-ignored-beside-fields"):
        await _json_body_without_body(request)
    if op == "scheduleGdprJob" and (_on("round21-gdpr-email-past-timestamp")
                                    or _on("round21-gdpr-reassign-unknown-with-user-id")):
        return await _gdpr(svc, request, caller)
    return None


async def _unfavorite_newest(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """The favorite looked up by node, newest first: the caller's own only when it is the newest."""
    node = _node(svc, request)
    if node is None or svc.db.one("SELECT 1 FROM favorites WHERE node_id = ? AND user_id = ?",
                                  (node["id"], caller.id)) is None:
        return None
    newest = svc.db.one("SELECT f.user_id, u.username FROM favorites f JOIN users u ON u.id = f.user_id"
                        " WHERE f.node_id = ? ORDER BY f.action_id DESC LIMIT 1", (node["id"],))
    if newest is None or newest["user_id"] == caller.id:
        return None
    other = dataclasses.replace(caller, id=int(newest["user_id"]), username=str(newest["username"]))
    response: Response = await handler(svc, request, other)
    return response


async def _json_body_without_body(request: Request) -> None:
    """A JSON body holding other Node fields is taken as the whole input: the body parameter is never read."""
    raw = await request.body()
    try:
        sent = json.loads(raw) if raw.strip() else None
    except ValueError:
        return
    if isinstance(sent, dict) and sent and "body" not in sent:
        raise bad_request("body is required")


async def _gdpr(svc: Service, request: Request, caller: Caller) -> Response | None:
    from . import gdpr_jobs  # the handler's module imports this one's siblings: imported where used

    await request.body()  # kept on the request: the handler reads it again when this path is not the fault's
    fields = await read_fields(request)
    user = structured(fields, "user")
    date = structured(fields, "scheduleDate")
    reassign = structured(fields, "reassignUser")
    individual = fields.get("type") == "individual" and isinstance(user, dict)
    if (_on("round21-gdpr-email-past-timestamp") and individual and isinstance(user, dict) and user.get("email")
            and isinstance(date, dict) and "timeStamp" in date):
        return gdpr_jobs._schedule(svc, caller, fields, frozenset({crossing2_paths.PAST}))  # noqa: SLF001
    if (_on("round21-gdpr-reassign-unknown-with-user-id") and individual and isinstance(user, dict)
            and user.get("id") not in (None, "") and isinstance(reassign, dict) and set(reassign) == {"username"}):
        return gdpr_jobs._schedule(svc, caller, fields, frozenset({crossing2_paths.REASSIGN_LOOKUP}))  # noqa: SLF001
    return None


def _find(body: Any, key: str) -> dict[str, Any] | None:
    """The object under ``key`` wherever a wrap option put it."""
    if isinstance(body, dict):
        if isinstance(body.get(key), dict):
            return body[key]
        for value in body.values():
            if (found := _find(value, key)) is not None:
                return found
    return None


def _envelope(body: Any) -> dict[str, Any] | None:
    if isinstance(body, dict) and isinstance(body.get("list"), list):
        return body
    return None


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The handler's response as the broken server serves it."""
    if op == "postComment" and response.status_code == 201 and _on("round21-comment-pagecount-lags-post"):
        node = _node(svc, request)
        if node is not None and node["type"] == "answer":
            _commented[int(node["id"])] = time.monotonic()
    if response.status_code != 200:
        return response
    q = request.query_params
    changed: Any = None
    if op == "sendToModeration" and caller.role == "admin" and _on("round21-admin-sendtomod-not-private"):
        changed = _action(response, "sendToModAction", lambda a: a.__setitem__("private", False))
    elif op == "lockNode" and _on("round21-lock-comment-node-is-parent"):
        node = _node(svc, request)
        if node is not None and node["type"] == "comment":
            changed = _action(response, "lockAction", lambda a: a["node"].__setitem__("id", int(node["parent_id"])))
    elif op == "unmarkFavorite" and _on("round21-unfavorite-after-other-account"):
        node = _node(svc, request)
        if node is not None and svc.db.one(
                "SELECT 1 FROM actions WHERE verb = 'favorited' AND node_id = ? AND canceled = 1 AND canceled_by != ?"
                " LIMIT 1", (node["id"], caller.id)):
            changed = _action(response, "favoriteAction", lambda a: a.__setitem__("canceled", False))
    elif op == "listNodeFollowers" and q.get("active", "").lower() == "false" and "pageSize" in q and not _truthy(
            q.get("details")) and _on("round21-followers-active-false-paged-inactive-only"):
        changed = _inactive_only(svc, request, response)
    elif op == "listGroups" and q.get("sort") not in (None, "", "name", "newest", "oldest") and "v1" in q and _on(
            "round21-groups-v1-invalid-sort-by-id"):
        body = _envelope(body_json(response))
        if body is not None:  # the v1 branch falls back to its own default: ids ascending
            body["list"].sort(key=lambda g: int(g["id"]) if isinstance(g, dict) and str(g.get("id")).isdecimal()
                              else 0)
            changed = body
    elif op == "listAnswerComments" and _on("round21-comment-pagecount-lags-post"):
        changed = _lagging_pagecount(request, response)
    elif op == "listUserQuestions" and q.get("page", "1") == "1" and _on("round21-user-questions-accepted-answers"):
        changed = _with_accepted(svc, request, caller, response)
    elif op == "listAnswerComments" and _on("round21-comment-text-cut-at-quote"):
        changed = _cut_at_quote(response)
    return response if changed is None else json_response(changed, response.status_code)


def _action(response: Response, key: str, change: Any) -> Any:
    body = body_json(response)
    action = _find(body, key)
    if action is None:
        return None
    change(action)
    return body


def _inactive_only(svc: Service, request: Request, response: Response) -> Any:
    """active=false in the paged branch: the flag read as "inactive ones" instead of "all"."""
    body = _envelope(body_json(response))
    node = _node(svc, request)
    if body is None or node is None:
        return None
    inactive = set(svc.db.ids("SELECT user_id FROM follows WHERE node_id = ? AND active = 0", (node["id"],)))
    body["list"] = [u for u in body["list"] if isinstance(u, dict) and u.get("id") in inactive]
    body["totalCount"] = len(inactive)
    body["listCount"] = len(body["list"])
    size = body.get("pageSize")
    if isinstance(size, int) and size > 0:
        body["pageCount"] = math.ceil(len(inactive) / size)
    return body


def _with_accepted(svc: Service, request: Request, caller: Caller, response: Response) -> Any:
    """A user's questions joined on the accepted answer's author as well as the question's."""
    body = _envelope(body_json(response))
    raw = request.path_params.get("user_id", "")
    if body is None or not str(raw).isdecimal() or any(k in request.query_params for k in ("includeOnly", "include",
                                                                                            "exclude")):
        return None
    clause, params = svc.visibility.clause(caller, "q")
    rows = svc.db.all(
        f"SELECT q.* FROM nodes q WHERE q.type = 'question' AND q.author_id != ? AND {clause} AND EXISTS"
        " (SELECT 1 FROM nodes a WHERE a.parent_id = q.id AND a.type = 'answer' AND a.marked = 1 AND a.author_id = ?)",
        [int(raw), *params, int(raw)])
    if not rows:
        return None
    added = svc.render.nodes_json(rows, caller)
    body["list"].extend(added)
    body["totalCount"] = int(body.get("totalCount", 0)) + len(added)
    body["listCount"] = len(body["list"])
    size = body.get("pageSize")
    if isinstance(size, int) and size > 0:
        body["pageCount"] = math.ceil(body["totalCount"] / size)
    return body


def _lagging_pagecount(request: Request, response: Response) -> Any:
    """pageCount from a count cached before the answer's newest comment; totalCount is read fresh."""
    raw = str(request.path_params.get("answer_id", ""))
    when = _commented.get(int(raw)) if raw.isdecimal() else None
    body = _envelope(body_json(response))
    if when is None or time.monotonic() - when > _COUNT_LAG_S or body is None:
        return None
    size, total = body.get("pageSize"), body.get("totalCount")
    if not (isinstance(size, int) and size > 0 and isinstance(total, int) and total > 0):
        return None
    body["pageCount"] = math.ceil((total - 1) / size)
    return body


def _cut_at_quote(response: Response) -> Any:
    """The comment text written into a quoted attribute and read back up to the first double quote."""
    body = _envelope(body_json(response))
    if body is None:
        return None
    for item in body["list"]:
        for key in ("body", "bodyAsHTML"):
            text = item.get(key) if isinstance(item, dict) else None
            if isinstance(text, str) and '"' in text:
                item[key] = text.split('"', 1)[0]
    return body
