"""The Starlette application: one route per operation of the description, all under /services/v2.

Handlers are ``async`` and call SQLite directly: the single connection is used only from the event loop thread,
so requests are serialised without locks and a write is visible to the next request at once.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from . import auth, faults, variants
from .auth import Authenticator, BadCredentials, Caller, StoredUser
from .db import QUESTION_SORT_COLUMNS, SQL_INT_MAX, Database, as_id
from .errors import ApiError, bad_request, denied, not_found, unauthorized
from .fragments import JSON_TYPE, dumps, spliced
from .keyset import Bookmarks, ListQuery
from .listing import QUESTION_SORTS, Paging, envelope, parse_paging
from .render import Renderer
from .visibility import Visibility

PREFIX = "/services/v2"
Handler = Callable[[Request], Awaitable[Response]]

QUESTION_LIST_PARAMS = frozenset(
    "topics unanswered spaceId page pageSize sort q type lang include exclude includeOnly wrap v1".split()
)
"""The query parameters the description lists for the question list (variant unknown-param-400 refuses others)."""

MAX_Q_CHARS = 1000
"""Longest search text accepted on the question list; longer is a 400, not a slow scan."""

STRING_FIELD_FAULTS = {
    "question-list-score-string": "score",
    "user-answers-viewcount-string": "viewCount",
    "user-questions-answercount-string": "answerCount",
    "answer-comments-depth-string": "depth",
}
"""Planted shape bugs of one node list each (faults.py): the named integer field of every item is a string."""


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(dumps(body), status_code=status, headers=headers, media_type=JSON_TYPE)


HTML_401 = """<!DOCTYPE html>
<html><head><title>HTTP Status 401 - Bad credentials</title></head>
<body><h1>HTTP Status 401 - Bad credentials</h1><hr/>
<p><b>type</b> Status report</p><p><b>message</b> Bad credentials</p>
<p><b>description</b> This request requires HTTP authentication.</p><hr/></body></html>
"""


def _wants_html(request: Request) -> bool:
    accept = request.headers.get("accept", "").lower()
    return "text/html" in accept and "application/json" not in accept


def parse_id(raw: str, what: str) -> int:
    """Path ids are positive integers; anything else names no resource (404)."""
    if raw.isascii() and raw.isdecimal() and len(raw) < 19:
        return int(raw)
    raise not_found(f"{what} {raw[:40]!r} does not exist; ids are positive integers")


def _projects(query: Any) -> bool:
    """Whether the request asks for a projection: then items are rendered as dicts, not taken encoded."""
    return "includeOnly" in query or "exclude" in query


def parse_bool(query: Any, name: str, default: bool) -> bool:
    raw = query.get(name)
    if raw is None or raw == "":
        return default
    low = raw.lower()
    if low in ("true", "1"):
        return True
    if low in ("false", "0"):
        return False
    raise bad_request(f"'{name}' must be true or false, not {raw[:40]!r}")


class Service:
    """State shared by the handlers: database, authenticator, visibility rules, renderer, settings."""

    def __init__(self, db: Database, page_size: int, tracker: str = "tracker") -> None:
        self.db = db
        self.page_size = page_size
        self.tracker = tracker
        self.authenticator = Authenticator(self._stored_users())
        denied_spaces: dict[str, set[int]] = {}
        for r in db.all("SELECT space_id, role FROM space_denied"):
            denied_spaces.setdefault(r["role"], set()).add(r["space_id"])
        self.visibility = Visibility({k: frozenset(v) for k, v in denied_spaces.items()})
        self.render = Renderer(db, self.visibility)
        self.bookmarks = Bookmarks(db)
        last = db.one("SELECT COALESCE(MAX(id), 0) FROM nodes")
        self.seeded_max_node_id = int(last[0]) if last else 0
        """The last node of the seed: a planted fault (answer-listed-only-for-author) tells new nodes by it."""

    def _stored_users(self) -> dict[str, StoredUser]:
        groups: dict[int, set[int]] = {}
        for r in self.db.all("SELECT user_id, group_id FROM user_groups"):
            groups.setdefault(r["user_id"], set()).add(r["group_id"])
        return {
            r["username"]: StoredUser(
                r["id"], r["username"], r["role"], r["password_hash"], frozenset(groups.get(r["id"], ()))
            )
            for r in self.db.all("SELECT id, username, role, password_hash FROM users WHERE password_hash IS NOT NULL")
        }

    # --- helpers ----------------------------------------------------------------------------------------
    def caller(self, request: Request) -> Caller:
        try:
            return self.authenticator.caller(request.headers.get("authorization"))
        except BadCredentials:
            raise unauthorized() from None

    @staticmethod
    def require(caller: Caller, *permissions: str, open_fault: str | None = None) -> None:
        """Refuse a caller without ``permissions``; ``open_fault`` (faults.py) lets anonymous through regardless."""
        if open_fault is not None and caller.anonymous and faults.is_on(open_fault):
            return
        if not caller.can(*permissions):
            raise denied(caller.anonymous)

    @staticmethod
    def fault_deny(caller: Caller, fault: str, role: str) -> None:
        """A planted permission bug (faults.py): refuse ``role`` what the permission table allows it."""
        if caller.role == role and faults.is_on(fault):
            raise denied(caller.anonymous)

    def visible_node(self, caller: Caller, node_id: int, kinds: tuple[str, ...] | None = None) -> sqlite3.Row:
        """The node if it exists and the caller may see it; 404 otherwise (never reveal hidden nodes)."""
        clause, params = self.visibility.clause(caller, "n")
        row = self.db.one(f"SELECT n.* FROM nodes n WHERE n.id = ? AND {clause}", [node_id, *params])
        if row is None or (kinds is not None and row["type"] not in kinds):
            kind = "/".join(kinds) if kinds else "node"
            message = f"{kind} {node_id} does not exist or is not visible to you"
            if variants.is_on("unknown-node-400"):
                raise ApiError(400, {"errors": {"message": message}})
            raise not_found(message)
        return row

    def user_exists(self, user_id: int) -> bool:
        return self.db.one("SELECT 1 FROM users WHERE id = ?", (user_id,)) is not None

    def node_page(
        self,
        request: Request,
        caller: Caller,
        where: list[str],
        params: list[Any],
        order: str,
        paging: Paging,
        sort: str,
        sorts: tuple[str, ...] | None,
        depends: tuple[str, ...],
        seek: tuple[str, str] | None = None,
        shape_fault: str | None = None,
    ) -> Response:
        """One page of nodes. ``seek`` is ``(column, direction)`` of ``order`` when it is ``column dir, id DESC``:
        then the page is found from the nearest page already served (:class:`Bookmarks`), not by OFFSET."""
        w = " AND ".join(where)
        total = self.db.count(f"SELECT COUNT(*) FROM nodes n WHERE {w}", tuple(params), depends)
        ids = self._page_ids(w, params, order, paging, total, seek)
        query = request.query_params
        broken = shape_fault is not None and faults.is_on(shape_fault)
        if _projects(query) or broken:
            items = self.render.nodes_json(self.render.nodes_by_ids(ids), caller)
            if broken and shape_fault == "cancelwiki-stale-in-user-lists":
                stale = set(self.db.ids("SELECT node_id FROM actions WHERE verb = 'wikified' AND canceled = 1", []))
                for item in items:
                    if item.get("id") in stale:
                        item["wiki"] = True
            elif broken and shape_fault is not None:
                field = STRING_FIELD_FAULTS[shape_fault]
                for item in items:
                    item[field] = str(item.get(field))
            return json_response(envelope(items, total, paging, sort, query, sorts))
        encoded = self.render.nodes_encoded(ids, caller)
        head = envelope([{}] * len(encoded), total, paging, sort, query, sorts)
        return Response(spliced(head, encoded), media_type=JSON_TYPE)

    @staticmethod
    def encoded_page(encoded: list[bytes], total: int, paging: Paging, sort: str, query: Any) -> Response:
        """A list response from already encoded items (no projection asked: see :func:`_projects`)."""
        head = envelope([{}] * len(encoded), total, paging, sort, query)
        return Response(spliced(head, encoded), media_type=JSON_TYPE)

    def _page_ids(
        self, w: str, params: list[Any], order: str, paging: Paging, total: int, seek: tuple[str, str] | None
    ) -> list[int]:
        offset = paging.offset
        if offset >= total:
            return []
        if seek is None or faults.is_on("paging-pages-overlap"):
            rows = self.db.all(
                f"SELECT n.id FROM nodes n WHERE {w} ORDER BY {order} LIMIT ? OFFSET ?", [*params, paging.size, offset]
            )
            return [r[0] for r in rows]
        column, direction = seek
        query = ListQuery(w, tuple(params), column, direction, paging.size)
        mark = self.bookmarks.nearest(query, offset)
        marked_pos = mark[0] if mark else 0
        skip = offset - marked_pos  # rows between the bookmark (or the start) and the page
        before = 1 if skip else 0  # also read the row before the page: the bookmark for asking this page again
        select = f"SELECT n.id, n.{column} FROM nodes n WHERE {w}"
        if mark is None:
            rows = self.db.all(
                f"{select} ORDER BY {order} LIMIT ? OFFSET ?", [*params, paging.size + before, skip - before]
            )
        else:
            value, last_id = mark[1]
            op = "<" if direction == "DESC" else ">"
            if skip == 0:
                # the page right after a bookmark (paging on, or the same page again): rows tied with the
                # bookmark's sort value first, by an index seek on (value, id), then the values after it
                rows = self.db.all(
                    f"{select} AND n.{column} = ? AND n.id < ? ORDER BY {order} LIMIT ?",
                    [*params, value, last_id, paging.size],
                )
                if len(rows) < paging.size:
                    rows += self.db.all(
                        f"{select} AND n.{column} {op} ? ORDER BY {order} LIMIT ?",
                        [*params, value, paging.size - len(rows)],
                    )
            else:
                rows = self.db.all(
                    f"{select} AND n.{column} {op}= ? AND (n.{column} {op} ? OR n.id < ?) ORDER BY {order}"
                    " LIMIT ? OFFSET ?",
                    [*params, value, value, last_id, paging.size + before, skip - before],
                )
        if before and rows:
            self.bookmarks.remember(query, offset, (rows[0][1], rows[0][0]))
            rows = rows[1:]
        if len(rows) == paging.size:
            self.bookmarks.remember(query, offset + paging.size, (rows[-1][1], rows[-1][0]))
        return [r[0] for r in rows]

    @staticmethod
    def question_order(query: Any, default: str = "active") -> tuple[str, str]:
        if variants.is_on("default-sorts-newest"):
            default = "newest"
        sort = query.get("sort") or default
        if sort not in QUESTION_SORT_COLUMNS:
            if variants.is_on("unknown-sort-400"):
                raise bad_request(f"'sort' must be one of {', '.join(QUESTION_SORTS)}, not {sort[:40]!r}")
            sort = default
        column, direction = QUESTION_SORT_COLUMNS[sort]
        return sort, f"n.{column} {direction}, n.id DESC"

    @staticmethod
    def question_seek(sort: str) -> tuple[str, str]:
        """The (column, direction) of a question sort, for keyset paging; see :meth:`question_order`."""
        return QUESTION_SORT_COLUMNS[sort]

    # --- 3 List questions -------------------------------------------------------------------------------
    async def list_questions(self, request: Request) -> Response:
        caller = self.caller(request)
        self.require(caller, auth.VIEW_QUESTIONS_LIST, open_fault="closed-site-questions-open")
        self.fault_deny(caller, "questions-denied-to-novice", "novice")
        q = request.query_params
        if variants.is_on("unknown-param-400"):
            unknown = sorted(set(q.keys()) - QUESTION_LIST_PARAMS)
            if unknown:
                known = ", ".join(sorted(QUESTION_LIST_PARAMS))
                raise bad_request(f"unknown parameter {unknown[0][:40]!r}; known: {known}")
        paging = parse_paging(q, self.page_size)
        sort, order = self.question_order(q)
        clause, params = self.visibility.clause(caller, "n", comments=False)
        where = ["n.type = 'question'", clause]
        space_raw = q.get("spaceId")
        if q.get("sort") and faults.is_on("spaceid-ignored-with-sort"):
            space_raw = None
        if space_raw and not faults.is_on("spaceid-ignored"):
            try:
                space_id = int(space_raw)
            except ValueError:
                raise bad_request(f"'spaceId' must be an integer, not {space_raw[:40]!r}") from None
            where.append("n.space_id = ?")
            params.append(space_id if abs(space_id) <= SQL_INT_MAX else -1)
        text = q.get("q")
        if text and len(text) > MAX_Q_CHARS:
            raise bad_request(f"'q' is longer than {MAX_Q_CHARS} characters; search for a shorter text")
        if text and variants.is_on("q-wildcards") and "*" in text:
            pattern = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_").replace("*", "%")
            where.append(
                "(lower(coalesce(n.title, '')) LIKE lower(?) ESCAPE '\\'"
                " OR lower(n.body) LIKE lower(?) ESCAPE '\\')"
            )
            params += [f"%{pattern}%", f"%{pattern}%"]
        elif text:
            # instr() rather than LIKE: no pattern syntax to escape, and no "pattern too complex" error on long q
            where.append("(instr(lower(coalesce(n.title, '')), lower(?)) > 0 OR instr(lower(n.body), lower(?)) > 0)")
            params += [text, text]
        topics_raw = q.get("topics")
        all_of = False
        if topics_raw:
            names = [t.strip() for t in topics_raw.split(",") if t.strip()]
            ids = [i for i in map(as_id, names) if i is not None]
            all_of = variants.is_on("topics-all-of") and bool(names)
            for name in names if all_of else ():
                where.append(
                    "EXISTS (SELECT 1 FROM node_topics nt JOIN topics t ON t.id = nt.topic_id"
                    " WHERE nt.node_id = n.id AND (t.id = ? OR t.name = ?))"
                )
                params += [as_id(name), name]
        if topics_raw and not all_of:
            where.append(
                "EXISTS (SELECT 1 FROM node_topics nt JOIN topics t ON t.id = nt.topic_id WHERE nt.node_id = n.id"
                f" AND (t.id IN ({','.join('?' * len(ids)) or 'NULL'})"
                f" OR t.name IN ({','.join('?' * len(names)) or 'NULL'})))"
            )
            params += [*ids, *names]
        depends: tuple[str, ...] = ("question",)
        if parse_bool(q, "unanswered", False):
            where.append("n.answer_count = 0")
            depends = ("question", "answer_count")
        sorts = None if faults.is_on("question-list-no-sorts") else QUESTION_SORTS
        seek = self.question_seek(sort)
        return self.node_page(request, caller, where, params, order, paging, sort, sorts, depends, seek,
                              "question-list-score-string")

    # --- 4 and 15 A user's answers / questions ---------------------------------------------------------
    async def list_user_answers(self, request: Request) -> Response:
        caller = self.caller(request)
        self.require(caller, auth.VIEW_QUESTIONS_LIST, auth.VIEW_ANSWERS,
                     open_fault="closed-site-user-answers-open")
        self.fault_deny(caller, "user-answers-denied-to-member", "member")
        return self._user_nodes(request, caller, "answer", None)

    async def list_user_questions(self, request: Request) -> Response:
        caller = self.caller(request)
        self.require(caller, auth.VIEW_QUESTIONS_LIST, open_fault="closed-site-user-questions-open")
        self.fault_deny(caller, "user-questions-denied-to-novice", "novice")
        return self._user_nodes(request, caller, "question", QUESTION_SORTS)

    def _user_nodes(self, request: Request, caller: Caller, kind: str, sorts: tuple[str, ...] | None) -> Response:
        user_id = parse_id(request.path_params["user_id"], "user")
        if not self.user_exists(user_id):
            raise not_found(f"user {user_id} does not exist")
        q = request.query_params
        paging = parse_paging(q, self.page_size)
        sort, order = self.question_order(q)
        clause, params = self.visibility.clause(caller, "n", comments=False)
        owner = "n.author_id = ?"
        if faults.is_on("user-answers-any-author" if kind == "answer" else "user-questions-any-author"):
            owner = "(n.author_id = ? OR 1)"
        later = "user-answers-others-on-later-pages" if kind == "answer" else "user-questions-others-on-later-pages"
        if paging.page > 1 and faults.is_on(later):
            owner = "(n.author_id = ? OR 1)"
        # the kind as a literal, not a parameter: with SQLite's STAT4 a bound value on an indexed column makes
        # every execution re-plan the statement (30 us instead of 8 us per page)
        where = [owner, "n.type = 'answer'" if kind == "answer" else "n.type = 'question'", clause]
        params = [user_id, *params]
        if kind == "answer" and faults.is_on("answer-listed-only-for-author"):
            where.append("(n.author_id = ? OR n.id <= ?)")
            params += [caller.id, self.seeded_max_node_id]
        seek = self.question_seek(sort)
        shape_fault = "user-answers-viewcount-string" if kind == "answer" else "user-questions-answercount-string"
        if faults.is_on("cancelwiki-stale-in-user-lists"):
            shape_fault = "cancelwiki-stale-in-user-lists"
        return self.node_page(request, caller, where, params, order, paging, sort, sorts, (kind,), seek,
                              shape_fault)

    # --- 5 and 6 Experts --------------------------------------------------------------------------------
    EXPERT_SORTS = {
        "reputation": "reputation DESC, id DESC",
        "default": "reputation DESC, id DESC",
        "username": "username ASC, id DESC",
        "realname": "realname IS NULL, realname ASC, id DESC",
        "recent": "creation_date DESC, id DESC",
        "oldest": "creation_date ASC, id DESC",
    }
    ACTIVE_EXPERT_REPUTATION = 100

    async def list_active_experts(self, request: Request) -> Response:
        return self._experts(
            request,
            "reputation >= ? AND active = 1 AND suspended = 0 AND deactivated = 0",
            [self.ACTIVE_EXPERT_REPUTATION],
        )

    async def list_earned_experts(self, request: Request) -> Response:
        return self._experts(request, "earned_expert = 1", [])

    def _experts(self, request: Request, where: str, params: list[Any]) -> Response:
        try:
            caller = self.caller(request)
            if caller.anonymous or not caller.can(auth.USE_API, auth.VIEW_PROFILE):
                raise denied(caller.anonymous and not faults.is_on("experts-anonymous-403"))
            self.fault_deny(caller, "experts-denied-to-novice", "novice")
        except ApiError as exc:
            if exc.status == 401 and _wants_html(request):
                return Response(HTML_401, 401, headers=exc.headers, media_type="text/html;charset=UTF-8")
            raise
        q = request.query_params
        paging = parse_paging(q, self.page_size)
        sort = q.get("sort") or ("username" if variants.is_on("default-sorts-newest") else "reputation")
        if sort not in self.EXPERT_SORTS or (sort == "realname" and faults.is_on("experts-sort-realname-refused")):
            raise bad_request(f"'sort' must be one of {', '.join(self.EXPERT_SORTS)}, not {sort[:40]!r}")
        total = self.db.count(f"SELECT COUNT(*) FROM users WHERE {where}", tuple(params))
        ids = [
            r[0]
            for r in self.db.all(
                f"SELECT id FROM users WHERE {where} ORDER BY {self.EXPERT_SORTS[sort]} LIMIT ? OFFSET ?",
                [*params, paging.size, paging.offset],
            )
        ]
        shown = "reputation" if sort == "default" else sort
        if faults.is_on("experts-sort-echo-default") or (paging.page > 1 and faults.is_on("experts-sort-echo-page-1")):
            shown = "reputation"
        active_list = request.url.path.endswith("/retrieveAllExperts.json")
        string_field = None
        if active_list and faults.is_on("active-experts-reputation-string"):
            string_field = "reputation"
        elif not active_list and faults.is_on("earned-experts-moderator-string"):
            string_field = "moderator"
        if not (string_field or _projects(q)):
            return self.encoded_page(self.render.users_encoded(ids), total, paging, shown, q)
        users = self.render.users_json(self.render.rows_by_ids(ids, "users"))
        if string_field:
            for u in users:
                u[string_field] = str(u[string_field]).lower()
        return json_response(envelope(users, total, paging, shown, q))

    # --- 9 Spaces ---------------------------------------------------------------------------------------
    NAMED_SORTS = {
        "name": "name ASC, id DESC",
        "newest": "creation_date DESC, id DESC",
        "oldest": "creation_date ASC, id DESC",
    }

    async def list_spaces(self, request: Request) -> Response:
        caller = self.caller(request)
        self.require(caller, auth.USE_SITE, open_fault="closed-site-spaces-open")
        if not caller.anonymous and faults.is_on("spaces-refuse-valid-credentials"):
            raise unauthorized()
        self.fault_deny(caller, "spaces-denied-to-member", "member")
        q = request.query_params
        paging = parse_paging(q, self.page_size)
        sort = q.get("sort") if q.get("sort") in self.NAMED_SORTS else "name"
        if q.get("sort") and sort != q.get("sort") and faults.is_on("space-invalid-sort-400"):
            raise bad_request(f"'sort' must be one of {', '.join(self.NAMED_SORTS)}")
        if not caller.can(auth.VIEW_QUESTIONS_LIST):
            where = "0"
        else:
            hidden = self.visibility.spaces_hidden_from(caller)
            projected = bool(q.get("includeOnly"))
            if faults.is_on("spaces-show-hidden") or (projected and faults.is_on("projected-spaces-show-hidden")):
                hidden = frozenset()
            where = f"id NOT IN ({','.join(str(s) for s in sorted(hidden))})" if hidden else "1"
        total = self.db.count(f"SELECT COUNT(*) FROM spaces WHERE {where}", ())
        rows = self.db.all(
            f"SELECT * FROM spaces WHERE {where} ORDER BY {self.NAMED_SORTS[str(sort)]} LIMIT ? OFFSET ?",
            [paging.size, paging.offset],
        )
        spaces = envelope([self.render.space_json(r) for r in rows], total, paging, str(sort), q)
        if faults.is_on("spaces-not-json"):
            return Response(json.dumps(spaces) + "\n<!-- served from cache -->\n", media_type=JSON_TYPE)
        return json_response(spaces)

    # --- 14 Topics --------------------------------------------------------------------------------------
    TOPIC_SORTS = {
        "popularity": "used_count DESC, id DESC",
        "name": "name ASC, id DESC",
        "newest": "creation_date DESC, id DESC",
        "oldest": "creation_date ASC, id DESC",
    }

    async def list_topics(self, request: Request) -> Response:
        caller = self.caller(request)
        self.require(caller, auth.VIEW_USERS_LIST, open_fault="closed-site-topics-open")
        self.fault_deny(caller, "topics-denied-to-novice", "novice")
        q = request.query_params
        paging = parse_paging(q, self.page_size)
        default = "name" if variants.is_on("default-sorts-newest") else "popularity"
        sort = str(q.get("sort")) if q.get("sort") in self.TOPIC_SORTS else default
        if q.get("sort") and sort != q.get("sort") and faults.is_on("topic-invalid-sort-by-name"):
            sort = "name"
        where, params = "1", []
        if q.get("q"):
            where = "instr(lower(name), lower(?)) > 0"
            params = [q["q"]]
        total = self.db.count(f"SELECT COUNT(*) FROM topics WHERE {where}", tuple(params))
        ids = [
            r[0]
            for r in self.db.all(
                f"SELECT id FROM topics WHERE {where} ORDER BY {self.TOPIC_SORTS[sort]} LIMIT ? OFFSET ?",
                [*params, paging.size, paging.offset],
            )
        ]
        if _projects(q):
            resp = json_response(
                envelope(self.render.topics_json(self.render.rows_by_ids(ids, "topics")), total, paging, sort, q)
            )
        else:
            resp = self.encoded_page(self.render.topics_encoded(ids), total, paging, sort, q)
        if faults.is_on("topics-text-plain"):
            resp.headers["content-type"] = "text/plain;charset=UTF-8"
        return resp

    # --- 16 Followers -----------------------------------------------------------------------------------
    async def list_followers(self, request: Request) -> Response:
        caller = self.caller(request)
        self.require(caller, auth.VIEW_USERS_LIST, open_fault="closed-site-followers-open")
        self.fault_deny(caller, "followers-denied-to-member", "member")
        node = self.visible_node(caller, parse_id(request.path_params["node_id"], "node"))
        q = request.query_params
        paging = parse_paging(q, self.page_size, default_page=0, zero_based=variants.is_on("followers-zero-based"))
        if q.get("sort") and variants.is_on("unknown-sort-400") and q.get("sort") not in ("", "newest"):
            raise bad_request(f"'sort' must be newest on the follower list, not {q['sort'][:40]!r}")
        details = parse_bool(q, "details", faults.is_on("followers-details-by-default"))
        only_active = parse_bool(q, "active", not faults.is_on("followers-inactive-by-default"))
        where = "f.node_id = ?" + (" AND f.active = 1" if only_active else "")
        total = self.db.count(f"SELECT COUNT(*) FROM follows f WHERE {where}", (node["id"],))
        if q.get("active") is None and faults.is_on("followers-default-items-include-inactive"):
            where = "f.node_id = ?"  # the count above is of active relations; the items are not
        rels = self.db.all(
            f"SELECT f.* FROM follows f WHERE {where} ORDER BY f.follow_date DESC, f.user_id DESC LIMIT ? OFFSET ?",
            [node["id"], paging.size, paging.offset],
        )
        string_reputation = faults.is_on("followers-reputation-string")
        if not (details or _projects(q) or string_reputation):
            return self.encoded_page(self.render.users_encoded([r["user_id"] for r in rels]), total, paging, "", q)
        users = self.render.users_by_id(r["user_id"] for r in rels)
        user_items = self.render.users_json([users[r["user_id"]] for r in rels])
        if string_reputation:
            for u in user_items:
                u["reputation"] = str(u["reputation"])
        if details:
            items = [
                {
                    "user": u,
                    "node": {"id": node["id"], "type": node["type"]},
                    "active": bool(r["active"]),
                    "followDate": r["follow_date"],
                }
                for r, u in zip(rels, user_items, strict=True)
            ]
        else:
            items = user_items
        return json_response(envelope(items, total, paging, "", q))

    # --- 17 Groups --------------------------------------------------------------------------------------
    async def list_groups(self, request: Request) -> Response:
        caller = self.caller(request)
        if faults.is_on("groups-denied-body-plain") and not caller.can(auth.EDIT_USERS_AND_GROUPS):
            raise ApiError(403, {"error": "you may not list groups"})
        self.fault_deny(caller, "groups-denied-to-admin", "admin")
        if not (faults.is_on("groups-allowed-without-permission") and not caller.anonymous):
            self.require(caller, auth.EDIT_USERS_AND_GROUPS)
        q = request.query_params
        paging = parse_paging(q, self.page_size)
        sort = str(q.get("sort")) if q.get("sort") in self.NAMED_SORTS else "name"
        if q.get("sort") and sort != q.get("sort") and faults.is_on("group-invalid-sort-400"):
            raise bad_request(f"'sort' must be one of {', '.join(self.NAMED_SORTS)}")
        total = self.db.count("SELECT COUNT(*) FROM groups", ())
        rows = self.db.all(
            f"SELECT * FROM groups ORDER BY {self.NAMED_SORTS[sort]} LIMIT ? OFFSET ?", [paging.size, paging.offset]
        )
        return json_response(envelope([self.render.group_json(r) for r in rows], total, paging, sort, q))

    # --- 18 Comments of an answer -----------------------------------------------------------------------
    COMMENT_DEFAULT_SORT = "oldest"

    async def list_answer_comments(self, request: Request) -> Response:
        caller = self.caller(request)
        self.require(caller, auth.VIEW_ANSWERS, auth.VIEW_QUESTION_PAGE,
                     open_fault="closed-site-answer-comments-open")
        self.fault_deny(caller, "answer-comments-denied-to-novice", "novice")
        answer = self.visible_node(caller, parse_id(request.path_params["answer_id"], "answer"), ("answer",))
        q = request.query_params
        paging = parse_paging(q, self.page_size)
        default = "newest" if variants.is_on("default-sorts-newest") else self.COMMENT_DEFAULT_SORT
        sort = q.get("sort") or default
        if sort not in QUESTION_SORT_COLUMNS and sort != "oldest" and variants.is_on("unknown-sort-400"):
            raise bad_request(f"'sort' must be one of oldest, {', '.join(QUESTION_SORTS)}, not {sort[:40]!r}")
        if sort in QUESTION_SORT_COLUMNS:
            column, direction = QUESTION_SORT_COLUMNS[sort]
            order = f"n.{column} {direction}, n.id DESC"
        else:
            sort, order = self.COMMENT_DEFAULT_SORT, "n.creation_date ASC, n.id ASC"
        leak = faults.is_on("comment-private-leaks-in-answer-list") or (
            paging.page > 1 and faults.is_on("comment-private-leaks-on-later-pages")
        )
        clause, params = self.visibility.clause(caller, "n", comments=not leak)
        where = ["n.answer_id = ?", "n.type = 'comment'", clause]
        sorts = None if faults.is_on("comment-list-no-sorts") else QUESTION_SORTS
        return self.node_page(request, caller, where, [answer["id"], *params], order, paging, sort, sorts, ("comment",),
                              shape_fault="answer-comments-depth-string")

    # --- 19 Issue types ---------------------------------------------------------------------------------
    async def list_issue_types(self, request: Request) -> Response:
        caller = self.caller(request)
        self.require(caller, auth.USE_API)
        if request.path_params["tracker"] != self.tracker:
            raise not_found(
                f"no issue tracker is set up under {request.path_params['tracker'][:40]!r};"
                f" this site uses {self.tracker!r}"
            )
        if faults.is_on("issuetypes-unavailable-503"):
            raise ApiError(503, {"error": "the issue tracker did not answer; try again later"})
        types = [{"name": r["name"]} for r in self.db.all("SELECT name FROM issue_types ORDER BY position")]
        if faults.is_on("issuetypes-title-not-name"):
            types = [{"title": t["name"]} for t in types]
        if faults.is_on("issuetypes-enveloped"):
            return json_response(envelope(types, len(types), Paging(1, max(len(types), 1)), "", {}))
        return json_response(types)


def _guard(handler: Handler) -> Handler:
    """Turns ApiError into its JSON response; any other exception is a 500 with a JSON body, never a traceback."""

    async def guarded(request: Request) -> Response:
        try:
            return await handler(request)
        except ApiError as exc:
            if exc.status == 401 and exc.credentials and variants.is_on("bad-credentials-html"):
                return Response(HTML_401, 401, headers=exc.headers, media_type="text/html;charset=UTF-8")
            body = exc.body
            if variants.is_on("denied-body-error") and exc.status in (401, 403) and "errors" in body:
                path = request.url.path
                if not (path.endswith("/group.json") or "/user/retrieve" in path):
                    body = {"error": body["errors"].get("message")}
            return json_response(body, exc.status, exc.headers)

    guarded.__name__ = handler.__name__
    return guarded


def _prefix(path: str) -> str:
    """/services/v2, except for the issue types under the planted fault issuetypes-under-v1 (faults.py)."""
    if path.endswith("/issuetype.json") and faults.is_on("issuetypes-under-v1"):
        return "/services/v1"
    return PREFIX


def create_app(db: Database, page_size: int = 15, tracker: str = "tracker") -> Starlette:
    from .writes import Writes

    svc = Service(db, page_size, tracker)
    w = Writes(svc)
    table: list[tuple[str, str, Handler]] = [
        ("POST", "/node/{node_id}/comment.json", w.post_comment),
        ("POST", "/jobs/gdpr/schedule.json", w.schedule_gdpr_job),
        ("GET", "/question.json", svc.list_questions),
        ("GET", "/user/retrieveAllExperts.json", svc.list_active_experts),
        ("GET", "/user/retrieveEarnedExperts.json", svc.list_earned_experts),
        ("GET", "/user/{user_id}/answer.json", svc.list_user_answers),
        ("POST", "/question/{question_id}/answer.json", w.post_answer),
        ("GET", "/users/gdpr/{user_id}/content.json", w.list_user_content),
        ("GET", "/space.json", svc.list_spaces),
        ("PUT", "/node/{node_id}/unmarkfavorite.json", w.unmark_favorite),
        ("PUT", "/node/{node_id}/cancelwiki.json", w.cancel_wiki),
        ("PUT", "/node/{node_id}/sendToMod.json", w.send_to_moderation),
        ("PUT", "/node/{node_id}/lock.json", w.lock),
        ("GET", "/topic.json", svc.list_topics),
        ("GET", "/user/{user_id}/question.json", svc.list_user_questions),
        ("GET", "/node/{node_id}/followers.json", svc.list_followers),
        ("GET", "/group.json", svc.list_groups),
        ("GET", "/answer/{answer_id}/comment.json", svc.list_answer_comments),
        ("GET", "/{tracker}/issuetype.json", svc.list_issue_types),
    ]
    if not variants.is_on("location-not-readable"):  # a Location one can read (should-level LOCATION-READABLE)
        table += [
            ("GET", "/comment/{node_id}.json", w.read_node),
            ("GET", "/answer/{node_id}.json", w.read_node),
            ("GET", "/questions/{question_id}/{node_id}.html", w.read_node),
        ]
    routes = [
        Route(_prefix(path) + path, _guard(handler), methods=[method]) for method, path, handler in table
    ]

    async def http_error(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 500)
        if status == 404:
            hint = "" if request.url.path.endswith(".json") else "; every path ends in .json"
            return json_response({"error": f"no operation at {request.url.path[:200]}{hint}"}, 404)
        if status == 405:
            return json_response({"error": f"{request.method} is not allowed on {request.url.path[:200]}"}, 405)
        return json_response({"error": str(getattr(exc, "detail", "error"))}, status)

    async def server_error(request: Request, exc: Exception) -> Response:
        return json_response({"error": f"internal error ({type(exc).__name__}); see the server log"}, 500)

    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: server_error})
    app.state.service = svc
    return app
