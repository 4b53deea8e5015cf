"""Every comment the description refuses, on every parent the run reaches (issue 44, combos2; the combinations and
what each expects: comment_refusals.py). One request per combination, none accepted by a conforming target: a
permission or rule 7 checked on one path only (under a locked answer of another's, on the caller's own comment, on a
question it wrote) is caught where it breaks. A refusal is judged by qaconform/pytest/refusals.py: a stated status
and an answer from the interface itself, never a login page a redirect led to.
"""

from __future__ import annotations

from typing import Any

import pytest
from action_cases import POOL
from action_scene import Scene
from comment_refusals import CommentCase, cases_of, other_typed

from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.refusals import off_the_interface, shown, why_not_refused
from qaconform.pytest.support import post_comment, wire_value
from qaconform.target.client import CHARSET, ApiClient
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.comments, pytest.mark.writes]

POOL_BY_KEY = {n.key: n for n in POOL}
DENIED_STATUS = "PERM-DENIED-STATUS"
NO_EFFECT = "PERM-DENIED-NO-EFFECT"
"""Named so a fault's self-test makes these refusals: the run's late reader judges what they left
(suites/contract/test_readback.py, refusals2); no test here blames it."""
PRIVACY_SINCE = "2.16.0"
"""Visibility and recipients were added in 2.16.0 (rules 1-7): an older target refuses no option it does not know."""


@pytest.fixture(scope="session")
def comment_scene(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
                  created: Any, user_ids: dict[str, int]) -> Scene:
    return Scene(request, api, question_id, run_tag, created, user_ids)


def _refused(case: CommentCase, scene: Scene, profile: Profile, user_ids: dict[str, int]) -> None:
    """Post the case's comment once on its parent and judge the answer."""
    if case.option != "none" and not profile.supports(PRIVACY_SINCE):
        if case.role != "anonymous":  # anonymous is refused whatever fields an older server ignores
            skip(SkipKind.CONFIGURATION, f"disabled by configuration: visibility and recipients were added in "
                                         f"{PRIVACY_SINCE}, the target runs {profile.service_version}")
    pool = POOL_BY_KEY[case.node]
    scene.relation_holds(pool, case)
    visibility = None if case.option == "none" else wire_value(profile, case.option)
    recipients = [user_ids["moderator"]] if case.option == "recipients" else None
    node = scene.node(pool.key)
    client = scene.api[case.role]
    typing = other_typing(client) if other_typed(case) else None
    resp = post_comment(client, node, scene.run_tag, scene.created, text=f"comment refusal matrix {case.label}",
                        visibility=visibility, recipients=recipients, headers=typing)
    why = why_not_refused(resp, case.statuses)
    if why is None:
        return
    rules = [case.rule, DENIED_STATUS] if off_the_interface(resp) or resp.status >= 500 else [case.rule]
    fail(rules, f"{case.label}: {case.role}'s comment (visibility {case.option}) on {case.kind} {node} "
         f"({case.state}; the caller: {case.relation}) is refused by the description, expected {shown(case.statuses)} "
         f"(any 4xx where the parent is not as created: whether it takes comments is not stated), {why}"
         f"{'' if typing is None else ' (the JSON body typed ' + repr(typing['Content-Type']) + ')'}", resp)


def other_typing(client: ApiClient) -> dict[str, str]:
    """The JSON Content-Type the run's charset draw does not give ``client``'s bodies (comment_refusals.other_typed)."""
    return {"Content-Type": "application/json" + ("" if client.role in ApiClient.charset_roles else CHARSET)}


@pytest.mark.rule("AUTH-ANONYMOUS-WRITES", DENIED_STATUS)
@pytest.mark.parametrize("case", cases_of("AUTH-ANONYMOUS-WRITES"), ids=lambda c: c.label)
def test_an_anonymous_comment_is_refused_on_every_parent_with_every_option(
        case: CommentCase, comment_scene: Scene, profile: Profile, user_ids: dict[str, int]) -> None:
    _refused(case, comment_scene, profile, user_ids)


@pytest.mark.rule("COMMENT-7-NO-PRIVATE-PERMISSION", DENIED_STATUS, NO_EFFECT)
@pytest.mark.parametrize("case", cases_of("COMMENT-7-NO-PRIVATE-PERMISSION"), ids=lambda c: c.label)
def test_a_private_option_without_use_private_comments_is_refused_on_every_parent(
        case: CommentCase, comment_scene: Scene, profile: Profile, user_ids: dict[str, int]) -> None:
    _refused(case, comment_scene, profile, user_ids)


@pytest.mark.rule("COMMENT-7-NO-OPTION-PERMISSION", DENIED_STATUS, NO_EFFECT)
@pytest.mark.parametrize("case", cases_of("COMMENT-7-NO-OPTION-PERMISSION"), ids=lambda c: c.label)
def test_a_private_option_the_caller_lacks_is_refused_on_every_parent(
        case: CommentCase, comment_scene: Scene, profile: Profile, user_ids: dict[str, int]) -> None:
    _refused(case, comment_scene, profile, user_ids)


@pytest.mark.rule("AUTH-BAD-CREDENTIALS", DENIED_STATUS, NO_EFFECT)
@pytest.mark.parametrize("case", cases_of("AUTH-BAD-CREDENTIALS"), ids=lambda c: c.label)
def test_a_comment_with_a_wrong_password_is_refused_on_every_parent_with_every_option(
        case: CommentCase, comment_scene: Scene, profile: Profile, user_ids: dict[str, int]) -> None:
    """refusals2 (issue 44): member's username with a wrong password, on every parent anonymous is placed on."""
    _refused(case, comment_scene, profile, user_ids)
