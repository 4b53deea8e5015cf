"""The walks the metamorphic relations share (suites/contract/list_walks.py): a disagreement on a list that keeps
changing is given up as unsteady, never failed, and the settle window is waited out once per list, not once per
relation (five relations on member's answers each waited the whole window while the run wrote to them)."""

from __future__ import annotations

import json
import time
from typing import Any

from list_walks import Unsteady, Violation, Walks


class _Resp:
    def __init__(self, body: dict[str, Any], url: str) -> None:
        self.status, self.url, self._body = 200, url, body

    def json(self) -> Any:
        return json.loads(json.dumps(self._body))

    def describe(self) -> str:
        return self.url


class _GrowingList:
    """A list another writer adds an item to before every request: no two takes agree."""

    role = "member"

    def __init__(self) -> None:
        self.items = 3

    def get(self, path: str, params: Any = None) -> _Resp:
        self.items += 1
        got = dict(params or [])
        size, page = int(got["pageSize"]), int(got["page"])
        ids = list(range(self.items))[(page - 1) * size: page * size]
        body = {"list": [{"id": i} for i in ids], "totalCount": self.items, "page": page, "pageSize": size,
                "pageCount": -(-self.items // size), "listCount": len(ids)}
        return _Resp(body, f"{path}?page={page}&pageSize={size}")


def _disagree(a: Any, b: Any) -> Violation:
    return Violation(("PAGING-TOTALCOUNT-UNION",), "the walks disagree", None)


def test_a_list_that_keeps_changing_is_unsteady_and_its_settle_window_is_waited_once() -> None:
    walks = Walks({"member": _GrowingList()}, settle_s=0.6)  # type: ignore[dict-item]
    one, other = walks.get("member", "/x", (), 2), walks.get("member", "/x", (("sort", "a"),), 2)
    started = time.monotonic()
    first = walks.confirmed(_disagree, one, other)
    waited = time.monotonic() - started
    assert isinstance(first, Unsteady), "a list that changed on every take must never fail the target"
    assert waited >= 0.6, "the first disagreement is walked again for the whole settle window"
    started = time.monotonic()
    second = walks.confirmed(_disagree, walks.get("member", "/x", (), 3), walks.get("member", "/x", (), 4))
    assert isinstance(second, Unsteady)
    assert time.monotonic() - started < 0.5, "a list already found moving gets the quick retakes only"
    assert walks.moving_paths == {"/x"}


def test_an_unsteady_verdict_names_the_request_of_the_list_that_moved() -> None:
    walks = Walks({"member": _GrowingList()}, settle_s=0.0)  # type: ignore[dict-item]
    got = walks.confirmed(_disagree, walks.get("member", "/x", (), 2), walks.get("member", "/x", (), 3))
    assert isinstance(got, Unsteady)
    assert got.why.startswith("GET /x?pageSize=") and "as member changed during each of" in got.why, got.why


class _CappedList:
    """Twelve items served at most five per page, whatever pageSize asks (a site's cap, stated in the envelope)."""

    role = "member"

    def __init__(self, say_total: bool) -> None:
        self.say_total = say_total

    def get(self, path: str, params: Any = None) -> _Resp:
        size, page = min(int(params["pageSize"]), 5), int(params["page"])
        ids = list(range(12))[(page - 1) * size: page * size]
        body: dict[str, Any] = {"list": [{"id": i} for i in ids], "page": page, "pageSize": size}
        if self.say_total:
            body["totalCount"] = 12
        return _Resp(body, f"{path}?page={page}&pageSize={size}")


def test_list_all_reads_every_page_of_a_list_whose_site_caps_the_page_size() -> None:
    """support.list_all asked for 50 a page and stopped after the first five of a site capped at 5."""
    from qaconform.pytest.support import list_all

    for say_total in (True, False):
        got = list_all(_CappedList(say_total), "/x", page_size=50)  # type: ignore[arg-type]
        assert [i["id"] for i in got] == list(range(12)), f"totalCount given: {say_total}"


class _LongList:
    """``n`` items in one order; ``overlap``: page N > 1 starts one item early (a planted partition fault);
    counts every request and every item served."""

    role = "member"

    def __init__(self, n: int, overlap: bool = False) -> None:
        self.n, self.overlap, self.requests, self.served = n, overlap, 0, 0

    def get(self, path: str, params: Any = None) -> _Resp:
        self.requests += 1
        got = dict(params or [])
        size, page = int(got["pageSize"]), int(got["page"])
        start = (page - 1) * size - (1 if self.overlap and page > 1 else 0)
        ids = list(range(self.n))[start: start + size]
        self.served += len(ids)
        body = {"list": [{"id": i} for i in ids], "totalCount": self.n, "page": page, "pageSize": size,
                "pageCount": -(-self.n // size), "listCount": len(ids)}
        return _Resp(body, f"{path}?page={page}&pageSize={size}")


def test_a_walk_of_a_long_list_reads_a_window_and_its_last_page_whatever_the_list_holds() -> None:
    """A list ten or a thousand times longer costs a walk the same requests and items (the first pages up to
    WINDOW items, then the last page), and a correct one is judged a partition."""
    from list_walks import WINDOW, effective_size, walk
    from relation_checks import count_violation

    costs = []
    for n in (1_300, 130_000):
        site = _LongList(n)
        w = walk(site, "/x", (), effective_size(3, n), 1)  # type: ignore[arg-type]
        assert w.window and not w.complete and w.tail is not None and w.last_page == -(-n // w.size)
        assert count_violation(w) is None, count_violation(w)
        assert site.served <= WINDOW + 2 * w.size, (n, site.served)
        costs.append(site.requests)
    assert costs[0] == costs[1], f"requests of a walk: {costs}"


def test_a_window_still_shows_a_partition_fault_and_a_short_list_is_walked_whole() -> None:
    """page N > 1 starting one item early repeats an item inside the window; a list of 50 is read whole."""
    from list_walks import effective_size, walk
    from relation_checks import count_violation

    broken = walk(_LongList(1_000, overlap=True), "/x", (), effective_size(10, 1_000), 1)  # type: ignore[arg-type]
    found = count_violation(broken)
    assert found is not None and found.rules == ("PAGING-TOTALCOUNT-UNION",), found
    short = walk(_LongList(50), "/x", (), effective_size(10, 50), 1)  # type: ignore[arg-type]
    assert short.complete and len(short.ids) == 50 and count_violation(short) is None


class _EchoesItemsServed(_LongList):
    """blindc (issue 44): a list whose envelope reports the number of items served as pageSize."""

    def get(self, path: str, params: Any = None) -> _Resp:
        resp = super().get(path, params)
        resp._body["pageSize"] = len(resp._body["list"])
        return resp


def test_a_short_last_page_that_reports_its_item_count_as_page_size_is_a_page_size_echo_violation() -> None:
    """Every full page echoes the size asked; only the short last page gives the fault away, and it is named as the
    echo's (PAGING-PAGESIZE-ECHO), not as the pageCount computed from it. Sizes above 10 are not judged (a site may
    cap them); a list that the size divides shows nothing."""
    from list_walks import walk
    from relation_checks import count_violation

    found = count_violation(walk(_EchoesItemsServed(7), "/x", (), 3, 1))  # type: ignore[arg-type]
    assert found is not None and found.rules == ("PAGING-PAGESIZE-ECHO",), found
    assert "pageSize=3 was asked for" in found.message
    assert count_violation(walk(_EchoesItemsServed(6), "/x", (), 3, 1)) is None  # type: ignore[arg-type]
    assert count_violation(walk(_EchoesItemsServed(7), "/x", (), 16, 1)) is None  # type: ignore[arg-type]
    assert count_violation(walk(_LongList(7), "/x", (), 3, 1)) is None  # type: ignore[arg-type]


def test_two_windows_in_one_order_compare_their_first_items_only() -> None:
    """Windows at page sizes 20 and 37 of one long list hold different numbers of items, yet the same first ones:
    no difference reported; a window missing one of them is reported."""
    from list_walks import same_items, walk

    site = _LongList(500)
    one, other = walk(site, "/x", (), 20, 1), walk(site, "/x", (), 37, 1)  # type: ignore[arg-type]
    assert len(one.ids) != len(other.ids)
    assert same_items(one, other) == ([], [])
    other.bodies[0]["list"].pop(3)
    assert same_items(one, other)[0], "an item only in the first window is reported"


class _Site:
    """A fixed list of ``n`` items served from many threads at once, with planted faults: ``page_count`` overrides
    the envelope's pageCount (a count too high: pages past the end come back empty), ``refuse`` answers that page
    403, ``broken`` raises on that page. It notes every page asked and the most requests in flight at once."""

    role = "member"

    def __init__(self, n: int, page_count: int | None = None, refuse: int | None = None,
                 broken: int | None = None, no_count: bool = False) -> None:
        import threading

        self.n, self.page_count, self.refuse, self.broken, self.no_count = n, page_count, refuse, broken, no_count
        self.asked: list[int] = []
        self.in_flight = self.most = 0
        self._lock = threading.Lock()

    def get(self, path: str, params: Any = None) -> Any:
        got = dict(params or [])
        size, page = int(got["pageSize"]), int(got["page"])
        with self._lock:
            self.asked.append(page)
            self.in_flight += 1
            self.most = max(self.most, self.in_flight)
        try:
            time.sleep(0.02)  # a round trip: long enough for the pages asked together to overlap
            if page == self.broken:
                raise ConnectionError(f"page {page}: the connection dropped")
            ids = list(range(self.n))[(page - 1) * size: page * size]
            body: dict[str, Any] = {"list": [{"id": i} for i in ids], "totalCount": self.n, "page": page,
                                    "pageSize": size, "listCount": len(ids)}
            if not self.no_count:
                body["pageCount"] = self.page_count if self.page_count is not None else -(-self.n // size)
            resp = _Resp(body, f"{path}?page={page}&pageSize={size}")
            if page == self.refuse:
                resp.status = 403
            return resp
        finally:
            with self._lock:
                self.in_flight -= 1


def _shape(w: Any) -> Any:
    """What a relation reads of a walk: every page's URL and body, the refusal, the window and its tail."""
    return ([p.url for p in w.pages], w.bodies, w.refused.url if w.refused is not None else None, w.truncated,
            w.window, w.last_page, w.tail.url if w.tail is not None else None, w.tail_body)


def test_a_walk_asking_its_pages_together_is_the_walk_made_page_by_page() -> None:
    """Whatever the list does (a whole list, a window and its last page, a pageCount too high, a refused page, no
    pageCount at all), asking the pages after the first together gives the walk a page-by-page walk gives, and
    pages asked beyond where that walk stops are not read."""
    from list_walks import walk

    cases = {"whole": (dict(n=17), 3), "window": (dict(n=1_000), 30), "count too high": (dict(n=7, page_count=6), 2),
             "refused page 3": (dict(n=30, refuse=3), 5), "no pageCount": (dict(n=9), 4),
             "no pageCount at all": (dict(n=9, no_count=True), 4)}
    for name, (kwargs, size) in cases.items():
        one_by_one, together = _Site(**kwargs), _Site(**kwargs)  # type: ignore[arg-type]
        slow = walk(one_by_one, "/x", (), size, 1)  # type: ignore[arg-type]
        fast = walk(together, "/x", (), size, 1, at_once=4)  # type: ignore[arg-type]
        assert _shape(fast) == _shape(slow), name
        assert one_by_one.most == 1, name
        assert set(one_by_one.asked) <= set(together.asked), name


def test_a_walk_asks_its_pages_together_within_its_width() -> None:
    """Six pages of one list are asked at most ``at_once`` at a time, and more than one at a time: a walk against a
    far target takes a few round trips, not one per page."""
    from list_walks import walk

    for at_once in (2, 4):
        site = _Site(36)
        w = walk(site, "/x", (), 6, 1, at_once=at_once)  # type: ignore[arg-type]
        assert w.complete and len(w.ids) == 36
        assert site.most == at_once, (at_once, site.most)
        assert sorted(site.asked) == [1, 2, 3, 4, 5, 6]


def test_a_page_that_breaks_fails_the_walk_only_where_a_page_by_page_walk_reads_it() -> None:
    """A page asked ahead that raised is raised when the walk reaches it; past the list's end (a pageCount too
    high, an empty page first) it is never read, so it raises nothing."""
    import pytest
    from list_walks import walk

    with pytest.raises(ConnectionError, match="page 2"):
        walk(_Site(30, broken=2), "/x", (), 5, 1, at_once=4)  # type: ignore[arg-type]
    past_the_end = walk(_Site(7, page_count=6, broken=6), "/x", (), 2, 1, at_once=6)  # type: ignore[arg-type]
    assert past_the_end.ids == list(range(7))


def test_once_the_target_has_held_the_run_back_walks_go_page_by_page() -> None:
    """A target that rate-limits answers requests asked together with more 429s, not sooner: once any process of
    the run was held back (PACE.was_held), the walks and every fan-out of the process ask one request at a time."""
    from types import SimpleNamespace

    from list_walks import Walks, walk

    from qaconform.target import fanout
    from qaconform.target.politeness import PACE

    profile = SimpleNamespace(safety=SimpleNamespace(max_concurrency=None))
    walks = Walks({}, at_once=4)
    before = PACE.was_held
    try:
        PACE.was_held = False
        assert walks.at_once == 4 and fanout.width(profile) == fanout.MAX_WIDTH  # type: ignore[arg-type]
        PACE.held("http://127.0.0.1:1", "member", 0.0)
        assert walks.at_once == 1 and fanout.width(profile) == 1  # type: ignore[arg-type]
        site = _Site(36)
        assert walk(site, "/x", (), 6, 1, at_once=walks.at_once).complete  # type: ignore[arg-type]
        assert site.most == 1
    finally:
        PACE.was_held = before


def test_reads_as_several_accounts_go_one_after_another_once_the_target_has_held_the_run_back() -> None:
    """support.for_each reads as each account at once, in threads, until the target holds the run back: then in the
    caller's thread, one after another, like every other fan-out."""
    import threading

    from qaconform.pytest.support import for_each
    from qaconform.target.politeness import PACE

    def where(role: str) -> str:
        return threading.current_thread().name

    roles = ["admin", "member", "novice"]
    assert all(name.startswith("qc-read") for name in for_each(roles, where).values())
    PACE.held("http://127.0.0.1:1", "member", 0.0)
    assert set(for_each(roles, where).values()) == {threading.current_thread().name}


class _ZeroBasedList:
    """Five followers whose pages count from 0 (page 0 the first, page 1 the second), every request recorded."""

    role = "member"

    def __init__(self) -> None:
        self.asked: list[tuple[Any, ...]] = []

    def get(self, path: str, params: Any = None) -> _Resp:
        got = dict(params or [])
        self.asked.append(tuple(sorted((k, str(v)) for k, v in got.items())))
        size, page = int(got["pageSize"]), int(got["page"])
        ids = list(range(5))[page * size: (page + 1) * size]
        body = {"list": [{"id": i} for i in ids], "totalCount": 5, "page": page, "pageSize": size,
                "pageCount": -(-5 // size), "listCount": len(ids)}
        return _Resp(body, f"{path}?page={page}&pageSize={size}")


def test_the_first_page_probe_is_the_walks_first_page_not_asked_again() -> None:
    """A list whose first page may be 0 is probed at pages 0 and 1 (with the walk's parameters and size); the walk
    takes its first page from that probe: every page is asked once, and the walk is the one asked page by page."""
    target = _ZeroBasedList()
    walks = Walks({"member": target})  # type: ignore[dict-item]
    walks.zero_based_paths.add("/f")
    taken = walks.get("member", "/f", (("active", "true"),), 2)
    assert taken.first_page == 0 and [i["id"] for b in taken.bodies for i in b["list"]] == [0, 1, 2, 3, 4]
    assert len(target.asked) == len(set(target.asked)) == 3, target.asked
    again = walks.get("member", "/f", (("active", "true"),), 2, fresh=True)
    assert [i["id"] for b in again.bodies for i in b["list"]] == [0, 1, 2, 3, 4]
    assert len(target.asked) == 6, "a fresh take asks every page again, the first too"
    other = walks.get("member", "/f", (), 2)
    assert other.first_page == 0 and len(target.asked) == 9, "other parameters: the decision kept, its own pages"
