"""Blind round 18 (issue 44): the planted bugs of faults_blind_round18.py, fifteen must-rules drawn at random, one
fault each, written from the interface description alone. Each is the kind of bug a real server ships: a write made
before the check that refuses it, a fan-out written into the wrong table, a check taken from the sibling code path,
a date read in the other locale on one branch, a serializer that drops zeros, a cache keyed without its author, a
mass-assigned field, an enum map that forgot one option.

Wired through :data:`request_hooks.HOOKS` (one entry): :func:`before` runs once the caller is let in and may call
the handler itself to change what it stored or answered; :func:`after` rewrites the handler's response. Each
function leaves the call alone unless its own fault is on.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import ApiError, bad_request, denied
from .http_io import body_json, json_response, path_id
from .service import Service, now_ms
from .visibility import internal_name

Handler = Callable[[Service, Request, Caller], Awaitable[Response]]

_ANSWER_LISTS: dict[tuple[int, int, str, int], tuple[bytes, int]] = {}
"""blind18-user-answers-cached-for-others: a user's answer list as last served to another caller, keyed by server,
user, query and caller: what the broken server serves again until the author lists its own answers."""


async def _fields(request: Request) -> dict[str, Any]:
    """The body fields and parameters as the handler will read them (the parameter wins); reading the body here
    keeps it for the handler (Starlette serves ``request.stream()`` from the read body)."""
    raw = await request.body()
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    fields: dict[str, Any] = {}
    try:
        if raw.strip() and (media == "application/json" or media.endswith("+json")):
            loaded = json.loads(raw)
            fields = loaded if isinstance(loaded, dict) else {}
        elif raw.strip() and media == "application/x-www-form-urlencoded":
            fields = dict(parse_qsl(raw.decode("utf-8"), keep_blank_values=True))
    except (ValueError, UnicodeDecodeError):
        return {}  # the handler answers the malformed body itself
    fields.update(request.query_params.items())
    return fields


def _node(svc: Service, caller: Caller, request: Request, key: str = "node_id") -> sqlite3.Row | None:
    try:
        return svc.visible_node(caller, path_id(request, key))
    except ApiError:
        return None  # the handler refuses it itself


def _visibility(fields: dict[str, Any]) -> str | None:
    value = fields.get("visibility")
    return internal_name(value) if isinstance(value, str) else None


def _rebuilt(body: Any, response: Response) -> Response:
    location = response.headers.get("location")
    return json_response(body, response.status_code, {"Location": location} if location else None)


def _new_id(response: Response) -> int | None:
    body = body_json(response)
    raw = body.get("id") if isinstance(body, dict) else None
    return int(raw) if isinstance(raw, int | str) and str(raw).isdecimal() else None


# --- before: once the caller is let in -------------------------------------------------------------------------

async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    if op == "postComment":
        return await _post_comment(svc, request, caller, handler)
    if op == "lockNode" and faults.is_on("blind18-lock-comment-needs-own"):
        node = _node(svc, caller, request)
        if node is not None and node["type"] == "comment" and node["author_id"] != caller.id and (
                request.query_params.get("prompt") or "").strip():
            raise denied(caller.anonymous)  # the own-post check of the comment path taken for every caller
    if op == "listSpaces" and "includeOnly" in request.query_params and not caller.can(
            auth.EDIT_USERS_AND_GROUPS) and faults.is_on("blind18-spaces-includeonly-admin-only"):
        raise denied(caller.anonymous)  # the projection branch checks the administrator's permission
    if op == "scheduleGdprJob" and faults.is_on("blind18-gdpr-bulk-formatted-day-first"):
        await _bulk_day_first(svc, request)
    if op == "postAnswer" and faults.is_on("blind18-answer-author-from-body"):
        return await _answer_author_from_body(svc, request, caller, handler)
    if op == "listUserAnswers" and faults.is_on("blind18-user-answers-cached-for-others"):
        return _cached_answers(svc, request, caller)
    return None


async def _post_comment(svc: Service, request: Request, caller: Caller, handler: Handler) -> Response | None:
    names = ("blind18-comment-group-stored-before-403", "blind18-comment-on-wiki-500",
             "blind18-own-answer-comment-default-op", "blind18-answer-comment-op-stored-full")
    if not any(faults.is_on(n) for n in names):
        return None
    fields = await _fields(request)
    parent = _node(svc, caller, request)
    if parent is None:
        return None
    visibility = _visibility(fields)
    if (faults.is_on("blind18-comment-group-stored-before-403") and visibility == "group"
            and parent["type"] == "answer" and caller.can(auth.USE_PRIVATE_COMMENTS)
            and not caller.can(auth.PRIVATE_TO_GROUPS) and isinstance(fields.get("body"), str)):
        _insert_public_comment(svc, caller, parent, fields["body"])  # stored, then the option's check refuses
        raise denied(caller.anonymous, stated_403=True)
    if faults.is_on("blind18-comment-on-wiki-500") and parent["wiki"] and parent["type"] != "comment":
        raise RuntimeError("revision of a community-wiki node has no editor")  # a 500 on wiki parents
    plain = "visibility" not in fields and "recipients" not in fields
    own_answer = parent["type"] == "answer" and parent["author_id"] == caller.id
    if faults.is_on("blind18-own-answer-comment-default-op") and plain and own_answer:
        response = await handler(svc, request, caller)
        _set_visibility(svc, response, "op")  # an author's comment on its own answer taken as a note to the OP
        return response
    if faults.is_on("blind18-answer-comment-op-stored-full") and visibility == "op" and parent["type"] == "answer":
        response = await handler(svc, request, caller)
        _set_visibility(svc, response, "full")  # the answer path's option map lacks "op": stored as full
        return response
    return None


def _insert_public_comment(svc: Service, caller: Caller, parent: sqlite3.Row, body: str) -> None:
    created = now_ms()
    answer_id = parent["id"] if parent["type"] == "answer" else parent["answer_id"]
    with svc.tx("comment") as conn:
        conn.execute(
            "INSERT INTO nodes(type, parent_id, question_id, answer_id, space_id, author_id, body, creation_date,"
            " last_active_date, last_active_user_id, depth, visibility) VALUES"
            " ('comment', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'full')",
            (parent["id"], parent["question_id"], answer_id, parent["space_id"], caller.id, body, created, created,
             caller.id, parent["depth"] + 1),
        )
        conn.execute("UPDATE nodes SET comment_count = comment_count + 1 WHERE id = ?", (parent["id"],))


def _set_visibility(svc: Service, response: Response, visibility: str) -> None:
    comment_id = _new_id(response)
    if response.status_code >= 300 or comment_id is None:
        return
    with svc.tx("comment") as conn:
        conn.execute("UPDATE nodes SET visibility = ? WHERE id = ?", (visibility, comment_id))
        if visibility == "full":
            conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (comment_id,))


_OPERATIONS = frozenset({"suspend", "anonymize", "delete", "anon-delete"})


def _passes_other_checks(svc: Service, fields: dict[str, Any]) -> bool:
    """fix2jobs (issue 44): the day-first reading is the date's step of a bulk job that passed every other check (a
    file that exists, a valid operations list, reassignUser absent or given one way), so a refusal for another error
    keeps its own message and only GDPR-DATE-FORMATTED's path is broken."""
    csv, ops, reassign = fields.get("csvFileId"), fields.get("operations"), fields.get("reassignUser")
    if isinstance(csv, str) and csv.strip().isdecimal():
        csv = int(csv.strip())
    if isinstance(csv, bool) or not isinstance(csv, int) or svc.db.one(
            "SELECT 1 FROM csv_files WHERE id = ?", (csv,)) is None:
        return False
    if not isinstance(ops, list) or not 1 <= len(ops) <= 4 or not set(ops) <= _OPERATIONS:
        return False
    return reassign is None or (isinstance(reassign, dict) and len(reassign) == 1)


