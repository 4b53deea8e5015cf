"""Fixtures of the scenario suites: the comments test_comment_privacy.py reads, one thread per module.

Module-scoped like the fixtures they were beside (one thread per test module that asks, per xdist worker); only
test_comment_privacy.py asks for them today.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from comment_reads import PlainComments

from qaconform.pytest.support import expect_created, post_comment, post_comment_in
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile, VisibilityOptions


@pytest.fixture(scope="module")
def thread_answer(shared_answer: int) -> int:
    """The answer that holds test_comment_privacy.py's comments: the run's shared answer of member's
    (suites/conftest.py), under which the accounts' shared plain comments are too (``comment_of``). Every test looks
    for the comments it knows (by id or by a unique text), so other modules' comments beside them change nothing."""
    return shared_answer


@pytest.fixture(scope="module")
def private_comment(private_comment_on_answer: Any) -> int:
    """member's comment on the answer, private to moderator (visibility recipients): the run's shared one
    (suites/conftest.py, histories3: test_list_semantics.py's 2.16.0 check reads the same write)."""
    return expect_created(private_comment_on_answer.resp, "COMMENT-2",
                          "member could not post a comment private to moderator")


@pytest.fixture(scope="module")
def public_comment(public_parent_comment: int) -> int:
    """member's full-visibility comment on the answer, parent of a private reply: the run's shared plain comment of
    member's (suites/conftest.py ``comment_of``; histories5, issue 44: the write this module made for it pays for the
    privacy model's reply under the shared private reply, suites/public_threads.py)."""
    return public_parent_comment


@pytest.fixture(scope="module")
def created_replies() -> dict[int, ApiResponse]:
    """The 201 of each comment on a comment the module's fixtures post, by the new comment's id, so that what a 201
    carries (its Location) is judged on a comment whose parent is a comment too (blind5, issue 44: a reply path that
    builds the URL from the node posted to)."""
    return {}


REPLY_FORM = "param_wins"
"""The input form of the module's comment on a comment (blind8, issue 44): its body as a query parameter beside a
JSON body that says otherwise (spec/dimensions.yaml ``input_form``), so that "When both are given, the parameter
wins" is judged on a reply too, not only on the shared comments under the answer (a server whose reply path reads
the JSON body again lets it win there). On a conforming target the reply reads exactly as one posted in JSON.
The module's other reply without fields (:func:`inherited_reply`) carries its losing body form-encoded."""


@pytest.fixture(scope="module")
def reply_forms() -> dict[int, str]:
    """The input form each comment on a comment of the module's fixtures travelled in, by the new comment's id."""
    return {}


@pytest.fixture(scope="module")
def public_reply(member: ApiClient, public_comment: int, run_tag: str, created: Any,
                 created_replies: dict[int, ApiResponse], reply_forms: dict[int, str]) -> int:
    """member's full-visibility reply to the public comment: a public comment one level down (a comment on a comment,
    COMMENT-PARENT-KINDS's), under which rule 5 and the refusals of rules 6 and 7 are tried too (issue 44, blind
    round on threads: a reply to a public reply is where a server that decides a reply's privacy by its depth, not by
    its parent's settings, goes wrong). Its body travels in :data:`REPLY_FORM`; a target that refuses that form (a 4xx
    other than 404, for its parent exists) gets it in JSON (whether it takes parameters is CONV-PARAM-AS-BODY-FIELD's,
    judged by the comment form matrix)."""
    form = REPLY_FORM
    resp = post_comment_in(member, public_comment, run_tag, created, "comment on a comment", form)
    if 400 <= resp.status < 500 and resp.status != 404:  # 404: the parent exists, so not a refused form
        form = "json"
        resp = post_comment(member, public_comment, run_tag, created, text="comment on a comment")
    reply = expect_created(resp, "COMMENT-PARENT-KINDS", "member could not post a comment on a comment")
    created_replies[reply] = resp
    reply_forms[reply] = form
    return reply


@pytest.fixture(scope="module")
def refusal_parents(thread_answer: int, question_id: int, public_comment: int, public_reply: int
                    ) -> list[tuple[str, int]]:
    """(label, node) of every kind of public parent at every depth of the module's thread: the answer, the fixture
    question, the public comment on the answer and the public reply under it. The refusals of rules 6 and 7 are
    tried on each (a conforming target refuses them: no accepted write), the answer first."""
    return [(f"answer {thread_answer}", thread_answer), (f"question {question_id}", question_id),
            (f"public comment {public_comment} (on the answer)", public_comment),
            (f"public reply {public_reply} (a comment on public comment {public_comment})", public_reply)]


MOVED = (("locked_by", "member", "member's answer, locked by member"),
         ("locked_by", "admin", "novice's answer, held in moderation (no Publish answer) and locked by admin"),
         ("sent_to_mod_by", "admin", "member's comment, locked by admin and sent to moderation by admin"))
"""The run's shared nodes moved through the state table (suites/conftest.py): fixture, its account, label."""


@pytest.fixture(scope="module")
def moved_parents(request: pytest.FixtureRequest) -> list[tuple[str, int]]:
    """(label, node) of the run's shared nodes that moved through the state table before (:data:`MOVED`: locked,
    held in moderation, locked then sent to moderation), read, never written again: the refusals of rules 6 and 7
    are tried on each too (issue 44, blind round on histories: a server that skips rule 7 under a node in
    moderation, where the node's author still sees it). Whether a locked node or one in moderation takes comments
    is not stated, so there any refusal will do; only an accepted comment breaks the rule. A shared write the run
    did not make (its budget spent, --read-only) is left out."""
    out: list[tuple[str, int]] = []
    for fixture, role, label in MOVED:
        try:
            shared = request.getfixturevalue(fixture)(role)
        except pytest.skip.Exception:
            continue
        if 200 <= shared.resp.status < 300 and shared.node is not None:
            out.append((f"{label} ({shared.node})", int(shared.node)))
    return out


