"""place25 (issue 44): the two seed draws it names and the faults that name them.

"novice own-question form" says which of novice's parameter-form answers the placements' rotation puts under novice's
own question (qaconform/pytest/found_nodes.py ``novice_answer_parent``); "shared call options" says which shared
locks and sends carry every stated option (qaconform/pytest/one_shots.py ``drawn_options``). Each must be what the
suites do, or a fault naming it would run at a seed that does not take its path."""

from __future__ import annotations

from qaconform.commands import selftest_seeds
from qaconform.commands.selftest import DEFAULT_SEED
from qaconform.pytest import one_shots
from qaconform.pytest.found_nodes import NOVICE_ANSWER_PARENTS, NOVICE_PARAMETER_FORMS, novice_answer_parent
from qaconform.pytest.seed_draws import (
    NOVICE_OWN_QUESTION_FORMS,
    SHARED_OPTION_CARRIERS,
    novice_own_question_form_for_seed,
    shared_call_options_for_seed,
)
from qaconform.reference import faults

EVEN = "shared call options=" + SHARED_OPTION_CARRIERS[0]
DRAWN = {"round90-sendtomod-moderator-v1-refused": (EVEN,), "place25-member-own-lock-wrap-refused": (EVEN,),
         "place25-admin-send-answer-wrap-refused": (EVEN,),
         "place25-novice-form-answer-own-question-moderation-skipped": ("novice own-question form=form",),
         "place25-novice-json-answer-own-question-published": (),
         "round93-novice-answer-own-question-published": ()}
"""The faults place25 registered, with the draws each names (measured: caught at the seed they give)."""


def test_the_own_question_form_is_the_one_the_rotation_puts_under_novices_question() -> None:
    assert NOVICE_OWN_QUESTION_FORMS == NOVICE_PARAMETER_FORMS
    for seed in (*range(0, 12), DEFAULT_SEED, DEFAULT_SEED + 1, DEFAULT_SEED + 2, 2**31 - 1):
        own = [f for f in NOVICE_PARAMETER_FORMS if novice_answer_parent(f, seed) == NOVICE_ANSWER_PARENTS[0]]
        assert own == [novice_own_question_form_for_seed(seed)], seed
        assert {novice_answer_parent(f, seed) for f in NOVICE_PARAMETER_FORMS} == set(NOVICE_ANSWER_PARENTS), seed
    assert novice_own_question_form_for_seed(DEFAULT_SEED) == "param_wins"


def test_the_drawn_carriers_are_the_calls_with_the_options() -> None:
    assert shared_call_options_for_seed(DEFAULT_SEED) == SHARED_OPTION_CARRIERS[1]  # as every run before place25
    for seed in (DEFAULT_SEED, DEFAULT_SEED + 1, 0, 7):
        even = shared_call_options_for_seed(seed) == SHARED_OPTION_CARRIERS[0]
        for operation, calls in one_shots.SHARED_CALLS.items():
            carried = [c for i, c in enumerate(calls) if one_shots.drawn_options(operation, i, seed)]
            assert carried == list(calls[0 if even else 1::2]), (seed, operation)
            assert all(one_shots.drawn_options(operation, i, seed) in ({}, one_shots.stated_options(operation))
                       for i in range(len(calls)))
    assert one_shots.SHARED_CALLS["sendToModeration"][0] == "moderator"
    assert one_shots.SHARED_CALLS["lockNode"][0::2] == ("admin", "member")


def test_each_fault_names_its_draws_and_runs_at_a_seed_that_draws_them() -> None:
    for name, draws in DRAWN.items():
        assert faults.FAULTS[name].draws == draws, name
    at = selftest_seeds.own_seeds(DRAWN, DEFAULT_SEED)
    assert at == {name: DEFAULT_SEED + 1 for name, draws in DRAWN.items() if draws}
