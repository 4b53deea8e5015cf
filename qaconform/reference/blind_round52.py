"""Where blind round 52's faults bite (faults_blind_round52.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

round52-spaces-novice-denied, round52-groups-moderator-allowed and round52-lock-novice-wrap-allowed need no code
here: they are overrides of the route table (the door decides them), named here so that every fault of the round is
wired by name in the server's code.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .hook_kit import after_by_op, handled_with, kept_body, list_items, parse_json, path_node, result_action
from .http_io import body_json, is_id, json_response, with_body, with_query
from .service import Service

OVERRIDE_ONLY = ("round52-spaces-novice-denied", "round52-groups-moderator-allowed", "round52-lock-novice-wrap-allowed")
"""The round's faults decided at the door by their overrides (faults_blind_round52.py), not by code here."""

SPACES_CACHE_S = 3.0
"""How long round52-spaces-cached-by-url's cache answers a repeated read of one URL."""
_spaces_by_url: dict[str, tuple[float, int, bytes]] = {}


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postAnswer" and faults.is_on("round52-answer-charset-json-body-wins"):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "cancelWiki" and faults.is_on("round52-cancelwiki-favorite-holder-owns"):
        return await _cancelwiki_as_favorite_holder(svc, request, caller, handler)
    if op == "listUserQuestions" and faults.is_on("round52-user-questions-none-site-list"):
        return await _site_list_for_no_questions(svc, request, caller)
    if op == "listUserAnswers" and faults.is_on("round52-kind-user-answers-none-others-listed"):
        _answers_of_latest_author(svc, request)
    if op == "scheduleGdprJob" and faults.is_on("round52-gdpr-user-email-refused"):
        body = parse_json(await request.body())
        user = body.get("user") if isinstance(body, dict) else None
        if isinstance(user, dict) and set(user) == {"email"} and body.get("type") == "individual":
            return json_response(
                {"error": "The individual type was selected, but the request is missing the user field."}, 400)
    return None


async def _cancelwiki_as_favorite_holder(svc: Service, request: Request, caller: Caller,
                                         handler: Any) -> Response | None:
    """round52-cancelwiki-favorite-holder-owns: "own" taken from the caller's favorites as well as its posts."""
    if caller.anonymous or caller.can(auth.MARK_WIKI) or not caller.can(auth.CONVERT_OWN_TO_WIKI):
        return None
    node = path_node(svc, request)
    if node is None or node["author_id"] == caller.id:
        return None
    if svc.db.one("SELECT 1 FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"])) is None:
        return None
    return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)


async def _site_list_for_no_questions(svc: Service, request: Request, caller: Caller) -> Response | None:
    """round52-user-questions-none-site-list: an empty author filter dropped, the site's list served."""
    raw = request.path_params.get("user_id", "")
    if not is_id(raw) or svc.db.one("SELECT 1 FROM users WHERE id = ?", (int(raw),)) is None:
        return None
    if svc.db.one("SELECT 1 FROM nodes WHERE type = 'question' AND author_id = ? LIMIT 1", (int(raw),)) is not None:
        return None
    from .node_lists import list_questions  # here: node_lists imports the hooks' neighbours

    return await list_questions(svc, request, caller)


def _answers_of_latest_author(svc: Service, request: Request) -> None:
    """round52-kind-user-answers-none-others-listed: a user without answers read as the newest answer's author."""
    raw = request.path_params.get("user_id", "")
    if not is_id(raw) or svc.db.one("SELECT 1 FROM users WHERE id = ?", (int(raw),)) is None:
        return
    if svc.db.one("SELECT 1 FROM nodes WHERE type = 'answer' AND author_id = ? LIMIT 1", (int(raw),)) is not None:
        return
    latest = svc.db.one("SELECT author_id FROM nodes WHERE type = 'answer' AND in_moderation = 0 "
                        "ORDER BY creation_date DESC LIMIT 1")
    if latest is not None:
        request.scope["path_params"]["user_id"] = str(latest["author_id"])


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listQuestions" and faults.is_on("round52-questions-spaceid-dropped-later-pages"):
        page = q.get("page") or "1"
        if "spaceId" in q and page.isdecimal() and int(page) >= 2:
            return with_query(request, [(k, v) for k, v in q.multi_items() if k != "spaceId"])
    if op == "postAnswer" and faults.is_on("round52-answer-charset-json-body-wins") and "body" in q:
        media = request.headers.get("content-type", "")
        body = parse_json(kept_body(request))
        if ";" in media and media.split(";")[0].strip().lower() == "application/json" \
                and isinstance(body, dict) and "body" in body:
            return with_query(request, [(k, v) for k, v in q.multi_items() if k != "body"])
    return request


# --- after: the handler's response as the broken server serves it --------------------------------------------
def _schedule(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not faults.is_on("round52-bulk-job-answers-id-key"):
        return response
    body = body_json(response)
    job = body.get("jobId") if isinstance(body, dict) else None
    row = svc.db.one("SELECT type FROM jobs WHERE id = ?", (job,)) if isinstance(job, int) else None
    if row is None or row["type"] != "bulk":
        return response
    return with_body(response, {"id": job})


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on("round52-questions-spaceid-container-string") and "spaceId" in request.query_params):
        return response
    body, items = list_items(response)
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("primaryContainerId"), int):
            item["primaryContainerId"] = str(item["primaryContainerId"])
    return with_body(response, body) if items else response


def _followers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not (faults.is_on("round52-followers-inactive-active-int") and (q.get("active") or "").lower() == "false"):
        return response
    body, items = list_items(response)
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("active"), bool):
            item["active"] = int(item["active"])
    return with_body(response, body) if items else response


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    page = request.query_params.get("page") or ""
    if not (faults.is_on("round52-answer-comments-page-zero-based") and page.isdecimal() and int(page) >= 1):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("page"), int):
        return response
    return with_body(response, {**body, "page": body["page"] - 1})


def _send_to_mod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on("round52-sendtomod-v1-actiondate-epoch") and "v1" in request.query_params):
        return response
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    row = svc.db.one("SELECT action_date FROM actions WHERE id = ?", (action.get("id"),)) if action else None
    if action is None or row is None:
        return response
    action["actionDate"] = int(row["action_date"])
    return with_body(response, body)


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round52-lock-after-sendtomod-verb-sent"):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "lockAction")
    if node is None or action is None:
        return response
    if svc.db.one("SELECT 1 FROM actions WHERE node_id = ? AND verb = 'sent'", (node["id"],)) is None:
        return response
    action["verb"] = "sent"
    return with_body(response, body)


def _spaces(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 200 or not faults.is_on("round52-spaces-cached-by-url"):
        return response
    now, key = time.monotonic(), str(request.url)
    kept = _spaces_by_url.get(key)
    if kept is not None and now - kept[0] < SPACES_CACHE_S and kept[1] != caller.id:
        return Response(kept[2], status_code=200, media_type=response.media_type)
    _spaces_by_url[key] = (now, caller.id, bytes(response.body))
    return response


_AFTER = {
    "scheduleGdprJob": _schedule,
    "listQuestions": _questions,
    "listNodeFollowers": _followers,
    "listAnswerComments": _answer_comments,
    "sendToModeration": _send_to_mod,
    "lockNode": _lock,
    "listSpaces": _spaces,
}
after = after_by_op(_AFTER, refused_too=("scheduleGdprJob",))
