"""The paged list envelope: its own consistency, the echo of page and pageSize, and pages that add up.

Never stricter than ../shared/samples: a follower list may report page 0 and carry no sorts, so the follower list is
left out of the default-page rule, the page echo and the sorts rules, as rules.yaml says: "A follower list shows 0"
is all the description states of a follower page's number (PAGING-FOLLOWERS-PAGE-ZERO records what it shows).
"""

from __future__ import annotations

import contextlib
import functools
import math
from typing import Any

import pytest
from list_walks import WINDOW, boundary_size, params_of, walk
from listops import LIST_OPS, Fetch, list_params
from relation_checks import window_count_violation

from qaconform.contract import envelope, load_contract
from qaconform.invariants import envelope_type_problems, listcount_problem, not_an_envelope, pagecount_problem
from qaconform.pytest.outcomes import expect, fail
from qaconform.target import fanout
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.paging, pytest.mark.contract]

_MAX_PAGES = 25


@pytest.fixture(scope="module")
def fetch(run_fetch: Fetch) -> Fetch:
    """Each test here judges the responses it reads one at a time (an echo, a count, the sorts array), whenever
    they were read: the run's shared reads (conftest.run_fetch; speed, issue 44), sent once per run whichever worker
    asks first. The union of a small list's pages compares with its own walk: ``process_fetch``."""
    return run_fetch


def _envelope(fetch: Fetch, role: str, path: str, what: str, **params: Any) -> dict[str, Any]:
    resp = fetch(role, path, **params)
    assert resp.status == 200, f"{what}: expected 200\n{resp.describe()}"
    body = resp.json()
    problems = envelope_type_problems(body)
    assert not problems, f"{what}: {'; '.join(problems)}\n{resp.describe()}"
    body["_describe"] = resp.describe()
    return body


@pytest.mark.rule("PAGING-DEFAULT-PAGE")
@pytest.mark.parametrize(("op", "role"), list_params(tuple(o for o in LIST_OPS if o != "listNodeFollowers")))
def test_a_list_without_a_page_parameter_reports_page_1(
    op: str, role: str, fetch: Fetch, list_paths: dict[str, str]
) -> None:
    body = _envelope(fetch, role, list_paths[op], f"{op} as {role}")
    assert body["page"] == 1, f"{op} without page reports page {body['page']}; the default is 1\n{body['_describe']}"


def _last_partial_page(fetch: Fetch, role: str, path: str, what: str) -> dict[str, Any]:
    """Paging params of a last page that is not full and not page 1 (a size that does not divide totalCount), or
    of page 2 with pageSize 2 when no small size gives one: the page where a count is most often wrong."""
    total = _envelope(fetch, role, path, what, pageSize=2)["totalCount"]
    for size in (2, 3, 4, 5, 7):
        if total > size and total % size:
            return {"pageSize": size, "page": math.ceil(total / size)}
    return {"pageSize": 2, "page": 2}


_PAGES = ["default-size", "size-2"]
"""Where each envelope count is checked: page 1 at the default size; page 1 of size 2 and then a later page (the
last, not full when a small size allows): real servers compute counts differently on a last, partial page."""


def _pages_to_check(where: str, fetch: Fetch, role: str, path: str, what: str) -> list[dict[str, Any]]:
    if where == "default-size":
        return [{}]
    return [{"pageSize": 2}, _last_partial_page(fetch, role, path, what)]


@pytest.mark.rule("PAGING-LISTCOUNT")
@pytest.mark.parametrize(("op", "role"), list_params())
@pytest.mark.parametrize("where", _PAGES)
def test_list_count_is_the_number_of_items_and_never_more_than_page_size(
    op: str, role: str, where: str, fetch: Fetch, list_paths: dict[str, str]
) -> None:
    for params in _pages_to_check(where, fetch, role, list_paths[op], f"{op} as {role}"):
        body = _envelope(fetch, role, list_paths[op], f"{op} as {role}", **params)
        n = len(body[envelope().items])
        problem = listcount_problem(body)
        assert problem is None, f"{op} {params}: {problem}\n{body['_describe']}"
        assert n <= body["pageSize"], f"{op} {params}: the page holds {n} items, more than pageSize " \
                                      f"{body['pageSize']}\n{body['_describe']}"


