"""Where the faults of blind round 46 (faults_blind_round46.py, issue 44) bite: the stages of request_hooks.HOOKS
(``before``, ``admitted``, ``after``), plus :func:`lock_owns` (actions.lock's ownership check) and
:func:`space_clause` (node_lists' spaceId filter), which sit inside handlers. Every function leaves the call as it
is unless its own fault is on.
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any
from urllib.parse import parse_qsl, unquote

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .hook_kit import each_item, id_as_string, kept_json_object
from .http_io import body_json, created_location, is_id, with_body, with_query
from .service import Service, now_ms

GROUPS_SORT = "round46-groups-sort-admits-member"
"""An Override of the route table (faults_blind_round46.py): no code of its own beyond access.check."""
KIND_LOCATION = "round46-kind-plain-after-private-location"
"""round46's proof by kind of the history of one account's own writes (suites/plain_after_private.py)."""
KIND_PUBLISHES = "round46-kind-moderated-json-param-publishes"
"""round46's proof by kind of a body's format under a parameter crossed with the writer (seed_draws)."""

CACHE_S = 2.0
"""How long round46-user-answers-cache-includeonly keeps a privileged reader's page by URL."""
_by_url: dict[str, tuple[float, bytes, int]] = {}
DOUBLE_SUBMIT_MS = 60_000
"""round46-answer-second-returns-question: the window in which a second answer of one account to one question is
taken as a double submit."""
_explicit_private: dict[int, int] = {}
"""round46-comment-sticky-privacy: account id -> its last comment posted with private settings (the form state)."""
_unwikified: set[int] = set()
"""Nodes unwikified while round46-cancelwiki-user-questions-stale is on: the per-user list's stale cache."""


def _fields(request: Request) -> dict[str, Any]:
    """The body fields the request carried (read and cached by :func:`before`), the query's winning."""
    raw = vars(request).get("_body") or b""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    fields: dict[str, Any] = {}
    try:
        if raw.strip() and media.endswith("json"):
            parsed = json.loads(raw)
            fields = parsed if isinstance(parsed, dict) else {}
        elif raw.strip() and media == "application/x-www-form-urlencoded":
            fields = dict(parse_qsl(raw.decode("utf-8"), keep_blank_values=True))
    except (ValueError, UnicodeDecodeError):
        fields = {}
    fields.update(request.query_params)
    return fields


_READS_BODY = {
    "postAnswer": ("round46-answer-moderated-body-wins", KIND_PUBLISHES),
    "postComment": ("round46-comment-sticky-privacy", KIND_LOCATION),
    "scheduleGdprJob": ("round46-job-reassign-200",),
}


async def before(svc: Service, op: str, request: Request, caller: Caller, _handler: Any) -> Response | None:
    """Reads a POST body once (Starlette keeps it for the handler) where a later stage looks at its fields; serves
    the planted answer-list cache."""
    if any(faults.is_on(name) for name in _READS_BODY.get(op, ())):
        await request.body()
    if op == "listUserAnswers" and faults.is_on("round46-user-answers-cache-includeonly") and (
            "includeOnly" in request.query_params):
        kept = _by_url.get(str(request.url))
        if kept is not None and time.monotonic() - kept[0] < CACHE_S:
            return Response(kept[1], status_code=kept[2], media_type="application/json")
    return None


def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    """round46-answer-moderated-body-wins: the moderation path drops the body parameter when the JSON body has one."""
    if op != "postAnswer" or not faults.is_on("round46-answer-moderated-body-wins"):
        return request
    if caller.can(auth.PUBLISH_ANSWER) or "body" not in request.query_params:
        return request
    if "body" not in (kept_json_object(request, loose=True) or {}):
        return request
    return with_query(request, [(k, v) for k, v in request.query_params.multi_items() if k != "body"])


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.active() & _OURS:
        return response
    if response.status_code in (200, 201):
        fix = _AFTER.get(op)
        if fix is not None:
            return fix(svc, request, caller, response)
    return response


