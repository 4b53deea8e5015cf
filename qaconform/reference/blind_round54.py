"""Where blind round 54's faults bite (faults_blind_round54.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.

round54-questions-search-anonymous-denied and round54-groups-includeonly-member-allowed need no code here: they are
overrides of the route table (the door decides them), named here so that every fault of the round is wired by name
in the server's code.
"""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import ApiError, denied
from .hook_kit import after_by_op, kept_body, kept_json, let_in_through, path_node, result_action, uncanceled
from .http_io import body_json, is_id, json_response, with_body, with_query, with_raw_body
from .service import Service, now_ms

OVERRIDE_ONLY = ("round54-questions-search-anonymous-denied", "round54-groups-includeonly-member-allowed")
"""The round's faults decided at the door by their overrides (faults_blind_round54.py), not by code here."""

USER_QUESTIONS_CACHE_S = 3.0
"""How long round54-user-questions-cached-by-url's cache answers a repeated read of one URL."""
_user_questions_by_url: dict[str, tuple[float, int, bytes]] = {}

_TIME_FRAME_TAKEN = "There is a job already scheduled for that time frame."
_READS_BODY = ("round54-gdpr-no-type-csv-string-bulk", "round54-gdpr-time-frame-timestamp-seconds",
               "round54-gdpr-email-user-jobid-string")


def _form_with_charset(request: Request) -> bool:
    media = request.headers.get("content-type", "").lower()
    return media.startswith("application/x-www-form-urlencoded") and ";" in media and "charset" in media


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "scheduleGdprJob" and any(faults.is_on(name) for name in _READS_BODY):
        await request.body()  # kept by Starlette: the admitted stage, the handler and the after stage read it again
        if faults.is_on("round54-gdpr-time-frame-timestamp-seconds"):
            return await _frame_by_exact_stamp(svc, request, caller, handler)
    if op == "postComment" and faults.is_on("round54-comment-form-charset-privacy-dropped") \
            and _form_with_charset(request):
        await request.body()
    if op == "postComment" and faults.is_on("round54-reply-to-reply-private-stored-full"):
        await request.body()  # read again by the after stage: were privacy fields sent?
    if op == "postAnswer" and faults.is_on("round54-answer-member-marked-question-refused") \
            and caller.role == "member":
        question = path_node(svc, request, "question_id")
        if question is not None and question["type"] == "question" and question["marked"]:
            raise denied(caller.anonymous)
    if op == "unmarkFavorite" and faults.is_on("round54-kind-unfavorite-author-count-lowered"):
        _author_lowers_count(svc, request, caller)
    if op == "unmarkFavorite" and faults.is_on("round54-unfavorite-node-author-takes-holders"):
        return await _unfavorite_as_holder(svc, request, caller, handler)
    if op == "cancelWiki" and faults.is_on("round54-cancelwiki-comment-parent-author-owns"):
        return await _cancelwiki_as_parent_author(svc, request, caller, handler)
    return None


async def _frame_by_exact_stamp(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round54-gdpr-time-frame-timestamp-seconds: a timeStamp with seconds keys its frame by the exact millisecond."""
    from .gdpr_jobs import _schedule_ms  # here: gdpr_jobs imports the hooks' neighbours

    body = kept_json(request, loose=True)
    if not isinstance(body, dict) or "type" in request.query_params:
        return None
    spec = body.get("scheduleDate") or body.get("scheduleTime")
    if not isinstance(spec, dict) or spec.get("formatted") is not None or spec.get("timeStamp") is None:
        return None
    try:
        when = _schedule_ms(body)
    except ApiError:
        return None
    if when % 60_000 == 0:
        return None
    try:
        response: Response = await handler(svc, request, caller)
        return response
    except ApiError as exc:
        if exc.status != 400 or exc.body.get("error") != _TIME_FRAME_TAKEN:
            raise
    if svc.db.one("SELECT 1 FROM jobs WHERE schedule_minute = ?", (-when,)) is not None:
        raise ApiError(400, {"error": _TIME_FRAME_TAKEN})
    with svc.tx("job") as conn:
        cur = conn.execute(
            "INSERT INTO jobs(type, schedule_minute, request, created_by, creation_date) VALUES (?, ?, ?, ?, ?)",
            (str(body.get("type")), -when, json.dumps(body, default=str)[:100_000], caller.id, now_ms()))
    return json_response({"jobId": int(cur.lastrowid or 0)}, 201)


async def _cancelwiki_as_parent_author(svc: Service, request: Request, caller: Caller,
                                       handler: Any) -> Response | None:
    """round54-cancelwiki-comment-parent-author-owns: "own" taken from a comment's parent's author."""
    return await let_in_through(svc, request, caller, handler, kind="comment", own=auth.CONVERT_OWN_TO_WIKI,
                                granted=auth.MARK_WIKI, through=("parent_id",))


def _author_lowers_count(svc: Service, request: Request, caller: Caller) -> None:
    """round54-kind-unfavorite-author-count-lowered: the author's call lowers the count, then is refused."""
    node = path_node(svc, request)
    if caller.anonymous or node is None or node["author_id"] != caller.id:
        return
    if svc.db.one("SELECT 1 FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"])) is None:
        with svc.tx("favorite") as conn:
            conn.execute("UPDATE nodes SET favorite_count = MAX(favorite_count - 1, 0) WHERE id = ?", (node["id"],))


