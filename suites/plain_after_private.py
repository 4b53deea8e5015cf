"""The order of one account's own comment writes (round46, issue 44: a history of the account's own writes).

"Without visibility and recipients the comment has full visibility and no recipients, and a later GET returns exactly
that": whatever the same account sent just before. A server that keeps an account's last privacy settings as its
form state (the fields of its previous comment) gives a plain comment posted right after a private one the private
one's settings; every plain comment of the run was posted before, or apart from, its author's private ones, so that
history was never tried. suites/conftest.py ``comment_of`` calls :func:`private_first` before each shared plain
comment: the account's shared private comment (an option the run posts anyway, for the permission cells and
suites/scenarios/test_private_options_stored.py ``SHARED``) goes first, right before it. Order only: no write of its
own, and every test that reads either comment reads the same one as before.

paths18 (issue 44 item 5, paths17-reply-sticky-privacy): a reply without privacy fields right after its author's
private comment. A once-per-run write cannot be placed right before another by asking for it there (another test may
have posted it long before), so the pair is posted together whichever is asked first: member's shared
to_moderators comment (:data:`REPLY_AFTER_PRIVATE`) is followed at once by member's reply that admin locks
(suites/conftest.py ``locked_comment``: :func:`member_reply`), and asking for that reply first posts the private
comment first. Order only: the same writes, read by the same tests.

locks25 (issue 44, round92-lock-moderator-comment-under-own-node-refused): the reply's parent is drawn by the run's
seed (seed_draws "locked comment parent"): member's shared plain comment, or admin's, so that admin's lock of the reply
(and its send to moderation) acts on another account's comment whose parent admin wrote on the seeds drawing it
(:func:`reply_parent`). The same writes either way; the action matrix reads the relation the run placed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest

from qaconform.pytest.one_shots import run_seed
from qaconform.pytest.seed_draws import LOCKED_COMMENT_PARENTS, locked_comment_parent_for_seed
from qaconform.pytest.support import post_comment_in
from qaconform.target.client import ApiResponse

from . import placed_forms

PRIVATE_BEFORE_PLAIN = {"member": "to_original_poster", "admin": "to_moderators"}
"""The accounts whose plain comment follows one of their own private ones, and the option of that one (moderator's
plain comment is on a locked node and its private options are not posted on their own; novice has none)."""


def private_first(request: pytest.FixtureRequest, role: str) -> None:
    """``role``'s shared private comment of :data:`PRIVATE_BEFORE_PLAIN`, posted (once per run) before its plain one;
    nothing when the profile gives no wire value for the option (the option's own tests say so)."""
    option = PRIVATE_BEFORE_PLAIN.get(role)
    if option is not None:
        with contextlib.suppress(pytest.skip.Exception):
            request.getfixturevalue("private_comment_of")(role, option)


REPLY_AFTER_PRIVATE = ("member", "to_moderators")
"""paths18: the (account, option) of the shared private comment its author's plain reply (:func:`member_reply`)
follows at once: member's (the reply's author), an option the run posts anyway (the permission cell,
suites/scenarios/test_private_options_stored.py ``SHARED``) and not the one member's plain comment follows."""


def reply_follows(request: pytest.FixtureRequest, role: str, option: str,
                  post_private: Callable[[], ApiResponse]) -> ApiResponse:
    """``post_private()`` (role's shared private comment of ``option``, once per run); for
    :data:`REPLY_AFTER_PRIVATE`, the reply's parent first and the reply right after (each once per run)."""
    if (role, option) != REPLY_AFTER_PRIVATE:
        return post_private()
    with contextlib.suppress(pytest.skip.Exception):
        reply_parent(request)  # the reply's parent (its comment_of), before the private comment
    resp = post_private()
    if 200 <= resp.status < 300:
        member_reply(request)
    return resp


def reply_after_private(request: pytest.FixtureRequest) -> ApiResponse:
    """:func:`member_reply`, posted right after member's shared private comment of :data:`REPLY_AFTER_PRIVATE` when
    that one is not posted yet (then :func:`reply_follows` posts both); nothing more when it was."""
    with contextlib.suppress(pytest.skip.Exception):
        request.getfixturevalue("private_comment_of")(*REPLY_AFTER_PRIVATE)
    return member_reply(request)


LOCKER = "admin"
"""Who locks member's reply and sends it to moderation (suites/conftest.py ``locked_comment``, ``sent_to_mod_by``)."""


def reply_parent(request: pytest.FixtureRequest) -> tuple[int, str]:
    """(the node :func:`member_reply` goes under, the account that wrote it): the shared plain comment
    (``comment_of``) of the writer the seed draws (``LOCKED_COMMENT_PARENTS``: member's own, or the locker's, admin's),
    when a 201 under the shared answer; else member's when that one is; else the shared answer (member's). Once per
    run as the comments are, so every worker and every reader (the action matrix's relations) gets the same."""
    fixture = request.getfixturevalue
    shared_answer = int(fixture("shared_answer"))
    drawn = locked_comment_parent_for_seed(run_seed(request.config))
    writers = (LOCKER, "member") if drawn == LOCKED_COMMENT_PARENTS[1] else ("member",)
    for writer in writers:
        plain = fixture("comment_of")(writer)
        if plain.resp.status == 201 and plain.node == shared_answer and plain.id:
            return int(plain.id), writer
    return shared_answer, "member"


def member_reply(request: pytest.FixtureRequest) -> ApiResponse:
    """member's reply without privacy fields to the shared plain comment :func:`reply_parent` names (member's own, or
    admin's on the seeds drawing it), in the form the seed draws for the slot (placed_forms), once per run: the
    comment admin locks and sends to moderation (suites/conftest.py ``locked_comment``)."""
    fixture = request.getfixturevalue
    api, profile = fixture("api"), fixture("profile")
    parent, _writer = reply_parent(request)
    run_tag, created = fixture("run_tag"), fixture("created")
    return placed_forms.placed(request, profile, "locked_comment", "comment to send to moderation by admin",
                               lambda form: post_comment_in(api["member"], parent, run_tag, created,
                                                            "to be sent to moderation by admin", form))
