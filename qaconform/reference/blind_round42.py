"""Where the faults of blind round 42 bite (issue 44; the faults and the rules they break are in
:mod:`faults_blind_round42`). Each function leaves the call as it is unless its own fault is on.

Stages (``request_hooks.HOOKS``): ``before`` for the refusals and answers made once the caller is let in (a novice's
unfavorite of its own node, a form-encoded answer's strict binder, the per-reader cache of a user's answer list);
``admitted`` for the follower list's dropped pageSize; ``after`` for the responses rewritten on one path. The rest
are small calls from the handlers (comments.py, answers.py, actions.py, node_lists.py), at the point the broken
server decides.
"""

from __future__ import annotations

import math
import sqlite3
import time
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import ROLE_PERMISSIONS, Caller
from .bodies import structured
from .db import Database, as_id
from .errors import bad_request, denied
from .http_io import body_json, client_ip, json_response, parse_bool, path_id, with_body, with_query
from .service import Service, now_ms

Handler = Any


# --- round42-comment-null-body-reply (COMMENT-BODY-REQUIRED) ----------------------------------------------
def comment_body_required(parent: sqlite3.Row, fields: dict[str, Any], required: bool) -> bool:
    """A reply's (round42-kind-null-body-question: a question's comment's) body checked for the key's presence
    only: ``"body": null`` passes (stored empty)."""
    if "body" not in fields or fields["body"] is not None:
        return required
    if faults.is_on("round42-comment-null-body-reply") and parent["type"] == "comment":
        return False
    if faults.is_on("round42-kind-null-body-question") and parent["type"] == "question":
        return False  # the proof of the fix's kind: the same null, another parent kind
    return required


# --- round42-recipient-string-id-unread (COMMENT-RECIPIENT-ID-FORMS) ---------------------------------------
_TEXT_RECIPIENTS: set[int] = set()
"""Comments on answers posted with recipient ids as strings: their recipients do not find them in the list."""
_NAMED_AS_TEXT: dict[int, set[int]] = {}
"""round42-kind-string-recipient-unread-on-answer: comment -> the recipients its post named by a string id."""


def comment_posted(parent: sqlite3.Row, fields: dict[str, Any], comment_id: int) -> None:
    kind = faults.is_on("round42-kind-string-recipient-unread-on-answer")
    if not (faults.is_on("round42-recipient-string-id-unread") or kind) or parent["type"] != "answer":
        return
    raw = structured(fields, "recipients") if "recipients" in fields else None
    texts = [i["id"] for i in raw if isinstance(i, dict) and isinstance(i.get("id"), str)] if isinstance(
        raw, list) else []
    if texts and not kind:
        _TEXT_RECIPIENTS.add(comment_id)
    if texts and kind:
        _NAMED_AS_TEXT[comment_id] = {int(t) for t in texts if t.strip().isdecimal()}


def _answer_comments_unread(svc: Service, caller: Caller, response: Response) -> Response:
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    hidden = [i for i in body["list"] if isinstance(i, dict) and (
        (i.get("id") in _TEXT_RECIPIENTS and (i.get("author") or {}).get("id") != caller.id)
        or caller.id in _NAMED_AS_TEXT.get(int(i.get("id") or 0), ()))]
    if not hidden:
        return response
    body["list"] = [i for i in body["list"] if i not in hidden]
    body["listCount"] = len(body["list"])
    if isinstance(body.get("totalCount"), int):
        body["totalCount"] = max(body["totalCount"] - len(hidden), 0)
    return with_body(response, body)


# --- round42-user-answers-commentids-as-owner (COMMENT-PRIVACY-IDS) ----------------------------------------
def _as_user(db: Database, user_id: int) -> Caller | None:
    row = db.one("SELECT id, username, role FROM users WHERE id = ?", (user_id,))
    if row is None or row["role"] not in ROLE_PERMISSIONS:
        return None
    groups = frozenset(db.ids("SELECT group_id FROM user_groups WHERE user_id = ?", (user_id,)))
    return Caller(int(row["id"]), str(row["username"]), str(row["role"]), ROLE_PERMISSIONS[row["role"]], groups)


def _answers_ids_as_owner(svc: Service, request: Request, response: Response) -> Response:
    body = body_json(response)
    raw = request.path_params.get("user_id", "")
    owner = _as_user(svc.db, int(raw)) if str(raw).isdecimal() else None
    if owner is None or not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    clause, params = svc.visibility.clause(owner, "n")
    changed = False
    for item in body["list"]:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int):
            continue
        seen = svc.db.ids(f"SELECT n.id FROM nodes n WHERE n.parent_id = ? AND n.type = 'comment' AND {clause}",
                          [item["id"], *params])
        for key in ("commentIds", "childrenIds"):
            if isinstance(item.get(key), list) and not set(seen) <= set(item[key]):
                item[key] = sorted(set(item[key]) | set(seen))
                changed = True
    return with_body(response, body) if changed else response


