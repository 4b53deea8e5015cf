"""The state every handler shares: database, authenticator, visibility rules, renderer, paging bookmarks and the
site's settings. Handlers receive it as their first argument; it knows nothing of routes or permissions."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager

from starlette.requests import Request

from . import faults, variants
from .auth import Authenticator, BadCredentials, Caller, StoredUser, anonymous, credentials_planted, planted_credentials
from .db import Database
from .errors import ApiError, forbidden, not_found, unauthorized
from .keyset import Bookmarks
from .pages import NodePager
from .render import Renderer
from .visibility import Visibility


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class Service:
    """Database, authenticator, visibility rules, renderer, node pager and settings of one running server."""

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
        self.pager = NodePager(db, self.render, self.bookmarks)
        last = db.one("SELECT COALESCE(MAX(id), 0) FROM nodes")
        self.seeded_max_node_id = int(last[0]) if last else 0
        """The last node of the seed: a planted fault (answer-listed-only-for-author) tells new nodes by it."""
        self.first_poster: int | None = None
        """The first account that posted an answer: what the planted fault answer-author-is-first-poster keeps."""

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

    def caller(self, request: Request) -> Caller:
        """The acting user of the request; 401 for credentials that name no user or carry a wrong password."""
        header = request.headers.get("authorization")
        if header and credentials_planted():  # request.url is built only then: it costs more than the cached check
            header = planted_credentials(header, request.method, request.url.path)
        try:
            return self.authenticator.caller(header)
        except BadCredentials:
            path = request.url.path
            if path.endswith("/question.json") and "/user/" in path and faults.is_on(
                    "bad-credentials-anonymous-on-user-questions"):
                return anonymous()  # blindr: a wrong password falls back to the anonymous caller on one list
            if path.endswith("/user/retrieveAllExperts.json") and faults.is_on("blindp-experts-bad-password-403"):
                raise forbidden() from None  # blindp (issue 44): the account was found, taken as signed in
            raise unauthorized() from None

    def visible_node(self, caller: Caller, node_id: int, kinds: tuple[str, ...] | None = None) -> sqlite3.Row:
        """The node if it exists and the caller may see it; 404 otherwise (never reveal hidden nodes)."""
        clause, params = self.visibility.clause(caller, "n", by_id=True)
        row = self.db.one(f"SELECT n.* FROM nodes n WHERE n.id = ? AND {clause}", [node_id, *params])
        if row is None or (kinds is not None and row["type"] not in kinds):
            kind = "/".join(kinds) if kinds else "node"
            message = f"{kind} {node_id} does not exist or is not visible to you"
            if variants.is_on("unknown-node-400"):
                raise ApiError(400, {"errors": {"message": message}})
            raise not_found(message)
        return row

    def list_later(self, conn: sqlite3.Connection, node_id: int, kind: str) -> None:
        """Variant lists-lag-writes, inside the transaction that inserted the node: it shows in lists (and in its
        parent's ids) only ``LIST_LAG_MS`` later, as from a search index that a real server updates after the 201.
        The later UPDATE goes through the change triggers, so cached pages, counts and bookmarks follow it."""
        if not variants.is_on("lists-lag-writes"):
            return
        conn.execute("UPDATE nodes SET listed = 0 WHERE id = ?", (node_id,))
        asyncio.get_running_loop().call_later(variants.LIST_LAG_MS / 1000, self._listed, node_id, kind)

    def _listed(self, node_id: int, kind: str) -> None:
        with self.tx(kind) as conn:
            conn.execute("UPDATE nodes SET listed = 1 WHERE id = ?", (node_id,))

    def user_exists(self, user_id: int) -> bool:
        return self.db.one("SELECT 1 FROM users WHERE id = ?", (user_id,)) is not None

    @contextmanager
    def tx(self, *kinds: str) -> Iterator[sqlite3.Connection]:
        """One transaction; afterwards cached counts depending on ``kinds`` are dropped (all when none given)."""
        conn = self.db.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        self.db.wrote(*kinds)
