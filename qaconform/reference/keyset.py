"""Keyset continuation for page-numbered node lists: where rows of a list stand, kept across writes.

Why: a client asks for page N, and SQLite can only skip the rows before it by walking them (OFFSET). So for each
list (its WHERE, ORDER BY, parameters and page size) the sort key ``(value, id)`` of rows at known positions is
kept ("bookmarks"; position = how many rows of the list come up to and including that row). Page N then starts
with an index seek after the nearest bookmark at or before its first row and skips only the rows in between.

A write does not throw bookmarks away. SQLite logs the old version of every node row that changes
(``temp.node_changes``, :meth:`qaconform.reference.db.Database.log_node_changes`). Before a list is read again,
each row changed since is placed relative to each bookmark before and after its change, with the list's own WHERE
evaluated by SQLite on both versions: a row that moved from after a bookmark to before it moves that bookmark one
position down the list, a row that left the list from before it moves it one up, and so on. A bookmark on a row
that itself moved or left is dropped. Lists are ordered ``column direction, id DESC`` (see app.question_order).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any

from .db import Database

ListKey = tuple[str, tuple[Any, ...], int]
"""(WHERE and ORDER BY text, their parameters, page size): one list as one caller sees it."""
SortKey = tuple[Any, int]
"""(sort column value, id) of a row."""


@dataclass
class _Marks:
    seq: int
    """The newest node change this list's bookmarks account for."""
    generation: int
    """``Database.generation`` when they were last caught up: unchanged means nothing to catch up with."""
    positions: list[int] = field(default_factory=list)
    keys: dict[int, SortKey] = field(default_factory=dict)


@dataclass(frozen=True)
class ListQuery:
    """What a list is: ``WHERE`` over alias ``n`` (with its parameters), ordered by ``column direction, id DESC``."""

    where: str
    params: tuple[Any, ...]
    column: str
    direction: str
    size: int

    @property
    def key(self) -> ListKey:
        return (f"{self.where} ORDER BY {self.column} {self.direction}", self.params, self.size)

    def at_or_before(self, row: SortKey, mark: SortKey) -> bool:
        """Whether ``row`` comes at or before ``mark`` in this list's order."""
        (value, row_id), (mark_value, mark_id) = row, mark
        if value == mark_value:
            return row_id >= mark_id
        return value > mark_value if self.direction == "DESC" else value < mark_value


class Bookmarks:
    """The bookmarks of every list read lately, caught up with node changes before each use."""

    MAX_LISTS = 256
    MAX_MARKS = 512
    """Per list; beyond, every other bookmark is dropped (the list stays covered, more sparsely)."""
    MAX_PENDING = 2_000
    """Changes a list may be behind; beyond, its bookmarks are dropped rather than caught up."""

    def __init__(self, db: Database) -> None:
        self.db = db
        db.log_node_changes()
        db.watch_changes(self._changed)
        self._lists: dict[ListKey, _Marks] = {}
        self._generation = db.generation

    def _changed(self, kind: str, row_id: int | None) -> None:
        if kind == "all":  # e.g. who may see which space: list membership may have changed in ways not logged
            self.clear()

    def clear(self) -> None:
        self._lists.clear()
        self.db.conn.execute("DELETE FROM temp.node_changes")

    def nearest(self, query: ListQuery, offset: int) -> tuple[int, SortKey] | None:
        """The bookmark with the highest position at or before ``offset`` (rows to skip), if the list has one."""
        marks = self._lists.get(query.key)
        if marks is None:
            return None
        if self.db.generation != self._generation:
            self._prune()
            marks = self._lists.get(query.key)
            if marks is None:
                return None
        self._catch_up(query, marks)
        i = bisect.bisect_right(marks.positions, offset)
        if i == 0:
            return None
        pos = marks.positions[i - 1]
        return pos, marks.keys[pos]

    def remember(self, query: ListQuery, position: int, row: SortKey) -> None:
        """``row`` is the ``position``-th row of the list, as of now.

        One bookmark per page-sized stretch of the list is enough (the newest wins): a page asked again and again
        while rows move about would otherwise leave a trail of bookmarks, each to be caught up after every write.
        """
        marks = self._lists.get(query.key)
        if marks is None:
            if len(self._lists) >= self.MAX_LISTS:
                self.clear()
            marks = self._lists[query.key] = _Marks(seq=self.db.last_change(), generation=self.db.generation)
        else:
            self._catch_up(query, marks)  # the older bookmarks must be as of now too
        i = bisect.bisect_left(marks.positions, position - query.size + 1)
        while i < len(marks.positions) and marks.positions[i] < position + query.size:
            del marks.keys[marks.positions.pop(i)]
        bisect.insort(marks.positions, position)
        marks.keys[position] = row
        if len(marks.positions) > self.MAX_MARKS:
            kept = marks.positions[1::2]
            marks.keys = {p: marks.keys[p] for p in kept}
            marks.positions = kept

    # --- catching up with writes -------------------------------------------------------------------------
    def _catch_up(self, query: ListQuery, marks: _Marks) -> None:
        if marks.generation == self.db.generation:
            return
        marks.generation = self.db.generation
        latest = self.db.last_change()
        if latest == marks.seq:
            return
        if latest - marks.seq > self.MAX_PENDING:
            marks.positions, marks.keys = [], {}
            marks.seq = latest
            return
        col = query.column
        # each changed row as it was when these bookmarks were last right: its first logged version since
        before = {
            r[0]: (bool(r[1] and r[3]), (r[2], r[0]))
            for r in self.db.all(
                f"SELECT n.id, n.existed, n.{col}, ({query.where}) FROM temp.node_changes n"
                " WHERE n.seq > ? AND n.seq <= ? AND n.seq = (SELECT min(c.seq) FROM temp.node_changes c"
                " WHERE c.id = n.id AND c.seq > ?)",
                [*query.params, marks.seq, latest, marks.seq],
            )
        }
        ids = ",".join(str(int(i)) for i in before)
        after = {
            r[0]: (bool(r[2]), (r[1], r[0]))
            for r in self.db.all(f"SELECT n.id, n.{col}, ({query.where}) FROM nodes n WHERE n.id IN ({ids})",
                                 list(query.params))
        }
        moved: dict[int, SortKey] = {}
        for pos in marks.positions:
            mark = marks.keys[pos]
            shift = 0
            for row_id, (was_in, old) in before.items():
                now_in, new = after.get(row_id, (False, old))
                if row_id == mark[1]:
                    if not (was_in and now_in and old == new):
                        break  # the bookmarked row itself moved or left: the bookmark is dropped
                    continue
                shift += int(now_in and query.at_or_before(new, mark)) - int(was_in and query.at_or_before(old, mark))
            else:
                moved[pos + shift] = mark
        marks.positions = sorted(moved)
        marks.keys = moved
        marks.seq = latest

    def _prune(self) -> None:
        """Forget log entries every list has caught up with (and lists too far behind to catch up)."""
        self._generation = self.db.generation
        latest = self.db.last_change()
        for key in [k for k, m in self._lists.items() if latest - m.seq > self.MAX_PENDING]:
            del self._lists[key]
        oldest = min((m.seq for m in self._lists.values()), default=latest)
        self.db.conn.execute("DELETE FROM temp.node_changes WHERE seq <= ?", (oldest,))
