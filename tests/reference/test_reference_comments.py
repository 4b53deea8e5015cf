"""Comment rules 1-8 of the description, who sees each private comment, and the privacy filtering of list 18."""

from __future__ import annotations

from typing import Any

import pytest
from ref_helpers import ROLES, Ref

INHERITED = "Visibility on comment can't be defined since it's inherited"

# The seeded thread under the fixture answer (authored by member; the question's author, the OP, is novice).
SEEDED = {
    "public": "Public comment by moderator.",
    "to-member": "Private to member, by admin.",
    "reply-to-member": "Reply to a private comment",
    "op": "To the original poster, by member.",
    "mod": "To moderators, by member.",
    "group": "To own groups (Team A), by moderator.",
    "public-reply": "Public reply by novice.",
}
SEES = {
    "admin": {"public", "to-member", "mod", "public-reply"},
    "moderator": {"public", "mod", "group", "public-reply"},
    "member": set(SEEDED),
    "novice": {"public", "op", "public-reply"},
    None: {"public", "public-reply"},
}


def labels(ref: Ref, who: str | None) -> set[str]:
    found = set()
    for c in ref.comments(ref.fixture_answer_id, who).values():
        for label, text in SEEDED.items():
            if text in c["body"]:
                found.add(label)
    return found


def post(ref: Ref, node: int, who: str | None = "member", **fields: Any) -> Any:
    return ref.post(f"/node/{node}/comment.json", who, json={"body": "a test comment", **fields})


def created(ref: Ref, node: int, who: str = "member", **fields: Any) -> dict[str, Any]:
    r = post(ref, node, who, **fields)
    assert r.status_code == 201, r.text
    return dict(r.json())


@pytest.mark.parametrize("who", [*ROLES, None], ids=[*ROLES, "anonymous"])
def test_answer_comment_list_shows_each_caller_only_what_it_may_see(ref: Ref, who: str | None) -> None:
    assert labels(ref, who) == SEES[who]


@pytest.mark.parametrize("who", [*ROLES, None], ids=[*ROLES, "anonymous"])
def test_comment_ids_of_a_node_list_only_visible_comments(ref: Ref, who: str | None) -> None:
    answers = ref.ok("GET", f"/user/{ref.user_id('member')}/answer.json", who, params={"pageSize": 1000})["list"]
    answer = [a for a in answers if a["id"] == ref.fixture_answer_id][0]
    visible = ref.comments(ref.fixture_answer_id, who)
    direct = {cid for cid, c in visible.items() if c["parentId"] == ref.fixture_answer_id}
    assert set(answer["commentIds"]) == direct
    assert set(answer["childrenIds"]) == direct


def test_comments_list_every_depth_oldest_first_with_privacy_fields(ref: Ref) -> None:
    body = ref.ok("GET", f"/answer/{ref.fixture_answer_id}/comment.json", "member")
    assert body["sort"] == "oldest" and body["sorts"]
    items = body["list"]
    assert [c["creationDate"] for c in items] == sorted(c["creationDate"] for c in items)
    assert {c["depth"] for c in items} == {2, 3}
    for c in items:
        assert c["type"] == "comment" and "title" not in c
        assert c["visibility"] in ("full", "recipients", "op", "mod", "group")
        assert isinstance(c["recipients"], list)
        assert "originalParentId" in c


def test_rule_1_no_privacy_fields_gives_full_visibility_and_no_recipients(ref: Ref) -> None:
    r = post(ref, ref.fixture_answer_id)
    assert r.status_code == 201
    item = r.json()
    assert item["visibility"] == "full" and item["recipients"] == []
    assert r.headers["Location"] == f"{ref.api}/comment/{item['id']}.json"
    listed = ref.comments(ref.fixture_answer_id, None)[item["id"]]
    assert listed["visibility"] == "full" and listed["recipients"] == []


