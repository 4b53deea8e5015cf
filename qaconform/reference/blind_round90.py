"""Where blind round 90's faults bite (faults_blind_round90.py, issue 44): one path each, around the handler
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
from .errors import PERMISSION_MESSAGE, ApiError
from .hook_kit import (
    after_by_op,
    each_item,
    handled_with,
    kept_by_url,
    kept_json_object,
    list_items,
    media,
    path_node,
    sent_fields,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_json_body, with_query
from .service import Service, now_ms

KEPT_S = 3.0
"""How long round90-questions-exclude-later-page-kept-by-url keeps a later page of the projected question list."""
_kept: dict[str, tuple[float, Response]] = {}
_READS_BODY = ("round90-gdpr-past-timestamp-suspend-only-accepted", "round90-gdpr-reassign-unknown-string-id-accepted",
               "round90-form-reply-to-private-not-inherited", "round90-reply-body-param-beside-json-ignored",
               "round90-moderated-answer-comment-recipients-unchecked")
_FUTURE_MS = 5 * 366 * 86_400_000
"""How far past now round90-gdpr-past-timestamp-suspend-only-accepted moves a past suspension (its frame, not its date,
is what the server then keeps)."""


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "postAnswer" and faults.is_on("round90-novice-answer-child-space-500") \
            and caller.can(auth.ANSWER) and not caller.can(auth.PUBLISH_ANSWER):
        question = path_node(svc, request, "question_id")
        space = None if question is None else svc.db.one("SELECT parent_id FROM spaces WHERE id = ?",
                                                         (question["space_id"],))
        if question is not None and question["type"] == "question" and space is not None \
                and space["parent_id"] is not None:
            return json_response({"error": "Could not find the moderation queue of this space"}, 500)
    if op == "cancelWiki":
        return await _cancel_wiki(svc, request, caller, handler)
    return None


async def _cancel_wiki(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    node = path_node(svc, request)
    if node is None or caller.anonymous or not node["wiki"] or node["author_id"] == caller.id:
        return None
    if faults.is_on("round90-cancelwiki-moderator-locked-wiki-refused") and caller.can(auth.MARK_WIKI) \
            and node["locked"]:
        return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)
    if faults.is_on("round90-cancelwiki-own-by-comment-recipient") and caller.can(auth.CONVERT_OWN_TO_WIKI) \
            and not caller.can(auth.MARK_WIKI) and svc.db.one(
                "SELECT 1 FROM comment_recipients r JOIN nodes c ON c.id = r.comment_id "
                "WHERE r.user_id = ? AND c.parent_id = ?", (caller.id, node["id"])) is not None:
        return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "scheduleGdprJob":
        return _job(svc, request)
    if op != "postComment":
        return request
    parent = path_node(svc, request)
    if parent is None:
        return request
    if faults.is_on("round90-reply-body-param-beside-json-ignored") and parent["type"] == "comment" \
            and "body" in request.query_params:
        body = kept_json_object(request)
        if body is not None and "body" not in body:
            return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "body"])
    if faults.is_on("round90-moderated-answer-comment-recipients-unchecked") and parent["type"] == "answer" \
            and parent["in_moderation"]:
        return _recipients_dropped(request)
    return request


def _recipients_dropped(request: Request) -> Request:
    """round90-moderated-answer-comment-recipients-unchecked: recipients beside another visibility dropped."""
    fields = sent_fields(request)
    if "recipients" not in fields or fields.get("visibility") == "recipients":
        return request
    q = request.query_params
    if "recipients" in q:
        request = with_query(request, [(k, v) for k, v in q.multi_items() if k != "recipients"])
    body = kept_json_object(request)
    if body is not None and "recipients" in body:
        request = with_json_body(request, {k: v for k, v in body.items() if k != "recipients"})
    return request


def _job(svc: Service, request: Request) -> Request:
    fields = sent_fields(request)
    if faults.is_on("round90-gdpr-past-timestamp-suspend-only-accepted"):
        request = _past_suspension(request, fields)
    if faults.is_on("round90-gdpr-reassign-unknown-string-id-accepted"):
        request = _unknown_string_reassign(svc, request, fields)
    return request


def _replaced(request: Request, key: str, value: Any | None) -> Request:
    """The request with field ``key`` set to ``value`` (removed when None) where the client sent it."""
    q = request.query_params
    if key in q:
        pairs = [(k, v) for k, v in q.multi_items() if k != key]
        if value is not None:
            pairs.append((key, json.dumps(value)))
        return with_query(request, pairs)
    body = kept_json_object(request)
    if body is not None and key in body:
        changed = {k: v for k, v in body.items() if k != key}
        if value is not None:
            changed[key] = value
        return with_json_body(request, changed)
    return request


def _past_suspension(request: Request, fields: dict[str, Any]) -> Request:
    """round90-gdpr-past-timestamp-suspend-only-accepted: a suspend-only job's past timeStamp not judged."""
    try:
        date, operations = structured(fields, "scheduleDate"), structured(fields, "operations")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return request
    if fields.get("type") != "individual" or operations != ["suspend"] or not isinstance(date, dict) \
            or date.get("formatted") not in (None, ""):
        return request
    stamp = date.get("timeStamp")
    if isinstance(stamp, str) and stamp.strip().isdecimal():
        stamp = int(stamp.strip())
    if isinstance(stamp, bool) or not isinstance(stamp, int) or stamp >= now_ms():
        return request
    return _replaced(request, "scheduleDate", {"timeStamp": now_ms() + _FUTURE_MS})


