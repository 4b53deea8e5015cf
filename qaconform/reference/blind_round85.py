"""Where blind round 85's faults bite (faults_blind_round85.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import dataclasses
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import PERMISSION_MESSAGE
from .gdpr_jobs import _schedule_ms
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
from .http_io import body_json, json_response, with_body, with_json_body, with_query, with_raw_body
from .service import Service

KEPT_S = 3.0
"""How long round85-spaces-totalcount-kept-by-path keeps the space list's counts by its path."""
_kept_counts: dict[str, tuple[float, int, Any, Any]] = {}
_READS_BODY = ("round85-gdpr-formatted-frame-held-by-timestamp-free", "round85-gdpr-staff-email-user-refused",
               "round85-comment-form-privacy-params-dropped", "round85-reply-to-reply-recipients-unchecked")


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "cancelWiki" and faults.is_on("round85-cancelwiki-own-after-other-write-refused") \
            and not caller.anonymous and caller.can(auth.CONVERT_OWN_TO_WIKI) and not caller.can(auth.MARK_WIKI):
        node = path_node(svc, request)
        if node is not None and node["wiki"] and node["author_id"] == caller.id \
                and node["last_active_user_id"] != caller.id:
            return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)
    if op == "unmarkFavorite" and faults.is_on("round85-unfavorite-no-own-cancels-oldest-holder"):
        return await _unfavorite_before(svc, request, caller, handler)
    if op == "scheduleGdprJob" and faults.is_on("round85-gdpr-staff-email-user-refused"):
        refused = _staff_email(svc, request)
        if refused is not None:
            return refused
    if op == "scheduleGdprJob" and faults.is_on("round85-gdpr-formatted-frame-held-by-timestamp-free"):
        _frame_freed(svc, request)
    return None


