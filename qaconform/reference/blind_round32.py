"""Where the faults of blind round 32 (issue 44, faults_blind_round32.py) bite: each function leaves the call as it
is unless its own fault is on, and each breaks one stated rule on one path only (one read order, one wrong
password form, one thread, one body form, one type value, one search, one node state, one node kind, one relation,
one sort name, one user form).

Wired in request_hooks.HOOKS (``before``, ``admitted``, ``after``) and by one-line calls in the handlers
(comments, answers' form body, gdpr_jobs, node_lists, site_lists, actions, planted).
"""

from __future__ import annotations

import base64
import binascii
import json
import sqlite3
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller, verify_password
from .errors import ApiError, bad_request, denied
from .http_io import body_json, json_response, with_body, with_query
from .render import textual_date

if TYPE_CHECKING:
    from .service import Service

Handler = Any

WIKI_KEPT_S = 5.0
"""How long round32-wiki-flag-cached-5s keeps a question's wiki flag once read."""
IDS_KEPT_S = 2.0
"""How long round32-user-answers-commentids-cached keeps an answer's commentIds and childrenIds once read."""

_wiki_seen: dict[int, tuple[float, Any]] = {}
_ids_seen: dict[int, tuple[float, Any, Any]] = {}

EXPERT_LISTS = ("listActiveExperts", "listEarnedExperts")


# --- request_hooks stages ----------------------------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, _handler: Handler) -> Response | None:
    """A novice's topic search refused; a comment's JSON body read ahead (so that ``admitted`` can see its keys)."""
    if op == "listTopics" and "q" in request.query_params and caller.role == "novice" and faults.is_on(
            "round32-topics-search-novice-denied"):
        raise denied(caller.anonymous)  # the search branch asks for a permission of its own
    if op == "postComment" and faults.is_on("round32-comment-param-overrides-only-body-keys"):
        await request.body()  # Starlette keeps it: the handler's stream reads the same bytes
    return None


def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    """round32-comment-param-overrides-only-body-keys: with a non-empty JSON body, a request parameter only
    overrides a field the body holds; a field given only as a parameter is dropped."""
    if op != "postComment" or not faults.is_on("round32-comment-param-overrides-only-body-keys"):
        return request
    if not request.headers.get("content-type", "").lower().startswith("application/json"):
        return request
    try:
        sent = json.loads(vars(request).get("_body") or b"")
    except ValueError:
        return request
    if not isinstance(sent, dict) or not sent:
        return request
    return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k in sent])


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 200:
        return response
    if op in ("listQuestions", "listUserQuestions") and faults.is_on("round32-wiki-flag-cached-5s"):
        return _wiki_cached(response)
    if op == "listUserAnswers" and faults.is_on("round32-user-answers-commentids-cached"):
        return _ids_cached(response)
    if op == "sendToModeration" and faults.is_on("round32-sendtomod-comment-202"):
        body = body_json(response)
        action = (body.get("result") or {}).get("sendToModAction") if isinstance(body, dict) else None
        if isinstance(action, dict) and (action.get("node") or {}).get("type") == "comment":
            return json_response(body, 202)  # a comment goes to an asynchronous moderation queue
    return response


def _wiki_cached(response: Response) -> Response:
    """round32-wiki-flag-cached-5s: each question's wiki flag as the first read of the last 5 s saw it (a field
    cache that cancel wiki does not invalidate)."""
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    if not isinstance(items, list):
        return response
    now = time.monotonic()
    for item in items:
        if not isinstance(item, dict) or "wiki" not in item or not isinstance(item.get("id"), int):
            continue
        kept = _wiki_seen.get(item["id"])
        if kept is not None and now - kept[0] < WIKI_KEPT_S:
            item["wiki"] = kept[1]
        else:
            _wiki_seen[item["id"]] = (now, item["wiki"])
    return with_body(response, body)


def _ids_cached(response: Response) -> Response:
    """round32-user-answers-commentids-cached: an answer's commentIds and childrenIds as the first reader of the
    last 2 s saw them, whoever reads next (a per-node children cache that ignores who is reading)."""
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    if not isinstance(items, list):
        return response
    now = time.monotonic()
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int) or "commentIds" not in item:
            continue
        kept = _ids_seen.get(item["id"])
        if kept is not None and now - kept[0] < IDS_KEPT_S:
            item["commentIds"] = kept[1]
            if "childrenIds" in item:
                item["childrenIds"] = kept[2]
        else:
            _ids_seen[item["id"]] = (now, item["commentIds"], item.get("childrenIds"))
    return with_body(response, body)


