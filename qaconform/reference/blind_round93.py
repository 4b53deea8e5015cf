"""Where blind round 93's faults bite (faults_blind_round93.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import unicodedata
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import PERMISSION_MESSAGE
from .hook_kit import (
    after_by_op,
    handled_with,
    kept_by_url,
    kept_json_object,
    list_items,
    path_node,
    sent_fields,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_json_body, with_query
from .service import Service, now_ms

KEPT_S = 3.0
"""How long round93-accepted-answer-comments-kept-by-url keeps an accepted answer's comment list by its URL."""
_kept: dict[str, tuple[float, Response]] = {}
_READS_BODY = ("round93-gdpr-bulk-timestamp-csv-unchecked", "round93-gdpr-user-param-beside-json-ignored",
               "round93-gdpr-integer-user-id-past-accepted", "round93-comment-on-wiki-node-body-optional",
               "round93-comment-after-unwikify-default-op", "round93-kind-wiki-node-private-comment-novice-taken",
               "round93-kind-gdpr-user-and-date-params-ignored")
_FUTURE_MS = 4 * 366 * 86_400_000
"""How far past now round93-gdpr-integer-user-id-past-accepted moves a past job (to the next free frame)."""
_frames = itertools.count(1)
_DAY_MS = 86_400_000
_OBJECTS = ("user", "scheduleDate")
"""The job fields round93-kind-gdpr-user-and-date-params-ignored does not read from a parameter."""
_PRIVATE = frozenset({auth.USE_PRIVATE_COMMENTS, auth.PRIVATE_TO_OP, auth.PRIVATE_TO_MODS, auth.PRIVATE_TO_GROUPS})
"""What round93-kind-wiki-node-private-comment-novice-taken lets a caller use under a wiki node."""


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    q = request.query_params
    if op == "listUserQuestions" and faults.is_on("round93-user-questions-v1-moderator-403") and "v1" in q \
            and caller.can(auth.SEND_TO_MODERATION) and not caller.can(auth.EDIT_USERS_AND_GROUPS):
        return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)
    if op == "postAnswer" and faults.is_on("round93-novice-answer-own-question-published") \
            and caller.can(auth.ANSWER) and not caller.can(auth.PUBLISH_ANSWER):
        question = path_node(svc, request, "question_id")
        if question is not None and question["type"] == "question" and question["author_id"] == caller.id:
            return await handled_with(auth.PUBLISH_ANSWER, svc, request, caller, handler)
    if op == "postComment" and faults.is_on("round93-kind-wiki-node-private-comment-novice-taken") \
            and not caller.anonymous and not caller.can(auth.USE_PRIVATE_COMMENTS):
        parent = path_node(svc, request)
        if parent is not None and parent["wiki"] and sent_fields(request).get("visibility") not in (None, "", "full"):
            let_in = dataclasses.replace(caller, permissions=caller.permissions | _PRIVATE)
            wiki_response: Response = await handler(svc, request, let_in)
            return wiki_response
    if op == "listQuestions" and faults.is_on("round93-questions-spaceid-dropped-with-type") \
            and "spaceId" in q and "type" in q:
        response: Response = await handler(svc, with_query(request, [(k, v) for k, v in q.multi_items()
                                                                     if k != "spaceId"]), caller)
        return response
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "scheduleGdprJob":
        return _job(svc, request)
    if op == "postComment" and faults.is_on("round93-comment-on-wiki-node-body-optional"):
        parent = path_node(svc, request)
        if parent is not None and parent["wiki"] and "body" not in sent_fields(request):
            return with_query(request, [*request.query_params.multi_items(), ("body", "<p></p>")])
    return request


def _job(svc: Service, request: Request) -> Request:
    fields = sent_fields(request)
    if faults.is_on("round93-gdpr-bulk-timestamp-csv-unchecked"):
        request = _csv_unchecked(svc, request, fields)
    if faults.is_on("round93-gdpr-user-param-beside-json-ignored") and "user" in request.query_params:
        body = kept_json_object(request)
        if body is not None and "user" not in body:
            request = with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "user"])
    if faults.is_on("round93-gdpr-integer-user-id-past-accepted"):
        request = _past_unchecked(request, fields)
    q = request.query_params
    if faults.is_on("round93-kind-gdpr-user-and-date-params-ignored") and kept_json_object(request) is not None \
            and any(k in q for k in _OBJECTS):
        request = with_query(request, [(k, v) for k, v in q.multi_items() if k not in _OBJECTS])
    return request


def _replaced(request: Request, key: str, value: Any) -> Request:
    """The request with field ``key`` set to ``value`` where the client sent it (parameter or JSON body)."""
    q = request.query_params
    if key in q:
        text = value if isinstance(value, str) else json.dumps(value)
        return with_query(request, [*[(k, v) for k, v in q.multi_items() if k != key], (key, text)])
    body = kept_json_object(request)
    if body is not None and key in body:
        return with_json_body(request, {**body, key: value})
    return request


