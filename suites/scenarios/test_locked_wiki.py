"""A wiki node locked right before its unwikify (accept23, issue 44: a rule after a lock).

"Wikified node (wiki true) | PUT cancelwiki | ... | Returns the wiki action with canceled true" and "Not wiki"
name no exception for a locked node, yet no run unwikified one: round66-cancelwiki-locked-node-not-canceled (the
locked node's path answering canceled false) passed. Now the drawn unwikifier locks the node it unwikifies, right
before (suites/one_shot_calls.py ``wiki_locked_first``, one accepted write of the suites' share), and the unwikify's
own tests (test_node_actions.py) judge the wiki action and the read-back on a locked node. This module judges that
lock: "Unlocked node | PUT lock with prompt | Caller has Lock comments on posts ... | Locked | The prompt is stored
as extra of the returned lock action."

Not judged (a skip saying why): the lock was not sent (the share had no room for it and the unwikify after it).
"""

from __future__ import annotations

from typing import Any

import pytest
from action_records import action_of, assert_action_node, assert_action_valid, user_is

from qaconform.pytest.one_shots import WIKI_LOCK_PROMPT
from qaconform.pytest.outcomes import SkipKind, expect, skip
from qaconform.pytest.support import same_plain_text
from qaconform.target.client import ApiClient, ApiResponse

pytestmark = [pytest.mark.actions, pytest.mark.writes]


@pytest.fixture
def marked_rules(request: pytest.FixtureRequest) -> tuple[str, ...]:
    """The rule ids the requesting test names (its markers), which action_records.py's checks choose among."""
    return tuple(dict.fromkeys(str(a) for m in request.node.iter_markers("rule") for a in m.args))


@pytest.mark.rule("PERM-LOCK", "ACTION-LOCK-EXTRA", "AUTH-ACTING-USER", "ACTION-WRAPPERS", "ACTION-RECORD-SHAPE",
                  "ACTION-NODE-ID", "SHAPE-LOCK-NODE", "SHAPE-ACTIONDATE")
def test_the_unwikifiers_lock_of_the_wiki_node_before_its_unwikify(
        wiki_locked_first: ApiResponse | None, wiki_unwikified: Any, wiki_unwikifier: str, api: dict[str, ApiClient],
        user_ids: dict[str, int], run_tag: str, contract: Any, marked_rules: tuple[str, ...]) -> None:
    resp = wiki_locked_first
    if resp is None:
        skip(SkipKind.WRITE_BUDGET, "not checked: the lock of the wiki node before its unwikify was not sent (the "
                                    "suites' share held no room for it and the unwikify after it)")
    role = wiki_unwikifier
    action = action_of(resp, "lockAction", "lock-result", contract, marked_rules, perm=("PERM-LOCK",))
    assert_action_valid(contract, action, "lockAction", marked_rules)
    assert_action_node(action, int(wiki_unwikified.node), resp)
    prompt = f"{WIKI_LOCK_PROMPT} [{run_tag}]"  # as wiki_locked_first sent it
    expect(same_plain_text(action.get("extra"), prompt), "ACTION-LOCK-EXTRA",
           f"extra must equal the prompt {prompt!r}, got {action.get('extra')!r}", resp)
    expect(user_is(action.get("user"), api[role], user_ids), "AUTH-ACTING-USER",
           f"{role} locked, so the lock action's user must be {api[role].username}", resp)