async def _unfavorite_as_holder(svc: Service, request: Request, caller: Caller, handler: Any) -> Response | None:
    """round54-unfavorite-node-author-takes-holders: the node's author unmarks the first holder's favorite."""
    node = path_node(svc, request)
    if caller.anonymous or node is None or node["author_id"] != caller.id:
        return None
    if svc.db.one("SELECT 1 FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"])) is not None:
        return None
    holder = svc.db.one("SELECT user_id FROM favorites WHERE node_id = ? ORDER BY user_id LIMIT 1", (node["id"],))
    if holder is None:
        return None
    response: Response = await handler(svc, request, dataclasses.replace(caller, id=int(holder["user_id"])))
    return response


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "scheduleGdprJob" and faults.is_on("round54-gdpr-no-type-csv-string-bulk") and "type" not in q:
        body = kept_json(request, loose=True)
        if isinstance(body, dict) and "type" not in body and isinstance(body.get("csvFileId"), str):
            return with_query(request, [*q.multi_items(), ("type", "bulk")])
    if op == "postComment" and faults.is_on("round54-comment-form-charset-privacy-dropped") \
            and _form_with_charset(request) and "_body" in vars(request):
        try:
            pairs = parse_qsl(bytes(vars(request)["_body"]).decode("utf-8"), keep_blank_values=True)
        except UnicodeDecodeError:
            return request
        kept = [(k, v) for k, v in pairs if not k.startswith(("visibility", "recipients"))]
        if len(kept) != len(pairs):
            return with_raw_body(request, urlencode(kept).encode())
    if op == "listActiveExperts" and faults.is_on("round54-active-experts-recent-sized-oldest") \
            and q.get("sort") == "recent" and "pageSize" in q:
        return with_query(request, [(k, "oldest" if k == "sort" else v) for k, v in q.multi_items()])
    return request


# --- after: the handler's response as the broken server serves it --------------------------------------------
def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    late = _unfavorite_late(svc, request, caller, response)
    if late is not None:
        return late
    on = (faults.is_on("round54-unfavorite-answer-count-before"),
          faults.is_on("round54-unfavorite-own-node-not-canceled"))
    node = path_node(svc, request) if any(on) else None
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if node is None or not isinstance(result, dict):
        return response
    if on[0] and node["type"] == "answer" and isinstance(result.get("favoriteCount"), int):
        result["favoriteCount"] += 1
        return with_body(response, body)
    action = result_action(body, "favoriteAction")
    if on[1] and node["author_id"] == caller.id and action is not None:
        uncanceled(action)
        return with_body(response, body)
    return response


