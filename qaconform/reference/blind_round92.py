"""Where blind round 92's faults bite (faults_blind_round92.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import json
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
    kept_body,
    kept_by_url,
    list_items,
    media,
    path_node,
    result_action,
    sent_fields,
    uncanceled,
    with_action,
)
from .http_io import body_json, json_response, parse_bool, with_body, with_query
from .service import Service

KEPT_S = 3.0
"""How long round92-questions-topics-kept-by-url keeps a question list asked with topics."""
_kept: dict[str, tuple[float, Response]] = {}
_READS_BODY = {"postAnswer": ("round92-answer-param-body-empty-json-400",),
               "scheduleGdprJob": ("round92-gdpr-user-id-second-job-refused",),
               "postComment": ("round92-comment-on-unwikified-node-op", "round92-kind-comment-params-empty-json-400")}
_EMPTY_JSON = {"postAnswer": "round92-answer-param-body-empty-json-400",
               "postComment": "round92-kind-comment-params-empty-json-400"}
_PROJECTIONS = ("include", "exclude", "includeOnly")
_ONE_EARLY = {"listUserQuestions": "round92-user-questions-projected-later-page-early",
              "listGroups": "round92-kind-groups-projected-later-page-early"}


def _refused() -> Response:
    return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)


def _page(request: Request) -> int:
    try:
        return int(request.query_params.get("page", "1"))
    except ValueError:
        return 1


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if any(faults.is_on(name) for name in _READS_BODY.get(op, ())):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op in _EMPTY_JSON and faults.is_on(_EMPTY_JSON[op]) \
            and media(request) == "application/json" and not kept_body(request).strip() \
            and "body" in request.query_params:
        return json_response({"error": "malformed JSON body: expected a JSON object"}, 400)
    if op == "sendToModeration" and faults.is_on("round92-sendtomod-moderator-child-space-refused"):
        return _sendtomod(svc, request, caller)
    if op == "lockNode" and faults.is_on("round92-lock-moderator-comment-under-own-node-refused"):
        return _lock(svc, request, caller)
    if op == "scheduleGdprJob" and faults.is_on("round92-gdpr-user-id-second-job-refused"):
        return _second_job(svc, request)
    if op in _ONE_EARLY and faults.is_on(_ONE_EARLY[op]) and any(p in request.query_params for p in _PROJECTIONS) \
            and _page(request) >= 2:
        return await _one_early(request, caller, svc, handler)
    return None


def _sendtomod(svc: Service, request: Request, caller: Caller) -> Response | None:
    """round92-sendtomod-moderator-child-space-refused: the moderation role read from a child space's own table."""
    if not caller.can(auth.SEND_TO_MODERATION) or caller.can(auth.EDIT_USERS_AND_GROUPS):
        return None
    node = path_node(svc, request)
    space = None if node is None else svc.db.one("SELECT parent_id FROM spaces WHERE id = ?", (node["space_id"],))
    if space is None or space["parent_id"] is None or int(space["parent_id"]) <= 0:
        return None
    return _refused()


def _lock(svc: Service, request: Request, caller: Caller) -> Response | None:
    """round92-lock-moderator-comment-under-own-node-refused: the own branch chosen by the parent's author."""
    if not caller.can(auth.LOCK_ANY) or not request.query_params.get("prompt", "").strip():
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "comment" or node["author_id"] == caller.id:
        return None
    parent = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (node["parent_id"],))
    return _refused() if parent is not None and parent["author_id"] == caller.id else None


def _named_user(svc: Service, user: Any) -> int | None:
    """The id of the user a job's user object names (by id, email or username), None when it names none."""
    if isinstance(user, str):
        try:
            user = json.loads(user)
        except ValueError:
            return None
    if not isinstance(user, dict):
        return None
    for key in ("id", "email", "username"):
        value = user.get(key)
        if value in (None, "") or isinstance(value, bool):
            continue
        if key == "id":
            if not str(value).strip().isdecimal():
                return None
            row = svc.db.one("SELECT id FROM users WHERE id = ?", (int(str(value).strip()),))
        else:
            row = svc.db.one(f"SELECT id FROM users WHERE {key} = ?", (str(value),))
        return None if row is None else int(row["id"])
    return None


def _second_job(svc: Service, request: Request) -> Response | None:
    """round92-gdpr-user-id-second-job-refused: a user named by id who already has a job is not found."""
    fields = sent_fields(request)
    try:
        user = structured(fields, "user")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    if fields.get("type") != "individual" or not isinstance(user, dict) \
            or [k for k in user if user[k] not in (None, "")] != ["id"]:
        return None
    named = _named_user(svc, user)
    if named is None:
        return None
    for row in svc.db.all("SELECT request FROM jobs WHERE type = 'individual'", ()):
        try:
            earlier = json.loads(row["request"])
        except ValueError:
            continue
        if isinstance(earlier, dict) and _named_user(svc, earlier.get("user")) == named:
            return json_response({"error": "The provided 'user' is invalid"}, 400)
    return None


