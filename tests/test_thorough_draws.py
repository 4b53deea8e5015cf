"""What ``--thorough`` draws of the matrices (issue 46 item 1): every admissible combination of the action matrix and
of the validation and answer-form matrices, and for the lists (thousands of rows each in full) a covering array of
strength 3 that tries every triple of values, for any seed; the default draw is the pairwise one, unchanged, and a
thorough array is kept apart from a pairwise one of the same shape.

allpairspy's ``n=3`` alone leaves triples untried (covering.completed says how many), so a missed triple here would
be a thorough run claiming a strength it does not have.
"""

from __future__ import annotations

from itertools import combinations, product
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import action_cases
import input_forms
import list_access
import pytest
from covering import PAIRS, TRIPLES, _rows_of_shape, all_pairs, array, completed, pairwise, thorough

from qaconform.contract import load_contract

SEEDS = (1, 2, 20260801, 987654321)


def _missed(columns: Any, rows: Any, strength: int) -> int:
    """Tuples of ``strength`` values of as many columns that no row holds."""
    missed = 0
    for idx in combinations(range(len(columns)), strength):
        held = {tuple(r[i] for i in idx) for r in rows}
        missed += sum(1 for values in product(*(columns[i] for i in idx)) if values not in held)
    return missed


@pytest.mark.parametrize("seed", SEEDS)
def test_each_lists_thorough_array_tries_every_triple_of_values(seed: int) -> None:
    dims = load_contract().dimensions
    for op in dims.lists:
        matrix = array(op, dims, seed, TRIPLES)
        rows = [(c.reader, *(v for _, v in c.values)) for c in matrix.rows]
        assert _missed(matrix.columns, rows, min(TRIPLES, len(matrix.columns))) == 0, f"{op} seed {seed}"
        assert len(set(rows)) == len(rows), f"{op}: a row drawn twice"


@pytest.mark.parametrize("seed", SEEDS)
def test_each_lists_thorough_access_array_tries_every_triple(seed: int) -> None:
    contract = load_contract()
    dims, access = contract.dimensions, list_access.load(contract)
    for op in dims.lists:
        names = list_access.dimensions_of(op, dims, access)
        def flat(drawn: list[list_access.Row]) -> list[tuple[str, ...]]:
            return [(r.combination.reader, *(v for _, v in r.combination.values), r.order) for r in drawn]

        rows = flat(list_access.rows(op, dims, access, seed, TRIPLES))
        pairs = flat(list_access.rows(op, dims, access, seed))  # every value of every column: the pairwise test's
        columns = [sorted({r[i] for r in pairs}) for i in range(len(names))]
        assert len(columns[0]) == len(dims.values["reader"]), f"{op}: every account"
        assert _missed(columns, rows, min(TRIPLES, len(names))) == 0, f"{op} seed {seed}"
    assert len(list_access.cases(seed, contract, TRIPLES)) > len(list_access.cases(seed, contract))


def test_the_default_draw_is_the_pairwise_one() -> None:
    dims = load_contract().dimensions
    for op in dims.lists:
        assert array(op, dims, 7) == array(op, dims, 7, PAIRS)
    for rule in (r for r, d in dims.rules.items() if d.validations):
        assert input_forms.array(rule, dims, 7) == input_forms.array(rule, dims, 7, every=False)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("no_budget", [False, True])
def test_the_thorough_action_matrix_is_every_admissible_combination(seed: int, no_budget: bool) -> None:
    dims = load_contract().dimensions
    for action in action_cases.ACTIONS:
        full = action_cases.array(action, dims, seed, no_budget, every=True)
        names = full.names
        wanted = {row for row in product(*full.columns)
                  if action_cases.admissible(action, *action_cases._order(names, row), no_budget)}
        drawn = [tuple(c.value(n) for n in names) for c in full.cases]
        assert set(drawn) == wanted and len(drawn) == len(wanted), action
        assert len({c.label for c in full.cases}) == len(full.cases), f"{action}: two cases share a test id"
        pairs = action_cases.array(action, dims, seed, no_budget)
        assert set(pairs.cases) <= set(full.cases)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_thorough_validation_matrix_is_every_combination(seed: int) -> None:
    dims = load_contract().dimensions
    for rule, declared in dims.rules.items():
        if not declared.validations:
            continue
        cases = input_forms.array(rule, dims, seed, every=True)
        size = 1
        for name in declared.across:
            size *= len(input_forms.values(rule, name, dims))
        assert len({c.label for c in cases}) == len(cases) == size, rule
        assert set(input_forms.array(rule, dims, seed)) <= set(cases), rule


def test_completion_tries_every_triple_allpairspy_leaves() -> None:
    from allpairspy import AllPairs

    shape = (5, 3, 3, 4, 4, 2, 2)  # listQuestions' columns
    drawn = [list(r) for r in AllPairs([list(range(n)) for n in shape], n=TRIPLES)]
    columns = [list(range(n)) for n in shape]
    assert _missed(columns, drawn, TRIPLES) > 0  # why completed exists: if this fails, allpairspy now keeps n=3
    done = completed(drawn, shape, TRIPLES)
    assert done[:len(drawn)] == drawn and _missed(columns, done, TRIPLES) == 0


def test_a_thorough_array_is_kept_apart_from_a_pairwise_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    _rows_of_shape.cache_clear()
    columns = [["a", "b", "c"], ["x", "y", "z"], ["1", "2"], ["p", "q"]]
    pairs = all_pairs(columns)
    triples = all_pairs(columns, TRIPLES)
    assert len(list((tmp_path / "qaconform" / "pairs").glob("*.json"))) == 2
    _rows_of_shape.cache_clear()
    assert all_pairs(columns) == pairs and all_pairs(columns, TRIPLES) == triples  # each from its own file
    assert [tuple(r) for r in pairs] == pairwise(columns) and len(triples) > len(pairs)
    _rows_of_shape.cache_clear()


def test_only_the_thorough_option_deepens_the_draw() -> None:
    def config(**options: Any) -> Any:
        return cast(Any, SimpleNamespace(getoption=lambda name, default=None: options.get(name, default)))

    assert thorough(config(qc_thorough=True))
    assert not thorough(config(qc_write_budget="unlimited"))
    assert not thorough(config()) and not thorough(None)


def test_a_rows_parameters_are_its_query_parsed_whatever_was_parsed_before() -> None:
    """speed13 (issue 44): a row's query is parsed once per process (covering._query_pairs); the parameters are
    still the query's own, blank values kept, and a token filled per row, not in the kept parse."""
    from covering import Combination

    first = Combination("listTopics", "member", (("q", "q=$word"), ("pageSize", "pageSize=")))
    assert first.params({}) == {"q": "$word", "pageSize": ""}
    assert first.params({"$word": "lorem"}) == {"q": "lorem", "pageSize": ""}
    assert first.params({"$word": "a", "$word@listTopics": "install"}) == {"q": "install", "pageSize": ""}
    assert first.params({}) == {"q": "$word", "pageSize": ""}, "a filled token must not stay in the kept parse"
