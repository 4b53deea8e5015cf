"""Hooks of blind round 28 (issue 44, faults_blind_round28.py): where its fifteen faults bite, each on its one path.

One ``Hook`` of request_hooks.HOOKS: ``before`` (a handler called with another caller, query or body, or its
response rewritten), ``after`` (a response rewritten) and ``refusal`` (a refusal's body). Every branch tests its
fault with ``faults.is_on`` first, so with none of them on a call passes through untouched.

round28-groups-v1-lists-for-signed-in needs no code here: it is an override of the route table's row (its
``Fault.overrides``), applied by :mod:`access` when the fault is on.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import ApiError, bad_request, denied
from .http_io import body_json, json_response, unmark_items, with_body, with_json_body, with_query
from .service import Service
from .visibility import wire_name

Handler = Callable[[Service, Request, Caller], Awaitable[Response]]

GROUPS_V1 = "round28-groups-v1-lists-for-signed-in"
"""Applied by access.check through the fault's override (faults_blind_round28.py): listed here by name."""

AUTHOR_KEPT_S = 3.0
"""How long round28-comment-author-kept-per-node keeps the acting user of a commented node."""
_authors: dict[int, tuple[float, Caller]] = {}

_FORMATTED = re.compile(r"^\d{2}/\d{2}/\d{4} \d{2}:\d{2}$")
_KNOWN_OPERATIONS = ("suspend", "anonymize", "delete", "anon-delete")


async def _fields(request: Request) -> dict[str, Any]:
    """The request's fields as the handler reads them (a JSON or form body, the parameters winning); the body is
    read once and kept by Starlette for the handler."""
    raw = await request.body()
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    fields: dict[str, Any] = {}
    try:
        if raw.strip() and (media == "application/json" or media.endswith("+json")):
            parsed = json.loads(raw)
            fields = parsed if isinstance(parsed, dict) else {}
        elif raw.strip() and media == "application/x-www-form-urlencoded":
            fields = dict(parse_qsl(raw.decode("utf-8"), keep_blank_values=True))
    except (ValueError, UnicodeDecodeError):
        return {}
    fields.update(request.query_params.items())
    return fields


def _structured(value: Any) -> Any:
    if isinstance(value, str) and value.strip()[:1] in ("{", "["):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    if not any(name.startswith("round28-") for name in faults.active()):
        return None
    if op == "postComment":
        return await _comment(svc, request, caller, handler)
    if op == "scheduleGdprJob":
        return await _job(request, caller, svc, handler)
    if op == "listQuestions" and faults.is_on("round28-questions-search-refused-novice") and caller.role == "novice" \
            and request.query_params.get("q", "").strip():
        raise denied(caller.anonymous)  # search held back from the lowest role
    if op == "cancelWiki" and faults.is_on("round28-cancelwiki-contributor-owns-question"):
        return await _cancelwiki_contributor(svc, request, caller, handler)
    if op == "listUserAnswers" and faults.is_on("round28-user-answers-sorted-page-ignored") \
            and request.query_params.get("sort") and _later_page(request.query_params.get("page", "")):
        asked = int(request.query_params["page"])
        first = with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "page"])
        page = await handler(svc, first, caller)
        body = body_json(page)
        if page.status_code == 200 and isinstance(body, dict):
            body["page"] = asked  # the page asked, echoed over the first page served
            return with_body(page, body)
        return page
    return None


def _later_page(raw: str) -> bool:
    return raw.isascii() and raw.isdecimal() and len(raw) < 9 and int(raw) > 1


async def _comment(svc: Service, request: Request, caller: Caller, handler: Handler) -> Response | None:
    node_id = request.path_params.get("node_id", "")
    if faults.is_on("round28-comment-author-kept-per-node") and node_id.isdecimal() and not caller.anonymous:
        kept = _authors.get(int(node_id))
        if kept is not None and time.monotonic() - kept[0] < AUTHOR_KEPT_S:
            return await handler(svc, request, kept[1])  # the acting user of the node's last comment
        _authors[int(node_id)] = (time.monotonic(), caller)
        return None
    if faults.is_on("round28-reply-to-reply-not-inherited") and node_id.isdecimal():
        return await _reply_to_reply(svc, request, caller, handler, int(node_id))
    return None


