"""The list faults of issue 44 change exactly what they say, and only on the path they name: a permission decided
differently once a query parameter is given (``Override.when``), a response kept by URL, a count kept per user."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from ref_helpers import Ref, start_ref

LIST_FAULTS = ("groups-projection-open", "experts-sort-open", "followers-own-params-closed", "spaces-cache-by-url",
               "questions-cache-by-url", "user-answer-count-cached", "answer-comments-wrap-closed")


@pytest.fixture(scope="module")
def faulty() -> Iterator[Ref]:
    yield from start_ref(faults=LIST_FAULTS)


def test_an_override_with_when_applies_only_when_one_of_its_parameters_is_given(faulty: Ref) -> None:
    assert faulty.get("/group.json", "member").status_code == 403
    assert faulty.get("/group.json", "member", params={"includeOnly": "id,name"}).status_code == 200
    assert faulty.get("/group.json", None, params={"include": "name"}).status_code == 401  # signed-in only
    assert faulty.get("/user/retrieveAllExperts.json", None).status_code == 401
    assert faulty.get("/user/retrieveAllExperts.json", None, params={"pageSize": 5}).status_code == 200
    assert faulty.get("/user/retrieveEarnedExperts.json", None, params={"pageSize": 5}).status_code == 401
    followers = f"/node/{faulty.profile.fixtures.question_id}/followers.json"
    assert faulty.get(followers, "member").status_code == 200
    assert faulty.get(followers, "member", params={"details": "true"}).status_code == 403
    assert faulty.get(followers, "admin", params={"details": "true"}).status_code == 200
    comments = f"/answer/{faulty.fixture_answer_id}/comment.json"
    assert faulty.get(comments, "novice").status_code == 200
    assert faulty.get(comments, "novice", params={"v1": "true"}).status_code == 403


def test_a_list_kept_by_url_is_served_to_the_next_caller_of_that_url(faulty: Ref) -> None:
    hidden = str(faulty.profile.fixtures.hidden_space_id)
    ids = lambda resp: {str(s["id"]) for s in resp.json()["list"]}  # noqa: E731
    assert hidden in ids(faulty.get("/space.json", "admin", params={"pageSize": 41}))
    assert hidden in ids(faulty.get("/space.json", "novice", params={"pageSize": 41}))  # admin's, kept
    assert hidden not in ids(faulty.get("/space.json", "novice", params={"pageSize": 42}))  # another URL


def test_a_users_answer_count_is_kept_for_a_few_seconds(faulty: Ref) -> None:
    member = faulty.user_id("member")
    path = f"/user/{member}/answer.json"
    before = faulty.get(path, "member", params={"pageSize": 100}).json()["totalCount"]
    faulty.post(f"/question/{faulty.profile.fixtures.question_id}/answer.json", "member", json={"body": "counted?"})
    after = faulty.get(path, "member", params={"pageSize": 100}).json()
    assert after["totalCount"] == before and after["listCount"] == before + 1


def test_a_question_list_with_parameters_is_kept_by_url(faulty: Ref) -> None:
    def ids(who: str, size: int) -> set[int]:
        return {q["id"] for q in faulty.get("/question.json", who, params={"pageSize": size}).json()["list"]}

    admin = ids("admin", 43)
    assert ids("novice", 43) == admin  # admin's, kept
    assert ids("novice", 44) < admin  # another URL: novice's own, without the hidden space's questions
