"""Where the faults of blind round 43 bite (issue 44; their entries: :mod:`faults_blind_round43`).

Each function leaves the call as it is unless its own fault is on. The ``before``, ``after`` and ``refusal`` hooks
run from :data:`request_hooks.HOOKS`; the others are called by name where the server decides the thing they break
(the space list's WHERE, the earned experts' ORDER BY, the unwikify owner check, a job's fields and past date, a
lock's extra, the question list's space filter). The permission fault round43-groups-moderator-sorted is an override
of the route table (no code).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .db import Database
from .errors import ApiError, conflict
from .hook_kit import each_item, path_node, result_action
from .http_io import body_json, json_response, with_body
from .service import Service

Handler = Any

MODERATION_NOTE = "Sent to moderation"
"""What round43-lock-moderated-extra-note stores as a lock's extra on a node in moderation."""


# --- before: a refusal decided by the caller's earlier answers
async def before(svc: Service, op: str, request: Request, caller: Caller, _handler: Handler) -> Response | None:
    if (op == "postAnswer" and faults.is_on("round43-novice-second-pending-answer-refused")
            and not caller.anonymous and not caller.can(auth.PUBLISH_ANSWER)):
        question = path_node(svc, request, "question_id")
        if question is not None and svc.db.one(
                "SELECT 1 FROM nodes WHERE type = 'answer' AND question_id = ? AND author_id = ? AND in_moderation = 1",
                (question["id"], caller.id)) is not None:
            raise conflict(f"an answer of yours to question {question['id']} is waiting for moderation already")
    return None


# --- after: responses as the broken server serves them
def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code != 200:
        return response
    if op == "listAnswerComments" and (faults.is_on("round43-comments-sorts-moderated-answer")
                                       or faults.is_on("round43-kind-moderated-answer-comments-listcount")):
        return _moderated_answer_comments(svc, request, response)
    if op == "listQuestions" and "topics" in request.query_params and faults.is_on(
            "round43-question-topics-as-names-filtered"):
        return _topics_as_names(response)
    if op == "listQuestions" and "topics" in request.query_params and faults.is_on(
            "round43-kind-question-formatted-24h-filtered"):
        return _formatted_24h(response)
    if op == "cancelWiki" and caller.role == "admin" and faults.is_on("round43-cancelwiki-admin-not-canceled"):
        return _action_field(response, "wikifyAction", "canceled", False)
    if op == "unmarkFavorite" and faults.is_on("round43-unfavorite-count-stale-behind-newer"):
        return _stale_favorite_count(svc, request, response)
    if op == "sendToModeration" and faults.is_on("round43-sendtomod-question-comment-names-question"):
        node = path_node(svc, request)
        if node is not None and node["type"] == "comment" and node["parent_id"] == node["question_id"]:
            return _action_node_id(response, "sendToModAction", int(node["question_id"]))
    return response


def _moderated_answer_comments(svc: Service, request: Request, response: Response) -> Response:
    answer = path_node(svc, request, "answer_id")
    body = body_json(response)
    if answer is None or not answer["in_moderation"] or not isinstance(body, dict):
        return response
    if faults.is_on("round43-kind-moderated-answer-comments-listcount") and isinstance(body.get("listCount"), int):
        body["listCount"] += 1  # the queue's serializer counts the answer with its comments
        return with_body(response, body)
    body.pop("sorts", None)
    return with_body(response, body)


def _topics_as_names(response: Response) -> Response:
    return each_item(response, _topic_names)


def _topic_names(item: dict[str, Any]) -> None:
    if isinstance(item.get("topics"), list):
        item["topics"] = [t.get("name") if isinstance(t, dict) else t for t in item["topics"]]


def _formatted_24h(response: Response) -> Response:
    """Each item's creationDateFormatted in the 24-hour form without AM or PM (MM/DD/YYYY HH:mm)."""
    return each_item(response, _date_24h)


def _date_24h(item: dict[str, Any]) -> None:
    text = item.get("creationDateFormatted")
    if isinstance(text, str) and text[-3:] in (" AM", " PM"):
        day, clock = text[:-3].rsplit(" ", 1)
        hour, minute = clock.split(":")
        hour24 = int(hour) % 12 + (12 if text.endswith("PM") else 0)
        item["creationDateFormatted"] = f"{day} {hour24:02d}:{minute}"


def _action_field(response: Response, key: str, field: str, value: Any) -> Response:
    body = body_json(response)
    action = result_action(body, key)
    if action is None:
        return response
    action[field] = value
    return with_body(response, body)