def _unfavorite_late(svc: Service, request: Request, caller: Caller, response: Response) -> Response | None:
    """round54-unfavorite-wrap-count-string and round54-unfavorite-after-other-not-canceled (None: neither bites)."""
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not isinstance(result, dict):
        return None
    if faults.is_on("round54-unfavorite-wrap-count-string") and "wrap" in request.query_params \
            and isinstance(result.get("favoriteCount"), int):
        result["favoriteCount"] = str(result["favoriteCount"])
        return with_body(response, body)
    action = result_action(body, "favoriteAction")
    node = path_node(svc, request)
    if not faults.is_on("round54-unfavorite-after-other-not-canceled") or action is None or node is None:
        return None
    other = svc.db.one("SELECT 1 FROM actions WHERE verb = 'favorited' AND node_id = ? AND canceled = 1 AND "
                       "canceled_by IS NOT NULL AND canceled_by != ? AND id != ?",
                       (node["id"], caller.id, action.get("id")))
    if other is None:
        return None
    uncanceled(action)
    return with_body(response, body)


def _cancel_wiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round54-cancelwiki-answer-wikiaction-key"):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "wikifyAction")
    if node is None or node["type"] != "answer" or action is None:
        return response
    body["result"] = {"wikiAction": action, **{k: v for k, v in body["result"].items() if k != "wikifyAction"}}
    return with_body(response, body)


def _issue_types(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on("round54-issuetypes-v1-plain-names") and "v1" in request.query_params):
        return response
    body = body_json(response)
    if not isinstance(body, list):
        return response
    return with_body(response, [item.get("name") if isinstance(item, dict) else item for item in body])


def _active_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not (faults.is_on("round54-active-experts-recent-sized-oldest") and q.get("sort") == "recent"
            and "pageSize" in q):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or body.get("sort") != "oldest":
        return response
    return with_body(response, {**body, "sort": "recent"})


def _schedule(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not faults.is_on("round54-gdpr-email-user-jobid-string"):
        return response
    sent = kept_json(request, loose=True)
    user = sent.get("user") if isinstance(sent, dict) else None
    if not (isinstance(user, dict) and user.get("email") not in (None, "")):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("jobId"), int):
        return response
    return with_body(response, {**body, "jobId": str(body["jobId"])})


def _post_comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not faults.is_on("round54-reply-to-reply-private-stored-full"):
        return response
    if any(k in request.query_params for k in ("visibility", "recipients")):
        return response
    sent = kept_json(request, loose=True)
    raw = kept_body(request)
    if isinstance(sent, dict) and ("visibility" in sent or "recipients" in sent):
        return response
    if sent is None and (b"visibility" in raw or b"recipients" in raw):
        return response
    parent = path_node(svc, request)
    grand = svc.db.one("SELECT type FROM nodes WHERE id = ?", (parent["parent_id"],)) if parent is not None else None
    if parent is None or parent["type"] != "comment" or parent["visibility"] == "full" or grand is None \
            or grand["type"] != "comment":
        return response
    location = response.headers.get("location", "")
    tail = location.rstrip("/").rsplit("/", 1)[-1].split(".")[0]
    if not is_id(tail):
        return response
    with svc.tx() as conn:
        conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ? AND parent_id = ?", (int(tail), parent["id"]))
        conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (int(tail),))
    return response


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code == 200 and caller.anonymous and faults.is_on(
            "round54-kind-user-questions-anonymous-ids-unfiltered"):
        body = body_json(response)
        items = body.get("list") if isinstance(body, dict) else None
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and isinstance(item.get("commentIds"), list) and isinstance(item.get("id"), int):
                rows = svc.db.all("SELECT id FROM nodes WHERE parent_id = ? AND type = 'comment' ORDER BY id",
                                  (item["id"],))
                item["commentIds"] = [int(r["id"]) for r in rows]
        return with_body(response, body) if isinstance(items, list) else response
    if response.status_code != 200 or not faults.is_on("round54-user-questions-cached-by-url"):
        return response
    now, key = time.monotonic(), str(request.url)
    kept = _user_questions_by_url.get(key)
    if kept is not None and now - kept[0] < USER_QUESTIONS_CACHE_S and kept[1] != caller.id:
        return Response(kept[2], status_code=200, media_type=response.media_type)
    _user_questions_by_url[key] = (now, caller.id, bytes(response.body))
    return response


_AFTER = {
    "unmarkFavorite": _unfavorite,
    "cancelWiki": _cancel_wiki,
    "listIssueTypes": _issue_types,
    "listActiveExperts": _active_experts,
    "scheduleGdprJob": _schedule,
    "postComment": _post_comment,
    "listUserQuestions": _user_questions,
}
after = after_by_op(_AFTER, refused_too=("scheduleGdprJob",))