async def _one_early(request: Request, caller: Caller, svc: Service, handler: Any) -> Response:
    """round92-user-questions-projected-later-page-early and its kind: the page read from one item before its
    offset."""
    page = _page(request)
    current: Response = await handler(svc, request, caller)
    if current.status_code != 200:
        return current
    body, items = list_items(current)
    size = body.get("pageSize") if isinstance(body, dict) else None
    if not isinstance(size, int) or size < 1:
        return current
    pairs = [(k, v) for k, v in request.query_params.multi_items() if k != "page"] + [("page", str(page - 1))]
    previous: Response = await handler(svc, with_query(request, pairs), caller)
    _, before_items = list_items(previous)
    if previous.status_code != 200 or len(before_items) < size:
        return current
    body["list"] = [before_items[-1], *items[: size - 1]]
    if "listCount" in body:
        body["listCount"] = len(body["list"])
    return with_body(current, body)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op != "listNodeFollowers" or not faults.is_on("round92-followers-inactive-paged-active-only") \
            or "page" not in q or "active" not in q:
        return request
    try:
        active = parse_bool(q, "active", True)
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return request
    if active:
        return request
    return with_query(request, [(k, v) for k, v in q.multi_items() if k != "active"] + [("active", "true")])


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round92-topics-search-pagecount-fraction") or not request.query_params.get("q"):
        return response
    body = body_json(response)
    if not isinstance(body, dict):
        return response
    total, size = body.get("totalCount"), body.get("pageSize")
    if not isinstance(total, int) or not isinstance(size, int) or size < 1 or total % size == 0:
        return response
    body["pageCount"] = total / size
    return with_body(response, body)


def _viewcount_text(item: dict[str, Any]) -> None:
    if isinstance(item.get("viewCount"), int):
        item["viewCount"] = str(item["viewCount"])


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round92-user-questions-viewcount-sort-string") \
            or request.query_params.get("sort") != "viewCount":
        return response
    return each_item(response, _viewcount_text)


def _cancelwiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round92-cancelwiki-admins-node-not-canceled") or node is None:
        return response
    author = svc.db.one("SELECT role FROM users WHERE id = ?", (node["author_id"],))
    if author is None or author["role"] != "admin":
        return response
    return with_action(response, "wikifyAction", uncanceled)


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round92-unfavorite-moderated-node-count-zero") or node is None or not node["in_moderation"]:
        return response
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not isinstance(result, dict) or not isinstance(result.get("favoriteCount"), int):
        return response
    result["favoriteCount"] = 0
    return with_body(response, body)


def _lock_extra(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round92-lock-wiki-node-extra-null") or node is None or not node["wiki"]:
        return response
    action = result_action(body_json(response), "lockAction")
    if action is not None and isinstance(action.get("id"), int):
        with svc.tx("lock") as conn:
            conn.execute("UPDATE actions SET extra = NULL WHERE id = ?", (action["id"],))
    return with_action(response, "lockAction", {"extra": None})


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round92-comment-on-unwikified-node-op: a comment on an unwikified node stored 'to the original poster'."""
    parent = path_node(svc, request)
    if not faults.is_on("round92-comment-on-unwikified-node-op") or parent is None \
            or any(k in sent_fields(request) for k in ("visibility", "recipients")):
        return response
    if svc.db.one("SELECT 1 FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled = 1",
                  (parent["id"],)) is None:
        return response
    row = svc.db.one("SELECT id FROM nodes WHERE parent_id = ? AND author_id = ? AND type = 'comment' "
                     "ORDER BY id DESC LIMIT 1", (parent["id"], caller.id))
    if row is None:
        return response
    with svc.tx("comment") as conn:
        conn.execute("UPDATE nodes SET visibility = 'op' WHERE id = ?", (row["id"],))
    body = body_json(response)
    if isinstance(body, dict) and body.get("id") in (row["id"], str(row["id"])) and "visibility" in body:
        body["visibility"] = "op"
        return with_body(response, body)
    return response


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round92-questions-topics-kept-by-url") or not request.query_params.get("topics"):
        return response
    return kept_by_url(_kept, KEPT_S, request, response)


_AFTER = {
    "listTopics": _topics,
    "listUserQuestions": _user_questions,
    "cancelWiki": _cancelwiki,
    "unmarkFavorite": _unfavorite,
    "lockNode": _lock_extra,
    "postComment": _comment,
    "listQuestions": _questions,
}
after = after_by_op(_AFTER)

