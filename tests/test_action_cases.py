"""The action matrix's combinations (suites/contract/action_cases.py): every pair of role, relation to the node,
node kind and node state that some admissible combination holds is tried for any seed, with and without a write
budget; a default run spends at most two accepted writes of its own on it; what each combination expects is the
permission table's.

A covering array that missed a pair would leave a combination untried while the note claims it covered; a drawn
combination whose allowed call changes a node nobody pays for would spend the suites' share of the write budget.
"""

from __future__ import annotations

import json
from dataclasses import replace
from itertools import product
from pathlib import Path

import pytest
from action_cases import (
    ACTIONS,
    CHANGES_NODE,
    FAVORITE,
    LOCK,
    LOCKED,
    NONE,
    POOL,
    QUESTION_LOCKED,
    REUSED,
    REUSED_NODES,
    SEND,
    THOROUGH_ONLY,
    UNDER_DRAWN_PARENT,
    UNWIKIFIED,
    WIKI,
    Case,
    admissible,
    array,
    built_fits,
    coverage,
    fits,
    node_for,
    relations,
    writes_of,
    written_key,
)
from action_options import option_cases

from qaconform.contract import load_contract

SEEDS = (1, 2, 20260801, 987654321)
DEFAULT_MATRIX_WRITES = 4
"""The accepted writes a default run spends on the action matrix itself (the suites' share is 83 since the twenty-first
session's merge: action_cases.THOROUGH_ONLY says why these: the lock of a comment, the answer under member's question,
fix30's send to moderation of the unwikified one-shot question, and accept24's lock of it right after)."""


@pytest.mark.parametrize("thorough", [False, True], ids=["budget", "thorough"])
@pytest.mark.parametrize("seed", SEEDS)
def test_each_actions_array_tries_every_admissible_pair(seed: int, thorough: bool) -> None:
    dims = load_contract().dimensions
    for action in ACTIONS:
        matrix = array(action, dims, seed, thorough)
        cov = coverage(matrix)
        assert 0 < cov.admissible <= cov.every and cov.covered == cov.admissible, f"{action} seed {seed}: {cov}"
        assert all(admissible(action, c.kind, c.state, c.role, c.relation, thorough) for c in matrix.cases)
        every = 1
        for column in matrix.columns:
            every *= len(column)
        assert len(matrix.cases) < every, f"{action}: pairwise should draw fewer cases than every combination"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_default_run_spends_at_most_four_writes_on_the_matrix(seed: int) -> None:
    dims = load_contract().dimensions
    default = [array(a, dims, seed) for a in ACTIONS]
    assert writes_of(default) <= DEFAULT_MATRIX_WRITES
    for matrix in default:
        for case in matrix.cases:
            assert not case.changes_node or case.reused is not None, f"{case.label} would change a node it pays for"
    assert writes_of([array(a, dims, seed, True) for a in ACTIONS]) > DEFAULT_MATRIX_WRITES


def test_the_seed_chooses_the_array_and_the_same_seed_the_same_one() -> None:
    dims = load_contract().dimensions
    assert array(LOCK, dims, 5).cases == array(LOCK, dims, 5).cases
    assert any(array(a, dims, 5).cases != array(a, dims, 6).cases for a in ACTIONS)


def test_the_permission_table_decides_each_caller() -> None:
    """Lock and unwikify: the own-node clause is member's on the node it wrote only (not its parent's, not its
    question's); send to moderation has none; unfavorite: every signed-in account but novice. novice is refused all
    four, on its own node and under its own question."""
    dims = load_contract().dimensions
    cases = {c.label: c for a in ACTIONS for s in SEEDS for c in array(a, dims, s, True).cases}
    for case in cases.values():
        moderation = case.role in ("admin", "moderator")
        expected = {LOCK: moderation or (case.role, case.relation) == ("member", "author"),
                    SEND: moderation,
                    WIKI: moderation or (case.role, case.relation) == ("member", "author"),
                    FAVORITE: moderation or case.role == "member"}[case.action]
        assert case.allowed == expected, case.label
    rules = {(c.action, c.role, c.relation): c.rule for c in cases.values()}
    assert rules.get((LOCK, "member", "parent_author")) == "PERM-LOCK-OWN"
    assert rules.get((LOCK, "member", "question_author")) == "PERM-LOCK-OWN"
    assert rules.get((LOCK, "novice", "author")) == "PERM-LOCK"
    assert rules.get((SEND, "member", "author")) == "PERM-SENDTOMOD"
    assert rules.get((SEND, "novice", "question_author")) == "PERM-SENDTOMOD"


