"""Where the faults of blind round 35 bite (issue 44, :mod:`faults_blind_round35`): one :class:`request_hooks.Hook`
(``before``, ``admitted``, ``after``) plus :func:`lock_owner` (``actions.lock``) and :func:`bulk_reassign_refused`
(``gdpr_jobs``). Every function leaves the call as it is unless its own fault is on.

Why hooks and not edits of the handlers: each fault is a vendor's bug on one path; rewriting the request or the
response around the handler keeps every other path byte for byte as the reference server answers it.
"""

from __future__ import annotations

import json
import math
import sqlite3
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import bad_request, denied
from .hook_kit import uncanceled
from .http_io import body_json, is_id, json_response, path_id, with_body, with_query
from .listing import parse_paging
from .service import Service

Handler = Callable[[Service, Request, Caller], Awaitable[Response]]

SPACE_SORTS = frozenset({"name", "newest", "oldest"})
"""The sorts the reference server's space list knows (site_lists.NAMED_SORTS): any other name is invalid."""

LIST_CACHE_S = 3.0
"""How long round35-question-lists-cached-through-unwikify keeps a question list per URL and caller."""
_lists: dict[tuple[str, int], tuple[float, bytes]] = {}


# --- before: a response in place of the handler's ------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    if op == "unmarkFavorite" and faults.is_on("round35-unfavorite-novice-own-node"):
        return _unfavorite_own_node(svc, request, caller)
    if op == "listUserQuestions" and faults.is_on("round35-user-questions-sorted-pagesize-ignored"):
        return await _user_questions_default_size(svc, request, caller, handler)
    if op == "postAnswer" and faults.is_on("round35-answer-moderated-body-wins-over-param") and (
            "body" in request.query_params and not caller.can(auth.PUBLISH_ANSWER)):
        await request.body()  # kept on the request: admitted() reads it, and the handler reads it again
    return None


def _unfavorite_own_node(svc: Service, request: Request, caller: Caller) -> Response | None:
    """round35-unfavorite-novice-own-node: the route table let novice in (an override); on its own node it is
    answered as an unfavorite with nothing to undo, anywhere else refused as the row would have."""
    if caller.can(auth.MARK_FAVORITE) or caller.anonymous:
        return None
    node = svc.visible_node(caller, path_id(request))
    if node["author_id"] != caller.id:
        raise denied(caller.anonymous)
    return json_response({"success": True, "result": {"favoriteAction": None,
                                                      "favoriteCount": int(node["favorite_count"] or 0)}})


async def _user_questions_default_size(svc: Service, request: Request, caller: Caller,
                                       handler: Handler) -> Response | None:
    """round35-user-questions-sorted-pagesize-ignored: with sort, a pageSize below the default is echoed but the
    page is served at the default size."""
    q = request.query_params
    asked = q.get("pageSize") or ""
    if not q.get("sort") or not is_id(asked) or not 0 < int(asked) < svc.page_size:
        return None
    response = await handler(svc, with_query(request, [(k, v) for k, v in q.multi_items() if k != "pageSize"]),
                             caller)
    body = body_json(response)
    if response.status_code != 200 or not isinstance(body, dict):
        return response
    body["pageSize"] = int(asked)
    if isinstance(body.get("totalCount"), int):
        body["pageCount"] = math.ceil(body["totalCount"] / int(asked))
    return with_body(response, body)


# --- admitted: the request as the handler reads it -----------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op != "postAnswer" or not faults.is_on("round35-answer-moderated-body-wins-over-param"):
        return request
    if caller.can(auth.PUBLISH_ANSWER) or "body" not in request.query_params:
        return request
    if "body" not in _body_fields(request):
        return request
    return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "body"])


def _body_fields(request: Request) -> dict[str, Any]:
    """The fields of the body before() read (JSON object or form), empty when there is none."""
    raw = vars(request).get("_body") or b""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    try:
        if media == "application/json" or media.endswith("+json"):
            value = json.loads(raw)
            return value if isinstance(value, dict) else {}
        if media == "application/x-www-form-urlencoded":
            return dict(parse_qsl(raw.decode("utf-8"), keep_blank_values=True))
    except (ValueError, UnicodeDecodeError):
        return {}
    return {}


# --- after: the handler's response as the broken server serves it --------------------------------------------
def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if request.method != "GET" and op != "cancelWiki":
        _lists.clear()  # round35-question-lists-cached-through-unwikify: every write but an unwikify drops it
    if op in ("listQuestions", "listUserQuestions") and faults.is_on("round35-question-lists-cached-through-unwikify"):
        return _cached_list(request, caller, response)
    if response.status_code != 200:
        return response
    if op == "listSpaces" and faults.is_on("round35-spaces-invalid-sort-novice-by-id"):
        return _spaces_by_id(svc, request, caller, response)
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not isinstance(result, dict):
        return response
    changed = False
    if op == "cancelWiki":
        changed = _cancelwiki(svc, caller, result)
    elif op == "unmarkFavorite":
        changed = _unfavorite(svc, caller, result)
    elif op == "sendToModeration":
        changed = _sendtomod(svc, request, result)
    elif op == "lockNode":
        changed = _lock(svc, request, result)
    return with_body(response, body) if changed else response