@pytest.fixture(scope="module")
def two_recipients_comment(member: ApiClient, thread_answer: int, run_tag: str, created: Any, vis: VisibilityOptions,
                           user_ids: dict[str, int], profile: Profile) -> tuple[ApiResponse, list[int]]:
    """member's comment private to moderator and novice (recipients in that order) and, when the profile names its id,
    the data-protection target too: COMMENT-2's list of several recipients and the parent of COMMENT-3's reply with
    the same fields, which sends them in the other order. round91 (issue 44): a third recipient, a user no account of
    the run reads as (the audience the run judges is unchanged), so that a list is read back past the two items a
    server may cut it to (the run's only other comment with more than two recipients is the observation of a
    500-long list, which a default run does not send). The response and the recipient ids as sent."""
    ids = [user_ids["moderator"], user_ids["novice"]]
    third = profile.safety.gdpr_user_id
    if third is not None and third not in ids and third not in user_ids.values():
        ids.append(third)
    return post_comment(member, thread_answer, run_tag, created, text="private to moderator and novice",
                        visibility=vis.recipients, recipients=ids), ids


@pytest.fixture(scope="module")
def private_reply_to_public(private_reply_to_public_comment: tuple[int, ApiResponse]) -> int:
    """member's reply to the public comment, private to moderator: the run's shared one (suites/public_threads.py,
    histories5: the privacy model reads it too and places a reply under it)."""
    return expect_created(private_reply_to_public_comment[1], "COMMENT-5",
                          "member could not post a private reply to a public comment")


@pytest.fixture(scope="module")
def inherited_reply(member: ApiClient, private_comment: int, run_tag: str, created: Any,
                    created_replies: dict[int, ApiResponse], reply_forms: dict[int, str]) -> int:
    """member's reply to its own private comment, without privacy fields (inherits: private to moderator). Its body
    travels in :data:`REPLY_FORM` beside a FORM-ENCODED body that says otherwise, while :func:`public_reply`'s and the
    run's shared param_wins comment's losing bodies are JSON: every run crosses both stated body formats with "the
    parameter wins" on a comment on a comment (fix25, issue 44, blind round 25: a form controller that let its body
    win, or looked for the parent among questions and answers only, went unseen while every form-encoded comment had
    an answer for parent). A target that refuses the form (a 4xx other than 404, for its parent exists) gets it in
    JSON; a 404 is COMMENT-PARENT-KINDS's."""
    form = REPLY_FORM
    resp = post_comment_in(member, private_comment, run_tag, created, "reply inheriting privacy", form,
                           losing_form_encoded=True)
    if 400 <= resp.status < 500 and resp.status != 404:
        form = "json"
        resp = post_comment(member, private_comment, run_tag, created, text="reply inheriting privacy")
    rule = "COMMENT-PARENT-KINDS" if resp.status == 404 else "COMMENT-3"
    reply = expect_created(resp, rule, "member could not reply to its own private comment")
    created_replies[reply] = resp
    reply_forms[reply] = form
    return reply


@pytest.fixture(scope="module")
def recipient_reply(recipient_reply_under_public: ApiResponse) -> ApiResponse:
    """moderator's (the recipient's) reply without privacy fields to member's comment private to moderator (the run's
    shared private reply under a public comment, suites/public_threads.py; histories5): it inherits them (COMMENT-3);
    who else reads it is recorded (OBS-REPLY-AUDIENCE). The response, whatever it is."""
    return recipient_reply_under_public


@pytest.fixture(scope="module")
def plain_comments(comment_of: PlainComments) -> PlainComments:
    """Each account's plain comment on the thread (no privacy fields), by role: the run's shared one
    (suites/conftest.py ``comment_of``), read by every test that needs a plain comment of that author, here and in
    the permission and shape suites (:func:`plain_comment`)."""
    return comment_of


@pytest.fixture(scope="module")
def member_to_original_poster(private_comment_of: Callable[[str, str], Any],
                              vis: VisibilityOptions) -> ApiResponse | None:
    """member's comment with visibility to_original_poster (an option it holds; the run's shared one, which the
    permission table's cell reads too), or None when the profile gives no wire value for it: the control of
    COMMENT-7-NO-OPTION-PERMISSION and one of OBS-COMMENT-OP-AUDIENCE's."""
    if vis.to_original_poster is None:
        return None
    resp: ApiResponse = private_comment_of("member", "to_original_poster").resp
    return resp


@pytest.fixture(scope="module")
def private_on_question(private_comment_on_question: Any) -> int:
    """member's comment on the fixture question itself, private to moderator (for the question list's ids): the
    run's shared one (suites/conftest.py), which the privacy model replies to."""
    return expect_created(private_comment_on_question.resp, "COMMENT-2",
                          "member could not post a private comment on the question")


@pytest.fixture(scope="module")
def private_ids(private_comment: int, private_reply_to_public: int, inherited_reply: int,
                private_on_question: int) -> set[str]:
    """Every comment these fixtures made that only member (author) and moderator (recipient) may see."""
    return {str(private_comment), str(private_reply_to_public), str(inherited_reply), str(private_on_question)}
