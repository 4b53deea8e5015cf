"""The order of favorite_node_id's two unfavorites is drawn by the run's seed (unfav14, issue 44): consecutive seeds
try both. The faults on ACTION-UNFAVORITE-PER-USER that bite in one order name it (``Fault.draws``, seed15), and the
self-test runs each at a seed that draws it, so all three are caught in one self-test, not each on half its seeds."""

from __future__ import annotations

from qaconform.commands import selftest_seeds
from qaconform.commands.selftest import DEFAULT_SEED
from qaconform.pytest.seed_draws import UNFAVORITE_ORDERS, order_for_seed
from qaconform.reference import faults

ORDER_FAULTS = {"unfavorite-first-users-favorite": "member first", "round21-unfavorite-newest-favorite": "member first",
                "round38-unfavorite-newest-holder": "admin first"}
"""The faults caught in one order only (measured: each caught at a seed of its order, missed at the other's)."""


def test_consecutive_seeds_draw_both_orders() -> None:
    for seed in (0, 1, DEFAULT_SEED, 2**31 - 2):
        assert {order_for_seed(seed), order_for_seed(seed + 1)} == set(UNFAVORITE_ORDERS), seed


def test_the_suites_draw_the_order_by_the_same_function_the_selftest_does() -> None:
    import suites.one_shot_calls as calls

    assert calls.order_for_seed is order_for_seed, "suites/one_shot_calls.py draws the order by a copy of its own"


def test_each_order_fault_names_its_order_and_runs_at_a_seed_that_draws_it() -> None:
    for name, order in ORDER_FAULTS.items():
        assert faults.FAULTS[name].draws == (f"unfavorite order={order}",), name
        for start in (DEFAULT_SEED, DEFAULT_SEED + 1, 7, 8):
            at = selftest_seeds.fault_seed(name, start)
            assert order_for_seed(at) == order and start <= at <= start + 1, (name, start, at)
