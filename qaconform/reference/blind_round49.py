"""Where blind round 49's faults bite (faults_blind_round49.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

round49-earned-experts-wrong-password-let-in bites before the caller is known: :func:`wrong_password_let_in`, called
by planted.wrong_password_let_in.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .fragments import JSON_TYPE
from .hook_kit import handled_with, ids_cached, kept_json_object, path_node
from .http_io import body_json, is_id, json_response, with_body, with_json_body, with_query
from .service import Service, now_ms

CONTENT_CACHE_S = 3.0
"""How long round49-user-content-cached-by-url keeps a user's content list by URL."""
_content_by_url: dict[str, tuple[float, bytes]] = {}
_charset_private: set[int] = set()
"""The comments round49-kind-charset-recipients-not-listed lists without recipients."""
IDS_CACHE_S = 3.0
"""How long round49-question-ids-cached-per-node keeps a question's commentIds and childrenIds."""
_ids_by_node: dict[int, tuple[float, int, Any, Any]] = {}

_BODY_READERS = ("round49-gdpr-csv-param-unchecked", "round49-comment-visibility-param-recipients-accepted",
                 "round49-question-comment-json-body-wins", "round49-gdpr-timestamp-string-past-accepted",
                 "round49-answer-wrap-param-body-ignored", "round49-comment-json-charset-privacy-dropped",
                 "round49-gdpr-user-id-string-refused", "round49-kind-charset-recipients-not-listed")


# --- ahead of the permission check: a wrong password let in -----------------------------------------------------
def wrong_password_let_in(svc: Service, operation: str, request: Request) -> Caller | None:
    """round49-earned-experts-wrong-password-let-in: the earned list takes the named account, password unchecked."""
    if operation != "listEarnedExperts" or not faults.is_on("round49-earned-experts-wrong-password-let-in"):
        return None
    return svc.authenticator.named(request.headers.get("authorization"))


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postAnswer", "scheduleGdprJob", "postComment") and any(faults.is_on(n) for n in _BODY_READERS):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "postAnswer" and faults.is_on("round49-answer-wrap-param-body-ignored"):
        return _wrap_answer_refused(request)
    if op == "listActiveExperts" and faults.is_on("round49-active-experts-recent-refused-unprivileged"):
        if request.query_params.get("sort") == "recent" and not caller.sees_moderation:
            return json_response({"errors": {"message": "sort 'recent' is not available"}}, 400)
    if op == "listSpaces" and faults.is_on("round49-spaces-exclude-shows-hidden") and "exclude" in request.query_params:
        response: Response = await handler(svc, request, dataclasses.replace(caller, role="admin"))
        return response
    if op == "lockNode" and faults.is_on("round49-lock-own-question-thread"):
        return await _lock_in_own_thread(svc, request, caller, handler)
    if op == "scheduleGdprJob" and faults.is_on("round49-gdpr-user-id-string-refused"):
        body = kept_json_object(request)
        user = body.get("user") if body is not None and body.get("type") == "individual" else None
        if isinstance(user, dict) and isinstance(user.get("id"), str) and set(user) == {"id"}:
            return json_response({"error": "The provided 'user' is/are invalid"}, 400)
    return None


def _wrap_answer_refused(request: Request) -> Response | None:
    """round49-answer-wrap-param-body-ignored: with wrap, the body parameter is not bound."""
    q = request.query_params
    if "wrap" not in q or "body" not in q:
        return None
    body = kept_json_object(request)
    if body is not None and body.get("body"):
        return None
    if body is None and vars(request).get("_body"):
        return None  # a form-encoded body: its own binder
    return json_response({"error": "the answer has no body; send body"}, 400)


async def _lock_in_own_thread(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round49-lock-own-question-thread: "own" taken as being the author of the node's question."""
    if caller.anonymous or caller.can(auth.LOCK_ANY) or not caller.can(auth.LOCK_OWN):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] not in ("answer", "comment") or node["author_id"] == caller.id:
        return None
    question = svc.db.one("SELECT author_id FROM nodes WHERE id = ? AND type = 'question'", (node["question_id"],))
    if question is None or question["author_id"] != caller.id:
        return None
    return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "postComment":
        return _comment(svc, request)
    if op == "scheduleGdprJob":
        return _job(svc, request)
    if op == "listQuestions" and faults.is_on("round49-questions-spaceid-ignored-when-sorted"):
        q = request.query_params
        if q.get("sort") and "spaceId" in q:
            return with_query(request, [(k, v) for k, v in q.multi_items() if k != "spaceId"])
    return request