def _earned_experts(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round46-earned-experts-oldest-id-string") or request.query_params.get("sort") != "oldest":
        return response
    return each_item(response, id_as_string)


def _user_content(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    raw = request.path_params.get("user_id", "")
    if not faults.is_on("round46-content-enveloped-moderated-answer") or not is_id(raw):
        return response
    if svc.db.one("SELECT 1 FROM nodes WHERE author_id = ? AND type = 'answer' AND in_moderation = 1",
                  (int(raw),)) is None:
        return response
    entries = body_json(response)
    if not isinstance(entries, list):
        return response
    n = len(entries)
    return with_body(response, {"name": "", "sort": "", "page": 1, "pageSize": max(n, 1), "pageCount": 1,
                                "listCount": n, "totalCount": n, "list": entries})


def _post_answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    raw = request.path_params.get("question_id", "")
    if not is_id(raw):
        return response
    question = svc.db.one("SELECT * FROM nodes WHERE id = ?", (int(raw),))
    if question is None:
        return response
    if faults.is_on("round46-answer-second-returns-question"):
        mine = svc.db.one("SELECT COUNT(*) FROM nodes WHERE type = 'answer' AND parent_id = ? AND author_id = ?"
                          " AND creation_date > ?", (question["id"], caller.id, now_ms() - DOUBLE_SUBMIT_MS))
        if mine is not None and int(mine[0]) > 1:  # the new answer and one before it within the window
            return with_body(response, svc.render.nodes_json([question], caller)[0])
    if faults.is_on(KIND_PUBLISHES) and not caller.can(auth.PUBLISH_ANSWER) and "body" in request.query_params and (
            "body" in (kept_json_object(request, loose=True) or {})):
        with svc.tx("answer", "answer_count") as conn:
            conn.execute("UPDATE nodes SET in_moderation = 0 WHERE id = (SELECT MAX(id) FROM nodes WHERE type ="
                         " 'answer' AND author_id = ? AND parent_id = ?)", (caller.id, question["id"]))
    if faults.is_on("round46-answer-location-own-question") and question["author_id"] == caller.id and (
            "location" in response.headers):
        response.headers["Location"] = created_location(request, "question", question["id"], question["id"])
    return response


def _cancel_wiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    raw = request.path_params.get("node_id", "")
    if faults.is_on("round46-cancelwiki-user-questions-stale") and is_id(raw):
        _unwikified.add(int(raw))
    return response


def _user_questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round46-cancelwiki-user-questions-stale") or not _unwikified:
        return response
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    changed = False
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("id") in _unwikified and item.get("wiki") is False:
            item["wiki"] = True
            changed = True
    return with_body(response, body) if changed else response


def _schedule_job(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201 or not faults.is_on("round46-job-reassign-200"):
        return response
    if _fields(request).get("reassignUser") in (None, "", {}):
        return response
    response.status_code = 200
    return response


def _post_comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 201:
        return response
    sticky, located = faults.is_on("round46-comment-sticky-privacy"), faults.is_on(KIND_LOCATION)
    if sticky or located:
        fields = _fields(request)
        earlier = _explicit_private.pop(caller.id, None)
        newest = svc.db.one("SELECT id, visibility, parent_id, question_id FROM nodes WHERE type = 'comment'"
                            " AND author_id = ? ORDER BY id DESC LIMIT 1", (caller.id,))
        if newest is None:
            return response
        if "visibility" in fields or "recipients" in fields:
            if newest["visibility"] != "full":
                _explicit_private[caller.id] = int(newest["id"])
            return response
        if earlier is not None and newest["visibility"] == "full" and sticky:
            _sticky_privacy(svc, int(newest["id"]), earlier)
            return _fresh_comment_body(svc, caller, response)
        parent = svc.db.one("SELECT type FROM nodes WHERE id = ?", (newest["parent_id"],))
        if earlier is not None and located and parent is not None and parent["type"] == "answer" and (
                "location" in response.headers):
            response.headers["Location"] = created_location(request, "comment", earlier, newest["question_id"])
    if faults.is_on("round46-reply-depth3-location-root") and "location" in response.headers:
        newest = svc.db.one("SELECT * FROM nodes WHERE type = 'comment' AND author_id = ? ORDER BY id DESC LIMIT 1",
                            (caller.id,))
        root = _thread_root(svc, newest) if newest is not None else None
        if root is not None and newest is not None:
            response.headers["Location"] = created_location(request, "comment", root, newest["question_id"])
    return response


def _sticky_privacy(svc: Service, new: int, earlier: int) -> None:
    """The new comment takes the privacy of the account's private comment before it (the form state kept)."""
    row = svc.db.one("SELECT visibility FROM nodes WHERE id = ?", (earlier,))
    if row is None or row["visibility"] == "full":
        return
    with svc.tx("comment") as conn:
        conn.execute("UPDATE nodes SET visibility = ? WHERE id = ?", (row["visibility"], new))
        conn.execute("INSERT INTO comment_recipients(comment_id, user_id) SELECT ?, user_id FROM comment_recipients"
                     " WHERE comment_id = ?", (new, earlier))


def _fresh_comment_body(svc: Service, caller: Caller, response: Response) -> Response:
    """The 201's body rendered again (the stored privacy), when it is a node."""
    body = body_json(response)
    if not isinstance(body, dict) or "visibility" not in body or not isinstance(body.get("id"), int):
        return response
    return with_body(response, svc.render.nodes_json(svc.render.nodes_by_ids([body["id"]]), caller)[0])


def _thread_root(svc: Service, comment: sqlite3.Row) -> int | None:
    """The first comment of a reply-to-a-reply's thread; None for a comment or a first reply."""
    parent = svc.db.one("SELECT * FROM nodes WHERE id = ?", (comment["parent_id"],))
    if parent is None or parent["type"] != "comment":
        return None
    grand = svc.db.one("SELECT * FROM nodes WHERE id = ?", (parent["parent_id"],))
    if grand is None or grand["type"] != "comment":
        return None
    node = grand
    while True:
        up = svc.db.one("SELECT * FROM nodes WHERE id = ?", (node["parent_id"],))
        if up is None or up["type"] != "comment":
            return int(node["id"])
        node = up


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    raw = request.path_params.get("node_id", "")
    body = body_json(response)
    action = body.get("result", {}).get("lockAction") if isinstance(body, dict) else None
    if not isinstance(action, dict) or not is_id(raw):
        return response
    changed = False
    query = request.scope.get("query_string", b"").decode("latin-1")
    if faults.is_on("round46-lock-extra-plus-kept") and isinstance(action.get("extra"), str):
        for key, value in (part.partition("=")[::2] for part in query.split("&")):
            if unquote(key) == "prompt" and "+" in value:
                action["extra"] = unquote(value)
                changed = True
                break
    node = svc.db.one("SELECT type, question_id FROM nodes WHERE id = ?", (int(raw),))
    if faults.is_on("round46-lock-answer-node-id-question") and node is not None and node["type"] == "answer" and (
            isinstance(action.get("node"), dict)):
        action["node"]["id"] = int(node["question_id"])
        changed = True
    return with_body(response, body) if changed else response


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round46-user-answers-cache-includeonly") and "includeOnly" in request.query_params and (
            caller.sees_moderation):
        _by_url[str(request.url)] = (time.monotonic(), bytes(response.body), response.status_code)
    return response


_AFTER = {
    "listEarnedExperts": _earned_experts,
    "listUserContent": _user_content,
    "postAnswer": _post_answer,
    "cancelWiki": _cancel_wiki,
    "listUserQuestions": _user_questions,
    "scheduleGdprJob": _schedule_job,
    "postComment": _post_comment,
    "lockNode": _lock,
    "listUserAnswers": _user_answers,
}
_OURS = frozenset({
    "round46-earned-experts-oldest-id-string", "round46-content-enveloped-moderated-answer",
    "round46-answer-second-returns-question", "round46-answer-location-own-question",
    "round46-cancelwiki-user-questions-stale", "round46-job-reassign-200", "round46-comment-sticky-privacy",
    "round46-reply-depth3-location-root", "round46-lock-extra-plus-kept", "round46-lock-answer-node-id-question",
    "round46-user-answers-cache-includeonly", KIND_LOCATION, KIND_PUBLISHES,
})


def lock_owns(svc: Service, caller: Caller, node: sqlite3.Row) -> bool:
    """round46-lock-reply-answer-author-owns: a reply counts as own to the author of the answer of its thread."""
    if not faults.is_on("round46-lock-reply-answer-author-owns") or node["type"] != "comment":
        return False
    parent = svc.db.one("SELECT type FROM nodes WHERE id = ?", (node["parent_id"],))
    if parent is None or parent["type"] != "comment" or node["answer_id"] is None:
        return False
    answer = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (node["answer_id"],))
    return answer is not None and answer["author_id"] == caller.id


def space_clause(where: list[str], params: list[Any]) -> None:
    """round46-spaceid-includes-subspaces: the space condition (the last one added) also takes its child spaces."""
    if not faults.is_on("round46-spaceid-includes-subspaces") or not where or where[-1] != "n.space_id = ?":
        return
    where[-1] = "(n.space_id = ? OR n.space_id IN (SELECT s.id FROM spaces s WHERE s.parent_id = ?))"
    params.append(params[-1])