def test_rule_2_recipients_make_a_comment_private_to_them(ref: Ref) -> None:
    novice = ref.user_id("novice")
    item = created(ref, ref.fixture_answer_id, "member", visibility="recipients", recipients=[{"id": str(novice)}])
    assert item["visibility"] == "recipients" and item["recipients"] == [{"id": novice}]
    for who, sees in (("member", True), ("novice", True), ("admin", False), ("moderator", False), (None, False)):
        listed = ref.comments(ref.fixture_answer_id, who)
        assert (item["id"] in listed) is sees, who
    assert ref.comments(ref.fixture_answer_id, "novice")[item["id"]]["recipients"] == [{"id": novice}]


@pytest.mark.parametrize(
    "who, fields",
    [
        ("novice", {}),
        ("member", {"visibility": "recipients"}),
        ("member", {"visibility": "recipients", "recipients": [{"id": 4}]}),
    ],
)
def test_rule_3_reply_to_private_comment_inherits_its_settings(ref: Ref, who: str, fields: dict[str, Any]) -> None:
    parent = created(ref, ref.fixture_answer_id, "member", visibility="recipients", recipients=[{"id": 4}])
    reply = created(ref, parent["id"], who, **fields)
    assert reply["visibility"] == "recipients" and reply["recipients"] == [{"id": 4}]
    assert reply["id"] in ref.comments(ref.fixture_answer_id, "novice")
    assert reply["id"] not in ref.comments(ref.fixture_answer_id, "admin")


def test_repeating_inherited_privacy_fields_still_needs_the_private_permission(ref: Ref) -> None:
    parent = created(ref, ref.fixture_answer_id, "member", visibility="recipients", recipients=[{"id": 4}])
    assert post(ref, parent["id"], "novice", visibility="recipients").status_code == 403


@pytest.mark.parametrize(
    "fields",
    [
        {"visibility": "op"},
        {"visibility": "full"},
        {"visibility": "mod"},
        {"visibility": "recipients", "recipients": [{"id": 1}]},
    ],
)
def test_rule_4_reply_with_other_visibility_than_inherited_is_400(ref: Ref, fields: dict[str, Any]) -> None:
    parent = created(ref, ref.fixture_answer_id, "moderator", visibility="recipients", recipients=[{"id": 3}])
    r = post(ref, parent["id"], "member", **fields)
    assert r.status_code == 400
    assert r.json() == {"error": INHERITED}


def test_rule_5_reply_to_public_comment_may_set_its_own_privacy(ref: Ref) -> None:
    parent = created(ref, ref.fixture_answer_id, "moderator")
    reply = created(ref, parent["id"], "member", visibility="recipients", recipients=[{"id": 2}, 1])
    assert reply["visibility"] == "recipients" and reply["recipients"] == [{"id": 1}, {"id": 2}]
    op_reply = created(ref, parent["id"], "member", visibility="op")
    assert op_reply["visibility"] == "op"


@pytest.mark.parametrize(
    "fields",
    [
        {"recipients": [{"id": 4}]},
        {"visibility": "op", "recipients": [{"id": 4}]},
        {"visibility": "full", "recipients": [{"id": 4}]},
    ],
)
def test_rule_6_recipients_without_visibility_recipients_is_400(ref: Ref, fields: dict[str, Any]) -> None:
    r = post(ref, ref.fixture_answer_id, "admin", **fields)
    assert r.status_code == 400 and "recipients" in r.json()["error"]


@pytest.mark.parametrize(
    "fields",
    [
        {"visibility": "recipients"},
        {"visibility": "recipients", "recipients": []},
        {"visibility": "secret"},
        {"visibility": 5},
        {"visibility": "recipients", "recipients": [{"id": "abc"}]},
        {"visibility": "recipients", "recipients": [{"id": 987654}]},
        {"visibility": "recipients", "recipients": {"id": 4}},
    ],
)
def test_invalid_privacy_fields_are_400(ref: Ref, fields: dict[str, Any]) -> None:
    r = post(ref, ref.fixture_answer_id, "admin", **fields)
    assert r.status_code == 400 and r.json()["error"]


