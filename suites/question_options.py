"""The shared private-option comment posted on the fixture question, not under the shared answer (paths18, issue 44).

"Private comments were introduced in version 2.16.0" (COMMENT-8): a comment posted with a private option the target
takes is private, whatever kind of node it is posted on (the summary's "(new comment) | Parent is a public node or a
question"). Every accepted option comment of the run hung under the shared answer or replied to one, so a question's
comment path that drops the option (round48-question-comment-op-stored-full) was never met; the options on a question
were only refused (rule 7). moderator's to_original_poster comment is the permission table's cell alone (no test reads
it through the answer's comment list, no reply repeats it), so it goes on the question at no write of its own, and
suites/scenarios/test_private_options_stored.py reads it back at its Location. round64 (issue 44): on the seeds that
draw it, moderator's to_own_groups comment goes there instead (round64-question-comment-group-stored-full: the group
option dropped on questions only), and admin's reply repeating it (suites/option_forms.py) follows it there; both are
read at their Location.
"""

from __future__ import annotations

from qaconform.pytest.seed_draws import question_option_for_seed


def on_question(seed: int) -> tuple[str, str]:
    """(account, option) of suites/conftest.py ``private_comment_of`` whose comment is posted on the fixture question:
    moderator's, with the option the run's seed draws (round64: qaconform.pytest.seed_draws ``QUESTION_OPTIONS``,
    to_original_poster or to_own_groups; the other goes under the shared answer)."""
    return "moderator", question_option_for_seed(seed)
