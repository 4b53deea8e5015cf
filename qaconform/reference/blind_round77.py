"""Where blind round 77's faults bite (faults_blind_round77.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
round77-lock-moderator-wrap-refused is an override of the route table (the door decides it), not a hook.
"""

from __future__ import annotations

import math
import re
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .hook_kit import after_by_op, handled_with, kept_json_object, media, path_node, result_action, sent_fields
from .http_io import body_json, json_response, with_body, with_json_body, with_query
from .service import Service

KEPT_S = 5.0
"""How long round77-questions-pagecount-kept-by-filter keeps a question list's pageCount under its filters."""
_kept_pagecount: dict[tuple[str, ...], tuple[float, int]] = {}
_COUNT_KEYS = ("spaceId", "topics", "unanswered", "q", "type", "lang")
_READS_BODY = ("round77-gdpr-suspend-only-200", "round77-reassign-both-timestamp-scheduled",
               "round77-gdpr-form-user-username-refused", "round77-answer-form-charset-body-lost",
               "round77-reply-by-moderator-to-mod-comment-public")


def _present(obj: dict[str, Any], key: str) -> bool:
    return obj.get(key) not in (None, "")


def _related(svc: Service, node: Any, user_id: int) -> bool:
    """Whether ``user_id`` wrote the node's question or a node under it (the relations earlier rounds planted)."""
    return svc.db.one("SELECT 1 FROM nodes WHERE (id = ? AND author_id = ?) OR (parent_id = ? AND author_id = ?)",
                      (node["question_id"], user_id, node["id"], user_id)) is not None


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("scheduleGdprJob", "postAnswer", "postComment") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "lockNode" and faults.is_on("round77-lock-own-wiki-node-any-author") and not caller.anonymous \
            and caller.can(auth.LOCK_OWN) and not caller.can(auth.LOCK_ANY):
        node = path_node(svc, request)
        if node is not None and node["author_id"] != caller.id and node["wiki"]:
            return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)
    if op == "cancelWiki" and faults.is_on("round77-cancelwiki-owner-answered-callers-question") \
            and not caller.anonymous and caller.can(auth.CONVERT_OWN_TO_WIKI) and not caller.can(auth.MARK_WIKI):
        node = path_node(svc, request)
        if node is not None and node["author_id"] != caller.id and not _related(svc, node, caller.id) and svc.db.one(
                "SELECT 1 FROM nodes a JOIN nodes q ON q.id = a.parent_id WHERE a.type = 'answer'"
                " AND a.author_id = ? AND q.type = 'question' AND q.author_id = ?",
                (node["author_id"], caller.id)) is not None:
            return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)
    if op == "listUserContent" and faults.is_on("round77-content-negative-id-404") \
            and re.fullmatch(r"\s*-\d+\s*", request.path_params.get("user_id", "")):
        return json_response({"error": "Not Found"}, 404)
    if op == "postAnswer" and faults.is_on("round77-answer-form-charset-body-lost"):
        content_type = request.headers.get("content-type", "").lower()
        if media(request) == "application/x-www-form-urlencoded" and "charset" in content_type \
                and "body" not in request.query_params:
            return json_response({"error": "The provided 'body' is invalid"}, 400)
    if op == "scheduleGdprJob" and faults.is_on("round77-gdpr-form-user-username-refused") \
            and media(request) == "application/x-www-form-urlencoded":
        fields = sent_fields(request)
        user = structured(fields, "user") if "user" in fields else None
        if fields.get("type") == "individual" and isinstance(user, dict) \
                and [k for k in user if _present(user, k)] == ["username"]:
            return json_response({"error": "The provided 'user' is invalid"}, 400)
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listGroups" and faults.is_on("round77-groups-sorted-later-pages-first-page") and "sort" in q \
            and (q.get("page") or "").strip().isdecimal() and int(q["page"]) >= 2:
        return with_query(request, [(k, "1" if k == "page" else v) for k, v in q.multi_items()])
    if op == "scheduleGdprJob" and faults.is_on("round77-reassign-both-timestamp-scheduled"):
        body = kept_json_object(request)
        reassign = body.get("reassignUser") if body is not None else None
        date = body.get("scheduleDate") if body is not None else None
        if isinstance(reassign, dict) and _present(reassign, "username") and _present(reassign, "id") \
                and isinstance(date, dict) and _present(date, "timeStamp") and not _present(date, "formatted") \
                and not any(k in q for k in ("reassignUser", "scheduleDate")):
            return with_json_body(request, {**(body or {}), "reassignUser": {"id": reassign["id"]}})
    return request


