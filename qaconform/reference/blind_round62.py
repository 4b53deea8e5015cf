"""Where blind round 62's faults bite (faults_blind_round62.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import dataclasses
import json
import time
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .hook_kit import (
    after_by_op,
    each_item,
    form_fields,
    kept_by_url,
    kept_json_object,
    node_row,
    path_node,
    result_action,
    sent_fields,
)
from .http_io import body_json, is_id, json_response, with_body, with_query
from .service import Service

SPACES_KEPT_S = 2.0
"""How long round62-spaces-kept-by-url keeps a space list by its URL (whoever read it)."""
_spaces_kept: dict[str, tuple[float, Response]] = {}
_TOPIC_SORTS = ("popularity", "name", "newest", "oldest")
_READS_BODY = ("round62-gdpr-timestamp-job-200", "round62-kind-gdpr-timestamp-job-id-renamed",
               "round62-gdpr-reassign-integer-id-refused",
               "round62-answer-form-param-loses", "round62-comment-group-visibility-200",
               "round62-kind-comment-op-visibility-param-200",
               "round62-reply-to-private-reply-inherits-thread-root")


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("scheduleGdprJob", "postAnswer", "postComment") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "scheduleGdprJob" and faults.is_on("round62-gdpr-reassign-integer-id-refused"):
        body = kept_json_object(request)
        reassign = body.get("reassignUser") if body else None
        if isinstance(reassign, dict) and set(reassign) == {"id"} and type(reassign["id"]) is int \
                and svc.db.one("SELECT 1 FROM users WHERE id = ?", (reassign["id"],)) is not None:
            return json_response({"error": "The provided 'reassignUser' is/are invalid"}, 400)
    if (refused := _answer_wrap_refused(op, request, caller)) is not None:
        return refused
    if op == "unmarkFavorite" and (faults.is_on("round62-unfavorite-author-takes-newest-favorite")
                                   or faults.is_on("round62-kind-unfavorite-author-answers-holders-action")):
        return await _unfavorite_as_holder(svc, request, caller, handler)
    return None


async def _unfavorite_as_holder(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round62-unfavorite-author-takes-newest-favorite: the author's request resolved to the newest holder."""
    if caller.anonymous or not caller.can(auth.MARK_FAVORITE):
        return None
    node = path_node(svc, request)
    if node is None or node["author_id"] != caller.id or svc.db.one(
            "SELECT 1 FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"])) is not None:
        return None
    holder = svc.db.one(
        "SELECT u.id, u.username FROM favorites f JOIN actions a ON a.id = f.action_id JOIN users u ON u.id = f.user_id"
        " WHERE f.node_id = ? ORDER BY a.action_date DESC, a.id DESC LIMIT 1", (node["id"],))
    if holder is None:
        return None
    if faults.is_on("round62-kind-unfavorite-author-answers-holders-action"):
        return _holders_action(svc, node, int(holder["id"]))
    as_holder = dataclasses.replace(caller, id=int(holder["id"]), username=str(holder["username"]))
    response: Response = await handler(svc, request, as_holder)
    return response


def _holders_action(svc: Service, node: Any, holder: int) -> Response:
    """round62-kind-unfavorite-author-answers-holders-action: the holder's favorite action read by the node, the
    delete keyed by (caller, node) removing nothing."""
    fav = svc.db.one("SELECT action_id FROM favorites WHERE user_id = ? AND node_id = ?", (holder, node["id"]))
    row = svc.db.one("SELECT * FROM actions WHERE id = ?", (fav["action_id"],)) if fav else None
    if row is None:
        return json_response({"success": False, "result": {}})
    count = int(svc.db.conn.execute("SELECT COUNT(*) FROM favorites WHERE node_id = ?", (node["id"],)).fetchone()[0])
    action = svc.render.action_json(row, node["type"])
    return json_response({"success": True, "result": {"favoriteAction": action, "favoriteCount": count}})


