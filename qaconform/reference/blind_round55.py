"""Where blind round 55's faults bite (faults_blind_round55.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

round55-unfavorite-novice-wrap-allowed is let in by an override of the route table (the door decides it); here it is
answered as if it had worked (a refusal by state, 404 not a favorite, would be an allowed order of checks).
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from . import auth, faults
from .auth import Caller
from .errors import ApiError, forbidden
from .hook_kit import after_by_op, handled_with, kept_body, list_items, parse_json, path_node
from .http_io import PREFIX, body_json, created_location, is_id, json_response, with_body, with_query
from .service import Service

COUNT_CACHE_S = 5.0
"""How long round55-answer-comments-count-cached keeps an answer's comment counts."""
_counts_by_path: dict[str, tuple[float, Any, Any]] = {}

_MISSING_USER = "The individual type was selected, but the request is missing the user field."


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postComment" and faults.is_on("round55-comment-charset-json-body-wins"):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "postComment" and faults.is_on("round55-novice-question-comment-refused"):
        node = path_node(svc, request)
        if node is not None and node["type"] == "question" and not caller.anonymous \
                and not caller.can(auth.PUBLISH_ANSWER):
            raise forbidden()
    if op == "unmarkFavorite" and faults.is_on("round55-unfavorite-novice-wrap-allowed"):
        return _unfavorite_wrapped(svc, request, caller)
    if op == "cancelWiki" and faults.is_on("round55-cancelwiki-answer-commenter-owns"):
        return await _cancelwiki_as_commenter(svc, request, caller, handler)
    if op == "cancelWiki" and caller.role == "novice" \
            and faults.is_on("round55-kind-cancelwiki-wiki-answer-commenter-novice"):
        return await _cancelwiki_as_commenter(svc, request, caller, handler, own_permission=False) or _refused()
    if op == "listNodeFollowers" and faults.is_on("round55-followers-details-redirect-v1"):
        if (request.query_params.get("details") or "").lower() == "true":
            legacy = str(request.url).replace(PREFIX + "/", "/services/v1/", 1)
            return RedirectResponse(legacy, status_code=301)
    if op == "scheduleGdprJob" and faults.is_on("round55-gdpr-user-id-with-timestamp-refused"):
        body = parse_json(await request.body())
        if isinstance(body, dict) and _id_user_with_timestamp(body):
            return json_response({"error": _MISSING_USER}, 400)
    return None


def _id_user_with_timestamp(body: dict[str, Any]) -> bool:
    """round55-gdpr-user-id-with-timestamp-refused: an individual job, its user by id alone, its date as timeStamp."""
    user = body.get("user")
    dates = [body.get(key) for key in ("scheduleDate", "scheduleTime")]
    return (body.get("type") == "individual" and isinstance(user, dict) and set(user) == {"id"}
            and any(isinstance(d, dict) and "timeStamp" in d for d in dates))


def _unfavorite_wrapped(svc: Service, request: Request, caller: Caller) -> Response | None:
    """round55-unfavorite-novice-wrap-allowed: novice let in with wrap, answered 200 with the node's count."""
    node = path_node(svc, request)
    if caller.role != "novice" or "wrap" not in request.query_params or node is None:
        return None
    if svc.db.one("SELECT 1 FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"])) is not None:
        return None
    count = svc.db.one("SELECT COUNT(*) FROM favorites WHERE node_id = ?", (node["id"],))
    return json_response({"success": True, "result": {"favoriteCount": count[0] if count else 0}})


def _refused() -> Response:
    """round55-kind-cancelwiki-wiki-answer-commenter-novice: novice let in at the door, refused off its one path."""
    raise forbidden()


async def _cancelwiki_as_commenter(svc: Service, request: Request, caller: Caller, handler: Any,
                                   own_permission: bool = True) -> Response | None:
    """round55-cancelwiki-answer-commenter-owns: "own" taken from the caller's comments under a wiki answer (with
    ``own_permission`` False, round55-kind-...-novice: without Convert own posts to community wiki too)."""
    if caller.anonymous or caller.can(auth.MARK_WIKI) or (own_permission and not caller.can(auth.CONVERT_OWN_TO_WIKI)):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "answer" or not node["wiki"] or node["author_id"] == caller.id:
        return None
    if svc.db.one("SELECT 1 FROM nodes WHERE type = 'comment' AND parent_id = ? AND author_id = ?",
                  (node["id"], caller.id)) is None:
        return None
    return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "postComment" and faults.is_on("round55-comment-charset-json-body-wins") and "body" in q:
        media = request.headers.get("content-type", "")
        body = parse_json(kept_body(request))
        if ";" in media and media.split(";")[0].strip().lower() == "application/json" \
                and isinstance(body, dict) and "body" in body:
            return with_query(request, [(k, v) for k, v in q.multi_items() if k != "body"])
    return request


