"""Where blind round 99's faults bite (faults_blind_round99.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

``round99-novice-unfavorite-answer-let-in`` and ``round99-sendtomod-follower-let-in`` open the door by a route-table
override too (novice on unfavorite, every signed-in caller on send to moderation); their hooks here refuse again on
every node but the fault's own (a published answer, a node the caller follows and did not write)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import denied
from .hook_kit import (
    after_by_op,
    handled_with,
    ids_cached,
    kept_by_url,
    kept_json_object,
    path_node,
    sent_fields,
    uncanceled,
    with_action,
    with_sent_field,
    without_fields,
)
from .http_io import PREFIX, body_json, json_response, with_body, with_query
from .service import Service

KEPT_S = 3.0
"""How long round99-unanswered-questions-kept-by-url keeps an unanswered question list by its URL."""
_kept: dict[str, tuple[float, Response]] = {}
_kept_ids: dict[int, tuple[float, int, Any, Any]] = {}
"""round99-kind-unanswered-questions-ids-kept-per-node: each question's ids as the last reader within 3 s saw them."""
_READS_BODY = {
    "postAnswer": ("round99-answer-structured-node-field-refused",),
    "postComment": ("round99-comment-body-param-json-privacy-dropped",
                    "round99-question-comment-reply-visibility-dropped"),
    "scheduleGdprJob": ("round99-gdpr-username-user-unknown-operation-dropped",
                        "round99-kind-gdpr-username-user-reassign-first-way"),
}
_OPERATIONS = ("suspend", "anonymize", "delete", "anon-delete")
_OWN_FIELDS = ("body", "wrap", "v1")


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if any(faults.is_on(n) for n in _READS_BODY.get(op, ())):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    q = request.query_params
    if op == "postAnswer":
        return await _answer_before(svc, request, caller, handler)
    if op == "unmarkFavorite" and faults.is_on("round99-novice-unfavorite-answer-let-in") and not caller.anonymous \
            and not caller.can(auth.MARK_FAVORITE) and caller.can(auth.VIEW_QUESTION_PAGE):
        node = path_node(svc, request)  # the door let novice in (the fault's override): elsewhere it is refused
        if node is None or node["type"] != "answer" or node["in_moderation"]:
            raise denied(caller.anonymous)
        count = svc.db.one("SELECT COUNT(*) FROM favorites WHERE node_id = ?", (node["id"],))
        return json_response({"success": True, "result": {"favoriteCount": count[0] if count else 0}})
    if op == "listAnswerComments" and faults.is_on("round99-answer-comments-sorted-redirect-v1") and q.get("sort"):
        return RedirectResponse(str(request.url).replace(PREFIX + "/", "/services/v1/", 1), status_code=301)
    if op == "sendToModeration" and faults.is_on("round99-sendtomod-follower-let-in") and not caller.anonymous \
            and not caller.can(auth.SEND_TO_MODERATION):
        node = path_node(svc, request)  # the door let every signed-in caller in (the fault's override)
        if node is None or node["author_id"] == caller.id or svc.db.one(
                "SELECT 1 FROM follows WHERE node_id = ? AND user_id = ? AND active = 1",
                (node["id"], caller.id)) is None:
            raise denied(caller.anonymous)
        return await handled_with(auth.SEND_TO_MODERATION, svc, request, caller, handler)
    if op == "listActiveExperts" and faults.is_on("round99-active-experts-username-v1-by-reputation") \
            and q.get("sort") == "username" and "v1" in q:
        pairs = [(k, "reputation" if k == "sort" else v) for k, v in q.multi_items()]
        experts: Response = await handler(svc, with_query(request, pairs), caller)
        body = body_json(experts)
        if experts.status_code == 200 and isinstance(body, dict) and "sort" in body:
            body["sort"] = "username"
            return with_body(experts, body)
        return experts
    return None