def test_old_callers_keep_their_test_ids() -> None:
    """The (role, relation) pairs the matrix drew as one caller value keep the ids reports and baselines name."""
    from action_cases import Case

    assert Case(LOCK, "member", "parent_author", "comment", "created").label == "lockNode-parent_author-comment-created"
    assert Case(LOCK, "novice", "author", "answer", "created").label == "lockNode-novice_author-answer-created"
    assert Case(SEND, "member", NONE, "answer", "locked").label == "sendToModeration-not_author-answer-locked"
    assert Case(LOCK, "member", "question_author", "answer", "created").label == \
        "lockNode-member_question_author-answer-created"


@pytest.mark.parametrize("seed", SEEDS)
def test_every_role_is_drawn_in_every_relation_the_pool_gives(seed: int) -> None:
    """Role and relation are crossed: each pair some admissible combination holds is drawn for each action, among
    them member under a question it wrote (not the node's author: a lock and a send to moderation refused), novice
    under its own fixture question, and moderator on its own node."""
    dims = load_contract().dimensions
    for action in ACTIONS:
        drawn = {(c.role, c.relation) for c in array(action, dims, seed).cases}
        assert ("member", "question_author") in drawn, action
        assert ("novice", "question_author") in drawn, action
        assert ("moderator", "author") in drawn or action in (LOCK, SEND), action
        assert ("anonymous", NONE) in drawn and not {r for role, r in drawn if role == "anonymous"} - {NONE}
        thorough = {(c.role, c.relation) for c in array(action, dims, seed, True).cases}
        assert {("moderator", "author"), ("admin", "author")} <= thorough, f"{action}: built by the caller itself"


def test_ownership_is_the_node_acted_on_and_a_hidden_node_is_not_drawn() -> None:
    by_key = {n.key: n for n in POOL}
    assert fits(by_key["comment_of:admin"], "member", "parent_author")
    assert not fits(by_key["comment_of:admin"], "member", "author")
    assert fits(by_key["comment_of:member"], "member", "author")
    assert not fits(by_key["comment_of:member"], "member", "parent_author")
    assert fits(by_key["answer_of:admin"], "member", NONE)
    assert not fits(by_key["answer_of:admin"], "member", NONE, question_author="member")
    assert relations(by_key["answer_under:member"], "member") == {"parent_author", "question_author"}
    assert relations(by_key["comment_of:admin"], "novice") == {"question_author"}
    assert relations(by_key["comment_of:admin"], "anonymous") == {NONE}
    # a node in moderation: its author and the moderation roles see it, member does not see another's
    assert fits(by_key["moderated_comment"], "novice", "author")
    assert not fits(by_key["moderated_comment"], "member", "parent_author")
    assert node_for(LOCK, "comment", "created", "member", "parent_author") is by_key["comment_of:admin"]
    assert node_for(LOCK, "answer", "created", "member", "question_author") is by_key["answer_under:member"]
    assert node_for(LOCK, "comment", "moderated", "novice", "author") is None
    assert node_for(LOCK, "comment", "moderated", "novice", "author", True) is by_key["moderated_comment"]


def test_no_question_is_locked_or_sent_to_moderation_and_reused_writes_are_allowed_changes() -> None:
    """A lock or moderation of a question is drawn only where the permission table refuses it, and only on the
    question member wrote (found with reads, not the run's), never on the fixture question; the same for any call on
    a found node."""
    for action in CHANGES_NODE:
        for role, relation in (("admin", NONE), ("moderator", NONE), ("member", "author"), ("anonymous", NONE),
                               ("novice", NONE)):
            for thorough in (False, True):
                node = node_for(action, "question", "created", role, relation, thorough)
                # anonymous too since paths13 (issue 44 item 1): refused on the found question
                refused = role in ("novice", "member", "anonymous") and not (action == LOCK and role == "member")
                assert admissible(action, "question", "created", role, relation, thorough) == refused
                assert node.key == "members_question" if refused and node else node is None
    for action in ACTIONS:
        for case in array(action, load_contract().dimensions, 1).cases:
            node = node_for(action, case.kind, case.state, case.role, case.relation)
            assert node is None or not node.found or not case.allowed, case.label
    for (action, kind, state, role, relation), key in REUSED.items():
        # fix30 (issue 44): the one question sent is the profile's one-shot wiki question, once unwikified, and
        # accept24: the one question locked is that one too, right after the send
        assert action in CHANGES_NODE and (kind != "question" or (state, key) in (
            (UNWIKIFIED, "sent_after_unwikify"), (UNWIKIFIED, "locked_after_unwikify")))
        assert Case(action, role, relation, kind, state).state_stated, "the state table states the reused answer"
        assert admissible(action, kind, state, role, relation, True)
        assert admissible(action, kind, state, role, relation, False) == (key not in THOROUGH_ONLY)
        node = REUSED_NODES[key]  # locks25: a drawn parent gives the relation under one of its placements
        placements = {node.parent_author, *(UNDER_DRAWN_PARENT.values() if key in UNDER_DRAWN_PARENT else ())}
        assert any(fits(replace(node, parent_author=p), role, relation) for p in placements), key


