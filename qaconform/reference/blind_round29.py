"""Where the faults of blind round 29 bite (faults_blind_round29.py): one ``before`` and one ``after`` hook
(request_hooks.HOOKS, entry "round29"), each a no-op unless one of this round's faults is on.

Each branch below is the one path a vendor's developer got wrong: a reply's permission, a private comment read by
the answer's author, a job's date form, a moderator's content, a search's page, an anonymous read's serializer, a
projection for one role, one sort's mapper, a paged DAO, a moderated node's states, a private comment's export, a
later page, a wiki node's post, the last favorite, and one sort with a page.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .bodies import read_fields, structured
from .errors import bad_request, denied
from .http_io import body_json, is_id, json_response, with_body
from .service import Service

Handler = Callable[[Service, Request, Caller], Awaitable[Response]]


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    """A response in place of the handler's (or a refusal raised) on this round's paths; None elsewhere."""
    if op == "postComment" and caller.anonymous and faults.is_on("round29-anonymous-reply-accepted"):
        _reply_only(svc, request)
    if op == "scheduleGdprJob" and faults.is_on("round29-bulk-timestamp-no-csv-scheduled"):
        return await _bulk_by_timestamp(svc, request)
    if (op == "listUserQuestions" and caller.role == "novice" and "exclude" in request.query_params
            and faults.is_on("round29-novice-exclude-user-questions-hidden-space")):
        return await handler(svc, request, replace(caller, role="member"))  # the projection's query by rank
    if (op == "listActiveExperts" and request.query_params.get("sort") == "default" and "page" in request.query_params
            and faults.is_on("round29-active-default-sort-paged-400")):
        raise bad_request("'sort' must be one of reputation, username, realname, recent, oldest")
    return None


def _reply_only(svc: Service, request: Request) -> None:
    """round29-anonymous-reply-accepted: the route let anonymous in; only a reply (the parent a comment) goes on."""
    raw = request.path_params.get("node_id", "")
    node = svc.db.one("SELECT type FROM nodes WHERE id = ?", (int(raw),)) if is_id(raw) else None
    if node is None or node["type"] != "comment":
        raise denied(anonymous=True)


async def _bulk_by_timestamp(svc: Service, request: Request) -> Response | None:
    """round29-bulk-timestamp-no-csv-scheduled: a bulk job dated by timeStamp skips the csvFileId check."""
    await request.body()  # kept by Starlette: the handler reads it again when this branch does not answer
    fields = await read_fields(request)
    date = structured(fields, "scheduleDate")
    if fields.get("type") != "bulk" or fields.get("csvFileId") not in (None, ""):
        return None
    if not (isinstance(date, dict) and "timeStamp" in date):
        return None
    last = svc.db.one("SELECT MAX(id) AS id FROM jobs")
    return json_response({"jobId": int((last["id"] if last else None) or 0) + 1000}, 201)


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The handler's response as this round's broken paths serve it."""
    if response.status_code not in (200, 201) or not faults.active():
        return response
    rewrite = _AFTER.get(op)
    return rewrite(svc, request, caller, response) if rewrite is not None else response


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not isinstance(body, dict):
        return response
    if caller.anonymous and faults.is_on("round29-anonymous-comment-list-no-sorts"):
        body.pop("sorts", None)
        return with_body(response, body)
    if not caller.anonymous and faults.is_on("round29-answer-author-reads-private-comments"):
        return _author_reads_private(svc, request, caller, response, body)
    return response


def _author_reads_private(svc: Service, request: Request, caller: Caller, response: Response,
                          body: dict[str, Any]) -> Response:
    """round29-answer-author-reads-private-comments: the answer's author reads every 'recipients' comment."""
    raw = request.path_params.get("answer_id", "")
    answer = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (int(raw),)) if is_id(raw) else None
    if answer is None or answer["author_id"] != caller.id or not isinstance(body.get("list"), list):
        return response
    shown = {item.get("id") for item in body["list"] if isinstance(item, dict)}
    hidden = [i for i in svc.db.ids(
        "SELECT n.id FROM nodes n WHERE n.answer_id = ? AND n.type = 'comment' AND n.visibility = 'recipients'"
        " AND n.author_id <> ? AND NOT EXISTS (SELECT 1 FROM comment_recipients r WHERE r.comment_id = n.id"
        " AND r.user_id = ?) ORDER BY n.id", (int(raw), caller.id, caller.id)) if i not in shown]
    if not hidden:
        return response
    body["list"] += svc.render.nodes_json(svc.render.nodes_by_ids(hidden), caller)
    for key in ("listCount", "totalCount"):
        if isinstance(body.get(key), int):
            body[key] += len(hidden)
    return with_body(response, body)


