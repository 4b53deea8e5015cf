"""What the second holder's unfavorite of favorite_node_id tells (test_node_actions.py): the node has two holders
(member, and admin where the profile says so) and the run's seed draws which unfavorites first
(qaconform/pytest/seed_draws.py ``UNFAVORITE_ORDERS``). These helpers judge an answer that looks like a refusal or a
zero count, to charge it to the rule it breaks: per-user favorites, or the count; and the record of each holder's
unfavorite naming its caller (:func:`expect_callers_own_favorite`)."""

from __future__ import annotations

from typing import Any

import pytest
from action_records import action_of, assert_action_node, user_is

from qaconform.pytest import one_shots
from qaconform.pytest.outcomes import SkipKind, expect, skip
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.fixture_state import FixtureState


def made_yet_unsuccessful(resp: ApiResponse, caller: ApiClient, user_ids: dict[str, int]) -> bool:
    """A 200 with success false whose favorite action is the caller's own, canceled by the caller: the move was made
    (a refusal by state, or a repeat answered with an earlier action, carries another user's cancel or none)."""
    if resp.status != 200 or not one_shots.refused_by_state(resp):
        return False
    result = resp.json().get("result")
    action = result.get("favoriteAction") if isinstance(result, dict) else None
    return (isinstance(action, dict) and action.get("canceled") is True
            and user_is(action.get("user"), caller, user_ids)
            and user_is(action.get("canceledByUser"), caller, user_ids))


def count_zero_with_admins_favorite(admin: ApiClient, node: int, member_call: ApiResponse) -> None:
    """member's unfavorite answered favoriteCount 0 where admin's favorite must survive it. Admin's own unfavorite
    tells which stated rule the 0 breaks (blind round of issue 44: a count zeroed, not lowered by one, was charged to
    ACTION-UNFAVORITE-PER-USER): refused by the node's state, member's call removed admin's favorite too (favorites
    are per user); accepted, admin's favorite was still there, so 0 was not the node's updated count."""
    second = admin.put(f"node/{node}/unmarkfavorite.json", operation="unmarkFavorite")
    still_there = second.status == 200 and not one_shots.refused_by_state(second)
    expect(not still_there, "ACTION-UNFAVORITE-COUNT",
           f"member's unfavorite of node {node} answered favoriteCount 0, yet admin's favorite of it was still there "
           f"(admin's unfavorite right after it: {second.status}): the count returned must be the node's updated "
           f"count, one less, not 0", member_call)
    expect(not one_shots.refused_by_state(second), "ACTION-UNFAVORITE-PER-USER",
           f"member's unfavorite of node {node} left favoriteCount 0 and admin's own unfavorite is then refused "
           f"by the node's state ({second.status}), though admin's favorite of it (the profile: "
           f"favorite_also_held_by, the node known fresh) must survive member's call: favorites are per user", second)


def expect_callers_own_favorite(action: dict[str, Any], r: ApiResponse, caller: ApiClient, who: str,
                                user_ids: dict[str, int], when: str = "",
                                canceler_rules: str | tuple[str, ...] = "ACTION-UNFAVORITE-PER-USER") -> None:
    """The record of ``who``'s unfavorite names its caller twice: canceledByUser is the caller (``canceler_rules``:
    the per-user rule, and for member's own call the acting user's too), and the favorite action canceled is the
    caller's own (user), not another holder's ("Favorites are per user; the user is taken from the credentials").
    seed15: one check for every holder's call (member's, admin's before or after it), where three copies drifted.
    round60 (issue 44): a record naming another holder breaks the acting user's rule as well, whichever holder calls
    ("The acting user is taken from the credentials. Favorites, for example, belong to that user."): a server that
    removed the caller's favorite but read the record's user from the node's oldest favorite failed the per-user
    rule alone, and AUTH-ACTING-USER, the rule it breaks, went unnamed.
    ``when``: the order the call was made in, for the message."""
    named = f"{who} ({caller.username}, id {user_ids.get(caller.role)})"
    expect(user_is(action.get("canceledByUser"), caller, user_ids), canceler_rules,
           f"{who} unfavorited{when}, so canceledByUser must be {named}", r)
    expect(user_is(action.get("user"), caller, user_ids), ("ACTION-UNFAVORITE-PER-USER", "AUTH-ACTING-USER"),
           f"{who}'s unfavorite{when} must cancel {who}'s own favorite action (user {named}), not another holder's: "
           f"favorites belong to the user of the credentials", r)