def _comment(svc: Service, request: Request) -> Request:
    q = request.query_params
    body = kept_json_object(request)
    if body is None:
        return request
    if faults.is_on("round49-comment-visibility-param-recipients-accepted") and "recipients" in body:
        if q.get("visibility") not in (None, "recipients") and "visibility" not in body:
            return with_json_body(request, {k: v for k, v in body.items() if k != "recipients"})
    if faults.is_on("round49-comment-json-charset-privacy-dropped") and ";" in request.headers.get("content-type", ""):
        if "visibility" in body or "recipients" in body:
            return with_json_body(request, {k: v for k, v in body.items() if k not in ("visibility", "recipients")})
    if faults.is_on("round49-question-comment-json-body-wins") and set(body) & set(q.keys()):
        parent = path_node(svc, request)
        if parent is not None and parent["type"] == "question":
            return with_query(request, [(k, v) for k, v in q.multi_items() if k not in body])
    return request


def _job(svc: Service, request: Request) -> Request:
    q = request.query_params
    if faults.is_on("round49-gdpr-csv-param-unchecked") and is_id(q.get("csvFileId") or ""):
        if svc.db.one("SELECT 1 FROM csv_files WHERE id = ?", (int(q["csvFileId"]),)) is None:
            known = svc.db.one("SELECT id FROM csv_files ORDER BY id LIMIT 1")
            if known is not None:  # the job goes on with whatever file the importer finds first
                pairs = [(k, str(known["id"]) if k == "csvFileId" else v) for k, v in q.multi_items()]
                return with_query(request, pairs)
    if faults.is_on("round49-gdpr-timestamp-string-past-accepted"):
        body = kept_json_object(request) or {}
        date = body.get("scheduleDate")
        stamp = date.get("timeStamp") if isinstance(date, dict) else None
        if isinstance(date, dict) and isinstance(stamp, str) and stamp.strip().isdecimal() \
                and int(stamp.strip()) < now_ms():
            later = now_ms() + 30 * 86_400_000 + int(stamp.strip()) % 86_400_000  # the past check skipped
            return with_json_body(request, {**body, "scheduleDate": {**date, "timeStamp": later}})
    return request


# --- after: the handler's response as the broken server serves it --------------------------------------------
def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if op == "listUserContent" and faults.is_on("round49-user-content-cached-by-url"):
        return _content_cached(request, response)
    if response.status_code >= 300:
        return response
    if faults.is_on("round49-kind-charset-recipients-not-listed") and op in ("postComment", "listAnswerComments"):
        return _charset_recipients(request, response)
    if op == "listQuestions" and faults.is_on("round49-question-ids-cached-per-node"):
        return ids_cached(_ids_by_node, IDS_CACHE_S, caller, response)
    if op == "postAnswer" and faults.is_on("round49-moderated-answer-no-parent-author"):
        body = body_json(response)
        if not caller.can(auth.PUBLISH_ANSWER) and isinstance(body, dict) and "parentAuthor" in body:
            del body["parentAuthor"]
            return with_body(response, body)
    if op == "lockNode" and faults.is_on("round49-lock-comment-extra-null"):
        node = path_node(svc, request)
        body = body_json(response)
        result = body.get("result") if isinstance(body, dict) else None
        action = result.get("lockAction") if isinstance(result, dict) else None
        if node is not None and node["type"] == "comment" and isinstance(action, dict):
            action["extra"] = None
            return with_body(response, body)
    return response


def _charset_recipients(request: Request, response: Response) -> Response:
    """round49-kind-charset-recipients-not-listed: note a private comment posted under a charset Content-Type, and list
    it without recipients."""
    body = body_json(response)
    if request.method == "POST":
        sent = kept_json_object(request)
        new = body.get("id") if isinstance(body, dict) else None
        if ";" in request.headers.get("content-type", "") and sent is not None and sent.get("recipients") \
                and is_id(str(new)):
            _charset_private.add(int(str(new)))
        return response
    items = body.get("list") if isinstance(body, dict) else None
    hit = [i for i in items or [] if isinstance(i, dict) and i.get("id") in _charset_private and "recipients" in i]
    for item in hit:
        del item["recipients"]
    return with_body(response, body) if hit else response


def _content_cached(request: Request, response: Response) -> Response:
    """round49-user-content-cached-by-url: the first answer for a URL is served to everyone for a few seconds."""
    url = str(request.url)
    now = time.monotonic()
    kept = _content_by_url.get(url)
    if kept is not None and now - kept[0] < CONTENT_CACHE_S:
        return Response(kept[1], status_code=200, media_type=JSON_TYPE)
    if response.status_code == 200:
        _content_by_url[url] = (now, bytes(response.body))
    return response
