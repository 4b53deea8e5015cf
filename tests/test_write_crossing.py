"""The writes' and node actions' crossing (issue 44, writecross) is derived and honest: qaconform/report/crossing.py
counts a must-rule on a write or an action crossed with every dimension of the operation exactly when the suites judge
it on every row of that operation's matrix (suites/contract/action_responses.py, answer_responses.py,
comment_responses.py, input_forms.JOB_RESPONSE_RULES, or a rule's own array declared in spec/dimensions.yaml), and
spec/dimensions.yaml ``write_crossing`` lists only what is left out, each with a reason.

A rule counted crossed that no row judges, or a rule judged on every row that the figure leaves out, would make the
figure say something the suites do not do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import action_responses
import answer_responses
import comment_responses
import input_forms
import pytest
import yaml

from qaconform.contract import Rule, load_contract
from qaconform.kit import spec_dir
from qaconform.report.crossing import WRITES, crossing

SPEC: dict[str, Any] = {
    "actions": {"lockNode": ["role", "node_kind"]},
    "validations": {"postComment": ["input_form", "writer"], "scheduleGdprJob": ["input_form"]},
    "rules": {"DECLARED": {"across": ["input_form"], "validations": ["postComment"]}},
    WRITES: {"not_across": {"postComment": {"writer": "the plain comments of one writer only here"}},
             "exclude": {"JOB": "a job is destructive, at most three a run", "TWO postComment": "a write of its own",
                         "DECLARED postComment writer": "the refusal is about one account"}},
}


def _rule(rid: str, *ops: str, level: str = "must") -> Rule:
    return Rule(rid, level, "contract", ops, "1.6.3", "s", "x")


def test_a_write_rule_is_crossed_by_default_less_its_exclusions(tmp_path: Path) -> None:
    (tmp_path / "dimensions.yaml").write_text(yaml.safe_dump(SPEC))
    rules = [_rule("LOCKED", "lockNode"), _rule("COMMENTED", "postComment"), _rule("JOB", "scheduleGdprJob"),
             _rule("TWO", "postComment", "lockNode"), _rule("DECLARED", "postComment")]
    c = crossing(tmp_path, rules)
    assert sorted(c["fully"]) == ["COMMENTED", "DECLARED", "LOCKED", "TWO"], c
    excluded = {e["rule"]: e["why"] for e in c["excluded"]}
    assert excluded["JOB"].startswith("a job is destructive")  # the whole rule: all its operations are writes
    assert "TWO on postComment" in excluded and "TWO on lockNode" not in excluded
    assert "COMMENTED on postComment across writer" in excluded  # not_across of the operation
    assert "DECLARED on postComment across writer" in excluded  # a declared rule's dimension left out with a reason


def _judged(contract: Any) -> set[tuple[str, str]]:
    """(rule, operation) the suites judge on every row of the operation's matrix, by their registries."""
    dims = contract.dimensions
    judged = {(rule, op) for rule in action_responses.RESPONSE_RULES
              for op in action_responses.actions_of(rule, contract.rules[rule].operations, dims.actions)}
    judged |= {(rule, "postAnswer") for rule in answer_responses.RESPONSE_RULES}
    judged |= {(rule, "postComment") for rule in comment_responses.RESPONSE_RULES}
    judged |= {(rule, "scheduleGdprJob") for rule in input_forms.JOB_RESPONSE_RULES}
    return judged


def test_every_write_rule_counted_crossed_is_judged_on_every_row_and_every_judged_one_is_counted() -> None:
    contract = load_contract()
    spec = yaml.safe_load((spec_dir() / "dimensions.yaml").read_text(encoding="utf-8"))
    writes = set(spec["actions"]) | set(spec["validations"])
    exclude = spec[WRITES]["exclude"]
    judged = _judged(contract)
    for rule, op in judged:
        assert contract.rules[rule].level == "must", f"{rule} is judged on every row but is not a must-rule"
        assert op in contract.rules[rule].operations, f"{rule} is judged on {op}, which rules.yaml does not name"
        assert rule not in exclude and f"{rule} {op}" not in exclude, f"{rule} on {op} is judged yet excluded"
    for rule in contract.rules.values():
        declared = spec["rules"].get(rule.id) or {}
        own = set(declared.get("actions") or ()) | set(declared.get("validations") or ())
        for op in rule.operations:
            if rule.level != "must" or op not in writes or op in own:
                continue
            left_out = rule.id in exclude or f"{rule.id} {op}" in exclude
            assert left_out or (rule.id, op) in judged, (
                f"crossing.py counts {rule.id} crossed on {op}, but no row of {op}'s matrix judges it: judge it "
                f"(suites/contract/*_responses.py) or exclude it in spec/dimensions.yaml {WRITES} with a reason")


def test_every_exclusion_names_a_rule_an_operation_and_a_dimension_that_exist_and_gives_a_reason() -> None:
    contract = load_contract()
    spec = yaml.safe_load((spec_dir() / "dimensions.yaml").read_text(encoding="utf-8"))
    writes = set(spec["actions"]) | set(spec["validations"])
    for key, why in spec[WRITES]["exclude"].items():
        rule, *rest = key.split()
        assert rule in contract.rules, f"{WRITES}.exclude {key!r}: no rule {rule}"
        assert len(str(why).split()) >= 5, f"{WRITES}.exclude {key!r} gives no reason"
        if rest:
            assert rest[0] in writes and rest[0] in contract.rules[rule].operations, f"{key!r}: not a write of {rule}"
        if len(rest) == 2:
            assert rest[1] in contract.dimensions.values, f"{key!r}: no dimension {rest[1]}"
    for op, dims in spec[WRITES]["not_across"].items():
        assert op in writes and all(len(str(w).split()) >= 5 for w in dims.values()), op


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_shared_comments_take_every_form_each_run_and_every_pair_over_four_seeds(seed: int) -> None:
    from qaconform.pytest.support import comment_form

    dims = load_contract().dimensions
    writers, forms = dims.values["writer"], dims.values["input_form"]
    assert sorted(comment_form(w, seed) for w in writers) == sorted(forms)
    pairs = {(w, comment_form(w, s)) for w in writers for s in range(4)}
    assert len(pairs) == len(writers) * len(forms)
