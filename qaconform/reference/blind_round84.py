"""Where blind round 84's faults bite (faults_blind_round84.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, crossing2_paths, faults, gdpr_jobs
from .auth import Caller
from .bodies import structured
from .errors import PERMISSION_MESSAGE, WWW_AUTHENTICATE, ApiError
from .hook_kit import (
    after_by_op,
    form_fields,
    handled_with,
    list_items,
    path_node,
    sent_fields,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_query
from .service import Service

KEPT_S = 3.0
"""How long round84-followers-cache-ignores-details keeps a follower list's answer by its path."""
_kept_followers: dict[str, tuple[float, Response]] = {}
_READS_BODY = ("round84-comment-group-option-wrap-let-in", "round84-answer-with-title-moderated",
               "round84-gdpr-four-operations-past-accepted", "round84-gdpr-email-user-suspend-only-refused",
               "round84-answer-form-charset-body-wins", "round84-reply-to-moderated-public-comment-privacy-refused")
_ALL_OPERATIONS = {"suspend", "anonymize", "delete", "anon-delete"}


def _int_param(request: Request, name: str) -> int:
    try:
        return int(request.query_params.get(name, ""))
    except ValueError:
        return 0


def _only_key(fields: dict[str, Any], name: str) -> str | None:
    """The one key the object ``name`` of the sent fields gives a value to (None: no object, or not one key)."""
    try:
        value = structured(fields, name) if name in fields else None
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    keys = [k for k in value if value.get(k) not in (None, "")] if isinstance(value, dict) else []
    return keys[0] if len(keys) == 1 else None


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "postAnswer", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "postComment" and faults.is_on("round84-comment-group-option-wrap-let-in") \
            and "wrap" in request.query_params and not caller.anonymous \
            and caller.can(auth.USE_PRIVATE_COMMENTS) and not caller.can(auth.PRIVATE_TO_GROUPS) \
            and sent_fields(request).get("visibility") in ("group", "groups"):
        return await handled_with(auth.PRIVATE_TO_GROUPS, svc, request, caller, handler)
    if op == "listUserAnswers" and faults.is_on("round84-user-answers-pagesize-anonymous-401") \
            and caller.anonymous and "pageSize" in request.query_params:
        return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 401, dict(WWW_AUTHENTICATE))
    if op == "listEarnedExperts" and faults.is_on("round84-earned-pagesize-novice-403") \
            and not caller.anonymous and not caller.can(auth.MARK_FAVORITE) and "pageSize" in request.query_params:
        return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)
    if op == "postComment" and faults.is_on("round84-reply-to-moderated-public-comment-privacy-refused"):
        return _reply_before(svc, request)
    if op == "scheduleGdprJob":
        return _job_before(svc, request, caller)
    return None


def _reply_before(svc: Service, request: Request) -> Response | None:
    """round84-reply-to-moderated-public-comment-privacy-refused: a public comment sent to moderation earlier is
    read as carrying the moderators' visibility, which its replies inherit."""
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "comment" or parent["visibility"] != "full" \
            or "visibility" not in sent_fields(request) or svc.db.one(
                "SELECT 1 FROM actions WHERE node_id = ? AND verb = 'sent'", (parent["id"],)) is None:
        return None
    return json_response({"error": "Visibility on comment can't be defined since it's inherited"}, 400)


