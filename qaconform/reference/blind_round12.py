"""Where the planted faults of the twelfth blind round bite (issue 44, round12; the entries are in
:mod:`faults_blind_round12`). Each function is called from the one place it breaks and, with its fault off,
returns its input unchanged (or does nothing), so the caller reads as before. Each bug is a real server's: a
second serializer on one branch, a lookup against the wrong row, a check made on one input form only.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .errors import ApiError, conflict
from .fragments import JSON_TYPE
from .http_io import body_json, json_response


# --- writes: answers, comments, jobs --------------------------------------------------------------------------
def answer_published(db: Any, caller: Caller, question: sqlite3.Row, published: bool) -> bool:
    """r12-child-space-answer-moderated: the "moderate new answers" setting is read from the parent of the
    question's space when it has one (the space tree walked one step too far), so an answer to a question in a child
    space goes to moderation whatever Publish answer says."""
    if not published or not faults.is_on("r12-child-space-answer-moderated"):
        return published
    child = db.one("SELECT 1 FROM spaces WHERE id = ? AND COALESCE(parent_id, 0) <> 0", (question["space_id"],))
    return child is None


def comment_parent(caller: Caller, parent: sqlite3.Row) -> None:
    """r12-reply-to-own-comment-refused: the "not on your own post" guard of votes was copied into the comment
    handler for comment parents, so a reply to one's own comment is refused 409."""
    if (parent["type"] == "comment" and parent["author_id"] == caller.id and not caller.anonymous
            and faults.is_on("r12-reply-to-own-comment-refused")):
        raise conflict(f"comment {parent['id']} is your own; you cannot reply to it")


def past_date_refusal(spec: Any) -> None:
    """r12-gdpr-past-timestamp-errors-list: the timeStamp form is validated by a second validator, whose 400 body
    is a list of errors instead of {error: <string>}."""
    if isinstance(spec, dict) and spec.get("formatted") is None and "timeStamp" in spec and faults.is_on(
            "r12-gdpr-past-timestamp-errors-list"):
        raise ApiError(400, {"errors": [{"field": "scheduleDate.timeStamp",
                                         "message": "The desired date is in the past and is it not eligible."}]})


def reassign_refused(fields: Mapping[str, Any], reassign: Any) -> bool:
    """r12-gdpr-bulk-reassign-username-refused: the bulk branch looks the reassignUser up among the ids of its CSV
    rows only, so a reassignUser named by username is never found there."""
    return (fields.get("type") == "bulk" and isinstance(reassign, dict)
            and reassign.get("username") not in (None, "") and reassign.get("id") in (None, "")
            and faults.is_on("r12-gdpr-bulk-reassign-username-refused"))


def job_body(user: Any, body: dict[str, Any]) -> dict[str, Any]:
    """r12-gdpr-email-job-ids-list: a job for a user named by email goes through the bulk expansion (one job per
    matching account) and answers with the list of job ids."""
    if isinstance(user, dict) and user.get("email") not in (None, "") and faults.is_on("r12-gdpr-email-job-ids-list"):
        return {"jobIds": list(body.values())}
    return body


# --- reads: privacy, projection ------------------------------------------------------------------------------
def comments_seen(caller: Caller, answer_id: int, clause: str, params: list[Any]) -> str:
    """r12-recipient-of-sibling-sees-all: the recipients check is made once per answer (is the caller a recipient of
    any comment under it?) and, once true, every comment private to recipients under that answer is listed. Returns
    the answer comment list's privacy clause, appending what it adds to ``params`` (round12, issue 44)."""
    if caller.anonymous or not faults.is_on("r12-recipient-of-sibling-sees-all"):
        return clause
    params += [answer_id, caller.id]
    return (f"({clause} OR (n.visibility = 'recipients' AND EXISTS (SELECT 1 FROM comment_recipients r JOIN nodes s"
            " ON s.id = r.comment_id WHERE s.answer_id = ? AND r.user_id = ?)))")


def relations_query(query: Mapping[str, str], details: bool) -> Mapping[str, str]:
    """r12-follower-relations-includeonly-ignored: the relation items (details=true) are built after the
    projection step of the user items, so includeOnly never reaches them."""
    if details and "includeOnly" in query and faults.is_on("r12-follower-relations-includeonly-ignored"):
        return {k: v for k, v in query.items() if k != "includeOnly"}
    return query


