"""suites/contract/list_shapes.py (issue 44, lists): each planned page has the shape it was planned for, for every
count and page-size cap, and the spec's block names real lists and shapes."""

from __future__ import annotations

import math

import list_shapes
import pytest
from list_shapes import ECHOED, EMPTY, LONG, PAST_END, SHAPES, SHORT, plan, reached
from listops import LIST_OPS

from qaconform.contract import load_contract

CAPS = (1, 2, 3, 10, 20, 1000)


def _held(total: int, page: int, size: int) -> int:
    return max(0, min(size, total - (page - 1) * size))


@pytest.mark.parametrize("shape", SHAPES)
def test_every_planned_page_has_its_shape_for_every_count_and_cap(shape: str) -> None:
    """Each planned page asks a page size the cap allows and reaches its shape. The count of pages checked is
    asserted too: a plan that said "not reachable" for every count and cap would otherwise pass having judged none."""
    checked = 0
    for cap in CAPS:
        for total in range(0, 60):
            planned = plan(shape, 0 if shape == EMPTY else total, cap)
            if isinstance(planned, str):
                assert shape not in (EMPTY, PAST_END), f"{shape} is always reachable ({planned})"
                continue
            size, page = int(planned["pageSize"]), int(planned.get("page", "1"))
            assert 1 <= size <= cap, f"{shape}, {total} items, cap {cap}: pageSize {size}"
            count = 0 if shape == EMPTY else total
            assert reached(shape, planned, count, _held(count, page, size)) is None, (shape, total, cap, planned)
            checked += 1
    # every shape is reachable for most counts: at least one cap in two (the cap of 1 leaves no short or long page)
    assert checked >= len(CAPS) * 60 // 2 if shape in (EMPTY, PAST_END) else checked > 0, (shape, checked)


def test_short_and_long_are_planned_wherever_the_count_and_cap_allow_and_long_ends_short_where_it_can() -> None:
    for cap in CAPS:
        for total in range(1, 60):
            assert isinstance(plan(SHORT, total, cap), dict) == (total + 1 <= cap)
            long = plan(LONG, total, cap)
            assert isinstance(long, dict) == (total >= 2)
            if isinstance(long, dict) and min(cap, total - 1, ECHOED) >= 2 and any(
                    total % s for s in range(2, min(cap, total - 1, ECHOED) + 1)):
                size = int(long["pageSize"])
                assert _held(total, math.ceil(total / size), size) < size, (total, cap, long)


def test_a_page_of_another_shape_is_said_not_reached() -> None:
    assert reached(EMPTY, {"pageSize": "10"}, 3, 3) is not None
    assert reached(SHORT, {"pageSize": "4"}, 4, 4) is not None
    assert reached(PAST_END, {"page": "2", "pageSize": "2"}, 4, 2) is not None
    assert reached(LONG, {"page": "1", "pageSize": "2"}, 4, 2) is not None


def test_the_shapes_are_derived_for_every_list_and_the_spec_names_only_exclusions() -> None:
    contract = load_contract()
    section = list_shapes.load(contract)
    rows = list_shapes.rows(20260801, contract)
    by_list = {op: {r.shape for r in rows if r.op == op} for op in LIST_OPS}
    for op, shapes in by_list.items():
        left = {key.split(" ")[1] for key in section.exclude if key.split(" ")[0] == op}
        want = set(SHAPES) if list_shapes.paged(op, contract) else {EMPTY}
        assert shapes == want - left, f"{op}: read in {sorted(shapes)}; expected {sorted(want - left)}"
        assert all(r.reader != "anonymous" for r in rows if r.op == op)


def test_an_empty_list_is_looked_for_among_the_oldest_nodes_and_the_busy_question_last() -> None:
    """Two CI builds at once: one took the other's newest answer (387, under the fixture question) as the empty
    comment list, the other's cleanup deleted it, and the read was a 404: a false failure. The site's oldest nodes
    are tried first, those under the question every build writes under last."""
    from list_shapes import oldest_first

    answers_as_listed = [387, 32, "3", 2, 59, 56, "x", 59]  # the question list shows the newest activity first
    assert oldest_first(answers_as_listed, busy={"387", "32"}) == [2, "3", 56, 59, 32, 387]
    assert oldest_first([], busy=set()) == []


def test_a_short_pages_refusal_reads_the_same_whatever_the_lists_size() -> None:
    """user13: a CI build's skip reason must not change with the list's size, which grows with every build's
    writes (15 items in one build, 29 in the next): the size is the skip's detail, not its reason."""
    reasons = {plan(SHORT, total, 10) for total in (10, 15, 29)}
    assert len(reasons) == 1 and all(isinstance(r, str) for r in reasons), reasons