def test_the_locked_comment_is_drawn_in_both_relations_of_its_drawn_parent() -> None:
    """locks25 (issue 44): admin's lock of member's reply, and its send of the locked reply to moderation, are cells
    of admin with no relation (the reply under member's comment) and as its parent's author (under admin's), each
    reading the same shared write; the pool holds the locked and moderated reply under either parent."""
    dims = load_contract().dimensions
    for action, state in ((LOCK, "created"), (SEND, "locked")):
        for relation in (NONE, "parent_author"):
            assert REUSED[(action, "comment", state, "admin", relation)] in ("locked_comment", "sent_to_mod:admin")
            for seed in (20260801, 20260805):
                labels = {c.label for c in array(action, dims, seed).cases}
                assert Case(action, "admin", relation, "comment", state).label in labels, (action, relation, seed)
    assert {written_key(k) for k in UNDER_DRAWN_PARENT} == {"locked_comment", "sent_to_mod:admin"}
    assert node_for(WIKI, "comment", LOCKED, "admin", "parent_author").key == "locked_comment:under_locker"
    assert node_for(WIKI, "comment", LOCKED, "admin", NONE).key == "locked_comment"


def test_a_rule_that_declares_actions_is_crossed_over_their_dimensions() -> None:
    dims = load_contract().dimensions
    crossed = {a for r in dims.rules.values() for a in r.actions}
    assert crossed == set(ACTIONS)
    for action in ACTIONS:
        assert set(dims.actions[action]) == {"role", "relation", "node_kind", "node_state"}


@pytest.mark.parametrize("seed", SEEDS)
def test_the_paid_writes_and_the_own_node_of_a_comment_are_drawn_for_any_seed(seed: int) -> None:
    """The pairs only one admissible combination holds are drawn whatever the seed: a lock of a comment (admin's, the
    only allowed lock of a comment a budgeted run makes), a moderation of a comment (admin's shared one; moderator's
    with no budget),
    and member on a comment under its own answer (its parent's author, not the comment's: the own-node clause must
    refuse it)."""
    dims = load_contract().dimensions
    lock = {(c.caller, c.kind, c.state) for c in array(LOCK, dims, seed).cases}
    send = {(c.caller, c.kind, c.state) for c in array(SEND, dims, seed).cases}
    assert ("admin", "comment", "created") in lock
    assert ("moderator", "comment", "created") not in send, "a budgeted run moderates admin's shared comment only"
    assert ("admin", "comment", "locked") in send, "admin's shared send to moderation is of the comment it locked"
    thorough = {(c.role, c.kind) for c in array(SEND, dims, seed, True).cases}
    assert ("moderator", "comment") in thorough
    assert {("parent_author", "comment", "created"), ("parent_author", "comment", "locked")} & lock
    assert {("author", kind, state) for kind in ("answer", "comment") for state in ("created", "locked")} & send


@pytest.mark.parametrize("seed", SEEDS)
def test_an_action_after_a_state_change_is_drawn_with_its_effects_judged_for_any_seed(seed: int) -> None:
    """Two of the run's shared writes act on a node already in the other state the table names (issue 44 item 5):
    admin's lock of novice's answer, in moderation ("Unlocked node"), and admin's send to moderation of the comment it
    locked ("Published node"). Both are drawn whatever the seed, and the state table states their answer (a 2xx and
    its effects); a repeat (a lock of a locked node, a send of a node in moderation) states none."""
    dims = load_contract().dimensions
    lock = {c for c in array(LOCK, dims, seed).cases if (c.role, c.kind, c.state) == ("admin", "answer", "moderated")}
    send = {c for c in array(SEND, dims, seed).cases if (c.role, c.kind, c.state) == ("admin", "comment", "locked")}
    assert lock and all(c.state_stated and c.reused == "locked_by:admin" for c in lock)
    assert send and all(c.state_stated and c.reused == "sent_to_mod:admin" for c in send)
    assert not Case(LOCK, "admin", NONE, "answer", "locked").state_stated
    assert not Case(SEND, "admin", NONE, "answer", "moderated").state_stated
    assert not Case(LOCK, "member", "author", "answer", "moderated").state_stated, "who sees it is not shown"


