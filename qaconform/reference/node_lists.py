"""Read handlers of node lists: the question list (3), a user's answers and questions (4, 15), an answer's comments
(18), a user's content and actions (8), and reading the Location of a new comment or answer.

Every handler takes the service, the request and the caller the route table has already let in (app.py).
"""

from __future__ import annotations

import json
import math
import sqlite3
import time
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import (
    auth,
    blind6_reads,
    blind7_paths,
    blind_round11,
    blind_round12,
    blind_round13,
    blind_round14,
    blind_round25,
    blind_round26,
    blind_round30,
    blind_round32,
    blind_round33,
    blind_round41,
    blind_round42,
    blind_round43,
    blind_round44,
    blind_round45,
    blind_round46,
    blind_round83,
    faults,
    histories2_faults,
    histories3_faults,
    histories5_paths,
    history_faults,
    paths14_paths,
    reads16_paths,
    recip_paths,
    variants,
)
from .auth import Caller
from .db import QUESTION_SORT_COLUMNS, SQL_INT_MAX, as_id
from .errors import ApiError, bad_request, denied, not_found
from .fragments import JSON_TYPE, dumps
from .http_io import is_id, json_response, parse_bool, path_id
from .listing import QUESTION_SORTS, Paging, envelope, parse_paging
from .pages import Miscount, question_order, question_seek
from .render import action_date
from .service import Service

QUESTION_LIST_PARAMS = frozenset(
    "topics unanswered spaceId page pageSize sort q type lang include exclude includeOnly wrap v1".split()
)
"""The query parameters the description lists for the question list (variant unknown-param-400 refuses others)."""

MAX_Q_CHARS = 1000
"""Longest search text accepted on the question list; longer is a 400, not a slow scan."""

COMMENT_DEFAULT_SORT = "oldest"

USER_CONTENT_LIMIT = 1000
"""Newest entries returned by the user content listing (8), which has no paging; "joined" is always added."""

CONTENT_VERBS = {"question": "asked", "answer": "answered", "comment": "commented"}


# --- 3 List questions ---------------------------------------------------------------------------------------
URL_CACHE_S = 1.0
"""How long the planted faults questions-cache-by-url and user-questions-cache-by-url keep a list by URL
(faults.py)."""
_by_url: dict[str, tuple[float, bytes]] = {}


async def list_questions(svc: Service, request: Request, caller: Caller) -> Response:
    if (moved := blind_round13.questions_redirect(request, caller)) is not None:  # round13 (issue 44)
        return moved
    if not faults.is_on("questions-cache-by-url") or not request.url.query:
        return await _list_questions(svc, request, caller)
    kept = _by_url.get(str(request.url))
    if kept is not None and time.monotonic() - kept[0] < URL_CACHE_S:
        return Response(kept[1], media_type=JSON_TYPE)  # whoever asked first: the URL is the key, not the caller
    page = await _list_questions(svc, request, caller)
    if page.status_code == 200:
        _by_url[str(request.url)] = (time.monotonic(), bytes(page.body))
    return page