async def _unfavorite_before(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round85-unfavorite-no-own-cancels-oldest-holder: the node's oldest favorite holder's favorite canceled."""
    node = path_node(svc, request)
    if caller.anonymous or not caller.can(auth.MARK_FAVORITE) or node is None or svc.db.one(
            "SELECT 1 FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"])) is not None:
        return None
    holder = svc.db.one("SELECT u.id, u.username, u.email FROM favorites f JOIN users u ON u.id = f.user_id "
                        "WHERE f.node_id = ? ORDER BY f.action_id LIMIT 1", (node["id"],))
    me = svc.db.one("SELECT id, username, email FROM users WHERE id = ?", (caller.id,))
    if holder is None or me is None:
        return None
    response: Response = await handler(svc, request, dataclasses.replace(caller, id=holder["id"],
                                                                         username=holder["username"]))
    if response.status_code >= 300:
        return response
    return with_action(response, "favoriteAction", {"canceledByUser": svc.render.action_user_json(me)})


def _staff_email(svc: Service, request: Request) -> Response | None:
    """round85-gdpr-staff-email-user-refused: an individual job's staff user named by email, refused."""
    fields = sent_fields(request)
    try:
        user = structured(fields, "user")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    if fields.get("type") != "individual" or not isinstance(user, dict) \
            or [k for k in user if user.get(k) not in (None, "")] != ["email"]:
        return None
    row = svc.db.one("SELECT role FROM users WHERE email = ?", (str(user["email"]),))
    if row is None or row["role"] not in ("admin", "moderator"):
        return None
    return json_response({"error": "The provided 'user' is/are invalid"}, 400)


def _frame_freed(svc: Service, request: Request) -> None:
    """round85-gdpr-formatted-frame-held-by-timestamp-free: a job dated by formatted takes a frame whose jobs were
    all dated by timeStamp (the row there is replaced)."""
    fields = sent_fields(request)
    try:
        date = structured(fields, "scheduleDate")
        minute = _schedule_ms(fields) // 60_000
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return
    if not isinstance(date, dict) or date.get("formatted") in (None, ""):
        return
    held = [structured(r, "scheduleDate") for r in svc.db.frame_requests(minute)]
    if held and all(isinstance(d, dict) and d.get("formatted") in (None, "") and d.get("timeStamp") not in (None, "")
                    for d in held):
        with svc.tx("job") as conn:
            conn.execute("DELETE FROM jobs WHERE schedule_minute = ?", (minute,))


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op != "postComment":
        return request
    q = request.query_params
    if faults.is_on("round85-comment-form-privacy-params-dropped") and "visibility" in q \
            and media(request) == "application/x-www-form-urlencoded" and "body" in form_fields(request):
        return with_query(request, [(k, v) for k, v in q.multi_items() if k not in ("visibility", "recipients")])
    if faults.is_on("round85-reply-to-reply-recipients-unchecked"):
        return _deep_reply(svc, request)
    return request


def _deep_reply(svc: Service, request: Request) -> Request:
    """round85-reply-to-reply-recipients-unchecked: recipients beside another visibility dropped on a comment
    whose parent is a reply."""
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "comment":
        return request
    grand = svc.db.one("SELECT type FROM nodes WHERE id = ?", (parent["parent_id"],))
    fields = sent_fields(request)
    if grand is None or grand["type"] != "comment" or "recipients" not in fields \
            or fields.get("visibility") == "recipients":
        return request
    q = request.query_params
    if "recipients" in q:
        request = with_query(request, [(k, v) for k, v in q.multi_items() if k != "recipients"])
    body = kept_json_object(request)
    if body is not None and "recipients" in body:
        request = with_json_body(request, {k: v for k, v in body.items() if k != "recipients"})
    form = form_fields(request)
    if media(request) == "application/x-www-form-urlencoded" and "recipients" in form:
        request = with_raw_body(request, urlencode([(k, v) for k, v in form.items() if k != "recipients"]).encode())
    return request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _int_param(request: Request, name: str) -> int:
    try:
        return int(request.query_params.get(name, ""))
    except ValueError:
        return 0


def _groups(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round85-groups-last-page-listcount-pagesize") or "pageSize" not in request.query_params \
            or _int_param(request, "page") < 2:
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("pageSize"), int) \
            or not isinstance(body.get("totalCount"), int) or not isinstance(body.get("list"), list):
        return response
    if 0 < len(body["list"]) < body["pageSize"]:
        body["listCount"] = min(body["pageSize"], body["totalCount"])
        return with_body(response, body)
    return response


def _active(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round85-active-oldest-type-expert") or request.query_params.get("sort") != "oldest":
        return response
    body, items = list_items(response)
    changed = False
    for item in items:
        if isinstance(item, dict) and "type" in item:
            item["type"], changed = "expert", True
    return with_body(response, body) if changed else response


def _earned(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round85-earned-reputation-page-param-ascending") or "page" not in request.query_params \
            or request.query_params.get("sort") != "reputation":
        return response
    body, items = list_items(response)
    if len(items) < 2 or not all(isinstance(i, dict) and isinstance(i.get("reputation"), int) for i in items):
        return response
    items.sort(key=lambda i: i["reputation"])
    return with_body(response, body)


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round85-moderated-answer-no-original-parent") or caller.can(auth.PUBLISH_ANSWER):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or "originalParentId" not in body:
        return response
    body.pop("originalParentId")
    return with_body(response, body)


def _sendtomod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round85-sendtomod-comment-realuser-parent-author") or node is None \
            or node["type"] != "comment":
        return response
    author = svc.db.one("SELECT u.id, u.username, u.email FROM nodes n JOIN users u ON u.id = n.author_id "
                        "WHERE n.id = ?", (node["parent_id"],))
    if author is None or author["id"] == caller.id or result_action(body_json(response), "sendToModAction") is None:
        return response
    return with_action(response, "sendToModAction", {"realUser": svc.render.action_user_json(author)})


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round85-lock-private-comment-extra-null") or node is None or node["type"] != "comment" \
            or node["visibility"] == "full":
        return response
    action = result_action(body_json(response), "lockAction")
    if action is None:
        return response
    if isinstance(action.get("id"), int):
        with svc.tx("lock") as conn:
            conn.execute("UPDATE actions SET extra = NULL WHERE id = ?", (action["id"],))
    return with_action(response, "lockAction", {"extra": None})


def _spaces(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round85-spaces-totalcount-kept-by-path"):
        return response
    return counts_kept_by_path(_kept_counts, KEPT_S, request, caller, response)


_AFTER = {
    "listGroups": _groups,
    "listActiveExperts": _active,
    "listEarnedExperts": _earned,
    "postAnswer": _answer,
    "sendToModeration": _sendtomod,
    "lockNode": _lock,
    "listSpaces": _spaces,
}
after = after_by_op(_AFTER)
