"""The run's shared thread under a public comment (histories5, issue 44 items 2 and 5): writes two suites read.

test_comment_privacy.py posted member's public comment on the shared answer ("public parent"), under it a reply
private to moderator, and moderator's reply without fields to member's comment private to moderator; ``comment_of``
(suites/conftest.py) posts member's plain comment on the same answer anyway. The public parent is now that shared
comment, and the private reply and moderator's reply (now to the private reply: the same settings inherited, through a
private reply whose own parent is public) are shared writes, read by comment privacy (rule 5, rule 3, the leaks, the
OBS-REPLY-AUDIENCE record) and by the privacy model (suites/properties/public_parent.py), which has every account read
every list that shows them after every step. The write the merge saves pays for the model's send of a reply of its
own subtree to moderation (subtree_moderation.py): a default run's accepted writes stay where they were.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from qaconform.pytest.properties.plugin import STATE
from qaconform.pytest.seed_draws import (
    PRIVATE_REPLY_PARENTS,
    private_reply_parent_for_seed,
    public_reply_recipient_form_for_seed,
)
from qaconform.pytest.support import expect_created, new_id, post_comment
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile
from qaconform.target.writes import SUITES

from .one_shot_calls import once_per_target
from .placed_forms import placed, post_private

__all__ = ["private_reply_parent", "private_reply_to_public_comment", "public_parent_comment",
           "recipient_reply_under_public"]

PRIVATE_REPLY_TEXT = "private reply to a public comment"

_CACHE = pytest.StashKey[dict[str, ApiResponse]]()
OWN_PARENT = PRIVATE_REPLY_PARENTS[1]
"""The draw that puts the shared private reply under its writer's own public comment."""


def _run_seed(request: pytest.FixtureRequest) -> int:
    return request.config.stash[STATE].seed if STATE in request.config.stash else 0


@pytest.fixture(scope="session")
def public_parent_comment(request: pytest.FixtureRequest) -> int:
    """member's shared plain comment on the shared answer (``comment_of("member")``), the public parent; fails
    SHAPE-POST-COMMENT's way unless it is a 201 on the shared answer itself (not a reply, not on a locked node)."""
    plain = request.getfixturevalue("comment_of")("member")
    cid = expect_created(plain.resp, "SHAPE-POST-COMMENT", "member could not post its plain comment on the shared "
                                                           "answer (the public parent of the run's private reply)")
    return int(cid)


@pytest.fixture(scope="session")
def private_reply_parent(request: pytest.FixtureRequest, public_parent_comment: int) -> tuple[int, str, bool]:
    """(id, author, whether it is itself a reply) of the public comment the shared private reply goes under: novice's
    shared plain comment when it is a reply to admin's (``comment_of``, suites/conftest.py ``COMMENT_AS_REPLY``: a
    public reply at depth 2 the run posts anyway), else member's plain comment on the shared answer.
    recip (issue 44): under a public reply, the private reply is a private comment under a reply (depth 3), the
    path a server that lists a reply's hidden children in its commentIds breaks; the privacy model reads the
    public reply's ids in the shared answer's list, as every account sees it, after every step. No write more.
    paths16 (issue 44): the run's seed draws which (``qaconform.pytest.seed_draws.PRIVATE_REPLY_PARENTS``): on
    "the replier's own comment" member's private reply goes under member's own public comment, so rule 5 is tried
    by the author of the public parent too (round44-own-public-reply-privacy-dropped); consecutive quadruples of
    seeds try each."""
    if private_reply_parent_for_seed(_run_seed(request)) == OWN_PARENT:
        return public_parent_comment, "member", False  # paths16: member replies in its own public thread
    get = request.getfixturevalue("comment_of")
    admin, novice = get("admin"), get("novice")
    if admin.resp.status == 201 and novice.resp.status == 201 and admin.node == novice.node and admin.id:
        return int(new_id(novice.resp)), "novice", True
    return public_parent_comment, "member", False


@pytest.fixture(scope="session")
def private_reply_to_public_comment(request: pytest.FixtureRequest, api: dict[str, ApiClient], run_tag: str,
                                    created: Any, profile: Profile, user_ids: dict[str, int],
                                    private_reply_parent: tuple[int, str, bool]) -> tuple[int, ApiResponse]:
    """(the public parent's id, the 201 of member's reply to it private to moderator), posted once per run and
    charged to the suites' share whoever asks first (the privacy model's share holds exactly its own subtree).
    placements (issue 44): its visibility and body travel in the private form the seed draws (suites/contract/
    placed_slots.py, seed_draws.PRIVATE_REPLY_FORMS: JSON, the query form beside a JSON body of the recipients, the
    parameter winning), so each private form meets a comment for parent as it meets the question and the answer.
    close2 (issue 44): the run's seed draws the form of moderator's id ("Each item has id (integer or string)":
    seed_draws.PUBLIC_REPLY_RECIPIENT_FORMS), so consecutive builds send each form on this path too."""
    parent = private_reply_parent[0]
    moderator: int | str = user_ids["moderator"]
    if public_reply_recipient_form_for_seed(_run_seed(request)) == "string":
        moderator = str(moderator)

    def post(form: str) -> ApiResponse:  # placements: the privacy in the form the seed draws (placed_forms.py)
        budget = ApiClient.write_budget
        with budget.charged_to(SUITES) if budget is not None else contextlib.nullcontext():
            return post_private(api["member"], parent, run_tag, created, PRIVATE_REPLY_TEXT, profile, [moderator],
                                form)

    cache: dict[str, ApiResponse] = request.session.stash.setdefault(_CACHE, {})
    if "reply" not in cache:
        cache["reply"] = placed(request, profile, "private_reply_to_public_comment",
                                "private reply to a public comment", post)
    return parent, cache["reply"]


@pytest.fixture(scope="session")
def recipient_reply_under_public(request: pytest.FixtureRequest, api: dict[str, ApiClient], run_tag: str,
                                 created: Any, profile: Profile,
                                 private_reply_to_public_comment: tuple[int, ApiResponse]) -> ApiResponse:
    """moderator's (the recipient's) reply without privacy fields to the shared private reply under the public
    comment, posted once per run: it inherits visibility recipients and recipients [moderator] (COMMENT-3) through a
    private reply whose own parent is public. Comment privacy's recipient reply (its COMMENT-3 check and
    OBS-REPLY-AUDIENCE read the same request, which answered member's comment private to moderator on the answer) and
    the privacy model's reply below that thread read this one write (histories5: the model's own reply there was
    the write the send of a reply of its subtree to moderation now takes). Under member's private comment on the
    shared answer where the private reply was not created. The response, whatever it is."""
    _, reply = private_reply_to_public_comment
    parent = reply_id(reply) or int(request.getfixturevalue("private_comment_on_answer").id or 0)

    def post() -> ApiResponse:
        budget = ApiClient.write_budget
        with budget.charged_to(SUITES) if budget is not None else contextlib.nullcontext():
            return post_comment(api["moderator"], parent, run_tag, created, text="recipient's reply")

    cache: dict[str, ApiResponse] = request.session.stash.setdefault(_CACHE, {})
    if "recipient" not in cache:
        cache["recipient"] = once_per_target(request, profile, "shared recipient's reply below a public comment",
                                             post)
    return cache["recipient"]


def reply_id(resp: ApiResponse) -> int | None:
    """The new comment's id of a 201, else None."""
    return new_id(resp) if resp.status == 201 else None