@pytest.mark.rule("PAGING-PAGECOUNT")
@pytest.mark.parametrize(("op", "role"), list_params())
@pytest.mark.parametrize("where", _PAGES)
def test_page_count_is_total_count_divided_by_page_size_rounded_up(
    op: str, role: str, where: str, fetch: Fetch, list_paths: dict[str, str]
) -> None:
    for params in _pages_to_check(where, fetch, role, list_paths[op], f"{op} as {role}"):
        body = _envelope(fetch, role, list_paths[op], f"{op} as {role}", **params)
        size = body["pageSize"]
        assert size > 0, f"{op}: pageSize is {size}; a list reports a positive page size\n{body['_describe']}"
        problem = pagecount_problem(body)
        assert problem is None, f"{op} {params}: {problem}\n{body['_describe']}"


@pytest.mark.rule("PAGING-PAGE-ECHO", "PAGING-PAGESIZE-ECHO")
@pytest.mark.parametrize(("op", "role"), list_params(tuple(o for o in LIST_OPS if o != "listNodeFollowers")))
def test_page_and_page_size_asked_for_are_reported(
    op: str, role: str, fetch: Fetch, list_paths: dict[str, str], profile: Profile
) -> None:
    first = _envelope(fetch, role, list_paths[op], f"{op} as {role}", pageSize=2)
    # every page up to the third (page 1 is also the default): a server may number later pages differently
    last = max(1, min(3, math.ceil(first["totalCount"] / 2)))
    # speed3 (issue 44): the pages and the edge read a few at once into fetch's cache, then judged in order below
    ahead = [{"page": page, "pageSize": 2} for page in range(1, last + 1)] + [
        {"pageSize": edge_page_size(first["totalCount"])}]
    with contextlib.suppress(Exception):  # a head start only: each read below sends what is still missing
        fanout.gather([functools.partial(fetch, role, list_paths[op], **params) for params in ahead],
                      fanout.width(profile))
    for page in range(1, last + 1):
        body = _envelope(fetch, role, list_paths[op], f"{op} as {role}", page=page, pageSize=2)
        expect(body["pageSize"] == 2, "PAGING-PAGESIZE-ECHO",
               f"{op}: pageSize 2 was asked for, the envelope says {body['pageSize']}\n{body['_describe']}")
        expect(body["page"] == page, "PAGING-PAGE-ECHO",
               f"{op}: page {page} was asked for, the envelope says {body['page']}\n{body['_describe']}")
    _page_size_at_its_edge(fetch, role, list_paths[op], op, first)


SMALL_PAGE_SIZES = range(1, 11)
"""The page sizes PAGING-PAGESIZE-ECHO judges (rules.yaml: "a small pageSize (1 to 10)")."""


def edge_page_size(total: Any) -> int:
    """The page size at the edge of the judged range a list's pages show: one more than the list holds (a page
    longer than the list, the one a server most often reports by its items), or 10, the top of the range."""
    return min(total + 1, max(SMALL_PAGE_SIZES)) if isinstance(total, int) and total >= 0 else max(SMALL_PAGE_SIZES)


def _page_size_at_its_edge(fetch: Fetch, role: str, path: str, op: str, first: dict[str, Any]) -> None:
    """"pageSize: Items per page": the size asked is the size reported also where the page is longer than the list
    (blinde, issue 44: a list that fits in one page reported its items as its pageSize, and pageSize 2 never showed
    it)."""
    size = edge_page_size(first["totalCount"])
    body = _envelope(fetch, role, path, f"{op} as {role}", pageSize=size)
    expect(body["pageSize"] == size, "PAGING-PAGESIZE-ECHO",
           f"{op}: pageSize {size} was asked for (totalCount {first['totalCount']}), the envelope says "
           f"{body['pageSize']}\n{body['_describe']}")


