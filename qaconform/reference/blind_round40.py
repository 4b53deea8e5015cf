"""Where the faults of blind round 40 bite (faults_blind_round40.py): one :class:`request_hooks.Hook` (``before``,
``admitted``, ``after``) and two small hooks of comments.py. Each function leaves the call as it is unless its own
fault is on, so with no fault on the server is unchanged.

The faults are what a vendor's developer ships: a count taken before a filter, a legacy controller's body, a
serializer of another queue, a lookup in the wrong directory, a stale id cache, a record never loaded, an echo of
the implementation's sort, a public index without a state, a relation taken for a permission, a lightweight user
cache, a boolean compared with '1', a branch that looks the user up by the wrong key, privacy read two levels deep
only, and a page kept per reader.
"""

from __future__ import annotations

import math
import sqlite3
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .bodies import read_fields, structured
from .db import as_id
from .fragments import JSON_TYPE
from .http_io import body_json, unmark_items, with_body, with_query
from .service import Service

_GDPR_FAULTS = ("round40-gdpr-scheduletime-legacy-body",)
_CACHE_FAULT = "round40-user-answers-reader-cache"
_OVERRIDE_FAULTS = ("round40-groups-sorted-moderator-allowed",)
"""The round's fault that is an override of the route table (faults_blind_round40.py) and needs no code here."""

_kept_pages: dict[tuple[int, str], tuple[int, bytes, float]] = {}
"""round40-user-answers-reader-cache: a user's answer page per (reader, URL): status, body, when kept."""
_KEPT_S = 300.0


# --- before: the job's fields read once for ``after``; a kept answer page served -----------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, _handler: Any) -> Response | None:
    if op == "scheduleGdprJob" and any(faults.is_on(f) for f in _GDPR_FAULTS):
        await request.body()  # kept by Starlette: the handler reads the same bytes
        try:
            request.state.round40_fields = await read_fields(request)
        except Exception:  # noqa: BLE001 - the handler answers a body it cannot read; the fault reads nothing
            request.state.round40_fields = {}
        return None
    if op == "listUserAnswers" and faults.is_on(_CACHE_FAULT) and not caller.anonymous:
        kept = _kept_pages.get((caller.id, str(request.url)))
        if kept is not None and time.monotonic() - kept[2] < _KEPT_S:
            return Response(kept[1], status_code=kept[0], media_type=JSON_TYPE)
    return None


# --- admitted: the request as the broken handler reads it -----------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if (op == "listNodeFollowers" and request.query_params.get("active") == "true"
            and faults.is_on("round40-followers-active-true-explicit-all")):
        pairs = [(k, "false" if k == "active" else v) for k, v in request.query_params.multi_items()]
        return with_query(request, pairs)  # 'true' != '1': the relation query reads it as all relations
    return request


# --- after: the handler's answer as the broken server serves it -----------------------------------------------
def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if op in ("postAnswer", "postComment", "unmarkFavorite", "cancelWiki", "sendToModeration", "lockNode",
              "scheduleGdprJob") and faults.is_on(_CACHE_FAULT):
        for key in [k for k in _kept_pages if k[0] == caller.id]:
            del _kept_pages[key]  # the reader's own write empties its pages
    if response.status_code not in (200, 201):
        return response
    if op == "scheduleGdprJob":
        return _job(svc, request, response)
    if op == "listUserAnswers":
        _keep_answers(request, caller, response)
        return response
    body = body_json(response)
    if not isinstance(body, dict):
        return response
    changed = _rewrite(svc, op, request, caller, body)
    return with_body(response, body) if changed else response


def _rewrite(svc: Service, op: str, request: Request, caller: Caller, body: dict[str, Any]) -> bool:
    """Change ``body`` in place as the fault that is on for this path does; says whether it changed."""
    found = body.get("result")
    result: dict[str, Any] = found if isinstance(found, dict) else {}
    if op == "listSpaces" and caller.role == "novice" and faults.is_on("round40-spaces-listcount-novice-counts-hidden"):
        body["listCount"] = len(body.get("list") or []) + 1  # counted before the hidden space was taken out
        return True
    if op == "lockNode" and faults.is_on("round40-lock-moderated-result-action"):
        node = _path_node(svc, request)
        if node is not None and node["in_moderation"] and "lockAction" in result:
            result["action"] = result.pop("lockAction")
            return True
    if op == "cancelWiki" and faults.is_on("round40-cancelwiki-own-record-null"):
        node = _path_node(svc, request)
        if node is not None and node["author_id"] == caller.id and "wikifyAction" in result:
            result["wikifyAction"] = None
            return True
    if (op == "listActiveExperts" and request.query_params.get("sort") == "oldest"
            and faults.is_on("round40-active-experts-oldest-echo-recent")):
        body["sort"] = "recent"
        return True
    if op == "listQuestions" and caller.anonymous and faults.is_on("round40-questions-anonymous-unmarked"):
        return unmark_items(body)
    if (op == "listQuestions" and caller.role == "novice" and request.query_params.get("spaceId")
            and faults.is_on("round40-kind-questions-novice-unmarked-in-space")):
        return unmark_items(body)  # round40-kind: the space's page for novice from an index without the state
    if op == "sendToModeration" and faults.is_on("round40-sendtomod-comment-user-no-avatar"):
        node = _path_node(svc, request)
        record = result.get("sendToModAction")
        if node is not None and node["type"] == "comment" and isinstance(record, dict):
            return isinstance(record.get("user"), dict) and record["user"].pop("avatarUrl", None) is not None
    if op == "listAnswerComments" and faults.is_on("round40-comment-on-new-answer-unlisted"):
        return _unlist_new_answer_comments(svc, request, body)
    return False