async def _reply_to_reply(svc: Service, request: Request, caller: Caller, handler: Handler,
                          node_id: int) -> Response | None:
    """A reply to a private reply, sent without privacy fields, stored with full visibility."""
    parent = svc.db.one("SELECT n.type, n.visibility, p.type AS up FROM nodes n LEFT JOIN nodes p"
                        " ON p.id = n.parent_id WHERE n.id = ?", (node_id,))
    if parent is None or parent["type"] != "comment" or parent["up"] != "comment" or parent["visibility"] == "full":
        return None
    fields = await _fields(request)
    if "visibility" in fields or "recipients" in fields:
        return None
    newest = svc.db.one("SELECT MAX(id) FROM nodes", ())
    response = await handler(svc, request, caller)
    if response.status_code not in (200, 201):
        return response
    row = svc.db.one("SELECT id FROM nodes WHERE parent_id = ? AND type = 'comment' AND id > ?"
                     " ORDER BY id DESC LIMIT 1", (node_id, newest[0] if newest else 0))
    if row is None:
        return response
    with svc.tx("comment") as conn:
        conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (row["id"],))
        conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (row["id"],))
    body = body_json(response)
    if isinstance(body, dict) and "visibility" in body:
        shown = wire_name("full")
        if shown is None:
            body.pop("visibility", None)
            body.pop("recipients", None)
        else:
            body["visibility"] = shown
            body["recipients"] = []
        return with_body(response, body)
    return response


async def _job(request: Request, caller: Caller, svc: Service, handler: Handler) -> Response | None:
    fields = await _fields(request)
    user = _structured(fields.get("user"))
    date = _structured(fields.get("scheduleDate"))
    if faults.is_on("round28-gdpr-email-user-with-timestamp-refused") and fields.get("type") == "individual" \
            and isinstance(user, dict) and user.get("email") not in (None, "") and isinstance(date, dict) \
            and date.get("timeStamp") not in (None, "") and date.get("formatted") is None:
        raise bad_request("The provided 'user' is invalid")  # the timeStamp branch looks users up by name or id
    if faults.is_on("round28-gdpr-past-formatted-compared-as-text") and isinstance(date, dict):
        return await _past_as_text(svc, request, caller, handler, date)
    if faults.is_on("round28-gdpr-operations-query-lenient") and "operations" in request.query_params:
        return await _lenient_operations(svc, request, caller, handler)
    if faults.is_on("round28-gdpr-anon-delete-jobid-renamed"):
        operations = _structured(fields.get("operations"))
        if isinstance(operations, str):
            operations = [o.strip() for o in operations.split(",")]
        response = await handler(svc, request, caller)
        body = body_json(response)
        if response.status_code == 201 and isinstance(operations, list) and "anon-delete" in operations \
                and isinstance(body, dict) and "jobId" in body:
            return with_body(response, {"jobID": body["jobId"]})
        return response
    return None


async def _past_as_text(svc: Service, request: Request, caller: Caller, handler: Handler,
                        date: dict[str, Any]) -> Response | None:
    """A past formatted date whose text sorts after now's: scheduled (as the same day and time a year ahead)."""
    formatted = date.get("formatted")
    if not isinstance(formatted, str) or not _FORMATTED.match(formatted):
        return None
    try:
        when = datetime.strptime(formatted, "%m/%d/%Y %H:%M").replace(tzinfo=UTC)
    except ValueError:
        return None
    now = datetime.now(UTC)
    if when >= now or formatted <= now.strftime("%m/%d/%Y %H:%M"):
        return None
    try:
        ahead = when.replace(year=now.year + 1).strftime("%m/%d/%Y %H:%M")
    except ValueError:
        return None
    body = json.loads(await request.body()) if request.headers.get("content-type", "").startswith(
        "application/json") else None
    if isinstance(body, dict) and isinstance(body.get("scheduleDate"), dict) and "scheduleDate" not in \
            request.query_params:
        return await handler(svc, with_json_body(request, {**body, "scheduleDate": {"formatted": ahead}}), caller)
    return None


