"""Where blind round 48's faults bite (faults_blind_round48.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

round48-user-questions-sorted-novice-denied needs no code here: it is an override of the route table's row (the door
decides it), named here so that every fault of the round is wired by name in the server's code.
round48-anonymous-unfavorite-unheld-200's override lets anonymous through the door; :func:`_anonymous_unfavorite`
answers it (200 on a never-favorited node, the refusal otherwise).
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import bad_request, denied
from .hook_kit import after_by_op, handled_with, kept_body, kept_json, path_node
from .http_io import body_json, is_id, json_response, projects, with_body, with_json_body, with_query, with_raw_body
from .service import Service

OVERRIDE_ONLY = ("round48-user-questions-sorted-novice-denied",)
"""The round's fault decided at the door by its override (faults_blind_round48.py), not by code here."""

COMMENT_CACHE_S = 3.0
"""How long round48-comment-read-cached-by-url keeps a comment read at its own URL."""
_comment_by_url: dict[str, tuple[float, bytes, int]] = {}

_BODY_READERS = ("round48-question-comment-op-stored-full", "round48-comment-form-body-wins-over-param",
                 "round48-gdpr-user-id-suspend-only-refused")


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _BODY_READERS):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "unmarkFavorite" and caller.anonymous and faults.is_on("round48-anonymous-unfavorite-unheld-200"):
        return _anonymous_unfavorite(svc, request)
    if op == "lockNode" and faults.is_on("round48-lock-question-by-accepted-answerer"):
        return await _by_accepted_answerer(svc, request, caller, handler, auth.LOCK_OWN, auth.LOCK_ANY)
    if op == "cancelWiki" and faults.is_on("round48-kind-cancelwiki-by-accepted-answerer"):
        return await _by_accepted_answerer(svc, request, caller, handler, auth.CONVERT_OWN_TO_WIKI, auth.MARK_WIKI)
    if op == "scheduleGdprJob" and faults.is_on("round48-gdpr-user-id-suspend-only-refused"):
        _suspend_only_by_id(request)
    if op == "readComment" and _url_cached(svc, request):
        kept = _comment_by_url.get(str(request.url))
        if kept is not None and time.monotonic() - kept[0] < COMMENT_CACHE_S:
            return Response(kept[1], status_code=kept[2], media_type="application/json")
    return None


def _url_cached(svc: Service, request: Request) -> bool:
    """Whether this comment's own URL is kept: every comment's (round48-comment-read-cached-by-url), or only a reply's
    (round48-kind-reply-read-cached-by-url: the replies' permalink page, cached apart)."""
    if faults.is_on("round48-comment-read-cached-by-url"):
        return True
    if not faults.is_on("round48-kind-reply-read-cached-by-url"):
        return False
    node = path_node(svc, request)
    parent = svc.db.one("SELECT type FROM nodes WHERE id = ?", (node["parent_id"],)) if node is not None else None
    return parent is not None and parent["type"] == "comment"


def _anonymous_unfavorite(svc: Service, request: Request) -> Response:
    """round48-anonymous-unfavorite-unheld-200: no favorite found for the (anonymous) caller, nothing done."""
    node = path_node(svc, request)
    held = node is not None and (node["favorite_count"] or svc.db.one(
        "SELECT 1 FROM favorites WHERE node_id = ?", (node["id"],)))
    if node is None or held:
        raise denied(anonymous=True)
    return json_response({"success": False, "result": {"favoriteCount": 0}})


async def _by_accepted_answerer(svc: Service, request: Request, caller: Caller, handler: Any, own: str,
                               any_node: str) -> Response | None:
    """round48-lock-question-by-accepted-answerer (and round48-kind-cancelwiki-by-accepted-answerer): "own" taken as
    having written the question's accepted answer, for a caller holding the own-node permission only."""
    if caller.anonymous or caller.can(any_node) or not caller.can(own):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "question" or node["author_id"] == caller.id:
        return None
    accepted = svc.db.one("SELECT 1 FROM nodes WHERE type = 'answer' AND parent_id = ? AND marked = 1"
                          " AND author_id = ?", (node["id"], caller.id))
    if accepted is None:
        return None
    return await handled_with(any_node, svc, request, caller, handler)


def _suspend_only_by_id(request: Request) -> None:
    """round48-gdpr-user-id-suspend-only-refused: the suspend path looks the user up by username only."""
    body = kept_json(request, loose=True)
    if not isinstance(body, dict) or body.get("type") != "individual":
        return
    user, operations = body.get("user"), body.get("operations")
    if isinstance(user, dict) and set(user) == {"id"} and operations == ["suspend"]:
        raise bad_request("The individual type was selected, but the request is missing the user")


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "postComment" and faults.is_on("round48-question-comment-op-stored-full"):
        request = _question_comment_op(svc, request)
    if op == "postComment" and faults.is_on("round48-comment-form-body-wins-over-param"):
        request = _form_body_wins(request)
    if op == "listSpaces" and faults.is_on("round48-spaces-invalid-sort-later-page-newest"):
        q = request.query_params
        page = q.get("page") or "1"
        if q.get("sort") and q["sort"] not in ("name", "newest", "oldest") and page.isdecimal() and int(page) >= 2:
            return with_query(request, [(k, "newest" if k == "sort" else v) for k, v in q.multi_items()])
    return request


