"""paths16 (issue 44): the account that unwikifies wiki_node_id is drawn by the run's seed (moderator or admin, both
with Mark as community wiki), so consecutive pairs of seeds try each and an administrator's unwikify is met. The
faults that bite on one unwikifier only name it (``Fault.draws``) and the self-test runs each at a seed that draws
it; the self-test's own seed keeps moderator, as every run did before."""

from __future__ import annotations

from qaconform.commands import selftest_seeds
from qaconform.commands.selftest import DEFAULT_SEED
from qaconform.pytest.seed_draws import UNWIKIFIERS, draws_at, order_for_seed, unwikifier_for_seed
from qaconform.reference import faults

UNWIKIFIER_FAULTS = {
    "round43-cancelwiki-admin-not-canceled": "admin", "paths16-cancelwiki-admin-stays-wiki": "admin",
    "cancelwiki-moderator-refused-as-409": "moderator", "blind20-cancelwiki-moderator-wiki-key": "moderator",
}
"""The faults on one unwikifier's path only, each measured missed at a seed drawing the other
(round36-cancelwiki-moderator-refused-other-space is caught at both: it names no draw)."""


def test_four_consecutive_seeds_draw_every_pair_of_unwikifier_and_unfavorite_order() -> None:
    for seed in (0, 1, DEFAULT_SEED, 2**31 - 4):
        pairs = {(unwikifier_for_seed(s), order_for_seed(s)) for s in range(seed, seed + 4)}
        assert len(pairs) == 4, (seed, pairs)
        assert {unwikifier_for_seed(s) for s in range(seed, seed + 4)} == set(UNWIKIFIERS)


def test_the_selftest_seed_keeps_moderator() -> None:
    assert unwikifier_for_seed(DEFAULT_SEED) == "moderator"


def test_the_suites_draw_the_unwikifier_by_the_same_function_the_selftest_does() -> None:
    import suites.one_shot_calls as calls

    assert calls.unwikifier_for_seed is unwikifier_for_seed, "suites/one_shot_calls.py draws by a copy of its own"


def test_each_unwikifier_fault_names_its_draw_and_runs_at_a_seed_that_draws_it() -> None:
    for name, role in UNWIKIFIER_FAULTS.items():
        assert faults.FAULTS[name].draws == (f"unwikifier={role}",), name
        for start in (DEFAULT_SEED, DEFAULT_SEED + 1, 7, 8):
            at = selftest_seeds.fault_seed(name, start)
            assert draws_at((f"unwikifier={role}",), at) and start <= at <= start + 3, (name, start, at)
