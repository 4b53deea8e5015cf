"""Blind round 24 (issue 44): fifteen planted bugs, one on each of fifteen must-rules drawn at random, each on the
one path a real server's bug would take (a role or relation branch, a parameter, an input form, a read order, a
kind of node, a state the caller's earlier write left). The registry entries are in
:mod:`faults_blind_round24`; this module is what they do, hooked around every call through
``request_hooks.HOOKS`` (one entry), so no handler is edited.

Each function leaves the call as it is unless its own fault is on (``faults.is_on``).
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults, gdpr_jobs, variants
from .auth import Caller
from .bodies import read_fields
from .errors import bad_request, denied
from .hook_kit import result_action
from .http_io import body_json, json_response
from .render import action_date
from .service import Service

Handler = Any

def _again(response: Response, body: Any) -> Response:
    """The response with a rewritten JSON body, its status and Location kept."""
    headers = {k: v for k, v in response.headers.items() if k.lower() == "location"}
    return json_response(body, response.status_code, headers)


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    """Answers that replace the handler's (a job's kind inferred from the parameter form, a comment list read as
    another account) or refusals a role or a sort value meets."""
    q = request.query_params
    if op == "scheduleGdprJob" and faults.is_on("round24-job-null-type-inferred") and "type" not in q:
        return await _null_type_inferred(svc, request, caller)
    if op in ("listActiveExperts", "listEarnedExperts") and q.get("sort") in ("oldest", "recent") and any(
            k in q for k in ("include", "exclude", "includeOnly")) and faults.is_on(
            "round24-experts-projected-date-sort-refused"):
        raise bad_request("'sort' must be one of reputation, username, realname, default")  # the projected reader
    if op == "postAnswer" and caller.role == "moderator" and faults.is_on("round24-moderator-answer-refused"):
        raise denied(caller.anonymous)  # the role list of the answer form names admin, member, novice, user
    if op == "listAnswerComments" and faults.is_on("round24-answer-author-reads-private-comments"):
        return await _as_private_author(svc, request, caller, handler)
    if op == "postComment" and faults.is_on("round24-question-comment-string-recipients-dropped"):
        await request.body()  # kept on the request: the handler's stream reads it again, after() reads it
    return None


async def _null_type_inferred(svc: Service, request: Request, caller: Caller) -> Response | None:
    """A job body whose type is JSON null is read by a null-coalescing reader that infers the kind from the other
    fields (a user object: individual; a csvFileId: bulk)."""
    try:
        sent = json.loads(await request.body() or b"{}")  # kept on the request: the handler reads it again
    except ValueError:
        return None
    if not isinstance(sent, dict) or "type" not in sent or sent["type"] is not None:
        return None
    fields = await read_fields(request)
    kind = "individual" if fields.get("user") not in (None, "") else "bulk" if fields.get("csvFileId") else None
    return None if kind is None else gdpr_jobs._schedule(svc, caller, {**fields, "type": kind})


async def _as_private_author(svc: Service, request: Request, caller: Caller, handler: Handler) -> Response | None:
    """The answer's author reads its comment list as the author of a private comment under it ("the answer's
    owner moderates its comments"): every private comment of that author shows."""
    raw = request.path_params.get("answer_id", "")
    if caller.anonymous or not str(raw).isdecimal():
        return None
    answer = svc.db.one("SELECT id, author_id FROM nodes WHERE id = ? AND type = 'answer'", (int(raw),))
    if answer is None or answer["author_id"] != caller.id:
        return None
    row = svc.db.one(
        "SELECT n.author_id FROM nodes n WHERE n.answer_id = ? AND n.type = 'comment' AND n.visibility = 'recipients'"
        " AND n.author_id <> ? AND NOT EXISTS (SELECT 1 FROM comment_recipients r WHERE r.comment_id = n.id"
        " AND r.user_id = ?) ORDER BY n.id LIMIT 1", (answer["id"], caller.id, caller.id))
    if row is None:
        return None
    owner = Caller(id=int(row["author_id"]), username=caller.username, role=caller.role,
                   permissions=caller.permissions, group_ids=caller.group_ids)
    response: Response = await handler(svc, request, owner)
    return response


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The handler's response as the broken server serves it."""
    if not faults.active() or response.status_code >= 400:
        return response
    q = request.query_params
    if op == "listUserContent" and faults.is_on("round24-content-enveloped-for-staff-subject"):
        return _content_enveloped(svc, request, response)
    if op == "listUserContent" and faults.is_on("round24-content-private-under-moderated-shown"):
        return _content_under_moderated(svc, request, response)
    if op == "listSpaces" and q.get("sort") and faults.is_on("round24-spaces-sorted-parentid-string"):
        body = body_json(response)
        for item in (body or {}).get("list", []):
            if "parentId" in item:
                item["parentId"] = str(item["parentId"])  # the sorted branch's generic serializer
        return _again(response, body)
    if op in ("listActiveExperts", "listEarnedExperts") and faults.is_on("round24-experts-sort-echo-of-previous-call"):
        return _echo_of_previous_call(op, request, response)
    if op == "unmarkFavorite" and "application/json" not in request.headers.get("accept", "").lower() and (
            faults.is_on("round24-unfavorite-count-string-on-any-accept")):
        body = body_json(response)
        result = body.get("result") if isinstance(body, dict) else None
        if isinstance(result, dict) and isinstance(result.get("favoriteCount"), int):
            result["favoriteCount"] = str(result["favoriteCount"])  # the content-negotiated writer's text form
        return _again(response, body)
    if op == "lockNode" and faults.is_on("round24-reply-lock-verb-lock"):
        return _reply_lock_verb(svc, response)
    if op == "listTopics" and q.get("sort") in ("newest", "oldest") and faults.is_on(
            "round24-topics-date-sort-usedcount-null"):
        body = body_json(response)
        for item in (body or {}).get("list", []):
            if "usedCount" in item:
                item["usedCount"] = None  # the date index's documents carry no usage count
        return _again(response, body)
    if op == "sendToModeration" and faults.is_on("round24-sendtomod-followed-not-private"):
        return _sendtomod_followed_public(svc, response)
    if op == "postAnswer" and faults.is_on("round24-second-answer-moderated"):
        _second_answer_moderated(svc, caller, response)
        return response
    if op == "postAnswer" and faults.is_on("round24-answer-plug-slug-in-child-space"):
        return _plug_in_child_space(svc, response)
    if op == "postComment" and faults.is_on("round24-question-comment-string-recipients-dropped"):
        _string_recipients_dropped(svc, request, response)
    return response


