"""seed15 (issue 44): the record of a holder's unfavorite naming its caller is judged by one helper
(suites/scenarios/favorite_holders.py ``expect_callers_own_favorite``) for every holder's call: member's, admin's
before it (the "admin first" draw) and admin's after it, where three copies of the same two checks had drifted."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from qaconform.pytest.outcomes import RuleFailure

SCENARIOS = Path(__file__).resolve().parents[1] / "suites" / "scenarios"
PER_USER = "ACTION-UNFAVORITE-PER-USER"
IDS = {"member": 7, "admin": 1}
MEMBER = SimpleNamespace(username="member1", role="member")
ADMIN = {"id": 1, "username": "admin1"}
OWN = {"id": 7, "username": "member1"}


@pytest.fixture
def helper(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(SCENARIOS))  # the suites import their helpers by plain name, as pytest puts them
    import favorite_holders

    return favorite_holders.expect_callers_own_favorite


def test_a_record_naming_the_caller_twice_passes(helper: Any) -> None:
    helper({"user": OWN, "canceledByUser": OWN}, None, MEMBER, "member", IDS)


def test_another_canceler_fails_the_rules_given_and_another_holders_action_both_rules(helper: Any) -> None:
    both = (PER_USER, "AUTH-ACTING-USER")
    with pytest.raises(RuleFailure) as canceler:
        helper({"user": OWN, "canceledByUser": ADMIN}, None, MEMBER, "member", IDS, canceler_rules=both)
    assert canceler.value.rules == both and "canceledByUser must be member (member1, id 7)" in canceler.value.message
    with pytest.raises(RuleFailure) as holder:
        helper({"user": ADMIN, "canceledByUser": OWN}, None, MEMBER, "member", IDS, " of node 5 (before admin)",
               canceler_rules=both)
    # round60 (issue 44): the record naming another holder breaks the acting user's rule too ("The acting user is
    # taken from the credentials. Favorites, for example, belong to that user."), whichever holder calls
    assert holder.value.rules == both, "another holder's favorite in the record is both rules'"
    admin = SimpleNamespace(username="admin1", role="admin")
    with pytest.raises(RuleFailure) as admins:  # admin's call: its canceler judged by the rules given (the default)
        helper({"user": ADMIN, "canceledByUser": OWN}, None, admin, "admin", IDS, " of node 5 (after member's)")
    assert admins.value.rules == (PER_USER,), "admin's canceledByUser: the rules given (the per-user rule by default)"
    with pytest.raises(RuleFailure) as admins_holder:  # ... and its record naming another holder: both, as member's
        helper({"user": OWN, "canceledByUser": ADMIN}, None, admin, "admin", IDS)
    assert admins_holder.value.rules == both
    assert "member's unfavorite of node 5 (before admin) must cancel member's own" in holder.value.message


def test_the_suites_check_a_holders_record_in_one_place() -> None:
    """The expectation that an unfavorite's record is the caller's own favorite action is the helper's alone (on main
    before seed15: three copies, in favorite_holders.py and test_node_actions.py, their messages drifted apart)."""
    check = re.compile(r'expect\(user_is\(action\.get\("user"\), \w+, user_ids\), \(?"' + PER_USER + '"')
    copies = {p.name: len(check.findall(p.read_text())) for p in SCENARIOS.glob("*.py")}
    assert {name: n for name, n in copies.items() if n} == {"favorite_holders.py": 1}, (
        "a holder's record naming its caller is checked again beside favorite_holders.expect_callers_own_favorite: "
        "call the helper instead")
