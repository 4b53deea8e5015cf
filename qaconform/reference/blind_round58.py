"""Where blind round 58's faults bite (faults_blind_round58.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

round58-sendtomod-member-wrap-allowed is let in by an override of the route table (the door decides it).
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import ApiError
from .hook_kit import after_by_op, kept_json, let_in_through, list_items, media, path_node, result_action
from .http_io import body_json, json_response, with_body, with_json_body
from .service import Service

TOTALS_KEPT_S = 3.0
"""How long round58-questions-totalcount-cached-by-path keeps the question list's totalCount by its path."""
_totals_by_path: dict[str, tuple[float, Any]] = {}


def _content_type(request: Request) -> str:
    return request.headers.get("content-type", "").lower()


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postComment" and faults.is_on("round58-comment-json-charset-privacy-dropped"):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "scheduleGdprJob" and faults.is_on("round58-gdpr-user-id-string-refused"):
        await request.body()
        body = kept_json(request)
        user = body.get("user") if isinstance(body, dict) else None
        if isinstance(body, dict) and body.get("type") == "individual" and isinstance(user, dict) \
                and set(user) == {"id"} and isinstance(user["id"], str):
            return json_response({"error": "The provided 'user' is/are invalid"}, 400)
    if op == "postAnswer" and faults.is_on("round58-unpublished-answer-param-body-400") and not caller.anonymous \
            and caller.can(auth.ANSWER) and not caller.can(auth.PUBLISH_ANSWER) \
            and "body" in request.query_params and media(request) != "application/json":
        return json_response({"error": "body is required"}, 400)
    if op == "lockNode" and faults.is_on("round58-lock-comment-parent-author-owns"):
        return await _lock_as_parent_author(svc, request, caller, handler)
    return None


async def _lock_as_parent_author(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round58-lock-comment-parent-author-owns: "own" taken from the author of the comment's parent."""
    return await let_in_through(svc, request, caller, handler, kind="comment", own=auth.LOCK_OWN,
                                granted=auth.LOCK_ANY, through=("parent_id",))


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "postComment" and faults.is_on("round58-comment-json-charset-privacy-dropped") \
            and "charset" in _content_type(request):
        body = kept_json(request)
        if isinstance(body, dict) and ("visibility" in body or "recipients" in body):
            return with_json_body(request, {k: v for k, v in body.items() if k not in ("visibility", "recipients")})
    return request


# --- refusal: a refusal answered off the interface ----------------------------------------------------------
def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    """round58-cancelwiki-answer-denied-200: a signed-in caller's refusal (403, at the door or at the own check)."""
    if op != "cancelWiki" or exc.status != 403 or not faults.is_on("round58-cancelwiki-answer-denied-200"):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "answer":
        return None
    return json_response({"success": False, "result": {}})


# --- after: the handler's response as the broken server serves it --------------------------------------------
def _cancel_wiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round58-cancelwiki-answer-no-canceledby"):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "wikifyAction")
    if node is None or node["type"] != "answer" or action is None or "canceledByUser" not in action:
        return response
    action.pop("canceledByUser")
    return with_body(response, body)


def _send_to_mod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round58-sendtomod-comment-private-false"):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    if node is None or node["type"] != "comment" or action is None:
        return response
    action["private"] = False
    return with_body(response, body)


def _unmark_favorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round58-unfavorite-last-holder-count-null"):
        return response
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not isinstance(result, dict) or result.get("favoriteCount") != 0:
        return response
    result["favoriteCount"] = None
    return with_body(response, body)


def _issue_types(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round58-issuetypes-admin-enveloped") or not caller.can(auth.EDIT_USERS_AND_GROUPS):
        return response
    body = body_json(response)
    return with_body(response, {"list": body, "totalCount": len(body)}) if isinstance(body, list) else response


def _active_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round58-active-experts-moderator-type"):
        return response
    body, items = list_items(response)
    moderators = [item for item in items if isinstance(item, dict) and item.get("moderator") is True]
    for item in moderators:
        item["type"] = "moderator"
    return with_body(response, body) if moderators else response


def _earned_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round58-earned-experts-oldest-reversed") or request.query_params.get("sort") != "oldest":
        return response
    body, items = list_items(response)
    if len(items) < 2:
        return response
    return with_body(response, {**body, "list": items[::-1]})


def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round58-topics-unused-usedcount-null"):
        return response
    body, items = list_items(response)
    unused = [item for item in items if isinstance(item, dict) and item.get("usedCount") == 0]
    for item in unused:
        item["usedCount"] = None
    return with_body(response, body) if unused else response


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round58-answer-comments-empty-no-sorts"):
        return response
    body, items = list_items(response)
    if not isinstance(body, dict) or items or "sorts" not in body:
        return response
    return with_body(response, {k: v for k, v in body.items() if k != "sorts"})


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round58-questions-totalcount-cached-by-path"):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or "totalCount" not in body:
        return response
    now, key = time.monotonic(), request.url.path
    kept = _totals_by_path.get(key)
    if kept is None or now - kept[0] >= TOTALS_KEPT_S:
        _totals_by_path[key] = (now, body["totalCount"])
        return response
    return response if kept[1] == body["totalCount"] else with_body(response, {**body, "totalCount": kept[1]})


_AFTER = {
    "cancelWiki": _cancel_wiki,
    "sendToModeration": _send_to_mod,
    "unmarkFavorite": _unmark_favorite,
    "listIssueTypes": _issue_types,
    "listActiveExperts": _active_experts,
    "listEarnedExperts": _earned_experts,
    "listTopics": _topics,
    "listAnswerComments": _answer_comments,
    "listQuestions": _questions,
}
after = after_by_op(_AFTER)
