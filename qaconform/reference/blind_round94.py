"""Where blind round 94's faults bite (faults_blind_round94.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import denied
from .hook_kit import (
    after_by_op,
    handled_with,
    kept_body,
    kept_by_url,
    kept_json_object,
    list_items,
    media,
    path_node,
    sent_fields,
    without_fields,
)
from .http_io import body_json, with_body, with_json_body, with_query
from .service import Service
from .visibility import internal_name

KEPT_S = 3.0
"""How long round94-questions-sized-kept-by-url keeps a sized question list by its URL."""
_kept: dict[str, tuple[float, Response]] = {}
_READS_BODY = ("round94-gdpr-bulk-type-param-no-csv-scheduled", "round94-private-mod-on-moderators-answer-403",
               "round94-novice-comment-with-link-refused", "round94-anonymous-form-comment-accepted",
               "round94-params-comment-string-recipients-dropped", "round94-reassign-both-user-id-string-taken",
               "round94-comment-after-unwikify-recipients-op-taken",
               "round94-kind-comment-after-unwikify-body-optional", "round94-kind-novice-link-comment-link-stripped")
_LINK = re.compile(r"<a\s|https?://", re.IGNORECASE)
"""What round94-novice-comment-with-link-refused takes for a link in a comment's body."""
_URL = re.compile(r"https?://[^\s)<\"']+", re.IGNORECASE)
"""What round94-kind-novice-link-comment-link-stripped takes out of a comment's body."""
_STAFF = ("admin", "moderator")
"""The roles whose answers round94-private-mod-on-moderators-answer-403 guards against reports to moderators."""


def _visibility(fields: dict[str, Any]) -> str | None:
    """The stored option the sent visibility names (None when none is sent or it names none)."""
    value = fields.get("visibility")
    return internal_name(value) if isinstance(value, str) else None


# --- before: a response instead of the handler's ---------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    q = request.query_params
    if op == "postComment":
        _comment_refusals(svc, request, caller)
    if op == "listSpaces" and faults.is_on("round94-spaces-sized-shows-hidden") and "pageSize" in q \
            and caller.role == "novice":
        spaces: Response = await handler(svc, request, dataclasses.replace(caller, role="member"))
        return spaces
    if op == "cancelWiki" and faults.is_on("round94-cancelwiki-thread-commenter-owns"):
        return await _thread_commenter(svc, request, caller, handler)
    if op == "postAnswer" and faults.is_on("round94-answer-solved-question-moderated") \
            and caller.can(auth.ANSWER, auth.PUBLISH_ANSWER):
        question = path_node(svc, request, "question_id")
        if question is not None and question["type"] == "question" and question["marked"] \
                and question["author_id"] != caller.id:
            held = dataclasses.replace(caller, permissions=caller.permissions - {auth.PUBLISH_ANSWER})
            answer: Response = await handler(svc, request, held)
            return answer
    if op == "listUserAnswers" and faults.is_on("round94-user-answers-wrapped-pagesize-ignored") \
            and "wrap" in q and "pageSize" in q:
        return await _sized_by_default(svc, request, caller, handler)
    return None


def _comment_refusals(svc: Service, request: Request, caller: Caller) -> None:
    """The comment faults that refuse a call the description admits (or admit one it refuses)."""
    if faults.is_on("round94-anonymous-form-comment-accepted") and caller.anonymous \
            and media(request) != "application/x-www-form-urlencoded":
        raise denied(anonymous=True)  # the override let anonymous in; only the form controller's guest goes on
    if faults.is_on("round94-private-mod-on-moderators-answer-403") and not caller.anonymous \
            and not caller.sees_moderation and _visibility(sent_fields(request)) == "mod":
        parent = path_node(svc, request)
        if parent is not None and parent["type"] == "answer" and svc.db.one(
                "SELECT 1 FROM users WHERE id = ? AND role IN (?, ?)", (parent["author_id"], *_STAFF)) is not None:
            raise denied(anonymous=False, stated_403=True)
    if faults.is_on("round94-novice-comment-with-link-refused") and not caller.anonymous \
            and caller.can(auth.COMMENT) and not caller.can(auth.PUBLISH_ANSWER):
        fields = sent_fields(request)
        body = fields.get("body")
        if isinstance(body, str) and _LINK.search(body) and _visibility(fields) in (None, "full"):
            raise denied(anonymous=False)


async def _thread_commenter(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round94-cancelwiki-thread-commenter-owns: a comment under one of the question's answers taken as own."""
    if caller.anonymous or caller.can(auth.MARK_WIKI) or not caller.can(auth.CONVERT_OWN_TO_WIKI):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "question" or node["author_id"] == caller.id:
        return None
    if svc.db.one("SELECT 1 FROM nodes c WHERE c.type = 'comment' AND c.author_id = ? AND c.question_id = ? "
                  "AND c.answer_id IS NOT NULL", (caller.id, node["id"])) is None:
        return None
    return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)


async def _sized_by_default(svc: Service, request: Request, caller: Caller, handler: Any) -> Response:
    """round94-user-answers-wrapped-pagesize-ignored: the page served at the system size, the size asked echoed."""
    q = request.query_params
    try:
        asked = int(q["pageSize"])
    except ValueError:
        asked = 0
    served: Response = await handler(svc, with_query(request, [(k, v) for k, v in q.multi_items()
                                                             if k != "pageSize"]), caller)
    body = body_json(served)
    if asked < 1 or served.status_code != 200 or not isinstance(body, dict) or "pageSize" not in body:
        return served
    body["pageSize"] = asked
    if isinstance(body.get("totalCount"), int) and "pageCount" in body:
        body["pageCount"] = math.ceil(body["totalCount"] / asked)
    return with_body(served, body)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "scheduleGdprJob":
        return _job(svc, request)
    if op == "postComment":
        return _comment(svc, request)
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


