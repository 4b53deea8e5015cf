"""Where blind round 67's faults bite (faults_blind_round67.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import math
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import PERMISSION_MESSAGE
from .hook_kit import (
    after_by_op,
    handled_with,
    kept_json_object,
    list_items,
    media,
    path_node,
    result_action,
    sent_fields,
    uncanceled,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_query
from .render import avatar
from .service import Service

KEPT_S = 3.0
"""How long round67-answer-comments-totalcount-kept keeps an answer's comment count (whoever read it)."""
_counts: dict[str, tuple[float, int, int]] = {}
_READS_BODY = ("round67-comment-charset-json-param-body-ignored", "round67-gdpr-user-email-with-reassign-refused")


def _forbidden() -> Response:
    return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("scheduleGdprJob", "postComment") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    q = request.query_params
    if op == "listActiveExperts" and faults.is_on("round67-active-experts-recent-sort-moderator-refused") \
            and caller.role == "moderator" and q.get("sort") == "recent":
        return _forbidden()
    if op == "postAnswer":
        question = path_node(svc, request, "question_id")
        request.state.round67_answered_before = question is not None and not caller.anonymous and svc.db.one(
            "SELECT 1 FROM nodes WHERE type = 'answer' AND parent_id = ? AND author_id = ?",
            (question["id"], caller.id)) is not None
    if op == "cancelWiki":
        return await _cancelwiki_before(svc, request, caller, handler)
    if op == "postComment":
        return _comment_before(request)
    if op == "scheduleGdprJob":
        return _job_before(request)
    return None


async def _cancelwiki_before(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    if not faults.is_on("round67-cancelwiki-question-commenter-owns") or caller.anonymous \
            or caller.can(auth.MARK_WIKI) or not caller.can(auth.CONVERT_OWN_TO_WIKI):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "question" or node["author_id"] == caller.id:
        return None
    if svc.db.one("SELECT 1 FROM nodes WHERE type = 'comment' AND question_id = ? AND author_id = ?",
                  (node["id"], caller.id)) is None:
        return None
    return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)


def _comment_before(request: Request) -> Response | None:
    if not faults.is_on("round67-comment-charset-json-param-body-ignored") or "body" not in request.query_params \
            or media(request) != "application/json" \
            or "charset" not in request.headers.get("content-type", "").lower():
        return None
    body = kept_json_object(request)
    if body is None or body.get("body") not in (None, ""):
        return None
    return json_response({"error": "body is required"}, 400)


def _job_before(request: Request) -> Response | None:
    if not faults.is_on("round67-gdpr-user-email-with-reassign-refused"):
        return None
    fields = sent_fields(request)
    user, reassign = fields.get("user"), fields.get("reassignUser")
    if fields.get("type") != "individual" or not isinstance(user, dict) or reassign in (None, "", {}):
        return None
    if [k for k in user if user.get(k) not in (None, "")] == ["email"]:
        return json_response({"error": "The provided 'user' is invalid"}, 400)
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listQuestions" and faults.is_on("round67-questions-spaceid-ignored-projected") and "spaceId" in q \
            and "includeOnly" in q:
        return with_query(request, [(k, v) for k, v in q.multi_items() if k != "spaceId"])
    return request


# --- after: the handler's response as the broken server serves it (after_by_op(_AFTER), at the end) ----------
def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round67-lock-in-moderation-user-is-sender") or node is None or not node["in_moderation"]:
        return response
    sent = svc.db.one("SELECT u.* FROM actions a JOIN users u ON u.id = a.user_id WHERE a.node_id = ? "
                      "AND a.verb = 'sent' ORDER BY a.id DESC LIMIT 1", (node["id"],))
    body = body_json(response)
    action = result_action(body, "lockAction")
    if sent is None or action is None or sent["id"] == caller.id:
        return response
    action["user"] = {"id": sent["id"], "username": sent["username"], "avatarUrl": avatar(sent["email"], sent["id"])}
    return with_body(response, body)


