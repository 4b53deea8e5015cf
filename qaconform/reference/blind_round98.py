"""Where blind round 98's faults bite (faults_blind_round98.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

The fault that is a row of the route table only (``round98-questions-include-member-403``) needs no code here; its
name is listed in :data:`OVERRIDES_ONLY` so the wiring check finds it.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .bodies import structured
from .errors import unauthorized
from .hook_kit import (
    after_by_op,
    form_fields,
    kept_by_url,
    kept_json_object,
    list_items,
    media,
    path_node,
    sent_fields,
    with_action,
    without_fields,
)
from .http_io import body_json, is_id, json_response, with_body, with_json_body, with_query
from .service import Service

OVERRIDES_ONLY = ("round98-questions-include-member-403",)
"""Faults of this round that bite through the route table's overrides (faults_blind_round98)."""

KEPT_S = 3.0
"""How long round98-questions-spaceid-kept-by-url keeps a space-filtered question list by its URL."""
_kept: dict[str, tuple[float, Response]] = {}
_READS_BODY = {
    "scheduleGdprJob": ("round98-gdpr-form-encoded-operations-split", "round98-gdpr-id-text-user-reassign-unchecked",
                        "round98-kind-gdpr-form-encoded-reassign-id-refused",
                        "round98-kind-gdpr-id-text-user-operations-defaulted"),
    "postComment": ("round98-comment-on-locked-node-recipients-unchecked",),
}
_STAFF = ("admin", "moderator")
"""Roles whose profiles round98-user-answers-staff-user-anonymous-401 hides from visitors."""
_XSSI = b")]}',\n"


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if any(faults.is_on(n) for n in _READS_BODY.get(op, ())):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    q = request.query_params
    if op == "listEarnedExperts" and faults.is_on("round98-earned-default-sized-400") \
            and q.get("sort") == "default" and "pageSize" in q:
        return json_response({"error": "sort must be one of reputation, username, realname, recent, oldest"}, 400)
    if op == "listUserAnswers" and faults.is_on("round98-user-answers-staff-user-anonymous-401") \
            and caller.anonymous:
        raw = request.path_params.get("user_id", "")
        user = svc.db.one("SELECT role FROM users WHERE id = ?", (int(raw),)) if is_id(raw) else None
        if user is not None and user["role"] in _STAFF:
            raise unauthorized()
    if op == "unmarkFavorite" and faults.is_on("round98-unfavorite-group-peer-favorite-canceled") \
            and not caller.anonymous:
        peer = _group_peer_holder(svc, request, caller)
        if peer is not None:
            as_peer: Response = await handler(svc, request, dataclasses.replace(caller, id=peer["id"],
                                                                                username=peer["username"]))
            return as_peer
    if op == "scheduleGdprJob" and faults.is_on("round98-gdpr-form-encoded-operations-split") \
            and "operations" not in q:
        raw = form_fields(request).get("operations")
        if raw is not None and len([piece for piece in raw.split(",") if piece.strip()]) > 1:
            return json_response({"error": "The provided 'operations' is/are invalid"}, 400)
    if op == "scheduleGdprJob" and faults.is_on("round98-kind-gdpr-form-encoded-reassign-id-refused") \
            and "reassignUser" not in q and _form_reassign_by_id(form_fields(request).get("reassignUser")):
        return json_response({"error": "The provided 'reassignUser' is/are invalid"}, 400)
    if op == "listQuestions" and faults.is_on("round98-questions-spaceid-include-ignored") \
            and "spaceId" in q and "include" in q:
        every_space: Response = await handler(svc, with_query(request, [(k, v) for k, v in q.multi_items()
                                                                        if k != "spaceId"]), caller)
        return every_space
    return None


def _form_reassign_by_id(raw: str | None) -> bool:
    """round98-kind-gdpr-form-encoded-reassign-id-refused: a form field reassignUser whose JSON text names an id."""
    try:
        value = json.loads(raw) if raw is not None else None
    except ValueError:
        return False
    return isinstance(value, dict) and "id" in value


def _group_peer_holder(svc: Service, request: Request, caller: Caller) -> Any:
    """round98-unfavorite-group-peer-favorite-canceled: the holder of the node's favorite who shares one of the
    caller's groups, when the caller holds none itself (None otherwise)."""
    node = path_node(svc, request)
    if node is None or svc.db.one("SELECT 1 FROM favorites WHERE user_id = ? AND node_id = ?",
                                  (caller.id, node["id"])) is not None:
        return None
    return svc.db.one(
        "SELECT u.id, u.username FROM favorites f JOIN users u ON u.id = f.user_id"
        " JOIN user_groups g ON g.user_id = f.user_id"
        " WHERE f.node_id = ? AND f.user_id != ? AND g.group_id IN (SELECT group_id FROM user_groups WHERE user_id = ?)"
        " ORDER BY f.user_id LIMIT 1", (node["id"], caller.id, caller.id))


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "scheduleGdprJob" and faults.is_on("round98-gdpr-id-text-user-reassign-unchecked"):
        request = _reassign_unchecked(svc, request)
    if op == "scheduleGdprJob" and faults.is_on("round98-kind-gdpr-id-text-user-operations-defaulted"):
        request = _operations_defaulted(request)
    if op == "postComment" and faults.is_on("round98-comment-on-locked-node-recipients-unchecked"):
        parent = path_node(svc, request)
        fields = sent_fields(request)
        if parent is not None and parent["locked"] and "recipients" in fields \
                and fields.get("visibility") != "recipients":
            return without_fields(request, ("recipients",))
    return request