async def _list_questions(svc: Service, request: Request, caller: Caller) -> Response:
    q = request.query_params
    if variants.is_on("unknown-param-400"):
        unknown = sorted(set(q.keys()) - QUESTION_LIST_PARAMS)
        if unknown:
            known = ", ".join(sorted(QUESTION_LIST_PARAMS))
            raise bad_request(f"unknown parameter {unknown[0][:40]!r}; known: {known}")
    paging = parse_paging(q, svc.page_size)
    sort, order = question_order(q)
    forget_spaces = (paging.size > 50 and faults.is_on("hidden-space-questions-above-page-size-50")) or (
        "exclude" in q and faults.is_on("exclude-shows-hidden-space-questions")) or (
        bool(q.get("q")) and faults.is_on("search-shows-hidden-items")) or (
        "includeOnly" in q and bool(q.get("spaceId")) and faults.is_on("blind6-projected-named-hidden-space")) or (
        blind_round43.spaces_forgotten(q)) or (  # round43 (issue 44): a sort named for another list
        reads16_paths.spaces_forgotten(q))  # reads16 (issue 44 item 1): a topics filter
    clause, params = svc.visibility.clause(caller, "n", comments=False, spaces=not forget_spaces)
    where = ["n.type = 'question'", clause]
    blind_round25.question_kind(q, where)  # round25 (issue 44)
    unfiltered = (list(where), list(params))
    _filter_by_space(q, where, params, paging)
    _filter_by_text(q, where, params)
    after_space = (list(where), list(params))
    _filter_by_topics(q, where, params)
    depends: tuple[str, ...] = ("question",)
    if parse_bool(q, "unanswered", False):
        where.append("n.answer_count = 0")
        depends = ("question", "answer_count")
    sorts = None if faults.is_on("question-list-no-sorts") else QUESTION_SORTS
    page = svc.pager.node_page(request, caller, where, params, order, paging, sort, sorts, depends,
                               question_seek(sort), "question-list-score-string",
                               _miscounted(q, unfiltered, after_space))
    if sort == "newest" and faults.is_on("blind6-newest-questions-unmarked"):  # blind6 (issue 44)
        return blind6_reads.rewritten(page, blind6_reads.unmarked)
    return page


def _miscounted(q: Any, unfiltered: tuple[list[str], list[Any]],
                after_space: tuple[list[str], list[Any]]) -> Miscount | None:
    """The planted count bugs of the question list: a count that ignores spaceId, unanswered or topics."""
    if q.get("spaceId") and faults.is_on("totalcount-ignores-spaceid"):
        return Miscount(*unfiltered)
    if parse_bool(q, "unanswered", False) and faults.is_on("totalcount-ignores-unanswered"):
        return Miscount(*unfiltered)
    if q.get("topics") and faults.is_on("pagecount-ignores-topics"):
        return Miscount(*after_space, pages_only=True)
    return None


def _filter_by_space(q: Any, where: list[str], params: list[Any], paging: Paging) -> None:
    space_raw = q.get("spaceId")
    if q.get("sort") and faults.is_on("spaceid-ignored-with-sort"):
        space_raw = None
    if paging.size > 50 and faults.is_on("spaceid-ignored-above-page-size-50"):
        space_raw = None
    if q.get("pageSize") and any(k in q for k in ("include", "exclude", "includeOnly")) and faults.is_on(
            "spaceid-ignored-with-paging"):
        space_raw = None
    if q.get("q") and faults.is_on("spaceid-ignored-with-search"):
        space_raw = None  # blindr: the search query has no space condition
    if paging.page > 1 and faults.is_on("blinde-spaceid-dropped-from-page-2"):
        space_raw = None  # blinde: a later page's query is built without the space condition
    if blind_round43.space_dropped(q):
        space_raw = None  # round43 (issue 44): the unanswered query has no space condition
    if not space_raw or faults.is_on("spaceid-ignored"):
        return
    try:
        space_id = int(space_raw)
    except ValueError:
        raise bad_request(f"'spaceId' must be an integer, not {space_raw[:40]!r}") from None
    where.append("n.space_id = ?")
    params.append(space_id if abs(space_id) <= SQL_INT_MAX else -1)
    if faults.is_on("blind6-spaceid-child-adds-parent-space"):  # blind6 (issue 44): the tree's wrong node
        where[-1] = "(n.space_id = ? OR n.space_id = (SELECT s.parent_id FROM spaces s WHERE s.id = ?))"
        params.append(params[-1])
    blind_round46.space_clause(where, params)  # round46 (issue 44): a parent space takes its children
    if variants.is_on("spaceid-takes-child-spaces") and where[-1] == "n.space_id = ?":  # paths17 (issue 44 item 4)
        where[-1] = "(n.space_id = ? OR n.space_id IN (SELECT s.id FROM spaces s WHERE s.parent_id = ?))"
        params.append(params[-1])


