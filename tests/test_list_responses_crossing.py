"""The lists' response rules are crossed by default (suites/contract/list_responses.py, spec/dimensions.yaml
``list_responses``): every must-rule judged on a list's response has a check that runs on every row of each of its
lists, a row crosses every dimension the list admits, and a rule is left out of a row only for a reason spec/ gives.

A new rule of a list with no check (nor a reason why one response cannot judge it), a check whose rule is gone, a
pair of values no row tries, or a rule that is marked on a row it cannot judge would leave a path untried while the
crossing figure says it is crossed.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from covering import EXPERT_LISTS
from list_kind_rows import every_other_kind
from list_responses import (
    ANY_FORM,
    BROWSER_FORM,
    CHECKS,
    JSON_FORM,
    MERGED,
    OTHER_VERSION_ALWAYS,
    REFUSED_ROWS,
    SHAPE_OPTIONS,
    Row,
    Seen,
    array,
    every_sort_name,
    excused,
    load,
    response_rules,
    rules_of,
    share,
)
from listops import LIST_OPS
from owner_rows import every_owner

from qaconform.contract import NONE, READER, load_contract
from qaconform.kit import spec_dir
from qaconform.report.crossing import crossing

SEEDS = (1, 2, 20260801, 987654321)


def test_every_response_rule_of_a_list_has_a_check_and_every_check_its_rule() -> None:
    contract = load_contract()
    section = load(contract)
    rules = response_rules(contract, section)
    assert set(rules) == set(CHECKS), (
        f"rules without a check: {sorted(set(rules) - set(CHECKS))} (write one in list_responses.CHECKS, or name the "
        f"rule in list_responses.not_response with why one response cannot judge it); checks without a response "
        f"rule: {sorted(set(CHECKS) - set(rules))}")
    for key, why in [*section.not_response.items(), *section.exclude.items()]:
        assert len(why.split()) >= 5, f"{key} is left out without a reason"


def test_the_crossing_figure_counts_exactly_the_rules_the_suite_checks_as_response_rules() -> None:
    """crossing.py reads spec/ only: its response rules must be the ones list_responses.py runs a check of."""
    contract = load_contract()
    rules = response_rules(contract)
    c = crossing(spec_dir(), contract.rules.values())
    missing = {p["rule"]: p["missing"] for p in c["not_fully"]}
    for rule, ops in rules.items():
        for op in ops:
            assert op not in missing.get(rule, {}), f"{rule} is judged on every row of {op}, yet the figure says " \
                                                    f"it misses {missing[rule][op]}"


def test_an_item_rule_is_never_marked_on_a_row_under_wrap_or_v1() -> None:
    """The items under wrap or v1 are of a shape not shown: spec/ leaves every item rule out there, with why."""
    contract = load_contract()
    section = load(contract)
    for rule, ops in response_rules(contract, section).items():
        takes = {o for op in ops for o in contract.dimensions.of_list(op) if o in SHAPE_OPTIONS}
        if CHECKS[rule].items:
            assert takes <= set(section.not_across.get(rule, {})), f"{rule} judges items under {sorted(takes)}"


@pytest.mark.parametrize("seed", SEEDS)
def test_every_pair_of_values_is_tried_and_every_value_meets_the_plain_request(seed: int) -> None:
    contract = load_contract()
    section = load(contract)
    for op in LIST_OPS:
        rows = array(op, seed, contract=contract)
        names = [READER, *contract.dimensions.of_list(op)[1:], *_own(op), section.form]

        def value(row: Row, name: str) -> str:
            return row.reader if name == READER else row.form if name == section.form else row.value(name)

        for a, b in combinations(names, 2):
            seen = {(value(r, a), value(r, b)) for r in rows}
            want = {(x, y) for x in {value(r, a) for r in rows} for y in {value(r, b) for r in rows}}
            assert seen == want, f"{op} seed {seed}: pairs of {a} and {b} never tried: {sorted(want - seen)[:5]}"
        plain = [r for r in rows if all(r.value(o) == NONE for o in MERGED)]
        for name in names:
            if name in MERGED:
                continue
            every = {value(r, name) for r in rows}
            assert every == {value(r, name) for r in plain}, f"{op}: some {name} never meets the plain request"
        assert {r.form for r in rows} == {JSON_FORM, ANY_FORM, BROWSER_FORM}


def _own(op: str) -> tuple[str, ...]:
    from list_responses import own_dimensions

    return own_dimensions(load_contract()).get(op, ())


def test_anonymous_on_an_expert_list_is_judged_on_its_401_only() -> None:
    contract = load_contract()
    section = load(contract)
    rules = response_rules(contract, section)
    for op in EXPERT_LISTS:
        for row in array(op, 1, contract=contract):
            judged = rules_of(row, rules, section)
            if row.reader == "anonymous":
                assert judged == ("EXPERTS-401",)
            else:
                assert "EXPERTS-401" not in judged and judged


def _seen(body: dict, **asked: str) -> Seen:
    row = array("listSpaces", 1)[0]
    return Seen(row, dict(asked), body)


def test_a_page_holds_the_share_of_total_count_that_paging_gives_it() -> None:
    assert [share(5, p, 2) for p in (1, 2, 3, 4)] == [2, 2, 1, 0]
    union = CHECKS["PAGING-TOTALCOUNT-UNION"].problems
    assert union(_seen({"totalCount": 5, "pageSize": 2, "page": 3, "list": [{}]}, page="3", pageSize="2")) == []
    assert union(_seen({"totalCount": 6, "pageSize": 2, "page": 3, "list": [{}]}, page="3", pageSize="2"))
    assert union(_seen({"totalCount": 1, "pageSize": 15, "page": 1, "list": []}))
    echo = CHECKS["PAGING-PAGE-ECHO"].problems
    assert echo(_seen({"page": 1, "pageCount": 3, "list": []}, page="2"))
    assert echo(_seen({"page": 1, "pageCount": 1, "list": []}, page="2")) == [], "a page past the end: not judged"


@pytest.mark.parametrize("seed", SEEDS)
def test_every_seen_sort_name_reaches_every_node_list_that_takes_a_sort(seed: int) -> None:
    """blindc (issue 44): the covering array draws two of the sort names the description has seen; the rows beside
    it send each other one, as admin with no other parameter, on every node list with a sort dimension (a server
    that serves one sort by another query breaks a response rule on that name only). The drawn rows are unchanged."""
    import response_params  # lists9: the comment list's sort (a Conventions parameter) is swept too

    from qaconform.contract import envelope

    contract = load_contract()
    swept = [op for op in LIST_OPS if op not in EXPERT_LISTS
             and "sort" in (*contract.dimensions.of_list(op), *response_params.conventions(op, contract))
             and LIST_OPS[op].item_type in ("question", "answer", "comment")]
    assert {"listQuestions", "listUserQuestions", "listUserAnswers", "listAnswerComments"} <= set(swept)
    for op in swept:
        drawn = array(op, seed, contract=contract, deeper=True)
        extra = every_sort_name(op, drawn, contract)
        names = {r.value("sort") for r in drawn + extra} - {NONE}
        assert names == {f"sort={n}" for n in envelope().sorts_seen}, f"{op} seed {seed}: sorts never sent"
        assert all(r.reader == "admin" and r.form == JSON_FORM and r.combination.query == r.value("sort")
                   for r in extra), f"{op}: a sweep row is admin's, with the sort alone, in the samples' form"
        labels = [r.label for r in drawn + extra]
        assert len(labels) == len(set(labels)), f"{op} seed {seed}: a sweep row repeats a drawn row's id"
    for op in set(LIST_OPS) - set(swept):
        assert every_sort_name(op, array(op, seed, contract=contract, deeper=True), contract) == [], op


def test_every_account_is_the_path_user_of_each_user_list_once() -> None:
    """blind9 (issue 44): beside the covering array (which reads one user's list), one row per account of the profile
    as the user of each user list, admin's, with no parameter, in the samples' form; the other lists get none, and no
    row repeats a drawn row's id."""
    contract = load_contract()
    accounts = set(contract.dimensions.values["writer"])
    assert accounts == {"admin", "moderator", "member", "novice"}
    for op in LIST_OPS:
        extra = every_owner(op, contract)
        if op not in ("listUserQuestions", "listUserAnswers"):
            assert extra == [], op
            continue
        assert {r.owner for r in extra} == accounts and len(extra) == len(accounts), op
        assert all(r.reader == "admin" and r.form == JSON_FORM and r.combination.query == "" for r in extra), op
        labels = [r.label for r in array(op, SEEDS[0], contract=contract) + extra]
        assert len(labels) == len(set(labels)), f"{op}: an owner row repeats a drawn row's id"
        assert all(r.owner is None for r in array(op, SEEDS[0], contract=contract)), "drawn rows keep their path"


def test_each_node_list_with_a_search_is_asked_with_type_naming_every_other_node_kind() -> None:
    """fix25 (issue 44, blind round 25): beside the covering array (which sends only type=question), one row per other
    node kind as the question list's type, admin's, with that parameter alone, in the samples' form; lists without a
    search or without node items get none, and no row repeats a drawn row's id."""
    contract = load_contract()
    for op in LIST_OPS:
        extra = every_other_kind(op, contract)
        kind = LIST_OPS[op].item_type
        if "search" not in contract.dimensions.of_list(op) or kind not in ("question", "answer", "comment"):
            assert extra == [], op
            continue
        assert {r.value("search") for r in extra} == {f"type={k}" for k in ("question", "answer", "comment")
                                                       if k != kind}, op
        assert all(r.reader == "admin" and r.form == JSON_FORM and r.combination.query == r.value("search")
                   for r in extra), op
        labels = [r.label for r in array(op, SEEDS[0], contract=contract) + extra]
        assert len(labels) == len(set(labels)), f"{op}: a type row repeats a drawn row's id"
    assert [r.value("search") for r in every_other_kind("listQuestions", contract)] == ["type=answer", "type=comment"]


def _rules_walked(row: Row, rules: dict[str, tuple[str, ...]], section: object) -> tuple[str, ...]:
    """rules_of as it was before its index (speed19): every rule asked for every row."""
    refused = row.op in EXPERT_LISTS and row.reader == "anonymous"
    return tuple(rule for rule, ops in rules.items()
                 if row.op in ops and (rule in REFUSED_ROWS) == refused
                 and (rule in OTHER_VERSION_ALWAYS or not excused(rule, row, section))  # type: ignore[arg-type]
                 and CHECKS[rule].judges(row))


def test_rules_of_through_its_index_names_the_rules_a_walk_of_every_rule_names_in_the_same_order() -> None:
    """speed19 (issue 44): rules_of looks a row's candidate rules up by (list, refused reader) instead of asking
    every rule for every row on every worker's collection; the rules judged on a row, and their order, stay."""
    contract = load_contract()
    section = load(contract)
    rules = response_rules(contract, section)
    seen_refused = seen_excused = 0
    for op in LIST_OPS:
        drawn = array(op, 20260801, contract=contract, deeper=True)
        for row in [*drawn, *every_sort_name(op, drawn, contract), *every_owner(op, contract),
                    *every_other_kind(op, contract)]:
            assert rules_of(row, rules, section) == _rules_walked(row, rules, section), row.label
            seen_refused += row.op in EXPERT_LISTS and row.reader == "anonymous"
            seen_excused += any(excused(rule, row, section) for rule in rules)
    assert seen_refused and seen_excused, "no row of a refused reader or of an excused value was compared"
