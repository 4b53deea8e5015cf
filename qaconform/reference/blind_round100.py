"""Where blind round 100's faults bite (faults_blind_round100.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import ApiError
from .hook_kit import (
    after_by_op,
    handled_with,
    kept_by_url,
    list_items,
    path_node,
    sent_fields,
    with_action,
    with_items_added,
)
from .http_io import body_json, json_response, with_body
from .service import Service
from .visibility import internal_name

OVERRIDES_ONLY = ("round100-user-questions-wrap-member-403",)
"""Faults of this round that bite through the route table's overrides (faults_blind_round100)."""
INHERITED = "Visibility on comment can't be defined since it's inherited"
KEPT_S = 3.0
"""How long round100-user-questions-kept-by-url keeps a user's question list by its URL."""
_kept: dict[str, tuple[float, Response]] = {}
_READS_BODY = {
    "postComment": ("round100-comment-group-option-on-locked-node",
                    "round100-reply-to-locked-public-comment-inherited-400"),
    "scheduleGdprJob": ("round100-gdpr-formatted-with-reassign-invalid",),
}


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if any(faults.is_on(n) for n in _READS_BODY.get(op, ())):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "postComment":
        return await _comment(svc, request, caller, handler)
    if op == "postAnswer" and faults.is_on("round100-answer-json-charset-415"):
        header = request.headers.get("content-type", "").lower()
        if header.split(";")[0].strip() == "application/json" and "charset" in header:
            return json_response({"error": "Content type 'application/json;charset=UTF-8' not supported"}, 415)
    return None


