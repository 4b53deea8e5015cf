"""The must-rule crossing figure from what the run judged (crossing11, issue 44 item 1): spec/'s figure is the plan
("planned N of M"), and a rule counts judged only when a test naming it reached a verdict in a cell with every
value of every dimension it is planned across; a value missing says why (the skip's reason, "not run"). An --only
run counts only the must-rules it ran. Built from a small results file as `qaconform run` writes it, read back from
coverage.json strictly, and the terminal's line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from report_builders import strict_json

from qaconform.contract import load_contract
from qaconform.report.crossing import crossing_line
from qaconform.report.model import build_report
from qaconform.report.run_crossing import NOT_RUN, run_crossing, run_text

RULE = "PERM-ANSWER"
"""A must-rule spec/ plans crossed on postAnswer across input_form and writer (8 values in all), none left out."""
FORMS = ["json", "query", "form", "param_wins"]
WRITERS = ["admin", "moderator", "member", "novice"]


def _t(form: str, writer: str, outcome: str = "passed", message: str | None = None) -> dict[str, Any]:
    return {"nodeid": f"a.py::t[{RULE}-postAnswer-{form}-none-{writer}]", "outcome": outcome, "when": "call",
            "rules": [RULE], "message": message,
            "cell": {"family": "dims", "operation": "postAnswer", "dims": {"input_form": form, "writer": writer}}}


def _every(**outcome: Any) -> list[dict[str, Any]]:
    """One test a writer, the forms rotating over them (each form and each writer once: the plan needs no pairs)."""
    return [_t(f, w, **(outcome if w == "novice" else {})) for f, w in zip(FORMS, WRITERS, strict=True)]



def _crossing(tests: list[dict[str, Any]], tmp_path: Path, selection: dict[str, Any] | None = None) -> Any:
    report = build_report({"tests": tests}, load_contract().rules.values(), meta={"selection": selection or {}})
    path = tmp_path / "coverage.json"
    path.write_text(json.dumps(report["coverage"], allow_nan=False), encoding="utf-8")
    return strict_json(path.read_text(encoding="utf-8"))["crossing"]


def test_a_rule_counts_judged_only_with_a_verdict_on_every_value_of_every_dimension() -> None:
    plan = {RULE: {"postAnswer": ["input_form", "writer"]}}
    values = {"input_form": FORMS, "writer": WRITERS}
    whole = run_crossing(plan, values, _every(), 139)
    assert (whole["planned"], whole["judged"], whole["of"], whole["not_judged"]) == (1, 1, 139, [])
    skipped = run_crossing(plan, values, _every(outcome="skipped", message="write budget spent: suites"), 139)
    entry = skipped["rules"][RULE]
    assert not entry["crossed"] and skipped["judged"] == 0 and skipped["not_judged"] == [RULE]
    assert entry["judged"] == {} and whole["rules"][RULE] == {
        "crossed": True, "judged": {"postAnswer": ["input_form", "writer"]}}
    assert entry["missing"]["postAnswer writer"] == {
        "judged": ["admin", "moderator", "member"], "missing": {"novice": "skipped: write budget spent: suites"}}
    assert entry["missing"]["postAnswer input_form"]["missing"] == {
        "param_wins": "skipped: write budget spent: suites"}
    # a verdict in another test of the same cell wins over the skip; a value no test held is "not run"
    other = {**_t("param_wins", "novice", "observed"), "nodeid": "b.py::another_test"}
    again = run_crossing(plan, values, [*_every(outcome="skipped"), other], 139)
    assert again["judged"] == 1
    teardown = {**_t("param_wins", "novice", "error"), "when": "teardown"}  # one test's worst phase decides
    assert run_crossing(plan, values, [*_every(), teardown], 139)["judged"] == 0
    none = run_crossing(plan, values, _every()[:3], 139)["rules"][RULE]["missing"]["postAnswer writer"]
    assert none["missing"] == {"novice": NOT_RUN}
    # a value spec/ leaves out with a reason is not asked of the run
    left = run_crossing(plan, values, _every()[:3], 139, excluded={"postAnswer writer": {"novice": "why"},
                                                                   "postAnswer input_form": {"param_wins": "why"}})
    assert left["judged"] == 1


def test_a_tokened_value_of_spec_names_the_filled_value_of_the_run() -> None:
    plan = {"R": {"listSpaces": ["sort"]}}
    tests = [{"nodeid": f"l.py::t[{v}]", "outcome": "passed", "rules": ["R"],
              "cell": {"family": "list_rows", "operation": "listSpaces", "dims": {"sort": v}}}
             for v in ("none", "sort=name")]
    assert run_crossing(plan, {"sort": ["none", "sort=$sort"]}, tests, 1)["judged"] == 1
    assert run_crossing(plan, {"sort": ["none", "sort=$sort"]}, tests[:1], 1)["judged"] == 0


def test_coverage_json_and_the_line_hold_the_plan_beside_what_the_run_judged(tmp_path: Path) -> None:
    crossing = _crossing(_every(outcome="skipped", message="write budget spent"), tmp_path)
    planned, of = crossing["crossed_fully"], crossing["must_rules_with_dimensions"]
    assert "plan" not in crossing, "the plan is read into run.rules, not written twice"
    run = crossing["run"]
    assert (run["planned"], run["of"]) == (planned, of) and run["judged"] == 0, "the other rules ran no test"
    assert set(run["rules"][RULE]["missing"]) == {"postAnswer input_form", "postAnswer writer"}
    assert run["rules"][RULE]["missing"]["postAnswer writer"]["missing"] == {"novice": "skipped: write budget spent"}
    assert all(not e["crossed"] for e in run["rules"].values())
    line = crossing_line(crossing)
    assert line.startswith(f"crossing: planned {planned} of {of} must-rules crossed with every dimension their "
                           f"operation admits (spec/dimensions.yaml), judged 0 of {of} in the run's cells, "
                           f"{planned} planned but a dimension value not judged"), line


def test_an_only_run_counts_only_the_must_rules_it_ran_and_says_so(tmp_path: Path) -> None:
    crossing = _crossing(_every(), tmp_path, {"rules": [RULE]})
    assert (crossing["crossed_fully"], crossing["must_rules_with_dimensions"]) == (1, 1)
    run = crossing["run"]
    assert (run["planned"], run["judged"], run["of"], run["selection"]) == (1, 1, 1, RULE)
    assert list(run["rules"]) == [RULE]
    line = crossing_line(crossing)
    assert line.startswith("crossing: planned 1 of 1 must-rules crossed with every dimension their operation admits "
                           f"(spec/dimensions.yaml), judged 1 of 1 in the run's cells (counting only the must-rules "
                           f"--only {RULE} ran)"), line
    # crossing13: the blocks counted from spec/ alone (node actions, comments refused, refusals by depth) say that
    # they are the whole kit's, whatever --only ran
    assert f"; the whole kit's, not counted for --only {RULE}: node actions: " in line, line
    assert "the whole kit's" not in crossing_line(_crossing(_every(), tmp_path))
    assert run_text({}) == ""


def test_a_value_spec_leaves_out_for_one_rule_is_not_asked_of_that_rule_and_its_entry_names_it() -> None:
    plan = {RULE: {"postAnswer": ["input_form", "writer"]}, "OTHER": {"postAnswer": ["writer"]}}
    values = {"input_form": FORMS, "writer": WRITERS}
    by_rule = {RULE: {"postAnswer writer": {"novice": "why"}, "listGroups reader": {"admin": "not planned"}}}
    run = run_crossing(plan, values, _every()[:3], 139, excluded={"by_rule": by_rule})
    assert run["rules"][RULE]["crossed"] is False, "param_wins is novice's row: still missing on input_form"
    assert "postAnswer writer" not in run["rules"][RULE]["missing"]
    assert run["rules"][RULE]["excluded"] == {"postAnswer writer": {"novice": "why"}}, "only what the plan holds"
    assert "novice" in run["rules"]["OTHER"]["missing"]["postAnswer writer"]["missing"], "for that rule only"


def test_every_value_spec_leaves_out_for_a_rule_names_a_planned_rule_dimension_and_value() -> None:
    """A stale exclusion (a rule renamed, a dimension no longer planned, a value no longer a dimension's) would
    hide nothing and claim a reason for nothing: each named (rule, operation, dimension, value) must be planned."""
    from qaconform.report.crossing import BY_RULE, PLAN, PLAN_EXCLUDED, crossing

    spec = load_contract()
    out = crossing(Path(__file__).resolve().parents[2] / "spec", spec.rules.values())
    plan, by_rule = out[PLAN], out[PLAN_EXCLUDED][BY_RULE]
    dims = out and __import__("yaml").safe_load(
        (Path(__file__).resolve().parents[2] / "spec" / "dimensions.yaml").read_text(encoding="utf-8"))["dimensions"]
    assert by_rule, "spec/dimensions.yaml run_crossing.values is read"
    stale = [f"{rid} {key} {value}" for rid, keys in by_rule.items() for key, values in keys.items()
             for value in values
             if rid not in plan or key.split(" ")[1] not in plan[rid].get(key.split(" ")[0], ())
             or value not in [str(v) for v in dims[key.split(" ")[1]]]]
    assert stale == [], f"run_crossing.values names what the plan does not hold: {stale}"
    assert all(why.strip() for keys in by_rule.values() for values in keys.values() for why in values.values())


def test_a_cell_listing_several_values_of_a_dimension_judges_each_of_them() -> None:
    """crossing13: a test whose own reads judge several values of a dimension (the follower list read with active
    left out and false, and the relations with details=true: test_matrix.py JUDGED_BESIDE) lists them in its cell;
    each counts judged on the test's verdict, and none on a skip."""
    plan = {RULE: {"postAnswer": ["input_form", "writer"]}}
    values = {"input_form": FORMS, "writer": WRITERS}
    test = {**_t("json", "admin"), "cell": {"family": "dims", "operation": "postAnswer",
                                            "dims": {"input_form": FORMS, "writer": WRITERS}}}
    assert run_crossing(plan, values, [test], 139)["judged"] == 1
    skipped = run_crossing(plan, values, [{**test, "outcome": "skipped", "message": "not judged"}], 139)
    assert skipped["judged"] == 0
    assert skipped["rules"][RULE]["missing"]["postAnswer writer"]["missing"] == dict.fromkeys(
        WRITERS, "skipped: not judged")
