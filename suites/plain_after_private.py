"""The order of one account's own comment writes (round46, issue 44: a history of the account's own writes).

"Without visibility and recipients the comment has full visibility and no recipients, and a later GET returns exactly
that": whatever the same account sent just before. A server that keeps an account's last privacy settings as its
form state (the fields of its previous comment) gives a plain comment posted right after a private one the private
one's settings; every plain comment of the run was posted before, or apart from, its author's private ones, so that
history was never tried. suites/conftest.py ``comment_of`` calls :func:`private_first` before each shared plain
comment: the account's shared private comment (an option the run posts anyway, for the permission cells and
suites/scenarios/test_private_options_stored.py ``SHARED``) goes first, right before it. Order only: no write of its
own, and every test that reads either comment reads the same one as before.
"""

from __future__ import annotations

import contextlib

import pytest

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
