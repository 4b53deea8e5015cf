"""The run's shared private reply under a public comment (histories5, issue 44 item 5): one write read by two suites.

test_comment_privacy.py posted member's public comment on the shared answer ("public parent") and under it a reply
private to moderator; :func:`suites.conftest.comment_of` posts member's plain comment on the same answer anyway. The
public parent is now that shared comment and the private reply a shared write, read by comment privacy's rule 5 and
leak checks and by the privacy model (suites/properties), which places a reply under it (a reply inheriting through a
private reply whose own parent is public) and has every account read every list that shows it after every step. The
write the merge saves pays for the model's reply: a default run's writes stay where they were.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from qaconform.pytest.support import expect_created, post_comment
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile
from qaconform.target.writes import SUITES

from .one_shot_calls import once_per_target

PRIVATE_REPLY_TEXT = "private reply to a public comment"

_CACHE = pytest.StashKey[dict[str, ApiResponse]]()


@pytest.fixture(scope="session")
def public_parent_comment(request: pytest.FixtureRequest) -> int:
    """member's shared plain comment on the shared answer (``comment_of("member")``), the public parent; fails
    SHAPE-POST-COMMENT's way unless it is a 201 on the shared answer itself (not a reply, not on a locked node)."""
    plain = request.getfixturevalue("comment_of")("member")
    cid = expect_created(plain.resp, "SHAPE-POST-COMMENT", "member could not post its plain comment on the shared "
                                                           "answer (the public parent of the run's private reply)")
    return int(cid)


@pytest.fixture(scope="session")
def private_reply_to_public_comment(request: pytest.FixtureRequest, api: dict[str, ApiClient], run_tag: str,
                                    created: Any, profile: Profile, user_ids: dict[str, int],
                                    public_parent_comment: int) -> tuple[int, ApiResponse]:
    """(the public parent's id, the 201 of member's reply to it private to moderator), posted once per run and
    charged to the suites' share whoever asks first (the privacy model's share holds exactly its own subtree)."""
    parent = public_parent_comment

    def post() -> ApiResponse:
        budget = ApiClient.write_budget
        with budget.charged_to(SUITES) if budget is not None else contextlib.nullcontext():
            return post_comment(api["member"], parent, run_tag, created, text=PRIVATE_REPLY_TEXT,
                                visibility=profile.visibility.recipients, recipients=[user_ids["moderator"]])

    cache: dict[str, ApiResponse] = request.session.stash.setdefault(_CACHE, {})
    if "reply" not in cache:
        cache["reply"] = once_per_target(request, profile, "shared private reply to a public comment", post)
    return parent, cache["reply"]
