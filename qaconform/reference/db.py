"""SQLite storage of the reference server: schema, indexes and the connection wrapper.

One connection, used only from the event loop thread, so requests are serialised without locks. Every list's
filter and sort has an index (partial indexes on ``type``), so a page of a million nodes is an index walk, not a
sort; the sort indexes also cover the visibility columns (moderation, author, space), so the walk reads no rows
(and a page after a bookmarked one is a seek: see fragments.py). Counts of a list are cached until a write changes
what they count: ``totalCount`` of the busy lists costs one dict lookup. Changes to the rows a node's JSON is built
from are reported to Python by temporary triggers (:meth:`Database.watch_changes`), which drop cached renderings.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS groups (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, description TEXT,
    creation_date INTEGER NOT NULL, modification_date INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE, realname TEXT, email TEXT,
    password_hash TEXT, role TEXT NOT NULL, reputation INTEGER NOT NULL DEFAULT 0,
    gold INTEGER NOT NULL DEFAULT 0, silver INTEGER NOT NULL DEFAULT 0, bronze INTEGER NOT NULL DEFAULT 0,
    earned_expert INTEGER NOT NULL DEFAULT 0, active INTEGER NOT NULL DEFAULT 1,
    suspended INTEGER NOT NULL DEFAULT 0, deactivated INTEGER NOT NULL DEFAULT 0,
    post_count INTEGER NOT NULL DEFAULT 0, follower_count INTEGER NOT NULL DEFAULT 0,
    follow_count INTEGER NOT NULL DEFAULT 0, user_follow_count INTEGER NOT NULL DEFAULT 0,
    creation_date INTEGER NOT NULL, modification_date INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS user_groups (
    user_id INTEGER NOT NULL, group_id INTEGER NOT NULL, PRIMARY KEY (user_id, group_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS spaces (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, prefix TEXT NOT NULL, locale TEXT, parent_id INTEGER,
    active INTEGER NOT NULL DEFAULT 1, creation_date INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS space_denied (
    space_id INTEGER NOT NULL, role TEXT NOT NULL, PRIMARY KEY (space_id, role)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS topics (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, author_id INTEGER NOT NULL,
    creation_date INTEGER NOT NULL, used_count INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS nodes (
    id INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, parent_id INTEGER, question_id INTEGER, answer_id INTEGER,
    space_id INTEGER NOT NULL, author_id INTEGER NOT NULL, title TEXT, body TEXT NOT NULL,
    creation_date INTEGER NOT NULL, last_active_date INTEGER NOT NULL, last_active_user_id INTEGER NOT NULL,
    score INTEGER NOT NULL DEFAULT 0, up_votes INTEGER NOT NULL DEFAULT 0, down_votes INTEGER NOT NULL DEFAULT 0,
    view_count INTEGER NOT NULL DEFAULT 0, answer_count INTEGER NOT NULL DEFAULT 0,
    comment_count INTEGER NOT NULL DEFAULT 0, favorite_count INTEGER NOT NULL DEFAULT 0,
    follower_count INTEGER NOT NULL DEFAULT 0, report_count INTEGER NOT NULL DEFAULT 0,
    hot INTEGER NOT NULL DEFAULT 0, depth INTEGER NOT NULL DEFAULT 0,
    wiki INTEGER NOT NULL DEFAULT 0, marked INTEGER NOT NULL DEFAULT 0, closed INTEGER NOT NULL DEFAULT 0,
    locked INTEGER NOT NULL DEFAULT 0, in_moderation INTEGER NOT NULL DEFAULT 0,
    visibility TEXT NOT NULL DEFAULT 'full', slug TEXT, listed INTEGER NOT NULL DEFAULT 1);
CREATE TABLE IF NOT EXISTS comment_recipients (
    comment_id INTEGER NOT NULL, user_id INTEGER NOT NULL, PRIMARY KEY (comment_id, user_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS node_topics (
    node_id INTEGER NOT NULL, topic_id INTEGER NOT NULL, PRIMARY KEY (node_id, topic_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS favorites (
    user_id INTEGER NOT NULL, node_id INTEGER NOT NULL, action_id INTEGER NOT NULL,
    PRIMARY KEY (user_id, node_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS follows (
    node_id INTEGER NOT NULL, user_id INTEGER NOT NULL, active INTEGER NOT NULL, follow_date INTEGER NOT NULL,
    PRIMARY KEY (node_id, user_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS actions (
    id INTEGER PRIMARY KEY, verb TEXT NOT NULL, user_id INTEGER NOT NULL, real_user_id INTEGER,
    node_id INTEGER NOT NULL, ip TEXT NOT NULL, action_date INTEGER NOT NULL, canceled INTEGER NOT NULL DEFAULT 0,
    canceled_by INTEGER, canceled_date INTEGER, extra TEXT, private INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS csv_files (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (
    id INTEGER PRIMARY KEY, type TEXT NOT NULL, schedule_minute INTEGER NOT NULL UNIQUE, request TEXT NOT NULL,
    created_by INTEGER NOT NULL, creation_date INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS issue_types (position INTEGER PRIMARY KEY, name TEXT NOT NULL);
"""

