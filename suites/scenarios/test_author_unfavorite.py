"""The node author's own unfavorite of favorite_node_id, judged on its own response (round62, issue 44: ownership
decided on the wrong relation, a favorite holder).

``author_unfavorite_first`` (suites/one_shot_calls.py) sends it once per run, before every holder's unfavorite: the
author (moderator on the reference data) holds no favorite on the node. No outcome is stated for a node that is not
the caller's favorite, so a refusal, or a 200 without a favorite action, is not judged. A favorite action in an
accepted answer is another matter: "Favorites are per user; the user is taken from the credentials", so the action
the call answers with must be the author's own. Before this test, only the holders' later unfavorites judged that
call, and only through what it removed: a call that answered (or canceled) a holder's favorite action and left the
holders' own calls a 404 failed the holders' shape test, never the per-user rule; one that answered a holder's
action and removed nothing was not seen at all.
"""

from __future__ import annotations

from typing import Any

import pytest
from favorite_holders import expect_callers_own_favorite

from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.target.client import ApiClient, ApiResponse, TargetError

pytestmark = [pytest.mark.actions, pytest.mark.writes]


@pytest.mark.rule("ACTION-UNFAVORITE-PER-USER", "AUTH-ACTING-USER")
def test_an_accepted_unfavorite_by_the_nodes_author_answers_the_authors_own_favorite_action(
        author_unfavorite_first: dict[str, ApiResponse], api: dict[str, ApiClient],
        user_ids: dict[str, int]) -> None:
    if not author_unfavorite_first:
        skip(SkipKind.MISSING_FIXTURE, "not checked: no account that holds Mark as favorite and no favorite on "
                                       "favorite_node_id wrote it (admin's and moderator's question and answer lists)")
    judged = 0
    for role, resp in author_unfavorite_first.items():
        action = _favorite_action(resp)
        if action is None:
            continue
        judged += 1
        # the one check of a holder's record (favorite_holders.py): canceledByUser and user name the caller
        expect_callers_own_favorite(action, resp, api[role], f"{role}, the node's author holding no favorite on it,",
                                    user_ids, " (accepted)", canceler_rules="ACTION-UNFAVORITE-PER-USER")
    if not judged:
        skip(SkipKind.OTHER, "not judged: the author's unfavorite answered no favorite action (refused, or 200 "
                             "without one): no outcome is stated for a node that is not the caller's favorite")


def _favorite_action(resp: ApiResponse) -> dict[str, Any] | None:
    """The favorite action of an accepted (2xx) answer, or None."""
    if not 200 <= resp.status < 300:
        return None
    try:
        body = resp.json()
    except TargetError:  # not JSON: no action to judge
        return None
    result = body.get("result") if isinstance(body, dict) else None
    action = result.get("favoriteAction") if isinstance(result, dict) else None
    return action if isinstance(action, dict) else None