def _csv_unchecked(svc: Service, request: Request, fields: dict[str, Any]) -> Request:
    """round93-gdpr-bulk-timestamp-csv-unchecked: a bulk job dated by timeStamp, its file never looked up."""
    try:
        date = structured(fields, "scheduleDate")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return request
    csv = fields.get("csvFileId")
    if fields.get("type") != "bulk" or not isinstance(date, dict) or date.get("formatted") is not None \
            or date.get("timeStamp") is None or csv in (None, "") or isinstance(csv, bool):
        return request
    try:
        csv_id = int(str(csv).strip())
    except ValueError:
        return request
    if svc.db.one("SELECT 1 FROM csv_files WHERE id = ?", (csv_id,)) is not None:
        return request
    some = svc.db.one("SELECT id FROM csv_files ORDER BY id LIMIT 1")
    return request if some is None else _replaced(request, "csvFileId", int(some["id"]))


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
    """round93-gdpr-integer-user-id-past-accepted: a user by integer id, the job's past date not judged."""
    try:
        user, date = structured(fields, "user"), structured(fields, "scheduleDate")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return request
    if fields.get("type") != "individual" or not isinstance(user, dict) or list(user) != ["id"] \
            or isinstance(user["id"], bool) or not isinstance(user["id"], int):
        return request
    when = _when_ms(date)
    if when is None or when >= now_ms():
        return request
    return _replaced(request, "scheduleDate", {"timeStamp": now_ms() + _FUTURE_MS + next(_frames) * 60_000})


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _page(request: Request) -> int:
    try:
        return int(request.query_params.get("page", ""))
    except ValueError:
        return 0


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round93-answer-plug-on-solved-question"):
        return response
    question = path_node(svc, request, "question_id")
    if question is None or not question["marked"]:
        return response
    accepted = svc.db.one("SELECT id FROM nodes WHERE question_id = ? AND type = 'answer' AND marked = 1 "
                          "ORDER BY id LIMIT 1", (question["id"],))
    body = body_json(response)
    if accepted is None or not isinstance(body, dict) or "plug" not in body:
        return response
    body["plug"] = {"id": int(accepted["id"])}
    return with_body(response, body)


def _dates_text(response: Response, keys: tuple[str, ...]) -> Response:
    body, items = list_items(response)
    for item in items:
        for key in keys:
            if isinstance(item, dict) and isinstance(item.get(key), int):
                item[key] = str(item[key])
    return with_body(response, body) if items else response


def _followers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round93-followers-later-page-dates-text") or _page(request) < 2 \
            or request.query_params.get("details", "").lower() == "true":
        return response
    return _dates_text(response, ("creationDate", "modificationDate"))


def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round93-kind-topics-later-page-dates-text") or _page(request) < 2:
        return response
    return _dates_text(response, ("creationDate",))


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round93-questions-wiki-accepted-unmarked"):
        return response
    body, items = list_items(response)
    hit = [i for i in items if isinstance(i, dict) and i.get("wiki") is True and i.get("marked") is True]
    for item in hit:
        item["marked"] = False
    return with_body(response, body) if hit else response


def _issue_types(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not faults.is_on("round93-issuetypes-repeated-name-null") or not isinstance(body, list):
        return response
    seen: set[str] = set()
    for item in body:
        name = item.get("name") if isinstance(item, dict) else None
        if isinstance(name, str):
            if name in seen:
                item["name"] = None
            seen.add(name)
    return with_body(response, body)


def _comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round93-accepted-answer-comments-kept-by-url"):
        answer = path_node(svc, request, "answer_id")
        if answer is not None and answer["marked"]:
            return kept_by_url(_kept, KEPT_S, request, response)
    if faults.is_on("round93-kind-old-answer-comments-kept-by-url"):
        answer = path_node(svc, request, "answer_id")
        if answer is not None and answer["creation_date"] < now_ms() - _DAY_MS:
            return kept_by_url(_kept, KEPT_S, request, response)
    if not faults.is_on("round93-answer-comments-replies-nfd"):
        return response
    body, items = list_items(response)
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int):
            continue
        row = svc.db.one("SELECT p.type FROM nodes c JOIN nodes p ON p.id = c.parent_id WHERE c.id = ?",
                         (item["id"],))
        if row is not None and row["type"] == "comment":
            for key in ("body", "bodyAsHTML"):
                if isinstance(item.get(key), str):
                    item[key] = unicodedata.normalize("NFD", item[key])
    return with_body(response, body) if items else response


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round93-comment-after-unwikify-default-op: a comment without privacy fields on an unwikified node stored op."""
    if not faults.is_on("round93-comment-after-unwikify-default-op") \
            or any(k in sent_fields(request) for k in ("visibility", "recipients")):
        return response
    parent = path_node(svc, request)
    if parent is None or parent["wiki"] or svc.db.one(
            "SELECT 1 FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled = 1", (parent["id"],)) is None:
        return response
    row = svc.db.one("SELECT id FROM nodes WHERE parent_id = ? AND author_id = ? AND type = 'comment' "
                     "ORDER BY id DESC LIMIT 1", (parent["id"], caller.id))
    if row is None:
        return response
    with svc.tx("comment") as conn:
        conn.execute("UPDATE nodes SET visibility = 'op' WHERE id = ?", (row["id"],))
    body = body_json(response)
    if isinstance(body, dict) and body.get("id") in (row["id"], str(row["id"])) and "visibility" in body:
        body["visibility"] = "op"
        return with_body(response, body)
    return response


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round93-lock-child-space-question-node-names-space") or node is None \
            or node["type"] != "question":
        return response
    space = svc.db.one("SELECT id, parent_id FROM spaces WHERE id = ?", (node["space_id"],))
    if space is None or space["parent_id"] is None:
        return response
    return with_action(response, "lockAction", {"node": {"id": int(space["id"]), "type": "space"}})


_AFTER = {
    "postAnswer": _answer,
    "listNodeFollowers": _followers,
    "listTopics": _topics,
    "listQuestions": _questions,
    "listIssueTypes": _issue_types,
    "listAnswerComments": _comments,
    "postComment": _comment,
    "lockNode": _lock,
}
after = after_by_op(_AFTER)