def test_an_action_array_is_drawn_once_per_machine_and_a_kept_file_with_an_inadmissible_row_is_drawn_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every worker of a run drew each action's filtered covering array (some twice) at collection; the first now
    keeps it, the rest read it. The kept rows must be the ones allpairspy draws, and a file that holds a row the
    admissibility rules refuse (another kit's, a hand-edited one) is never used. (``drawn_array``: ``array`` would
    answer from this process's memo, drawn by an earlier test.)"""
    import action_cases

    dims = load_contract().dimensions
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    drawn = {action: action_cases.drawn_array(action, dims, 7) for action in ACTIONS}
    files = list((tmp_path / "qaconform" / "pairs").glob("*.json"))
    assert len(files) == len(ACTIONS)

    class Refused:  # noqa: D101 - allpairspy drawing again would fail the test
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise AssertionError("drawn again instead of read from the cache")

    monkeypatch.setattr(action_cases, "AllPairs", Refused)
    assert {action: action_cases.drawn_array(action, dims, 7) for action in ACTIONS} == drawn

    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    for f in files:  # a row no admissible combination has: the array is drawn again, as allpairspy draws it
        f.write_text(json.dumps([["nobody", "nothing", "nowhere", "never"]]), encoding="utf-8")
    assert {action: action_cases.drawn_array(action, dims, 7) for action in ACTIONS} == drawn


def test_an_action_array_is_drawn_once_per_process_and_is_the_array_drawn_anew() -> None:
    """speed13 (issue 44): every test function and rule of test_action_matrix.py asks for the same four arrays at
    collection; ``array`` draws each once per process. Its answer must be the one a fresh draw gives, for each
    seed and option, and other dimensions (another contract) must never get another's array."""
    import dataclasses

    import action_cases

    dims = load_contract().dimensions
    for action in ACTIONS:
        for seed, no_budget, every in ((7, False, False), (7, True, False), (8, False, False), (7, False, True)):
            first = array(action, dims, seed, no_budget, every)
            assert array(action, dims, seed, no_budget, every) is first
            assert first == action_cases.drawn_array(action, dims, seed, no_budget, every)
    other = dataclasses.replace(dims, values={**dims.values})
    assert array(ACTIONS[0], other, 7) is not array(ACTIONS[0], dims, 7)
    assert array(ACTIONS[0], other, 7) == array(ACTIONS[0], dims, 7)


# --- every combination, not pairs (combos, issue 44) ----------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_a_default_run_tries_every_admissible_combination_and_every_one_that_writes_nothing_without_budget(
        seed: int) -> None:
    """A permission refused in one cell of role x relation x kind and state (moderator, another's answer, in
    moderation) is met only where that cell is tried: by default every admissible combination is (the allowed
    changes are the run's shared writes, read), and with no budget every one that writes nothing."""
    dims = load_contract().dimensions
    for action in ACTIONS:
        for no_budget in (False, True):
            matrix = array(action, dims, seed, no_budget)
            every = {(c.role, c.relation, c.kind, c.state) for c in array(action, dims, seed, no_budget, True).cases}
            drawn = {(c.role, c.relation, c.kind, c.state) for c in matrix.cases}
            unwritten = {k for k in every if not Case(action, *k).changes_node}
            assert unwritten <= drawn <= every, f"{action} seed {seed}: {sorted(unwritten - drawn)} untried"
            if not no_budget:
                assert drawn == every, f"{action} seed {seed}: {sorted(every - drawn)} untried by default"


@pytest.mark.parametrize("seed", SEEDS)
def test_the_pairwise_rows_and_the_option_rows_are_drawn_as_before_the_added_state(seed: int) -> None:
    """question_locked was added after the arrays were kept (action_cases.ADDED_VALUES): the pairwise rows, which
    the options cross, are drawn over the other states, so their test ids stay; every combination holding the new
    state comes after them."""
    dims = load_contract().dimensions
    for action in ACTIONS:
        matrix = array(action, dims, seed)
        assert matrix.drawn is not None
        assert all(c.state != QUESTION_LOCKED for c in matrix.cases[:matrix.drawn])
        assert any(c.state == QUESTION_LOCKED for c in matrix.cases[matrix.drawn:])
        options = option_cases(matrix, ["wrap"])
        assert options and all(o.case.state != QUESTION_LOCKED for o in options)


