"""suites/contract/allowed_actions.py (options, issue 44): which of the ledger's denied actions the late reader blames,
and which it leaves out."""

from __future__ import annotations

from allowed_actions import RULES, allowed_calls, options_of

from qaconform.pytest.readback import Write


def _denied(by: str, node: int, action: str, **fields: str) -> Write:
    return Write("refused", by, node, None, dict(fields), "other", action, "t", 403)


def test_an_allowed_callers_denied_action_is_blamed_on_its_permission_rule_whatever_the_option() -> None:
    writes = [_denied("moderator", 7, "sendToMod.json", v1="true"), _denied("admin", 8, "lock.json", prompt="p"),
              Write("acted", "admin", 9, action="cancelwiki.json")]
    denied, allowed, left = allowed_calls(writes)
    assert [(w.by, rule) for w, rule in denied] == [("moderator", "PERM-SENDTOMOD"), ("admin", "PERM-LOCK")]
    assert allowed == 3 and left == []
    assert options_of(denied[0][0]) == "v1=true" and options_of(denied[1][0]) == "no option"


def test_member_is_judged_on_its_own_nodes_and_for_unfavorite_only() -> None:
    writes = [Write("answer", "member", 20, 1), _denied("member", 20, "lock.json", wrap="true"),
              _denied("member", 21, "lock.json"), _denied("member", 22, "unmarkfavorite.json"),
              _denied("novice", 20, "lock.json"), _denied("member", 20, "sendToMod.json")]
    denied, allowed, left = allowed_calls(writes)
    assert [(w.node, rule) for w, rule in denied] == [(20, "PERM-LOCK-OWN"), (22, "PERM-UNFAVORITE")]
    assert allowed == 2 and len(left) == 3  # a node member did not write, novice's lock, member's send


def test_every_rule_the_reader_can_blame_is_a_permission_rule() -> None:
    assert RULES == ("PERM-CANCELWIKI", "PERM-CANCELWIKI-OWN", "PERM-LOCK", "PERM-LOCK-OWN", "PERM-SENDTOMOD",
                     "PERM-UNFAVORITE")
