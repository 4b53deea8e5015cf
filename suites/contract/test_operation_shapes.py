"""Each of the 19 operations, called as each account the description lets call it: status, Content-Type, the body
against its schema in spec/ (rule 1: the schema, not this file, holds the field list), Location on 201s.

Denied calls are the permission suite's; here every call is one the description says succeeds.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from listops import LIST_OPS, Fetch

from qaconform.checks import is_json_content_type, millis_problems
from qaconform.client import ApiClient, ApiResponse
from qaconform.profile import Profile
from qaconform.support import new_id, post_answer, post_comment

pytestmark = pytest.mark.contract

_SHAPE_RULE = {
    "listQuestions": pytest.mark.rule("SHAPE-LIST-QUESTIONS"),
    "listUserAnswers": pytest.mark.rule("SHAPE-LIST-USER-ANSWERS"),
    "listActiveExperts": pytest.mark.rule("SHAPE-LIST-ACTIVE-EXPERTS"),
    "listEarnedExperts": pytest.mark.rule("SHAPE-LIST-EARNED-EXPERTS"),
    "listSpaces": pytest.mark.rule("SHAPE-LIST-SPACES"),
    "listTopics": pytest.mark.rule("SHAPE-LIST-TOPICS"),
    "listUserQuestions": pytest.mark.rule("SHAPE-LIST-USER-QUESTIONS"),
    "listNodeFollowers": pytest.mark.rule("SHAPE-LIST-NODE-FOLLOWERS"),
    "listGroups": pytest.mark.rule("SHAPE-LIST-GROUPS"),
    "listAnswerComments": pytest.mark.rule("SHAPE-LIST-ANSWER-COMMENTS"),
}


def _list_cases() -> list[Any]:
    return [
        pytest.param(lo.op, role, marks=_SHAPE_RULE[lo.op], id=f"{lo.op}-{role}")
        for lo in LIST_OPS.values()
        for role in lo.roles
    ]


def assert_json_response(resp: ApiResponse, status: int, what: str) -> Any:
    """Status, a JSON Content-Type and a body that parses: what every documented success has in common."""
    assert resp.status == status, f"{what}: expected {status}, got {resp.status}\n{resp.describe()}"
    assert is_json_content_type(resp.content_type), (
        f"{what}: a .json path answers with Content-Type application/json, got {resp.content_type!r}\n"
        f"{resp.describe()}"
    )
    return resp.json()


def assert_schema(contract: Any, op: str, status: int, body: Any, resp: ApiResponse) -> None:
    """The body matches the schema spec/openapi.yaml documents for this operation and status."""
    name = contract.operation(op).response_schema(status)
    assert name, f"spec/openapi.yaml documents no schema for {op} {status}: the kit's spec is incomplete"
    errors = contract.validate(name, body)
    assert not errors, (
        f"{op} {status} body does not match {name} ({len(errors)} error(s)):\n  " + "\n  ".join(errors[:15])
        + f"\n{resp.describe()}"
    )
    dates = millis_problems(body)
    assert not dates, f"{op}: dates are not epoch milliseconds: {dates}\n{resp.describe()}"


def assert_location_names(resp: ApiResponse, new: int, what: str) -> None:
    """The Location header holds the URL of the new item: present, a URL, and naming the new id."""
    location = resp.headers.get("location", "")
    assert location, f"{what}: a 201 carries a Location header with the new item's URL; none came\n{resp.describe()}"
    assert location.startswith(("http://", "https://", "/")), (
        f"{what}: Location {location!r} is not a URL (absolute, or an absolute path)\n{resp.describe()}"
    )
    assert re.search(rf"(?<!\d){new}(?!\d)", location), (
        f"{what}: Location {location!r} does not name the new item {new}\n{resp.describe()}"
    )


@pytest.mark.rule("CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON", "VERSION-PATH", "PAGING-ENVELOPE", "LIST-ITEM-TYPE",
                  "SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED")
@pytest.mark.parametrize(("op", "role"), _list_cases())
def test_each_list_answers_200_with_an_envelope_of_its_item_schema(
    op: str, role: str, fetch: Fetch, list_paths: dict[str, str], contract: Any, filled_by_suite: frozenset[str]
) -> None:
    lo = LIST_OPS[op]
    resp = fetch(role, list_paths[op])
    body = assert_json_response(resp, 200, f"{op} as {role}")
    assert_schema(contract, op, 200, body, resp)
    items = body["list"]
    if lo.never_empty or op in filled_by_suite:
        assert items, (
            f"{op} as {role} is empty though the fixtures (or this suite's writes) guarantee items\n{resp.describe()}")
    if lo.item_type:
        wrong = [(i.get("id"), i.get("type")) for i in items if isinstance(i, dict) and i.get("type") != lo.item_type]
        assert not wrong, f"{op} holds {lo.item_type} items; these are not (id, type): {wrong[:5]}\n{resp.describe()}"


@pytest.mark.rule("SHAPE-LIST-USER-CONTENT", "LIST-ARRAY-CONTENT", "SHAPE-CONTENT-ACTIONDATE", "CONV-JSON-EXTENSION",
                  "CONV-CONTENT-TYPE-JSON", "VERSION-PATH")
@pytest.mark.gdpr
def test_user_content_list_is_a_bare_array_of_content_entries(
    fetch: Fetch, user_ids: dict[str, int], contract: Any, read_only: bool
) -> None:
    resp = fetch("admin", f"users/gdpr/{user_ids['member']}/content.json")
    body = assert_json_response(resp, 200, "admin lists member's content")
    assert isinstance(body, list), f"the user content list is a JSON array, not the paged envelope\n{resp.describe()}"
    assert_schema(contract, "listUserContent", 200, body, resp)
    if not read_only:
        assert body, f"member has content (it posts answers in this run) but the list is empty\n{resp.describe()}"


@pytest.mark.rule("SHAPE-LIST-ISSUE-TYPES", "LIST-ARRAY-ISSUETYPES", "ISSUETYPES-ARRAY", "CONV-JSON-EXTENSION",
                  "CONV-CONTENT-TYPE-JSON", "VERSION-PATH")
def test_issue_type_list_is_a_bare_array_of_named_objects(
    fetch: Fetch, require_fixture: Any, contract: Any
) -> None:
    tracker = require_fixture("issue_tracker")
    resp = fetch("admin", f"{tracker}/issuetype.json")
    body = assert_json_response(resp, 200, "admin lists issue types")
    assert isinstance(body, list), f"the issue-type list is a JSON array, not the paged envelope\n{resp.describe()}"
    assert_schema(contract, "listIssueTypes", 200, body, resp)
    nameless = [i for i in body if not (isinstance(i, dict) and isinstance(i.get("name"), str))]
    assert not nameless, f"every issue type is an object with a string name; these are not: {nameless[:5]}\n" \
                         f"{resp.describe()}"


@pytest.mark.rule("SHAPE-POST-ANSWER", "ANSWER-201", "ANSWER-LOCATION", "ANSWER-ID-STRING", "ANSWER-PARENT-FIELDS",
                  "ANSWER-PLUG-NULL", "NODE-TITLE-ANSWERS-COMMENTS", "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON",
                  "VERSION-PATH", "SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED")
@pytest.mark.writes
@pytest.mark.parametrize(
    "role",
    ["admin", "moderator", "member", pytest.param("novice", marks=pytest.mark.rule("ANSWER-MODERATION"))],
)
def test_posting_an_answer_gives_201_the_new_node_and_its_location(
    role: str, api: dict[str, ApiClient], question_id: int, run_tag: str, created: Any, contract: Any
) -> None:
    resp = post_answer(api[role], question_id, run_tag, created, text=f"contract shape answer by {role}")
    body = assert_json_response(resp, 201, f"{role} posts an answer")
    assert_schema(contract, "postAnswer", 201, body, resp)
    assert isinstance(body.get("id"), str) and body["id"].isdigit(), (
        f"the id in the response to posting an answer is a string of digits, got {body.get('id')!r}\n{resp.describe()}"
    )
    assert body.get("type") == "answer", f"the new node has type answer\n{resp.describe()}"
    assert body.get("parentId") == question_id, (
        f"parentId of the new answer is the question {question_id}, got {body.get('parentId')!r}\n{resp.describe()}"
    )
    assert "plug" in body and body["plug"] is None, f"a new answer carries plug: null\n{resp.describe()}"
    assert body.get("title") is None, f"answers carry no title (absent or null)\n{resp.describe()}"
    assert_location_names(resp, int(body["id"]), f"{role} posts an answer")


@pytest.mark.rule("SHAPE-POST-COMMENT", "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON", "VERSION-PATH")
@pytest.mark.writes
@pytest.mark.parametrize("role", ["admin", "moderator", "member", "novice"])
def test_posting_a_comment_gives_201_and_the_location_of_the_new_comment(
    role: str, api: dict[str, ApiClient], question_id: int, run_tag: str, created: Any
) -> None:
    resp = post_comment(api[role], question_id, run_tag, created, text=f"contract shape comment by {role}")
    assert resp.status == 201, f"{role} comments on the fixture question: expected 201\n{resp.describe()}"
    if resp.content.strip():
        assert is_json_content_type(resp.content_type), (
            f"the 201 carries a body, so it is JSON with Content-Type application/json\n{resp.describe()}"
        )
        resp.json()
    assert_location_names(resp, new_id(resp), f"{role} comments on the fixture question")


def _assert_action_result(resp: ApiResponse, op: str, what: str, contract: Any) -> None:
    body = assert_json_response(resp, 200, what)
    assert_schema(contract, op, 200, body, resp)


@pytest.mark.rule("SHAPE-UNMARK-FAVORITE", "SHAPE-ACTIONDATE", "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON",
                  "VERSION-PATH")
@pytest.mark.writes
def test_unfavoriting_gives_200_with_the_favorite_action_and_count(unfavorite_once: ApiResponse, contract: Any) -> None:
    _assert_action_result(unfavorite_once, "unmarkFavorite", "member unfavorites favorite_node_id", contract)


@pytest.mark.rule("SHAPE-CANCEL-WIKI", "SHAPE-ACTIONDATE", "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON",
                  "VERSION-PATH")
@pytest.mark.writes
def test_unwikifying_own_node_gives_200_with_the_wikify_action(cancelwiki_own_once: ApiResponse, contract: Any) -> None:
    _assert_action_result(cancelwiki_own_once, "cancelWiki", "member unwikifies member_wiki_node_id", contract)


@pytest.mark.rule("SHAPE-CANCEL-WIKI", "SHAPE-ACTIONDATE")
@pytest.mark.writes
def test_unwikifying_anothers_node_with_mark_as_wiki_gives_200_with_the_wikify_action(
    cancelwiki_once: ApiResponse, contract: Any
) -> None:
    _assert_action_result(cancelwiki_once, "cancelWiki", "moderator unwikifies wiki_node_id", contract)


@pytest.mark.rule("SHAPE-SEND-TO-MODERATION", "SHAPE-ACTIONDATE", "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON",
                  "VERSION-PATH")
@pytest.mark.writes
@pytest.mark.parametrize("role", ["admin", "moderator"])
def test_sending_a_published_node_to_moderation_gives_200_with_the_action(
    role: str, fresh_answer: int, api: dict[str, ApiClient], contract: Any
) -> None:
    resp = api[role].put(f"node/{fresh_answer}/sendToMod.json", operation="sendToModeration")
    _assert_action_result(resp, "sendToModeration", f"{role} sends answer {fresh_answer} to moderation", contract)


@pytest.mark.rule("SHAPE-LOCK-NODE", "SHAPE-ACTIONDATE", "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON",
                  "VERSION-PATH")
@pytest.mark.writes
@pytest.mark.parametrize("role", ["admin", "moderator", "member"])
def test_locking_a_node_with_a_prompt_gives_200_with_the_lock_action(
    role: str, fresh_answer: int, api: dict[str, ApiClient], run_tag: str, contract: Any
) -> None:
    # fresh_answer is member's own: admin and moderator lock any node, member its own (Lock comments on own posts).
    resp = api[role].put(f"node/{fresh_answer}/lock.json", params={"prompt": f"contract suite [{run_tag}]"},
                         operation="lockNode")
    _assert_action_result(resp, "lockNode", f"{role} locks answer {fresh_answer}", contract)


@pytest.mark.rule("SHAPE-SCHEDULE-GDPR-JOB", "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON", "VERSION-PATH")
@pytest.mark.gdpr
@pytest.mark.destructive
@pytest.mark.writes
def test_scheduling_a_valid_data_protection_job_gives_201_with_a_job_id(
    admin: ApiClient, profile: Profile, contract: Any
) -> None:
    user = profile.safety.gdpr_user
    if not user:
        pytest.skip("not allowed by safety: [safety] gdpr_user is not set, so the kit may name no user in a job")
    rnd = random.Random()
    when = f"{rnd.randint(1, 12):02d}/{rnd.randint(1, 28):02d}/{rnd.randint(2031, 2039)} " \
           f"{rnd.randint(0, 23):02d}:{rnd.randint(0, 59):02d}"
    job = {"type": "individual", "user": {"username": user}, "scheduleDate": {"formatted": when},
           "operations": ["suspend"]}
    resp = admin.post("jobs/gdpr/schedule.json", json=job, operation="scheduleGdprJob")
    body = assert_json_response(resp, 201, f"admin schedules a suspend job for {user} at {when}")
    assert_schema(contract, "scheduleGdprJob", 201, body, resp)
