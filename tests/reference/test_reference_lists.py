"""The read operations: envelope and paging, sorts, filters, projection, per-caller visibility of list items."""

from __future__ import annotations

import math
from typing import Any

import pytest
from ref_helpers import ROLES, Ref

QUESTION_SORTS = [
    "active",
    "newest",
    "hottest",
    "votes",
    "viewCount",
    "usedCount",
    "answerCount",
    "answerCountAsc",
    "commentCount",
    "favoriteCount",
    "followers",
    "reportCount",
]


def list_paths(ref: Ref) -> dict[str, str]:
    fx = ref.profile.fixtures
    return {
        "listQuestions": "/question.json",
        "listUserAnswers": f"/user/{ref.user_id('member')}/answer.json",
        "listActiveExperts": "/user/retrieveAllExperts.json",
        "listEarnedExperts": "/user/retrieveEarnedExperts.json",
        "listSpaces": "/space.json",
        "listTopics": "/topic.json",
        "listUserQuestions": f"/user/{ref.user_id('member')}/question.json",
        "listNodeFollowers": f"/node/{fx.question_id}/followers.json",
        "listGroups": "/group.json",
        "listAnswerComments": f"/answer/{ref.fixture_answer_id}/comment.json",
    }


WITH_SORTS = {"listQuestions", "listUserQuestions", "listAnswerComments"}


def check_envelope(body: dict[str, Any], page_size: int) -> None:
    assert body["name"] == ""
    assert isinstance(body["sort"], str)
    assert body["pageSize"] == page_size
    assert body["listCount"] == len(body["list"])
    assert body["pageCount"] == math.ceil(body["totalCount"] / page_size)


@pytest.mark.parametrize(
    "op",
    sorted(
        [
            "listQuestions",
            "listUserAnswers",
            "listActiveExperts",
            "listEarnedExperts",
            "listSpaces",
            "listTopics",
            "listUserQuestions",
            "listNodeFollowers",
            "listGroups",
            "listAnswerComments",
        ]
    ),
)
def test_every_list_returns_the_envelope_with_consistent_counts(ref: Ref, op: str) -> None:
    path = list_paths(ref)[op]
    body = ref.ok("GET", path)
    check_envelope(body, 15)
    assert body["page"] == (0 if op == "listNodeFollowers" else 1)
    assert ("sorts" in body) == (op in WITH_SORTS)
    if op in WITH_SORTS:
        assert body["sorts"] == QUESTION_SORTS
    small = ref.ok("GET", path, params={"pageSize": 2, "page": 1})
    check_envelope(small, 2)
    assert small["totalCount"] == body["totalCount"] and small["listCount"] == min(2, body["totalCount"])


def test_pages_are_disjoint_and_in_a_stable_order(ref: Ref) -> None:
    ten = ref.ok("GET", "/question.json", params={"pageSize": 10})["list"]
    first = ref.ok("GET", "/question.json", params={"pageSize": 5, "page": 1})["list"]
    second = ref.ok("GET", "/question.json", params={"pageSize": 5, "page": 2})["list"]
    assert [q["id"] for q in first + second] == [q["id"] for q in ten]


def test_page_beyond_the_end_is_an_empty_list_with_the_same_total(ref: Ref) -> None:
    body = ref.ok("GET", "/question.json", params={"page": 999})
    assert body["list"] == [] and body["listCount"] == 0 and body["page"] == 999
    assert body["totalCount"] == ref.ok("GET", "/question.json")["totalCount"] > 0


@pytest.mark.parametrize(
    "params", [{"pageSize": 0}, {"pageSize": -3}, {"pageSize": "ten"}, {"page": "x"}, {"page": -1}, {"page": "1.5"}]
)
def test_bad_paging_parameters_are_400_with_an_error_message(ref: Ref, params: dict[str, Any]) -> None:
    for path in ("/question.json", "/space.json", "/user/retrieveAllExperts.json"):
        r = ref.get(path, "admin", params=params)
        assert r.status_code == 400, (path, params, r.text)
        assert isinstance(r.json()["error"], str) and r.json()["error"]


