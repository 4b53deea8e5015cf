"""Both stated forms of a recipient id in one list, on the run's shared private comment on the question (recip,
issue 44).

"Each item has id (integer or string)." The forms were tried on comments under an answer and under a public comment
(contract/test_stated_forms.py), never under a question: a server that drops string ids on a question's comments
only passed (blind rounds 24 and 27). The run's one private comment on the question (suites/conftest.py
``private_comment_on_question``, member's, private to moderator) now names moderator by an integer and member, its
author, by a string: the audience is the same (the author reads its own comment), so every reader's view is judged
as before, and the read-back of its settings (the privacy model's ``_judge_stored``) names the string form's rule
when exactly the ids sent as strings are missing. No write more.
"""

from __future__ import annotations

QUESTION_AS_INTEGER = ("moderator",)
"""Recipients of the shared comment on the question named by an integer id."""

QUESTION_AS_STRING = ("member",)
"""Recipients of it named by a string id (member is its author: naming it changes no one's view)."""


def question_recipients(user_ids: dict[str, int]) -> list[int | str]:
    """The recipients list of the shared private comment on the question: integers first, then strings."""
    return [user_ids[r] for r in QUESTION_AS_INTEGER] + [str(user_ids[r]) for r in QUESTION_AS_STRING]


def lost_only_strings(sent_as_string: frozenset[str], want: set[str], got: set[str] | None) -> bool:
    """Whether the ids read back lack exactly (some of) those sent as strings and nothing else: the string form's
    rule (COMMENT-RECIPIENT-ID-FORMS), not the privacy rule's."""
    if got is None:
        return False
    lost = want - got
    return bool(lost) and lost <= sent_as_string and got <= want