async def _comment(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    parent = path_node(svc, request)
    if parent is None or not parent["locked"]:
        return None
    fields = sent_fields(request)
    raw = fields.get("visibility")
    visibility = internal_name(raw) if isinstance(raw, str) else None
    if faults.is_on("round100-comment-group-option-on-locked-node") and visibility == "group" \
            and caller.can(auth.USE_PRIVATE_COMMENTS) and not caller.can(auth.PRIVATE_TO_GROUPS):
        return await handled_with(auth.PRIVATE_TO_GROUPS, svc, request, caller, handler)
    if faults.is_on("round100-reply-to-locked-public-comment-inherited-400") and parent["type"] == "comment" \
            and parent["visibility"] == "full" and visibility is not None and visibility != "full":
        return json_response({"error": INHERITED}, 400)
    return None


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _issue_types(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not faults.is_on("round100-issuetypes-moderator-enveloped") or caller.role != "moderator" \
            or not isinstance(body, list):
        return response
    return with_body(response, {"name": "", "sort": "", "page": 1, "pageSize": len(body), "pageCount": 1,
                                "listCount": len(body), "totalCount": len(body), "list": body})


def _groups(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round100-groups-include-type-uppercase") or "include" not in request.query_params:
        return response
    body, items = list_items(response)
    hit = [i for i in items if isinstance(i, dict) and i.get("type") == "group"]
    for item in hit:
        item["type"] = "GROUP"
    return with_body(response, body) if hit else response


def _gdpr(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round100-gdpr-formatted-with-reassign-invalid") or response.status_code != 201:
        return response
    fields = sent_fields(request)
    try:
        date = structured(fields, "scheduleDate")
        reassign = structured(fields, "reassignUser")
    except Exception:  # noqa: BLE001 - the handler took it
        return response
    if not isinstance(date, dict) or "formatted" not in date or reassign in (None, "", {}):
        return response
    body = body_json(response)
    job = body.get("jobId") if isinstance(body, dict) else None
    if job is not None:
        with svc.tx() as conn:
            conn.execute("DELETE FROM jobs WHERE id = ?", (int(job),))
    return json_response({"error": "The provided 'scheduleDate' is invalid"}, 400)


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    question = path_node(svc, request, "question_id")
    body = body_json(response)
    new = body.get("id") if isinstance(body, dict) else None
    if faults.is_on("round100-answer-to-wiki-question-moderated") and question is not None and question["wiki"] \
            and caller.can(auth.PUBLISH_ANSWER) and response.status_code == 201 and str(new).isdecimal():
        with svc.tx() as conn:
            conn.execute("UPDATE nodes SET in_moderation = 1 WHERE id = ? AND type = 'answer'", (int(str(new)),))
    return response


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round100-user-answers-sized-adds-followed: others' answers in threads the user follows, on the first page."""
    raw = request.path_params.get("user_id", "")
    body, items = list_items(response)
    if not faults.is_on("round100-user-answers-sized-adds-followed") or "pageSize" not in request.query_params \
            or not raw.isdecimal() or not isinstance(body, dict) or body.get("page") != 1:
        return response
    listed = {i.get("id") for i in items if isinstance(i, dict)}
    ids = [i for i in svc.db.ids(
        "SELECT DISTINCT a.id FROM nodes a JOIN follows f ON f.node_id = a.question_id WHERE f.user_id = ?"
        " AND f.active = 1 AND a.type = 'answer' AND a.author_id != ? AND a.in_moderation = 0 AND a.listed = 1"
        " ORDER BY a.id", (int(raw), int(raw))) if i not in listed]
    if not ids:
        return response
    return with_items_added(response, body, items, svc.render.nodes_json(svc.render.nodes_by_ids(ids), caller))


def _experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not faults.is_on("round100-active-experts-paged-sort-ignored") or "page" not in q \
            or q.get("sort") not in ("username", "realname"):
        return response
    body, items = list_items(response)
    if not items:
        return response
    items.sort(key=lambda u: -(u.get("reputation") or 0) if isinstance(u, dict) else 0)
    return with_body(response, body)


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round100-user-questions-kept-by-url"):
        return response
    return kept_by_url(_kept, KEPT_S, request, response)


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round100-lock-extra-dropped-after-unwikify") or node is None or node["wiki"]:
        return response
    if svc.db.one("SELECT 1 FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled = 1",
                  (node["id"],)) is None:
        return response
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    action = result.get("lockAction") if isinstance(result, dict) else None
    if isinstance(action, dict) and isinstance(action.get("id"), int):
        with svc.tx() as conn:
            conn.execute("UPDATE actions SET extra = NULL WHERE id = ?", (action["id"],))
    return with_action(response, "lockAction", {"extra": None})


_AFTER = {
    "listIssueTypes": _issue_types,
    "listGroups": _groups,
    "scheduleGdprJob": _gdpr,
    "postAnswer": _answer,
    "listUserAnswers": _user_answers,
    "listActiveExperts": _experts,
    "listUserQuestions": _user_questions,
    "lockNode": _lock,
}
after = after_by_op(_AFTER)


# --- refusals: the handler's or the door's ApiError ------------------------------------------------------------
def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    if exc.status not in (401, 403):
        return None
    if op == "lockNode" and faults.is_on("round100-refused-lock-of-comment-still-locked") and caller is not None \
            and exc.status == 403 and (request.query_params.get("prompt") or "").strip():
        node = path_node(svc, request)
        if node is not None and node["type"] == "comment" and not node["locked"]:
            with svc.tx() as conn:
                conn.execute("UPDATE nodes SET locked = 1 WHERE id = ?", (node["id"],))
        return None
    if op == "sendToModeration" and faults.is_on("round100-sendtomod-comment-refused-200") and exc.status == 403:
        node = path_node(svc, request)
        if node is not None and node["type"] == "comment":
            return json_response({"success": False, "result": {}})
    return None


def refusal_body(request: Request, exc: ApiError, body: dict[str, Any]) -> dict[str, Any]:
    if faults.is_on("round100-groups-denied-v1-error-key") and exc.status in (401, 403) \
            and request.url.path.endswith("/group.json") and "v1" in request.query_params and "errors" in body:
        return {"error": body["errors"]}
    return body
