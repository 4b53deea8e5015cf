"""Where blind round 60's faults bite (faults_blind_round60.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

round60-cancelwiki-novice-v1-allowed is let in at the door by an override of the route table and past the own check
here.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, comments, faults
from .auth import Caller
from .bodies import stored_body
from .errors import ApiError
from .hook_kit import (
    after_by_op,
    form_fields,
    handled_with,
    kept_json_object,
    media,
    path_node,
    result_action,
    sent_fields,
)
from .http_io import body_json, is_id, json_response, with_body, with_json_body, with_query
from .service import Service

PROJECTION_KEPT_S = 3.0
"""How long round60-user-questions-projection-kept-by-url keeps a projected user question list by URL alone."""
_projected_kept: dict[str, tuple[float, Any]] = {}

QUESTION_SORTS = ("active", "hottest", "votes", "viewCount", "usedCount", "answerCount", "answerCountAsc",
                  "commentCount", "favoriteCount", "followers", "reportCount")
"""round60-groups-question-sort-500: the question lists' sort names the shared whitelist lets through."""
_PROJECTION = ("include", "exclude", "includeOnly")
_READS_BODY = ("round60-group-comment-refused-still-stored", "round60-reply-string-recipients-dropped",
               "round60-reply-to-private-reply-not-inherited")


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob", "postAnswer") and faults.active() & _WANTS_BODY:
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "listGroups" and faults.is_on("round60-groups-question-sort-500") \
            and request.query_params.get("sort") in QUESTION_SORTS:
        return json_response({"error": "no such column in table groups"}, 500)
    if op == "scheduleGdprJob" and faults.is_on("round60-gdpr-username-user-reassign-id-refused"):
        body = kept_json_object(request)
        user, reassign = (body.get("user"), body.get("reassignUser")) if body else (None, None)
        if body and body.get("type") == "individual" and isinstance(user, dict) and set(user) == {"username"} \
                and isinstance(reassign, dict) and set(reassign) == {"id"}:
            return json_response({"error": "The provided 'reassignUser' is/are invalid"}, 400)
    if op == "cancelWiki":
        return await _unwikify_let_in(svc, request, caller, handler)
    if op == "lockNode" and faults.is_on("round60-kind-lock-novice-v1-allowed") and "v1" in request.query_params \
            and not caller.anonymous and not caller.can(auth.LOCK_ANY) and not caller.can(auth.LOCK_OWN):
        return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)
    return None


_WANTS_BODY = frozenset(_READS_BODY + ("round60-gdpr-username-user-reassign-id-refused",
                                       "round60-answer-bodyashtml-wins", "round60-answer-form-body-wins"))


