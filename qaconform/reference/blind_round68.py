"""Where blind round 68's faults bite (faults_blind_round68.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import math
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults, visibility
from .auth import Caller
from .bodies import structured
from .errors import ApiError, bad_request
from .hook_kit import after_by_op, handled_with, kept_json_object, media, path_node, result_action, sent_fields
from .http_io import body_json, is_id, projects, with_body, with_json_body, with_query
from .render import action_date, avatar
from .service import Service

ISSUE_TYPES_KEPT_S = 3.0
"""How long round68-issuetypes-cached-enveloped keeps the issue-type list by its URL."""
GROUPS_KEPT_S = 2.0
"""How long round68-groups-kept-by-url keeps the group list by its URL (whoever read it)."""
_issue_reads: dict[str, float] = {}
_groups: dict[str, tuple[float, bytes]] = {}
_READS_BODY = ("round68-reply-visibility-param-message", "round68-comment-group-option-v1-accepted",
               "round68-answer-form-charset-body-lost", "round68-gdpr-reassign-unknown-email-user-accepted",
               "round68-gdpr-anonymize-with-anon-delete-refused", "round68-gdpr-user-id-reassign-username-refused")
_INVALID_OPERATIONS = "The provided 'operations' is/are invalid"


def _given(spec: Any, key: str) -> bool:
    return isinstance(spec, dict) and spec.get(key) not in (None, "")


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("scheduleGdprJob", "postComment", "postAnswer") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "postComment":
        return await _comment_before(svc, request, caller, handler)
    if op == "postAnswer" and faults.is_on("round68-answer-form-charset-body-lost") \
            and media(request) == "application/x-www-form-urlencoded" \
            and "charset" in request.headers.get("content-type", "").lower() and "body" not in request.query_params:
        raise bad_request("'body' is required")
    if op == "scheduleGdprJob":
        _job_before(request)
    if op == "lockNode" and faults.is_on("round68-lock-follower-owns") and not caller.anonymous \
            and caller.can(auth.LOCK_OWN) and not caller.can(auth.LOCK_ANY):
        node = path_node(svc, request)
        if node is not None and node["author_id"] != caller.id and svc.db.one(
                "SELECT 1 FROM follows WHERE user_id = ? AND node_id = ? AND active = 1",
                (caller.id, node["id"])) is not None:
            return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)
    return None


async def _comment_before(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    parent = path_node(svc, request)
    if parent is None:
        return None
    sent = sent_fields(request)
    if faults.is_on("round68-reply-visibility-param-message") and parent["type"] == "comment" \
            and parent["visibility"] != "full" and request.query_params.get("visibility") not in (
                None, "", visibility.wire_name(parent["visibility"])):
        raise bad_request("Invalid parameter: visibility")
    if faults.is_on("round68-comment-group-option-v1-accepted") and "v1" in request.query_params \
            and sent.get("visibility") == visibility.wire_name("group") and not caller.anonymous \
            and caller.can(auth.USE_PRIVATE_COMMENTS) and not caller.can(auth.PRIVATE_TO_GROUPS):
        return await handled_with(auth.PRIVATE_TO_GROUPS, svc, request, caller, handler)
    return None


def _job_before(request: Request) -> None:
    fields = sent_fields(request)
    operations = structured(fields, "operations") if "operations" in fields else None
    if faults.is_on("round68-gdpr-anonymize-with-anon-delete-refused") and isinstance(operations, list) \
            and {"anonymize", "anon-delete"} <= {str(o) for o in operations}:
        raise bad_request(_INVALID_OPERATIONS)
    if not faults.is_on("round68-gdpr-user-id-reassign-username-refused") or fields.get("type") != "individual":
        return
    user = structured(fields, "user") if "user" in fields else None
    reassign = structured(fields, "reassignUser") if "reassignUser" in fields else None
    if _given(user, "id") and not _given(user, "username") and _given(reassign, "username") \
            and not _given(reassign, "id"):
        raise bad_request("The provided 'user' is invalid")


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listEarnedExperts" and faults.is_on("round68-earned-experts-realname-by-username") \
            and q.get("sort") == "realname":
        return with_query(request, [(k, "username" if k == "sort" else v) for k, v in q.multi_items()])
    if op == "scheduleGdprJob" and faults.is_on("round68-gdpr-reassign-unknown-email-user-accepted"):
        return _reassign_dropped(svc, request)
    return request


def _reassign_dropped(svc: Service, request: Request) -> Request:
    """round68-gdpr-reassign-unknown-email-user-accepted: a reassignUser naming nobody is dropped beside a user by
    email (JSON body or request parameters)."""
    fields = sent_fields(request)
    user = structured(fields, "user") if "user" in fields else None
    reassign = structured(fields, "reassignUser") if "reassignUser" in fields else None
    if fields.get("type") != "individual" or not _given(user, "email") or not isinstance(reassign, dict) \
            or _names_user(svc, reassign):
        return request
    if "reassignUser" in request.query_params:
        return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "reassignUser"])
    body = kept_json_object(request, loose=True)
    if body is None or "reassignUser" not in body:
        return request
    return with_json_body(request, {k: v for k, v in body.items() if k != "reassignUser"})


def _names_user(svc: Service, spec: dict[str, Any]) -> bool:
    for key in ("username", "id"):
        value = spec.get(key)
        if value in (None, ""):
            continue
        if key == "id" and not is_id(str(value)):
            return False
        column_value: Any = int(str(value)) if key == "id" else str(value)
        return svc.db.one(f"SELECT 1 FROM users WHERE {key} = ?", (column_value,)) is not None
    return True


# --- after: the handler's response as the broken server serves it (after_by_op(_AFTER), at the end) ----------
def _issue_types(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not isinstance(body, list):
        return response
    if faults.is_on("round68-issuetypes-epic-name-object"):
        for item in body:
            if isinstance(item, dict) and item.get("name") == "Epic":
                item["name"] = {"value": "Epic", "level": 1}
        return with_body(response, body)
    if not faults.is_on("round68-issuetypes-cached-enveloped"):
        return response
    now, key = time.monotonic(), str(request.url)
    last = _issue_reads.get(key)
    _issue_reads[key] = now if last is None or now - last >= ISSUE_TYPES_KEPT_S else last
    if last is None or now - last >= ISSUE_TYPES_KEPT_S:
        return response
    n = len(body)
    return with_body(response, {"name": "", "sort": "", "page": 1, "pageSize": max(n, 1), "pageCount": 1,
                                "listCount": n, "totalCount": n, "list": body})


def _user_content(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    raw = request.path_params.get("user_id", "")
    if not faults.is_on("round68-content-private-answer-replies-listed") or not isinstance(body, list) \
            or not is_id(raw):
        return response
    shown = {e["node"].get("id") for e in body if isinstance(e, dict) and isinstance(e.get("node"), dict)}
    rows = svc.db.all(
        "SELECT n.* FROM nodes n JOIN nodes p ON p.id = n.parent_id WHERE n.author_id = ? AND n.type = 'comment'"
        " AND p.type = 'comment' AND n.answer_id IS NOT NULL AND n.visibility != 'full'"
        " ORDER BY n.creation_date DESC, n.id DESC", (int(raw),))
    added = [{"actionType": "commented", "canceled": False, "actionDate": action_date(r["creation_date"]),
              "node": {"id": r["id"], "title": r["title"], "body": r["body"], "type": "comment",
                       "accepted": bool(r["marked"])}} for r in rows if r["id"] not in shown]
    if not added:
        return response
    at = len(body) - 1 if body and isinstance(body[-1], dict) and body[-1].get("actionType") == "joined" else len(body)
    return with_body(response, [*body[:at], *added, *body[at:]])


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    raw = request.path_params.get("user_id", "")
    body = body_json(response)
    if not faults.is_on("round68-user-answers-accepted-on-own-questions") or not is_id(raw) or projects(q) \
            or q.get("page", "1").strip() != "1" or not isinstance(body, dict) \
            or not isinstance(body.get("list"), list):
        return response
    rows = svc.db.all(
        "SELECT a.* FROM nodes a JOIN nodes q ON q.id = a.question_id WHERE a.type = 'answer' AND a.marked = 1"
        " AND q.author_id = ? AND a.author_id != ? AND a.in_moderation = 0 ORDER BY a.id", (int(raw), int(raw)))
    present = {i.get("id") for i in body["list"] if isinstance(i, dict)}
    extra = [i for i in svc.render.nodes_json(rows, caller) if i.get("id") not in present]
    size = body.get("pageSize")
    if not extra or not isinstance(size, int) or size < 1:
        return response
    items = [*body["list"], *extra]
    body["list"] = items[-size:] if len(items) > size else items
    body["listCount"] = len(body["list"])
    body["totalCount"] = int(body.get("totalCount") or 0) + len(extra)
    body["pageCount"] = math.ceil(body["totalCount"] / size)
    return with_body(response, body)


def _send_to_mod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    if not faults.is_on("round68-sendtomod-answer-not-private") or node is None or node["type"] != "answer" \
            or action is None:
        return response
    action["private"] = False
    return with_body(response, body)


def _earned_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not faults.is_on("round68-earned-experts-realname-by-username") or request.query_params.get(
            "sort") != "realname" or not isinstance(body, dict) or body.get("sort") != "username":
        return response
    body["sort"] = "realname"
    return with_body(response, body)


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "favoriteAction")
    if not faults.is_on("round68-unfavorite-canceledby-earlier-canceler") or node is None or action is None:
        return response
    earlier = svc.db.one(
        "SELECT u.id, u.username, u.email FROM actions a JOIN users u ON u.id = a.canceled_by WHERE a.node_id = ?"
        " AND a.verb = 'favorited' AND a.canceled = 1 AND a.canceled_by != ? ORDER BY a.canceled_date, a.id LIMIT 1",
        (node["id"], caller.id))
    if earlier is None:
        return response
    action["canceledByUser"] = {"id": earlier["id"], "username": earlier["username"],
                                "avatarUrl": avatar(earlier["email"], earlier["id"])}
    return with_body(response, body)


def _groups_kept(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round68-groups-kept-by-url") and response.status_code == 200:
        _groups[str(request.url)] = (time.monotonic(), bytes(response.body))
    return response


_AFTER = {
    "listIssueTypes": _issue_types,
    "listUserContent": _user_content,
    "listUserAnswers": _user_answers,
    "sendToModeration": _send_to_mod,
    "listEarnedExperts": _earned_experts,
    "unmarkFavorite": _unfavorite,
    "listGroups": _groups_kept,
}
after = after_by_op(_AFTER)


def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    """round68-groups-kept-by-url: a denied group list read within GROUPS_KEPT_S of a permitted read of its URL."""
    if op != "listGroups" or not faults.is_on("round68-groups-kept-by-url") or exc.status not in (401, 403):
        return None
    kept = _groups.get(str(request.url))
    if kept is None or time.monotonic() - kept[0] >= GROUPS_KEPT_S:
        return None
    return Response(kept[1], status_code=200, media_type="application/json")
