"""The crossing figure (issue 44): from spec/dimensions.yaml alone, how many must-rules are crossed with every dimension
their operations admit, which are not (and what they miss), and the exclusions with their reasons."""

from __future__ import annotations

from pathlib import Path

import yaml

from qaconform.contract import Rule, load_contract
from qaconform.kit import spec_dir
from qaconform.report.crossing import crossing, crossing_line

SPEC = {
    "lists": {"listGroups": ["paging", "sort"]},
    "actions": {"lockNode": ["role", "node_kind"]},
    "list_access": {"order": "order", "also": ["PROJ"], "exclude": {"PERM-X": "its list side is a write's effect"}},
    "rules": {"LOCK-ALL": {"across": ["role", "node_kind"]}, "LOCK-HALF": {"across": ["role"]},
              "LOCK-LEFT": {"across": ["role"], "not_across": {"node_kind": "only one kind is stated"}}},
}


def _rule(rid: str, op: str, area: str = "contract", level: str = "must") -> Rule:
    return Rule(rid, level, area, (op,), "1.6.3", "s", "x")


def test_a_rule_is_crossed_fully_only_with_every_dimension_its_operation_admits(tmp_path: Path) -> None:
    (tmp_path / "dimensions.yaml").write_text(yaml.safe_dump(SPEC))
    rules = [_rule("LOCK-ALL", "lockNode"), _rule("LOCK-HALF", "lockNode"),
             _rule("PERM-G", "listGroups", "permissions"), _rule("PROJ", "listGroups"), _rule("SHAPE", "listGroups"),
             _rule("PERM-X", "listGroups", "permissions"),
             _rule("OBS", "listGroups", level="observed"), _rule("JOB", "scheduleGdprJob"),
             _rule("LOCK-LEFT", "lockNode")]
    c = crossing(tmp_path, rules)
    assert c["must_rules_with_dimensions"] == 7, "an observed rule, and a rule whose operation admits none, not counted"
    assert sorted(c["fully"]) == ["LOCK-ALL", "LOCK-LEFT", "PERM-G", "PROJ"], c  # declared (one left out with why),
    # a list permission (with the read order: its answer depends on the caller), list_access.also
    assert {p["rule"]: p["missing"] for p in c["not_fully"]} == {
        "LOCK-HALF": {"lockNode": ["node_kind"]}, "SHAPE": {"listGroups": ["paging", "reader", "sort"]}}
    assert c["excluded"] == [{"rule": "PERM-X", "why": "its list side is a write's effect"},
                             {"rule": "LOCK-LEFT across node_kind", "why": "only one kind is stated"}]
    assert crossing_line(c).startswith("crossing: planned 4 of 7 must-rules crossed with every dimension")


def test_the_kits_own_spec_gives_a_figure_and_names_every_gap() -> None:
    c = crossing(spec_dir(), load_contract().rules.values())
    assert 0 < c["crossed_fully"] <= c["must_rules_with_dimensions"]
    whole = {e["rule"] for e in c["excluded"] if " on " not in e["rule"] and " across " not in e["rule"]}
    assert c["crossed_fully"] + len(c["not_fully"]) + len(whole) == c["must_rules_with_dimensions"]
    assert all(p["missing"] for p in c["not_fully"])


RESPONSES = {
    "dimensions": {"path_form": ["accept_json", "extension_only"]},
    "lists": {"listGroups": ["paging", "wrap"]},
    "list_access": {"own": {"listGroups": ["filters"]}},
    "rules": {"DECLARED": {"across": ["reader", "paging", "wrap"]}, "ALSO": {"across": ["reader", "paging"],
                                                                           "not_across": {"wrap": "not shown"}}},
    "list_responses": {"form": "path_form", "also": ["ALSO"],
                       "not_response": {"WRITTEN": "judged on a comment the run writes and reads back"},
                       "not_across": {"ITEMS": {"wrap": "an item under wrap may be of another shape"}}},
}


