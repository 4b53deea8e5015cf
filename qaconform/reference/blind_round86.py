"""Where blind round 86's faults bite (faults_blind_round86.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import PERMISSION_MESSAGE
from .hook_kit import (
    after_by_op,
    counts_kept_by_path,
    form_fields,
    kept_json_object,
    list_items,
    media,
    path_node,
    result_action,
    sent_fields,
    with_action,
)
from .http_io import body_json, is_id, json_response, with_body, with_json_body, with_query, with_raw_body
from .service import Service

KEPT_S = 3.0
"""How long round86-answer-comments-totalcount-kept-by-path keeps an answer's comment counts by its path."""
STAFF_ROOM = 3
"""round86-staff-room-private-comment-stored-full: the space whose private-comments flag was never set."""
_kept_counts: dict[str, tuple[float, int, Any, Any]] = {}
_READS_BODY = ("round86-gdpr-charset-no-user-wrong-message", "round86-gdpr-form-body-csv-param-ignored",
               "round86-gdpr-user-id-refused-with-reassign-id", "round86-staff-room-private-comment-stored-full")
_PROJECTIONS = ("include", "exclude", "includeOnly")


def _refused(message: str) -> Response:
    return json_response({"error": message}, 400)


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "scheduleGdprJob":
        return _job(request)
    if op == "lockNode" and faults.is_on("round86-lock-own-marked-answer-refused") and not caller.anonymous \
            and caller.can(auth.LOCK_OWN) and not caller.can(auth.LOCK_ANY):
        node = path_node(svc, request)
        if node is not None and node["type"] == "answer" and node["marked"] and node["author_id"] == caller.id:
            return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)
    if op == "sendToModeration" and faults.is_on("round86-sendtomod-after-unwikify-refused") \
            and not caller.anonymous and caller.can(auth.SEND_TO_MODERATION):
        node = path_node(svc, request)
        if node is not None and node["author_id"] != caller.id and svc.db.one(
                "SELECT 1 FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled <> 0", (node["id"],)):
            return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)
    return None


def _job(request: Request) -> Response | None:
    """The three job faults: each reads the fields as sent (the handler gives its own message otherwise)."""
    fields = sent_fields(request)
    if faults.is_on("round86-gdpr-charset-no-user-wrong-message") and ";" in request.headers.get("content-type", "") \
            and media(request) == "application/json" and fields.get("type") == "individual" \
            and fields.get("user") in (None, ""):
        return _refused("The provided 'user' is/are invalid")
    if faults.is_on("round86-gdpr-form-body-csv-param-ignored") \
            and media(request) == "application/x-www-form-urlencoded" and "csvFileId" in request.query_params \
            and "csvFileId" not in form_fields(request) and fields.get("type") == "bulk":
        return _refused("The bulk type was selected, but the request is missing the csvFileId field.")
    if faults.is_on("round86-gdpr-user-id-refused-with-reassign-id") and fields.get("type") == "individual":
        try:
            user, reassign = structured(fields, "user"), structured(fields, "reassignUser")
        except Exception:  # noqa: BLE001 - the handler gives the clear message
            return None
        if _by_id_only(user) and _by_id_only(reassign):
            return _refused("The provided 'user' is/are invalid")
    return None