async def _answer_before(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    if faults.is_on("round99-answer-structured-node-field-refused"):
        body = kept_json_object(request)
        extra = [k for k, v in (body or {}).items() if k not in _OWN_FIELDS and isinstance(v, (list, dict))]
        if extra:
            return json_response({"error": f"Cannot deserialize value of type `java.lang.String` from "
                                           f"structured value (field '{extra[0][:40]}')"}, 400)
    if faults.is_on("round99-answer-v1-novice-published") and "v1" in request.query_params \
            and not caller.anonymous and caller.can(auth.ANSWER) and not caller.can(auth.PUBLISH_ANSWER):
        return await handled_with(auth.PUBLISH_ANSWER, svc, request, caller, handler)
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "scheduleGdprJob" and faults.is_on("round99-gdpr-username-user-unknown-operation-dropped"):
        request = _operations_filtered(request, sent_fields(request))
    if op == "scheduleGdprJob" and faults.is_on("round99-kind-gdpr-username-user-reassign-first-way"):
        return _reassign_first_way(request, sent_fields(request))
    if op != "postComment":
        return request
    fields = sent_fields(request)
    if faults.is_on("round99-comment-body-param-json-privacy-dropped") and "body" in request.query_params \
            and not any(n in request.query_params for n in ("visibility", "recipients")):
        body = kept_json_object(request)
        if body is not None and body.get("visibility") == "recipients":
            return without_fields(request, ("visibility", "recipients"), query=False)
    if faults.is_on("round99-question-comment-reply-visibility-dropped") and fields.get("visibility"):
        parent = path_node(svc, request)
        if parent is not None and parent["type"] == "comment" and parent["visibility"] == "full" \
                and parent["answer_id"] is None:
            grand = svc.db.one("SELECT type FROM nodes WHERE id = ?", (parent["parent_id"],))
            if grand is not None and grand["type"] == "question":
                return without_fields(request, ("visibility", "recipients"))
    return request


def _operations_filtered(request: Request, fields: dict[str, Any]) -> Request:
    """round99-gdpr-username-user-unknown-operation-dropped: a user by username, unknown operations dropped."""
    try:
        user, operations = structured(fields, "user"), structured(fields, "operations")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return request
    if fields.get("type") != "individual" or not isinstance(user, dict) or list(user) != ["username"] \
            or not isinstance(operations, list):
        return request
    known = [o for o in operations if isinstance(o, str) and o in _OPERATIONS]
    if not known or len(known) == len(operations):
        return request
    return with_sent_field(request, "operations", known)


def _reassign_first_way(request: Request, fields: dict[str, Any]) -> Request:
    """round99-kind-gdpr-username-user-reassign-first-way: a user by username, reassignUser's first way alone."""
    try:
        user, reassign = structured(fields, "user"), structured(fields, "reassignUser")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return request
    if fields.get("type") != "individual" or not isinstance(user, dict) or list(user) != ["username"] \
            or not isinstance(reassign, dict) or len(reassign) < 2:
        return request
    first = dict([next(iter(reassign.items()))])
    return with_sent_field(request, "reassignUser", first)


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round99-unfavorite-v1-node-id-string") and "v1" in request.query_params:
        response = with_action(response, "favoriteAction", _node_id_text)
    if faults.is_on("round99-unfavorite-last-holder-not-canceled"):
        node = path_node(svc, request)
        if node is not None and svc.db.one("SELECT 1 FROM favorites WHERE node_id = ?", (node["id"],)) is None:
            response = with_action(response, "favoriteAction", uncanceled)
    return response


def _node_id_text(action: dict[str, Any]) -> None:
    node = action.get("node")
    if isinstance(node, dict) and isinstance(node.get("id"), int):
        node["id"] = str(node["id"])


def _earned(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not faults.is_on("round99-earned-experts-username-echo-login") \
            or request.query_params.get("sort") != "username" or not isinstance(body, dict) or "sort" not in body:
        return response
    body["sort"] = "login"
    return with_body(response, body)


def _content(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not faults.is_on("round99-content-wiki-node-date-iso") or not isinstance(body, list):
        return response
    hit = False
    for entry in body:
        node = entry.get("node") if isinstance(entry, dict) else None
        date = entry.get("actionDate") if isinstance(entry, dict) else None
        if not isinstance(node, dict) or not isinstance(node.get("id"), int) or not isinstance(date, str) \
                or " " not in date:
            continue
        row = svc.db.one("SELECT wiki FROM nodes WHERE id = ?", (node["id"],))
        if row is not None and row["wiki"]:
            entry["actionDate"] = date.replace(" ", "T", 1) + "Z"
            hit = True
    return with_body(response, body) if hit else response


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round99-lock-question-verb-closed") or node is None or node["type"] != "question":
        return response
    return with_action(response, "lockAction", {"verb": "closed"})


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if "unanswered" not in request.query_params:
        return response
    if faults.is_on("round99-kind-unanswered-questions-ids-kept-per-node"):
        response = ids_cached(_kept_ids, KEPT_S, caller, response)
    if not faults.is_on("round99-unanswered-questions-kept-by-url"):
        return response
    return kept_by_url(_kept, KEPT_S, request, response)


_AFTER = {
    "unmarkFavorite": _unfavorite,
    "listEarnedExperts": _earned,
    "listUserContent": _content,
    "lockNode": _lock,
    "listQuestions": _questions,
}
after = after_by_op(_AFTER)
