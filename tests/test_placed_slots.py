"""suites/contract/placed_slots.py (forms9, issue 44 item 3): the shared writes' drawn input forms cover what the
module promises. Every answer slot posts every stated form in every run; the comment slots, every form over two
seeds; each slot's form moves with the seed (four seeds: every form on every slot)."""

from __future__ import annotations

from placed_slots import PRIVATE_FORMS, SLOTS, TEXTS, form_of, forms


def _groups() -> set[tuple[str, tuple[str, ...]]]:
    """The rotations: an operation's slots of the same forms (a private comment's are never form-encoded)."""
    return {(s.operation, s.forms) for s in SLOTS.values()}


def test_the_slots_of_a_rotation_take_distinct_forms_in_every_run() -> None:
    for seed in (0, 1, 7, 20260801, 987654321):
        for op, allowed in _groups():
            drawn = [form_of(name, seed) for name, s in SLOTS.items() if (s.operation, s.forms) == (op, allowed)]
            assert len(set(drawn)) == len(drawn), (op, seed, drawn)


def test_every_answer_slot_run_posts_every_form_and_the_comments_every_form_over_two_seeds() -> None:
    answers = [n for n, s in SLOTS.items() if s.operation == "postAnswer"]
    comments = [n for n, s in SLOTS.items() if s.operation == "postComment" and not s.forms]
    private = [n for n, s in SLOTS.items() if s.forms == PRIVATE_FORMS]
    for seed in (3, 20260801):
        assert {form_of(n, seed) for n in answers} == set(forms())
        assert {form_of(n, s) for n in comments for s in (seed, seed + 1)} == set(forms())
        assert {form_of(n, s) for n in private for s in (seed, seed + 1)} == set(PRIVATE_FORMS)


def test_every_slot_takes_every_form_over_four_seeds_and_names_its_text() -> None:
    for name in SLOTS:
        assert {form_of(name, seed) for seed in range(4)} == set(SLOTS[name].forms or forms())
        assert TEXTS[name]


def test_the_private_reply_slot_takes_the_form_its_seed_draw_names() -> None:
    # placements: a fault naming "private reply form=..." runs at a seed where the shared private reply takes it
    from qaconform.pytest.seed_draws import PRIVATE_REPLY_FORMS, private_reply_form_for_seed

    assert PRIVATE_REPLY_FORMS == PRIVATE_FORMS
    for seed in (0, 1, 2, 20260801, 20260802, 20260803, 2**31 - 1):
        assert form_of("private_reply_to_public_comment", seed) == private_reply_form_for_seed(seed)
    private = [n for n, s in SLOTS.items() if s.forms == PRIVATE_FORMS]
    for seed in (0, 20260801):  # every run: the three private forms, one on each parent kind
        assert sorted(form_of(n, seed) for n in private) == sorted(PRIVATE_FORMS)
