"""Fixtures the suites share. The target is known only through the profile (architecture rule 3)."""

from __future__ import annotations

from typing import Any

import pytest

from qaconform.client import ApiClient
from qaconform.profile import Profile, Visibility
from qaconform.support import new_id, post_answer


@pytest.fixture(scope="session")
def question_id(profile: Profile) -> int:
    return profile.fixtures.question_id


@pytest.fixture(scope="session")
def vis(profile: Profile) -> Visibility:
    """Wire values of the visibility options for this target."""
    return profile.visibility


@pytest.fixture(scope="session")
def shared_answer(api: dict[str, ApiClient], question_id: int, run_tag: str, created: Any) -> int:
    """One answer by member under the fixture question, shared by read-mostly tests of a session."""
    resp = post_answer(api["member"], question_id, run_tag, created, text="shared answer")
    assert resp.status == 201, f"member could not post an answer to the fixture question\n{resp.describe()}"
    return new_id(resp)


@pytest.fixture
def fresh_answer(member: ApiClient, question_id: int, run_tag: str, created: Any) -> int:
    """A new answer by member under the fixture question, for tests that change what is under it."""
    resp = post_answer(member, question_id, run_tag, created)
    assert resp.status == 201, f"member could not post an answer to the fixture question\n{resp.describe()}"
    return new_id(resp)


def _one_shot(profile: Profile, name: str) -> int:
    value = getattr(profile.fixtures, name, None)
    if value is None:
        pytest.skip(f"fixture {name} not in profile")
    return int(value)


@pytest.fixture(scope="session")
def unfavorite_once(api: dict[str, ApiClient], profile: Profile) -> Any:
    """member unfavorites favorite_node_id ONCE per run; every suite reads this one response.

    A favorite can be removed only once and the interface cannot create one, so a second call anywhere in the run
    would meet a node that is no longer a favorite (see /work/briefs/coordination.md).
    """
    node = _one_shot(profile, "favorite_node_id")
    return api["member"].put(f"node/{node}/unmarkfavorite.json", operation="unmarkFavorite")


@pytest.fixture(scope="session")
def cancelwiki_own_once(api: dict[str, ApiClient], profile: Profile) -> Any:
    """member unwikifies its own member_wiki_node_id ONCE per run (one-shot: the node is no longer wiki after)."""
    node = _one_shot(profile, "member_wiki_node_id")
    return api["member"].put(f"node/{node}/cancelwiki.json", operation="cancelWiki")


@pytest.fixture(scope="session")
def cancelwiki_once(api: dict[str, ApiClient], profile: Profile) -> Any:
    """moderator (Mark as community wiki) unwikifies wiki_node_id ONCE per run (one-shot, like the others)."""
    node = _one_shot(profile, "wiki_node_id")
    return api["moderator"].put(f"node/{node}/cancelwiki.json", operation="cancelWiki")
