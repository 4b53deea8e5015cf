"""Where the faults of blind round 26 bite (issue 44, :mod:`faults_blind_round26`).

Most are rewrites of one response (``after``) or of one request (``admitted``), wired through
:data:`request_hooks.HOOKS`; the four that change what a handler decides (published or not, a comment's recipients,
a job's reassignUser and time frame, a user's answer query) are one call each from answers.py, comments.py,
gdpr_jobs.py and node_lists.py. Each leaves everything as it is unless its own fault is on.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .bodies import structured
from .db import Database
from .hook_kit import each_item
from .http_io import body_json, parse_bool, with_body, with_query
from .listing import parse_paging
from .pages import encoded_page
from .service import Service
from .site_lists import EXPERT_SORTS

_DELETIONS = frozenset({"delete", "anon-delete"})


# --- decisions inside the handlers ----------------------------------------------------------------------------
def answer_published(db: Database, question: sqlite3.Row, published: bool) -> bool:
    """round26-first-answer-moderated: the first answer to a question with no published answer (answerCount 0)
    goes to moderation."""
    if not published or not faults.is_on("round26-first-answer-moderated"):
        return published
    row = db.one("SELECT answer_count FROM nodes WHERE id = ?", (question["id"],))
    return row is not None and int(row["answer_count"]) > 0


def admin_recipients(caller: Caller, visibility: str | None, recipients: list[int]) -> list[int]:
    """round26-admin-recipients-unchecked: an administrator's recipients beside another visibility are dropped
    (the comment is created) instead of refused."""
    if (recipients and visibility != "recipients" and caller.role == "admin"
            and faults.is_on("round26-admin-recipients-unchecked")):
        return []
    return recipients


def reassign_pair(fields: dict[str, Any], reassign: Any, both: bool) -> tuple[Any, bool]:
    """round26-reassign-pair-unchecked-without-delete: both ways of naming the reassignUser taken by the id when the
    job deletes nothing."""
    if not both or not faults.is_on("round26-reassign-pair-unchecked-without-delete"):
        return reassign, both
    if _operations(fields) & _DELETIONS:
        return reassign, both
    return {"id": reassign["id"]}, False


def frame_taken(db: Database, fields: dict[str, Any], minute: int, taken: bool) -> bool:
    """round26-time-frame-same-operations-only: a taken time frame counts only when the job there shares an
    operation with the new one."""
    if not taken or not faults.is_on("round26-time-frame-same-operations-only"):
        return taken
    earlier = (db.frame_requests(minute) or [{}])[0]
    return bool(_operations(earlier) & _operations(fields))


def frame_replaces() -> bool:
    """Under round26-time-frame-same-operations-only the new job takes the frame's one row (the table holds one job
    a frame)."""
    return faults.is_on("round26-time-frame-same-operations-only")


def user_answers_owner(kind: str, caller: Caller, where: list[str], params: list[Any], user_id: int) -> None:
    """round26-own-answer-list-adds-answers-to-own-questions: the user's own answer list also holds the answers to
    the user's questions."""
    if kind == "answer" and caller.id == user_id and faults.is_on(
            "round26-own-answer-list-adds-answers-to-own-questions"):
        where[0] = ("(n.author_id = ? OR n.question_id IN"
                    " (SELECT qq.id FROM nodes qq WHERE qq.type = 'question' AND qq.author_id = ?))")
        params.insert(1, user_id)


def _operations(fields: dict[str, Any]) -> set[str]:
    ops = structured(fields, "operations") if "operations" in fields else None
    if isinstance(ops, str):
        ops = [o.strip() for o in ops.split(",")]
    return {o for o in ops if isinstance(o, str)} if isinstance(ops, list) else set()


# --- request and response rewrites (request_hooks.HOOKS) --------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    """round26-type-param-bulk-only: a type parameter other than bulk never reaches the handler."""
    if op != "scheduleGdprJob" or not faults.is_on("round26-type-param-bulk-only"):
        return request
    pairs = list(request.query_params.multi_items())
    kept = [(k, v) for k, v in pairs if not (k == "type" and v != "bulk")]
    return request if kept == pairs else with_query(request, kept)


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code not in (200, 201):
        return response
    if op == "postAnswer":
        return _posted_answer(svc, request, caller, response)
    if op == "cancelWiki" and faults.is_on("round26-cancelwiki-canceledby-missing-for-other-author"):
        return _canceler_dropped(svc.db, request, caller, response)
    if op == "listAnswerComments":
        return _answer_comments(svc.db, caller, response)
    if op == "listQuestions" and faults.is_on("round26-unanswered-answers-null"):
        return _unanswered_null(request, response)
    if op == "listEarnedExperts" and faults.is_on("round26-earned-experts-sorted-within-page"):
        return _sorted_within_page(svc, request, response)
    if op == "listUserAnswers" and faults.is_on("round26-user-answers-body-nfkc"):
        return each_item(response, _nfkc)
    return response