def _filter_by_text(q: Any, where: list[str], params: list[Any]) -> None:
    text = q.get("q")
    if not text:
        return
    if len(text) > MAX_Q_CHARS:
        raise bad_request(f"'q' is longer than {MAX_Q_CHARS} characters; search for a shorter text")
    if variants.is_on("q-wildcards") and "*" in text:
        pattern = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_").replace("*", "%")
        where.append(
            "(lower(coalesce(n.title, '')) LIKE lower(?) ESCAPE '\\'"
            " OR lower(n.body) LIKE lower(?) ESCAPE '\\')"
        )
        params += [f"%{pattern}%", f"%{pattern}%"]
    else:
        # instr() rather than LIKE: no pattern syntax to escape, and no "pattern too complex" error on long q
        where.append("(instr(lower(coalesce(n.title, '')), lower(?)) > 0 OR instr(lower(n.body), lower(?)) > 0)")
        params += [text, text]


def _filter_by_topics(q: Any, where: list[str], params: list[Any]) -> None:
    """``topics``: ids or names, any of them (all of them under the variant topics-all-of)."""
    topics_raw = q.get("topics")
    if not topics_raw:
        return
    names = [t.strip() for t in topics_raw.split(",") if t.strip()]
    if variants.is_on("topics-all-of") and names:
        for name in names:
            where.append(
                "EXISTS (SELECT 1 FROM node_topics nt JOIN topics t ON t.id = nt.topic_id"
                " WHERE nt.node_id = n.id AND (t.id = ? OR t.name = ?))"
            )
            params += [as_id(name), name]
        return
    ids = [i for i in map(as_id, names) if i is not None]
    where.append(
        "EXISTS (SELECT 1 FROM node_topics nt JOIN topics t ON t.id = nt.topic_id WHERE nt.node_id = n.id"
        f" AND (t.id IN ({','.join('?' * len(ids)) or 'NULL'})"
        f" OR t.name IN ({','.join('?' * len(names)) or 'NULL'})))"
    )
    params += [*ids, *names]


# --- 4 and 15 A user's answers / questions ------------------------------------------------------------------
async def list_user_answers(svc: Service, request: Request, caller: Caller) -> Response:
    if (kept := blind_round11.projected_answers_kept(request)) is not None:  # round11 (issue 44)
        return kept
    if (moved := blind_round14.user_answers_moved(request)) is not None:  # round14 (issue 44)
        return moved
    page = blind_round11.projected_answers_keep(request, _user_nodes(svc, request, caller, "answer", None))
    page = blind_round45.user_answers_page(request, page)  # round45 (issue 44): an empty list's page
    if "text/html" in request.headers.get("accept", "").lower() and faults.is_on(
            "user-answers-html-for-browser-accept"):  # blindr: the Accept header wins over the .json extension
        items = json.loads(bytes(page.body)).get("list") or []
        rows = "".join(f"<tr><td>{i.get('id')}</td><td>{i.get('body')}</td></tr>" for i in items)
        return Response(f"<html><body><table>{rows}</table></body></html>", media_type="text/html;charset=UTF-8")
    if page.status_code == 200 and faults.is_on("blindc-user-answers-accepted-no-original-parent"):
        body = json.loads(bytes(page.body))  # blindc (issue 44): the accepted answer comes from a join
        for item in body.get("list", []):
            if item.get("marked") is True and "originalParentId" in item:
                item["originalParentId"] = None
        return json_response(body)
    return page


