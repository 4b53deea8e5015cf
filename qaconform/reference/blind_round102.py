"""Where blind round 102's faults bite (faults_blind_round102.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

The fault that is a row of the route table only (``round102-groups-includeonly-member-allowed``) needs no code here;
its name is listed in :data:`OVERRIDES_ONLY` so the wiring check finds it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import LOCK_ANY, LOCK_OWN, Caller
from .comments import INHERITED_MESSAGE
from .errors import ApiError
from .hook_kit import (
    after_by_op,
    counts_kept_by_path,
    form_fields,
    handled_with,
    kept_json_object,
    list_items,
    media,
    path_node,
    sent_fields,
    with_action,
    with_items_added,
    without_fields,
)
from .http_io import body_json, json_response, with_body, with_json_body, with_query, with_raw_body
from .service import Service

OVERRIDES_ONLY = ("round102-groups-includeonly-member-allowed",)
"""Faults of this round that bite through the route table's overrides (faults_blind_round102)."""

KEPT_S = 3.0
"""How long round102-answer-comments-count-kept-by-path keeps an answer comment list's counts by its path."""
_kept_counts: dict[str, tuple[float, int, Any, Any]] = {}
_OPERATIONS = ("suspend", "anonymize", "delete", "anon-delete")
_GROUP_MESSAGE = "Visibility of a group comment is restricted to the group"
_READS_BODY = {
    "scheduleGdprJob": ("round102-gdpr-operations-bare-string-unknown-taken", "round102-gdpr-reassign-job-array-body",
                        "round102-kind-gdpr-reassign-scalar-dropped"),
    "postAnswer": ("round102-answer-form-charset-plus-kept",),
    "postComment": ("round102-comment-in-moderation-parent-privacy-dropped",
                    "round102-kind-reply-group-parent-other-visibility-ignored"),
}


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if any(faults.is_on(n) for n in _READS_BODY.get(op, ())):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    q = request.query_params
    if op == "listNodeFollowers" and faults.is_on("round102-followers-accepted-question-default-all") \
            and "active" not in q and _accepted_question(svc, request):
        archived: Response = await handler(svc, with_query(request, [*q.multi_items(), ("active", "false")]), caller)
        return archived
    if op == "lockNode" and faults.is_on("round102-lock-own-followed-node") and not caller.anonymous \
            and caller.can(LOCK_OWN) and not caller.can(LOCK_ANY):
        node = path_node(svc, request)
        if node is not None and node["author_id"] != caller.id and svc.db.one(
                "SELECT 1 FROM follows WHERE node_id = ? AND user_id = ? AND active = 1",
                (node["id"], caller.id)) is not None:
            return await handled_with(LOCK_ANY, svc, request, caller, handler)
    if op == "postComment" and faults.is_on("round102-kind-reply-group-parent-other-visibility-ignored"):
        parent = path_node(svc, request)
        asked = sent_fields(request).get("visibility")
        if parent is not None and parent["type"] == "comment" and parent["visibility"] == "group" \
                and asked is not None and asked != "group":
            inherited: Response = await handler(svc, without_fields(request, ("visibility", "recipients")), caller)
            return inherited
    if op == "listActiveExperts" and faults.is_on("round102-active-experts-paged-sort-ignored") \
            and q.get("sort") and "page" in q:
        asked = q["sort"]
        saved: Response = await handler(svc, with_query(request, [(k, v) for k, v in q.multi_items() if k != "sort"]),
                                        caller)
        body = body_json(saved)
        if saved.status_code == 200 and isinstance(body, dict) and "sort" in body:
            body["sort"] = asked
            return with_body(saved, body)
        return saved
    return None


