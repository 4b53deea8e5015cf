"""An action right after another account's call on the same node (paths14, issue 44 item 2).

Every accepted action of the run followed its own caller's action on the node, or none: a server that builds an
action's record, or decides its state, from the node's last caller (an audit column written at the door before the
permission check, refused calls included) passed every record check. Here, with no accepted write more: admin sends
member's answer to moderation (suites/conftest.py ``answer_sent_to_mod_by_admin``), novice's lock of it is refused
(one_shot_calls.py ``refused_before_admin_lock``), and admin's shared lock of it comes right after (``locked_by``):
novice must be refused, and admin's lock record must name admin, "taken from the credentials".

Not judged (a skip saying why): admin's send failed (admin's lock then acts on another node), admin's lock not
answered 200 (its own tests say why).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from action_records import user_is

from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.refusals import refused, why_not_refused
from qaconform.target.client import ApiClient, ApiResponse

pytestmark = [pytest.mark.actions, pytest.mark.writes]


def _refusal(request: pytest.FixtureRequest, locked_by: Callable[[str], Any]) -> tuple[ApiResponse, Any]:
    """novice's refused lock and admin's lock right after it (asking for the lock makes the refusal first)."""
    lock = locked_by("admin")
    before: ApiResponse | None = request.getfixturevalue("refused_before_admin_lock")
    if before is None:
        skip(SkipKind.OTHER, "not checked: admin's send of member's answer to moderation was not accepted, so admin's "
                             "lock acts on another node and no other account's call comes right before it")
    return before, lock


@pytest.mark.rule("PERM-LOCK")
def test_another_accounts_lock_right_after_admins_send_is_refused(request: pytest.FixtureRequest,
                                                                   locked_by: Callable[[str], Any]) -> None:
    """"Lock comments on posts; for the caller's own node, Lock comments on own posts": novice holds neither and the
    answer is member's, so its lock is refused, whatever admin did to the node just before (a 404 is a refusal too:
    whether novice sees a node in moderation is not stated)."""
    before, _lock = _refusal(request, locked_by)
    if not refused(before):
        fail(["PERM-LOCK"], f"novice's lock of member's answer, right after admin sent it to moderation, must be "
             f"refused (4xx): novice holds no lock permission; {why_not_refused(before)}", before)


@pytest.mark.rule("AUTH-ACTING-USER")
def test_a_lock_right_after_another_accounts_refused_call_names_its_caller(
        request: pytest.FixtureRequest, locked_by: Callable[[str], Any], api: dict[str, ApiClient],
        user_ids: dict[str, int]) -> None:
    """"The acting user is taken from the credentials": admin's lock record names admin although novice's refused
    lock of the node came last before it."""
    _before, lock = _refusal(request, locked_by)
    resp: ApiResponse = lock.resp
    if resp.status != 200:
        skip(SkipKind.OTHER, f"not checked: admin's lock was answered {resp.status} (its own tests judge it)")
    body = resp.json()
    record = (body.get("result") or {}).get("lockAction") if isinstance(body, dict) else None
    if not isinstance(record, dict):
        skip(SkipKind.OTHER, "not checked: admin's lock returned no lockAction record (ACTION-WRAPPERS judges it)")
    expect(user_is(record.get("user"), api["admin"], user_ids), "AUTH-ACTING-USER",
           f"the lock's user must be admin ({api['admin'].username}), who called, not novice, whose refused lock of "
           f"node {lock.node} came right before; got {record.get('user')!r}", resp)