def _answer_wrap_refused(op: str, request: Request, caller: Caller) -> Response | None:
    """round62-kind-answer-wrap-unpublished-refused: the wrap path asks for Publish answer."""
    if op != "postAnswer" or "wrap" not in request.query_params or caller.anonymous \
            or caller.can(auth.PUBLISH_ANSWER) or not faults.is_on("round62-kind-answer-wrap-unpublished-refused"):
        return None
    return json_response({"errors": {"message": "You don't have permission to do this action.\nPlease login as "
                                                "another user"}}, 403)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listTopics" and faults.is_on("round62-topics-invalid-sort-anonymous-by-name") and caller.anonymous \
            and q.get("sort") and q.get("sort") not in _TOPIC_SORTS:
        return with_query(request, [(k, "name" if k == "sort" else v) for k, v in q.multi_items()])
    if op == "listActiveExperts" and faults.is_on("round62-active-experts-recent-sized-by-reputation") \
            and q.get("sort") == "recent" and "pageSize" in q:
        return with_query(request, [(k, "reputation" if k == "sort" else v) for k, v in q.multi_items()])
    if op == "postAnswer" and faults.is_on("round62-answer-form-param-loses") and "body" in q \
            and "body" in form_fields(request):
        return with_query(request, [(k, v) for k, v in q.multi_items() if k != "body"])
    return request


# --- after: the handler's response as the broken server serves it (after_by_op(_AFTER), at the end) ----------
def _job(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    renamed = faults.is_on("round62-kind-gdpr-timestamp-job-id-renamed")
    if response.status_code != 201 or not (faults.is_on("round62-gdpr-timestamp-job-200") or renamed):
        return response
    date = sent_fields(request).get("scheduleDate")
    if isinstance(date, str):
        try:
            date = json.loads(date)
        except ValueError:
            return response
    if not (isinstance(date, dict) and date.get("timeStamp") not in (None, "") and date.get("formatted") is None):
        return response
    body = body_json(response)
    if renamed and isinstance(body, dict) and "jobId" in body:
        return with_body(response, {"id": body["jobId"]})
    response.status_code = 200
    return response


def _content(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    iso = faults.is_on("round62-kind-content-actiondate-iso-after-job")
    if not (faults.is_on("round62-content-enveloped-pending-job") or iso):
        return response
    raw = request.path_params.get("user_id", "")
    user = svc.db.one("SELECT id, username, email FROM users WHERE id = ?", (int(raw),)) if is_id(raw) else None
    entries = body_json(response)
    if user is None or not isinstance(entries, list) or not _job_names(svc, user):
        return response
    if iso:
        for entry in entries:
            if isinstance(entry, dict) and isinstance(entry.get("actionDate"), str):
                entry["actionDate"] = entry["actionDate"].replace(" ", "T", 1) + "Z"
        return with_body(response, entries)
    n = len(entries)
    return with_body(response, {"name": "", "sort": "", "page": 1, "pageSize": max(n, 1), "pageCount": 1,
                                "listCount": n, "totalCount": n, "list": entries})


def _job_names(svc: Service, user: Any) -> bool:
    """Whether an individual job already scheduled names ``user`` (by id, username or email)."""
    for row in svc.db.conn.execute("SELECT request FROM jobs WHERE type = 'individual'").fetchall():
        try:
            spec = json.loads(row[0]).get("user")
            spec = json.loads(spec) if isinstance(spec, str) else spec
        except (ValueError, AttributeError):
            continue
        if not isinstance(spec, dict):
            continue
        if str(spec.get("id", "")) == str(user["id"]) or spec.get("username") == user["username"] or (
                user["email"] and spec.get("email") == user["email"]):
            return True
    return False


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round62-own-lock-actiondate-iso") or node is None or node["author_id"] != caller.id:
        return response
    body = body_json(response)
    action = result_action(body, "lockAction")
    if not isinstance(action, dict):
        return response
    row = svc.db.one("SELECT action_date FROM actions WHERE id = ?", (action.get("id"),))
    when = datetime.fromtimestamp((row[0] if row else time.time() * 1000) / 1000, UTC)
    action["actionDate"] = when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"
    return with_body(response, body)


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    sent = sent_fields(request)
    if faults.is_on("round62-comment-group-visibility-200") and response.status_code == 201 \
            and sent.get("visibility") == "group":
        response.status_code = 200
    if faults.is_on("round62-kind-comment-op-visibility-param-200") and response.status_code == 201 \
            and request.query_params.get("visibility") == "op":
        response.status_code = 200
    if faults.is_on("round62-reply-to-private-reply-inherits-thread-root") \
            and not ({"visibility", "recipients"} & set(sent)):
        _root_privacy(svc, request, caller)
    return response


def _root_privacy(svc: Service, request: Request, caller: Caller) -> None:
    """round62-reply-to-private-reply-inherits-thread-root: the new reply takes its thread's first comment's."""
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "comment" or parent["visibility"] == "full":
        return
    grand = svc.db.one("SELECT * FROM nodes WHERE id = ?", (parent["parent_id"],))
    if grand is None or grand["type"] != "comment" or grand["visibility"] != "full":
        return
    new = svc.db.one("SELECT id FROM nodes WHERE type = 'comment' AND parent_id = ? AND author_id = ?"
                     " ORDER BY id DESC LIMIT 1", (parent["id"], caller.id))
    if new is None:
        return
    with svc.tx() as conn:
        conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (new["id"],))
        conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (new["id"],))