def judge_unfavorite_canceled(action: dict[str, Any], r: ApiResponse, node: int, who: str) -> None:
    """The stated effect of an unfavorite on its record, judged for every account the run has unfavorite (actors,
    issue 44: member's, and admin's on the same node after it: an effect wrong in one account's branch only)."""
    expect(action.get("canceled") is True, "ACTION-UNFAVORITE-CANCELED",
           f"{who}'s unfavorite: the favorite action must come back with canceled true", r)
    expect(isinstance(action.get("canceledByUser"), dict) and isinstance(action.get("canceledDate"), str),
           "ACTION-CANCELED-FIELDS",
           f"{who}'s unfavorite: a canceled action carries canceledByUser and canceledDate", r)
    # its verb ("favorited" is a value seen, not stated) is recorded by OBS-ACTION-VERBS
    assert_action_node(action, node, r, "the unfavorited node ")


def admin_went_first(first: ApiResponse, member_call: ApiResponse, admin: ApiClient, profile: Any,
                      user_ids: dict[str, int], contract: Any, marked_rules: tuple[str, ...],
                      request: pytest.FixtureRequest) -> None:
    """The "admin first" order: admin's unfavorite while member's (newer) favorite stands must be admin's own
    favorite action canceled by admin; member's unfavorite after it must still find member's favorite (the profile's
    fixture, known fresh) and give the count one lower. Admin holding none (refused by the node's state) is the
    profile's to say: not checked."""
    node = profile.fixtures.favorite_node_id
    if first.status != 200 or one_shots.refused_by_state(first):
        skip(SkipKind.MISSING_FIXTURE,
             f"not checked: needs fixture favorite_node_id held as a favorite by admin too: admin's unfavorite of "
             f"node {node}, sent first this run (the seed's order), gave {first.status}"
             f"{' with success: false' if first.status == 200 else ''}; member's own unfavorite is checked by the "
             f"other tests", fixtures=["favorite_node_id"])
    action = action_of(first, "favoriteAction", "favorite-result", contract, marked_rules, perm=("PERM-UNFAVORITE",))
    expect_callers_own_favorite(action, first, admin, "admin", user_ids,
                                f" of node {node} (before member, while member's favorite of it stands)")
    judge_unfavorite_canceled(action, first, node, "admin")
    count = first.json()["result"].get("favoriteCount")
    if count == 0 and not isinstance(count, bool):  # as in member-first order: no favorite left for member to remove
        skip(SkipKind.MISSING_FIXTURE,
             f"not checked: after admin's unfavorite of node {node} (sent first this run) its favoriteCount is 0, so "
             f"member has no favorite there whose removal could lower it (an earlier run may have removed it; a site "
             f"that answers a repeated unfavorite with the earlier action shows this too)",
             fixtures=["favorite_node_id"])
    state = one_shots.doctor_state(request.getfixturevalue("qc_target").diagnosis, "favorite_node_id")
    if one_shots.refused_by_state(member_call):
        expect(state is not FixtureState.IN_STATE, "ACTION-UNFAVORITE-PER-USER",
               f"after admin's unfavorite of node {node}, member's own unfavorite is refused as if member held no "
               f"favorite there, though the node was known fresh (member's favorite, the profile's fixture): admin's "
               f"call removed member's favorite", member_call)
        skip(SkipKind.MISSING_FIXTURE, f"not checked: member's unfavorite of node {node} after admin's was refused "
             f"by the node's state and the doctor did not know the node fresh", fixtures=["favorite_node_id"])
    action_of(member_call, "favoriteAction", "favorite-result", contract, marked_rules, perm=("PERM-UNFAVORITE",))
    expect(isinstance(count, int) and member_call.json()["result"].get("favoriteCount") == count - 1,
           "ACTION-UNFAVORITE-COUNT",
           f"after admin's unfavorite the count was {count}; member removing its own favorite must give "
           f"{count - 1 if isinstance(count, int) else '(count - 1)'}", member_call)