# --- one-line hooks in the handlers ------------------------------------------------------------------------
def experts_password_any_case(svc: Service, op: str, request: Request) -> Caller | None:
    """round32-experts-password-case-insensitive: the expert lists compare the password without regard to letter
    case (a wrong password that differs from the right one only by case lets its account in); None otherwise."""
    if op not in EXPERT_LISTS or not faults.is_on("round32-experts-password-case-insensitive"):
        return None
    header = request.headers.get("authorization") or ""
    try:
        decoded = base64.b64decode(header.partition(" ")[2].strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    username, sep, password = decoded.partition(":")
    row = svc.db.one("SELECT password_hash FROM users WHERE username = ?", (username,))
    if not sep or row is None or not verify_password(password.lower(), row["password_hash"]):
        return None
    return svc.authenticator.named(header)


def inherited_refusal(parent: sqlite3.Row) -> None:
    """round32-inherited-message-question-thread: the 400 of comment rule 4 under a private comment on a question
    (a thread under no answer) carries another message."""
    if parent["answer_id"] is None and faults.is_on("round32-inherited-message-question-thread"):
        raise bad_request("The visibility of a reply can't be changed")


def type_refusal(kind: Any) -> None:
    """round32-gdpr-unknown-type-errors-body: a type value that is neither bulk nor individual is refused by the
    enum binding, with the permission-style body {errors: {message}} instead of {error}."""
    if kind is not None and faults.is_on("round32-gdpr-unknown-type-errors-body"):
        raise ApiError(400, {"errors": {"message": f"Cannot bind 'type' to {str(kind)[:40]!r}"}})


def content_date(row: sqlite3.Row, shown: str) -> str:
    """round32-content-moderated-answer-date-textual: an answer still in moderation comes from the moderation
    queue, whose dates are textual."""
    if row["type"] == "answer" and row["in_moderation"] and faults.is_on(
            "round32-content-moderated-answer-date-textual"):
        return textual_date(row["creation_date"])
    return shown


def lock_owner(db: Any, node: sqlite3.Row, caller: Caller) -> bool:
    """round32-lock-own-as-recipient: "own" read as "a party of the comment": a recipient of a private comment
    may lock it with Lock comments on own posts."""
    if node["type"] != "comment" or not faults.is_on("round32-lock-own-as-recipient"):
        return False
    return db.one("SELECT 1 FROM comment_recipients WHERE comment_id = ? AND user_id = ?",
                  (node["id"], caller.id)) is not None


def form_fields(path: str, text: str, fields: dict[str, Any]) -> dict[str, Any]:
    """round32-answer-form-plus-kept: an answer's form body decoded without turning '+' into a space."""
    if path.endswith("/answer.json") and faults.is_on("round32-answer-form-plus-kept"):
        return dict(parse_qsl(text.replace("+", "%2B"), keep_blank_values=True))
    return fields


def lock_record(key: str, node: sqlite3.Row, action: dict[str, Any]) -> None:
    """round32-lock-answer-user-no-avatar: the lock record of an answer carries its user without avatarUrl."""
    if key == "lockAction" and node["type"] == "answer" and faults.is_on("round32-lock-answer-user-no-avatar"):
        user = action.get("user")
        if isinstance(user, dict):
            user.pop("avatarUrl", None)


def earned_order(query: Any) -> str | None:
    """round32-earned-experts-username-unsorted: the earned expert list echoes sort=username but keeps the default
    order (None: the sort's own order)."""
    if query.get("sort") == "username" and faults.is_on("round32-earned-experts-username-unsorted"):
        return "reputation DESC, id DESC"
    return None


def reassign_refused(user: Any, reassign: Any) -> bool:
    """round32-gdpr-reassign-username-with-user-email: with the job's user given by email, a reassignUser given by
    username is looked up in the email column (the user's lookup key reused) and so found nowhere."""
    if not faults.is_on("round32-gdpr-reassign-username-with-user-email"):
        return False
    by_email = isinstance(user, dict) and user.get("email") not in (None, "")
    by_name = isinstance(reassign, dict) and reassign.get("username") not in (None, "")
    return by_email and by_name


def locked_answer_privacy(parent: sqlite3.Row, visibility: str, recipients: list[int]) -> tuple[str, list[int]]:
    """round32-private-comment-under-locked-answer-public: a comment private to recipients posted on a locked
    answer goes through the locked thread's plain path and is stored with full visibility."""
    if (parent["type"] == "answer" and parent["locked"] and visibility == "recipients"
            and faults.is_on("round32-private-comment-under-locked-answer-public")):
        return "full", []
    return visibility, recipients