async def list_user_questions(svc: Service, request: Request, caller: Caller) -> Response:
    blind_round45.user_questions_refused(request, caller)  # round45 (issue 44): include, anonymous
    if not faults.is_on("user-questions-cache-by-url"):  # round14 (issue 44): user_questions_page
        return blind_round45.user_questions_page(blind_round33.user_questions_page(  # round33, round45 (issue 44)
            blind_round14.user_questions_page(_user_nodes(svc, request, caller, "question", QUESTION_SORTS))))
    kept = _by_url.get(str(request.url))
    if kept is not None and time.monotonic() - kept[0] < URL_CACHE_S:
        return Response(kept[1], media_type=JSON_TYPE)  # whoever asked first: the URL is the key, not the caller
    page = _user_nodes(svc, request, caller, "question", QUESTION_SORTS)
    if page.status_code == 200:
        _by_url[str(request.url)] = (time.monotonic(), bytes(page.body))
    return page


def _user_nodes(
    svc: Service, request: Request, caller: Caller, kind: str, sorts: tuple[str, ...] | None
) -> Response:
    user_id = path_id(request, "user_id", "user")
    if not svc.user_exists(user_id):
        raise not_found(f"user {user_id} does not exist")
    if kind == "question":
        blind_round13.user_questions_refused(request, caller, user_id)  # round13 (issue 44)
        blind_round14.user_questions_refused(svc.db, caller, user_id)  # round14 (issue 44)
    q = request.query_params
    if kind == "question" and "wrap" in q and not caller.anonymous and faults.is_on(
            "blinde-user-questions-wrap-lists-caller"):
        user_id = caller.id  # blinde: the legacy branch takes the user from the credentials
    paging = parse_paging(q, svc.page_size)
    sort, order = question_order(q)
    forget_spaces = kind == "answer" and "include" in q and faults.is_on("user-answers-include-shows-hidden-space")
    clause, params = svc.visibility.clause(caller, "n", comments=False, spaces=not forget_spaces)  # blindr
    owner = "n.author_id = ?"
    if faults.is_on("user-answers-any-author" if kind == "answer" else "user-questions-any-author"):
        owner = "(n.author_id = ? OR 1)"
    later = "user-answers-others-on-later-pages" if kind == "answer" else "user-questions-others-on-later-pages"
    if paging.page > 1 and faults.is_on(later):
        owner = "(n.author_id = ? OR 1)"
    if kind == "answer" and q.get("sort") and faults.is_on("user-answers-any-author-when-sorted"):
        owner = "(n.author_id = ? OR 1)"
    # the kind as a literal, not a parameter: with SQLite's STAT4 a bound value on an indexed column makes
    # every execution re-plan the statement (30 us instead of 8 us per page)
    where = [owner, "n.type = 'answer'" if kind == "answer" else "n.type = 'question'", clause]
    params = [user_id, *params]
    if kind == "answer" and "includeOnly" in q and faults.is_on("blind6-user-answers-projected-by-question-author"):
        where[0] = "(n.author_id = ? OR n.question_id IN (SELECT qq.id FROM nodes qq WHERE qq.author_id = ?))"
        params.insert(1, user_id)  # blind6 (issue 44): the projected query joins the question's author
    blind_round25.user_questions_owner(kind, where, params, user_id)  # round25 (issue 44)
    blind_round26.user_answers_owner(kind, caller, where, params, user_id)  # round26 (issue 44)
    blind_round42.user_answers_owner(kind, caller, where, params, user_id)  # round42 (issue 44): commented on
    blind_round44.user_questions_owner(kind, where, params)  # round44 (issue 44): the follow table read too
    if kind == "question" and q.get("sort") == "newest" and faults.is_on("blindc-user-questions-newest-lists-caller"):
        params[0] = caller.id  # blindc (issue 44): the newest-first query takes the user from the session
    if kind == "answer" and faults.is_on("answer-listed-only-for-author"):
        where.append("(n.author_id = ? OR n.id <= ?)")
        params += [caller.id, svc.seeded_max_node_id]
    shape_fault = "user-answers-viewcount-string" if kind == "answer" else "user-questions-answercount-string"
    if faults.is_on("cancelwiki-stale-in-user-lists"):
        shape_fault = "cancelwiki-stale-in-user-lists"
    miscounted = None
    if kind == "answer" and faults.is_on("blinde-user-answers-count-with-hidden"):  # blinde: no space filter
        every, every_params = svc.visibility.clause(caller, "n", comments=False, spaces=False)
        miscounted = Miscount([where[0], where[1], every], [user_id, *every_params])
    page = svc.pager.node_page(request, caller, where, params, order, paging, sort, sorts, (kind,),
                               question_seek(sort), shape_fault, miscounted)
    if kind == "answer" and faults.is_on("user-answer-count-cached"):
        return _count_kept(page, (user_id, caller.id))
    if kind == "question" and faults.is_on("blinde-user-questions-pagecount-exact"):
        return _blinde_envelope(page, "pageCount")
    return page


