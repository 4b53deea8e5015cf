"""Post an answer (7): the created node, publication versus moderation, and the errors."""

from __future__ import annotations

from ref_helpers import Ref


def test_member_answer_is_published_with_the_created_node(ref: Ref) -> None:
    qid = ref.profile.fixtures.question_id
    before = ref.question(qid)["answerCount"]
    r = ref.post(f"/question/{qid}/answer.json", "member", json={"body": "<p>published</p>"})
    assert r.status_code == 201
    node = r.json()
    assert isinstance(node["id"], str) and node["id"].isdecimal()
    assert r.headers["Location"] == f"{ref.api}/answer/{node['id']}.json"
    assert node["type"] == "answer" and node["parentId"] == qid and node["originalParentId"] == qid
    assert node["parentAuthor"] == {"username": "novice", "realname": "Ned Novice"}
    assert node["plug"] is None and node["reportCount"] == 0 and "title" not in node
    assert node["author"]["username"] == "member" and node["body"] == "<p>published</p>"
    after = ref.question(qid, None)
    assert int(node["id"]) in after["answers"] and after["answerCount"] == before + 1
    mine = ref.ok("GET", f"/user/{ref.user_id('member')}/answer.json", None, params={"sort": "newest"})["list"]
    assert mine[0]["id"] == int(node["id"])


def test_novice_answer_goes_to_moderation(ref: Ref) -> None:
    qid = ref.profile.fixtures.question_id
    before = ref.question(qid)["answerCount"]
    r = ref.post(f"/question/{qid}/answer.json", "novice", json={"body": "queued"})
    assert r.status_code == 201
    aid = int(r.json()["id"])
    for who, sees in (("novice", True), ("admin", True), ("moderator", True), ("member", False), (None, False)):
        assert (aid in ref.question(qid, who)["answers"]) is sees, who
    assert ref.question(qid)["answerCount"] == before


def test_answer_body_as_form_field_or_query_parameter(ref: Ref) -> None:
    qid = ref.profile.fixtures.question_id
    r = ref.post(f"/question/{qid}/answer.json", "admin", data={"body": "from a form"})
    assert r.status_code == 201 and r.json()["body"] == "from a form"
    r = ref.post(f"/question/{qid}/answer.json", "admin", params={"body": "query wins"}, json={"body": "body"})
    assert r.status_code == 201 and r.json()["body"] == "query wins"


def test_answer_errors(ref: Ref) -> None:
    fx = ref.profile.fixtures
    assert ref.post(f"/question/{fx.question_id}/answer.json", "member", json={}).status_code == 400
    assert ref.post(f"/question/{fx.question_id}/answer.json", "member", json={"body": ""}).status_code == 400
    assert ref.post(f"/question/{fx.question_id}/answer.json", "member", json={"body": 7}).status_code == 400
    assert ref.post("/question/87654321/answer.json", "member", json={"body": "x"}).status_code == 404
    answer_id = ref.fixture_answer_id
    assert ref.post(f"/question/{answer_id}/answer.json", "member", json={"body": "x"}).status_code == 404
    hidden_question = [q for q in ref.questions("admin") if q["primaryContainerId"] == fx.hidden_space_id][0]
    r = ref.post(f"/question/{hidden_question['id']}/answer.json", "novice", json={"body": "x"})
    assert r.status_code == 404
    assert ref.post(f"/question/{fx.question_id}/answer.json", None, json={"body": "x"}).status_code == 401
