"""The rules test_list_access.py judges in one test on a row they share (speed24, issue 44: list_access ``FOLDED``, the
visibility rules) lose no row and judge none twice: every (rule, row) the crossing draws is judged by exactly one
test, for any seed, pairwise and thorough; only the folded rules share a test, each marked on it; the tests keep
their ids (a host's id is its case's own, so the self-test's catchers and a rerun's ids still name it).
"""

from __future__ import annotations

import pytest
import test_list_access
from covering import PAIRS, TRIPLES
from list_access import FOLDED, cases, folded

SEEDS = (1, 2, 20260801, 987654321)


@pytest.mark.parametrize("strength", [PAIRS, TRIPLES])
@pytest.mark.parametrize("seed", SEEDS)
def test_every_rule_of_every_row_is_judged_by_exactly_one_test(seed: int, strength: int) -> None:
    drawn = cases(seed, strength=strength)
    tests = folded(drawn)
    judged = [(rule, c.row.label) for c in tests for rule in (c.rule, *c.also)]
    assert sorted(judged) == sorted((c.rule, c.row.label) for c in drawn)
    assert len(tests) < len(drawn), "nothing folded: the space list's rows hold both visibility rules"
    assert {c.label for c in tests} <= {c.label for c in drawn}, "a test's id is no case's own"
    assert len({c.label for c in tests}) == len(tests)
    for c in tests:
        assert not c.also or (c.rule in FOLDED and set(c.also) <= set(FOLDED)), f"{c.label} folds {c.also}"
        assert {c.rule, *c.also} <= set(test_list_access.judged_rules(c)), f"{c.label}: a judged rule unmarked"
