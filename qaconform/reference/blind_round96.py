"""Where blind round 96's faults bite (faults_blind_round96.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

Faults that are rows of the route table only (``round96-groups-wrap-novice-let-in``,
``round96-user-answers-v1-novice-403``)
need no code here; their names are listed in :data:`OVERRIDES_ONLY` so the wiring check finds them.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .hook_kit import (
    after_by_op,
    handled_with,
    kept_by_url,
    kept_json_object,
    list_items,
    path_node,
    sent_fields,
    with_action,
    without_fields,
)
from .http_io import body_json, with_body, with_json_body, with_query
from .service import Service, now_ms

OVERRIDES_ONLY = ("round96-groups-wrap-novice-let-in", "round96-user-answers-v1-novice-403")
"""Faults of this round that bite through the route table's overrides (faults_blind_round96)."""

KEPT_S = 3.0
"""How long round96-sorted-questions-kept-by-url keeps a sorted question list by its URL."""
_kept: dict[str, tuple[float, Response]] = {}
_READS_BODY = ("round96-gdpr-reassign-param-beside-json-ignored", "round96-gdpr-username-user-past-accepted",
               "round96-comment-on-moderated-node-privacy-dropped")
_FUTURE_MS = 5 * 366 * 86_400_000
"""How far past now round96-gdpr-username-user-past-accepted moves a past job (to the next free frame)."""
_frames = itertools.count(1)
_OPTIONS = (auth.PRIVATE_TO_OP, auth.PRIVATE_TO_MODS, auth.PRIVATE_TO_GROUPS)
"""One of these beside Use Private Comments lets a caller post a comment private to recipients (Authentication, 1)."""


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    q = request.query_params
    if op == "postAnswer" and faults.is_on("round96-answer-solved-question-moderated") \
            and caller.can(auth.PUBLISH_ANSWER):
        question = path_node(svc, request, "question_id")
        if question is not None and question["type"] == "question" and question["marked"]:
            held = dataclasses.replace(caller, permissions=caller.permissions - {auth.PUBLISH_ANSWER})
            answered: Response = await handler(svc, request, held)
            return answered
    if op == "listNodeFollowers" and faults.is_on("round96-followers-sized-relations") \
            and "pageSize" in q and "details" not in q:
        relations: Response = await handler(svc, with_query(request, [*q.multi_items(), ("details", "true")]), caller)
        return relations
    if op == "lockNode" and faults.is_on("round96-lock-own-under-followed-question") and not caller.anonymous \
            and caller.can(auth.LOCK_OWN) and not caller.can(auth.LOCK_ANY):
        node = path_node(svc, request)
        if node is not None and node["type"] in ("answer", "comment") and node["author_id"] != caller.id \
                and svc.db.one("SELECT 1 FROM follows WHERE node_id = ? AND user_id = ? AND active = 1",
                               (node["question_id"], caller.id)) is not None:
            return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)
    if op == "listSpaces" and faults.is_on("round96-spaces-sorted-pagesize-ignored") and q.get("sort") \
            and "pageSize" in q:
        asked = q["pageSize"]
        spaces: Response = await handler(svc, with_query(request, [(k, v) for k, v in q.multi_items()
                                                                   if k != "pageSize"]), caller)
        body = body_json(spaces)
        if spaces.status_code == 200 and isinstance(body, dict) and "pageSize" in body:
            try:
                body["pageSize"] = int(asked)
            except ValueError:
                return spaces
            return with_body(spaces, body)
        return spaces
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "scheduleGdprJob":
        if faults.is_on("round96-gdpr-reassign-param-beside-json-ignored") and "reassignUser" in request.query_params \
                and kept_json_object(request) is not None:
            request = with_query(request, [(k, v) for k, v in request.query_params.multi_items()
                                           if k != "reassignUser"])
        if faults.is_on("round96-gdpr-username-user-past-accepted"):
            request = _past_unchecked(request, sent_fields(request))
        return request
    if op == "postComment" and faults.is_on("round96-comment-on-moderated-node-privacy-dropped") \
            and caller.can(auth.USE_PRIVATE_COMMENTS) and any(caller.can(p) for p in _OPTIONS):
        parent = path_node(svc, request)  # a caller the private comment is allowed to: refusals stay as they are
        if parent is not None and sent_fields(request).get("visibility") == "recipients" and svc.db.one(
                "SELECT 1 FROM actions WHERE node_id = ? AND verb = 'sent'", (parent["id"],)) is not None:
            return without_fields(request, ("visibility", "recipients"))
    return request


