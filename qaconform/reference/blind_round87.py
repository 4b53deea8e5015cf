"""Where blind round 87's faults bite (faults_blind_round87.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .errors import PERMISSION_MESSAGE
from .hook_kit import (
    after_by_op,
    form_fields,
    handled_with,
    kept_by_url,
    list_items,
    media,
    path_node,
    result_action,
    sent_fields,
    with_action,
)
from .hook_kit import (
    has_string_recipient_ids as _string_ids,
)
from .hook_kit import (
    without_fields as _without,
)
from .http_io import body_json, json_response, with_body, with_query
from .service import Service
from .visibility import internal_name, wire_name

KEPT_S = 3.0
"""How long round87-user-content-kept-by-url keeps a user's content list by its URL."""
_kept_content: dict[str, tuple[float, Response]] = {}
_READS_BODY = ("round87-moderated-answer-comment-default-mod",
               "round87-kind-deep-reply-after-sendtomod-other-visibility-accepted",
               "round87-reply-public-string-recipients-dropped",
               "round87-comment-form-charset-privacy-dropped", "round87-gdpr-form-user-id-refused",
               "round87-reply-after-sendtomod-other-visibility-accepted")
_PRIVACY = ("visibility", "recipients")


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    if op == "listAnswerComments" and faults.is_on("round87-accepted-answer-comments-novice-refused") \
            and caller.role == "novice":
        answer = path_node(svc, request, "answer_id")
        if answer is not None and answer["type"] == "answer" and answer["marked"]:
            return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)
    if op == "lockNode" and faults.is_on("round87-lock-own-by-accepted-answerer") and not caller.anonymous \
            and caller.can(auth.LOCK_OWN) and not caller.can(auth.LOCK_ANY):
        node = path_node(svc, request)
        if node is not None and node["type"] == "question" and node["author_id"] != caller.id and svc.db.one(
                "SELECT 1 FROM nodes WHERE parent_id = ? AND type = 'answer' AND marked = 1 AND author_id = ?",
                (node["id"], caller.id)) is not None:
            return await handled_with(auth.LOCK_ANY, svc, request, caller, handler)
    if op == "scheduleGdprJob" and faults.is_on("round87-gdpr-form-user-id-refused"):
        return _form_user_id(request)
    return None


def _form_user_id(request: Request) -> Response | None:
    """round87-gdpr-form-user-id-refused: an individual job's user by id, in a form-encoded body, refused."""
    form = form_fields(request)
    fields = {**form, **dict(request.query_params)}
    if media(request) != "application/x-www-form-urlencoded" or "user" not in form \
            or fields.get("type") != "individual":
        return None
    try:
        user = structured(fields, "user")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return None
    if not isinstance(user, dict) or [k for k in user if user.get(k) not in (None, "")] != ["id"]:
        return None
    return json_response({"error": "The provided 'user' is/are invalid"}, 400)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "listQuestions" and faults.is_on("round87-questions-spaceid-ignored-with-lang") \
            and "lang" in request.query_params and "spaceId" in request.query_params:
        return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "spaceId"])
    if op != "postComment":
        return request
    if faults.is_on("round87-comment-form-charset-privacy-dropped") \
            and media(request) == "application/x-www-form-urlencoded" \
            and ";" in request.headers.get("content-type", "") and any(n in form_fields(request) for n in _PRIVACY):
        return _without(request, _PRIVACY, query=False)
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "comment":
        return request
    fields = sent_fields(request)
    if faults.is_on("round87-reply-public-string-recipients-dropped") and parent["visibility"] == "full" \
            and fields.get("visibility") == "recipients" and _string_ids(fields):
        return _without(request, _PRIVACY)
    deep = faults.is_on("round87-kind-deep-reply-after-sendtomod-other-visibility-accepted") and svc.db.one(
        "SELECT 1 FROM nodes WHERE id = ? AND type = 'comment'", (parent["parent_id"],)) is not None
    if (faults.is_on("round87-reply-after-sendtomod-other-visibility-accepted") or deep) \
            and parent["visibility"] != "full" and fields.get("visibility") not in (None, "") \
            and internal_name(str(fields["visibility"])) != parent["visibility"] and _thread_sent(svc, parent):
        return _without(request, _PRIVACY)
    return request


