"""Where blind round 53's faults bite (faults_blind_round53.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

round53-topics-anonymous-lang-denied and round53-sendtomod-member-v1-allowed need no code here: they are overrides of
the route table (the door decides them), named here so that every fault of the round is wired by name in the
server's code.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults, visibility
from .auth import Caller
from .errors import ApiError, denied
from .hook_kit import after_by_op, handled_with, kept_body, media, path_node
from .http_io import body_json, json_response, with_body, with_query
from .service import Service

OVERRIDE_ONLY = ("round53-topics-anonymous-lang-denied", "round53-sendtomod-member-v1-allowed")
"""The round's faults decided at the door by their overrides (faults_blind_round53.py), not by code here."""

COMMENTS_CACHE_S = 3.0
"""How long round53-answer-comments-cached-by-url's cache answers a repeated read of one URL."""
_comments_by_url: dict[str, tuple[float, int, bytes]] = {}
UNTRANSLATED_TYPES = frozenset({"Story", "Epic"})
"""The issue types round53-issuetypes-localized-name-null's tracker has no translation of."""


async def _fields(request: Request) -> dict[str, Any]:
    """The body's fields (JSON object or form), the query's on top: what the handler will read, roughly."""
    raw = await request.body()  # kept by Starlette: the handler reads it again
    fields: dict[str, Any] = {}
    try:
        if media(request) == "application/json":
            loaded = json.loads(raw) if raw.strip() else {}
            fields = loaded if isinstance(loaded, dict) else {}
        elif media(request) == "application/x-www-form-urlencoded":
            fields = dict(parse_qsl(raw.decode("utf-8"), keep_blank_values=True))
    except ValueError:
        return {}
    return {**fields, **dict(request.query_params.items())}


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postComment" and faults.is_on("round53-comment-form-body-wins"):
        await request.body()
    if op == "postComment" and faults.is_on("round53-group-option-under-answer-allowed"):
        return await _group_option_on_answer(svc, request, caller, handler)
    if op == "cancelWiki" and faults.is_on("round53-cancelwiki-answerer-owns-question"):
        return await _cancelwiki_as_answerer(svc, request, caller, handler)
    if op == "lockNode" and faults.is_on("round53-lock-own-after-unwikify-refused"):
        _lock_refused_after_unwikify(svc, request, caller)
    if op == "listUserAnswers" and _held_answers_shown(request, caller):
        return await handled_with(auth.VIEW_MODERATION_QUEUE, svc, request, caller, handler)
    if op == "scheduleGdprJob" and faults.is_on("round53-gdpr-reassign-int-id-invalid"):
        reassign = (await _fields(request)).get("reassignUser")
        if isinstance(reassign, dict) and set(reassign) == {"id"} and type(reassign["id"]) is int:
            return json_response({"error": "The provided 'reassignUser' is/are invalid"}, 400)
    return None


def _held_answers_shown(request: Request, caller: Caller) -> bool:
    """round53-user-answers-projected-moderated (includeOnly, every caller) and
    round53-kind-user-answers-excluded-held-anonymous (exclude, anonymous): the projected query without the
    moderation filter."""
    q = request.query_params
    if "includeOnly" in q and faults.is_on("round53-user-answers-projected-moderated"):
        return True
    return caller.anonymous and "exclude" in q and faults.is_on("round53-kind-user-answers-excluded-held-anonymous")


async def _group_option_on_answer(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round53-group-option-under-answer-allowed: the answer branch checks Use Private Comments only."""
    if caller.anonymous or not caller.can(auth.USE_PRIVATE_COMMENTS) or caller.can(auth.PRIVATE_TO_GROUPS):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "answer":
        return None
    if (await _fields(request)).get("visibility") != visibility.wire_name("group"):
        return None
    return await handled_with(auth.PRIVATE_TO_GROUPS, svc, request, caller, handler)


async def _cancelwiki_as_answerer(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round53-cancelwiki-answerer-owns-question: "own" taken from the thread's answerers as well as the author."""
    if caller.anonymous or caller.can(auth.MARK_WIKI) or not caller.can(auth.CONVERT_OWN_TO_WIKI):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "question" or node["author_id"] == caller.id:
        return None
    if svc.db.one("SELECT 1 FROM nodes WHERE type = 'answer' AND parent_id = ? AND author_id = ? LIMIT 1",
                  (node["id"], caller.id)) is None:
        return None
    return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)


