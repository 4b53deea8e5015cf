"""Where the faults of blind round 39 bite (:mod:`faults_blind_round39`, issue 44): each hook leaves the call as it
is unless its own fault is on, and then breaks one stated rule on one path only (one relation, one node kind, one
parameter combination, one input form, one history, one order of reads). Wired into every call by
:data:`request_hooks.HOOKS` (``round39``).
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
from .bodies import read_fields, structured
from .errors import ApiError, bad_request, denied
from .fragments import JSON_TYPE
from .http_io import body_json, json_response, parse_bool, projects, with_body, with_query, with_raw_body
from .service import Service
from .visibility import internal_name

Handler = Any
"""The handler of the row (request_hooks.Handler; typed loosely here to keep the import graph one-way)."""

_KEPT_S = 2.0
"""How long round39-user-answers-kept-by-query keeps a user's answer list."""
_kept: dict[tuple[int, str], tuple[float, str, bytes]] = {}


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    """A response in place of the handler's, or a refusal, on the one path of a fault that is on; None otherwise."""
    if op == "scheduleGdprJob":
        return await _job(request)
    if op == "postComment" and faults.is_on("round39-recipient-reply-op-visibility-dropped"):
        return await _recipient_reply(svc, request, caller, handler)
    if op == "postComment" and faults.is_on("round39-kind-recipient-reply-400-message-other"):
        await _recipient_reply_refused(svc, request, caller)
    if op == "listNodeFollowers" and faults.is_on("round39-followers-details-novice-refused"):
        if caller.role == "novice" and _details(request):
            raise denied(caller.anonymous)
    if op == "cancelWiki" and faults.is_on("round39-cancelwiki-own-by-contribution"):
        return await _contributor_unwikifies(svc, request, caller, handler)
    if op == "listActiveExperts" and faults.is_on("round39-active-experts-recent-sized-by-reputation"):
        q = request.query_params
        if q.get("sort") == "recent" and q.get("pageSize"):
            pairs = [(k, "reputation" if k == "sort" else v) for k, v in q.multi_items()]
            page = await handler(svc, with_query(request, pairs), caller)
            body = body_json(page)
            if page.status_code == 200 and isinstance(body, dict):
                body["sort"] = "recent"  # the echo of the sort asked for; the order is reputation's
                return with_body(page, body)
            return page
    return None


def _details(request: Request) -> bool:
    try:
        return parse_bool(request.query_params, "details", False)
    except ApiError:
        return False


async def _job(request: Request) -> Response | None:
    """The job faults: the form-encoded body refused, two operations taken as overlapping, an email user refused
    beside a timestamp."""
    form = request.headers.get("content-type", "").split(";")[0].strip().lower() == "application/x-www-form-urlencoded"
    if form and faults.is_on("round39-gdpr-form-body-415"):
        raise ApiError(415, {"error": "unsupported Content-Type 'application/x-www-form-urlencoded'; send the job as"
                                      " application/json"})
    overlap = faults.is_on("round39-gdpr-anonymize-with-anon-delete-refused")
    by_email = faults.is_on("round39-gdpr-email-user-with-timestamp-refused")
    if not (overlap or by_email):
        return None
    await request.body()  # kept by Starlette: the handler reads the same bytes again
    fields = await read_fields(request)
    operations = structured(fields, "operations")
    if isinstance(operations, str):
        operations = [o.strip() for o in operations.split(",")]
    if overlap and isinstance(operations, list) and "anonymize" in operations and "anon-delete" in operations:
        raise bad_request("The provided 'operations' is/are invalid")
    user = structured(fields, "user")
    date = structured(fields, "scheduleDate")
    if (by_email and fields.get("type") == "individual" and isinstance(user, dict)
            and user.get("email") not in (None, "") and isinstance(date, dict)
            and date.get("formatted") is None and date.get("timeStamp") not in (None, "")):
        raise bad_request("The provided 'user' is invalid")
    return None


async def _received_private_parent(svc: Service, request: Request, caller: Caller) -> tuple[str, str] | None:
    """(the parent's visibility, the one the reply asks for) when the caller replies to a comment private to
    recipients that it received (a recipient, not the author) asking for a visibility; None otherwise."""
    raw_id = request.path_params.get("node_id", "")
    parent = svc.db.one("SELECT * FROM nodes WHERE id = ?", (int(raw_id),)) if str(raw_id).isdecimal() else None
    if parent is None or parent["type"] != "comment" or parent["visibility"] != "recipients":
        return None
    if caller.anonymous or caller.id == parent["author_id"] or svc.db.one(
            "SELECT 1 FROM comment_recipients WHERE comment_id = ? AND user_id = ?", (parent["id"], caller.id)) is None:
        return None
    await request.body()
    wire = (await read_fields(request)).get("visibility")
    asked = internal_name(wire) if isinstance(wire, str) else None
    return None if asked is None else (str(parent["visibility"]), asked)