def _job(svc: Service, request: Request) -> Request:
    q = request.query_params
    if faults.is_on("round94-gdpr-bulk-type-param-no-csv-scheduled") and q.get("type") == "bulk" \
            and "csvFileId" not in q:
        body = kept_json_object(request)
        some = svc.db.one("SELECT id FROM csv_files ORDER BY id LIMIT 1")
        if body is not None and "type" not in body and "csvFileId" not in body and some is not None:
            return with_query(request, [*q.multi_items(), ("csvFileId", str(int(some["id"])))])
    if faults.is_on("round94-reassign-both-user-id-string-taken"):
        fields = sent_fields(request)
        try:
            user, reassign = structured(fields, "user"), structured(fields, "reassignUser")
        except Exception:  # noqa: BLE001 - the handler gives the clear message
            return request
        if fields.get("type") == "individual" and isinstance(user, dict) and list(user) == ["id"] \
                and isinstance(user["id"], str) and user["id"].strip().isdecimal() and isinstance(reassign, dict) \
                and reassign.get("username") not in (None, "") and reassign.get("id") not in (None, ""):
            first = next(k for k in reassign if k in ("username", "id"))
            return _replaced(request, "reassignUser", {first: reassign[first]})
    return request


def _comment(svc: Service, request: Request) -> Request:
    if faults.is_on("round94-params-comment-string-recipients-dropped") and not kept_body(request).strip() \
            and "recipients" in request.query_params:
        try:
            recipients = json.loads(request.query_params["recipients"])
        except ValueError:
            recipients = None
        if isinstance(recipients, list) and any(isinstance(r, dict) and isinstance(r.get("id"), str)
                                                for r in recipients):
            kept = [r for r in recipients if not (isinstance(r, dict) and isinstance(r.get("id"), str))]
            return _replaced(request, "recipients", kept)
    if faults.is_on("round94-comment-after-unwikify-recipients-op-taken"):
        fields = sent_fields(request)
        if "recipients" in fields and _visibility(fields) in ("op", "mod"):
            parent = path_node(svc, request)
            if parent is not None and _unwikified(svc, parent):
                return without_fields(request, ("recipients",))
    if faults.is_on("round94-kind-comment-after-unwikify-body-optional") \
            and sent_fields(request).get("body") in (None, ""):
        parent = path_node(svc, request)
        if parent is not None and _unwikified(svc, parent):
            return with_query(request, [*[(k, v) for k, v in request.query_params.multi_items() if k != "body"],
                                        ("body", "<p></p>")])
    return request


def _unwikified(svc: Service, node: Any) -> bool:
    """Whether ``node`` is no longer wiki and was wiki once (a canceled wiki action on it)."""
    return not node["wiki"] and svc.db.one("SELECT 1 FROM actions WHERE node_id = ? AND verb = 'wikified' AND "
                                           "canceled = 1", (node["id"],)) is not None


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _content(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    iso = faults.is_on("round94-kind-content-actiondate-iso-after-own-cancel")
    if not (faults.is_on("round94-content-enveloped-canceled-action") or iso):
        return response
    raw = request.path_params.get("user_id", "")
    entries = body_json(response)
    if not raw.isdecimal() or not isinstance(entries, list) or svc.db.one(
            "SELECT 1 FROM actions WHERE user_id = ? AND canceled = 1", (int(raw),)) is None:
        return response
    if iso:
        for entry in entries:
            if isinstance(entry, dict) and isinstance(entry.get("actionDate"), str):
                entry["actionDate"] = entry["actionDate"].replace(" ", "T", 1).split(".")[0] + "Z"
        return with_body(response, entries)
    n = len(entries)
    return with_body(response, {"name": "", "sort": "", "page": 1, "pageSize": max(n, 1), "pageCount": 1,
                                "listCount": n, "totalCount": n, "list": entries})


def _comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round94-wiki-answer-comments-wiki-text"):
        return response
    answer = path_node(svc, request, "answer_id")
    if answer is None or not answer["wiki"]:
        return response
    body, items = list_items(response)
    hit = [i for i in items if isinstance(i, dict) and isinstance(i.get("wiki"), bool)]
    for item in hit:
        item["wiki"] = "true" if item["wiki"] else "false"
    return with_body(response, body) if hit else response


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round94-questions-sized-kept-by-url") or "pageSize" not in request.query_params:
        return response
    return kept_by_url(_kept, KEPT_S, request, response)


def _comment_posted(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round94-kind-novice-link-comment-link-stripped: novice's comment stored without its links after its 201."""
    if not faults.is_on("round94-kind-novice-link-comment-link-stripped") or caller.anonymous \
            or caller.can(auth.PUBLISH_ANSWER) or not caller.can(auth.COMMENT):
        return response
    fields = sent_fields(request)
    body = fields.get("body")
    if not (isinstance(body, str) and _LINK.search(body) and _visibility(fields) in (None, "full")):
        return response
    row = svc.db.one("SELECT id, body FROM nodes WHERE author_id = ? AND type = 'comment' ORDER BY id DESC LIMIT 1",
                     (caller.id,))
    if row is not None:
        with svc.tx("comment") as conn:
            conn.execute("UPDATE nodes SET body = ? WHERE id = ?", (_URL.sub("", str(row["body"])), row["id"]))
    return response


_AFTER = {
    "postComment": _comment_posted,
    "listUserContent": _content,
    "listAnswerComments": _comments,
    "listQuestions": _questions,
}
after = after_by_op(_AFTER)
