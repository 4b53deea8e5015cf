"""Where the planted faults of blind round 38 bite (faults_blind_round38.py): the hooks around a call (one
``request_hooks.Hook``) and the small checks the server modules call at one place each. Every function leaves the
call as it is unless its own fault is on (``faults.is_on``).

Why a module of its own: each fault is a vendor's plausible bug on ONE path (one caller relation, one parameter
combination, one node kind or state, one order of reads), and keeping them together keeps the server modules to one
line per hook.
"""

from __future__ import annotations

import json
import sqlite3
import time
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .db import Database
from .errors import ApiError, bad_request, denied
from .http_io import json_response
from .listing import Paging, envelope
from .service import Service
from .visibility import internal_name

Handler = Any

# --- around the call (request_hooks) ---------------------------------------------------------------------------
_ISSUE_TYPES_KEPT_S = 3.0
"""How long the tracker cache of round38-issuetypes-enveloped-from-cache serves the enveloped list."""
_issue_types_read: list[float] = []
_EXPERTS_KEPT_S = 1.0
"""How long round38-earned-experts-cached-for-anonymous keeps an earned expert list by URL."""
_experts_by_url: dict[str, tuple[float, bytes]] = {}


async def before(svc: Service, op: str, request: Request, caller: Caller, _h: Handler) -> Response | None:
    """round38-topics-search-anonymous-refused: the search branch of the topic list wants a session."""
    if (op == "listTopics" and caller.anonymous and request.query_params.get("q")
            and faults.is_on("round38-topics-search-anonymous-refused")):
        raise denied(anonymous=True)
    return None


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The list rewrites of the round, each on its one path."""
    if response.status_code != 200:
        return response
    if op == "listUserQuestions" and faults.is_on("round38-own-questions-no-sorts"):
        if str(request.path_params.get("user_id")) == str(caller.id):
            body = json.loads(bytes(response.body))
            body.pop("sorts", None)
            return json_response(body)
    if op == "listAnswerComments" and faults.is_on("round38-recipients-trimmed-to-reader"):
        return _recipients_trimmed(caller, response)
    if op == "listAnswerComments" and faults.is_on("round38-kind-reply-recipients-first-only"):
        return _recipients_trimmed(caller, response, answer=str(request.path_params.get("answer_id")))
    if op == "listIssueTypes" and faults.is_on("round38-issuetypes-enveloped-from-cache"):
        return _issue_types_from_cache(response)
    if (op == "listEarnedExperts" and not caller.anonymous
            and faults.is_on("round38-earned-experts-cached-for-anonymous")):
        _experts_by_url[str(request.url)] = (time.monotonic(), bytes(response.body))
    return response


def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    """round38-earned-experts-cached-for-anonymous: a read without credentials served from the URL's cache."""
    if (op != "listEarnedExperts" or exc.status != 401 or "authorization" in request.headers
            or not faults.is_on("round38-earned-experts-cached-for-anonymous")):
        return None
    kept = _experts_by_url.get(str(request.url))
    if kept is None or time.monotonic() - kept[0] >= _EXPERTS_KEPT_S:
        return None
    return Response(kept[1], media_type="application/json")


def _recipients_trimmed(caller: Caller, response: Response, answer: str | None = None) -> Response:
    """A private comment's recipients as a reader who is one of them, not its author, gets them: only itself; or
    (``answer`` given, round38-kind-reply-recipients-first-only) on a reply only (a parent that is not the answer),
    only the first of them."""
    body = json.loads(bytes(response.body))
    changed = False
    for item in body.get("list") or []:
        recipients = item.get("recipients")
        author = (item.get("author") or {}).get("id")
        if not isinstance(recipients, list) or len(recipients) < 2 or author == caller.id:
            continue
        if answer is not None and str(item.get("parentId")) in ("None", answer):
            continue
        mine = [r for r in recipients if isinstance(r, dict) and str(r.get("id")) == str(caller.id)]
        if answer is not None and mine:
            mine = sorted(recipients, key=lambda r: str(r.get("id") if isinstance(r, dict) else r))[:1]
        if mine:
            item["recipients"] = mine
            changed = True
    return json_response(body) if changed else response


def _issue_types_from_cache(response: Response) -> Response:
    now = time.monotonic()
    fresh = bool(_issue_types_read) and now - _issue_types_read[-1] < _ISSUE_TYPES_KEPT_S
    _issue_types_read[:] = [now]
    if not fresh:
        return response
    types = json.loads(bytes(response.body))
    if not isinstance(types, list):
        return response
    return json_response(envelope(types, len(types), Paging(1, max(len(types), 1)), "", {}))