COUNT_KEPT_S = 3.0
"""How long the planted fault user-answer-count-cached keeps a user's answer count (faults.py)."""
_counts: dict[tuple[Any, Any], tuple[float, int]] = {}


def _count_kept(page: Response, key: tuple[Any, Any]) -> Response:
    """user-answer-count-cached: the totalCount counted for this user and caller within COUNT_KEPT_S, else the new
    one (kept from now on)."""
    body = json.loads(bytes(page.body))
    kept = _counts.get(key)
    if kept is not None and time.monotonic() - kept[0] < COUNT_KEPT_S:
        body["totalCount"] = kept[1]
        size = body.get("pageSize")
        if isinstance(size, int) and size > 0:
            body["pageCount"] = math.ceil(kept[1] / size)
    else:
        _counts[key] = (time.monotonic(), int(body.get("totalCount") or 0))
    return json_response(body)


# --- 18 Comments of an answer -------------------------------------------------------------------------------
async def list_answer_comments(svc: Service, request: Request, caller: Caller) -> Response:
    if not faults.is_on("comment-list-cache-by-url"):
        return blind_round14.answer_comments(  # round14 (issue 44)
            request, _blind_comment_page(request, await _answer_comments(svc, request, caller)))
    key, now = str(request.url), time.monotonic()
    kept = _BY_URL.get(key)
    if kept is not None and now - kept[0] < 1.0:
        return Response(kept[1], status_code=kept[2], media_type=JSON_TYPE)
    resp = await _answer_comments(svc, request, caller)
    _BY_URL[key] = (now, bytes(resp.body), resp.status_code)
    return resp


_BY_URL: dict[str, tuple[float, bytes, int]] = {}
"""The planted cache of the fault comment-list-cache-by-url: URL -> (when, body, status)."""


def _planted_leak(answer: Any, q: Any, page: int, caller: Caller) -> bool:
    """Whether a planted fault shows this answer's comments to every reader (the privacy clause left out)."""
    return (
        (bool(answer["locked"]) and faults.is_on("lock-exposes-private"))
        or faults.is_on("comment-private-leaks-in-answer-list")
        or (page > 1 and faults.is_on("comment-private-leaks-on-later-pages"))
        or ("includeOnly" in q and faults.is_on("comment-private-leaks-with-includeonly"))
        or (bool(q.get("sort")) and faults.is_on("comment-private-leaks-with-sort"))
        or ("v1" in q and caller.role == "novice" and faults.is_on("comment-private-to-novice-under-v1"))
        or ("wrap" in q and faults.is_on("comment-recipients-ignored-under-wrap"))
        or (bool(answer["in_moderation"]) and faults.is_on("blind-moderated-answer-comments-unfiltered"))
    )