def _action_node_id(response: Response, key: str, node_id: int) -> Response:
    body = body_json(response)
    action = result_action(body, key)
    if action is None or not isinstance(action.get("node"), dict):
        return response
    action["node"]["id"] = node_id
    return with_body(response, body)


def _stale_favorite_count(svc: Service, request: Request, response: Response) -> Response:
    """The count before the unfavorite, when a favorite made after the caller's (by its action's date) remains."""
    body = body_json(response)
    action = result_action(body, "favoriteAction")
    node = path_node(svc, request)
    if action is None or node is None or not isinstance(action.get("id"), int):
        return response
    newer = svc.db.one(
        "SELECT 1 FROM favorites f JOIN actions a ON a.id = f.action_id JOIN actions mine ON mine.id = ?"
        " WHERE f.node_id = ? AND a.action_date > mine.action_date", (action["id"], node["id"]))
    if newer is None or not isinstance(body["result"].get("favoriteCount"), int):
        return response
    body["result"]["favoriteCount"] += 1
    return with_body(response, body)


# --- refusal: a denial answered as a success
def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    if (op != "lockNode" or caller is None or caller.anonymous or exc.status not in (401, 403)
            or not faults.is_on("round43-lock-own-refusal-success-false-comment")):
        return None
    if not caller.can(auth.LOCK_OWN) or caller.can(auth.LOCK_ANY):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "comment":
        return None
    return json_response({"success": False, "result": {}}, 200)


# --- called by name where the server decides
def spaces_where(caller: Caller, query: Mapping[str, str], where: str) -> str:
    """The space list's WHERE: every space under round43-spaces-hidden-sorted-oldest when sorted oldest first."""
    if where != "0" and query.get("sort") == "oldest" and faults.is_on("round43-spaces-hidden-sorted-oldest"):
        return "1"
    return where


def spaces_forgotten(query: Mapping[str, str]) -> bool:
    """round43-kind-questions-hidden-sorted-recent: the question list sorted by an expert list's sort name ("recent")
    served by a query without the per-space permission."""
    return query.get("sort") == "recent" and faults.is_on("round43-kind-questions-hidden-sorted-recent")


def earned_order(query: Mapping[str, str], order: str | None, oldest: str) -> str | None:
    """The earned experts' ORDER BY: the oldest sort's on later pages of sort=recent (round43)."""
    page = query.get("page") or "1"
    later = page.isdecimal() and int(page) > 1
    if later and query.get("sort") == "recent" and faults.is_on("round43-earned-recent-later-pages-ascending"):
        return oldest
    return order


def cancelwiki_owns(db: Database, caller: Caller, node: sqlite3.Row) -> bool:
    """round43-cancelwiki-answerer-owns: a wiki question the caller answered taken as the caller's own."""
    if node["type"] != "question" or not faults.is_on("round43-cancelwiki-answerer-owns"):
        return False
    return db.one("SELECT 1 FROM nodes WHERE type = 'answer' AND question_id = ? AND author_id = ?",
                  (node["id"], caller.id)) is not None


def job_fields(query: Collection[str], fields: dict[str, Any]) -> None:
    """round43-job-reassign-param-both-taken: a reassignUser given as a request parameter read by its id alone."""
    if "reassignUser" not in query or not faults.is_on("round43-job-reassign-param-both-taken"):
        return
    reassign = structured(fields, "reassignUser")
    if isinstance(reassign, dict) and reassign.get("id") not in (None, "") and reassign.get("username") not in (
            None, ""):
        fields["reassignUser"] = {"id": reassign["id"]}


def past_unchecked(fields: dict[str, Any]) -> bool:
    """round43-job-email-user-past-accepted: the past date let through for an individual job's user by email."""
    if not faults.is_on("round43-job-email-user-past-accepted") or fields.get("type") != "individual":
        return False
    user = structured(fields, "user")
    return isinstance(user, dict) and user.get("email") not in (None, "")


def lock_extra(node: sqlite3.Row, extra: str | None) -> str | None:
    """round43-lock-moderated-extra-note: a node in moderation locked with the moderation note as extra."""
    if node["in_moderation"] and faults.is_on("round43-lock-moderated-extra-note"):
        return MODERATION_NOTE
    return extra


def space_dropped(query: Mapping[str, str]) -> bool:
    """round43-spaceid-dropped-unanswered: the unanswered query built without the space condition."""
    raw = (query.get("unanswered") or "").lower()
    return raw in ("true", "1") and faults.is_on("round43-spaceid-dropped-unanswered")