def _posted_answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    blank = not caller.can(auth.PUBLISH_ANSWER) and faults.is_on("round26-moderated-answer-body-blank")
    orphan = faults.is_on("round26-parent-author-missing-without-realname")
    if not (blank or orphan):
        return response
    item = body_json(response)
    if not isinstance(item, dict) or "body" not in item:
        return response
    if blank:
        item["body"] = item["bodyAsHTML"] = ""
    if orphan:
        author = svc.db.one("SELECT u.realname FROM nodes n JOIN users u ON u.id = n.author_id WHERE n.id = ?",
                            (item.get("parentId"),))
        if author is not None and not author["realname"]:
            item.pop("parentAuthor", None)
    return with_body(response, item)


def _canceler_dropped(db: Database, request: Request, caller: Caller, response: Response) -> Response:
    """round26-cancelwiki-canceledby-missing-for-other-author: no canceledByUser when the caller did not write the
    node."""
    page = body_json(response)
    result = page.get("result") if isinstance(page, dict) else None
    action = result.get("wikifyAction") if isinstance(result, dict) else None
    if not isinstance(action, dict) or not isinstance(action.get("node"), dict) or not action.get("canceled"):
        return response
    node = action["node"]
    row = db.one("SELECT author_id FROM nodes WHERE id = ?", (node.get("id"),))
    if row is None or row["author_id"] == caller.id:
        return response
    action.pop("canceledByUser", None)
    return with_body(response, page)


def _answer_comments(db: Database, caller: Caller, response: Response) -> Response:
    narrowed = faults.is_on("round26-recipients-narrowed-to-reader")
    deep = faults.is_on("round26-reply-to-reply-original-parent-null")
    plain = caller.role == "moderator" and faults.is_on("round26-moderator-reads-no-privacy-fields")
    if not (narrowed or deep or plain):
        return response
    page = body_json(response)
    if not isinstance(page, dict) or not isinstance(page.get("list"), list):
        return response
    items = [i for i in page["list"] if isinstance(i, dict) and i.get("id") is not None]
    ids = [int(i["id"]) for i in items]
    marks = ",".join("?" * len(ids)) or "NULL"
    rows = {int(r["id"]): r for r in db.all(f"SELECT id, depth, visibility FROM nodes WHERE id IN ({marks})", ids)}
    for item in items:
        row = rows.get(int(item["id"]))
        if row is None:
            continue
        if narrowed:
            _narrow(item, caller)
        if deep and row["depth"] >= 4 and "originalParentId" in item:
            item["originalParentId"] = None
        if plain and row["visibility"] != "full":
            item.pop("visibility", None)
            item.pop("recipients", None)
    return with_body(response, page)


def _narrow(item: dict[str, Any], caller: Caller) -> None:
    """round26-recipients-narrowed-to-reader: a recipient (not the author) sees only itself among two or more."""
    recipients = item.get("recipients")
    author = item.get("author")
    author_id = author.get("id") if isinstance(author, dict) else None
    if not isinstance(recipients, list) or len(recipients) < 2 or author_id == caller.id:
        return
    mine = [r for r in recipients if isinstance(r, dict) and str(r.get("id")) == str(caller.id)]
    if mine:
        item["recipients"] = mine


def _unanswered_null(request: Request, response: Response) -> Response:
    try:
        unanswered = parse_bool(request.query_params, "unanswered", False)
    except Exception:  # noqa: BLE001 - the handler already answered this query
        return response
    if not unanswered:
        return response

    def nulled(item: dict[str, Any]) -> None:
        if "answers" in item:
            item["answers"] = None
    return each_item(response, nulled)


def _nfkc(item: dict[str, Any]) -> None:
    for key in ("body", "bodyAsHTML"):
        if isinstance(item.get(key), str):
            item[key] = unicodedata.normalize("NFKC", item[key])


def _sorted_within_page(svc: Service, request: Request, response: Response) -> Response:
    """The page taken in id order, then sorted by the sort's key within itself (unprojected lists only)."""
    q = request.query_params
    sort = q.get("sort")
    page = body_json(response)
    if not sort or sort not in EXPERT_SORTS or "includeOnly" in q or "exclude" in q or not isinstance(page, dict):
        return response
    paging = parse_paging(q, svc.page_size)
    ids = svc.db.ids(
        "SELECT id FROM (SELECT * FROM users WHERE earned_expert = 1 ORDER BY id LIMIT ? OFFSET ?)"
        f" ORDER BY {EXPERT_SORTS[sort]}", [paging.size, paging.offset])
    return encoded_page(svc.render.users_encoded(ids), int(page.get("totalCount", 0)), paging,
                        str(page.get("sort", sort)), q)