def _path_node(svc: Service, request: Request) -> sqlite3.Row | None:
    ident = as_id(request.path_params.get("node_id", ""))
    return None if ident is None else svc.db.one("SELECT * FROM nodes WHERE id = ?", (ident,))


def _unlist_new_answer_comments(svc: Service, request: Request, body: dict[str, Any]) -> bool:
    """round40-comment-on-new-answer-unlisted: the comments posted on an answer the seed did not hold are missing."""
    answer = as_id(request.path_params.get("answer_id", ""))
    items = body.get("list")
    if answer is None or answer <= svc.seeded_max_node_id or not isinstance(items, list):
        return False
    direct = {int(r[0]) for r in svc.db.all("SELECT id FROM nodes WHERE parent_id = ? AND type = 'comment'",
                                            (answer,))}
    kept = [i for i in items if not (isinstance(i, dict) and i.get("id") in direct)]
    gone = len(items) - len(kept)
    if not gone:
        return False
    body["list"] = kept
    body["listCount"] = len(kept)
    if isinstance(body.get("totalCount"), int):
        body["totalCount"] = max(body["totalCount"] - gone, 0)
        size = body.get("pageSize")
        if isinstance(size, int) and size > 0:
            body["pageCount"] = math.ceil(body["totalCount"] / size)
    return True


def _keep_answers(request: Request, caller: Caller, response: Response) -> None:
    """round40-user-answers-reader-cache: another account's first read of a user's answer list is kept."""
    if not faults.is_on(_CACHE_FAULT) or caller.anonymous:
        return
    if str(caller.id) == str(request.path_params.get("user_id", "")):
        return  # the author's own reads are live
    key = (caller.id, str(request.url))
    if key not in _kept_pages:
        _kept_pages[key] = (response.status_code, bytes(response.body), time.monotonic())


# --- the data-protection job ----------------------------------------------------------------------------------
def _job(svc: Service, request: Request, response: Response) -> Response:
    fields = getattr(request.state, "round40_fields", None)
    if response.status_code != 201 or not isinstance(fields, dict):
        return response
    body = body_json(response)
    job_id = body.get("jobId") if isinstance(body, dict) else None
    if faults.is_on("round40-gdpr-scheduletime-legacy-body") and "scheduleTime" in fields and fields.get(
            "scheduleDate") in (None, ""):
        return with_body(response, {"id": job_id})  # the legacy controller's body
    return response


def _object(fields: dict[str, Any], name: str) -> dict[str, Any]:
    try:
        value = structured(fields, name)
    except Exception:  # noqa: BLE001 - a field that is no JSON: not this round's path
        return {}
    return value if isinstance(value, dict) else {}


def _given(spec: dict[str, Any], key: str) -> bool:
    return spec.get(key) not in (None, "")


# --- gdpr_jobs.py: a stated form of the user refused on one path, in the handler's order of checks -------------
def user_refused(fields: dict[str, Any], user: Any) -> bool:
    """round40-gdpr-user-id-timestamp-refused: the timeStamp branch looks the job's user up by username."""
    date = _object(fields, "scheduleDate")
    return (faults.is_on("round40-gdpr-user-id-timestamp-refused") and isinstance(user, dict) and _given(user, "id")
            and not _given(user, "username") and _given(date, "timeStamp") and not _given(date, "formatted"))


def reassign_refused(svc: Service, fields: dict[str, Any], reassign: Any) -> bool:
    """A reassignUser in a stated form refused for one kind of account: by username outside the staff directory
    (round40), by id naming an account without Publish answer (round40-kind)."""
    if not isinstance(reassign, dict):
        return False
    by_name = _given(reassign, "username") and not _given(reassign, "id")
    by_id = _given(reassign, "id") and not _given(reassign, "username")
    if by_name and faults.is_on("round40-gdpr-reassign-username-staff-only"):
        row = svc.db.one("SELECT role FROM users WHERE username = ?", (str(reassign["username"]),))
        return row is not None and row["role"] not in ("admin", "moderator")
    if by_id and faults.is_on("round40-kind-gdpr-reassign-id-novice-refused"):
        row = svc.db.one("SELECT role FROM users WHERE id = ?", (as_id(reassign["id"]),))
        return row is not None and row["role"] == "novice"
    return False


# --- comments.py: the option's permission and a deep reply's privacy -----------------------------------------
def option_check_skipped(svc: Service, caller: Caller, parent: sqlite3.Row, visibility: str | None) -> bool:
    """round40-group-option-on-group-peer-node: the group option let through on a group peer's node."""
    if visibility != "group" or caller.anonymous or not faults.is_on("round40-group-option-on-group-peer-node"):
        return False
    peer = svc.db.one(
        "SELECT 1 FROM user_groups a JOIN user_groups b ON a.group_id = b.group_id"
        " WHERE a.user_id = ? AND b.user_id = ? AND a.user_id != b.user_id",
        (caller.id, parent["author_id"]))
    return peer is not None


def deep_reply_privacy(svc: Service, parent: sqlite3.Row, final: tuple[str, list[int]]) -> tuple[str, list[int]]:
    """round40-private-reply-depth4-public: a private reply to a public reply stored as a public one."""
    if (final[0] == "full" or parent["type"] != "comment" or parent["visibility"] != "full"
            or not faults.is_on("round40-private-reply-depth4-public")):
        return final
    grand = svc.db.one("SELECT type FROM nodes WHERE id = ?", (parent["parent_id"],))
    if grand is not None and grand["type"] == "comment":
        return "full", []
    return final