@pytest.mark.parametrize(
    "who, visibility",
    [("novice", "op"), ("novice", "mod"), ("novice", "group"), ("novice", "recipients"), ("member", "group")],
)
def test_rule_7_private_option_without_its_permission_is_403(ref: Ref, who: str, visibility: str) -> None:
    fields: dict[str, Any] = {"visibility": visibility}
    if visibility == "recipients":
        fields["recipients"] = [{"id": 1}]
    r = post(ref, ref.fixture_answer_id, who, **fields)
    assert r.status_code == 403 and "errors" in r.json()


def test_rule_7_403_comes_before_the_400s_of_rules_4_and_6(ref: Ref) -> None:
    assert post(ref, ref.fixture_answer_id, "member", visibility="group", recipients=[{"id": 4}]).status_code == 403
    parent = created(ref, ref.fixture_answer_id, "admin", visibility="recipients", recipients=[{"id": 4}])
    assert post(ref, parent["id"], "novice", visibility="op").status_code == 403


@pytest.mark.parametrize(
    "visibility, sees",
    [
        ("op", {"member", "novice"}),
        ("mod", {"member", "admin", "moderator"}),
    ],
)
def test_who_sees_op_and_mod_comments(ref: Ref, visibility: str, sees: set[str]) -> None:
    item = created(ref, ref.fixture_answer_id, "member", visibility=visibility)
    for who in ROLES:
        assert (item["id"] in ref.comments(ref.fixture_answer_id, who)) is (who in sees), who
    assert item["id"] not in ref.comments(ref.fixture_answer_id, None)


def test_group_comment_is_seen_by_the_authors_groups_only(ref: Ref) -> None:
    item = created(ref, ref.fixture_answer_id, "moderator", visibility="group")
    seen = {who for who in ROLES if item["id"] in ref.comments(ref.fixture_answer_id, who)}
    assert seen == {"moderator", "member"}


def test_comment_on_a_question_on_a_comment_and_on_an_unknown_node(ref: Ref) -> None:
    qid = ref.profile.fixtures.question_id
    on_question = created(ref, qid, "novice")
    assert on_question["parentId"] == qid
    assert on_question["id"] in ref.question(qid, "novice")["commentIds"]
    assert on_question["id"] not in ref.comments(ref.fixture_answer_id, "admin")
    on_comment = created(ref, on_question["id"], "member")
    assert on_comment["depth"] == on_question["depth"] + 1
    r = post(ref, 99_999_999)
    assert r.status_code == 404 and r.json()["error"]


@pytest.mark.parametrize("payload", [{}, {"body": ""}, {"body": "   "}, {"body": 123}, {"body": None}, {"body": ["x"]}])
def test_missing_or_non_string_comment_body_is_400(ref: Ref, payload: dict[str, Any]) -> None:
    r = ref.post(f"/node/{ref.fixture_answer_id}/comment.json", "member", json=payload)
    assert r.status_code == 400 and r.json()["error"]


def test_anonymous_cannot_comment(ref: Ref) -> None:
    assert post(ref, ref.fixture_answer_id, None).status_code == 401


def test_form_fields_and_query_parameters_carry_privacy_fields(ref: Ref) -> None:
    path = f"/node/{ref.fixture_answer_id}/comment.json"
    r = ref.post(path, "member", data={"body": "form", "visibility": "recipients", "recipients": '[{"id": 4}]'})
    assert r.status_code == 201 and r.json()["recipients"] == [{"id": 4}]
    r = ref.post(path, "member", data={"body": "form list", "visibility": "recipients", "recipients": "1,4"})
    assert r.status_code == 201 and r.json()["recipients"] == [{"id": 1}, {"id": 4}]
    r = ref.post(path, "member", params={"visibility": "op"}, json={"body": "query wins", "visibility": "mod"})
    assert r.status_code == 201 and r.json()["visibility"] == "op" and r.json()["body"] == "query wins"
