"""Encoded resources kept between requests (nodes, users, topics, content entries), and the one JSON encoding.

Why: on a list page, finding which 15 nodes to show is one index walk, while rendering them (author, topics,
visible children, recipients) and encoding the JSON costs several times more, and the same nodes are shown on
every request until something changes. So a node's encoded JSON is kept until SQLite reports a change to a row it
was built from (see :meth:`qaconform.reference.db.Database.watch_changes`): no write path has to remember to
invalidate, and a reader never sees a node older than the last committed write.

A node's JSON depends on the caller only through its children: which answers and comments the caller may see.
A node whose children are all public (published, visibility ``full``, in its own space) is encoded once for
everybody; any other node is kept per caller.

Where each page of a list starts is the other cache of the list path: see keyset.py.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

Viewer = tuple[int, str]
"""(user id, role): everything the visibility of a child depends on for one caller."""


JSON_TYPE = "application/json;charset=UTF-8"


def dumps(body: Any) -> bytes:
    """The one JSON encoding of every response: UTF-8, no ASCII escaping, no spaces.

    orjson is several times faster than json on node-sized documents. json takes what orjson refuses (an int
    beyond 64 bits, a lone surrogate from a client's text), escaped to ASCII so that even a lone surrogate is
    valid JSON text rather than a 500.
    """
    try:
        return orjson.dumps(body)
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(body, separators=(",", ":")).encode("ascii")


class FragmentCache:
    """row id -> encoded JSON, shared (key ``None``) or per viewer; bounded; dropped per row on change.

    ``kind`` names the rows it holds as the change triggers do (``"node"``, ``"user"``): a change of that kind drops
    that row's entries, a change of kind ``"all"`` drops everything, other kinds are not this cache's business.
    """

    MAX_ROWS = 20_000

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._rows: dict[int, dict[Viewer | None, bytes]] = {}

    def get(self, row_id: int, viewer: Viewer | None = None) -> bytes | None:
        entry = self._rows.get(row_id)
        if entry is None:
            return None
        return entry.get(None) or (entry.get(viewer) if viewer is not None else None)

    def put(self, row_id: int, viewer: Viewer | None, data: bytes) -> None:
        if len(self._rows) >= self.MAX_ROWS and row_id not in self._rows:
            self._rows.clear()  # simpler than LRU and as good for a page-shaped working set
        self._rows.setdefault(row_id, {})[viewer] = data

    def changed(self, kind: str, row_id: int | None) -> None:
        """The database listener (see :meth:`qaconform.reference.db.Database.watch_changes`)."""
        if kind == self.kind and row_id is not None:
            self._rows.pop(row_id, None)
        elif kind == "all":
            self.clear()

    def clear(self) -> None:
        self._rows.clear()

    def __len__(self) -> int:
        return len(self._rows)


def spliced(head: dict[str, Any], items: list[bytes]) -> bytes:
    """A list envelope whose last key is ``list``, with already encoded items: ``{...,"list":[a,b]}``."""
    head = {k: v for k, v in head.items() if k != "list"}
    return dumps(head)[:-1] + b',"list":[' + b",".join(items) + b"]}"
