"""The rules test_matrix.py judges inside PAGING-LISTCOUNT's test (speed23, issue 44: ``FOLDED``) lose no row: every
row each is drawn for is a row of PAGING-LISTCOUNT's test, for any seed, pairwise and thorough, and each row is marked
with exactly the folded rules drawn for it. A row of a folded rule outside PAGING-LISTCOUNT's draw would be judged by
no test at all (its own test is gone), so a change of spec/dimensions.yaml that makes one fails here.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest
import test_matrix

from qaconform.contract import load_contract

SEEDS = (1, 2, 20260801, 987654321)


def _config(thorough: bool) -> Any:
    return cast(Any, SimpleNamespace(getoption=lambda name, default=None: thorough if name == "qc_thorough"
                                     else default))


@pytest.mark.parametrize("thorough", [False, True])
@pytest.mark.parametrize("seed", SEEDS)
def test_every_row_of_a_folded_rule_is_a_row_of_the_list_count_test(seed: int, thorough: bool) -> None:
    dims, config = load_contract().dimensions, _config(thorough)
    host = test_matrix._combinations("PAGING-LISTCOUNT", dims, seed, config)
    labels = {c.label for c in host}
    marked = test_matrix.folded_rules(dims, seed, config)
    for rule in test_matrix.FOLDED:
        own = test_matrix._combinations(rule, dims, seed, config)
        assert own, f"{rule} is drawn for no row"
        assert {c.label for c in own} <= labels, f"{rule}: rows outside PAGING-LISTCOUNT's draw"
        assert sum(rule in marked(c) for c in host) == len({c.label for c in own})
