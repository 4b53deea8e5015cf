"""Where blind round 73's faults bite (faults_blind_round73.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .actions import _last_action, _result
from .auth import Caller
from .errors import PERMISSION_MESSAGE, ApiError
from .hook_kit import after_by_op, handled_with, media, path_node, result_action, uncanceled, with_action
from .http_io import body_json, json_response, with_body, with_query
from .service import Service

KEPT_S = 2.0
"""How long round73-active-experts-kept-by-url keeps the active expert list by its URL after a signed-in read."""
_experts_by_url: dict[str, tuple[float, bytes]] = {}
_accepted_thread_new: set[int] = set()
"""Comments posted on an accepted answer during the run (round73-comment-on-accepted-answer-unlisted)."""


def _refused(status: int) -> Response:
    return json_response({"errors": {"message": PERMISSION_MESSAGE}}, status)


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    q = request.query_params
    if op == "postAnswer" and faults.is_on("round73-novice-answer-accepted-question-refused") \
            and not caller.anonymous and caller.can(auth.ANSWER) and not caller.can(auth.PUBLISH_ANSWER):
        question = path_node(svc, request, "question_id")
        if question is not None and question["type"] == "question" and question["marked"]:
            return _refused(403)
    if op == "cancelWiki" and faults.is_on("round73-cancelwiki-group-peer-owns"):
        return await _group_peer(svc, request, caller, handler)
    if op == "postComment" and faults.is_on("round73-comment-params-json-empty-body-400") \
            and media(request) == "application/json" and q.get("body") and not (await request.body()).strip():
        return json_response({"error": "Malformed JSON body"}, 400)
    if op == "scheduleGdprJob" and (faults.is_on("round73-gdpr-user-id-four-operations-refused")
                                    or faults.is_on("round73-kind-gdpr-reassign-id-four-operations-refused")):
        return await _job_before(request)
    return None


def _locked_already(svc: Service, request: Request) -> Response | None:
    """round73-anonymous-lock-locked-node-200: the repeat of a lock answered before the door (the refused call
    answered as the repeat it would have been)."""
    node = path_node(svc, request)
    if node is None or not node["locked"] or not request.query_params.get("prompt"):
        return None
    action_id = _last_action(svc, "locked", node["id"], None)
    return None if action_id is None else _result(svc, "lockAction", action_id, node)


async def _group_peer(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    if caller.anonymous or caller.can(auth.MARK_WIKI) or not caller.can(auth.CONVERT_OWN_TO_WIKI):
        return None
    node = path_node(svc, request)
    if node is None or node["author_id"] == caller.id or svc.db.one(
            "SELECT 1 FROM user_groups a JOIN user_groups b ON a.group_id = b.group_id"
            " WHERE a.user_id = ? AND b.user_id = ?", (caller.id, node["author_id"])) is None:
        return None
    return await handled_with(auth.MARK_WIKI, svc, request, caller, handler)


async def _job_before(request: Request) -> Response | None:
    raw = await request.body()
    try:
        fields = json.loads(raw) if raw.strip() else {}
    except ValueError:
        return None
    if not isinstance(fields, dict):
        return None
    operations = fields.get("operations")
    if not isinstance(operations, list) or len(operations) != 4:
        return None
    if fields.get("type") == "individual" and _by_id_alone(fields.get("user")) \
            and faults.is_on("round73-gdpr-user-id-four-operations-refused"):
        return json_response({"error": "The provided 'user' is invalid"}, 400)
    if _by_id_alone(fields.get("reassignUser")) \
            and faults.is_on("round73-kind-gdpr-reassign-id-four-operations-refused"):
        return json_response({"error": "The provided 'reassignUser' is/are invalid"}, 400)
    return None


def _by_id_alone(who: Any) -> bool:
    return isinstance(who, dict) and [k for k in who if who.get(k) not in (None, "")] == ["id"]


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listTopics" and faults.is_on("round73-topics-name-later-pages-by-popularity") \
            and q.get("sort") == "name" and (q.get("page") or "1").strip() not in ("", "0", "1"):
        request.state.round73_sort = "name"
        return with_query(request, [(k, "popularity" if k == "sort" else v) for k, v in q.multi_items()])
    return request


# --- refusal: a refused read served from a cache -----------------------------------------------------------------
def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    if op == "lockNode" and exc.status == 401 and "authorization" not in request.headers \
            and faults.is_on("round73-anonymous-lock-locked-node-200"):
        return _locked_already(svc, request)
    if op != "listActiveExperts" or exc.status != 401 or "authorization" in request.headers \
            or not faults.is_on("round73-active-experts-kept-by-url"):
        return None
    kept = _experts_by_url.get(str(request.url))
    if kept is None or time.monotonic() - kept[0] >= KEPT_S:
        return None
    return Response(kept[1], media_type="application/json")


# --- after: the handler's response as the broken server serves it (after_by_op(_AFTER), at the end) ----------
def _experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round73-active-experts-kept-by-url") and not caller.anonymous:
        _experts_by_url[str(request.url)] = (time.monotonic(), bytes(response.body))
    return response


def _cancel_wiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if node is None:
        return response
    if faults.is_on("round73-cancelwiki-wrap-stays-wiki") and "wrap" in request.query_params:
        with svc.tx("wiki") as conn:
            conn.execute("UPDATE nodes SET wiki = 1 WHERE id = ?", (node["id"],))
    if faults.is_on("round73-cancelwiki-answer-not-canceled") and node["type"] == "answer":
        body = body_json(response)
        action = result_action(body, "wikifyAction")
        if action is not None:
            uncanceled(action)
            return with_body(response, body)
    return response


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if node is None or not node["in_moderation"] or not faults.is_on("round73-unfavorite-in-moderation-not-canceled"):
        return response
    return with_action(response, "favoriteAction", uncanceled)


def _content(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    raw = request.path_params.get("user_id", "")
    if not faults.is_on("round73-content-enveloped-mod-comment-author") or not raw.isdecimal() or svc.db.one(
            "SELECT 1 FROM nodes WHERE author_id = ? AND type = 'comment' AND visibility = 'mod'", (int(raw),)) is None:
        return response
    items = body_json(response)
    if not isinstance(items, list):
        return response
    return with_body(response, {"name": "", "sort": "", "page": 1, "pageSize": len(items), "pageCount": 1,
                                "listCount": len(items), "totalCount": len(items), "list": items})


def _followers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round73-followers-inactive-trailing-comma") \
            or (request.query_params.get("active") or "").strip().lower() != "false":
        return response
    text = json.dumps(body_json(response))
    headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-type")}
    return Response(text[:-1] + ",}", response.status_code, headers, media_type="application/json")


def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    sort = getattr(request.state, "round73_sort", None)
    body = body_json(response)
    if sort is None or not isinstance(body, dict):
        return response
    body["sort"] = sort
    return with_body(response, body)


def _comment_posted(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round73-comment-on-accepted-answer-unlisted"):
        return response
    parent = path_node(svc, request)
    digits = re.findall(r"\d+", response.headers.get("location", "").rsplit("/", 1)[-1])
    if parent is not None and parent["type"] == "answer" and parent["marked"] and digits:
        _accepted_thread_new.add(int(digits[0]))
    return response


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    answer = path_node(svc, request, "answer_id")
    body = body_json(response)
    if not faults.is_on("round73-comment-on-accepted-answer-unlisted") or answer is None or not answer["marked"] \
            or not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    kept = [i for i in body["list"] if not (isinstance(i, dict) and i.get("id") in _accepted_thread_new)]
    gone = len(body["list"]) - len(kept)
    body["list"] = kept
    for key in ("listCount", "totalCount"):
        if isinstance(body.get(key), int):
            body[key] -= gone  # the copy made at accept time counts only what it holds
    return with_body(response, body)


_AFTER = {"listActiveExperts": _experts, "cancelWiki": _cancel_wiki, "unmarkFavorite": _unfavorite,
          "listUserContent": _content, "listNodeFollowers": _followers, "listTopics": _topics,
          "postComment": _comment_posted, "listAnswerComments": _answer_comments}
after = after_by_op(_AFTER)