def _unknown_string_reassign(svc: Service, request: Request, fields: dict[str, Any]) -> Request:
    """round90-gdpr-reassign-unknown-string-id-accepted: a string id naming no user, never looked up."""
    try:
        reassign = structured(fields, "reassignUser")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return request
    if not isinstance(reassign, dict) or list(reassign) != ["id"] or not isinstance(reassign["id"], str) \
            or not reassign["id"].strip().isdecimal():
        return request
    if svc.db.one("SELECT 1 FROM users WHERE id = ?", (int(reassign["id"].strip()),)) is not None:
        return request
    return _replaced(request, "reassignUser", None)


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _int_param(request: Request, name: str) -> int:
    try:
        return int(request.query_params.get(name, ""))
    except ValueError:
        return 0


def _badges(item: dict[str, Any]) -> None:
    for key in ("gold", "silver", "bronze"):
        if isinstance(item.get(key), int):
            item[key] = str(item[key])


def _active(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round90-active-recent-badges-string") or request.query_params.get("sort") != "recent":
        return response
    return each_item(response, _badges)


def _earned(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round90-earned-recent-wrap-oldest-first") or "wrap" not in request.query_params \
            or request.query_params.get("sort") != "recent":
        return response
    body, items = list_items(response)
    if len(items) < 2:
        return response
    items.reverse()
    return with_body(response, body)


def _comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round90-answer-comments-sorted-sorts-string") or "sort" not in request.query_params:
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("sorts"), list):
        return response
    body["sorts"] = ",".join(str(s) for s in body["sorts"])
    return with_body(response, body)


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round90-form-reply-to-private-not-inherited: a form-encoded reply to a private comment stored public."""
    parent = path_node(svc, request)
    if not faults.is_on("round90-form-reply-to-private-not-inherited") or parent is None \
            or parent["type"] != "comment" or parent["visibility"] == "full" \
            or media(request) != "application/x-www-form-urlencoded":
        return response
    if any(k in sent_fields(request) for k in ("visibility", "recipients")):
        return response
    row = svc.db.one("SELECT id FROM nodes WHERE parent_id = ? AND author_id = ? AND type = 'comment' "
                     "ORDER BY id DESC LIMIT 1", (parent["id"], caller.id))
    if row is None:
        return response
    with svc.tx("comment") as conn:
        conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (row["id"],))
        conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (row["id"],))
    body = body_json(response)
    if isinstance(body, dict) and body.get("id") in (row["id"], str(row["id"])):
        if "visibility" in body:
            body["visibility"] = "full"
        if "recipients" in body:
            body["recipients"] = []
        return with_body(response, body)
    return response


def _cancelwiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round90-cancelwiki-accepted-question-node-names-answer") or node is None \
            or node["type"] != "question" or not node["marked"]:
        return response
    answer = svc.db.one("SELECT id FROM nodes WHERE question_id = ? AND type = 'answer' AND marked = 1 "
                        "ORDER BY id LIMIT 1", (node["id"],))
    if answer is None:
        return response
    return with_action(response, "wikifyAction", {"node": {"id": int(answer["id"]), "type": "answer"}})


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round90-questions-exclude-later-page-kept-by-url") or "exclude" not in request.query_params \
            or _int_param(request, "page") < 2:
        return response
    return kept_by_url(_kept, KEPT_S, request, response)


_AFTER = {
    "listActiveExperts": _active,
    "listEarnedExperts": _earned,
    "listAnswerComments": _comments,
    "postComment": _comment,
    "cancelWiki": _cancelwiki,
    "listQuestions": _questions,
}
after = after_by_op(_AFTER)


# --- refusal: a refusal the handler raised, as the broken server answers it -------------------------------------
def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    """round90-content-next-user-id-empty: the id one above the highest user id answered 200 []."""
    if op != "listUserContent" or exc.status != 422 or not faults.is_on("round90-content-next-user-id-empty"):
        return None
    top = svc.db.one("SELECT MAX(id) AS top FROM users")
    raw = request.path_params.get("user_id", "")
    if top is None or top["top"] is None or not raw.isdecimal() or int(raw) != int(top["top"]) + 1:
        return None
    return json_response([], 200)