def _content_enveloped(svc: Service, request: Request, response: Response) -> Response:
    """The content of a staff member (a moderator or an administrator) comes from the moderation log's paged
    reader, envelope and all."""
    raw = request.path_params.get("user_id", "")
    user = svc.db.one("SELECT role FROM users WHERE id = ?", (int(raw),)) if str(raw).isdecimal() else None
    items = body_json(response)
    if user is None or user["role"] not in ("moderator", "admin") or not isinstance(items, list):
        return response
    n = len(items)
    return json_response({"name": "", "sort": "", "page": 1, "pageSize": max(n, 1), "pageCount": 1,
                          "listCount": n, "totalCount": n, "list": items})


def _content_under_moderated(svc: Service, request: Request, response: Response) -> Response:
    """A node sent to moderation takes its thread into the moderation queue; the content list reads the queue's
    copy of a comment, which keeps no privacy, so a private comment under a node in moderation shows in its
    author's content to every reader."""
    raw = request.path_params.get("user_id", "")
    items = body_json(response)
    if not str(raw).isdecimal() or not isinstance(items, list):
        return response
    listed = {e["node"]["id"] for e in items if isinstance(e, dict) and isinstance(e.get("node"), dict)}
    rows = [r for r in svc.db.all(
        "SELECT n.* FROM nodes n WHERE n.author_id = ? AND n.type = 'comment' AND n.visibility <> 'full'"
        " AND EXISTS (SELECT 1 FROM nodes p WHERE p.id IN (n.parent_id, n.question_id, n.answer_id)"
        " AND p.in_moderation = 1)", [int(raw)]) if r["id"] not in listed]
    if not rows:
        return response
    dated = {r["id"]: r["creation_date"] for r in svc.db.all(
        f"SELECT id, creation_date FROM nodes WHERE id IN ({','.join('?' * len(listed))})", list(listed))} \
        if listed else {}
    for r in rows:
        dated[r["id"]] = r["creation_date"]
        items.append({"actionType": "commented", "canceled": False, "actionDate": action_date(r["creation_date"]),
                      "node": {"id": r["id"], "title": r["title"], "body": r["body"], "type": "comment",
                               "accepted": bool(r["marked"])}})
    newest_first = not variants.is_on("content-oldest-first")
    nodes = sorted((e for e in items if isinstance(e, dict) and "node" in e),
                   key=lambda e: (dated.get(e["node"]["id"], 0), e["node"]["id"]), reverse=newest_first)
    others = [e for e in items if not (isinstance(e, dict) and "node" in e)]
    return json_response(nodes + others if newest_first else others + nodes)


def _reply_lock_verb(svc: Service, response: Response) -> Response:
    """A lock of a reply (a comment under a comment) is recorded by the thread branch, with verb lock."""
    body = body_json(response)
    action = result_action(body, "lockAction")
    node_id = (action.get("node") or {}).get("id") if action is not None else None
    if action is None or not isinstance(node_id, int) or action.get("verb") != "locked":
        return response
    reply = svc.db.one("SELECT 1 FROM nodes n JOIN nodes p ON p.id = n.parent_id WHERE n.id = ?"
                       " AND n.type = 'comment' AND p.type = 'comment'", (node_id,))
    if reply is None:
        return response
    action["verb"] = "lock"
    return _again(response, body)


