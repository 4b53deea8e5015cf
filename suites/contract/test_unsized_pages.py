"""Paging without a page size: ``page`` given alone, on every paged list (issue 44, fix1819).

Why this file: every walk of test_list_relations.py sends page AND pageSize, so the branch a server takes when only
``page`` is given (the default page size) was never walked; blind round 19 planted a user answer list that serves
page 1 whatever page is asked for there, echoing the page asked for, and no test saw it. The description gives both
parameters to every list ("Query: page, pageSize, ...") and "totalCount: Total number of items": the pages of one
list at the default size partition its items as they do at any size given (PAGING-TOTALCOUNT-UNION).

Reads per list (one account, the first the description lets read it): the first two pages without pageSize, and
the first again, to see that the list held still meanwhile (a list another test writes to may shift an item across
the boundary: that is not judged). No write.
"""

from __future__ import annotations

from typing import Any

import pytest
from listops import list_params

from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.target.client import ApiClient, ApiResponse

pytestmark = pytest.mark.contract

RULE = "PAGING-TOTALCOUNT-UNION"
TRIES = 2
"""Reads of the two pages: a second round when the list moved under the first."""


def _ids(resp: ApiResponse) -> list[str] | None:
    """The ids of a 200 envelope's items, None for anything else (a refusal is another test's)."""
    if resp.status != 200:
        return None
    try:
        body = resp.json()
    except ValueError:
        return None
    items = body.get("list") if isinstance(body, dict) else None
    if not isinstance(items, list):
        return None
    return [str(i.get("id")) if isinstance(i, dict) else repr(i) for i in items]


def _total(resp: ApiResponse) -> Any:
    body = resp.json()
    return body.get("totalCount") if isinstance(body, dict) else None


def _unsized_pages(client: ApiClient, path: str) -> tuple[ApiResponse, ApiResponse] | None:
    """Pages 1 and 2 asked without pageSize, read while the list held still (page 1 read again after page 2 lists
    the same items and the same count); None when it moved in every round."""
    for _ in range(TRIES):
        first = client.get(path, params={"page": 1})
        second = client.get(path, params={"page": 2})
        again = client.get(path, params={"page": 1})
        got = [_ids(r) for r in (first, second, again)]
        if any(g is None for g in got):
            refused = next(r for r, g in zip((first, second, again), got, strict=True) if g is None)
            skip(SkipKind.OTHER, f"not checked: GET {path}?page=... without pageSize answered "
                                 f"{refused.status}, not a list envelope (the list's own tests judge that)")
        if got[0] == got[2] and _total(first) == _total(again):
            return first, second
    return None


@pytest.mark.rule(RULE)
@pytest.mark.parametrize(("op", "role"), list_params())
def test_pages_asked_without_a_page_size_partition_the_list(
    op: str, role: str, api: dict[str, ApiClient], list_paths: dict[str, str]
) -> None:
    """Page 2 asked without pageSize lists none of page 1's items (each item once across the pages), and nothing
    at all when page 1 already held totalCount items: a server that ignores page when pageSize is absent serves
    page 1 again."""
    path = list_paths[op]
    pages = _unsized_pages(api[role], path)
    if pages is None:
        skip(SkipKind.OTHER, f"not checked: {path} as {role} changed between the reads of its pages in each of "
                             f"{TRIES} rounds (another test writes to it)")
    first, second = pages
    one, two = _ids(first) or [], _ids(second) or []
    again = sorted(set(one) & set(two))
    if again:
        fail([RULE], f"{op} as {role}: page 2 asked without pageSize lists items page 1 listed too ({again[:10]}): "
                     f"each item is on one page (\"totalCount: Total number of items\"); page 1 {one[:10]}, page 2 "
                     f"{two[:10]}. Check that the server reads page when pageSize is absent (default page size)",
             second)
    total = _total(first)
    if isinstance(total, int) and not isinstance(total, bool) and len(one) >= total and two:
        fail([RULE], f"{op} as {role}: page 1 without pageSize held all {total} items (totalCount), yet page 2 "
                     f"lists {two[:10]}: more than totalCount items across the pages", second)