async def _bulk_day_first(svc: Service, request: Request) -> None:
    """The bulk branch reads scheduleDate.formatted day first (DD/MM/YYYY, the CSV's locale)."""
    fields = await _fields(request)
    spec = fields.get("scheduleDate")
    if fields.get("type") != "bulk" or not isinstance(spec, dict) or not isinstance(spec.get("formatted"), str):
        return
    if not _passes_other_checks(svc, fields):
        return
    if "scheduleDate" in request.query_params:
        return  # the parameter form goes through the shared parser
    try:
        when = datetime.strptime(spec["formatted"], "%d/%m/%Y %H:%M").replace(tzinfo=UTC)
    except ValueError:
        raise bad_request("The provided 'scheduleDate' is invalid") from None
    body = json.loads(await request.body())
    body["scheduleDate"] = {"formatted": when.strftime("%m/%d/%Y %H:%M")}
    request._body = json.dumps(body).encode()  # noqa: SLF001 - the broken branch rewrites the body it passes on


async def _answer_author_from_body(svc: Service, request: Request, caller: Caller,
                                   handler: Handler) -> Response | None:
    """An author object in the body is mass-assigned onto the new answer (other Node fields may be supplied)."""
    given = (await _fields(request)).get("author")
    raw = given.get("id") if isinstance(given, dict) else None
    if not isinstance(raw, int) or isinstance(raw, bool) or raw == caller.id or not svc.user_exists(raw):
        return None
    response = await handler(svc, request, caller)
    answer_id = _new_id(response)
    if response.status_code >= 300 or answer_id is None:
        return response
    with svc.tx("answer") as conn:
        conn.execute("UPDATE nodes SET author_id = ? WHERE id = ?", (raw, answer_id))
    body = body_json(response)
    if isinstance(body, dict):
        body["author"] = svc.render.author_json(svc.render.users_by_id([raw]).get(raw), raw)
    return _rebuilt(body, response)