def test_page_size_is_capped_at_1000(ref: Ref) -> None:
    assert ref.ok("GET", "/question.json", params={"pageSize": 5000})["pageSize"] == 1000


@pytest.mark.parametrize("sort", QUESTION_SORTS)
def test_every_question_sort_name_is_accepted_and_echoed(ref: Ref, sort: str) -> None:
    assert ref.ok("GET", "/question.json", params={"sort": sort})["sort"] == sort


def test_question_sorts_order_by_their_field(ref: Ref) -> None:
    def values(sort: str, field: str) -> list[int]:
        return [q[field] for q in ref.questions(sort=sort)]

    assert values("votes", "score") == sorted(values("votes", "score"), reverse=True)
    assert values("newest", "creationDate") == sorted(values("newest", "creationDate"), reverse=True)
    assert values("active", "lastActiveDate") == sorted(values("active", "lastActiveDate"), reverse=True)
    assert values("answerCountAsc", "answerCount") == sorted(values("answerCountAsc", "answerCount"))
    assert values("viewCount", "viewCount") == sorted(values("viewCount", "viewCount"), reverse=True)


def test_unknown_question_sort_falls_back_to_active(ref: Ref) -> None:
    body = ref.ok("GET", "/question.json", params={"sort": "nonsense"})
    assert body["sort"] == "active"
    assert [q["id"] for q in body["list"]] == [q["id"] for q in ref.ok("GET", "/question.json")["list"]]


@pytest.mark.parametrize(
    "path, default", [("/space.json", "name"), ("/topic.json", "popularity"), ("/group.json", "name")]
)
def test_invalid_sort_on_spaces_topics_groups_falls_back_to_the_default(ref: Ref, path: str, default: str) -> None:
    fallback = ref.ok("GET", path, params={"sort": "bogus"})
    assert fallback["sort"] == default
    assert fallback["list"] == ref.ok("GET", path)["list"]


def test_topics_default_to_popularity(ref: Ref) -> None:
    counts = [t["usedCount"] for t in ref.ok("GET", "/topic.json")["list"]]
    assert counts == sorted(counts, reverse=True)


@pytest.mark.parametrize("sort", ["reputation", "username", "realname", "recent", "oldest", "default"])
def test_expert_lists_accept_their_six_sorts(ref: Ref, sort: str) -> None:
    for path in ("/user/retrieveAllExperts.json", "/user/retrieveEarnedExperts.json"):
        assert ref.get(path, "member", params={"sort": sort}).status_code == 200


def test_expert_lists_reject_other_sorts_with_400(ref: Ref) -> None:
    for path in ("/user/retrieveAllExperts.json", "/user/retrieveEarnedExperts.json"):
        r = ref.get(path, "member", params={"sort": "votes"})
        assert r.status_code == 400 and "sort" in r.json()["error"]


def test_expert_reputation_sort_is_descending_and_users_carry_string_group_ids(ref: Ref) -> None:
    users = ref.ok("GET", "/user/retrieveAllExperts.json", params={"sort": "reputation"})["list"]
    assert users and [u["reputation"] for u in users] == sorted((u["reputation"] for u in users), reverse=True)
    for u in users:
        assert u["type"] == "user" and u["active"] is True
        for key in (
            "id",
            "creationDate",
            "creationDateFormatted",
            "modificationDate",
            "username",
            "slug",
            "gold",
            "silver",
            "bronze",
            "reputation",
            "moderator",
            "superuser",
            "avatar",
            "postCount",
            "followerCount",
            "followCount",
            "userFollowCount",
            "active",
            "suspended",
            "deactivated",
        ):
            assert key in u, key
        assert all(isinstance(g["id"], str) for g in u["groups"])