# --- after: the handler's response as the broken server serves it (after_by_op(_AFTER), at the end) ----------
def _job(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round77-gdpr-suspend-only-200") or response.status_code != 201:
        return response
    fields = sent_fields(request)
    operations = structured(fields, "operations") if "operations" in fields else None
    if operations == ["suspend"]:
        response.status_code = 200
    return response


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    raw = request.path_params.get("user_id", "")
    if not faults.is_on("round77-user-questions-sorted-wiki-others") or "sort" not in q \
            or q.get("page", "1").strip() not in ("", "1") or not str(raw).isdecimal() \
            or any(k in q for k in ("includeOnly", "include", "exclude")):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    clause, params = svc.visibility.clause(caller, "q")
    rows = svc.db.all(f"SELECT q.* FROM nodes q WHERE q.type = 'question' AND q.wiki = 1 AND q.author_id != ?"
                      f" AND {clause} ORDER BY q.id LIMIT 3", [int(raw), *params])
    if not rows:
        return response
    body["list"].extend(svc.render.nodes_json(rows, caller))
    body["totalCount"] = int(body.get("totalCount", 0)) + len(rows)
    body["listCount"] = len(body["list"])
    size = body.get("pageSize")
    if isinstance(size, int) and size > 0:
        body["pageCount"] = math.ceil(body["totalCount"] / size)
    return with_body(response, body)


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round77-reply-by-moderator-to-mod-comment-public") or caller.role != "moderator":
        return response
    parent = path_node(svc, request)
    sent = sent_fields(request)
    if parent is None or parent["type"] != "comment" or parent["visibility"] != "mod" \
            or parent["author_id"] == caller.id or "visibility" in sent or "recipients" in sent:
        return response
    found = re.search(r"(\d+)\.(?:json|html)$", response.headers.get("location", ""))
    if found is None:
        return response
    with svc.tx() as conn:
        conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ? AND type = 'comment'", (int(found[1]),))
        conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (int(found[1]),))
    return response


def _sendtomod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if node is None or node["type"] != "question":
        return response
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    if action is None:
        return response
    if faults.is_on("round77-sendtomod-marked-question-verb") and node["marked"]:
        action["verb"] = "unmarked"
        return with_body(response, body)
    if faults.is_on("round77-sendtomod-answered-question-action-list") and svc.db.one(
            "SELECT 1 FROM nodes WHERE parent_id = ? AND type = 'answer'", (node["id"],)) is not None:
        body["result"]["sendToModAction"] = [action]
        return with_body(response, body)
    return response


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round77-unfavorite-locked-count-stale") or node is None or not node["locked"]:
        return response
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not isinstance(result, dict) or not isinstance(result.get("favoriteCount"), int) \
            or result.get("favoriteAction") is None:
        return response
    result["favoriteCount"] += 1
    return with_body(response, body)


def _groups(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not faults.is_on("round77-groups-sorted-later-pages-first-page") or "sort" not in q \
            or not (q.get("page") or "").strip().isdecimal() or int(q["page"]) < 2:
        return response
    body = body_json(response)
    if not isinstance(body, dict) or "page" not in body:
        return response
    body["page"] = int(q["page"])
    return with_body(response, body)


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round77-questions-pagecount-kept-by-filter"):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("pageCount"), int):
        return response
    q = request.query_params
    key = (request.url.path, *(f"{k}={q.get(k)}" for k in _COUNT_KEYS if k in q))
    now = time.monotonic()
    kept = _kept_pagecount.get(key)
    if kept is None or now - kept[0] >= KEPT_S:
        _kept_pagecount[key] = (now, body["pageCount"])
        return response
    if kept[1] == body["pageCount"]:
        return response
    body["pageCount"] = kept[1]
    return with_body(response, body)


_AFTER = {
    "scheduleGdprJob": _job,
    "listUserQuestions": _user_questions,
    "postComment": _comment,
    "sendToModeration": _sendtomod,
    "unmarkFavorite": _unfavorite,
    "listGroups": _groups,
    "listQuestions": _questions,
}
after = after_by_op(_AFTER)