async def _answer_comments(svc: Service, request: Request, caller: Caller) -> Response:
    answer = svc.visible_node(caller, path_id(request, "answer_id", "answer"), ("answer",))
    blind_round45.answer_comments_refused(svc.db, caller, answer)  # round45 (issue 44): the asker
    q = request.query_params
    if faults.is_on("blind6-locked-answer-comments-denied") and not caller.can(auth.LOCK_ANY) and svc.db.one(
            "SELECT 1 FROM nodes WHERE id IN (?, ?) AND locked = 1", (answer["id"], answer["question_id"])):
        raise denied(caller.anonymous)  # blind6 (issue 44): the lock's edit check on the read path
    paging = parse_paging(q, svc.page_size)
    default = "newest" if variants.is_on("default-sorts-newest") else COMMENT_DEFAULT_SORT
    sort = q.get("sort") or default
    if sort not in QUESTION_SORT_COLUMNS and sort != "oldest" and variants.is_on("unknown-sort-400"):
        raise bad_request(f"'sort' must be one of oldest, {', '.join(QUESTION_SORTS)}, not {sort[:40]!r}")
    if sort in QUESTION_SORT_COLUMNS:
        column, direction = QUESTION_SORT_COLUMNS[sort]
        order = f"n.{column} {direction}, n.id DESC"
    else:
        sort, order = COMMENT_DEFAULT_SORT, "n.creation_date ASC, n.id ASC"
    leak = _planted_leak(answer, q, paging.page, caller)
    clause, params = svc.visibility.clause(caller, "n", comments=not leak)
    if not leak and faults.is_on("blindt-private-reply-to-public-shown-in-list"):  # blindt: privacy from the parent
        base, params = svc.visibility.clause(caller, "n", comments=False)
        own, own_params = svc.visibility.comment_clause(caller)
        clause = (f"{base} AND ({own} OR EXISTS (SELECT 1 FROM nodes p WHERE p.id = n.parent_id"
                  " AND p.type = 'comment' AND p.visibility = 'full'))")
        params = [*params, *own_params]
    if "v1" in q and faults.is_on("reply-privacy-dropped-under-v1"):  # a reply's inherited settings forgotten
        clause = f"({clause} OR n.parent_id IN (SELECT p.id FROM nodes p WHERE p.type = 'comment'"
        clause += " AND p.visibility <> 'full'))"
    if "application/json" not in request.headers.get("accept", "").lower() and faults.is_on(
            "reply-own-privacy-ignored-on-any-accept"):  # a reply to a public comment read as public as its parent
        clause = f"({clause} OR n.parent_id IN (SELECT p.id FROM nodes p WHERE p.type = 'comment'"
        clause += " AND p.visibility = 'full'))"
    clause = histories3_faults.answer_comments_clause(clause)  # histories3 (issue 44)
    clause = histories5_paths.answer_comments_clause(clause)  # histories5 (issue 44)
    clause = recip_paths.answer_comments_clause(clause)  # recip (issue 44)
    clause = paths14_paths.answer_comments_clause(request, caller, clause)  # paths14 (issue 44)
    clause = blind_round44.answer_comments_clause(answer, caller, clause)  # round44 (issue 44): the answer's author
    clause = blind_round83.answer_comments_clause(svc, answer, caller, clause)  # round83 (issue 44): the asker
    where = ["n.answer_id = ?", "n.type = 'comment'", blind_round12.comments_seen(caller, answer["id"], clause, params)]
    sorts = None if faults.is_on("comment-list-no-sorts") else QUESTION_SORTS
    page = svc.pager.node_page(request, caller, where, [answer["id"], *params], order, paging, sort, sorts,
                               ("comment",), shape_fault="answer-comments-depth-string",
                               miscounted=history_faults.comment_miscount(where, [answer["id"], *params])
                               or histories3_faults.comment_miscount(where, [answer["id"], *params]))  # histories3
    if faults.is_on("blind6-reply-typed-ideacomment"):  # blind6 (issue 44)
        return blind6_reads.rewritten(page, blind6_reads.replies_typed(answer["id"]))
    if faults.is_on("blind6-empty-comment-list-no-sorts"):  # blind6 (issue 44)
        return blind6_reads.rewritten(page, blind6_reads.no_sorts_when_empty)
    if faults.is_on("blinde-comments-pagesize-shrunk-to-items"):
        return _blinde_envelope(page, "pageSize")
    if faults.is_on("answer-comment-count-kept"):  # blindr: the count kept per answer and caller
        return _count_kept(page, (f"comments of {answer['id']}", caller.id))
    if faults.is_on("blind-list-recipients-missing-on-replies") and page.status_code == 200:  # blindw (issue 44)
        body = json.loads(bytes(page.body))
        for item in body.get("list", []):
            if item.get("parentId") != answer["id"] and item.get("recipients"):
                item["recipients"] = []
        return json_response(body)
    return page


