"""Where blind round 69's faults bite (faults_blind_round69.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .hook_kit import (
    after_by_op,
    each_item,
    kept_by_url,
    kept_json_object,
    let_in_through,
    list_items,
    media,
    path_node,
    result_action,
    sent_fields,
)
from .http_io import body_json, json_response, with_body, with_json_body, with_query
from .service import Service

KEPT_S = 2.0
"""How long round69-projected-questions-kept-by-url keeps a projected question list by its URL (whoever read it)."""
_kept: dict[str, tuple[float, Response]] = {}
_READS_BODY = ("round69-comment-json-charset-recipients-lost", "round69-gdpr-reassign-id-string-refused")


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("scheduleGdprJob", "postComment") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage and the handler read it again
    if op == "lockNode" and faults.is_on("round69-lock-comment-parent-author-owns"):
        return await let_in_through(svc, request, caller, handler, kind="comment", own=auth.LOCK_OWN,
                                    granted=auth.LOCK_ANY, through=("parent_id",))
    if op == "scheduleGdprJob":
        return _job_before(request)
    return None


def _job_before(request: Request) -> Response | None:
    """round69-gdpr-reassign-id-string-refused: a reassignUser whose id is text refused."""
    if not faults.is_on("round69-gdpr-reassign-id-string-refused"):
        return None
    fields = sent_fields(request)
    reassign = structured(fields, "reassignUser") if "reassignUser" in fields else None
    if isinstance(reassign, dict) and isinstance(reassign.get("id"), str):
        return json_response({"error": "The provided 'reassignUser' is/are invalid"}, 400)
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listActiveExperts" and faults.is_on("round69-active-experts-oldest-as-recent") \
            and q.get("sort") == "oldest":
        return with_query(request, [(k, "recent" if k == "sort" else v) for k, v in q.multi_items()])
    if op == "postComment" and faults.is_on("round69-comment-json-charset-recipients-lost") \
            and media(request) == "application/json" and "charset" in request.headers.get("content-type", "").lower():
        body = kept_json_object(request)
        if body is not None and isinstance(body.get("recipients"), list):
            return with_json_body(request, {k: v for k, v in body.items() if k != "recipients"})
    return request


# --- after: the handler's response as the broken server serves it (after_by_op(_AFTER), at the end) ----------
def _send_to_mod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    if node is None or action is None:
        return response
    if faults.is_on("round69-sendtomod-answer-node-question") and node["type"] == "answer" \
            and isinstance(action.get("node"), dict):
        action["node"]["id"] = node["question_id"]
    elif faults.is_on("round69-sendtomod-locked-node-verb-locked") and node["locked"]:
        action["verb"] = "locked"
    else:
        return response
    return with_body(response, body)


def _cancel_wiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if node is None:
        return response
    if faults.is_on("round69-cancelwiki-answer-stays-wiki") and node["type"] == "answer":
        with svc.tx() as conn:
            conn.execute("UPDATE nodes SET wiki = 1 WHERE id = ?", (node["id"],))
        return response
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if faults.is_on("round69-cancelwiki-own-node-wiki-action-key") and node["author_id"] == caller.id \
            and not caller.can(auth.MARK_WIKI) and isinstance(result, dict) and "wikifyAction" in result:
        result["wikiAction"] = result.pop("wikifyAction")
        return with_body(response, body)
    return response


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round69-answer-comments-empty-page-no-sorts"):
        body, items = list_items(response)
        if isinstance(body, dict) and not items and "sorts" in body:
            body.pop("sorts")
            response = with_body(response, body)
    if not faults.is_on("round69-comment-op-visibility-read-as-recipients"):
        return response
    answer = path_node(svc, request, "answer_id")
    question = None if answer is None else svc.db.one("SELECT author_id FROM nodes WHERE id = ?",
                                                      (answer["question_id"],))
    if question is None:
        return response

    def materialized(item: dict[str, Any]) -> None:
        if item.get("visibility") == "op":
            item["visibility"] = "recipients"
            item["recipients"] = [{"id": int(question["author_id"])}]

    return each_item(response, materialized)


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not faults.is_on("round69-answer-form-plug-empty-string") or media(request) != \
            "application/x-www-form-urlencoded" or not isinstance(body, dict) or "plug" not in body:
        return response
    body["plug"] = ""
    return with_body(response, body)


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    body = body_json(response)
    if not faults.is_on("round69-unfavorite-returns-other-holders-action") or node is None \
            or result_action(body, "favoriteAction") is None:
        return response
    other = svc.db.one("SELECT * FROM actions WHERE verb = 'favorited' AND node_id = ? AND canceled = 0"
                       " AND user_id <> ? ORDER BY id DESC LIMIT 1", (node["id"], caller.id))
    if other is None:
        return response
    body["result"]["favoriteAction"] = svc.render.action_json(other, node["type"])
    return with_body(response, body)


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "lockAction")
    if not faults.is_on("round69-lock-moderated-node-extra-lost") or node is None or action is None \
            or not node["in_moderation"]:
        return response
    action["extra"] = None
    return with_body(response, body)


def _experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not faults.is_on("round69-active-experts-oldest-as-recent") or request.query_params.get("sort") != "oldest" \
            or not isinstance(body, dict) or body.get("sort") != "recent":
        return response
    body["sort"] = "oldest"
    return with_body(response, body)


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round69-projected-questions-kept-by-url") or "includeOnly" not in request.query_params:
        return response
    return kept_by_url(_kept, KEPT_S, request, response)


_AFTER = {
    "sendToModeration": _send_to_mod,
    "cancelWiki": _cancel_wiki,
    "listAnswerComments": _answer_comments,
    "postAnswer": _answer,
    "unmarkFavorite": _unfavorite,
    "lockNode": _lock,
    "listActiveExperts": _experts,
    "listQuestions": _questions,
}
after = after_by_op(_AFTER)
