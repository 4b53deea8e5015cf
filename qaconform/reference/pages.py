"""Pages of lists: one page of nodes found by keyset paging from the nearest page already served, the envelope
around already encoded items, and the sort orders of the question and comment lists."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults, variants
from .auth import Caller
from .db import QUESTION_SORT_COLUMNS, Database
from .errors import bad_request
from .fragments import JSON_TYPE, spliced
from .http_io import json_response, projects
from .keyset import Bookmarks, ListQuery
from .listing import QUESTION_SORTS, Paging, envelope
from .render import Renderer

STRING_FIELD_FAULTS = {
    "question-list-score-string": "score",
    "user-answers-viewcount-string": "viewCount",
    "user-questions-answercount-string": "answerCount",
    "answer-comments-depth-string": "depth",
}
"""Planted shape bugs of one node list each (faults.py): the named integer field of every item is a string."""


def encoded_page(encoded: list[bytes], total: int, paging: Paging, sort: str, query: Any) -> Response:
    """A list response from already encoded items (no projection asked: see :func:`http_io.projects`)."""
    head = envelope([{}] * len(encoded), total, paging, sort, query)
    return Response(spliced(head, encoded), media_type=JSON_TYPE)


def question_order(query: Any, default: str = "active") -> tuple[str, str]:
    """The sort name a question list uses and its ORDER BY (ties by id, newest first)."""
    if variants.is_on("default-sorts-newest"):
        default = "newest"
    sort = query.get("sort") or default
    if sort not in QUESTION_SORT_COLUMNS:
        if variants.is_on("unknown-sort-400"):
            raise bad_request(f"'sort' must be one of {', '.join(QUESTION_SORTS)}, not {sort[:40]!r}")
        sort = default
    column, direction = QUESTION_SORT_COLUMNS[sort]
    if faults.is_on("ties-reordered-per-request"):
        _REQUESTS[0] += 1
        return sort, f"n.{column} {direction}, (n.id * 7919 + {_REQUESTS[0] * 104729}) % 1009"
    if variants.is_on("ties-by-title"):
        return sort, f"n.{column} {direction}, coalesce(n.title, '') ASC, n.id ASC"
    return sort, f"n.{column} {direction}, n.id DESC"


_REQUESTS = [0]
"""Question lists ordered so far (fault ties-reordered-per-request: each request orders the ties anew)."""


def keyset_off() -> bool:
    """Whether the keyset seek cannot be used: it assumes ties ordered by id DESC, which these change."""
    return any(faults.is_on(f) for f in ("paging-pages-overlap", "ties-reordered-per-request")) or variants.is_on(
        "ties-by-title")


def question_seek(sort: str) -> tuple[str, str]:
    """The (column, direction) of a question sort, for keyset paging; see :func:`question_order`."""
    return QUESTION_SORT_COLUMNS[sort]


@dataclass(frozen=True)
class Miscount:
    """A planted count bug: the envelope counts the rows of ``where`` (totalCount and pageCount, or only pageCount
    when ``pages_only``) instead of the rows it lists."""

    where: list[str]
    params: list[Any]
    pages_only: bool = False


def _miscount(body: dict[str, Any], miscounted: Miscount | None, wrong: int | None) -> dict[str, Any]:
    if miscounted is None or wrong is None:
        return body
    if not miscounted.pages_only:
        body["totalCount"] = wrong
    size = body["pageSize"]
    body["pageCount"] = -(-wrong // size) if wrong and size > 0 else 0
    return body


class NodePager:
    """Pages of nodes: counted (cached by kind), found from bookmarks, encoded from the fragment cache."""

    def __init__(self, db: Database, render: Renderer, bookmarks: Bookmarks) -> None:
        self.db = db
        self.render = render
        self.bookmarks = bookmarks

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
        miscounted: Miscount | None = None,
    ) -> Response:
        """One page of nodes. ``seek`` is ``(column, direction)`` of ``order`` when it is ``column dir, id DESC``:
        then the page is found from the nearest page already served (:class:`Bookmarks`), not by OFFSET.
        ``miscounted``: a planted count bug (faults.py), the WHERE its count uses instead."""
        w = " AND ".join(where)
        total = self.db.count(f"SELECT COUNT(*) FROM nodes n WHERE {w}", tuple(params), depends)
        ids = self._page_ids(w, params, order, paging, total, seek)
        query = request.query_params
        broken = shape_fault is not None and faults.is_on(shape_fault)
        wrong = None if miscounted is None else self.db.count(
            f"SELECT COUNT(*) FROM nodes n WHERE {' AND '.join(miscounted.where)}", tuple(miscounted.params), depends)
        if projects(query) or broken:
            rows = self.render.nodes_by_ids(sorted(ids) if faults.is_on("projection-orders-by-id") else ids)
            items = self.render.nodes_json(rows, caller, leak=faults.is_on("commentids-private-leak-when-projected"))
            if broken and shape_fault is not None:
                self._break_shape(items, shape_fault)
            body = envelope(items, total, paging, sort, query, sorts)
            return json_response(_miscount(body, miscounted, wrong))
        encoded = self.render.nodes_encoded(ids, caller)
        head = _miscount(envelope([{}] * len(encoded), total, paging, sort, query, sorts), miscounted, wrong)
        return Response(spliced(head, encoded), media_type=JSON_TYPE)

    def _break_shape(self, items: list[dict[str, Any]], shape_fault: str) -> None:
        """The planted bug ``shape_fault`` (faults.py) on the items of one page."""
        if shape_fault == "cancelwiki-stale-in-user-lists":
            stale = set(self.db.ids("SELECT node_id FROM actions WHERE verb = 'wikified' AND canceled = 1", []))
            for item in items:
                if item.get("id") in stale:
                    item["wiki"] = True
            return
        field = STRING_FIELD_FAULTS[shape_fault]
        for item in items:
            item[field] = str(item.get(field))

    def _page_ids(
        self, w: str, params: list[Any], order: str, paging: Paging, total: int, seek: tuple[str, str] | None
    ) -> list[int]:
        offset = paging.offset
        if offset >= total:
            return []
        if seek is None or keyset_off():
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
                rows = [] if faults.is_on("keyset-skips-ties-at-page-boundary") else self.db.all(
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