def _accepted_question(svc: Service, request: Request) -> bool:
    """round102-followers-accepted-question-default-all: the path names a question with an accepted answer."""
    node = path_node(svc, request)
    return node is not None and node["type"] == "question" and svc.db.one(
        "SELECT 1 FROM nodes WHERE question_id = ? AND type = 'answer' AND marked = 1", (node["id"],)) is not None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "scheduleGdprJob" and faults.is_on("round102-gdpr-operations-bare-string-unknown-taken") \
            and "operations" not in request.query_params:
        body = kept_json_object(request)
        if body is not None and isinstance(body.get("operations"), str) and body["operations"] not in _OPERATIONS:
            return with_json_body(request, {**body, "operations": ["suspend"]})
    if op == "scheduleGdprJob" and faults.is_on("round102-kind-gdpr-reassign-scalar-dropped") \
            and "reassignUser" not in request.query_params:
        body = kept_json_object(request)
        if body is not None and isinstance(body.get("reassignUser"), str):
            return with_json_body(request, {k: v for k, v in body.items() if k != "reassignUser"})
    if op == "postAnswer" and faults.is_on("round102-answer-form-charset-plus-kept") \
            and media(request) == "application/x-www-form-urlencoded" \
            and "charset" in request.headers.get("content-type", "").lower() and "body" not in request.query_params:
        form = form_fields(request)
        if " " in form.get("body", ""):
            form["body"] = form["body"].replace(" ", "+")
            return with_raw_body(request, urlencode(list(form.items())).encode())
    if op == "postComment" and faults.is_on("round102-comment-in-moderation-parent-privacy-dropped"):
        parent = path_node(svc, request)
        if parent is not None and parent["in_moderation"] and sent_fields(request).get("visibility") == "recipients":
            return without_fields(request, ("visibility", "recipients"))
    return request


# --- refusal: the handler's refusal as the broken server words it ------------------------------------------------
def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    """round102-reply-group-parent-message-other: the inherited-visibility 400 under a group comment."""
    if op != "postComment" or exc.status != 400 or not faults.is_on("round102-reply-group-parent-message-other") \
            or INHERITED_MESSAGE not in exc.body.values():
        return None
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "comment" or parent["visibility"] != "group":
        return None
    return json_response({k: (_GROUP_MESSAGE if v == INHERITED_MESSAGE else v) for k, v in exc.body.items()}, 400)


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round102-answer-form-encoded-no-location") \
            and media(request) == "application/x-www-form-urlencoded" and "location" in response.headers:
        del response.headers["location"]
    return response


def _job(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round102-gdpr-reassign-job-array-body") or "reassignUser" not in sent_fields(request):
        return response
    body = body_json(response)
    return with_body(response, [body]) if isinstance(body, dict) and "jobId" in body else response


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round102-answer-comments-author-reader-no-privacy") and not caller.anonymous:
        answer = path_node(svc, request, "answer_id")
        if answer is not None and answer["author_id"] == caller.id:
            body, items = list_items(response)
            for item in items:
                if isinstance(item, dict):
                    item.pop("visibility", None)
                    item.pop("recipients", None)
            if items:
                response = with_body(response, body)
    if faults.is_on("round102-answer-comments-count-kept-by-path"):
        response = counts_kept_by_path(_kept_counts, KEPT_S, request, caller, response)
    return response


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    raw = request.path_params.get("user_id", "")
    if faults.is_on("round102-user-answers-wiki-kept-after-cancelwiki"):
        response = _wiki_kept(svc, response)
    if not faults.is_on("round102-user-answers-followed-threads") or not raw.isdecimal() \
            or any(p in request.query_params for p in ("include", "exclude", "includeOnly")):
        return response
    body, items = list_items(response)
    if not isinstance(body, dict) or body.get("page") != 1:
        return response
    listed = {i.get("id") for i in items if isinstance(i, dict)}
    ids = [i for i in svc.db.ids(
        "SELECT DISTINCT a.id FROM follows f JOIN nodes a ON a.question_id = f.node_id WHERE f.user_id = ?"
        " AND f.active = 1 AND a.type = 'answer' AND a.author_id != ? AND a.in_moderation = 0 AND a.listed = 1"
        " ORDER BY a.id", (int(raw), int(raw))) if i not in listed]
    if not ids:
        return response
    return with_items_added(response, body, items, svc.render.nodes_json(svc.render.nodes_by_ids(ids), caller))


def _wiki_kept(svc: Service, response: Response) -> Response:
    """round102-user-answers-wiki-kept-after-cancelwiki: answers whose wiki was canceled shown as wiki."""
    body, items = list_items(response)
    hit = [i for i in items if isinstance(i, dict) and i.get("wiki") is False and isinstance(i.get("id"), int)
           and svc.db.one("SELECT 1 FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled = 1",
                          (i["id"],)) is not None]
    for item in hit:
        item["wiki"] = True
    return with_body(response, body) if hit else response


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round102-lock-answer-extra-dropped") or node is None or node["type"] != "answer":
        return response
    return with_action(response, "lockAction", {"extra": None})


_AFTER = {
    "postAnswer": _answer,
    "scheduleGdprJob": _job,
    "listAnswerComments": _answer_comments,
    "listUserAnswers": _user_answers,
    "lockNode": _lock,
}
after = after_by_op(_AFTER)
