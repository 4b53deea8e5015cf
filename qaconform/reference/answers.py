"""Write handler of an answer (7): stored published with Publish answer, in moderation without it."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import (
    auth,
    blind7_paths,
    blind_perms,
    blind_round9,
    blind_round12,
    blind_round13,
    blind_round15,
    blind_round26,
    blind_round31,
    blind_round33,
    blind_round41,
    blind_round42,
    blind_round45,
    faults,
    history_faults,
    variants,
)
from .auth import Caller
from .bodies import read_fields, stored_body, text_field
from .errors import bad_request, conflict, denied
from .http_io import created_location, json_response, path_id
from .service import Service, now_ms


def _answer_body(request: Request, fields: dict[str, Any]) -> str | None:
    """The text an answer is stored with (``None``: no body given), through the faults that change what is kept."""
    if faults.is_on("answer-other-node-fields-refused"):
        unknown = sorted(set(fields) - {"body", "wrap", "v1"})
        if unknown:
            raise bad_request(f"unknown field {unknown[0][:40]!r}")
    body = text_field(fields, "body")
    body = blind_round15.answer_body(request, body)  # round15 (issue 44)
    body = blind_round41.answer_body(request.query_params.keys(), fields, body)  # round41 (issue 44)
    body = blind_round45.answer_body(request, body)  # round45 (issue 44): the query's body as Latin-1
    body = None if body is None else stored_body(body)
    if faults.is_on("answer-body-truncated"):
        body = (body or "")[:12]
    if faults.is_on("answer-body-ascii-only"):
        body = (body or "").encode("ascii", "replace").decode("ascii")
    return body


async def post_answer(svc: Service, request: Request, caller: Caller) -> Response:
    if faults.is_on("answer-unpublished-refused") and not caller.can(auth.PUBLISH_ANSWER):
        raise denied(caller.anonymous)
    fields = await read_fields(request)
    question = svc.visible_node(caller, path_id(request, "question_id", "question"), ("question",))
    if question["locked"] and not caller.anonymous and variants.is_on("locked-node-refuses-posts"):
        raise conflict(f"question {question['id']} is locked: it takes no new answers")
    blind_round13.answer_own_question_refused(caller, question)  # round13 (issue 44)
    body = _answer_body(request, fields)
    published = caller.can(auth.PUBLISH_ANSWER) and not faults.is_on("answer-publish-ignored")
    published = blind_perms.answer_published(svc, caller, question, published)  # blindp (issue 44)
    if question["author_id"] == caller.id and faults.is_on("blind-answer-own-question-moderated"):  # blindw
        published = False
    if question["locked"] and faults.is_on("blind-answer-to-locked-question-moderated"):  # budget (issue 44)
        published = False
    if published and history_faults.held_for_moderation(svc.db, caller):  # blindh (issue 44)
        published = False
    published = blind_round9.answer_published(svc, caller, question, published)  # blind9 (issue 44)
    published = blind_round12.answer_published(svc.db, caller, question, published)  # round12 (issue 44)
    published = blind_round15.answer_published(question, published)  # round15 (issue 44)
    published = blind_round26.answer_published(svc.db, question, published)  # round26 (issue 44)
    published = blind_round31.answer_published(svc.db, question, published)  # round31 (issue 44)
    if faults.is_on("answer-param-publishes") and "body" in request.query_params:
        published = True
    if faults.is_on("answer-form-moderates") and request.headers.get("content-type", "").startswith(
            "application/x-www-form-urlencoded"):
        published = False
    answer_id = _insert_answer(svc, caller, question, body, published, fields)
    if not published and variants.is_on("moderated-answer-202"):
        return json_response({"id": str(answer_id)}, 202)
    item = _posted_answer(svc, caller, question, answer_id)
    blind_round33.posted_answer_id(fields, item, answer_id)  # round33 (issue 44)
    if not published and faults.is_on("answer-id-integer-unpublished"):  # writecross (issue 44)
        item["id"] = answer_id
    as_param = "body" in request.query_params
    json_too = as_param and "json" in request.headers.get("content-type", "")  # the parameter wins over the body
    if not published and as_param and not json_too and faults.is_on("answer-plug-missing-novice-query"):
        item.pop("plug", None)
    if json_too and faults.is_on("answer-title-param-wins"):
        item["title"] = question["title"]
    form = request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded")
    if form and faults.is_on("blind-answer-form-parentid-self"):  # blinda (issue 44)
        item["parentId"] = answer_id
    location = created_location(request, "answer", answer_id, question["id"])
    dropped = faults.is_on("answer-location-missing") or (
        json_too and faults.is_on("answer-location-missing-param-wins"))
    headers = {} if dropped else {"Location": location}
    headers = blind_round13.posted_answer(request, caller, question, item, headers)  # round13 (issue 44)
    status = blind7_paths.answer_status(question, published, 200 if faults.is_on("answer-created-200") else 201)
    status = blind_round41.answer_status(svc.db, caller, question, status)  # round41 (issue 44)
    return json_response(item, status, headers)  # blind7 (issue 44): answer_status


def _author(svc: Service, caller: Caller, question: sqlite3.Row) -> int:
    """The caller, unless a planted bug picks another author (AUTH-ACTING-USER, faults.py)."""
    if faults.is_on("answer-author-is-question-author"):
        return int(question["author_id"])
    if faults.is_on("answer-author-is-first-poster"):
        svc.first_poster = svc.first_poster or caller.id  # an acting user cached too widely
        return svc.first_poster
    return caller.id


def _insert_answer(svc: Service, caller: Caller, question: sqlite3.Row, body: str | None, published: bool,
                   fields: dict[str, Any] | None = None) -> int:
    """Stores the answer; a published one counts on its question (answers, hotness), every one on its author."""
    author_id = blind_round42.answer_author(svc.db, fields or {}, _author(svc, caller, question))  # round42
    created = now_ms()
    with svc.tx("answer", "answer_count") as conn:
        cur = conn.execute(
            "INSERT INTO nodes(type, parent_id, question_id, space_id, author_id, body, creation_date,"
            " last_active_date, last_active_user_id, depth, in_moderation) VALUES"
            " ('answer', ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)",
            (question["id"], question["id"], question["space_id"], author_id, body, created, created, caller.id,
             0 if published else 1),
        )
        answer_id = int(cur.lastrowid or 0)
        svc.list_later(conn, answer_id, "answer")
        conn.execute(
            "UPDATE nodes SET answer_count = answer_count + ?, hot = hot + ?, last_active_date = ?,"
            " last_active_user_id = ? WHERE id = ?",
            (int(published), 3 * int(published), created, caller.id, question["id"]),
        )
        conn.execute("UPDATE users SET post_count = post_count + 1 WHERE id = ?", (caller.id,))
        history_faults.unmarks_question(conn, question["id"])  # blindh (issue 44)
    return answer_id


def _posted_answer(svc: Service, caller: Caller, question: sqlite3.Row, answer_id: int) -> dict[str, Any]:
    """The body of a 201: the answer as a node, with the fields of the description's posted-answer sample."""
    item = svc.render.nodes_json(svc.render.nodes_by_ids([answer_id]), caller)[0]
    q_author = svc.render.users_by_id([question["author_id"]]).get(question["author_id"])
    item["id"] = answer_id if faults.is_on("answer-id-integer") else str(answer_id)
    item["parentId"] = question["id"]
    item["parentAuthor"] = {
        "username": q_author["username"] if q_author else "$$ANON_USER$$",
        "realname": q_author["realname"] if q_author else None,
    }
    if faults.is_on("answer-parent-author-missing"):
        del item["parentAuthor"]
    if not faults.is_on("answer-plug-missing"):
        item["plug"] = None
    item["reportCount"] = 0
    if faults.is_on("answer-reportcount-missing"):
        del item["reportCount"]
    item["originalParentId"] = question["id"]
    return item