# --- round42-unfavorite-zero-count-dropped (ACTION-WRAPPERS) -----------------------------------------------
def _zero_count_dropped(response: Response) -> Response:
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if response.status_code != 200 or not isinstance(result, dict) or result.get("favoriteCount") != 0:
        return response
    del result["favoriteCount"]
    return with_body(response, body)


# --- round42-answer-author-from-body (AUTH-ACTING-USER) ----------------------------------------------------
def answer_author(db: Database, fields: dict[str, Any], author_id: int) -> int:
    """The author of a new answer: the body's author object bound onto the node (by id or username)."""
    given = fields.get("author")
    if not faults.is_on("round42-answer-author-from-body") or not isinstance(given, dict):
        return author_id
    row = None
    if as_id(given.get("id")) is not None:
        row = db.one("SELECT id FROM users WHERE id = ?", (as_id(given.get("id")),))
    elif isinstance(given.get("username"), str):
        row = db.one("SELECT id FROM users WHERE username = ?", (given["username"],))
    return author_id if row is None else int(row["id"])


# --- round42-novice-unfavorite-own-node (PERM-UNFAVORITE) --------------------------------------------------
def _novice_unfavorite(svc: Service, request: Request, caller: Caller) -> Response:
    """The door let the novice in (the fault's override); here its own node passes and any other is refused."""
    node = svc.visible_node(caller, path_id(request))
    if node["author_id"] != caller.id:
        raise denied(caller.anonymous)
    when = now_ms()
    with svc.tx("favorite") as conn:
        cur = conn.execute(
            "INSERT INTO actions(verb, user_id, node_id, ip, action_date, canceled, canceled_by, canceled_date)"
            " VALUES ('favorited', ?, ?, ?, ?, 1, ?, ?)", (caller.id, node["id"], client_ip(request), when,
                                                           caller.id, when))
    row = svc.db.one("SELECT * FROM actions WHERE id = ?", (int(cur.lastrowid or 0),))
    assert row is not None
    count = svc.db.one("SELECT favorite_count FROM nodes WHERE id = ?", (node["id"],))
    return json_response({"success": True, "result": {"favoriteAction": svc.render.action_json(row, node["type"]),
                                                      "favoriteCount": int(count[0]) if count else 0}})


# --- round42-own-answers-lists-commented (LIST-USER-ANSWERS-OWNER) -----------------------------------------
def user_answers_owner(kind: str, caller: Caller, where: list[str], params: list[Any], user_id: int) -> None:
    """One's own answer list built by the 'my activity' query: the answers one commented on join it."""
    if kind != "answer" or caller.id != user_id or not faults.is_on("round42-own-answers-lists-commented"):
        return
    where[0] = ("(n.author_id = ? OR n.id IN (SELECT c.answer_id FROM nodes c WHERE c.type = 'comment'"
                " AND c.author_id = ? AND c.answer_id IS NOT NULL))")
    params.insert(1, user_id)


# --- round42-cancelwiki-own-as-answerer (PERM-CANCELWIKI-OWN) ----------------------------------------------
def cancelwiki_owns(db: Database, caller: Caller, node: sqlite3.Row) -> bool:
    """A wiki question counted as the caller's own when the caller answered it."""
    if not faults.is_on("round42-cancelwiki-own-as-answerer") or node["type"] != "question" or caller.anonymous:
        return False
    return db.one("SELECT 1 FROM nodes WHERE type = 'answer' AND parent_id = ? AND author_id = ?",
                  (node["id"], caller.id)) is not None


# --- round42-answer-form-other-field-400 (ANSWER-OTHER-NODE-FIELDS) ----------------------------------------
ANSWER_FORM_FIELDS = frozenset({"body", "wrap", "v1"})


async def _answer_form_strict(request: Request) -> None:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/x-www-form-urlencoded":
        return
    try:
        keys = {k for k, _ in parse_qsl((await request.body()).decode("utf-8"), keep_blank_values=True)}
    except UnicodeDecodeError:
        return
    unknown = sorted(keys - ANSWER_FORM_FIELDS)
    if unknown:
        raise bad_request(f"unknown form field {unknown[0][:40]!r}")


# --- round42-sendtomod-question-verb (ACTION-SENDTOMOD-VERB) -----------------------------------------------
def _question_verb(response: Response) -> Response:
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    action = result.get("sendToModAction") if isinstance(result, dict) else None
    if response.status_code != 200 or not isinstance(action, dict) or (action.get("node") or {}).get(
            "type") != "question":
        return response
    action["verb"] = "sentToModeration"
    return with_body(response, body)


