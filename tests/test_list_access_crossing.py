"""The list permissions' crossing (suites/contract/list_access.py, spec/dimensions.yaml ``list_access``) is derived
from the contract, excludes only what spec/ names with a reason, sends only stated parameters, and tries every pair.

A permission rule left out of the crossing, a list's own parameter sent to a list that does not state it, or an
array that missed a pair would leave a path untried while the suite claims it crossed.
"""

from __future__ import annotations

import random
from itertools import combinations
from urllib.parse import parse_qsl

import list_access
import pytest
from list_access import ALONE, DENY, crossing, dimensions_of, load, parse, rows, verdict

from qaconform.contract import NONE, READER, ContractError, load_contract

SEEDS = (1, 2, 20260801, 987654321)


def test_every_permission_rule_of_a_list_is_crossed_unless_excluded_with_a_reason() -> None:
    contract = load_contract()
    access = load(contract)
    crossed = crossing(contract, access)
    lists = contract.dimensions.lists
    for rule in contract.rules.values():
        on = [op for op in rule.operations if op in lists]
        if rule.level != "must" or rule.area != "permissions" or not on:
            continue
        if rule.id in access.exclude:
            assert access.exclude[rule.id].strip(), f"{rule.id} is excluded without a reason"
            continue
        expected = {op for op in on if f"{rule.id} {op}" not in access.exclude}
        assert set(crossed[rule.id]) == expected, f"{rule.id} crossed over {crossed.get(rule.id)}, not {expected}"
    assert "PROJ-ONLY-VISIBLE" in crossed
    for key, reason in access.exclude.items():
        assert len(reason.split()) >= 5, f"exclusion {key!r} gives no reason"


def test_each_list_is_crossed_with_every_dimension_it_admits() -> None:
    contract = load_contract()
    access = load(contract)
    for op, stated in contract.dimensions.lists.items():
        names = dimensions_of(op, contract.dimensions, access)
        assert names[0] == READER and names[-1] == access.order
        assert set(stated) <= set(names) and set(access.own.get(op, ())) <= set(names)


def test_every_parameter_a_list_own_dimension_sends_is_one_the_operation_states() -> None:
    contract = load_contract()
    access = load(contract)
    for op, own in access.own.items():
        stated = {p.name for p in contract.operation(op).parameters}
        for name in own:
            for value in contract.dimensions.values[name]:
                if value == NONE:
                    continue
                sent = {k for k, _ in parse_qsl(value)}
                assert sent and sent <= stated, f"{op}: {name} sends {sorted(sent - stated)}, not a parameter of it"


@pytest.mark.parametrize("seed", SEEDS)
def test_each_lists_access_array_tries_every_pair_of_values_and_every_account(seed: int) -> None:
    contract = load_contract()
    access = load(contract)
    dims = contract.dimensions
    for op in dims.lists:
        drawn = rows(op, dims, access, seed)
        names = dimensions_of(op, dims, access)

        def value(row: list_access.Row, name: str) -> str:
            if name == READER:
                return row.combination.reader
            return row.order if name == access.order else row.combination.value(name)

        columns = {n: {value(r, n) for r in drawn} for n in names}
        assert columns[READER] == set(dims.values[READER]), f"{op}: every account reads it, refused or not"
        assert columns[access.order] == set(dims.values[access.order])
        for a, b in combinations(names, 2):
            pairs = {(value(r, a), value(r, b)) for r in drawn}
            assert len(pairs) == len(columns[a]) * len(columns[b]), f"{op} seed {seed}: pairs of {a} x {b} missed"


def test_the_verdict_is_the_permission_tables() -> None:
    assert verdict("listGroups", "admin") != DENY
    assert {verdict("listGroups", r) for r in ("moderator", "member", "novice", "anonymous")} == {DENY}
    assert verdict("listActiveExperts", "anonymous") == DENY
    assert verdict("listQuestions", "anonymous") == list_access.AS_PLAIN
    assert verdict("listQuestions", "novice") == list_access.ALLOW


def test_rows_after_another_account_name_it_and_alone_rows_keep_the_matrix_label() -> None:
    contract = load_contract()
    drawn = rows("listSpaces", contract.dimensions, load(contract), 1)
    for row in drawn:
        if row.order == ALONE:
            assert row.before is None and row.label == row.combination.label
        else:
            assert row.before in contract.dimensions.values[READER] and row.label.endswith(row.order)


@pytest.mark.parametrize(("raw", "message"), [
    ({"order": "order", "own": {"listNope": ["filters"]}}, "listNope"),
    ({"order": "order", "own": {"listQuestions": ["paging"]}}, "not a dimension of its own"),
    ({"order": "reader"}, "order must name"),
    ({"order": "order", "also": ["NO-SUCH-RULE"]}, "NO-SUCH-RULE"),
    ({"order": "order", "exclude": {"PERM-GROUPS listNope": "a reason given here"}}, "names no list"),
])
def test_a_wrong_name_in_list_access_is_a_message_naming_it(raw: dict[str, object], message: str) -> None:
    contract = load_contract()
    with pytest.raises(ContractError, match=message):
        parse(raw, contract.dimensions, contract, "dimensions.yaml")