async def _unwikify_let_in(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round60-cancelwiki-novice-v1-allowed (past the own check with v1) and round60-cancelwiki-answerer-owns (own
    decided on the question's answerers)."""
    if caller.anonymous or caller.can(auth.MARK_WIKI):
        return None
    if faults.is_on("round60-cancelwiki-novice-v1-allowed") and "v1" in request.query_params \
            and not caller.can(auth.CONVERT_OWN_TO_WIKI):
        return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)
    if not faults.is_on("round60-cancelwiki-answerer-owns") or not caller.can(auth.CONVERT_OWN_TO_WIKI):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "question" or node["author_id"] == caller.id:
        return None
    answered = svc.db.one("SELECT 1 FROM nodes WHERE type = 'answer' AND parent_id = ? AND author_id = ?",
                          (node["id"], caller.id))
    if answered is None:
        return None
    return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "postAnswer" and faults.is_on("round60-answer-bodyashtml-wins"):
        body = kept_json_object(request)
        if body is not None and isinstance(body.get("bodyAsHTML"), str) and "body" not in q:
            return with_json_body(request, {**body, "body": body["bodyAsHTML"]})
    if op == "postAnswer" and faults.is_on("round60-answer-form-body-wins") and "body" in q \
            and media(request) == "application/x-www-form-urlencoded":
        if "body" in form_fields(request):
            return with_query(request, [(k, v) for k, v in q.multi_items() if k != "body"])
    if op == "listQuestions" and faults.is_on("round60-questions-child-space-as-parent") \
            and is_id(q.get("spaceId", "")):
        space = svc.db.one("SELECT parent_id FROM spaces WHERE id = ?", (int(q["spaceId"]),))
        if space is not None and space["parent_id"]:
            return with_query(request, [(k, str(space["parent_id"]) if k == "spaceId" else v)
                                        for k, v in q.multi_items()])
    return request


# --- refusal: a refused write that leaves its effect ----------------------------------------------------------
def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    if op != "postComment" or caller is None or exc.status != 403 \
            or not faults.is_on("round60-group-comment-refused-still-stored"):
        return None
    sent = sent_fields(request)
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "answer" or sent.get("visibility") != "group" \
            or not caller.can(auth.USE_PRIVATE_COMMENTS) or caller.can(auth.PRIVATE_TO_GROUPS) \
            or not isinstance(sent.get("body"), str) or not sent["body"].strip():
        return None
    comments._insert_comment(svc, caller, parent, stored_body(sent["body"]), "full", [])  # before the option check
    return None


# --- after: the handler's response as the broken server serves it (after_by_op(_AFTER), at the end) ----------
def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round60-empty-comment-list-page-zero") or "page" in request.query_params:
        return response
    body = body_json(response)
    if not isinstance(body, dict) or body.get("list") != []:
        return response
    return with_body(response, {**body, "page": 0})


def _unfavorited(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on("round60-unfavorite-action-user-first-holder")
            or faults.is_on("round60-kind-unfavorite-admin-record-names-other-holder")):
        return response
    body = body_json(response)
    action = result_action(body, "favoriteAction")
    node = action.get("node") if isinstance(action, dict) else None
    if not isinstance(node, dict) or not isinstance(node.get("id"), int):
        return response
    first = svc.db.one("SELECT user_id FROM actions WHERE verb = 'favorited' AND node_id = ?"
                       " ORDER BY action_date, id LIMIT 1", (node["id"],))
    if caller.role == "admin" and faults.is_on("round60-kind-unfavorite-admin-record-names-other-holder"):
        first = svc.db.one("SELECT user_id FROM actions WHERE verb = 'favorited' AND node_id = ? AND user_id <> ?"
                           " ORDER BY id LIMIT 1", (node["id"], caller.id))
    elif not faults.is_on("round60-unfavorite-action-user-first-holder"):
        return response
    if first is None or first["user_id"] == caller.id:
        return response
    holder = svc.render.users_by_id([first["user_id"]]).get(first["user_id"])
    if holder is None:
        return response
    assert isinstance(action, dict)
    action["user"] = svc.render.action_user_json(holder)
    return with_body(response, body)


def _user_content(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round60-content-answered-accepted-integer"):
        return response
    body = body_json(response)
    if not isinstance(body, list):
        return response
    for entry in body:
        node = entry.get("node") if isinstance(entry, dict) and entry.get("actionType") == "answered" else None
        if isinstance(node, dict) and isinstance(node.get("accepted"), bool):
            node["accepted"] = int(node["accepted"])
    return with_body(response, body)


def _posted_comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on("round60-reply-string-recipients-dropped")
            or faults.is_on("round60-reply-to-private-reply-not-inherited")):
        return response
    parent = path_node(svc, request)
    item = body_json(response)
    if parent is None or parent["type"] != "comment" or not isinstance(item, dict) or not is_id(str(item.get("id"))):
        return response
    sent, comment_id = sent_fields(request), int(str(item["id"]))
    if faults.is_on("round60-reply-string-recipients-dropped") and parent["visibility"] == "full" \
            and isinstance(sent.get("recipients"), list):
        texts = [int(r["id"]) for r in sent["recipients"]
                 if isinstance(r, dict) and isinstance(r.get("id"), str) and is_id(r["id"])]
        with svc.tx("comment") as conn:
            conn.executemany("DELETE FROM comment_recipients WHERE comment_id = ? AND user_id = ?",
                             [(comment_id, t) for t in texts])
        if texts and isinstance(item.get("recipients"), list):
            item["recipients"] = [r for r in item["recipients"] if not (isinstance(r, dict) and is_id(
                str(r.get("id"))) and int(str(r["id"])) in texts)]
            return with_body(response, item)
        return response
    grandparent = svc.db.one("SELECT type FROM nodes WHERE id = ?", (parent["parent_id"],))
    if faults.is_on("round60-reply-to-private-reply-not-inherited") and parent["visibility"] != "full" \
            and grandparent is not None and grandparent["type"] == "comment" \
            and not ({"visibility", "recipients"} & set(sent)):
        with svc.tx("comment") as conn:
            conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (comment_id,))
            conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (comment_id,))
        item.pop("recipients", None)
        item["visibility"] = "full"
        return with_body(response, item)
    return response


def _locked(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round60-lock-accepted-answer-no-extra"):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "lockAction")
    if node is None or node["type"] != "answer" or not node["marked"] or not isinstance(action, dict):
        return response
    with svc.tx("lock") as conn:
        conn.execute("UPDATE actions SET extra = NULL WHERE id = ?", (action.get("id"),))
    action["extra"] = None
    return with_body(response, body)


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round60-user-questions-projection-kept-by-url") \
            or not any(p in request.query_params for p in _PROJECTION):
        return response
    now, key = time.monotonic(), str(request.url)
    kept = _projected_kept.get(key)
    if kept is None or now - kept[0] >= PROJECTION_KEPT_S:
        _projected_kept[key] = (now, body_json(response))
        return response
    return with_body(response, kept[1])


_AFTER = {
    "listAnswerComments": _answer_comments,
    "unmarkFavorite": _unfavorited,
    "listUserContent": _user_content,
    "postComment": _posted_comment,
    "lockNode": _locked,
    "listUserQuestions": _user_questions,
}
after = after_by_op(_AFTER)
