"""forms20 (issue 44 item 3): the run's shared private-option comments (to the original poster, to moderators, to
own groups) and the options answer take a form drawn by the seed (suites/contract/placed_slots.py
``option_form_of``, seed_draws ``option comment form`` and ``options answer writer``). Every run sends every form;
each comment takes every form within any 8 consecutive seeds; each option's comments differ in form; the faults
name their draw and the self-test runs them at a seed that draws it."""

from __future__ import annotations

from placed_slots import JSON, OPTION_COMMENTS, forms, option_form_of

from qaconform.commands import selftest_seeds
from qaconform.commands.selftest import DEFAULT_SEED
from qaconform.pytest.seed_draws import (
    OPTION_COMMENT_FORMS,
    OPTIONS_ANSWER_WRITERS,
    charset_senders_for_seed,
    draws_at,
    option_comment_form_for_seed,
    options_answer_writer_for_seed,
    order_for_seed,
    param_wins_body_for_seed,
    private_reply_parent_for_seed,
    unwikifier_for_seed,
)
from qaconform.pytest.support import ANSWER_PUBLISHERS, OPTIONS_ANSWER_WRITER, answer_form, answer_options
from qaconform.reference import faults

STARTS = (0, 5, 15, DEFAULT_SEED, DEFAULT_SEED + 9, 2**31 - 8)


def test_the_drawn_forms_are_the_stated_input_forms_in_their_order() -> None:
    assert OPTION_COMMENT_FORMS == forms()


def test_every_run_sends_every_form_and_each_option_its_comments_in_different_forms() -> None:
    for seed in range(DEFAULT_SEED, DEFAULT_SEED + 40):
        drawn = {pair: option_form_of(*pair, seed) for pair in OPTION_COMMENTS}
        assert set(drawn.values()) == set(forms()), (seed, drawn)
        for option in {o for _, o in OPTION_COMMENTS}:
            same = [f for (_, o), f in drawn.items() if o == option]
            assert len(set(same)) == len(same), (seed, option, same)


def test_each_comment_takes_every_form_within_any_eight_consecutive_seeds() -> None:
    for start in STARTS:
        for pair in OPTION_COMMENTS:
            assert {option_form_of(*pair, s) for s in range(start, start + 8)} == set(forms()), (start, pair)


def test_a_pair_not_drawn_stays_json() -> None:
    assert ("member", "to_own_groups") not in OPTION_COMMENTS
    assert {option_form_of("member", "to_own_groups", s) for s in range(16)} == {JSON}


def test_the_new_dimensions_meet_every_combination_of_the_others_within_the_search_span() -> None:
    for start in (DEFAULT_SEED, 3):
        others = {(charset_senders_for_seed(s), order_for_seed(s), unwikifier_for_seed(s),
                   private_reply_parent_for_seed(s), param_wins_body_for_seed(s)) for s in range(start, start + 64)}
        for other in others:
            seen = {(option_comment_form_for_seed(s), options_answer_writer_for_seed(s)) for s in
                    range(start, start + 64) if (charset_senders_for_seed(s), order_for_seed(s),
                                                 unwikifier_for_seed(s), private_reply_parent_for_seed(s),
                                                 param_wins_body_for_seed(s)) == other}
            assert {f for f, _ in seen} == set(OPTION_COMMENT_FORMS), (start, other, seen)


def test_the_options_answer_writer_rotates_over_the_publishers_in_their_own_forms() -> None:
    assert options_answer_writer_for_seed(DEFAULT_SEED) == OPTIONS_ANSWER_WRITER  # as every run before forms20
    assert set(OPTIONS_ANSWER_WRITERS) == set(ANSWER_PUBLISHERS)
    for start in STARTS:
        assert {options_answer_writer_for_seed(s) for s in range(start, start + 3)} == set(ANSWER_PUBLISHERS)
    for seed in range(DEFAULT_SEED, DEFAULT_SEED + 3):
        writer = options_answer_writer_for_seed(seed)
        carried = {(r, f) for r in ANSWER_PUBLISHERS for f in forms() if answer_options(r, f, seed)}
        assert carried == {(writer, answer_form(writer))}, (seed, carried)
    assert answer_options(OPTIONS_ANSWER_WRITER, answer_form(OPTIONS_ANSWER_WRITER))  # no seed: as listed


def test_the_forms20_faults_name_their_draw_and_run_at_a_seed_drawing_it() -> None:
    for name in ("forms20-comment-form-moderators-stored-public", "forms20-answer-form-option-body-dropped"):
        draws = faults.FAULTS[name].draws
        assert draws, name
        for start in (DEFAULT_SEED, 3):
            at = selftest_seeds.fault_seed(name, start)
            assert draws_at(draws, at) and start <= at < start + 8, (name, start, at)
    at = selftest_seeds.fault_seed("forms20-comment-form-moderators-stored-public", DEFAULT_SEED)
    assert option_form_of("member", "to_moderators", at) == "form"
    at = selftest_seeds.fault_seed("forms20-answer-form-option-body-dropped", DEFAULT_SEED)
    assert answer_options("moderator", "form", at) and answer_form("moderator") == "form"
