"""Where blind round 47's faults bite (faults_blind_round47.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

round47-groups-v1-any-signed-in needs no code here: it is an override of the group list's row (the door decides it),
named here so that every fault of the round is wired by name in the server's code.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import read_fields
from .errors import ApiError
from .hook_kit import (
    after_by_op,
    each_item,
    handled_with,
    id_as_string,
    kept_json,
    path_node,
    result_action,
    uncanceled,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_json_body, with_query
from .service import Service

OVERRIDE_ONLY = ("round47-groups-v1-any-signed-in",)
"""The round's fault decided at the door by its override (faults_blind_round47.py), not by code here."""

ISSUE_TYPES_CACHE_S = 5.0
"""How long round47-issuetypes-cached-object-wrapper's tracker cache answers a repeated read."""
_issue_types_read_at: list[float] = []

_PRIVATE = frozenset({"recipients", "op", "mod", "group", "moderators", "groups"})


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postAnswer", "scheduleGdprJob", "postComment") and _any_on():
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "lockNode" and faults.is_on("round47-lock-sibling-answerer-owns"):
        return await _lock_as_sibling(svc, request, caller, handler)
    if op == "postComment" and faults.is_on("round47-depth3-private-reply-to-public-refused"):
        return await _deep_private_reply_refused(svc, request, caller)
    return None


def _any_on() -> bool:
    return any(faults.is_on(n) for n in ("round47-answer-json-charset-body-raw",
                                         "round47-reassign-same-user-both-forms-accepted",
                                         "round47-depth3-private-reply-to-public-refused"))


