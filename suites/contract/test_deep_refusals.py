"""Refused comments and refused node actions under a reply (issue 44, refusals3; the combinations and why each:
deep_refusals.py). Operation 1's rules and the permission table hold at every depth, so a check made for top-level
threads only (a reply's permission read from its thread's first comment, credentials checked before the thread is
walked) is caught where it breaks. One request per combination the depth-1 matrices do not already send at that
depth, none accepted by a conforming target; judged by qaconform/pytest/refusals.py as those matrices judge.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pytest
from action_cases import Case
from action_scene import Scene
from comment_refusals import refusal
from deep_refusals import POST, REPLY_OF, DeepCase, cases, node_at
from test_action_matrix import STATE_REFUSALS

from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.refusals import off_the_interface, shown, why_not_refused
from qaconform.pytest.support import post_comment, refused_in_body, wire_value
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.writes]

DENIED_STATUS = "PERM-DENIED-STATUS"
PRIVACY_SINCE = "2.16.0"
"""Visibility and recipients were added in 2.16.0 (as test_comment_refusal_matrix.py)."""


def _rule(case: DeepCase) -> str:
    if case.what == POST:
        found = refusal(case.role, case.option)
        assert found is not None, f"{case.label} is allowed, so it is no refusal case"
        return found[0]
    return Case(case.what, case.role, case.relation, "comment", case.state).rule


def _params(what: str) -> list[Any]:
    return [pytest.param(c, id=c.label, marks=pytest.mark.rule(_rule(c), DENIED_STATUS))
            for c in cases() if (c.what == POST) == (what == POST)]


@pytest.fixture(scope="session")
def deep_scene(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
               created: Any, user_ids: dict[str, int]) -> Scene:
    return Scene(request, api, question_id, run_tag, created, user_ids)


def _reply(scene: Scene, case: DeepCase) -> int:
    """The case's node, once the run's writes made it a reply at the case's depth (else a skip saying why)."""
    pool = node_at(case.node)
    scene.relation_holds(pool, case)
    parent_role = REPLY_OF.get(case.node)
    if case.node == "locked_comment":  # locks25: its parent's writer is drawn by the run's seed
        parent_role = scene.fixture("locked_comment_parent")
    if case.depth >= 2 and parent_role is not None:
        parent = scene.fixture("comment_of")(parent_role)
        answer = int(scene.fixture("shared_answer"))
        if not (parent.resp.status == 201 and parent.node == answer and parent.id):
            skip(SkipKind.OTHER, f"not judged: {parent_role}'s shared comment is not a 201 under the shared answer "
                                 f"({parent.resp.status}), so {case.node} is no reply at depth {case.depth} here")
    return scene.node(case.node)


def _where(case: DeepCase, node: int) -> str:
    return (f"{case.label}: {case.role} ({case.relation}) on comment {node}, a reply at depth {case.depth} "
            f"({case.state})")


@pytest.mark.comments
@pytest.mark.parametrize("case", _params(POST))
def test_a_refused_comment_is_refused_under_a_reply(case: DeepCase, deep_scene: Scene, profile: Profile,
                                                    user_ids: dict[str, int]) -> None:
    if case.option != "none" and not profile.supports(PRIVACY_SINCE) and case.role != "anonymous":
        skip(SkipKind.CONFIGURATION, f"disabled by configuration: visibility and recipients were added in "
                                     f"{PRIVACY_SINCE}, the target runs {profile.service_version}")
    node = _reply(deep_scene, case)
    visibility = None if case.option == "none" else wire_value(profile, case.option)
    recipients = [user_ids["moderator"]] if case.option == "recipients" else None
    found = refusal(case.role, case.option)
    assert found is not None
    rule, statuses = found
    resp = post_comment(deep_scene.api[case.role], node, deep_scene.run_tag, deep_scene.created,
                        text=f"deep refusal {case.label}", visibility=visibility, recipients=recipients)
    _judge(case, node, resp, rule, statuses, "comment (visibility " + case.option + ")")


@pytest.mark.actions
@pytest.mark.parametrize("case", _params("action"))
def test_a_refused_node_action_is_refused_on_a_reply(case: DeepCase, deep_scene: Scene) -> None:
    node = _reply(deep_scene, case)
    action = Case(case.what, case.role, case.relation, "comment", case.state)
    statuses = (401, 403) if action.state_met else (401, 403, *STATE_REFUSALS)
    resp = deep_scene.call(case.what, case.role, node)
    _judge(case, node, resp, action.rule, statuses, case.what)


def _judge(case: DeepCase, node: int, resp: ApiResponse, rule: str, statuses: Collection[int], what: str) -> None:
    """Fail naming the rule (an answer from off the interface or a 5xx as the matrices name it) unless refused."""
    why = why_not_refused(resp, statuses)
    if why is None:
        return
    off = off_the_interface(resp) or resp.status >= 500
    if case.what == POST:  # as test_comment_refusal_matrix.py judges
        rules = [rule, DENIED_STATUS] if off else [rule]
    else:  # as test_action_matrix.py's judge_permission
        rules = [DENIED_STATUS] if off or refused_in_body(resp) else [rule]
    fail(rules, f"{_where(case, node)}: its {what} is refused by the description at every depth, expected "
                f"{shown(statuses)}, {why}", resp)
