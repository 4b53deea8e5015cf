"""The refused comments of the comment refusal matrix (suites/contract/comment_refusals.py, issue 44 combos2): every
combination the description refuses is drawn once on a parent that stands to the caller as it says, or named with its
reason in spec/dimensions.yaml ``comment_cells``; the crossing figure counts them."""

from __future__ import annotations

from pathlib import Path

import yaml
from action_cases import POOL, fits
from comment_refusals import KINDS, OPTIONS, RELATIONS, ROLES, STATES, cases, refusal, refused_cells

from qaconform.pytest.refusals import ANY_4XX
from qaconform.report.crossing import cell_matches, comment_cells, crossing, crossing_line

SPEC = Path(__file__).resolve().parents[1] / "spec" / "dimensions.yaml"
POOL_BY_KEY = {n.key: n for n in POOL}


def _spec() -> dict:
    return yaml.safe_load(SPEC.read_text(encoding="utf-8"))


def test_the_description_refuses_anonymous_every_option_novice_the_private_ones_and_member_own_groups() -> None:
    refused = {(r, o) for r in ROLES for o in OPTIONS if refusal(r, o) is not None}
    assert refused == {("anonymous", o) for o in OPTIONS} | {("novice", o) for o in OPTIONS if o != "none"} | {
        ("member", "to_own_groups")} | {("wrong_password", o) for o in OPTIONS}  # wrong_password: refusals2
    assert refusal("novice", "to_moderators") == ("COMMENT-7-NO-PRIVATE-PERMISSION", (403,))
    assert refusal("member", "to_own_groups") == ("COMMENT-7-NO-OPTION-PERMISSION", (403,))
    assert refusal("anonymous", "none") == ("AUTH-ANONYMOUS-WRITES", ANY_4XX)
    assert refusal("wrong_password", "to_moderators") == ("AUTH-BAD-CREDENTIALS", ANY_4XX)
    assert refusal("moderator", "to_own_groups") is None and refusal("member", "to_moderators") is None


def test_each_case_is_sent_once_on_a_parent_in_its_relation_kind_and_state() -> None:
    drawn = cases()
    assert len({c.cell for c in drawn}) == len(drawn)
    for case in drawn:
        node = POOL_BY_KEY[case.node]
        assert (node.kind, node.state) == (case.kind, case.state)
        placed_as = "anonymous" if case.role == "wrong_password" else case.role  # it is no one (refusals2)
        assert fits(node, placed_as, case.relation), case.label
        assert not (node.found and placed_as == "anonymous"), case.label
        assert case.statuses == (refusal(case.role, case.option) or ("", ()))[1] if case.state == "created" else \
            case.statuses == ANY_4XX


def test_every_role_refused_is_tried_in_every_relation_and_kind_of_parent_the_pool_gives() -> None:
    tried = {(c.role, c.relation, c.kind) for c in cases()}
    for role, relation, kind in (("member", "author", "comment"), ("member", "parent_author", "comment"),
                                 ("member", "question_author", "answer"), ("novice", "author", "question"),
                                 ("novice", "question_author", "comment"), ("anonymous", "none", "comment"),
                                 ("wrong_password", "none", "answer")):
        assert (role, relation, kind) in tried
    states = {c.state for c in cases() if c.role == "novice"}
    assert {"created", "locked", "moderated", "question_locked"} <= states


def test_every_refused_combination_is_drawn_or_named_with_its_reason_never_both() -> None:
    spec = _spec()
    block = spec["comment_cells"]
    assert tuple(block["dimensions"]) == ("role", "relation", "kind", "state", "option")
    assert (block["dimensions"]["role"], block["dimensions"]["relation"], block["dimensions"]["kind"],
            block["dimensions"]["state"], block["dimensions"]["option"]) == (
        list(ROLES), list(RELATIONS), list(KINDS), list(STATES), list(OPTIONS))
    patterns = [str(p) for g in block["unreachable"] for p in g["cells"]]
    drawn = {c.cell for c in cases()}
    every = refused_cells()
    for cell in every:
        named = [p for p in patterns if cell_matches(p, cell)]
        if cell in drawn:
            assert not named, f"{cell} is drawn, yet {named} names it unreachable"
        else:
            assert named, f"{cell} is neither drawn nor named in spec/dimensions.yaml comment_cells"
    used = {p for p in patterns for cell in every if cell_matches(p, cell)}
    assert used == set(patterns), f"patterns naming nothing: {sorted(set(patterns) - used)}"
    figure = comment_cells(spec)
    assert figure["combinations"] == len(every) and figure["tried"] == len(drawn)
    assert figure["tried"] + figure["unreachable"] == figure["combinations"]
    assert all(g["why"] and g["count"] for g in figure["groups"])


def test_the_crossing_line_and_coverage_count_the_refused_comments(tmp_path: Path) -> None:
    (tmp_path / "dimensions.yaml").write_text(yaml.safe_dump({
        "dimensions": {"node_kind": ["answer"]},
        "comment_cells": {
            "dimensions": {"role": ["member", "novice"], "relation": ["none"], "kind": ["answer"],
                           "state": ["created", "locked"], "option": ["none", "to_moderators"]},
            "refused": ["novice to_moderators"],
            "unreachable": [{"why": "no such node", "cells": ["novice none answer locked *"]}]}}), encoding="utf-8")
    c = crossing(tmp_path, [])
    assert c.get("comment_cells", {}).get("combinations") in (None, 2)
    figure = comment_cells(yaml.safe_load((tmp_path / "dimensions.yaml").read_text(encoding="utf-8")))
    assert figure == {"combinations": 2, "unreachable": 1, "tried": 1,
                      "groups": [{"why": "no such node", "cells": ["novice none answer locked *"], "count": 1}]}
    line = crossing_line({"must_rules_with_dimensions": 1, "crossed_fully": 1, "not_fully": [], "excluded": [],
                          "comment_cells": figure})
    assert "comments refused: 1 of 2 combinations of role, relation, parent kind, state and visibility tried, " \
           "1 unreachable with a reason" in line