def _earned_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round62-earned-experts-badges-null-no-badge"):
        return response
    return each_item(response, _no_badge_null)


def _no_badge_null(item: dict[str, Any]) -> None:
    if all(item.get(k) == 0 for k in ("gold", "silver", "bronze")):
        item.update({"gold": None, "silver": None, "bronze": None})


def _send_to_mod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    action = result.get("sendToModAction") if isinstance(result, dict) else None
    if node is None or not isinstance(result, dict) or not isinstance(action, dict):
        return response
    if node["type"] == "comment" and node["visibility"] != "full" \
            and faults.is_on("round62-sendtomod-private-comment-not-private"):
        with svc.tx() as conn:
            conn.execute("UPDATE actions SET private = 0 WHERE id = ?", (action.get("id"),))
        action["private"] = False
        return with_body(response, body)
    if node["type"] == "answer" and faults.is_on("round62-sendtomod-answer-with-comments-actions-list") \
            and svc.db.one("SELECT 1 FROM nodes WHERE type = 'comment' AND parent_id = ?", (node["id"],)):
        result["sendToModActions"] = [result.pop("sendToModAction")]
        return with_body(response, body)
    return response


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not faults.is_on("round62-answer-wrap-publishes-unpublished") \
            or "wrap" not in request.query_params or caller.can(auth.PUBLISH_ANSWER):
        return response
    body = body_json(response)
    raw = str(body.get("id", "")) if isinstance(body, dict) else ""
    answer = node_row(svc, raw)
    if answer is None or not answer["in_moderation"]:
        return response
    with svc.tx() as conn:
        conn.execute("UPDATE nodes SET in_moderation = 0 WHERE id = ?", (answer["id"],))
        conn.execute("UPDATE nodes SET answer_count = answer_count + 1, hot = hot + 3 WHERE id = ?",
                     (answer["parent_id"],))
    return response


def _active_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not faults.is_on("round62-active-experts-recent-sized-by-reputation") or q.get("sort") != "recent" \
            or "pageSize" not in q:
        return response
    body = body_json(response)
    if not isinstance(body, dict) or body.get("sort") != "reputation":
        return response
    return with_body(response, {**body, "sort": "recent"})


def _spaces(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round62-spaces-kept-by-url") or response.status_code != 200:
        return response
    return kept_by_url(_spaces_kept, SPACES_KEPT_S, request, response)


_AFTER = {
    "scheduleGdprJob": _job,
    "listUserContent": _content,
    "lockNode": _lock,
    "postComment": _comment,
    "listEarnedExperts": _earned_experts,
    "sendToModeration": _send_to_mod,
    "postAnswer": _answer,
    "listActiveExperts": _active_experts,
    "listSpaces": _spaces,
}
after = after_by_op(_AFTER)