QUESTION_SORT_COLUMNS: dict[str, tuple[str, str]] = {
    "active": ("last_active_date", "DESC"),
    "newest": ("creation_date", "DESC"),
    "hottest": ("hot", "DESC"),
    "votes": ("score", "DESC"),
    "viewCount": ("view_count", "DESC"),
    "usedCount": ("view_count", "DESC"),
    "answerCount": ("answer_count", "DESC"),
    "answerCountAsc": ("answer_count", "ASC"),
    "commentCount": ("comment_count", "DESC"),
    "favoriteCount": ("favorite_count", "DESC"),
    "followers": ("follower_count", "DESC"),
    "reportCount": ("report_count", "DESC"),
}
"""The 12 sort names of question and comment lists and the node column each orders by (tie-break: id DESC).
usedCount has no meaning for a question in the description; it orders like viewCount."""


SQL_INT_MAX = 2**63 - 1

CHANGE_TRIGGERS = """
CREATE TEMP TRIGGER IF NOT EXISTS qa_nodes_ins AFTER INSERT ON main.nodes BEGIN
    SELECT qa_changed('node', NEW.id), qa_changed('node', NEW.parent_id); END;
CREATE TEMP TRIGGER IF NOT EXISTS qa_nodes_upd AFTER UPDATE ON main.nodes BEGIN
    SELECT qa_changed('node', NEW.id), qa_changed('node', NEW.parent_id), qa_changed('node', OLD.parent_id); END;
CREATE TEMP TRIGGER IF NOT EXISTS qa_nodes_del AFTER DELETE ON main.nodes BEGIN
    SELECT qa_changed('node', OLD.id), qa_changed('node', OLD.parent_id); END;
CREATE TEMP TRIGGER IF NOT EXISTS qa_recipients_ins AFTER INSERT ON main.comment_recipients BEGIN
    SELECT qa_changed('node', NEW.comment_id),
           qa_changed('node', (SELECT parent_id FROM main.nodes WHERE id = NEW.comment_id)); END;
CREATE TEMP TRIGGER IF NOT EXISTS qa_recipients_del AFTER DELETE ON main.comment_recipients BEGIN
    SELECT qa_changed('node', OLD.comment_id),
           qa_changed('node', (SELECT parent_id FROM main.nodes WHERE id = OLD.comment_id)); END;
CREATE TEMP TRIGGER IF NOT EXISTS qa_node_topics_ins AFTER INSERT ON main.node_topics BEGIN
    SELECT qa_changed('node', NEW.node_id); END;
CREATE TEMP TRIGGER IF NOT EXISTS qa_node_topics_del AFTER DELETE ON main.node_topics BEGIN
    SELECT qa_changed('node', OLD.node_id); END;
CREATE TEMP TRIGGER IF NOT EXISTS qa_users_upd AFTER UPDATE OF username, realname, email, reputation ON main.users
    BEGIN SELECT qa_changed('all', NEW.id); END;
CREATE TEMP TRIGGER IF NOT EXISTS qa_users_row_upd AFTER UPDATE ON main.users BEGIN SELECT qa_changed('user', NEW.id);
    END;
CREATE TEMP TRIGGER IF NOT EXISTS qa_users_ins AFTER INSERT ON main.users BEGIN SELECT qa_changed('all', NEW.id); END;
CREATE TEMP TRIGGER IF NOT EXISTS qa_users_del AFTER DELETE ON main.users BEGIN SELECT qa_changed('all', OLD.id); END;
"""
"""Every change to a row a node's JSON is built from (the node, its children, recipients, topics, an author) calls
``qa_changed(kind, id)``; so does any change to a user (kind ``user``: its own JSON, e.g. postCount). A change to
the author columns of a user (shown inside nodes and topics) is kind ``all``."""

_WATCH_ALL = ("topics", "user_groups", "groups", "spaces", "space_denied")
"""Tables the service does not write after seeding: any change to them is kind ``all``, in case one day it does."""