def _cached_list(request: Request, caller: Caller, response: Response) -> Response:
    key, now = (str(request.url), caller.id), time.monotonic()
    kept = _lists.get(key)
    if kept is not None and now - kept[0] < LIST_CACHE_S:
        return Response(kept[1], media_type=response.media_type or "application/json")
    if response.status_code == 200:
        _lists[key] = (now, bytes(response.body))
    return response


def _spaces_by_id(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round35-spaces-invalid-sort-novice-by-id: an invalid sort, asked by a caller with a hidden space, orders the
    page by id."""
    q = request.query_params
    hidden = svc.visibility.spaces_hidden_from(caller)
    if not q.get("sort") or q.get("sort") in SPACE_SORTS or not hidden:
        return response
    if any(k in q for k in ("include", "exclude", "includeOnly")) or not caller.can(auth.VIEW_QUESTIONS_LIST):
        return response
    body = body_json(response)
    if not isinstance(body, dict):
        return response
    paging = parse_paging(q, svc.page_size)
    rows = svc.db.all(
        f"SELECT * FROM spaces WHERE id NOT IN ({','.join(str(int(s)) for s in sorted(hidden))})"
        " ORDER BY id LIMIT ? OFFSET ?", [paging.size, paging.offset])
    body["list"] = [svc.render.space_json(r) for r in rows]
    return with_body(response, body)


def _node(svc: Service, request: Request) -> sqlite3.Row | None:
    raw = request.path_params.get("node_id", "")
    if not is_id(raw):
        return None
    return svc.db.one("SELECT n.*, u.role AS author_role FROM nodes n LEFT JOIN users u ON u.id = n.author_id"
                      " WHERE n.id = ?", (int(raw),))


def _cancelwiki(svc: Service, caller: Caller, result: dict[str, Any]) -> bool:
    action = result.get("wikifyAction")
    if not isinstance(action, dict):
        return False
    changed = False
    wikifier = (action.get("user") or {}).get("id")
    if faults.is_on("round35-cancelwiki-cancels-callers-own-wikify-only") and wikifier != caller.id:
        with svc.tx("wiki") as conn:  # the UPDATE ... AND user_id = caller touched no row
            conn.execute("UPDATE actions SET canceled = 0, canceled_by = NULL, canceled_date = NULL WHERE id = ?",
                         (action.get("id"),))
        uncanceled(action)
        changed = True
    if faults.is_on("round35-cancelwiki-admin-node-result-key"):
        node_id = (action.get("node") or {}).get("id")
        row = svc.db.one("SELECT u.role FROM nodes n JOIN users u ON u.id = n.author_id WHERE n.id = ?", (node_id,))
        if row is not None and row["role"] == "admin":
            result["wikiAction"] = result.pop("wikifyAction")
            changed = True
    return changed


def _unfavorite(svc: Service, caller: Caller, result: dict[str, Any]) -> bool:
    action = result.get("favoriteAction")
    changed = False
    if isinstance(action, dict) and caller.role == "admin" and faults.is_on(
            "round35-unfavorite-admin-record-before-cancel"):
        uncanceled(action)
        changed = True
    if result.get("favoriteCount") == 0 and faults.is_on("round35-unfavorite-count-omitted-at-zero"):
        del result["favoriteCount"]
        changed = True
    return changed


def _sendtomod(svc: Service, request: Request, result: dict[str, Any]) -> bool:
    action = result.get("sendToModAction")
    if not isinstance(action, dict) or not faults.is_on("round35-sendtomod-answer-node-type-question"):
        return False
    node = _node(svc, request)
    if node is None or node["type"] != "answer" or not isinstance(action.get("node"), dict):
        return False
    action["node"]["type"] = "question"
    return True


def _lock(svc: Service, request: Request, result: dict[str, Any]) -> bool:
    action = result.get("lockAction")
    if not isinstance(action, dict) or not faults.is_on("round35-lock-after-sendtomod-extra-null"):
        return False
    node = _node(svc, request)
    if node is None or not node["in_moderation"]:
        return False
    with svc.tx("lock") as conn:  # the extra of the node's moderation record, kept on the lock
        conn.execute("UPDATE actions SET extra = NULL WHERE id = ?", (action.get("id"),))
    action["extra"] = None
    return True


# --- in the handlers ------------------------------------------------------------------------------------------
def lock_owner(db: Any, node: sqlite3.Row, caller: Caller) -> bool:
    """round35-lock-own-group-peer (``actions.lock``): a node by an account sharing a group with the caller taken
    as the caller's own."""
    if not faults.is_on("round35-lock-own-group-peer") or caller.anonymous or not caller.group_ids:
        return False
    if node["author_id"] == caller.id:
        return False
    groups = ",".join(str(int(g)) for g in sorted(caller.group_ids))
    return db.one(f"SELECT 1 FROM user_groups WHERE user_id = ? AND group_id IN ({groups})",
                  (node["author_id"],)) is not None


def bulk_reassign_refused(fields: dict[str, Any], reassign: Any) -> None:
    """round35-gdpr-bulk-reassign-username-invalid (``gdpr_jobs``): a bulk job's reassignUser found by id only."""
    if not faults.is_on("round35-gdpr-bulk-reassign-username-invalid") or fields.get("type") != "bulk":
        return
    if isinstance(reassign, dict) and reassign.get("username") not in (None, "") and reassign.get("id") in (None, ""):
        raise bad_request("The provided 'reassignUser' is/are invalid")
