"""The shared writes that take a drawn input form (forms9, issue 44 item 3), and the form each takes for a seed.
Pure: no request (suites/placed_forms.py posts them; suites/contract/test_write_forms.py judges them).

The array: within each operation the slots take consecutive offsets of the seed's rotation over spec/dimensions.yaml
``input_form``, so the four answer slots post every form in every run (each by another writer and relation, the
pairing shifted by the seed), and the two comment slots two forms per run (every form on a question and on a
comment over two seeds, every pairing over four). The three private slots (placements, issue 44: on the answer, on
the question, and the private reply under a public comment) take the three private forms every run, one on each
parent kind, and every pairing over three seeds (the reply's form is seed_draws.private_reply_form_for_seed, so a
fault that bites on one form of a reply names that draw).
"""

from __future__ import annotations

from dataclasses import dataclass

from qaconform import contract
from qaconform.pytest.seed_draws import OPTION_COMMENT_FORMS, option_comment_form_for_seed

JSON = "json"
PRIVATE_FORMS = (JSON, "query", "param_wins")
"""A private comment's forms: visibility in the JSON body, as a query parameter (the body too), or as a query
parameter winning over the body's (recipients always in the JSON body)."""


@dataclass(frozen=True)
class Slot:
    """One shared write that takes a drawn form: its operation, the parent kind or relation it is posted under (what
    a server may read the form differently for), its writer, and its place in the operation's rotation."""

    operation: str
    parent: str
    writer: str
    offset: int
    forms: tuple[str, ...] = ()
    """The forms it may take (none: every ``input_form``): a private comment's recipients, an array of objects,
    have no parameter form shown, so it is never form-encoded (its visibility and body travel as parameters)."""


SLOTS: dict[str, Slot] = {
    "others_answer": Slot("postAnswer", "question novice wrote", "admin", 0),
    "answer_under_members_question": Slot("postAnswer", "question member wrote", "moderator", 1),
    "sent_to_mod_by": Slot("postAnswer", "question of a child space (else novice's), then sent to moderation",
                           "moderator", 2),
    "answer_sent_to_mod_by_admin": Slot("postAnswer", "question novice wrote, then sent to moderation", "member", 3),
    "comment_on_own_node": Slot("postComment", "question", "novice", 0),
    "locked_comment": Slot("postComment", "comment (a reply to the writer's own comment, or to the locker's: "
                           "seed_draws 'locked comment parent')", "member", 2),
    "private_comment_on_answer": Slot("postComment", "answer, private to recipients", "member", 0, PRIVATE_FORMS),
    "private_comment_on_question": Slot("postComment", "question, private to recipients", "member", 1, PRIVATE_FORMS),
    "private_reply_to_public_comment": Slot("postComment", "public comment, private to recipients (a reply)", "member",
                                            2, PRIVATE_FORMS),  # placements: seed_draws.private_reply_form_for_seed
}
"""slot (the suites/conftest.py fixture that posts it) -> :class:`Slot`. The parents are those the reference data
gives (the profile's fixture question is novice's there); on another target the relation is what it is."""


def forms() -> tuple[str, ...]:
    return tuple(contract.load_contract().dimensions.values["input_form"])


def form_of(slot: str, seed: int) -> str:
    """The input form ``slot`` posts in for the run's ``seed``."""
    values = SLOTS[slot].forms or forms()
    return values[(SLOTS[slot].offset + seed) % len(values)]


TEXTS = {"others_answer": "permission matrix: another's node",
         "answer_under_members_question": "answer to a question member wrote",
         "sent_to_mod_by": "to be sent to moderation by moderator",
         "answer_sent_to_mod_by_admin": "answer of member's to be sent to moderation by admin",
         "comment_on_own_node": "plain comment by novice on a question novice wrote",
         "locked_comment": "to be sent to moderation by admin",
         "private_comment_on_answer": "private to moderator",
         "private_comment_on_question": "private comment on the question",
         "private_reply_to_public_comment": "private reply to a public comment"}
"""The text each slot's fixture posts (suites/conftest.py; the run tag is added)."""


OPTION_COMMENTS = (("member", "to_moderators"), ("admin", "to_original_poster"), ("moderator", "to_moderators"),
                   ("admin", "to_own_groups"), ("member", "to_original_poster"), ("admin", "to_moderators"),
                   ("moderator", "to_own_groups"), ("moderator", "to_original_poster"))
"""forms20 (issue 44 item 3): the shared comments with a private option that needs no recipients (suites/conftest.py
``private_comment_of``), in the order of their form rotation (seed_draws.OPTION_COMMENT_FORMS): four consecutive
ones take the four forms at every seed, and an option's comments by its accounts take different forms. Such a
comment carries scalars only (body, visibility), so every stated form admits it; a pair not listed (member's to own
groups, a permission refusal that rule 7's form rows send in every form) goes as JSON."""


def option_form_of(role: str, option: str, seed: int) -> str:
    """The input form (role, option)'s shared private-option comment posts in for the run's ``seed``."""
    if (role, option) not in OPTION_COMMENTS:
        return JSON
    first = OPTION_COMMENT_FORMS.index(option_comment_form_for_seed(seed))
    return OPTION_COMMENT_FORMS[(first + OPTION_COMMENTS.index((role, option))) % len(OPTION_COMMENT_FORMS)]