def _by_id_only(spec: Any) -> bool:
    return isinstance(spec, dict) and [k for k in spec if spec.get(k) not in (None, "")] == ["id"]


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op != "postComment" or not faults.is_on("round86-staff-room-private-comment-stored-full"):
        return request
    node = path_node(svc, request)
    fields = sent_fields(request)
    if node is None or node["space_id"] != STAFF_ROOM or fields.get("visibility") in (None, "", "full") \
            or (node["type"] == "comment" and node["visibility"] != "full"):
        return request
    dropped = ("visibility", "recipients")
    q = request.query_params
    if any(k in q for k in dropped):
        request = with_query(request, [(k, v) for k, v in q.multi_items() if k not in dropped])
    body = kept_json_object(request, loose=True)
    if body is not None and any(k in body for k in dropped):
        request = with_json_body(request, {k: v for k, v in body.items() if k not in dropped})
    form = form_fields(request)
    if form and any(k in form for k in dropped):
        request = with_raw_body(request, urlencode([(k, v) for k, v in form.items() if k not in dropped]).encode())
    return request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _groups(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body, items = list_items(response)
    changed = False
    if faults.is_on("round86-groups-empty-sort-by-id") and request.query_params.get("sort", None) == "" \
            and all(isinstance(i, dict) and isinstance(i.get("id"), int) for i in items) and len(items) > 1:
        items.sort(key=lambda i: i["id"])
        changed = True
    if faults.is_on("round86-system-group-modified-seconds"):
        for item in items:
            if isinstance(item, dict) and "description" not in item and isinstance(item.get("id"), int) \
                    and isinstance(item.get("modificationDate"), int) and _no_description(svc, item["id"]):
                item["modificationDate"] //= 1000
                changed = True
    return with_body(response, body) if changed else response


def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round86-kind-topics-empty-sort-reversed") or request.query_params.get("sort", None) != "":
        return response
    body, items = list_items(response)
    if len(items) < 2:
        return response
    items.reverse()
    return with_body(response, body)


def _no_description(svc: Service, group_id: int) -> bool:
    row = svc.db.one("SELECT description FROM groups WHERE id = ?", (group_id,))
    return row is not None and row["description"] in (None, "")


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    raw = request.path_params.get("user_id", "")
    if not faults.is_on("round86-user-questions-favoritecount-sort-adds-favorited") \
            or request.query_params.get("sort") != "favoriteCount" or not is_id(raw):
        return response
    body, items = list_items(response)
    shown = {i.get("id") for i in items if isinstance(i, dict)}
    extra = []
    for row in svc.db.all("SELECT n.id FROM favorites f JOIN nodes n ON n.id = f.node_id WHERE f.user_id = ? "
                          "AND n.type = 'question' AND n.author_id <> ? ORDER BY n.id", (int(raw), int(raw))):
        try:
            svc.visible_node(caller, row["id"])
        except Exception:  # noqa: BLE001 - a question the caller may not see stays out
            continue
        if row["id"] not in shown:
            extra.append(row["id"])
    if not extra or not isinstance(body, dict):
        return response
    added = [json.loads(b) for b in svc.render.nodes_encoded(extra, caller)]
    items.extend(added)
    items.sort(key=lambda i: -i.get("favoriteCount", 0) if isinstance(i, dict) and isinstance(
        i.get("favoriteCount"), int) else 0)
    for key in ("totalCount", "listCount"):
        if isinstance(body.get(key), int):
            body[key] += len(added)
    return with_body(response, body)


def _earned(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    response = _earned_oldest(request, response)
    if not faults.is_on("round86-earned-default-sort-no-userfollowcount") \
            or request.query_params.get("sort") != "default":
        return response
    body, items = list_items(response)
    changed = False
    for item in items:
        if isinstance(item, dict) and "userFollowCount" in item:
            item.pop("userFollowCount")
            changed = True
    return with_body(response, body) if changed else response


def _earned_oldest(request: Request, response: Response) -> Response:
    if not faults.is_on("round86-kind-earned-oldest-exclude-newest-first") \
            or request.query_params.get("sort") != "oldest" or "exclude" not in request.query_params:
        return response
    body, items = list_items(response)
    if len(items) < 2 or not all(isinstance(i, dict) and isinstance(i.get("creationDate"), int) for i in items):
        return response
    items.sort(key=lambda i: -i["creationDate"])
    return with_body(response, body)


def _active(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not faults.is_on("round86-active-realname-projected-by-username") or q.get("sort") != "realname" \
            or not any(p in q for p in _PROJECTIONS):
        return response
    body, items = list_items(response)
    if len(items) < 2 or not all(isinstance(i, dict) and isinstance(i.get("id"), int) for i in items):
        return response
    names = {r["id"]: r["username"] for r in svc.db.all("SELECT id, username FROM users")}
    items.sort(key=lambda i: str(names.get(i["id"], "")))
    return with_body(response, body)


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round86-lock-followed-node-extra-null") or node is None or svc.db.one(
            "SELECT 1 FROM follows WHERE node_id = ? AND active <> 0", (node["id"],)) is None:
        return response
    action = result_action(body_json(response), "lockAction")
    if action is None:
        return response
    if isinstance(action.get("id"), int):
        with svc.tx("lock") as conn:
            conn.execute("UPDATE actions SET extra = NULL WHERE id = ?", (action["id"],))
    return with_action(response, "lockAction", {"extra": None})


def _sendtomod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round86-sendtomod-v1-no-realuser") or "v1" not in request.query_params:
        return response
    return with_action(response, "sendToModAction", lambda a: a.pop("realUser", None))


def _comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round86-answer-comments-totalcount-kept-by-path"):
        return response
    return counts_kept_by_path(_kept_counts, KEPT_S, request, caller, response)


_AFTER = {
    "listGroups": _groups,
    "listTopics": _topics,
    "listUserQuestions": _user_questions,
    "listEarnedExperts": _earned,
    "listActiveExperts": _active,
    "lockNode": _lock,
    "sendToModeration": _sendtomod,
    "listAnswerComments": _comments,
}
after = after_by_op(_AFTER)