@pytest.mark.rule("PAGING-PAGESIZE-ECHO")
def test_a_follower_list_reports_the_page_size_asked_for(fetch: Fetch, list_paths: dict[str, str]) -> None:
    """The follower list's pageSize is "Items per page" like any list's; its page number is not checked here: "A
    follower list shows 0" (a sample shows page 0), and which page it reports for page=N is recorded instead
    (PAGING-FOLLOWERS-PAGE-ZERO)."""
    path = list_paths["listNodeFollowers"]
    for page in (None, 1, 2):
        params: dict[str, Any] = {"pageSize": 2} if page is None else {"pageSize": 2, "page": page}
        body = _envelope(fetch, "member", path, f"listNodeFollowers {params}", **params)
        expect(body["pageSize"] == 2, "PAGING-PAGESIZE-ECHO",
               f"listNodeFollowers {params}: pageSize 2 was asked for, the envelope says "
               f"{body['pageSize']}\n{body['_describe']}")
        if page is None:
            _page_size_at_its_edge(fetch, "member", path, "listNodeFollowers", body)


def _walk(client: ApiClient, path: str, params: dict[str, Any], page_size: int) -> tuple[list[Any], set[Any], str]:
    """Every page of a list: the ids in order, the totalCount values seen, and the last response for messages.

    The pages after the first that its pageCount promises are read a few at once (``fanout.width``; speed3, issue
    44), then judged in order as before, stopping at the same page; a page past them is read on its own."""
    def read(page: int) -> ApiResponse:
        return client.get(path, params={**params, "page": page, "pageSize": page_size})

    ids: list[Any] = []
    totals: set[Any] = set()
    shown = ""
    ahead: dict[int, ApiResponse | Exception] = {}
    for page in range(1, _MAX_PAGES + 1):
        got = ahead.pop(page) if page in ahead else read(page)
        if isinstance(got, Exception):
            raise got
        resp = got
        assert resp.status == 200, f"{path} page {page}: expected 200\n{resp.describe()}"
        body = resp.json()
        problem = not_an_envelope(body)
        assert problem is None, f"{problem}\n{resp.describe()}"
        shown = resp.describe()
        totals.add(body.get("totalCount"))
        ids.extend(i.get("id") for i in body["list"] if isinstance(i, dict))
        if page >= (body.get("pageCount") or 0) or not body["list"]:
            break
        count = body.get("pageCount")
        if page == 1 and isinstance(count, int) and not isinstance(count, bool):
            pages = list(range(2, min(count, _MAX_PAGES) + 1))
            ahead = dict(zip(pages, fanout.settled([functools.partial(read, n) for n in pages],
                                                   fanout.width(client.profile)), strict=True))
    return ids, totals, shown


_WHOLE = WINDOW
"""Lists longer than this are walked as a window (list_walks.py): their first pages and their last, at a page size
chosen from totalCount, so that a target holding ten times the data costs this test the same."""

# A list can be walked only if nothing the run does changes its items or their order. Spaces, topics and groups are
# never written through the interface; the comment list is the suite's own answer; experts are walked by username
# (reputation may change while the run posts, the alphabet does not) and question lists by creation date (new
# answers move a question up the default "active" order, but no operation creates a question).
_UNION_CASES = [
    pytest.param(lo.op, {}, id=lo.op) for lo in LIST_OPS.values() if lo.stable and not lo.op.endswith("Experts")
] + [
    pytest.param("listActiveExperts", {"sort": "username"}, id="listActiveExperts-by-username"),
    pytest.param("listEarnedExperts", {"sort": "username"}, id="listEarnedExperts-by-username"),
    pytest.param("listQuestions", {"sort": "newest"}, id="listQuestions-newest"),
    pytest.param("listUserQuestions", {"sort": "newest"}, id="listUserQuestions-newest"),
]


