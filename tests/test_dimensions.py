"""spec/dimensions.yaml agrees with spec/openapi.yaml and rules.yaml, and the matrix suite's covering arrays
(suites/contract/covering.py) try every pair of values for any seed.

A dimension that names a parameter the operation does not take would send one the description does not give it; a
covering array that missed a pair would leave a combination untried while the note claims it covered.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl

import input_forms
import pytest
from covering import EXPERT_LISTS, array, coverage

from qaconform.contract import NONE, READER, ContractError, load_contract, parse_dimensions

SEEDS = (1, 2, 20260801, 987654321)


def test_every_parameter_a_dimension_sends_is_one_the_operation_states() -> None:
    contract = load_contract()
    dims = contract.dimensions
    for op, names in dims.lists.items():
        stated = {p.name for p in contract.operation(op).parameters}
        for name in names:
            for value in dims.values[name]:
                if value == NONE or value.startswith("$"):
                    continue
                sent = {k for k, _ in parse_qsl(value)}
                assert sent <= stated, f"{op}: dimension {name} sends {sorted(sent - stated)}, not a parameter of it"


def test_every_rule_declared_is_crossed_over_lists_its_rule_names() -> None:
    contract = load_contract()
    for rule, declared in contract.dimensions.rules.items():
        ops = set(contract.rule(rule).operations)
        assert set(declared.lists) <= ops, f"{rule} is crossed over {sorted(set(declared.lists) - ops)}, not its lists"
        assert set(declared.actions) <= ops, f"{rule} is crossed over {sorted(set(declared.actions) - ops)}"
        assert set(declared.validations) <= ops, f"{rule} is crossed over {sorted(set(declared.validations) - ops)}"
        kinds = [bool(declared.lists), bool(declared.actions), bool(declared.validations)]
        assert kinds.count(True) == 1, f"{rule}: crossed over lists, actions or validations, one of them"
        if declared.lists:
            assert READER in declared.across
        elif declared.actions:
            assert set(declared.across) == set(contract.dimensions.actions[declared.actions[0]])
        else:
            assert set(declared.across) <= set(contract.dimensions.validations[declared.validations[0]])


@pytest.mark.parametrize("seed", SEEDS)
def test_each_lists_array_tries_every_pair_of_values(seed: int) -> None:
    dims = load_contract().dimensions
    for op in dims.lists:
        matrix = array(op, dims, seed)
        cov = coverage(matrix)
        assert cov.possible > 0 and cov.covered == cov.possible, f"{op} seed {seed}: {cov}"
        every = 1
        for column in matrix.columns:
            every *= len(column)
        assert len(matrix.rows) <= every
        if len(matrix.columns) > 2:
            assert len(matrix.rows) < every, f"{op}: pairwise should draw fewer rows than every combination"


def test_the_seed_chooses_the_array_and_the_same_seed_the_same_one() -> None:
    dims = load_contract().dimensions
    assert array("listQuestions", dims, 5).rows == array("listQuestions", dims, 5).rows
    assert array("listQuestions", dims, 5).rows != array("listQuestions", dims, 6).rows


def test_expert_lists_cross_every_documented_sort() -> None:
    contract = load_contract()
    for op in EXPERT_LISTS:
        matrix = array(op, contract.dimensions, 3)
        asked = {dict(parse_qsl(c.query)).get("sort") for c in matrix.rows}
        assert set(contract.operation(op).parameter("sort").values) <= asked


def test_labels_name_the_whole_combination() -> None:
    matrix = array("listQuestions", load_contract().dimensions, 11)
    labels = [c.label for c in matrix.rows]
    assert len(set(labels)) == len(labels)
    assert all(label.startswith("listQuestions-") for label in labels)


@pytest.mark.parametrize(("data", "message"), [
    ({"dimensions": {"reader": ["admin"]}, "lists": {"listNoSuch": []}, "rules": {"X": {}}},
     "lists.listNoSuch is not an operationId"),
    ({"dimensions": {"reader": ["admin"]}, "lists": {"listQuestions": ["paging"]}, "rules": {"X": {}}},
     "names 'paging', not a parameter dimension"),
    ({"dimensions": {"reader": ["admin"]}, "lists": {"listQuestions": []}, "rules": {"NO-SUCH": {}}},
     "rules.NO-SUCH is not a rule"),
    ({"dimensions": {"paging": ["none"]}, "lists": {"listQuestions": []}, "rules": {"X": {}}},
     "must name 'reader'"),
    ({"dimensions": {"reader": ["admin"]}, "lists": {"listQuestions": []}, "actions": {"listNoSuch": ["reader"]},
      "rules": {"X": {}}}, "actions.listNoSuch is not an operationId"),
    ({"dimensions": {"reader": ["admin"]}, "lists": {"listQuestions": []}, "actions": {"listQuestions": ["caller"]},
      "rules": {"X": {}}}, "names 'caller', not a dimension"),
    ({"dimensions": {"reader": ["admin"]}, "lists": {"listQuestions": []}, "actions": {"listQuestions": ["reader"]},
      "rules": {"X": {"across": ["reader"], "actions": ["lockNode"]}}}, "names 'lockNode'"),
    ({"dimensions": {"reader": ["admin"]}, "lists": {"listQuestions": []}, "rules": {"X": {"across": ["reader"]}}},
     "must be a mapping with 'across' and 'lists'"),
    ({"dimensions": {"reader": ["admin"]}, "lists": {"listQuestions": []}, "validations": {"postNoSuch": ["reader"]},
      "rules": {"X": {}}}, "validations.postNoSuch is not an operationId"),
    ({"dimensions": {"reader": ["admin"]}, "lists": {"listQuestions": []},
      "validations": {"listQuestions": ["reader"]}, "rules": {"X": {"across": ["reader"], "validations": ["postX"]}}},
     "names 'postX'"),
])
def test_a_wrong_name_is_a_message_naming_file_and_key(data: dict[str, object], message: str) -> None:
    with pytest.raises(ContractError, match=message):
        parse_dimensions(data, Path("spec/dimensions.yaml"), {"listQuestions"}, {"X"})


def test_the_contract_turns_a_bad_file_into_a_contract_error(tmp_path: Path) -> None:
    spec = load_contract().spec_dir
    for part in ("openapi.yaml", "rules.yaml"):
        (tmp_path / part).write_text((spec / part).read_text())
    (tmp_path / "schemas").symlink_to(spec / "schemas")
    (tmp_path / "dimensions.yaml").write_text("dimensions: {}\n")
    with pytest.raises(ContractError, match="'dimensions' must be a mapping"):
        _ = load_contract(tmp_path).dimensions


def test_a_kept_covering_array_is_the_one_allpairspy_draws_and_a_broken_cache_file_is_drawn_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every worker of a parallel run, and every later run, reads the arrays the first one drew (covering.all_pairs):
    the kept rows must be the library's own, and a cache file that is not an array of rows (a worker killed
    mid-write) is not trusted."""
    from allpairspy import AllPairs
    from covering import _rows_of_shape, all_pairs

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    _rows_of_shape.cache_clear()
    columns = [["admin", "member", "anonymous"], ["none", "pageSize=1", "page=2&pageSize=2"], ["none", "wrap=true"]]
    drawn = [list(r) for r in AllPairs(columns)]
    assert all_pairs(columns) == drawn
    kept = list((tmp_path / "qaconform" / "pairs").glob("*.json"))
    assert len(kept) == 1
    _rows_of_shape.cache_clear()
    assert all_pairs(columns) == drawn  # from the file
    for broken in ('[[0]]', "[[0, 7, 0]]", "not json"):  # rows of the wrong width, a position past its column
        kept[0].write_text(broken, encoding="utf-8")
        _rows_of_shape.cache_clear()
        assert all_pairs(columns) == drawn
    assert all_pairs([["a", "b"], ["x", "y"]]) != drawn  # another shape, another file
    assert len(list((tmp_path / "qaconform" / "pairs").glob("*.json"))) == 2
    _rows_of_shape.cache_clear()