def test_an_answer_under_a_locked_question_gets_every_refusal_and_no_change() -> None:
    """The state after two transitions (the question locked, then an answer under it): member (no relation),
    novice and anonymous are refused a lock and a send to moderation of moderator's answer; nothing the table
    allows to change it is drawn (the run builds no node under a locked question, and pays for none), and a refusal
    for the node's state is taken (what a question's lock does to its answers is not shown)."""
    dims = load_contract().dimensions
    for action in (LOCK, SEND):
        labels = {c.label for c in array(action, dims, 3, True, True).cases if c.state == QUESTION_LOCKED}
        assert {f"{action}-not_author-answer-question_locked", f"{action}-novice_none-answer-question_locked",
                f"{action}-anonymous-answer-question_locked"} == labels
    assert not Case(LOCK, "member", NONE, "answer", QUESTION_LOCKED).state_met
    assert not built_fits("answer", QUESTION_LOCKED, "moderator", "author")
    node = next(n for n in POOL if n.state == QUESTION_LOCKED)
    assert relations(node, "admin") == {"parent_author", "question_author"}
    assert relations(node, "admin", locked_author="member") == {NONE}
    assert relations(node, "moderator") == {"author"}


def test_every_combination_a_default_run_does_not_try_is_named_with_its_reason_in_spec() -> None:
    """Where no node stands in a relation and state, the combination is an exclusion with its reason
    (spec/dimensions.yaml action_cells), never a silent gap: every combination of every action is either drawn by
    default or named there, none is both, and the crossing figure counts what the run tries."""
    import yaml

    from qaconform.report.crossing import action_cells, cell_matches

    spec_path = Path(__file__).resolve().parents[1] / "spec" / "dimensions.yaml"
    spec = yaml.safe_load(spec_path.read_text(encoding="utf-8"))
    patterns = [str(p) for g in spec["action_cells"]["unreachable"] for p in g["cells"]]
    dims = load_contract().dimensions
    tried = 0
    for seed in SEEDS[:2]:
        tried = 0
        for action in ACTIONS:
            drawn = {(c.role, c.relation, c.kind, c.state) for c in array(action, dims, seed).cases}
            tried += len(drawn)
            for cell in product(*(dims.values[d] for d in dims.actions[action])):
                named = [p for p in patterns if cell_matches(p, (action, *cell))]
                if tuple(cell) in drawn:
                    assert not named, f"{action} {cell} is drawn, yet {named} names it unreachable"
                else:
                    assert named, f"{action} {cell} is neither drawn nor named in spec/dimensions.yaml action_cells"
    used = {p for p in patterns for a in ACTIONS for cell in product(*(dims.values[d] for d in dims.actions[a]))
            if cell_matches(p, (a, *cell))}
    assert used == set(patterns), f"patterns naming nothing: {sorted(set(patterns) - used)}"
    figure = action_cells(spec)
    assert figure["tried"] == tried and figure["tried"] + figure["unreachable"] == figure["combinations"]
    assert all(g["why"] and g["count"] for g in figure["groups"])


@pytest.mark.parametrize("seed", SEEDS)
def test_anonymous_is_refused_on_the_found_questions_in_every_state_after_the_drawn_rows(seed: int) -> None:
    """paths13 (issue 44 item 1): anonymous's node actions on the questions found with reads, as published and after
    the unwikify, are tried (refusals, no write) after the pairwise rows, which stay as they were drawn."""
    from action_cases import anonymous_found, unseen_refusal

    dims = load_contract().dimensions
    for action in ACTIONS:
        matrix = array(action, dims, seed)
        assert matrix.drawn is not None
        tried = {c.label for c in matrix.cases[matrix.drawn:] if anonymous_found(
            action, c.kind, c.state, c.role, c.relation)}
        assert f"{action}-anonymous-question-unwikified" in tried
        assert (f"{action}-anonymous-question-created" in tried) == (action in CHANGES_NODE)
        assert not any(anonymous_found(action, c.kind, c.state, c.role, c.relation)
                       for c in matrix.cases[:matrix.drawn])
        assert all(not c.allowed and unseen_refusal(c) for c in matrix.cases if c.label in tried)
