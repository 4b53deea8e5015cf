"""fix24 (issue 44): suites/contract/sort_sweeps.py sends every seen sort name to every list that takes a sort (not
only the node lists), and every documented expert sort beside every projection value, with ids no drawn row has."""

from __future__ import annotations

import pytest
from covering import EXPERT_LISTS
from list_responses import JSON_FORM, SWEPT_ITEMS, array, every_sort_name
from listops import LIST_OPS
from sort_sweeps import (
    PROJECTED_RULES,
    every_sort_elsewhere,
    every_sort_projected,
    is_projected,
    projections,
    without_sort,
)

from qaconform.contract import NONE, envelope, load_contract

SEEDS = (1, 20260801)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_seen_sort_name_reaches_every_list_that_takes_a_sort(seed: int) -> None:
    """Node lists through every_sort_name, the others (topics, spaces, groups, followers) through
    every_sort_elsewhere: each seen name is sent at least once, admin's, in the samples' form, no id repeated."""
    contract = load_contract()
    sorted_lists = [op for op in LIST_OPS if op not in EXPERT_LISTS and "sort" in contract.dimensions.of_list(op)]
    assert "listTopics" in sorted_lists and LIST_OPS["listTopics"].item_type not in SWEPT_ITEMS
    for op in sorted_lists:
        drawn = array(op, seed, contract=contract)
        extra = every_sort_name(op, drawn, contract) + every_sort_elsewhere(op, drawn, contract)
        names = {r.value("sort") for r in drawn + extra} - {NONE}
        assert names >= {f"sort={n}" for n in envelope().sorts_seen}, f"{op} seed {seed}: sorts never sent"
        assert all(r.reader == "admin" and r.form == JSON_FORM for r in extra)
        labels = [r.label for r in drawn + extra]
        assert len(labels) == len(set(labels)), f"{op} seed {seed}: a sweep row repeats a drawn row's id"
        assert not (every_sort_name(op, drawn, contract) and every_sort_elsewhere(op, drawn, contract)), op
    for op in EXPERT_LISTS:
        assert every_sort_elsewhere(op, array(op, seed, contract=contract), contract) == [], op


def test_every_documented_expert_sort_is_sent_beside_every_projection_value() -> None:
    """Each expert list: its openapi sort enum crossed with include, exclude and includeOnly; the other lists get
    none; each row's read without the sort keeps the projection; only the sort's status rule is judged there."""
    contract = load_contract()
    assert PROJECTED_RULES == ("SORT-EXPERTS-VALUES",)
    for op in LIST_OPS:
        rows = every_sort_projected(op, contract)
        if op not in EXPERT_LISTS:
            assert rows == [], op
            continue
        sorts = contract.operation(op).parameter("sort").values
        assert {(r.value("sort"), r.value("projection")) for r in rows} == {
            (f"sort={s}", p) for s in sorts for p in projections(op, contract)}
        assert len(projections(op, contract)) == 3 and all(is_projected(r) for r in rows)
        alone = without_sort(rows[0])
        assert alone.value("sort") == NONE and alone.value("projection") == rows[0].value("projection")
        labels = [r.label for r in rows + array(op, 1, contract=contract)]
        assert len(labels) == len(set(labels)), op
