"""The paged list envelope, paging parameters and projection (include, exclude, includeOnly).

Decisions where the description is silent: page 0 means the first page (the follower list's default), a page past
the end is an empty list, pageSize above 1000 is capped at 1000, and a pageSize of 0 or less or a non-integer page
or pageSize is a 400.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import faults, variants
from .db import SQL_INT_MAX
from .errors import bad_request

MAX_PAGE_SIZE = 1000
QUESTION_SORTS: tuple[str, ...] = (
    "active",
    "newest",
    "hottest",
    "votes",
    "viewCount",
    "usedCount",
    "answerCount",
    "answerCountAsc",
    "commentCount",
    "favoriteCount",
    "followers",
    "reportCount",
)


def max_page_size() -> int:
    """The pageSize cap: 1000, or what a page-size-cap variant configures."""
    if variants.is_on("page-size-cap-20"):
        return 20
    if variants.is_on("page-size-cap-100"):
        return 100
    return MAX_PAGE_SIZE


@dataclass(frozen=True)
class Paging:
    page: int
    size: int
    zero_based: bool = False
    """Page 0 is the first page and page 1 the second (variant followers-zero-based)."""
    shown_from_zero: bool = False
    """The envelope counts pages from 0, the first page being page 0 (variant followers-page-shown-from-0)."""

    @property
    def shown(self) -> int:
        """The page number the envelope reports: the one asked for, or the page's place counted from 0."""
        if not self.shown_from_zero:
            return self.page
        return max(self.page - (0 if self.zero_based else 1), 0)

    @property
    def offset(self) -> int:
        first = 0 if self.zero_based else 1
        start = min(max(self.page - first, 0) * self.size, SQL_INT_MAX // 2)  # a huge page is past the end
        return start - 1 if start and faults.is_on("paging-pages-overlap") else start


def _int_param(query: Mapping[str, str], name: str) -> int | None:
    raw = query.get(name)
    if raw is None or raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        if faults.is_on("bad-page-size-500"):
            raise RuntimeError(f"{name} {raw[:40]!r} is not an integer") from None
        raise bad_request(f"'{name}' must be an integer, not {raw[:40]!r}") from None


def parse_paging(
    query: Mapping[str, str], default_size: int, default_page: int = 1, zero_based: bool = False,
    shown_from_zero: bool = False,
) -> Paging:
    page = _int_param(query, "page")
    size = _int_param(query, "pageSize")
    if page is None:
        page = 0 if faults.is_on("envelope-default-page-zero") else default_page
    if page < 0:
        raise bad_request(f"'page' must be 0 or more, not {page}")
    if page == 0 and default_page != 0 and variants.is_on("page-zero-refused"):
        raise bad_request("'page' must be 1 or more; pages are numbered from 1")
    if size is None:
        size = default_size
    if size <= 0:
        raise bad_request(f"'pageSize' must be 1 or more, not {size}")
    return Paging(page=page, size=min(size, max_page_size()), zero_based=zero_based, shown_from_zero=shown_from_zero)


def _fields(query: Mapping[str, str], name: str) -> list[str] | None:
    raw = query.get(name)
    if raw is None:
        return None
    return [f.strip() for f in raw.split(",") if f.strip()]


def project(items: list[dict[str, Any]], query: Mapping[str, str]) -> list[dict[str, Any]]:
    """includeOnly keeps only the named fields; exclude removes them; unknown names are ignored."""
    only = _fields(query, "includeOnly")
    if only and len(only) == 1 and faults.is_on("blind6-includeonly-single-field-ignored"):
        only = None  # blind6 (issue 44): only a comma-separated list is split and applied
    exclude = _fields(query, "exclude")
    later_page = (query.get("page") or "1") not in ("0", "1")
    if only and not faults.is_on("includeonly-ignored") and not (
        later_page and faults.is_on("includeonly-ignored-after-page-1")
    ) and not (len(only) >= 3 and faults.is_on("includeonly-ignored-with-three-fields")):
        keep = set(only)
        items = [{k: v for k, v in item.items() if k in keep} for item in items]
    if exclude:
        drop = set(exclude)
        items = [{k: v for k, v in item.items() if k not in drop} for item in items]
    if "pageSize" in query and "sort" in query and faults.is_on("items-type-wrong-when-sorted-and-sized"):
        items = [{**i, "type": "node"} if "type" in i else i for i in items]
    if later_page and "sort" in query and faults.is_on("dates-seconds-on-later-sorted-pages"):
        items = [{**i, "creationDate": i["creationDate"] // 1000} if isinstance(i.get("creationDate"), int) else i
                 for i in items]
    return items


def envelope(
    items: list[dict[str, Any]],
    total: int,
    paging: Paging,
    sort: str,
    query: Mapping[str, str],
    sorts: tuple[str, ...] | None = None,
) -> dict[str, Any]:
    items = project(items, query)
    list_count = len(items) + 1 if faults.is_on("envelope-listcount-wrong") or (
        ("include" in query or "exclude" in query) and faults.is_on("listcount-wrong-with-include")) else len(items)
    out: dict[str, Any] = {
        "name": "",
        "sort": "" if variants.is_on("envelope-sort-empty") else sort,
        "page": 1 if faults.is_on("envelope-page-always-one") else paging.shown,
        "pageSize": MAX_PAGE_SIZE if faults.is_on("envelope-pagesize-max") else paging.size,
        "pageCount": -(-total // paging.size) if total else 0,
        "listCount": list_count,
        "totalCount": total,
    }
    if faults.is_on("envelope-pagecount-floor") or (paging.page > 1 and faults.is_on("pagecount-floor-on-later-pages")):
        out["pageCount"] = total // paging.size
    last = paging.page > 1 and paging.page == out["pageCount"]
    if last and faults.is_on("listcount-full-on-last-page"):
        out["listCount"] = paging.size
    if paging.page >= 3 and faults.is_on("page-echo-off-by-one-from-3"):
        out["page"] = paging.page - 1
    if faults.is_on("envelope-name-missing"):
        del out["name"]
    if "exclude" in query and "pageSize" in query and faults.is_on("envelope-totalcount-string-when-excluding"):
        out["totalCount"] = str(total)
    if sorts is None and variants.is_on("sorts-everywhere"):
        sorts = (sort,) if sort else ()
    if sorts is not None:
        out["sorts"] = list(sorts)
    out["list"] = items
    return out