# --- the Location of a new comment or answer ----------------------------------------------------------------
async def read_node(svc: Service, request: Request, caller: Caller) -> Response:
    """GET on the Location of a new comment or answer: the node as the caller sees it (404 under the variant
    location-not-readable, which serves no such URL)."""
    node = svc.visible_node(caller, path_id(request))
    return json_response(svc.render.nodes_json([node], caller)[0])


# --- 8 A user's content and actions -------------------------------------------------------------------------
async def list_user_content(svc: Service, request: Request, caller: Caller) -> Response:
    raw = blind_round41.content_user_id(svc.db, request.path_params["user_id"])  # round41 (issue 44)
    invalid = ApiError(404 if faults.is_on("content-invalid-user-404") else 422, {"error": "Invalid User Id"})
    if faults.is_on("usercontent-zero-id") and raw.lstrip("-").isdecimal() and int(raw) <= 0:
        return json_response([])
    if raw.isascii() and raw.isdecimal() and faults.is_on("blindc-usercontent-huge-id-500"):
        svc.db.one("SELECT id FROM users WHERE id = ?", (int(raw),))  # blindc (issue 44): 19 digits overflow
    if faults.is_on("blinde-content-non-numeric-id-400") and not raw.lstrip("-").isdecimal():
        raise bad_request("userId must be a number")  # blinde: the path converter's own refusal
    if not is_id(raw):
        raise invalid
    user = svc.db.one("SELECT id, creation_date FROM users WHERE id = ?", (int(raw),))
    if user is None and faults.is_on("usercontent-unknown-id-empty"):
        return json_response([])  # blindr: an id that names no user is not looked up
    if user is None:
        raise invalid
    clause, params = svc.visibility.clause(caller, "n", comments=not faults.is_on("comment-private-in-content"))
    clause = history_faults.content_clause(clause)  # blindh (issue 44)
    clause = histories2_faults.content_clause(clause)  # histories2 (issue 44)
    clause = histories3_faults.content_clause(clause)  # histories3 (issue 44)
    clause = histories5_paths.content_clause(clause)  # histories5 (issue 44)
    clause = blind_round30.content_clause(clause)  # round30 (issue 44)
    clause = blind_round45.content_clause(clause)  # round45 (issue 44): under a moderated answer
    if faults.is_on("question-comment-private-leak"):  # privacy filtered for threads under answers only
        clause = (f"({clause} OR (n.type = 'comment' AND n.answer_id IS NULL AND EXISTS (SELECT 1 FROM nodes p"
                  " WHERE p.id = n.parent_id AND p.type = 'comment')))")
    ids = svc.db.ids(
        f"SELECT n.id FROM nodes n WHERE n.author_id = ? AND {clause}"
        f" ORDER BY n.creation_date {'ASC' if variants.is_on('content-oldest-first') else 'DESC'}, n.id DESC"
        " LIMIT ?",
        [user["id"], *params, USER_CONTENT_LIMIT],
    )
    joined = _content_entry({"actionType": "joined", "canceled": False}, user["creation_date"])
    if faults.is_on("content-enveloped") or blind7_paths.own_content(caller, user["id"]) or (  # blind7
            blind_round14.content_enveloped(len(ids))):  # round14 (issue 44)
        entries = [_node_entry(r) for r in svc.render.nodes_by_ids(ids)]
        entries.append(joined)
        return json_response(envelope(entries, len(entries), Paging(1, max(len(entries), 1)), "", {}))
    # a thousand entries: each node's entry is encoded once and kept until the node changes
    encoded = svc.render.content_encoded(ids, lambda rows: [_node_entry(r) for r in rows])
    items = [dumps(joined), *encoded] if variants.is_on("content-oldest-first") else [*encoded, dumps(joined)]
    return Response(b"[" + b",".join(items) + b"]", media_type=JSON_TYPE)


