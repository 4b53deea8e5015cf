"""A count read right after a write, on every list the write lands in (fix23, issue 44 item 6; blind round 23's
r23-user-answers-pagecount-cached and the answer-comments page count cache it dropped as a near-twin).

Why: a server may cache a list's counts (pageCount kept per list and page size, totalCount read fresh) and serve
them stale right after a write. Every read judged by itself passed such a cache: no read of the list a post lands in
came just before and right after that post with the same caller and page size. So each shared post the run makes
anyway (no write more) is wrapped: the lists that show the new node (the writer's answer list for an answer, the
answer's comment list for a comment) are read at ``pageSize=1`` just before the post and right after it, by the
writer, so the post crosses a page boundary. test_counts_after_posts.py judges every paging field of the reads
(PAGING-PAGECOUNT, PAGING-PAGESIZE-ECHO, PAGING-PAGE-ECHO). Whether the new node is listed at once is not judged
here (the settle window is the listing tests').
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from qaconform.pytest.support import once_per_run
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

PAGE_SIZE = 1
"""At one item a page every post crosses a page boundary: pageCount must move with totalCount."""

_KEPT = pytest.StashKey[dict[str, Any]]()
"""This process's reads around its posts, by the post's key (a run on one process shares no file)."""


def _read(client: ApiClient, path: str) -> dict[str, Any]:
    resp = client.get(path, params={"pageSize": PAGE_SIZE})
    try:
        body = resp.json()
    except ValueError:
        body = None
    return {"path": path, "status": resp.status, "body": body, "url": resp.url, "reader": client.role}


def around(request: pytest.FixtureRequest, profile: Profile, key: str, lists: Sequence[tuple[ApiClient, str]],
           post: Callable[[], ApiResponse]) -> Callable[[], ApiResponse]:
    """``post`` with each of ``lists`` ((reader, path)) read just before it and right after it (after a 2xx only),
    the reads kept under ``key`` for every xdist worker of the run (:func:`reads_around`)."""
    def make() -> ApiResponse:
        before = [_read(client, path) for client, path in lists]
        resp = post()
        after = [_read(client, path) for client, path in lists] if 200 <= resp.status < 300 else []
        reads = {"before": before, "after": after}
        request.session.stash.setdefault(_KEPT, {})[key] = reads
        once_per_run(request, profile.base_url, f"counts around {key}", lambda: reads)
        return resp
    return make


def reads_around(request: pytest.FixtureRequest, profile: Profile, key: str) -> dict[str, Any] | None:
    """The reads made around the post kept under ``key``, or None (the post was made before this run's wrapping, or
    its reads were lost)."""
    kept = request.session.stash.setdefault(_KEPT, {})
    if key in kept:
        return dict(kept[key])
    saved = once_per_run(request, profile.base_url, f"counts around {key}", lambda: None)
    return saved if isinstance(saved, dict) else None
