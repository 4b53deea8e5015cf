"""The refusals by depth (suites/contract/deep_refusals.py, issue 44 refusals3): every refused comment and node
action of the two matrices, at parent depth 1, 2 and 3, is tried once (by those matrices on a node at that depth, else
by test_deep_refusals.py) or named with its reason in spec/dimensions.yaml ``depth_cells``; the crossing figure
counts them."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import yaml
from action_cases import allowed, fits, sees
from comment_refusals import refusal
from deep_refusals import DEPTH, POST, REPLY_OF, cases, drawn_by_matrix, node_at, refused_cells, tried

from qaconform.report.crossing import DEPTH_DIMENSIONS, cell_matches, crossing, crossing_line, depth_cells

SPEC = Path(__file__).resolve().parents[1] / "spec" / "dimensions.yaml"


def _spec() -> dict:
    return yaml.safe_load(SPEC.read_text(encoding="utf-8"))


def test_the_refused_combinations_are_the_two_matrices_refusals_at_each_depth() -> None:
    every = refused_cells()
    assert len(set(every)) == len(every)
    for what, role, relation, _state, option, depth in every:
        assert depth in ("1", "2", "3")
        if what == POST:
            assert refusal(role, option) is not None
        else:
            assert option == "-" and not allowed(what, role, relation)
    spec = _spec()["depth_cells"]
    assert tuple(spec["dimensions"]) == DEPTH_DIMENSIONS
    assert {c for c in _product(spec) if any(cell_matches(str(p), c) for p in spec["refused"])} == set(every)


def _product(spec: dict) -> set[tuple[str, ...]]:
    return {tuple(map(str, c)) for c in product(*(spec["dimensions"][d] for d in DEPTH_DIMENSIONS))}


def test_each_deep_case_is_sent_once_on_a_reply_in_its_relation_and_state_that_no_matrix_sends_there() -> None:
    drawn = cases()
    assert len({c.cell for c in drawn}) == len(drawn) > 0
    for case in drawn:
        node = node_at(case.node)
        caller = "anonymous" if case.role == "wrong_password" else case.role
        assert DEPTH[case.node] == case.depth and node.kind == "comment" and node.state == case.state, case.label
        assert fits(node, caller, case.relation) and sees(node, caller), case.label
        assert not drawn_by_matrix(case.cell), case.label
        assert case.depth == 1 or case.node in REPLY_OF, f"{case.label}: a reply the test cannot check"
    labels = {c.label for c in drawn}
    for label in ("depth2-postComment-member-none-created-to_own_groups", "depth2-lockNode-member-none-created",
                  "depth2-postComment-wrong_password-none-created-none",
                  "depth2-unmarkFavorite-anonymous-none-created"):
        assert label in labels


def test_every_refused_combination_at_a_depth_is_tried_or_named_with_its_reason_never_both() -> None:
    spec = _spec()
    block = spec["depth_cells"]
    patterns = [str(p) for g in block["unreachable"] for p in g["cells"]]
    done = tried()
    every = refused_cells()
    for cell in every:
        named = [p for p in patterns if cell_matches(p, cell)]
        if cell in done:
            assert not named, f"{cell} is tried, yet {named} names it unreachable"
        else:
            assert named, f"{cell} is neither tried nor named in spec/dimensions.yaml depth_cells"
    used = {p for p in patterns for cell in every if cell_matches(p, cell)}
    assert used == set(patterns), f"patterns naming nothing: {sorted(set(patterns) - used)}"
    figure = depth_cells(spec)
    assert figure["combinations"] == len(every) and figure["tried"] == len(done)
    assert all(g["why"] and g["count"] for g in figure["groups"])
    assert any(c[5] == "2" for c in done) and not any(c[5] == "3" for c in done)


def test_the_crossing_line_and_coverage_count_the_refusals_by_depth(tmp_path: Path) -> None:
    (tmp_path / "dimensions.yaml").write_text(yaml.safe_dump({
        "dimensions": {"node_kind": ["answer"]},
        "depth_cells": {
            "dimensions": {"what": ["postComment"], "role": ["novice"], "relation": ["none"],
                           "state": ["created"], "option": ["none", "to_moderators"], "depth": [1, 2, 3]},
            "refused": ["postComment novice * * to_moderators *"],
            "unreachable": [{"why": "no reply to a reply", "cells": ["* * * * * 3"]}]}}), encoding="utf-8")
    figure = depth_cells(yaml.safe_load((tmp_path / "dimensions.yaml").read_text(encoding="utf-8")))
    assert figure == {"combinations": 3, "unreachable": 1, "tried": 2,
                      "groups": [{"why": "no reply to a reply", "cells": ["* * * * * 3"], "count": 1}]}
    assert crossing(tmp_path, []).get("depth_cells", figure) == figure
    line = crossing_line({"must_rules_with_dimensions": 1, "crossed_fully": 1, "not_fully": [], "excluded": [],
                          "depth_cells": figure})
    assert "refusals by depth: 2 of 3 refused comments and node actions at parent depth 1-3 tried, 1 unreachable " \
           "with a reason" in line