# --- round42-followers-inactive-pagesize-echoed (PAGING-LISTCOUNT) -----------------------------------------
def _inactive_paged(request: Request) -> int | None:
    """The pageSize asked for on a follower list with active=false (None: not that path)."""
    q = request.query_params
    try:
        inactive = not parse_bool(q, "active", True)
    except Exception:  # noqa: BLE001 - the handler refuses a bad value itself
        return None
    size = as_id(q.get("pageSize"))
    return size if inactive and size is not None else None


def _followers_admitted(request: Request) -> Request:
    if _inactive_paged(request) is None:
        return request
    return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "pageSize"])


def _followers_after(request: Request, response: Response) -> Response:
    asked = _inactive_paged(request)
    body = body_json(response)
    if asked is None or response.status_code != 200 or not isinstance(body, dict):
        return response
    body["pageSize"] = asked
    if isinstance(body.get("totalCount"), int):
        body["pageCount"] = math.ceil(body["totalCount"] / asked)
    return with_body(response, body)


# --- round42-reply-depth3-recipients-empty (COMMENT-VISIBILITY-RETURNED) -----------------------------------
def _deep_reply_recipients(db: Database, response: Response) -> Response:
    body = body_json(response)
    if response.status_code != 200 or not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    changed = False
    for item in body["list"]:
        if not isinstance(item, dict) or not item.get("recipients") or not isinstance(item.get("id"), int):
            continue
        chain = db.one(
            "SELECT p.type AS pt, p.visibility AS pv, g.type AS gt, g.visibility AS gv FROM nodes n"
            " JOIN nodes p ON p.id = n.parent_id JOIN nodes g ON g.id = p.parent_id WHERE n.id = ?", (item["id"],))
        if chain is not None and chain["pt"] == "comment" and chain["gt"] == "comment" and (
                chain["pv"] != "full" and chain["gv"] != "full"):
            item["recipients"] = []
            changed = True
    return with_body(response, body) if changed else response


# --- round42-user-answers-stale-for-others (ANSWER-PUBLISHED) ----------------------------------------------
STALE_S = 5.0
"""How long another reader's copy of a user's answer list is kept."""
_kept: dict[tuple[str, int], tuple[float, bytes]] = {}


def _other_reader(request: Request, caller: Caller) -> tuple[str, int] | None:
    if not faults.is_on("round42-user-answers-stale-for-others"):
        return None
    if str(request.path_params.get("user_id")) == str(caller.id):
        return None
    return (str(request.url), caller.id)


# --- the stages --------------------------------------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, _handler: Handler) -> Response | None:
    if op == "unmarkFavorite" and caller.role == "novice" and faults.is_on("round42-novice-unfavorite-own-node"):
        return _novice_unfavorite(svc, request, caller)
    if op == "postAnswer" and faults.is_on("round42-answer-form-other-field-400"):
        await _answer_form_strict(request)
    if op == "listUserAnswers" and (key := _other_reader(request, caller)) is not None:
        kept = _kept.get(key)
        if kept is not None and time.monotonic() - kept[0] < STALE_S:
            request.state.round42_kept = True
            return Response(kept[1], media_type="application/json")
    return None


def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    if op == "listNodeFollowers" and faults.is_on("round42-followers-inactive-pagesize-echoed"):
        return _followers_admitted(request)
    return request


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if op == "listAnswerComments" and (faults.is_on("round42-recipient-string-id-unread") or faults.is_on(
            "round42-kind-string-recipient-unread-on-answer")):
        return _answer_comments_unread(svc, caller, response)
    if op == "listAnswerComments" and faults.is_on("round42-reply-depth3-recipients-empty"):
        return _deep_reply_recipients(svc.db, response)
    if op == "listUserAnswers" and faults.is_on("round42-user-answers-commentids-as-owner"):
        return _answers_ids_as_owner(svc, request, response)
    if op == "listUserAnswers" and (key := _other_reader(request, caller)) is not None:
        if response.status_code == 200 and not getattr(request.state, "round42_kept", False):
            _kept[key] = (time.monotonic(), bytes(response.body))
        return response
    if op == "unmarkFavorite" and faults.is_on("round42-unfavorite-zero-count-dropped"):
        return _zero_count_dropped(response)
    if op == "sendToModeration" and faults.is_on("round42-sendtomod-question-verb"):
        return _question_verb(response)
    if op == "listNodeFollowers" and faults.is_on("round42-followers-inactive-pagesize-echoed"):
        return _followers_after(request, response)
    return response