def _sendtomod_followed_public(svc: Service, response: Response) -> Response:
    """A node with active followers is sent to moderation through the notifying branch, whose record is public
    (private false) so that the followers' notification may show it."""
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    node_id = (action.get("node") or {}).get("id") if action is not None else None
    if action is None or not isinstance(node_id, int) or svc.db.one(
            "SELECT 1 FROM follows WHERE node_id = ? AND active = 1", (node_id,)) is None:
        return response
    action["private"] = False
    return _again(response, body)


_last_sort: dict[str, tuple[float, str]] = {}
"""round24-experts-sort-echo-of-previous-call: per expert list, when and with which sort it was last asked."""
ECHO_KEPT_S = 2.0


def _echo_of_previous_call(op: str, request: Request, response: Response) -> Response:
    """The list object is a singleton whose "sort in effect" is set after the envelope is written: a call reports
    the sort of the call before it (within ECHO_KEPT_S) when that asked for another one."""
    asked = request.query_params.get("sort") or ""
    now = time.monotonic()
    previous = _last_sort.get(op)
    _last_sort[op] = (now, asked)
    if previous is None or now - previous[0] > ECHO_KEPT_S or not previous[1] or previous[1] == asked:
        return response
    body = body_json(response)
    if not isinstance(body, dict) or "sort" not in body:
        return response
    body["sort"] = "reputation" if previous[1] == "default" else previous[1]
    return _again(response, body)


def _new_id(response: Response) -> int | None:
    body = body_json(response)
    if isinstance(body, dict) and str(body.get("id", "")).isdecimal():
        return int(body["id"])
    found = re.findall(r"(\d+)", response.headers.get("location", ""))
    return int(found[-1]) if found else None


def _second_answer_moderated(svc: Service, caller: Caller, response: Response) -> None:
    """A duplicate-answer guard: the caller's second answer to one question is held for moderation though the
    caller holds Publish answer."""
    if response.status_code != 201 or not caller.can(auth.PUBLISH_ANSWER):
        return
    answer_id = _new_id(response)
    row = svc.db.one("SELECT question_id, in_moderation FROM nodes WHERE id = ?", (answer_id,)) if answer_id else None
    if row is None or row["in_moderation"]:
        return
    earlier = svc.db.one("SELECT COUNT(*) FROM nodes WHERE type = 'answer' AND question_id = ? AND author_id = ?"
                         " AND id <> ?", (row["question_id"], caller.id, answer_id))
    if not earlier or not earlier[0]:
        return
    with svc.tx("answer", "answer_count") as conn:
        conn.execute("UPDATE nodes SET in_moderation = 1 WHERE id = ?", (answer_id,))
        conn.execute("UPDATE nodes SET answer_count = MAX(answer_count - 1, 0), hot = hot - 3 WHERE id = ?",
                     (row["question_id"],))


def _plug_in_child_space(svc: Service, response: Response) -> Response:
    """An answer to a question of a child space carries its question's slug as plug (the sub-space permalink)."""
    body = body_json(response)
    if not isinstance(body, dict) or "parentId" not in body:
        return response
    question = svc.db.one("SELECT n.* FROM nodes n JOIN spaces s ON s.id = n.space_id WHERE n.id = ?"
                          " AND s.parent_id IS NOT NULL", (body["parentId"],))
    if question is None:
        return response
    keys = question.keys()
    slug = question["slug"] if "slug" in keys and question["slug"] else f"question-{question['id']}"
    body["plug"] = slug
    return _again(response, body)


def _string_recipients_dropped(svc: Service, request: Request, response: Response) -> None:
    """On a comment to a question, the question branch keeps only the recipients whose id is a JSON integer."""
    if response.status_code != 201:
        return
    raw = request.path_params.get("node_id", "")
    if not str(raw).isdecimal():
        return
    parent = svc.db.one("SELECT type FROM nodes WHERE id = ?", (int(raw),))
    if parent is None or parent["type"] != "question":
        return
    try:
        sent = json.loads(getattr(request, "_body", b"") or b"{}")
    except ValueError:
        return
    recipients = sent.get("recipients") if isinstance(sent, dict) else None
    if not isinstance(recipients, list):
        return
    as_text = [int(i["id"]) for i in recipients
               if isinstance(i, dict) and isinstance(i.get("id"), str) and i["id"].strip().isdecimal()]
    comment_id = _new_id(response)
    if not as_text or comment_id is None:
        return
    with svc.tx("comment") as conn:
        conn.executemany("DELETE FROM comment_recipients WHERE comment_id = ? AND user_id = ?",
                         [(comment_id, r) for r in as_text])
