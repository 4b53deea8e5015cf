"""Each private visibility option is stored as that option, read back by its author (issue 44, fix1819).

Why this file: COMMENT-8's test read back one private comment (visibility recipients) and looked for the two fields;
a server whose answer path mapped another option (to original poster) to full visibility, answering 201 with the
option, passed it (blind round 18). "Private comments were introduced in version 2.16.0" (rule 8): on a 2.16.0
target a comment posted with a private option it accepts is private, so it is retrieved with that option, not as a
public one ("Both visibility and recipients are returned when a comment is retrieved").

No write of its own: the comments are the run's shared ones of each account and option (suites/conftest.py
``private_comment_of``: the permission table's cells, rule 7's control and the observations post the same ones),
under the run's shared answer. An option the profile gives no wire value, or a post the target refused (rule 7
judges that), is not judged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from comment_reads import read_back
from question_thread import at_location

from qaconform.pytest.one_shots import run_seed
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.seed_draws import question_option_for_seed
from qaconform.pytest.support import new_id
from qaconform.target.client import ApiClient
from qaconform.target.profile import VisibilityOptions

pytestmark = [pytest.mark.comments, pytest.mark.writes]

SHARED = (("member", "to_original_poster"), ("member", "to_moderators"), ("admin", "to_original_poster"),
          ("admin", "to_moderators"), ("admin", "to_own_groups"))
"""The (account, option) pairs the run already posts (the permission cells, test_input_form_matrix.py, the
observations of who reads them and of the values the target takes)."""


@pytest.mark.rule("COMMENT-8", "COMMENT-VISIBILITY-RETURNED")
@pytest.mark.parametrize(("role", "option"), [pytest.param(r, o, id=f"{o}-by-{r}") for r, o in SHARED])
def test_a_comment_posted_with_each_private_option_is_retrieved_with_it(
        request: pytest.FixtureRequest, role: str, option: str, api: dict[str, ApiClient], vis: VisibilityOptions,
        question_id: int, private_comment_of: Callable[[str, str], Any]) -> None:
    """The author reads its comment back in the answer's comment list: private with the option it was given
    (COMMENT-8 when it reads as full visibility: the option was taken and ignored; COMMENT-VISIBILITY-RETURNED when
    it reads with another private value)."""
    value = getattr(vis, option)
    if value is None:
        skip(SkipKind.OTHER, f"not checked: the profile's [visibility] gives no wire value for {option}")
    shared = private_comment_of(role, option)
    if shared.resp.status != 201 or shared.node is None:
        skip(SkipKind.OTHER, f"not checked: {role}'s {option} comment was not created ({shared.resp.status}); "
                             "rule 7's tests and the permission table judge that post")
    comment = new_id(shared.resp)
    if shared.node == question_id:  # round64: a reply under moderator's drawn option comment on the question
        on_question = at_location(api[role], request, shared.resp)
        if on_question is None:
            skip(SkipKind.OTHER, f"not checked: {role}'s {option} comment on the question is not served at its "
                                 "Location (LOCATION-READABLE, a should), and no list gives a question's comments")
        item = on_question
    else:
        item = read_back(api[role], shared.node, comment, blame=("COMMENT-8",))
    got = item.get("visibility")
    if got == value:
        return
    on = "questions" if shared.node == question_id else "answers"
    if vis.reads_as_full(got):
        fail(["COMMENT-8"], f"{role}'s comment {comment} under {on[:-1]} {shared.node} was posted with visibility "
                            f"{value!r} ({option}) and taken (201), yet reads back to its author as a public comment "
                            f"(visibility {got!r}): on a 2.16.0 target the option makes it private. Check how the "
                            f"option is stored for comments on {on}", shared.resp)
    fail(["COMMENT-VISIBILITY-RETURNED"], f"{role}'s comment {comment} was posted with visibility {value!r} "
         f"({option}); it reads back to its author with visibility {got!r}", shared.resp)


def on_question(request: pytest.FixtureRequest) -> tuple[str, str]:
    """The (account, option) whose shared comment is posted on the fixture question: suites/question_options.py
    ``on_question`` (the same pair, the option the run's seed draws; a sibling import here has no package name)."""
    return "moderator", question_option_for_seed(run_seed(request.config))


@pytest.mark.rule("COMMENT-8", "COMMENT-VISIBILITY-RETURNED")
def test_a_comment_posted_on_a_question_with_a_private_option_is_retrieved_with_it(
        request: pytest.FixtureRequest, api: dict[str, ApiClient], vis: VisibilityOptions,
        private_comment_of: Callable[[str, str], Any]) -> None:
    """paths18 (issue 44): the shared option comment posted on the fixture question (suites/question_options.py: the
    permission table's cell, no write of its own), read back by its author at its Location, the one read a comment on
    a question has with its settings ("a later GET"): private with its option (COMMENT-8 when it reads as full
    visibility). A Location the target does not serve with the comment is LOCATION-READABLE's (a should)."""
    role, option = on_question(request)
    value = getattr(vis, option)
    if value is None:
        skip(SkipKind.OTHER, f"not checked: the profile's [visibility] gives no wire value for {option}")
    shared = private_comment_of(role, option)
    if shared.resp.status != 201:
        skip(SkipKind.OTHER, f"not checked: {role}'s {option} comment on the question was not created "
                             f"({shared.resp.status}); rule 7's tests and the permission table judge that post")
    item = at_location(api[role], request, shared.resp)
    if item is None:
        skip(SkipKind.OTHER, f"not checked: {role}'s {option} comment on the question is not served at its Location "
                             "(LOCATION-READABLE, a should), and no list gives a question's comments with their "
                             "settings")
    got = item.get("visibility")
    if got == value:
        return
    comment = new_id(shared.resp)
    if vis.reads_as_full(got):
        fail(["COMMENT-8"], f"{role}'s comment {comment} on question {shared.node} was posted with visibility "
                            f"{value!r} ({option}) and taken (201), yet reads back to its author at its Location as "
                            f"a public comment (visibility {got!r}): on a 2.16.0 target the option makes it private, "
                            "on a question as under an answer", shared.resp)
    fail(["COMMENT-VISIBILITY-RETURNED"], f"{role}'s comment {comment} on question {shared.node} was posted with "
         f"visibility {value!r} ({option}); it reads back to its author at its Location with visibility {got!r}",
         shared.resp)