def _when_ms(date: Any) -> int | None:
    if not isinstance(date, dict):
        return None
    formatted, stamp = date.get("formatted"), date.get("timeStamp")
    if isinstance(formatted, str):
        try:
            return int(datetime.strptime(formatted, "%m/%d/%Y %H:%M").replace(tzinfo=UTC).timestamp() * 1000)
        except ValueError:
            return None
    return stamp if isinstance(stamp, int) and not isinstance(stamp, bool) else None


def _past_unchecked(request: Request, fields: dict[str, Any]) -> Request:
    """round96-gdpr-username-user-past-accepted: a user by username, the job's past date not judged."""
    key = next((k for k in ("scheduleDate", "scheduleTime") if k in fields), None)
    try:
        user, date = structured(fields, "user"), structured(fields, key) if key else None
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return request
    if fields.get("type") != "individual" or not isinstance(user, dict) or list(user) != ["username"] \
            or key is None:
        return request
    when = _when_ms(date)
    if when is None or when >= now_ms():
        return request
    later = {"timeStamp": now_ms() + _FUTURE_MS + next(_frames) * 60_000}
    q = request.query_params
    if key in q:
        return with_query(request, [*[(k, v) for k, v in q.multi_items() if k != key], (key, json.dumps(later))])
    body = kept_json_object(request)
    if body is not None and key in body:
        return with_json_body(request, {**body, key: later})
    return request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _sendtomod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round96-sendtomod-own-node-verb-withdrawn") or node is None \
            or node["author_id"] != caller.id:
        return response
    return with_action(response, "sendToModAction", {"verb": "withdrawn"})


def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    from .site_lists import TOPIC_SORTS  # here: site_lists imports the round modules

    q = request.query_params
    if not faults.is_on("round96-topics-invalid-sort-wrap-reversed") or "wrap" not in q or not q.get("sort") \
            or q.get("sort") in TOPIC_SORTS:
        return response
    body, items = list_items(response)
    if len(items) < 2:
        return response
    body["list"] = items[::-1]
    return with_body(response, body)


def _cancelwiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round96-cancelwiki-answer-record-no-private") or node is None or node["type"] != "answer":
        return response
    return with_action(response, "wikifyAction", lambda action: action.pop("private", None))


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round96-user-answers-accepted-marked-string"):
        return response
    body, items = list_items(response)
    hit = [i for i in items if isinstance(i, dict) and i.get("marked") is True]
    for item in hit:
        item["marked"] = "true"
    return with_body(response, body) if hit else response


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round96-answer-wiki-question-parent-author-null"):
        return response
    question = path_node(svc, request, "question_id")
    body = body_json(response)
    if question is None or not question["wiki"] or not isinstance(body, dict) or "parentAuthor" not in body:
        return response
    body["parentAuthor"] = None
    return with_body(response, body)


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round96-sorted-questions-kept-by-url") or "sort" not in request.query_params:
        return response
    return kept_by_url(_kept, KEPT_S, request, response)


_AFTER = {
    "sendToModeration": _sendtomod,
    "listTopics": _topics,
    "cancelWiki": _cancelwiki,
    "listUserAnswers": _user_answers,
    "postAnswer": _answer,
    "listQuestions": _questions,
}
after = after_by_op(_AFTER)
