"""Where blind round 72's faults bite (faults_blind_round72.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import PERMISSION_MESSAGE
from .hook_kit import (
    after_by_op,
    each_item,
    id_as_string,
    kept_by_url,
    kept_json_object,
    let_in_through,
    list_items,
    path_node,
    sent_fields,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_query
from .service import Service

KEPT_S = 2.0
"""How long round72-questions-projected-kept-by-url keeps a projected question list by its URL (whoever read it)."""
_kept: dict[str, tuple[float, Response]] = {}
_INHERITED = "Visibility on comment can't be defined since it's inherited"
_READS_BODY = ("round72-comment-visibility-body-wins", "round72-gdpr-bulk-reassign-id-invalid",
               "round72-reply-to-public-reply-privacy-refused")


def _refused(status: int) -> Response:
    return json_response({"errors": {"message": PERMISSION_MESSAGE}}, status)


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    q = request.query_params
    if op in ("scheduleGdprJob", "postComment") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "listUserQuestions" and faults.is_on("round72-user-questions-anonymous-sized-401") \
            and caller.anonymous and "pageSize" in q:
        return _refused(401)
    if op == "listSpaces" and faults.is_on("round72-spaces-sorted-denied-space-403") and q.get("sort") \
            and not caller.anonymous and svc.visibility.spaces_hidden_from(caller):
        return _refused(403)
    if op == "listNodeFollowers" and faults.is_on("round72-followers-details-non-moderator-403") \
            and (q.get("details") or "").strip().lower() == "true" and not caller.sees_moderation:
        return _refused(401 if caller.anonymous else 403)
    if op == "cancelWiki" and not caller.anonymous and caller.can(auth.MARK_WIKI):
        return _cancelwiki_before(svc, request, caller)
    if op == "lockNode" and faults.is_on("round72-lock-comment-parent-author-owns"):
        return await let_in_through(svc, request, caller, handler, kind="comment", own=auth.LOCK_OWN,
                                    granted=auth.LOCK_ANY, through=("parent_id",))
    if op == "postAnswer" and faults.is_on("round72-extra-answer-child-space-refused") and not caller.anonymous \
            and not caller.sees_moderation:
        question = path_node(svc, request, "question_id")
        space = None if question is None else svc.db.one("SELECT parent_id FROM spaces WHERE id = ?",
                                                         (question["space_id"],))
        if space is not None and space["parent_id"] is not None:
            return _refused(403)
    if op == "scheduleGdprJob":
        return _job_before(request)
    if op == "postComment":
        return _comment_before(svc, request)
    return None


def _cancelwiki_before(svc: Service, request: Request, caller: Caller) -> Response | None:
    """A moderator refused on an administrator's node (round72-cancelwiki-moderator-admin-node-refused), or on an
    administrator's answer only (the kind proof)."""
    node = path_node(svc, request)
    author = None if node is None else svc.db.one("SELECT role FROM users WHERE id = ?", (node["author_id"],))
    if node is None or author is None or node["author_id"] == caller.id or caller.role != "moderator" \
            or author["role"] != "admin":
        return None
    if faults.is_on("round72-cancelwiki-moderator-admin-node-refused") or (
            node["type"] == "answer" and faults.is_on("round72-kind-cancelwiki-moderator-admin-answer-refused")):
        return _refused(403)
    return None


def _job_before(request: Request) -> Response | None:
    if not faults.is_on("round72-gdpr-bulk-reassign-id-invalid"):
        return None
    fields = sent_fields(request)
    reassign = structured(fields, "reassignUser") if "reassignUser" in fields else None
    if fields.get("type") == "bulk" and isinstance(reassign, dict) \
            and [k for k in reassign if reassign.get(k) not in (None, "")] == ["id"]:
        return json_response({"error": "The provided 'reassignUser' is/are invalid"}, 400)
    return None