async def _lenient_operations(svc: Service, request: Request, caller: Caller, handler: Handler) -> Response | None:
    """operations as a parameter: the known names kept (at most 4) when any is known."""
    raw = _structured(request.query_params["operations"])
    names = raw if isinstance(raw, list) else [o.strip() for o in str(raw).split(",")]
    kept = list(dict.fromkeys(o for o in names if isinstance(o, str) and o in _KNOWN_OPERATIONS))[:4]
    if not kept:
        return None
    pairs = [(k, v) for k, v in request.query_params.multi_items() if k != "operations"]
    return await handler(svc, with_query(request, [*pairs, ("operations", json.dumps(kept))]), caller)


async def _cancelwiki_contributor(svc: Service, request: Request, caller: Caller, handler: Handler) -> Response | None:
    """A member unwikifying another's question it answered or commented on (a contributor taken for its owner): let
    in as if it held Mark as community wiki."""
    node_id = request.path_params.get("node_id", "")
    if caller.can(auth.MARK_WIKI) or not caller.can(auth.CONVERT_OWN_TO_WIKI) or not node_id.isdecimal():
        return None
    row = svc.db.one("SELECT type, author_id FROM nodes WHERE id = ?", (int(node_id),))
    if row is None or row["type"] != "question" or row["author_id"] == caller.id:
        return None
    if svc.db.one("SELECT 1 FROM nodes WHERE question_id = ? AND id <> ? AND author_id = ? LIMIT 1",
                  (int(node_id), int(node_id), caller.id)) is None:
        return None
    wider = dataclasses.replace(caller, permissions=caller.permissions | {auth.MARK_WIKI})
    return await handler(svc, request, wider)


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code not in (200, 201) or not any(n.startswith("round28-") for n in faults.active()):
        return response
    if op == "lockNode" and faults.is_on("round28-lock-own-record-no-avatar") and not caller.can(auth.LOCK_ANY):
        return _rewritten(response, _drop_avatar)
    if op == "sendToModeration" and faults.is_on("round28-sendtomod-comment-verb"):
        return _rewritten(response, _comment_verb)
    if op == "listQuestions" and faults.is_on("round28-search-questions-unmarked") \
            and request.query_params.get("q", "").strip():
        return _rewritten(response, unmark_items)
    if op == "postAnswer" and faults.is_on("round28-moderated-answer-author-no-reputation") \
            and response.status_code == 201 and not caller.can(auth.PUBLISH_ANSWER):
        return _rewritten(response, _no_reputation)
    return response


def _rewritten(response: Response, change: Callable[[Any], bool]) -> Response:
    body = body_json(response)
    if body is None or not change(body):
        return response
    return with_body(response, body)


def _drop_avatar(body: Any) -> bool:
    user = ((body.get("result") or {}).get("lockAction") or {}).get("user") if isinstance(body, dict) else None
    if isinstance(user, dict) and "avatarUrl" in user:
        del user["avatarUrl"]
        return True
    return False


def _comment_verb(body: Any) -> bool:
    action = (body.get("result") or {}).get("sendToModAction") if isinstance(body, dict) else None
    if isinstance(action, dict) and (action.get("node") or {}).get("type") == "comment":
        action["verb"] = "commentSent"
        return True
    return False


def _no_reputation(body: Any) -> bool:
    author = body.get("author") if isinstance(body, dict) else None
    if isinstance(author, dict) and "reputation" in author:
        del author["reputation"]
        return True
    return False


def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    """The group list refused to a moderator: its body's errors as a list."""
    if op != "listGroups" or exc.status not in (401, 403) or not faults.is_on(
            "round28-groups-denied-moderator-errors-list"):
        return None
    try:
        who = caller or svc.caller(request)
    except ApiError:
        return None
    errors = exc.body.get("errors")
    if who.role != "moderator" or not isinstance(errors, dict):
        return None
    return json_response({"errors": [errors]}, exc.status, exc.headers)