def _job_before(svc: Service, request: Request, caller: Caller) -> Response | None:
    if not (faults.is_on("round84-gdpr-email-user-suspend-only-refused")
            or faults.is_on("round84-gdpr-four-operations-past-accepted")):
        return None
    fields = sent_fields(request)
    try:
        operations = structured(fields, "operations")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    if faults.is_on("round84-gdpr-email-user-suspend-only-refused") and _only_key(fields, "user") == "email" \
            and operations == ["suspend"]:
        return json_response({"error": "The provided 'user' is/are invalid"}, 400)  # suspension looks users up by id
    if not faults.is_on("round84-gdpr-four-operations-past-accepted"):
        return None
    try:
        full = isinstance(operations, list) and set(operations) == _ALL_OPERATIONS
        # the full purge is run "as soon as possible": its date is not checked
        return gdpr_jobs._schedule(svc, caller, fields, frozenset({crossing2_paths.PAST})) if full else None
    except (ApiError, ValueError, TypeError):
        return None  # the handler gives its own answer


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "postAnswer" and faults.is_on("round84-answer-form-charset-body-wins") \
            and "charset" in request.headers.get("content-type", "").lower() \
            and "body" in request.query_params and "body" in form_fields(request):
        return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "body"])
    return request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _earned(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not faults.is_on("round84-earned-sorted-default-page-zero") or "sort" not in q or "page" in q:
        return response
    body = body_json(response)
    if not isinstance(body, dict) or body.get("page") != 1:
        return response
    body["page"] = 0
    return with_body(response, body)


def _active(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round84-active-oldest-later-pages-newest-first") \
            or request.query_params.get("sort") != "oldest" or _int_param(request, "page") < 2:
        return response
    body, items = list_items(response)
    if len(items) < 2:
        return response
    items.reverse()
    return with_body(response, body)


def _new_answer_id(response: Response) -> int | None:
    body = body_json(response)
    raw = body.get("id") if isinstance(body, dict) else None
    try:
        return int(raw) if raw is not None else None
    except (TypeError, ValueError):
        return None


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    answer_id = _new_answer_id(response)
    if answer_id is None:
        return response
    held: int | None = None
    if faults.is_on("round84-novice-form-answer-published") and not caller.can(auth.PUBLISH_ANSWER) \
            and request.headers.get("content-type", "").split(";")[0].strip().lower() \
            == "application/x-www-form-urlencoded":
        held = 0  # the form controller saves through the publisher
    title = sent_fields(request).get("title")
    if faults.is_on("round84-answer-with-title-moderated") and caller.can(auth.PUBLISH_ANSWER) \
            and isinstance(title, str) and title.strip():
        held = 1  # a titled answer looks like a misplaced question: held for review
    if held is not None:
        with svc.tx("answer") as conn:
            conn.execute("UPDATE nodes SET in_moderation = ? WHERE id = ?", (held, answer_id))
    return response


def _sendtomod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round84-sendtomod-favorited-not-private") or node is None or svc.db.one(
            "SELECT 1 FROM favorites WHERE node_id = ?", (node["id"],)) is None:
        return response
    with svc.tx("action") as conn:
        conn.execute("UPDATE actions SET private = 0 WHERE id = (SELECT MAX(id) FROM actions WHERE node_id = ? AND "
                     "verb = 'sent')", (node["id"],))
    return with_action(response, "sendToModAction", {"private": False})


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round84-lock-reply-extra-null") or node is None or node["type"] != "comment":
        return response
    parent = svc.db.one("SELECT type FROM nodes WHERE id = ?", (node["parent_id"],))
    if parent is None or parent["type"] != "comment":  # a reply only: its record is built by the thread locker
        return response
    with svc.tx("action") as conn:
        conn.execute("UPDATE actions SET extra = NULL WHERE id = (SELECT MAX(id) FROM actions WHERE node_id = ? AND "
                     "verb = 'locked')", (node["id"],))
    return with_action(response, "lockAction", {"extra": None})


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round84-user-answers-adds-accepted-on-own-questions: the accepted answers on the user's questions join the
    user's answers (the 'answers' query is joined on the acceptance, whose user is the question's author)."""
    if not faults.is_on("round84-user-answers-adds-accepted-on-own-questions"):
        return response
    body, items = list_items(response)
    try:
        user_id = int(request.path_params.get("user_id", ""))
    except ValueError:
        return response
    if not isinstance(body, dict) or _int_param(request, "page") > 1:
        return response
    listed = {i.get("id") for i in items if isinstance(i, dict)}
    rows = [r for r in svc.db.all(
        "SELECT a.* FROM nodes a JOIN nodes q ON q.id = a.question_id WHERE a.type = 'answer' AND a.marked = 1 "
        "AND q.author_id = ? AND a.author_id != ? AND a.in_moderation = 0 ORDER BY a.id", (user_id, user_id))
        if r["id"] not in listed]
    if not rows:
        return response
    items.extend(svc.render.nodes_json(rows, caller))
    for key in ("listCount", "totalCount"):
        if isinstance(body.get(key), int):
            body[key] += len(rows)
    return with_body(response, body)


def _followers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round84-followers-cache-ignores-details"):
        return response
    now, key = time.monotonic(), request.url.path  # the details parameter is not part of the key
    last = _kept_followers.get(key)
    if last is None or now - last[0] >= KEPT_S:
        _kept_followers[key] = (now, response)
        return response
    return Response(bytes(last[1].body), status_code=200,
                    headers={k: v for k, v in last[1].headers.items() if k.lower() != "content-length"})


_AFTER = {
    "listEarnedExperts": _earned,
    "listActiveExperts": _active,
    "postAnswer": _answer,
    "sendToModeration": _sendtomod,
    "lockNode": _lock,
    "listNodeFollowers": _followers,
    "listUserAnswers": _user_answers,
}
after = after_by_op(_AFTER)