def test_allpairspy_draws_by_position_so_one_kept_array_serves_every_seed() -> None:
    """The premise of keeping arrays by the columns' lengths: for every list and many seeds (each orders the values
    differently), allpairspy's rows over the values are its rows over their positions, mapped to the values. A
    release of allpairspy that looked at the values would fail here (and gets its own cache key by version)."""
    import random

    from allpairspy import AllPairs
    from covering import expand
    from listops import LIST_OPS

    dims = load_contract().dimensions
    compared = 0
    for seed in range(1, 13):
        for op in LIST_OPS:
            rng = random.Random(f"{seed}|{op}")
            columns = [expand(op, d, dims, rng) for d in dims.of_list(op)]
            if len(columns) < 2:
                continue
            by_value = [list(r) for r in AllPairs([list(c) for c in columns])]
            by_position = [[columns[i][j] for i, j in enumerate(r)]
                           for r in AllPairs([list(range(len(c))) for c in columns])]
            assert by_value == by_position, (seed, op)
            compared += 1
    assert compared >= 100


def _validation_rules() -> list[str]:
    return [r for r, d in load_contract().dimensions.rules.items() if d.validations]


def test_every_validation_rule_is_a_must_rule_of_a_write_operation() -> None:
    contract = load_contract()
    rules = _validation_rules()
    assert rules
    for rule in rules:
        declared = contract.dimensions.rules[rule]
        assert contract.rule(rule).level == "must", rule
        assert all(contract.operation(op).method == "POST" for op in declared.validations), rule


@pytest.mark.parametrize("seed", SEEDS)
def test_each_validation_rules_array_tries_every_pair_of_its_allowed_values(seed: int) -> None:
    dims = load_contract().dimensions
    for rule in _validation_rules():
        cases = input_forms.array(rule, dims, seed)
        cov = input_forms.coverage(rule, cases, dims)
        assert cov.possible > 0 and cov.covered == cov.possible, f"{rule} seed {seed}: {cov}"
        assert len({c.label for c in cases}) == len(cases), f"{rule}: two combinations share a test id"


def test_no_validation_is_sent_in_a_form_the_description_does_not_give_its_fields() -> None:
    """Arrays and objects (recipients, a job's user, scheduleDate, operations) have no parameter form shown: a rule
    whose request needs one is never form-encoded; a missing body has no parameter that could win over it."""
    dims = load_contract().dimensions
    never = {"COMMENT-6": {input_forms.FORM}, "GDPR-INDIVIDUAL-NO-USER": {input_forms.FORM},
             "GDPR-BULK-NO-CSV": {input_forms.FORM}, "GDPR-CSV-MISSING": {input_forms.FORM},
             "COMMENT-BODY-REQUIRED": {input_forms.PARAM_WINS}}
    for rule in _validation_rules():
        forms = {c.form for seed in SEEDS for c in input_forms.array(rule, dims, seed)}
        assert not forms & never.get(rule, set()), f"{rule} draws {sorted(forms & never[rule])}"
        assert input_forms.JSON in forms, f"{rule}: the JSON body is every validation's first form"


def test_the_seed_chooses_the_order_of_a_validation_rules_array() -> None:
    dims = load_contract().dimensions
    labels = {tuple(c.label for c in input_forms.array("COMMENT-BODY-REQUIRED", dims, seed)) for seed in SEEDS}
    assert len(labels) > 1
    assert input_forms.array("COMMENT-6", dims, 7) == input_forms.array("COMMENT-6", dims, 7)
