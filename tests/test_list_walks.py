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