async def _recipient_reply_refused(svc: Service, request: Request, caller: Caller) -> None:
    """round39-kind-recipient-reply-400-message-other: a recipient's reply with another visibility (an option it
    holds) refused 400 with a message of its own, not the inherited one."""
    found = await _received_private_parent(svc, request, caller)
    if found is None or found[1] == found[0]:
        return
    holds = found[1] == "full" or (caller.can(auth.USE_PRIVATE_COMMENTS) and found[1] in auth.PRIVATE_OPTION_PERMISSION
                                   and caller.can(auth.PRIVATE_OPTION_PERMISSION[found[1]]))
    if holds:
        raise bad_request("A comment you received can only be answered with the visibility it was sent with")


async def _recipient_reply(svc: Service, request: Request, caller: Caller, handler: Handler) -> Response | None:
    """round39-recipient-reply-op-visibility-dropped: a recipient's reply "to the original poster" under a comment
    private to recipients: the visibility is dropped (and the reply inherits) instead of the 400."""
    found = await _received_private_parent(svc, request, caller)
    if found is None or found[1] != "op":
        return None
    dropped = ("visibility", "recipients")
    changed = with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k not in dropped])
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    raw = await request.body()
    if raw.strip() and media == "application/json":
        body = json.loads(raw)
        changed = with_raw_body(changed, json.dumps({k: v for k, v in body.items() if k not in dropped}).encode())
    elif raw.strip() and media == "application/x-www-form-urlencoded":
        pairs = [(k, v) for k, v in parse_qsl(raw.decode("utf-8"), keep_blank_values=True) if k not in dropped]
        changed = with_raw_body(changed, urlencode(pairs).encode())
    response: Response = await handler(svc, changed, caller)
    return response


async def _contributor_unwikifies(svc: Service, request: Request, caller: Caller,
                                  handler: Handler) -> Response | None:
    """round39-cancelwiki-own-by-contribution: a wiki question another wrote, unwikified by a caller with only
    Convert own posts because it answered or commented under it."""
    if caller.anonymous or caller.can(auth.MARK_WIKI) or not caller.can(auth.CONVERT_OWN_TO_WIKI):
        return None
    raw_id = request.path_params.get("node_id", "")
    node = svc.db.one("SELECT * FROM nodes WHERE id = ?", (int(raw_id),)) if str(raw_id).isdecimal() else None
    if node is None or node["type"] != "question" or node["author_id"] == caller.id or not node["wiki"]:
        return None
    if svc.db.one("SELECT 1 FROM nodes WHERE question_id = ? AND id <> ? AND author_id = ?"
                  " AND type IN ('answer', 'comment')", (node["id"], node["id"], caller.id)) is None:
        return None
    contributor = dataclasses.replace(caller, permissions=caller.permissions | {auth.MARK_WIKI})
    response: Response = await handler(svc, request, contributor)
    return response


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The handler's response as the broken server serves it, on the one path of a fault that is on."""
    if response.status_code != 200:
        return response
    q = request.query_params
    if op == "lockNode" and faults.is_on("round39-lock-prompt-quote-unescaped"):
        return _lock_templated(q.get("prompt") or "", response)
    if op == "listGroups" and faults.is_on("round39-groups-sorted-page-echo-one") and q.get("page") and q.get("sort"):
        body = body_json(response)
        if isinstance(body, dict):
            body["page"] = 1
            return with_body(response, body)
    if op == "listNodeFollowers":
        return _followers(svc, request, response)
    if op == "listActiveExperts" and faults.is_on("round39-active-experts-novice-role-flags-dropped"):
        if caller.role == "novice" and not projects(q):
            body = body_json(response)
            if isinstance(body, dict):
                for item in body.get("list") or []:
                    item.pop("moderator", None)
                    item.pop("superuser", None)
                return with_body(response, body)
    if op == "sendToModeration" and faults.is_on("round39-sendtomod-comment-record-names-parent"):
        return _sendtomod_record(svc, request, response)
    if op == "listAnswerComments" and faults.is_on("round39-private-comment-listed-after-recipient-reply"):
        return _replied_private_listed(svc, request, caller, response)
    if op == "listUserAnswers" and faults.is_on("round39-user-answers-kept-by-query"):
        return _kept_by_query(request, caller, response)
    return response