def _lock_refused_after_unwikify(svc: Service, request: Request, caller: Caller) -> None:
    """round53-lock-own-after-unwikify-refused: the own check reads the canceling user of the node's wiki action."""
    if caller.anonymous or caller.can(auth.LOCK_ANY) or not caller.can(auth.LOCK_OWN):
        return
    node = path_node(svc, request)
    if node is None or node["author_id"] != caller.id:
        return
    if svc.db.one("SELECT 1 FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled = 1",
                  (node["id"],)) is not None:
        raise denied(caller.anonymous)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "postComment" and faults.is_on("round53-comment-form-body-wins") and "body" in q \
            and media(request) == "application/x-www-form-urlencoded":
        raw = kept_body(request)
        try:
            form = dict(parse_qsl(raw.decode("utf-8"), keep_blank_values=True))
        except UnicodeDecodeError:
            form = {}
        if "body" in form:
            return with_query(request, [(k, v) for k, v in q.multi_items() if k != "body"])
    if op == "listActiveExperts" and faults.is_on("round53-active-experts-realname-later-pages-by-username"):
        page = q.get("page") or "1"
        if q.get("sort") == "realname" and page.isdecimal() and int(page) >= 2:
            return with_query(request, [(k, "username" if k == "sort" else v) for k, v in q.multi_items()])
    return request


# --- after: the handler's response as the broken server serves it --------------------------------------------
def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or "wrap" not in request.query_params \
            or not faults.is_on("round53-answer-wrap-200"):
        return response
    headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
    return Response(bytes(response.body), status_code=200, headers=headers)


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    prompt = request.query_params.get("prompt") or ""
    if '"' not in prompt or not faults.is_on("round53-lock-prompt-quote-unescaped"):
        return response
    text = bytes(response.body).decode("utf-8")
    for escaped in (json.dumps(prompt), json.dumps(prompt, ensure_ascii=False)):
        text = text.replace(escaped, '"' + prompt + '"')
    headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
    return Response(text.encode("utf-8"), status_code=response.status_code, headers=headers)


def _foreign_language(request: Request) -> bool:
    """Whether the request's Accept-Language puts a language other than English first."""
    language = request.headers.get("accept-language", "").strip().lower()
    return bool(language) and not language.startswith(("en", "*"))


def _issue_types(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not _foreign_language(request) or not faults.is_on("round53-issuetypes-localized-name-null"):
        return response
    body = body_json(response)
    if not isinstance(body, list):
        return response
    for item in body:
        if isinstance(item, dict) and item.get("name") in UNTRANSLATED_TYPES:
            item["name"] = None
    return with_body(response, body)


def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not _foreign_language(request) or not faults.is_on("round53-kind-topics-localized-date"):
        return response
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("creationDate"), int) and "creationDateFormatted" in item:
            item["creationDateFormatted"] = time.strftime("%d.%m.%Y %H:%M", time.gmtime(item["creationDate"] / 1000))
    return with_body(response, body) if items else response


def _active_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    body = body_json(response)
    if not isinstance(body, dict):
        return response
    page = q.get("page") or "1"
    if q.get("sort") == "realname" and page.isdecimal() and int(page) >= 2 \
            and faults.is_on("round53-active-experts-realname-later-pages-by-username"):
        return with_body(response, {**body, "sort": "realname"})
    if q.get("sort") != "username" or not faults.is_on("round53-active-experts-username-group-id-int"):
        return response
    for user in body.get("list") or []:
        for group in (user.get("groups") or []) if isinstance(user, dict) else []:
            if isinstance(group, dict) and isinstance(group.get("id"), str) and group["id"].isdecimal():
                group["id"] = int(group["id"])
    return with_body(response, body)


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 200 or not faults.is_on("round53-answer-comments-cached-by-url"):
        return response
    now, key = time.monotonic(), str(request.url)
    kept = _comments_by_url.get(key)
    if kept is not None and now - kept[0] < COMMENTS_CACHE_S and kept[1] != caller.id:
        return Response(kept[2], status_code=200, media_type=response.media_type)
    _comments_by_url[key] = (now, caller.id, bytes(response.body))
    return response


_AFTER = {
    "postAnswer": _answer,
    "lockNode": _lock,
    "listIssueTypes": _issue_types,
    "listTopics": _topics,
    "listActiveExperts": _active_experts,
    "listAnswerComments": _answer_comments,
}
after = after_by_op(_AFTER)


# --- refusal_body: a refusal's JSON body as the broken server writes it ---------------------------------------
def refusal_body(request: Request, exc: ApiError, body: dict[str, Any]) -> dict[str, Any]:
    """round53-groups-denied-sorted-errors-array: the sort validator's collector writes the refusal."""
    if not (faults.is_on("round53-groups-denied-sorted-errors-array") and request.url.path.endswith("/group.json")):
        return body
    errors = body.get("errors")
    if exc.status not in (401, 403) or "sort" not in request.query_params or not isinstance(errors, dict):
        return body
    return {**body, "errors": [errors]}