def _comment_before(svc: Service, request: Request) -> Response | None:
    if not faults.is_on("round72-reply-to-public-reply-privacy-refused"):
        return None
    parent = path_node(svc, request)
    visibility = sent_fields(request).get("visibility")
    if parent is None or parent["type"] != "comment" or parent["visibility"] != "full" \
            or visibility in (None, "", "full"):
        return None
    grand = svc.db.one("SELECT type FROM nodes WHERE id = ?", (parent["parent_id"],))
    if grand is not None and grand["type"] == "comment":
        return json_response({"error": _INHERITED}, 400)
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listQuestions" and faults.is_on("round72-questions-spaceid-dropped-projected") and "spaceId" in q \
            and q.get("includeOnly"):
        return with_query(request, [(k, v) for k, v in q.multi_items() if k != "spaceId"])
    if op == "postComment" and faults.is_on("round72-comment-visibility-body-wins") and "visibility" in q:
        body = kept_json_object(request)
        if body is not None and body.get("visibility") not in (None, ""):
            return with_query(request, [(k, v) for k, v in q.multi_items() if k != "visibility"])
    return request


# --- after: the handler's response as the broken server serves it (after_by_op(_AFTER), at the end) ----------
def _groups(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round72-groups-newest-id-string") and request.query_params.get("sort") == "newest":
        return each_item(response, id_as_string)
    return response


def _spaces(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round72-spaces-child-active-int"):
        return each_item(response, _child_active_int)
    return response


def _child_active_int(item: dict[str, Any]) -> None:
    if isinstance(item.get("parentId"), int) and item["parentId"] > 0 and isinstance(item.get("active"), bool):
        item["active"] = int(item["active"])


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round72-comment-recipients-first-only") \
            or faults.is_on("round72-extra-comment-group-no-recipients-key"):
        return each_item(response, _comment_privacy)
    return response


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if faults.is_on("round72-questions-spaceid-no-sorts") and "spaceId" in q:
        body, _ = list_items(response)
        if isinstance(body, dict) and "sorts" in body:
            body.pop("sorts")
            return with_body(response, body)
    if not faults.is_on("round72-questions-projected-kept-by-url") or not q.get("includeOnly"):
        return response
    return kept_by_url(_kept, KEPT_S, request, response)


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not faults.is_on("round72-extra-answer-wrap-no-parent-author") or "wrap" not in request.query_params \
            or not isinstance(body, dict) or "parentAuthor" not in body:
        return response
    body.pop("parentAuthor")
    return with_body(response, body)


def _comment_privacy(item: dict[str, Any]) -> None:
    if faults.is_on("round72-comment-recipients-first-only") and item.get("visibility") == "recipients" \
            and isinstance(item.get("recipients"), list) and len(item["recipients"]) >= 2:
        item["recipients"] = item["recipients"][:1]
    if faults.is_on("round72-extra-comment-group-no-recipients-key") and item.get("visibility") == "group":
        item.pop("recipients", None)


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round72-extra-user-questions-child-containerids-text"):
        return each_item(response, _containers_as_text)
    return response


def _containers_as_text(item: dict[str, Any]) -> None:
    containers = item.get("containerIds")
    if isinstance(containers, list) and len(containers) >= 2:
        item["containerIds"] = ",".join(str(c) for c in containers)


def _content(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not faults.is_on("round72-extra-content-accepted-date-textual") or not isinstance(body, list):
        return response
    for entry in body:
        node = entry.get("node") if isinstance(entry, dict) else None
        if isinstance(node, dict) and node.get("accepted") is True and isinstance(entry.get("actionDate"), str):
            entry["actionDate"] = _textual(entry["actionDate"])
    return with_body(response, body)


def _textual(stamp: str) -> str:
    """YYYY-MM-DD HH:MM:SS.S as the acceptance record writes it (Tue Dec 01 21:25:12 UTC 2026); as it is when
    it is not in that pattern."""
    try:
        moment = datetime.strptime(stamp.split(".")[0], "%Y-%m-%d %H:%M:%S")
    except ValueError:
        return stamp
    return moment.strftime("%a %b %d %H:%M:%S UTC %Y")


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round72-lock-answer-extra-null") or node is None or node["type"] != "answer":
        return response
    return with_action(response, "lockAction", {"extra": None})


_AFTER = {
    "listGroups": _groups,
    "listSpaces": _spaces,
    "listAnswerComments": _answer_comments,
    "listQuestions": _questions,
    "lockNode": _lock,
    "postAnswer": _answer,
    "listUserQuestions": _user_questions,
    "listUserContent": _content,
}
after = after_by_op(_AFTER)