def _question_comment_op(svc: Service, request: Request) -> Request:
    """round48-question-comment-op-stored-full: the question's comment path drops the privacy fields of op."""
    parent = path_node(svc, request)
    if parent is None or parent["type"] != "question":
        return request
    q = request.query_params
    body = kept_json(request, loose=True)
    given = q.get("visibility") or (body.get("visibility") if isinstance(body, dict) else None)
    form = request.headers.get("content-type", "").lower().startswith("application/x-www-form-urlencoded")
    pairs = parse_qsl(kept_body(request).decode("utf-8", "replace")) if form else []
    given = given or dict(pairs).get("visibility")
    if given != "op":
        return request
    request = with_query(request, [(k, v) for k, v in q.multi_items() if k not in ("visibility", "recipients")])
    if isinstance(body, dict):
        return with_json_body(request, {k: v for k, v in body.items() if k not in ("visibility", "recipients")})
    if form:
        kept = [(k, v) for k, v in pairs if k not in ("visibility", "recipients")]
        return with_raw_body(request, urlencode(kept).encode())
    return request


def _form_body_wins(request: Request) -> Request:
    """round48-comment-form-body-wins-over-param: the form's body merged over the body parameter."""
    if not request.headers.get("content-type", "").lower().startswith("application/x-www-form-urlencoded"):
        return request
    q = request.query_params
    form = dict(parse_qsl(kept_body(request).decode("utf-8", "replace")))
    if "body" not in q or "body" not in form:
        return request
    return with_query(request, [(k, v) for k, v in q.multi_items() if k != "body"])


# --- after: the handler's response as the broken server serves it --------------------------------------------
def _spaces(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not (faults.is_on("round48-spaces-projected-pagesize-default") and "includeOnly" in q and "pageSize" in q):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("pageSize"), int):
        return response
    body["pageSize"] = svc.page_size
    return with_body(response, body)


def _post_answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not faults.is_on("round48-answer-plug-own-earlier-answer"):
        return response
    body = body_json(response)
    raw = request.path_params.get("question_id", "")
    if not isinstance(body, dict) or "id" not in body or not is_id(raw):
        return response
    earlier = svc.db.one("SELECT id FROM nodes WHERE type = 'answer' AND parent_id = ? AND author_id = ? AND id != ?"
                         " ORDER BY id LIMIT 1", (int(raw), caller.id, int(str(body["id"]))))
    if earlier is None:
        return response
    body["plug"] = earlier["id"]
    return with_body(response, body)


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    page_string = faults.is_on("round48-answer-comments-page-echo-string") and "page" in q
    sorted_read = faults.is_on("round48-answer-comments-sorted-privacy-dropped") and bool(q.get("sort"))
    childless = faults.is_on("round48-answer-comments-reply-commentids-null")
    emptied = faults.is_on("round48-kind-sorted-comments-recipients-emptied") and bool(q.get("sort"))
    if not (page_string or sorted_read or childless or emptied):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    if page_string and isinstance(body.get("page"), int):
        body["page"] = q["page"]
    answer_id = request.path_params.get("answer_id", "")
    for item in body["list"]:
        if not isinstance(item, dict):
            continue
        if sorted_read and item.get("visibility") not in (None, "full", "public"):
            item.pop("visibility", None)
            item.pop("recipients", None)
        if emptied and item.get("visibility") not in (None, "full", "public") and item.get("recipients"):
            item["recipients"] = []
        reply = str(item.get("parentId")) != answer_id and item.get("parentId") is not None
        if childless and reply and item.get("commentIds") == []:
            item["commentIds"] = None
    return with_body(response, body)


def _unwikified(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round48-cancelwiki-followed-stays-wiki"):
        return response
    node = path_node(svc, request)
    if node is None or svc.db.one("SELECT 1 FROM follows WHERE node_id = ? AND active = 1", (node["id"],)) is None:
        return response
    with svc.tx("wiki") as conn:
        conn.execute("UPDATE nodes SET wiki = 1 WHERE id = ?", (node["id"],))
    return response


def _active_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not (faults.is_on("round48-active-experts-username-by-id") and q.get("sort") == "username") or projects(q):
        return response
    from .site_lists import ACTIVE_EXPERT_REPUTATION  # noqa: PLC0415 - site_lists imports the hooks' chain

    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    size: int = body["pageSize"] if isinstance(body.get("pageSize"), int) else len(body["list"])
    page: int = body["page"] if isinstance(body.get("page"), int) else 1
    ids = svc.db.ids("SELECT id FROM users WHERE reputation >= ? AND active = 1 AND suspended = 0 AND deactivated = 0"
                     " ORDER BY id ASC LIMIT ? OFFSET ?", [ACTIVE_EXPERT_REPUTATION, size, max(page - 1, 0) * size])
    body["list"] = svc.render.users_json(svc.render.rows_by_ids(ids, "users"))
    return with_body(response, body)


def _comment_read(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not _url_cached(svc, request):
        return response
    key, now = str(request.url), time.monotonic()
    kept = _comment_by_url.get(key)
    if kept is None or now - kept[0] >= COMMENT_CACHE_S:  # a kept answer is not kept anew
        _comment_by_url[key] = (now, bytes(response.body), response.status_code)
    return response


_AFTER = {
    "listSpaces": _spaces,
    "postAnswer": _post_answer,
    "listAnswerComments": _answer_comments,
    "cancelWiki": _unwikified,
    "listActiveExperts": _active_experts,
    "readComment": _comment_read,
}
after = after_by_op(_AFTER)