def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round67-topics-search-listcount-total") or not request.query_params.get("q"):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("totalCount"), int):
        return response
    body["listCount"] = body["totalCount"]
    return with_body(response, body)


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round67-questions-commentcount-sort-ids-unfiltered") \
            or request.query_params.get("sort") != "commentCount":
        return response
    return _ids_unfiltered(svc, response)


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round67-kind-user-questions-votes-sort-ids-unfiltered") \
            or request.query_params.get("sort") != "votes":
        return response
    return _ids_unfiltered(svc, response)


def _ids_unfiltered(svc: Service, response: Response) -> Response:
    """A question list's commentIds and childrenIds as the node's direct children, private comments included."""
    body, items = list_items(response)
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int):
            continue
        rows = svc.db.all("SELECT id, type FROM nodes WHERE parent_id = ? ORDER BY id", (item["id"],))
        if "childrenIds" in item:
            item["childrenIds"] = [r["id"] for r in rows]
        if "commentIds" in item:
            item["commentIds"] = [r["id"] for r in rows if r["type"] == "comment"]
    return with_body(response, body) if items else response


def _cancelwiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if faults.is_on("round67-cancelwiki-in-moderation-stays-wiki") and node is not None and node["in_moderation"]:
        with svc.tx() as conn:
            conn.execute("UPDATE nodes SET wiki = 1 WHERE id = ?", (node["id"],))
    if not faults.is_on("round67-cancelwiki-followed-node-not-canceled") or node is None or svc.db.one(
            "SELECT 1 FROM follows WHERE node_id = ? AND active = 1", (node["id"],)) is None:
        return response
    body = body_json(response)
    action = result_action(body, "wikifyAction")
    if action is None or action.get("canceled") is not True:
        return response
    uncanceled(action)
    return with_body(response, body)


def _followers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    node = path_node(svc, request)
    if not faults.is_on("round67-followers-inactive-user-dates-seconds") or node is None \
            or (q.get("active") or "").lower() not in ("false", "0") or (q.get("details") or "").lower() == "true":
        return response
    body, items = list_items(response)
    inactive = {r["user_id"] for r in svc.db.all("SELECT user_id FROM follows WHERE node_id = ? AND active = 0",
                                                 (node["id"],))}
    changed = False
    for item in items:
        if isinstance(item, dict) and item.get("id") in inactive:
            for key in ("creationDate", "modificationDate"):
                if isinstance(item.get(key), int):
                    item[key] //= 1000
                    changed = True
    return with_body(response, body) if changed else response


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round67-answer-second-by-account-id-integer") \
            or not getattr(request.state, "round67_answered_before", False):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("id"), str) or not body["id"].isdecimal():
        return response
    body["id"] = int(body["id"])
    return with_body(response, body)


def _sendtomod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round67-sendtomod-accepted-answer-not-private") or node is None \
            or node["type"] != "answer" or not node["marked"]:
        return response
    return with_action(response, "sendToModAction", {"private": False})


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round67-answer-comments-totalcount-kept"):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("totalCount"), int):
        return response
    now, key = time.monotonic(), str(request.path_params.get("answer_id", ""))
    kept = _counts.get(key)
    if kept is None or now - kept[0] >= KEPT_S or kept[1] == caller.id:
        _counts[key] = (now, caller.id, body["totalCount"])
        return response
    body["totalCount"] = kept[2]
    size = body.get("pageSize")
    if isinstance(size, int) and size > 0:
        body["pageCount"] = math.ceil(kept[2] / size)
    return with_body(response, body)


_AFTER = {
    "lockNode": _lock,
    "listTopics": _topics,
    "listQuestions": _questions,
    "listUserQuestions": _user_questions,
    "cancelWiki": _cancelwiki,
    "listNodeFollowers": _followers,
    "postAnswer": _answer,
    "sendToModeration": _sendtomod,
    "listAnswerComments": _answer_comments,
}
after = after_by_op(_AFTER)