# --- refusals ----------------------------------------------------------------------------------------------------
def refusal_body(request: Request, exc: ApiError, body: dict[str, Any]) -> dict[str, Any]:
    """r12-denied-groups-projected-body: the projection filter of the group list runs on the refusal body too, so
    a denied request with includeOnly loses the message of {errors: {message}} (a request_hooks refusal_body
    hook: the group list is the route ending in /group.json)."""
    if (request.url.path.endswith("/group.json") and exc.status in (401, 403) and "includeOnly" in request.query_params
            and isinstance(body.get("errors"), dict) and faults.is_on("r12-denied-groups-projected-body")):
        keep = {f.strip() for f in request.query_params["includeOnly"].split(",")}
        return {"errors": {k: v for k, v in body["errors"].items() if k in keep}}
    return body


# --- responses rewritten on one branch ---------------------------------------------------------------------------
def after(op_id: str, request: Request, caller: Caller, response: Response) -> Response:
    """The response bugs of this round, each on one operation and one path."""
    rewrite = _AFTER.get(op_id)
    if rewrite is None or not 200 <= response.status_code < 300:
        return response
    return rewrite(request, caller, response)


def _posted_answer(request: Request, caller: Caller, response: Response) -> Response:
    """r12-answer-plug-empty-for-admin: the admin's answer is rendered by the moderation view, which fills plug
    with an empty string."""
    body = body_json(response)
    if not (isinstance(body, dict) and caller.role == "admin" and "plug" in body and faults.is_on(
            "r12-answer-plug-empty-for-admin")):
        return response
    body["plug"] = ""
    return Response(json.dumps(body).encode(), status_code=response.status_code, headers=_headers(response),
                    media_type=JSON_TYPE)


def _headers(response: Response) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k.lower() in ("location",)}


def _unfavorited(request: Request, caller: Caller, response: Response) -> Response:
    """r12-unfavorite-admin-action-id: for an administrator the favorite action is returned as its id only."""
    if caller.role != "admin" or not faults.is_on("r12-unfavorite-admin-action-id"):
        return response
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if isinstance(result, dict) and isinstance(result.get("favoriteAction"), dict):
        result["favoriteAction"] = result["favoriteAction"].get("id")
        return json_response(body, response.status_code)
    return response


def _issue_types(request: Request, caller: Caller, response: Response) -> Response:
    """r12-issuetypes-names-for-novice: a caller without the moderation roles reads the cached name list, which
    holds the names as plain strings."""
    if caller.role != "novice" or not faults.is_on("r12-issuetypes-names-for-novice"):
        return response
    body = body_json(response)
    if isinstance(body, list):
        return json_response([i.get("name") if isinstance(i, dict) else i for i in body])
    return response


def _spaces(request: Request, caller: Caller, response: Response) -> Response:
    """r12-spaces-sorted-page-echo-one: the sorted branch of the space list builds its envelope from the default
    paging, so it reports page 1 for any page asked."""
    q = request.query_params
    if not q.get("sort") or not q.get("page") or not faults.is_on("r12-spaces-sorted-page-echo-one"):
        return response
    body = body_json(response)
    if isinstance(body, dict) and "page" in body:
        body["page"] = 1
        return json_response(body)
    return response


def _earned_experts(request: Request, caller: Caller, response: Response) -> Response:
    """r12-earned-experts-oldest-trailing-comma: the oldest-first branch writes its JSON by hand, with a comma
    after the last item."""
    if request.query_params.get("sort") != "oldest" or not faults.is_on("r12-earned-experts-oldest-trailing-comma"):
        return response
    raw = bytes(response.body)
    at = raw.rfind(b"]")
    if at <= 0 or raw[at - 1:at] == b"[":
        return response
    return Response(raw[:at] + b"," + raw[at:], status_code=response.status_code, media_type=JSON_TYPE)


def _answer_comments(request: Request, caller: Caller, response: Response) -> Response:
    """r12-comment-sorts-joined-after-page-1: later pages of an answer's comments come from the legacy pager,
    which writes sorts as one comma-separated string."""
    page = request.query_params.get("page") or "1"
    if page in ("0", "1") or not faults.is_on("r12-comment-sorts-joined-after-page-1"):
        return response
    body = body_json(response)
    if isinstance(body, dict) and isinstance(body.get("sorts"), list):
        body["sorts"] = ",".join(str(s) for s in body["sorts"])
        return json_response(body)
    return response


_AFTER = {
    "postAnswer": _posted_answer,
    "unmarkFavorite": _unfavorited,
    "listIssueTypes": _issue_types,
    "listSpaces": _spaces,
    "listEarnedExperts": _earned_experts,
    "listAnswerComments": _answer_comments,
}