def _answers_key(svc: Service, request: Request, caller: Caller) -> tuple[int, int, str, int] | None:
    try:
        user_id = path_id(request, "user_id", "user")
    except ApiError:
        return None
    return id(svc), user_id, str(request.query_params), caller.id


def _cached_answers(svc: Service, request: Request, caller: Caller) -> Response | None:
    key = _answers_key(svc, request, caller)
    if key is None:
        return None
    if key[1] == caller.id:  # the author's own read refreshes the cache of its list
        for stale in [k for k in _ANSWER_LISTS if k[:2] == key[:2]]:
            del _ANSWER_LISTS[stale]
        return None
    kept = _ANSWER_LISTS.get(key)
    if kept is None:
        return None
    return Response(kept[0], status_code=kept[1], media_type="application/json")


# --- after: the handler's response as the broken server serves it ---------------------------------------------

def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code >= 300 or not faults.active():
        return response
    if op == "postComment" and faults.is_on("blind18-question-comment-recipients-add-op"):
        _recipients_add_op(svc, response)
    elif op == "listUserAnswers":
        return _user_answers(svc, request, caller, response)
    elif op in ("sendToModeration", "lockNode", "unmarkFavorite"):
        return _action(svc, op, request, caller, response)
    elif op == "listAnswerComments" and faults.is_on("blind18-answer-comments-later-pages-no-privacy"):
        page = request.query_params.get("page", "1")
        body = body_json(response)
        if page.isdecimal() and int(page) > 1 and isinstance(body, dict) and isinstance(body.get("list"), list):
            for item in body["list"]:
                if isinstance(item, dict):
                    item.pop("visibility", None)  # the later pages are rendered by the 1.x serializer
                    item.pop("recipients", None)
            return _rebuilt(body, response)
    return response


def _recipients_add_op(svc: Service, response: Response) -> None:
    """The notification fan-out of a private comment on a question writes the question's author into the
    comment's recipients."""
    comment_id = _new_id(response)
    row = None if comment_id is None else svc.db.one(
        "SELECT c.id, c.visibility, p.type, p.author_id FROM nodes c JOIN nodes p ON p.id = c.parent_id"
        " WHERE c.id = ?", (comment_id,))
    if row is None or row["visibility"] != "recipients" or row["type"] != "question":
        return
    with svc.tx("comment") as conn:
        conn.execute("INSERT INTO comment_recipients(comment_id, user_id) SELECT ?, ? WHERE NOT EXISTS"
                     " (SELECT 1 FROM comment_recipients WHERE comment_id = ? AND user_id = ?)",
                     (row["id"], row["author_id"], row["id"], row["author_id"]))


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("blind18-user-answers-cached-for-others"):
        key = _answers_key(svc, request, caller)
        if key is not None and key[1] != caller.id and key not in _ANSWER_LISTS:
            _ANSWER_LISTS[key] = (bytes(response.body), response.status_code)
        return response
    if not faults.is_on("blind18-user-answers-astral-replaced"):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    for item in body["list"]:
        for field in ("body", "bodyAsHTML"):
            if isinstance(item, dict) and isinstance(item.get(field), str):
                item[field] = "".join(ch if ord(ch) <= 0xFFFF else "\ufffd" for ch in item[field])  # utf8mb3 index
    return _rebuilt(body, response)


def _action(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not isinstance(result, dict):
        return response
    node = _node(svc, caller, request)
    kind = None if node is None else node["type"]
    if op == "sendToModeration" and kind == "answer" and faults.is_on("blind18-sendtomod-answer-action-null"):
        result["sendToModAction"] = None  # the record looked up under the question's id: not found
    elif op == "lockNode" and kind == "answer" and faults.is_on("blind18-lock-answer-node-type-missing"):
        record = result.get("lockAction")
        if isinstance(record, dict) and isinstance(record.get("node"), dict):
            record["node"].pop("type", None)
    elif op == "unmarkFavorite" and result.get("favoriteCount") == 0 and faults.is_on(
            "blind18-unfavorite-zero-count-omitted"):
        del result["favoriteCount"]  # a serializer that omits zero-valued fields
    else:
        return response
    return _rebuilt(body, response)