# --- readers (issue 44): each reader plain, and with each Conventions parameter the list's section leaves unnamed --

CONVENTIONS = {"paging": {"page", "pageSize"}, "sort": {"sort"}, "projection": {"include", "exclude", "includeOnly"},
               "wrap": {"wrap"}, "v1": {"v1"}}
"""The dimensions of the Conventions' parameters ("Paging parameters: page, pageSize, sort", "Projection parameters:
include, exclude, includeOnly", "Other options accepted by most endpoints: wrap, v1") and what each sends."""


def test_the_conventions_rows_send_only_the_conventions_parameters_a_lists_section_leaves_unnamed() -> None:
    contract = load_contract()
    access = load(contract)
    assert access.conventions, "list_access.conventions names no list: the Conventions' parameters go untried"
    for op, names in access.conventions.items():
        for name in names:
            assert name in CONVENTIONS and name not in contract.dimensions.lists[op], f"{op}: {name}"
            for value in contract.dimensions.values[name]:
                if value != NONE:
                    sent = {k for k, _ in parse_qsl(value.replace("$sort", "sort=x"))}
                    assert sent and sent <= CONVENTIONS[name], f"{op}: {name} sends {sorted(sent)}"


@pytest.mark.parametrize("seed", SEEDS)
def test_every_reader_reads_each_list_plain_and_with_each_conventions_value_alone(seed: int) -> None:
    contract = load_contract()
    access = load(contract)
    dims = contract.dimensions
    by_op: dict[str, list[list_access.Row]] = {}
    for case in list_access.cases(seed, contract):
        by_op.setdefault(case.row.combination.op, []).append(case.row)
    for op, drawn in by_op.items():
        alone = {(r.combination.reader, r.combination.query) for r in drawn
                 if r.order == ALONE and not r.own and r.whose is None}
        for reader in dims.values[READER]:
            assert (reader, "") in alone, f"{op} seed {seed}: {reader} never reads it without parameters"
            for name in access.conventions.get(op, ()):
                values = {q for who, q in alone if who == reader and q and all(
                    k in CONVENTIONS[name] for k, _ in parse_qsl(q))}
                expected = len([v for v in dims.values[name] if v != NONE])
                if name == "sort":
                    expected = len([v for v in list_access.expand(op, name, dims, random.Random(0)) if v != NONE])
                assert len(values) >= expected, f"{op} seed {seed}: {reader} x {name} tried {sorted(values)}"


@pytest.mark.parametrize("seed", SEEDS)
def test_every_reader_reads_each_list_with_each_conventions_dimension_beside_each_other_one(seed: int) -> None:
    """histories4 (issue 44): a permission checked only when two parameters are given together, one of them a
    Conventions one, is met for every reader and every such pair of dimensions: a row that gives exactly those two."""
    contract = load_contract()
    access = load(contract)
    dims = contract.dimensions
    met: dict[str, set[tuple[str, frozenset[str]]]] = {}
    for case in list_access.cases(seed, contract):
        row = case.row
        given = frozenset(d for d, v in row.combination.values if v != NONE)
        if row.order == ALONE and not row.own and row.whose is None and len(given) == 2:
            met.setdefault(row.combination.op, set()).add((row.combination.reader, given))
    for op, conventions in access.conventions.items():
        names = [d for d in (*conventions, *dims.of_list(op), *access.own.get(op, ())) if d != READER]
        pairs = {frozenset(p) for p in combinations(dict.fromkeys(names), 2) if set(p) & set(conventions)}
        assert pairs, f"{op}: no pair of dimensions holds a Conventions one"
        for reader in dims.values[READER]:
            missing = sorted(sorted(p) for p in pairs if (reader, p) not in met.get(op, set()))
            assert not missing, f"{op} seed {seed}: {reader} never reads it with exactly the pairs {missing}"


def test_no_two_cases_share_an_id() -> None:
    labels = [case.label for case in list_access.cases(20260801)]
    assert len(labels) == len(set(labels)), "two access cases share a test id (pytest would rename both)"


def test_a_conventions_dimension_the_list_states_is_a_message_naming_it() -> None:
    contract = load_contract()
    with pytest.raises(ContractError, match="leaves unnamed"):
        parse({"order": "order", "conventions": {"listQuestions": ["paging"]}}, contract.dimensions, contract, "d")
    with pytest.raises(ContractError, match="listNope"):
        parse({"order": "order", "conventions": {"listNope": ["paging"]}}, contract.dimensions, contract, "d")