def as_id(value: object) -> int | None:
    """A positive id SQLite can hold, from an int or a string of ASCII digits; None for anything else.

    Without the bound, a client sending 99999999999999999999 would make sqlite3 raise OverflowError (a 500).
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        value = value.strip()
        if not (value.isascii() and value.isdecimal()):
            return None
        value = int(value)
    if isinstance(value, int) and 0 < value <= SQL_INT_MAX:
        return value
    return None


def _index_ddl() -> list[str]:
    ddl = []
    for name, (column, direction) in QUESTION_SORT_COLUMNS.items():
        if name == "usedCount":
            continue
        ddl.append(
            f"CREATE INDEX IF NOT EXISTS ix_q_{column}_{direction.lower()} ON nodes({column} {direction}, id DESC,"
            " in_moderation, author_id, space_id) WHERE type = 'question'"
        )
    ddl += [
        "CREATE INDEX IF NOT EXISTS ix_q_space_active ON nodes(space_id, last_active_date DESC, id DESC,"
        " in_moderation, author_id) WHERE type = 'question'",
        "CREATE INDEX IF NOT EXISTS ix_nodes_author ON nodes(author_id, type, last_active_date DESC, id DESC)",
        # covers every column the visibility clause reads, so childrenIds of a node is an index walk
        "CREATE INDEX IF NOT EXISTS ix_nodes_parent ON nodes(parent_id, id, type, in_moderation, visibility,"
        " author_id, space_id, question_id)",
        "CREATE INDEX IF NOT EXISTS ix_nodes_answer ON nodes(answer_id, creation_date, id) WHERE answer_id IS NOT NULL",
        "CREATE INDEX IF NOT EXISTS ix_nodes_author_created ON nodes(author_id, creation_date DESC, id DESC,"
        " in_moderation, visibility, space_id, question_id)",
        "CREATE INDEX IF NOT EXISTS ix_node_topics_topic ON node_topics(topic_id)",
        "CREATE INDEX IF NOT EXISTS ix_follows_node ON follows(node_id, active, follow_date DESC, user_id DESC)",
        "CREATE INDEX IF NOT EXISTS ix_users_reputation ON users(reputation DESC, id DESC)",
        "CREATE INDEX IF NOT EXISTS ix_user_groups_group ON user_groups(group_id, user_id)",
        "CREATE INDEX IF NOT EXISTS ix_topics_used ON topics(used_count DESC, id DESC)",
        "CREATE INDEX IF NOT EXISTS ix_actions_user ON actions(user_id, action_date DESC)",
    ]
    return ddl


class Database:
    """The connection plus a write counter that invalidates cached list counts."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        if path != ":memory:":
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA temp_store=MEMORY")
        self.conn.execute("PRAGMA cache_size=-200000")
        self.conn.executescript(SCHEMA)
        if "listed" not in {r[1] for r in self.conn.execute("PRAGMA main.table_info(nodes)")}:  # an older --db file
            self.conn.execute("ALTER TABLE nodes ADD COLUMN listed INTEGER NOT NULL DEFAULT 1")
        # deleted nodes (the site's delete action, deletion.py): moved here with the action that removed them, so
        # that no list, count or id list can show them, and a second delete of one finds it (404 "already deleted");
        # node ids are AUTOINCREMENT, so a new node never takes the id of a deleted one
        self.conn.execute("CREATE TABLE IF NOT EXISTS deleted_nodes AS SELECT *, 0 AS delete_action FROM nodes WHERE 0")
        self._counts: dict[tuple[str, tuple[Any, ...], tuple[int, ...]], int] = {}
        self._versions: dict[str, int] = {}
        self.generation = 0
        """Bumped by every change :meth:`watch_changes` reports that may reorder a node list."""
        self._listeners: list[Callable[[str, int | None], None]] = []

    def watch_changes(self, listener: Callable[[str, int | None], None]) -> None:
        """Call ``listener(kind, row_id)`` for every row change that can alter a rendered node.

        ``kind`` is ``"node"`` (that node's own JSON or its children changed), ``"user"`` (that user's row) or
        ``"all"`` (anything may have).
        SQLite calls it from temporary triggers, so no write path of the service can forget to report a change.
        The triggers are installed after seeding: a million seeded rows should not call into Python.
        """
        if not self._listeners:
            self.conn.create_function("qa_changed", 2, self._changed)
            self.conn.executescript(CHANGE_TRIGGERS)
            for table in _WATCH_ALL:
                for event in ("INSERT", "UPDATE", "DELETE"):
                    self.conn.execute(
                        f"CREATE TEMP TRIGGER IF NOT EXISTS qa_{table}_{event.lower()} AFTER {event} ON main.{table}"
                        " BEGIN SELECT qa_changed('all', NULL); END"
                    )
        self._listeners.append(listener)

    def log_node_changes(self) -> None:
        """Keep the old version of every node row that changes in ``temp.node_changes`` (``seq`` orders them).

        An inserted node is logged with ``existed = 0`` and no columns; an updated or deleted one with its values
        before the change. Readers use it to tell where a changed row stood in a list before the change (see
        keyset.py); they delete what they no longer need.
        """
        columns = [r[1] for r in self.conn.execute("PRAGMA main.table_info(nodes)")]
        old = ", ".join(f"OLD.{c}" for c in columns)
        names = ", ".join(columns)
        self.conn.executescript(
            f"""
            CREATE TEMP TABLE IF NOT EXISTS node_changes (
                seq INTEGER PRIMARY KEY AUTOINCREMENT, existed INTEGER NOT NULL, {names});
            CREATE INDEX IF NOT EXISTS temp.ix_node_changes_id ON node_changes(id, seq);
            CREATE TEMP TRIGGER IF NOT EXISTS qa_log_ins AFTER INSERT ON main.nodes BEGIN
                INSERT INTO node_changes(existed, id) VALUES (0, NEW.id); END;
            CREATE TEMP TRIGGER IF NOT EXISTS qa_log_upd AFTER UPDATE ON main.nodes BEGIN
                INSERT INTO node_changes(existed, {names}) VALUES (1, {old}); END;
            CREATE TEMP TRIGGER IF NOT EXISTS qa_log_del AFTER DELETE ON main.nodes BEGIN
                INSERT INTO node_changes(existed, {names}) VALUES (1, {old}); END;
            """
        )

    def last_change(self) -> int:
        """The ``seq`` of the newest logged node change (0: none yet), also after older entries were deleted:
        AUTOINCREMENT never hands out a ``seq`` twice, so "changes after N" keeps its meaning."""
        row = self.conn.execute("SELECT seq FROM temp.sqlite_sequence WHERE name = 'node_changes'").fetchone()
        return int(row[0]) if row else 0

    def _changed(self, kind: str, row_id: int | None) -> None:
        if kind != "all" and row_id is None:
            return  # the parent of a question
        if kind != "user":  # a user's own row orders no node list
            self.generation += 1
        for listener in self._listeners:
            listener(kind, row_id)

    def create_indexes(self) -> None:
        """Created after bulk seeding: building an index once is much faster than maintaining it per insert."""
        for ddl in _index_ddl():
            self.conn.execute(ddl)
        self.conn.execute("ANALYZE")

    def is_seeded(self) -> bool:
        return self.conn.execute("SELECT 1 FROM meta WHERE key = 'seeded'").fetchone() is not None

    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def all(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> list[sqlite3.Row]:
        return self.conn.execute(sql, params).fetchall()

    def ids(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> list[int]:
        """The first column of every row, without building a ``sqlite3.Row`` per row (a thousand ids cost 0.1 ms)."""
        cur = self.conn.cursor()
        cur.row_factory = None
        return [r[0] for r in cur.execute(sql, params)]

    def one(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self.conn.execute(sql, params).fetchone()
        return row

    def frame_requests(self, minute: int) -> list[dict[str, Any]]:
        """The stored requests of the jobs holding a schedule minute ({} for one that does not parse): the time-frame
        faults compare a new job with the one already there, each on its own key."""
        found: list[dict[str, Any]] = []
        for row in self.all("SELECT request FROM jobs WHERE schedule_minute = ?", (minute,)):
            try:
                request = json.loads(row["request"])
            except ValueError:
                request = {}
            found.append(request if isinstance(request, dict) else {})
        return found

    def count(self, sql: str, params: tuple[Any, ...], depends: tuple[str, ...] = ()) -> int:
        """A cached ``SELECT COUNT(*)``, valid while the data kinds in ``depends`` are unchanged.

        A posted answer changes no question count (unless the list filters on answerCount), so the count of
        the busiest list survives a write-heavy load; see :meth:`wrote`.
        """
        key = (sql, params, tuple(self._versions.get(d, 0) for d in depends))
        cached = self._counts.get(key)
        if cached is None:
            cached = int(self.conn.execute(sql, params).fetchone()[0])
            if len(self._counts) > 5000:
                self._counts.clear()
            self._counts[key] = cached
        return cached

    def wrote(self, *kinds: str) -> None:
        """Invalidate cached counts that depend on ``kinds`` (all counts when no kind is given)."""
        if not kinds:
            self._counts.clear()
            return
        for kind in kinds:
            self._versions[kind] = self._versions.get(kind, 0) + 1

    def close(self) -> None:
        self.conn.close()