@pytest.mark.rule("PAGING-TOTALCOUNT-UNION")
@pytest.mark.parametrize(("op", "params"), _UNION_CASES)
def test_the_pages_of_a_small_list_do_not_overlap_and_together_hold_total_count_items(
    op: str, params: dict[str, str], api: dict[str, ApiClient], process_fetch: Fetch, list_paths: dict[str, str]
) -> None:
    role = LIST_OPS[op].roles[0]
    first = _envelope(process_fetch, role, list_paths[op], f"{op} as {role}", pageSize=2, **params)
    total = first["totalCount"]
    if total > _WHOLE:
        cap = getattr(api[role].profile, "max_page_size", None)
        w = walk(api[role], list_paths[op], params_of(**params), min(boundary_size(total), cap or total), 1)
        if w.refused is not None:
            fail(["PAGING-TOTALCOUNT-UNION"], f"{op}: a page of the walk was not a 200 list envelope", w.refused)
        found = window_count_violation(w, pagecount=False)
        if found is not None:
            fail(found.rules, f"{op}: {found.message}", found.response)
        return
    page_size = max(2, math.ceil(total / 20))
    ids, totals, shown = _walk(api[role], list_paths[op], params, page_size)
    assert len(totals) == 1, f"{op}: totalCount changed while walking a list nothing writes to: {totals}\n{shown}"
    dupes = sorted({i for i in ids if ids.count(i) > 1}, key=str)
    assert not dupes, f"{op}: ids on two pages with pageSize {page_size}: {dupes[:10]}\n{shown}"
    assert len(ids) == total, (
        f"{op}: walking every page with pageSize {page_size} gave {len(ids)} items; totalCount says {total}\n{shown}")


@pytest.mark.rule("PAGING-SORTS-QUESTIONS")
@pytest.mark.parametrize(("op", "role"), list_params(("listQuestions", "listUserQuestions")))
def test_question_lists_carry_the_sorts_array(op: str, role: str, fetch: Fetch, list_paths: dict[str, str]) -> None:
    body = _envelope(fetch, role, list_paths[op], f"{op} as {role}")
    sorts = body.get("sorts")
    assert isinstance(sorts, list) and all(isinstance(s, str) for s in sorts), (
        f"{op}: question lists carry sorts, an array of strings; got {sorts!r}\n{body['_describe']}")


@pytest.mark.rule("PAGING-SORTS-COMMENTS")
def test_the_comment_list_of_an_answer_carries_the_sorts_array(fetch: Fetch, list_paths: dict[str, str]) -> None:
    body = _envelope(fetch, "member", list_paths["listAnswerComments"], "member lists an answer's comments")
    sorts = body.get("sorts")
    assert isinstance(sorts, list) and all(isinstance(s, str) for s in sorts), (
        f"the comment list of an answer carries sorts, an array of strings; got {sorts!r}\n{body['_describe']}")


_EXPERT_SORTS_NAMED = tuple(s for s in load_contract().operation("listActiveExperts").parameter("sort").values
                            if s != "default")
"""The documented expert sorts but ``default``, whose name in effect is the configured one (not shown)."""


@pytest.mark.rule("PAGING-SORT-ECHO")
@pytest.mark.parametrize("op", ["listActiveExperts", "listEarnedExperts"])
def test_an_expert_list_reports_the_sort_asked_for_on_every_page(
    op: str, fetch: Fetch, list_paths: dict[str, str]
) -> None:
    """The envelope's sort is the criterion in effect; the five named expert sorts are documented values, so the
    one asked for is in effect, on page 1 and on the pages after it. An empty sort is a value seen (a server that
    names no criterion); another criterion's name is not."""
    for sort in _EXPERT_SORTS_NAMED:
        first = _envelope(fetch, "member", list_paths[op], f"{op} sort={sort}", sort=sort, pageSize=1)
        pages = [first] + ([_envelope(fetch, "member", list_paths[op], f"{op} sort={sort} page 2", sort=sort,
                                      pageSize=1, page=2)] if first["totalCount"] >= 2 else [])
        for n, body in enumerate(pages, start=1):
            assert body.get("sort") in (sort, ""), (
                f"{op}: sort={sort} is a documented expert sort, so it is the criterion in effect; page {n} reports "
                f"sort {body.get('sort')!r}\n{body['_describe']}")