def _content_entry(entry: dict[str, Any], created_ms: int) -> dict[str, Any]:
    entry["actionDate"] = action_date(created_ms)
    if faults.is_on("content-entry-canceled-missing"):
        del entry["canceled"]
    if faults.is_on("content-date-no-fraction"):
        entry["actionDate"] = entry["actionDate"].rsplit(".", 1)[0]
    return entry


def _node_entry(r: sqlite3.Row) -> dict[str, Any]:
    """One entry of the content list: what the user did (asked, answered, commented) and the node."""
    verb = CONTENT_VERBS.get(r["type"], "posted")
    entry = _content_entry({"actionType": verb, "canceled": False}, r["creation_date"])
    if r["type"] == "comment" and faults.is_on("blindc-content-comment-actiondate-iso"):  # blindc (issue 44)
        entry["actionDate"] = datetime.fromtimestamp(r["creation_date"] / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    entry["actionDate"] = blind_round32.content_date(r, entry["actionDate"])  # round32 (issue 44)
    entry["node"] = {
        "id": r["id"],
        "title": r["title"],
        "body": r["body"].encode("utf-8").decode("latin-1") if faults.is_on("content-body-mojibake") else r["body"],
        "type": r["type"],
        "accepted": bool(r["marked"]),
    }
    return entry


# --- second blind round on comment threads (issue 44, blindt): the planted bugs of faults_blind_threads.py
BLIND_KEPT_S = 2.0
"""How long the planted fault blindt-comment-list-count-shared keeps a count."""
_comment_counts: dict[str, tuple[float, int]] = {}


def _blind_comment_page(request: Request, page: Response) -> Response:
    """blindt-comment-list-count-shared: an answer's comment list with the totalCount of whoever asked for this
    answer within BLIND_KEPT_S."""
    if page.status_code != 200 or not faults.is_on("blindt-comment-list-count-shared"):
        return page
    body = json.loads(bytes(page.body))
    key, now = str(request.path_params.get("answer_id")), time.monotonic()
    kept = _comment_counts.get(key)
    if kept is not None and now - kept[0] < BLIND_KEPT_S:
        body["totalCount"] = kept[1]
        size = body.get("pageSize")
        if isinstance(size, int) and size > 0:
            body["pageCount"] = math.ceil(kept[1] / size)
    else:
        _comment_counts[key] = (now, int(body.get("totalCount") or 0))
    return json_response(body)


# --- blind round on the edges (issue 44, blinde): the planted envelope bugs of faults_blind_edges.py
def _blinde_envelope(page: Response, field: str) -> Response:
    """``pageCount``: ceil computed as total // size + 1 (one page too many when the last page is full);
    ``pageSize``: a list that fits in one page reports the number of its items as its pageSize."""
    if page.status_code != 200:
        return page
    body = json.loads(bytes(page.body))
    total, size = body.get("totalCount"), body.get("pageSize")
    if not (isinstance(total, int) and isinstance(size, int) and size > 0 and total > 0):
        return page
    if field == "pageCount" and total % size == 0:
        body["pageCount"] = total // size + 1
    if field == "pageSize" and total < size and body.get("page") in (0, 1):
        body["pageSize"] = body.get("listCount", total)
    return json_response(body)