def _reassign_unchecked(svc: Service, request: Request) -> Request:
    """round98-gdpr-id-text-user-reassign-unchecked: a user by an id as text, an unknown reassignUser dropped."""
    fields = sent_fields(request)
    try:
        reassign = structured(fields, "reassignUser")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return request
    if not _text_id_user(fields) or not isinstance(reassign, dict) or len(reassign) != 1:
        return request
    key, value = next(iter(reassign.items()))
    if key == "id" and isinstance(value, int) and not isinstance(value, bool):
        known = svc.db.one("SELECT 1 FROM users WHERE id = ?", (value,))
    elif key == "username" and isinstance(value, str):
        known = svc.db.one("SELECT 1 FROM users WHERE username = ?", (value,))
    else:
        return request
    return request if known is not None else without_fields(request, ("reassignUser",))


_OPERATIONS = ("suspend", "anonymize", "delete", "anon-delete")


def _text_id_user(fields: dict[str, Any]) -> bool:
    """Whether an individual job names its user by an id given as text of digits (the round's two job faults)."""
    try:
        user = structured(fields, "user")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return False
    return fields.get("type") == "individual" and isinstance(user, dict) and list(user) == ["id"] \
        and isinstance(user["id"], str) and user["id"].strip().isdigit()


def _operations_defaulted(request: Request) -> Request:
    """round98-kind-gdpr-id-text-user-operations-defaulted: a text-id user's invalid operations read as suspend."""
    fields = sent_fields(request)
    if not _text_id_user(fields) or "operations" in request.query_params:
        return request
    try:
        operations = structured(fields, "operations")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return request
    if isinstance(operations, list) and 1 <= len(operations) <= len(_OPERATIONS) \
            and all(o in _OPERATIONS for o in operations) and len(set(operations)) == len(operations):
        return request
    body = kept_json_object(request)
    return with_json_body(request, {**body, "operations": ["suspend"]}) if body is not None else request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round98-lock-question-action-json-text") or node is None or node["type"] != "question":
        return response
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not isinstance(result, dict) or not isinstance(result.get("lockAction"), dict):
        return response
    result["lockAction"] = json.dumps(result["lockAction"])
    return with_body(response, body)


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if faults.is_on("round98-questions-search-wiki-string") and q.get("q", "").strip():
        body, items = list_items(response)
        hit = [i for i in items if isinstance(i, dict) and isinstance(i.get("wiki"), bool)]
        for item in hit:
            item["wiki"] = "true" if item["wiki"] else "false"
        if hit:
            response = with_body(response, body)
    if faults.is_on("round98-questions-spaceid-kept-by-url") and "spaceId" in q:
        response = kept_by_url(_kept, KEPT_S, request, response)
    return response


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    question = path_node(svc, request, "question_id")
    body = body_json(response)
    if question is None or not isinstance(body, dict):
        return response
    changed = False
    if faults.is_on("round98-answer-wrap-author-question-author") and "wrap" in request.query_params \
            and isinstance(body.get("author"), dict):
        owner = svc.db.one("SELECT id, username, realname, reputation FROM users WHERE id = ?",
                           (question["author_id"],))
        if owner is not None:
            body["author"].update({"id": owner["id"], "username": owner["username"],
                                   "reputation": owner["reputation"]})
            if "realname" in body["author"]:
                body["author"]["realname"] = owner["realname"]
            changed = True
    if faults.is_on("round98-answer-form-encoded-titled") and media(request) == "application/x-www-form-urlencoded":
        body["title"] = question["title"]
        changed = True
    return with_body(response, body) if changed else response


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round98-user-questions-sized-xssi-prefix") or "pageSize" not in request.query_params:
        return response
    return Response(_XSSI + bytes(response.body), status_code=response.status_code,
                    headers={k: v for k, v in response.headers.items() if k.lower() != "content-length"})


def _sendtomod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round98-sendtomod-answered-question-not-private") or node is None \
            or node["type"] != "question" or node["answer_count"] <= 0:
        return response
    return with_action(response, "sendToModAction", {"private": False})


_AFTER = {
    "lockNode": _lock,
    "listQuestions": _questions,
    "postAnswer": _answer,
    "listUserQuestions": _user_questions,
    "sendToModeration": _sendtomod,
}
after = after_by_op(_AFTER)