def test_a_response_rule_of_a_list_is_crossed_by_default_with_the_request_form(tmp_path: Path) -> None:
    """A must-rule of a list that no other crossing owns is a response rule: crossed with every dimension its list
    admits, the request form included, without being listed; one judged on more than one response (a write) is named
    with its reason and stays partly crossed; a declared rule ``also`` names gains the lists' own and the form."""
    (tmp_path / "dimensions.yaml").write_text(yaml.safe_dump(RESPONSES))
    rules = [_rule("SHAPE", "listGroups"), _rule("ITEMS", "listGroups"), _rule("WRITTEN", "listGroups"),
             _rule("DECLARED", "listGroups"), _rule("ALSO", "listGroups")]
    c = crossing(tmp_path, rules)
    assert sorted(c["fully"]) == ["ALSO", "ITEMS", "SHAPE"], c
    assert {p["rule"]: p["missing"] for p in c["not_fully"]} == {
        "WRITTEN": {"listGroups": ["filters", "paging", "reader", "wrap"]},
        "DECLARED": {"listGroups": ["filters"]}}, "a declared rule is not crossed with the form nor the list's own"
    assert {"rule": "WRITTEN on one response", "why": "judged on a comment the run writes and reads back"} in \
        c["excluded"]
    assert {"rule": "ITEMS across wrap", "why": "an item under wrap may be of another shape"} in c["excluded"]


def test_the_node_action_combinations_left_untried_are_counted_with_their_reasons(tmp_path: Path) -> None:
    """combos (issue 44): spec/dimensions.yaml action_cells names the combinations a default run does not try, each
    group with its reason; the figure counts every combination of the actions' dimensions, those named (once, however
    many patterns name one) and so those tried, and the terminal line says it."""
    spec = {**SPEC, "dimensions": {"role": ["admin", "novice", "anonymous"], "node_kind": ["question", "answer"]},
            "action_cells": {"unreachable": [
                {"why": "the fixture question is never locked", "cells": ["lockNode * question"]},
                {"why": "anonymous wrote nothing",
                 "cells": ["lockNode anonymous *", "lockNode anonymous|novice question"]},
            ]}}
    (tmp_path / "dimensions.yaml").write_text(yaml.safe_dump(spec))
    c = crossing(tmp_path, [_rule("LOCK-ALL", "lockNode")])
    cells = c["action_cells"]
    assert (cells["combinations"], cells["unreachable"], cells["tried"]) == (6, 4, 2)
    assert [g["count"] for g in cells["groups"]] == [3, 3]
    assert "node actions: 2 of 6 combinations of role, relation, kind and state tried, 4 unreachable" in \
        crossing_line(c)
    (tmp_path / "dimensions.yaml").write_text(yaml.safe_dump(SPEC))
    assert "action_cells" not in crossing(tmp_path, [_rule("LOCK-ALL", "lockNode")])


def test_a_cell_pattern_names_a_cell_field_by_field_whatever_was_matched_before() -> None:
    """speed14 (issue 44): patterns are split once per process (``_pattern_fields``); the answer must be what a split
    each time gives: ``*`` any value, ``a|b`` either, a literal value only itself, a pattern of another length none,
    also for a pattern asked again after other cells (the cache holds fields, not answers)."""
    from qaconform.report.crossing import cell_matches

    cell = ("lockNode", "member", "author", "answer", "locked")
    assert cell_matches("lockNode * author|parent answer *", cell)
    assert not cell_matches("lockNode * parent answer *", cell)
    assert cell_matches("lockNode * parent answer *", ("lockNode", "novice", "parent", "answer", "created"))
    assert not cell_matches("lockNode * author|parent answer *", ("lockNode", "member", "none", "answer", "locked"))
    assert not cell_matches("lockNode * author", cell)  # another length
    assert not cell_matches("lockNode * author|* answer *", ("lockNode", "member", "none", "answer", "locked"))
    assert cell_matches("lockNode member author answer locked", cell)
    assert not cell_matches("lockNode member author answer lock", cell)  # whole values, not prefixes


def test_the_kits_action_and_depth_cells_are_those_a_split_each_time_names() -> None:
    """The kit's own spec: every action and depth cell counted as a pattern split at each call would count it."""
    from itertools import product

    from qaconform.report.crossing import DEPTH_CELLS, DEPTH_DIMENSIONS, action_cells, depth_cells, load_spec

    def naive(pattern: str, cell: tuple[str, ...]) -> bool:
        fields = pattern.split()
        if len(fields) != len(cell):
            return False
        return all(f == "*" or v in f.split("|") for f, v in zip(fields, cell, strict=True))

    spec = load_spec(spec_dir())
    assert spec is not None
    block = spec[DEPTH_CELLS]
    every = [c for c in product(*(tuple(map(str, block["dimensions"][d])) for d in DEPTH_DIMENSIONS))
             if any(naive(str(p), c) for p in block["refused"])]
    want = [len({c for c in every if any(naive(str(p), c) for p in g["cells"])}) for g in block["unreachable"]]
    assert [g["count"] for g in depth_cells(spec)["groups"]] == want
    assert depth_cells(spec)["combinations"] == len(every)
    actions = action_cells(spec)
    assert actions["tried"] + actions["unreachable"] == actions["combinations"] > 0