def _sent(svc: Service, node_id: Any) -> bool:
    return node_id is not None and svc.db.one(
        "SELECT 1 FROM actions WHERE node_id = ? AND verb = 'sent' AND canceled = 0", (node_id,)) is not None


def _thread_sent(svc: Service, comment: Any) -> bool:
    """Whether the answer (else the question) a comment is under was sent to moderation."""
    return _sent(svc, comment["answer_id"] or comment["question_id"])


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round87-answer-form-original-parent-string") \
            or media(request) != "application/x-www-form-urlencoded":
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("originalParentId"), int):
        return response
    body["originalParentId"] = str(body["originalParentId"])
    return with_body(response, body)


def _issue_types(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not faults.is_on("round87-issuetypes-epic-name-object") or not isinstance(body, list):
        return response
    changed = False
    for item in body:
        if isinstance(item, dict) and item.get("name") == "Epic":
            item["name"], changed = {"value": "Epic", "hierarchyLevel": 1}, True
    return with_body(response, body) if changed else response


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    parent = path_node(svc, request)
    if not faults.is_on("round87-moderated-answer-comment-default-mod") or parent is None \
            or parent["type"] != "answer" or not parent["in_moderation"] \
            or any(n in sent_fields(request) for n in _PRIVACY):
        return response
    row = svc.db.one("SELECT id FROM nodes WHERE parent_id = ? AND type = 'comment' AND author_id = ? "
                     "ORDER BY id DESC LIMIT 1", (parent["id"], caller.id))
    if row is None:
        return response
    with svc.tx("comment") as conn:
        conn.execute("UPDATE nodes SET visibility = 'mod' WHERE id = ?", (row["id"],))
    body = body_json(response)
    if isinstance(body, dict) and "visibility" in body:
        body["visibility"] = wire_name("mod")
        return with_body(response, body)
    return response


def _earned(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round87-earned-oldest-sized-by-username") or "pageSize" not in request.query_params \
            or request.query_params.get("sort") != "oldest":
        return response
    body, items = list_items(response)
    if len(items) < 2 or not all(isinstance(i, dict) and isinstance(i.get("username"), str) for i in items):
        return response
    items.sort(key=lambda i: i["username"])
    return with_body(response, body)


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not (faults.is_on("round87-questions-search-ids-unfiltered") and q.get("q")
            or faults.is_on("round87-kind-questions-lang-ids-unfiltered") and "lang" in q):
        return response
    body, items = list_items(response)
    changed = False
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int):
            continue
        every = svc.db.ids("SELECT id FROM nodes WHERE parent_id = ? AND type = 'comment' ORDER BY id", (item["id"],))
        for key in ("commentIds", "childrenIds"):
            ids = item.get(key)
            if isinstance(ids, list):
                missing = [i for i in every if i not in ids]
                if missing:
                    item[key], changed = ids + missing, True
    return with_body(response, body) if changed else response


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round87-lock-child-space-question-extra-null") or node is None \
            or node["type"] != "question" or result_action(body_json(response), "lockAction") is None:
        return response
    space = svc.db.one("SELECT parent_id FROM spaces WHERE id = ?", (node["space_id"],))
    if space is None or space["parent_id"] is None:
        return response
    action = result_action(body_json(response), "lockAction") or {}
    if isinstance(action.get("id"), int):
        with svc.tx("lock") as conn:
            conn.execute("UPDATE actions SET extra = NULL WHERE id = ?", (action["id"],))
    return with_action(response, "lockAction", {"extra": None})


def _content(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round87-user-content-kept-by-url"):
        return response
    return kept_by_url(_kept_content, KEPT_S, request, response)


_AFTER = {
    "postAnswer": _answer,
    "listIssueTypes": _issue_types,
    "postComment": _comment,
    "listEarnedExperts": _earned,
    "listQuestions": _questions,
    "lockNode": _lock,
    "listUserContent": _content,
}
after = after_by_op(_AFTER)