def test_include_only_and_exclude_project_the_items(ref: Ref) -> None:
    only = ref.ok("GET", "/question.json", params={"includeOnly": "id,title,noSuchField"})["list"]
    assert only and all(set(q) == {"id", "title"} for q in only)
    spaces = ref.ok("GET", "/space.json", params={"includeOnly": "id,name"})["list"]
    assert all(set(s) == {"id", "name"} for s in spaces)
    excluded = ref.ok("GET", "/question.json", params={"exclude": "body,bodyAsHTML"})["list"]
    assert excluded and all("body" not in q and "bodyAsHTML" not in q and "title" in q for q in excluded)
    assert ref.ok("GET", "/question.json", params={"include": "whatever"})["list"] == ref.questions()[:15]


def test_question_filters_q_space_topics_unanswered(ref: Ref) -> None:
    fx = ref.profile.fixtures
    found = ref.questions(q="reset my password")
    assert [q["id"] for q in found] == [fx.question_id]
    in_space = ref.questions(spaceId=fx.space_id)
    assert in_space and all(q["primaryContainerId"] == fx.space_id for q in in_space)
    by_name = ref.questions(topics="security")
    assert fx.question_id in {q["id"] for q in by_name}
    assert all(any(t["name"] == "security" for t in q["topics"]) for q in by_name)
    topic_id = by_name[0]["topics"][0]["id"]
    assert {q["id"] for q in ref.questions(topics=str(topic_id))} >= {by_name[0]["id"]}
    unanswered = ref.questions(unanswered="true")
    assert unanswered and all(q["answerCount"] == 0 for q in unanswered)
    assert ref.get("/question.json", "admin", params={"spaceId": "abc"}).status_code == 400


def test_question_items_carry_the_node_fields(ref: Ref) -> None:
    q = ref.question(ref.profile.fixtures.question_id)
    for key in (
        "id",
        "type",
        "creationDate",
        "creationDateFormatted",
        "title",
        "body",
        "bodyAsHTML",
        "author",
        "lastEditedAction",
        "activeRevisionId",
        "revisionIds",
        "lastActiveUserId",
        "lastActiveDate",
        "attachments",
        "childrenIds",
        "commentIds",
        "marked",
        "topics",
        "primaryContainerId",
        "containerIds",
        "slug",
        "wiki",
        "score",
        "depth",
        "viewCount",
        "upVoteCount",
        "downVoteCount",
        "nodeStates",
        "answers",
        "answerCount",
    ):
        assert key in q, key
    assert q["type"] == "question" and q["marked"] is True and "accepted" in q["nodeStates"]
    assert set(q["answers"]) <= set(q["childrenIds"]) and set(q["commentIds"]) <= set(q["childrenIds"])
    import re

    assert re.fullmatch(r"\d\d/\d\d/\d{4} \d\d:\d\d [AP]M", q["creationDateFormatted"])
    answers = ref.ok("GET", f"/user/{ref.user_id('member')}/answer.json", params={"pageSize": 1000})["list"]
    accepted = [a for a in answers if a["id"] == ref.fixture_answer_id][0]
    assert accepted["marked"] is True and accepted["type"] == "answer" and "title" not in accepted
    assert accepted["originalParentId"] == q["id"]


def test_child_space_lists_its_parent(ref: Ref) -> None:
    spaces = {s["id"]: s for s in ref.ok("GET", "/space.json")["list"]}
    children = [s for s in spaces.values() if s["parentId"] in spaces]
    assert children, "the seed has a space inside another"
    fav = ref.question(ref.profile.fixtures.favorite_node_id)
    assert fav["containerIds"] == [spaces[fav["primaryContainerId"]]["parentId"], fav["primaryContainerId"]]