# --- in the handlers --------------------------------------------------------------------------------------------
def action_record(key: str, row: sqlite3.Row, node: sqlite3.Row, action: dict[str, Any]) -> None:
    """The record of one action as two of the round's faults build it: a cancel by someone else than the author
    dated without its zone; a comment sent to moderation named by its parent."""
    if (key == "wikifyAction" and row["canceled_by"] is not None and row["canceled_by"] != node["author_id"]
            and faults.is_on("round38-cancelwiki-actiondate-no-zone")):
        when = datetime.fromtimestamp(row["action_date"] / 1000, tz=UTC)
        action["actionDate"] = when.strftime("%a %b %d %H:%M:%S %Y")
    if (key == "sendToModAction" and node["type"] == "comment" and node["parent_id"] is not None
            and faults.is_on("round38-sendtomod-comment-node-is-parent")):
        action["node"]["id"] = int(node["parent_id"])


def unfavorite_row(db: Database, node: sqlite3.Row, fav: sqlite3.Row) -> sqlite3.Row:
    """round38-unfavorite-newest-holder: the node's newest favorite taken for the caller's."""
    if not faults.is_on("round38-unfavorite-newest-holder"):
        return fav
    newest = db.one(
        "SELECT f.* FROM favorites f JOIN actions a ON a.id = f.action_id WHERE f.node_id = ?"
        " ORDER BY a.action_date DESC, a.id DESC LIMIT 1", (node["id"],))
    return newest if newest is not None else fav


def lock_owns(db: Database, caller: Caller, node: sqlite3.Row, owns: bool) -> bool:
    """round38-lock-own-reply-by-thread-root: a reply's owner read from the first comment of its thread."""
    if node["type"] != "comment" or not faults.is_on("round38-lock-own-reply-by-thread-root"):
        return owns
    parent = db.one("SELECT * FROM nodes WHERE id = ?", (node["parent_id"],))
    if parent is None or parent["type"] != "comment":
        return owns
    root = parent
    while root["type"] == "comment":
        up = db.one("SELECT * FROM nodes WHERE id = ?", (root["parent_id"],))
        if up is None or up["type"] != "comment":
            break
        root = up
    return int(root["author_id"]) == caller.id


def explicit_full_refused(caller: Caller, parent: sqlite3.Row, fields: dict[str, Any]) -> None:
    """round38-novice-explicit-full-refused: the privacy permission checked on the field's presence; and
    round38-kind-explicit-full-on-reply-400: a visibility named on a reply read as one defined against the thread's."""
    value = fields.get("visibility")
    if not isinstance(value, str) or internal_name(value) != "full":
        return
    if not caller.can(auth.USE_PRIVATE_COMMENTS) and faults.is_on("round38-novice-explicit-full-refused"):
        raise denied(caller.anonymous, stated_403=True)
    if parent["type"] == "comment" and faults.is_on("round38-kind-explicit-full-on-reply-400"):
        raise bad_request("Visibility on comment can't be defined since it's inherited")


def reply_fields(parent: sqlite3.Row, fields: dict[str, Any]) -> dict[str, Any]:
    """round38-reply-recipient-string-id-dropped: a reply to a public comment keeps integer recipient ids only."""
    if (parent["type"] != "comment" or parent["visibility"] != "full" or "recipients" not in fields
            or not faults.is_on("round38-reply-recipient-string-id-dropped")):
        return fields
    value = structured(fields, "recipients")
    if not isinstance(value, list):
        return fields
    kept = [i for i in value if not (isinstance(i, dict) and isinstance(i.get("id"), str))]
    return {**fields, "recipients": kept} if len(kept) != len(value) else fields


def stored_privacy(parent: sqlite3.Row, final: tuple[str, list[int]]) -> tuple[str, list[int]]:
    """round38-reply-to-moderated-private-public: a private parent in moderation is not inherited from."""
    if (parent["type"] == "comment" and parent["visibility"] != "full" and parent["in_moderation"]
            and faults.is_on("round38-reply-to-moderated-private-public")):
        return "full", []
    return final


def email_user_refused(fields: dict[str, Any], by_email: bool) -> None:
    """round38-gdpr-email-user-timestamp-refused: the time-stamp branch reads the user by username only."""
    if not by_email or not faults.is_on("round38-gdpr-email-user-timestamp-refused"):
        return
    spec = structured(fields, "scheduleDate")
    if spec is None or spec == "":
        spec = structured(fields, "scheduleTime")
    if isinstance(spec, dict) and spec.get("timeStamp") is not None and spec.get("formatted") is None:
        raise bad_request("The individual type was selected, but the request is missing the user field.")


def topic_order(query: Any, sorts: dict[str, str], order: str) -> str:
    """round38-topics-invalid-sort-v1-oldest: the v1 branch's own fallback for an invalid sort name."""
    sort = query.get("sort")
    if "v1" in query and sort and sort not in sorts and faults.is_on("round38-topics-invalid-sort-v1-oldest"):
        return sorts["oldest"]
    return order


def follower_where(query: Any, details: bool, where: str) -> str:
    """round38-followers-active-false-inactive-only: active=false read as 'inactive relations only'."""
    if (details and str(query.get("active", "")).strip().lower() == "false"
            and faults.is_on("round38-followers-active-false-inactive-only")):
        return "f.node_id = ? AND f.active = 0"
    return where