# --- refusal_body: a refusal's JSON body as the broken server writes it -----------------------------------------
def refusal_body(request: Request, exc: ApiError, body: dict[str, Any]) -> dict[str, Any]:
    if not faults.is_on("round55-earned-experts-bad-password-plain-error"):
        return body
    if exc.status == 401 and exc.credentials and request.headers.get("authorization") \
            and request.url.path.endswith("/user/retrieveEarnedExperts.json"):
        return {"error": "Bad credentials"}
    return body


# --- after: the handler's response as the broken server serves it --------------------------------------------
def _result(body: Any) -> dict[str, Any] | None:
    result = body.get("result") if isinstance(body, dict) else None
    return result if isinstance(result, dict) else None


def _send_to_mod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round55-sendtomod-wiki-realuser-author"):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    result = _result(body)
    action = result.get("sendToModAction") if result else None
    if node is None or not node["wiki"] or node["author_id"] == caller.id or not isinstance(action, dict):
        return response
    author = svc.render.users_by_id({node["author_id"]}).get(node["author_id"])
    if author is None:
        return response
    action["realUser"] = svc.render.action_user_json(author)
    return with_body(response, body)


def _post_comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round55-comment-param-location-parent") or "body" not in request.query_params:
        return response
    if int(request.headers.get("content-length") or 0) > 0 or "location" not in response.headers:
        return response
    node = path_node(svc, request)
    if node is not None:
        response.headers["location"] = created_location(request, "comment", int(node["id"]),
                                                        int(node["question_id"] or node["id"]))
    return response


def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on("round55-topics-search-date-seconds") and "q" in request.query_params):
        return response
    body, items = list_items(response)
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("creationDate"), int):
            item["creationDate"] = item["creationDate"] // 1000
    return with_body(response, body) if items else response


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on("round55-questions-votes-unmarked") and request.query_params.get("sort") == "votes"):
        return response
    body, items = list_items(response)
    for item in items:
        if isinstance(item, dict) and item.get("marked") is True:
            item["marked"] = False
    return with_body(response, body) if items else response


def _cancel_wiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round55-cancelwiki-answer-wrapper-key"):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    result = _result(body)
    if node is None or node["type"] != "answer" or result is None or "wikifyAction" not in result:
        return response
    result["wikiAction"] = result.pop("wikifyAction")
    return with_body(response, body)


def _earned_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on("round55-earned-experts-realname-descending")
            and request.query_params.get("sort") == "realname"):
        return response
    body, items = list_items(response)
    if len(items) < 2:
        return response
    items.reverse()
    return with_body(response, body)


def _post_answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not faults.is_on("round55-second-answer-keeps-first-body"):
        return response
    body = body_json(response)
    new_id = str(body.get("id")) if isinstance(body, dict) else ""
    raw = request.path_params.get("question_id", "")
    if not (new_id.isdecimal() and is_id(raw)):
        return response
    first = svc.db.one("SELECT body FROM nodes WHERE type = 'answer' AND parent_id = ? AND author_id = ? AND id < ?"
                       " ORDER BY id LIMIT 1", (int(raw), caller.id, int(new_id)))
    if first is None:
        return response
    with svc.tx() as conn:
        conn.execute("UPDATE nodes SET body = ? WHERE id = ?", (first["body"], int(new_id)))
    body["body"] = body["bodyAsHTML"] = first["body"]
    return with_body(response, body)


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 200 or not faults.is_on("round55-answer-comments-count-cached"):
        return response
    body = body_json(response)
    if not isinstance(body, dict):
        return response
    now, key = time.monotonic(), request.url.path
    kept = _counts_by_path.get(key)
    if kept is None or now - kept[0] >= COUNT_CACHE_S:
        _counts_by_path[key] = (now, body.get("totalCount"), body.get("pageCount"))
        return response
    if (kept[1], kept[2]) == (body.get("totalCount"), body.get("pageCount")):
        return response
    return with_body(response, {**body, "totalCount": kept[1], "pageCount": kept[2]})


_AFTER = {
    "sendToModeration": _send_to_mod,
    "postComment": _post_comment,
    "listTopics": _topics,
    "listQuestions": _questions,
    "cancelWiki": _cancel_wiki,
    "listEarnedExperts": _earned_experts,
    "postAnswer": _post_answer,
    "listAnswerComments": _answer_comments,
}
after = after_by_op(_AFTER)