async def _lock_as_sibling(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round47-lock-sibling-answerer-owns: "own" taken as having answered the same question."""
    if caller.anonymous or caller.can(auth.LOCK_ANY) or not caller.can(auth.LOCK_OWN):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "answer" or node["author_id"] == caller.id:
        return None
    sibling = svc.db.one("SELECT 1 FROM nodes WHERE type = 'answer' AND question_id = ? AND author_id = ? AND id != ?",
                         (node["question_id"], caller.id, node["id"]))
    if sibling is None:
        return None
    return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)


async def _deep_private_reply_refused(svc: Service, request: Request, caller: Caller) -> Response | None:
    """round47-depth3-private-reply-to-public-refused: a private reply to a public reply refused as inherited."""
    if caller.anonymous or not caller.can(auth.USE_PRIVATE_COMMENTS):
        return None
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "comment" or parent["visibility"] != "full":
        return None
    grand = svc.db.one("SELECT type FROM nodes WHERE id = ?", (parent["parent_id"],))
    if grand is None or grand["type"] != "comment":
        return None
    try:
        fields = await read_fields(request)
    except ApiError:
        return None
    visibility = fields.get("visibility")
    if visibility not in _PRIVATE or not fields.get("body"):
        return None
    return json_response({"errors": {"message": "Visibility on comment can't be defined since it's inherited"}}, 400)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "listNodeFollowers" and faults.is_on("round47-followers-details-includeonly-ignored"):
        q = request.query_params
        if "includeOnly" in q and (q.get("details") or "").lower() in ("true", "1"):
            return with_query(request, [(k, v) for k, v in q.multi_items() if k != "includeOnly"])
    if op == "postAnswer" and faults.is_on("round47-answer-json-charset-body-raw"):
        return _charset_answer(request)
    if op == "scheduleGdprJob" and faults.is_on("round47-reassign-same-user-both-forms-accepted"):
        return _reassign_pair(svc, request)
    return request


def _charset_answer(request: Request) -> Request:
    """round47-answer-json-charset-body-raw: a JSON body under a Content-Type with a parameter stored as text."""
    media = request.headers.get("content-type", "")
    raw = vars(request).get("_body")
    if ";" not in media or media.split(";")[0].strip().lower() != "application/json" or not raw:
        return request
    try:
        text = bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        return request
    return with_json_body(request, {"body": text})


def _reassign_pair(svc: Service, request: Request) -> Request:
    """round47-reassign-same-user-both-forms-accepted: a consistent username and id pair taken as one form."""
    body = kept_json(request, loose=True)
    reassign = body.get("reassignUser") if isinstance(body, dict) else None
    if not isinstance(reassign, dict) or set(reassign) != {"username", "id"}:
        return request
    row = svc.db.one("SELECT id FROM users WHERE username = ?", (str(reassign["username"]),))
    if row is None or str(row["id"]) != str(reassign["id"]):
        return request
    return with_json_body(request, {**body, "reassignUser": {"id": reassign["id"]}})


# --- after: the handler's response as the broken server serves it --------------------------------------------
def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response) if faults.is_on("round47-user-answers-empty-page-list-null") else None
    if isinstance(body, dict) and body.get("list") == []:
        return with_body(response, {**body, "list": None})
    return response


def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on("round47-topics-search-author-id-only") and request.query_params.get("q")):
        return response
    return each_item(response, _author_id_only)


def _author_id_only(item: dict[str, Any]) -> None:
    if isinstance(item.get("author"), dict):
        item["author"] = item["author"].get("id")


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on("round47-unfavorite-wrapped-record-before-cancel") and "wrap" in request.query_params):
        return response
    return with_action(response, "favoriteAction", uncanceled)


def _cancel_wiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round47-kind-cancelwiki-wrapped-not-canceled") and "wrap" in request.query_params:
        action = result_action(body := body_json(response), "wikifyAction")
        if action is not None:
            uncanceled(action)
            return with_body(response, body)
    if not faults.is_on("round47-cancelwiki-own-by-moderator-no-canceledby") or not caller.can(auth.MARK_WIKI):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "wikifyAction")
    if node is None or node["author_id"] != caller.id or action is None:
        return response
    action.pop("canceledByUser", None)
    return with_body(response, body)


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round47-lock-reply-record-user-author-shape"):
        return response
    node = path_node(svc, request)
    if node is None or node["type"] != "comment":
        return response
    parent = svc.db.one("SELECT type FROM nodes WHERE id = ?", (node["parent_id"],))
    body = body_json(response)
    action = result_action(body, "lockAction")
    if parent is None or parent["type"] != "comment" or action is None or not isinstance(action.get("user"), dict):
        return response
    user = svc.db.one("SELECT id, username, reputation FROM users WHERE id = ?", (action["user"].get("id"),))
    if user is None:
        return response
    action["user"] = {"id": user["id"], "username": user["username"], "reputation": user["reputation"]}
    return with_body(response, body)


def _post_answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not faults.is_on("round47-moderated-answer-id-integer"):
        return response
    if caller.can(auth.PUBLISH_ANSWER):
        return response
    body = body_json(response)
    if isinstance(body, dict) and isinstance(body.get("id"), str) and body["id"].isdecimal():
        body["id"] = int(body["id"])
        return with_body(response, body)
    return response


def _groups(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    page = request.query_params.get("page") or "1"
    if not (faults.is_on("round47-groups-later-page-id-string") and page.isdecimal() and int(page) >= 2):
        return response
    return each_item(response, id_as_string)


def _issue_types(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round47-issuetypes-cached-object-wrapper"):
        return response
    now = time.monotonic()
    cached = bool(_issue_types_read_at) and now - _issue_types_read_at[-1] < ISSUE_TYPES_CACHE_S
    _issue_types_read_at[:] = [now]
    body = body_json(response)
    if cached and isinstance(body, list):
        return with_body(response, {"issueTypes": body})
    return response


def _earned_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on("round47-earned-experts-oldest-reversed") and request.query_params.get("sort") == "oldest"):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    body["list"].reverse()
    return with_body(response, body)


_AFTER = {
    "listUserAnswers": _user_answers,
    "listTopics": _topics,
    "unmarkFavorite": _unfavorite,
    "cancelWiki": _cancel_wiki,
    "lockNode": _lock,
    "postAnswer": _post_answer,
    "listGroups": _groups,
    "listIssueTypes": _issue_types,
    "listEarnedExperts": _earned_experts,
}
after = after_by_op(_AFTER, refused_too=("postAnswer",))
