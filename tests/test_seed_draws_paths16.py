"""paths16 (issue 44): two shared writes made by a caller, or under a parent, that the run's seed draws: the account
that unwikifies wiki_node_id (moderator or admin, both with Mark as community wiki: an administrator's unwikify is
met), and the public parent of member's shared private reply (novice's public reply, or member's own comment: rule 5
by the parent's author). The faults that bite on one value only name it (``Fault.draws``) and the self-test runs
each at a seed that draws it; the self-test's own seed keeps the values every run had before."""

from __future__ import annotations

from qaconform.commands import selftest_seeds
from qaconform.commands.selftest import DEFAULT_SEED
from qaconform.pytest.seed_draws import (
    PRIVATE_REPLY_PARENTS,
    UNWIKIFIERS,
    draws_at,
    order_for_seed,
    private_reply_parent_for_seed,
    unwikifier_for_seed,
)
from qaconform.reference import faults

UNWIKIFIER_FAULTS = {
    "round43-cancelwiki-admin-not-canceled": "admin", "paths16-cancelwiki-admin-stays-wiki": "admin",
    "cancelwiki-moderator-refused-as-409": "moderator", "blind20-cancelwiki-moderator-wiki-key": "moderator",
}
PARENT_FAULTS = {"round44-own-public-reply-privacy-dropped": 1, "paths16-own-public-reply-listed-full": 1,
                 "recip-private-under-public-reply-listed-to-all": 0, "fix23-reply-ids-list-private-replies": 0,
                 "round27-reply-to-reply-private-id-listed": 0, "blindt-reply-to-public-reply-drops-visibility": 0,
                 "round40-private-reply-depth4-public": 0}
"""The faults on one parent of member's shared private reply (the index of its PRIVATE_REPLY_PARENTS value), each
measured missed at a seed drawing the other (paths16: 20260805 and 20260801)."""
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


def test_eight_consecutive_seeds_draw_every_combination_of_the_three_dimensions() -> None:
    for seed in (0, 3, DEFAULT_SEED, 2**31 - 8):
        combos = {(unwikifier_for_seed(s), order_for_seed(s), private_reply_parent_for_seed(s))
                  for s in range(seed, seed + 8)}
        assert len(combos) == 8, (seed, combos)


def test_the_selftest_seed_keeps_the_public_reply_parent() -> None:
    assert private_reply_parent_for_seed(DEFAULT_SEED) == PRIVATE_REPLY_PARENTS[0]


def test_the_suites_draw_the_parent_by_the_same_function_the_selftest_does() -> None:
    import suites.public_threads as threads

    assert threads.private_reply_parent_for_seed is private_reply_parent_for_seed


def test_each_parent_fault_names_its_draw_and_runs_at_a_seed_that_draws_it() -> None:
    for name, value in PARENT_FAULTS.items():
        draw = f"private reply parent={PRIVATE_REPLY_PARENTS[value]}"
        assert faults.FAULTS[name].draws == (draw,), name
        for start in (DEFAULT_SEED, 7, 8):
            at = selftest_seeds.fault_seed(name, start)
            assert draws_at((draw,), at) and start <= at <= start + 7, (name, start, at)