def test_novice_never_sees_the_hidden_space_or_its_content(ref: Ref) -> None:
    hidden = ref.profile.fixtures.hidden_space_id
    assert hidden in {s["id"] for s in ref.ok("GET", "/space.json", "member")["list"]}
    assert hidden not in {s["id"] for s in ref.ok("GET", "/space.json", "novice")["list"]}
    assert any(q["primaryContainerId"] == hidden for q in ref.questions("member"))
    assert not any(q["primaryContainerId"] == hidden for q in ref.questions("novice"))
    member_id = ref.user_id("member")
    for path in (f"/user/{member_id}/question.json", f"/user/{member_id}/answer.json"):
        seen_by_member = ref.ok("GET", path, "member", params={"pageSize": 1000})["list"]
        seen_by_novice = ref.ok("GET", path, "novice", params={"pageSize": 1000})["list"]
        assert any(hidden in n["containerIds"] for n in seen_by_member), path
        assert not any(hidden in n["containerIds"] for n in seen_by_novice), path
    assert ref.get("/question.json", "novice", params={"spaceId": hidden}).json()["totalCount"] == 0


def test_answer_in_moderation_is_seen_only_by_its_author_and_moderators(ref: Ref) -> None:
    novice_id = ref.user_id("novice")
    path = f"/user/{novice_id}/answer.json"
    queued = ref.ok("GET", path, "novice")["list"]
    assert queued, "the seed has a novice answer in moderation"
    queued_id = queued[0]["id"]
    for who in ("admin", "moderator"):
        assert queued_id in {a["id"] for a in ref.ok("GET", path, who)["list"]}
    for outsider in ("member", None):
        assert queued_id not in {a["id"] for a in ref.ok("GET", path, outsider)["list"]}
    parent = queued[0]["parentId"]
    assert queued_id in ref.question(parent, "moderator")["answers"]
    assert queued_id not in ref.question(parent, "member")["answers"]


def test_followers_default_to_active_users_from_page_0(ref: Ref) -> None:
    path = f"/node/{ref.profile.fixtures.question_id}/followers.json"
    active = ref.ok("GET", path)
    assert active["page"] == 0 and active["sort"] == "" and "sorts" not in active
    assert all(u["type"] == "user" for u in active["list"])
    everyone = ref.ok("GET", path, params={"active": "false"})
    assert everyone["totalCount"] == active["totalCount"] + 1
    detailed = ref.ok("GET", path, params={"details": "true", "active": "false"})["list"]
    assert {d["active"] for d in detailed} == {True, False}
    for d in detailed:
        assert set(d) == {"user", "node", "active", "followDate"}
        assert d["node"] == {"id": ref.profile.fixtures.question_id, "type": "question"}
        assert d["user"]["type"] == "user" and isinstance(d["followDate"], int)
    assert ref.get(path, "admin", params={"details": "maybe"}).status_code == 400


def test_issue_types_are_a_bare_array_with_a_repeated_name(ref: Ref) -> None:
    body = ref.ok("GET", "/tracker/issuetype.json", "member")
    assert isinstance(body, list) and all(set(i) == {"name"} for i in body)
    names = [i["name"] for i in body]
    assert len(names) > len(set(names))
    r = ref.get("/jira/issuetype.json", "member")
    assert r.status_code == 404 and "tracker" in r.json()["error"]


@pytest.mark.parametrize(
    "path",
    [
        "/question",
        "/question.xml",
        "/nothing/here.json",
        "/user/abc/question.json",
        "/node/999999/followers.json",
        "/answer/1/comment.json",
    ],
)
def test_unknown_paths_and_nodes_are_404_with_a_json_error(ref: Ref, path: str) -> None:
    r = ref.get(path, "admin")
    assert r.status_code == 404
    assert r.headers["content-type"] == "application/json;charset=UTF-8"
    assert r.json()["error"]


def test_wrong_method_is_405_with_a_json_error(ref: Ref) -> None:
    r = ref.call("DELETE", "/question.json", "admin")
    assert r.status_code == 405 and r.json()["error"]


def test_responses_are_utf8_json(ref: Ref) -> None:
    for who in (*ROLES, None):
        r = ref.get("/space.json", who)
        assert r.headers["content-type"] == "application/json;charset=UTF-8"


def test_type_lang_wrap_v1_are_accepted_and_ignored(ref: Ref) -> None:
    plain = ref.ok("GET", "/question.json")
    assert ref.ok("GET", "/question.json", params={"type": "x", "lang": "en", "wrap": "1", "v1": "true"}) == plain