def _lock_templated(prompt: str, response: Response) -> Response:
    """The lock's 200 as a string template writes it: the prompt pasted into extra as it came."""
    body = body_json(response)
    if not ('"' in prompt or "\\" in prompt) or not isinstance(body, dict):
        return response
    action = (body.get("result") or {}).get("lockAction")
    if not isinstance(action, dict):
        return response
    action["extra"] = "\x00round39\x00"
    text = json.dumps(body).replace(json.dumps("\x00round39\x00"), '"' + prompt + '"')
    headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-type")}
    return Response(text.encode("utf-8"), 200, headers=headers, media_type=JSON_TYPE)


def _followers(svc: Service, request: Request, response: Response) -> Response:
    """The follower list's two faults: pages of all relations counted from the active ones; an answer's followers
    served bare."""
    q = request.query_params
    body = body_json(response)
    if not isinstance(body, dict):
        return response
    raw_id = request.path_params.get("node_id", "")
    node_id = int(raw_id) if str(raw_id).isdecimal() else -1
    if faults.is_on("round39-answer-followers-bare-array"):
        node = svc.db.one("SELECT type FROM nodes WHERE id = ?", (node_id,))
        if node is not None and node["type"] == "answer":
            return json_response(body.get("list") or [])
    if faults.is_on("round39-followers-all-pagecount-of-active") and (q.get("active") or "").lower() in ("false",
                                                                                                          "0"):
        active = svc.db.count("SELECT COUNT(*) FROM follows WHERE node_id = ? AND active = 1", (node_id,))
        size = body.get("pageSize")
        if isinstance(size, int) and size > 0:
            body["pageCount"] = -(-active // size) if active else 0
            return with_body(response, body)
    return response


def _sendtomod_record(svc: Service, request: Request, response: Response) -> Response:
    raw_id = request.path_params.get("node_id", "")
    node = svc.db.one("SELECT type, parent_id FROM nodes WHERE id = ?", (int(raw_id),)) if str(
        raw_id).isdecimal() else None
    if node is None or node["type"] != "comment":
        return response
    parent = svc.db.one("SELECT id, type FROM nodes WHERE id = ?", (node["parent_id"],))
    body = body_json(response)
    action = ((body or {}).get("result") or {}).get("sendToModAction") if isinstance(body, dict) else None
    if parent is None or not isinstance(action, dict):
        return response
    action["node"] = {"id": int(parent["id"]), "type": str(parent["type"])}
    return with_body(response, body)


def _replied_private_listed(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """round39-private-comment-listed-after-recipient-reply: the first page of an answer's comments also holds the
    comments private to recipients that a recipient has replied to, whoever reads."""
    q = request.query_params
    if (q.get("page") or "1") != "1" or projects(q):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    raw_id = request.path_params.get("answer_id", "")
    answer_id = int(raw_id) if str(raw_id).isdecimal() else -1
    seen, params = svc.visibility.comment_clause(caller, "n")
    leaked = svc.db.ids(
        "SELECT n.id FROM nodes n WHERE n.answer_id = ? AND n.type = 'comment' AND n.visibility = 'recipients'"
        f" AND NOT {seen} AND EXISTS (SELECT 1 FROM nodes c JOIN comment_recipients r ON r.comment_id = n.id"
        " AND r.user_id = c.author_id WHERE c.parent_id = n.id AND c.type = 'comment') ORDER BY n.id",
        [answer_id, *params],
    )
    shown = {item.get("id") for item in body["list"] if isinstance(item, dict)}
    leaked = [i for i in leaked if i not in shown]
    if not leaked:
        return response
    given = body.get("pageSize")
    size = given if isinstance(given, int) else len(body["list"])
    room = max(size - len(body["list"]), 0)
    body["list"] += svc.render.nodes_json(svc.render.nodes_by_ids(leaked[:room]), caller)
    body["listCount"] = len(body["list"])
    total = int(body.get("totalCount") or 0) + len(leaked)
    body["totalCount"] = total
    body["pageCount"] = -(-total // size) if size else body.get("pageCount")
    return with_body(response, body)


def _kept_by_query(request: Request, caller: Caller, response: Response) -> Response:
    """round39-user-answers-kept-by-query: a user's answer list kept per caller and query string (the path's user
    id left out of the key)."""
    key = (caller.id, request.url.query)
    user = str(request.path_params.get("user_id", ""))
    now = time.monotonic()
    kept = _kept.get(key)
    if kept is not None and now - kept[0] < _KEPT_S and kept[1] != user:
        return Response(kept[2], 200, media_type=JSON_TYPE)
    _kept[key] = (now, user, bytes(response.body))
    return response