def _user_content(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    entries = body_json(response)
    if not isinstance(entries, list):
        return response
    raw = request.path_params.get("user_id", "")
    if faults.is_on("round29-moderator-content-enveloped") and is_id(raw) and svc.db.one(
            "SELECT 1 FROM users WHERE id = ? AND role = 'moderator'", (int(raw),)):
        return with_body(response, {"name": "", "sort": "", "page": 1, "pageSize": max(len(entries), 1),
                                    "pageCount": 1, "listCount": len(entries), "totalCount": len(entries),
                                    "list": entries})
    if faults.is_on("round29-content-private-comment-body-null"):
        ids = [e["node"]["id"] for e in entries if isinstance(e, dict) and isinstance(e.get("node"), dict)
               and e["node"].get("type") == "comment"]
        private = set(svc.db.ids(f"SELECT id FROM nodes WHERE id IN ({','.join('?' * len(ids))})"
                                 " AND visibility <> 'full'", ids)) if ids else set()
        if not private:
            return response
        for entry in entries:
            if isinstance(entry, dict) and isinstance(entry.get("node"), dict) and entry["node"].get("id") in private:
                entry["node"]["body"] = None
        return with_body(response, entries)
    return response


def _topics(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    if not (q.get("q") and "page" not in q and faults.is_on("round29-topic-search-page-zero")):
        return response
    body = body_json(response)
    if not isinstance(body, dict):
        return response
    body["page"] = 0
    return with_body(response, body)


def _items(response: Response) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return None, []
    return body, [item for item in body["list"] if isinstance(item, dict)]


def _earned_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if request.query_params.get("sort") != "oldest" or not faults.is_on("round29-earned-experts-oldest-group-ids-int"):
        return response
    body, users = _items(response)
    for user in users:
        for group in user.get("groups") or []:
            if isinstance(group, dict) and str(group.get("id", "")).isdecimal():
                group["id"] = int(group["id"])
    return with_body(response, body) if body is not None else response


def _groups(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if "pageSize" not in request.query_params or not faults.is_on("round29-groups-paged-ids-string"):
        return response
    body, groups = _items(response)
    for group in groups:
        if isinstance(group.get("id"), int):
            group["id"] = str(group["id"])
    return with_body(response, body) if body is not None else response


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round29-user-answers-moderated-nodestates-null"):
        return response
    body, answers = _items(response)
    ids = [a["id"] for a in answers if isinstance(a.get("id"), int)]
    moderated = set(svc.db.ids(f"SELECT id FROM nodes WHERE id IN ({','.join('?' * len(ids))})"
                               " AND in_moderation = 1", ids)) if ids else set()
    if body is None or not moderated:
        return response
    for answer in answers:
        if answer.get("id") in moderated and "nodeStates" in answer:
            answer["nodeStates"] = None
    return with_body(response, body)


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    page = request.query_params.get("page", "")
    if not (page.isdecimal() and int(page) > 1 and faults.is_on("round29-user-questions-later-page-date-string")):
        return response
    body, questions = _items(response)
    for question in questions:
        if isinstance(question.get("creationDate"), int):
            question["creationDate"] = str(question["creationDate"])
    return with_body(response, body) if body is not None else response


def _post_comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    raw = request.path_params.get("node_id", "")
    if response.status_code != 201 or not is_id(raw) or not faults.is_on("round29-wiki-comment-200"):
        return response
    if not svc.db.one("SELECT 1 FROM nodes WHERE id = ? AND wiki = 1", (int(raw),)):
        return response
    headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
    return Response(bytes(response.body), 200, headers=headers)


def _unmark_favorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not (isinstance(result, dict) and result.get("favoriteCount") == 0
            and faults.is_on("round29-last-unfavorite-count-null")):
        return response
    result["favoriteCount"] = None
    return with_body(response, body)


_AFTER = {
    "listAnswerComments": _answer_comments,
    "listUserContent": _user_content,
    "listTopics": _topics,
    "listEarnedExperts": _earned_experts,
    "listGroups": _groups,
    "listUserAnswers": _user_answers,
    "listUserQuestions": _user_questions,
    "postComment": _post_comment,
    "unmarkFavorite": _unmark_favorite,
}
"""Operation -> the rewrite of its response by this round's faults."""
