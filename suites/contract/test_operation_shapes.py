"""Each of the 19 operations, called as each account the description lets call it: status, Content-Type, the body
against its schema in spec/ (rule 1: the schema, not this file, holds the field list), Location on 201s.

Denied calls are the permission suite's; here every call is one the description says succeeds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

import node_kinds
import pytest
from listops import LIST_OPS, Fetch, RunOnce
from rule_assertions import assert_json_body, assert_json_response, assert_location_names, assert_schema, assert_status

from qaconform.contract import NONE, load_contract, path
from qaconform.invariants import listcount_problems
from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.support import new_id
from qaconform.target.client import ApiClient, ApiResponse, TargetError
from qaconform.target.profile import Profile

pytestmark = pytest.mark.contract

_SHAPE_RULE = {
    "listQuestions": "SHAPE-LIST-QUESTIONS",
    "listUserAnswers": "SHAPE-LIST-USER-ANSWERS",
    "listActiveExperts": "SHAPE-LIST-ACTIVE-EXPERTS",
    "listEarnedExperts": "SHAPE-LIST-EARNED-EXPERTS",
    "listSpaces": "SHAPE-LIST-SPACES",
    "listTopics": "SHAPE-LIST-TOPICS",
    "listUserQuestions": "SHAPE-LIST-USER-QUESTIONS",
    "listNodeFollowers": "SHAPE-LIST-NODE-FOLLOWERS",
    "listGroups": "SHAPE-LIST-GROUPS",
    "listAnswerComments": "SHAPE-LIST-ANSWER-COMMENTS",
}
_SHAPE_MARK = {
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
"""The same ids as marks, written out so that tests/test_rule_coverage.py reads them statically."""


def _list_cases() -> list[Any]:
    return [
        pytest.param(lo.op, role, marks=_SHAPE_MARK[lo.op], id=f"{lo.op}-{role}")
        for lo in LIST_OPS.values()
        for role in lo.roles
    ]


@pytest.mark.rule("CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON", "VERSION-PATH", "PAGING-ENVELOPE", "LIST-ITEM-TYPE",
                  "SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED")
@pytest.mark.parametrize(("op", "role"), _list_cases())
def test_each_list_answers_200_with_an_envelope_of_its_item_schema(
    op: str, role: str, fetch: Fetch, list_paths: dict[str, str], contract: Any, filled_by_suite: frozenset[str]
) -> None:
    lo, rule = LIST_OPS[op], _SHAPE_RULE[op]
    resp = fetch(role, list_paths[op])
    body = assert_json_response(resp, 200, f"{op} as {role}", rule)
    if lo.item_type:
        items = (body.get("list") if isinstance(body, dict) else None) or []
        wrong = [(i.get("id"), i.get("type")) for i in items if isinstance(i, dict) and i.get("type") != lo.item_type]
        expect(not wrong, "LIST-ITEM-TYPE",
               f"{op} holds {lo.item_type} items; these are not (id, type): {wrong[:5]}", resp)
    assert_schema(contract, op, 200, body, resp, rule)
    if lo.never_empty or op in filled_by_suite:
        expect(body["list"], rule,
               f"{op} as {role} is empty though the fixtures (or this suite's writes) guarantee items", resp)


def _sorted_cases() -> list[Any]:
    contract = load_contract()
    return [pytest.param(lo.op, marks=_SHAPE_MARK[lo.op], id=lo.op) for lo in LIST_OPS.values()
            if any(p.name == "sort" for p in contract.operation(lo.op).parameters)]


@pytest.mark.rule("SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED")
@pytest.mark.parametrize("op", _sorted_cases())
@pytest.mark.rule("CONV-CONTENT-TYPE-JSON", "CONV-JSON-EXTENSION", "VERSION-PATH", "PAGING-ENVELOPE", "LIST-ITEM-TYPE")
def test_each_list_asked_for_the_sort_it_reports_answers_its_item_schema(
    op: str, fetch: Fetch, list_paths: dict[str, str], contract: Any
) -> None:
    """The list asked for, by name, the sort its envelope reports in effect without one: a sort the site itself
    names, so one it takes (which names a list accepts is not shown otherwise). A server that renders an explicitly
    sorted page through another serializer breaks the item schema there only (blind7, issue 44): the default page
    alone cannot show it. One read per list (its first account); its default read is the shape test's."""
    role, rule = LIST_OPS[op].roles[0], _SHAPE_RULE[op]
    default = fetch(role, list_paths[op])
    body = assert_json_response(default, 200, f"{op} as {role}", rule)
    name = body.get("sort") if isinstance(body, dict) else None
    if not isinstance(name, str) or not name:
        skip(SkipKind.OTHER, f"not judged: {op} reports no sort in effect ({name!r}), so no name it takes is known")
    resp = fetch(role, list_paths[op], sort=name)
    if resp.status != 200:
        skip(SkipKind.OTHER, f"not judged: {op} answers sort={name} (the name it reports) with {resp.status}; "
             "which sort values it accepts is not shown")
    sorted_body = assert_json_response(resp, 200, f"{op} as {role} with sort={name}", rule)
    assert_schema(contract, op, 200, sorted_body, resp, rule)


KIND_PAGE_SIZE = 97
"""The page size test_list_access.py reads the question kinds with (its APART_PAGE_SIZE): the same run_once key and
value, so the kinds are found once per run whichever test asks first."""
ANSWER_STATE_KEYS = tuple(f"answer {s}" for s in node_kinds.ANSWER_STATES) + tuple(
    f"listAnswerComments {k}" for k in node_kinds.KIND_TESTS)
"""shapes25 (issue 44): the answers whose comment lists are judged: one of each answer state
(node_kinds.ANSWER_STATES), and the first answer of a question of each kind (node_kinds.KIND_TESTS)."""


@pytest.fixture(scope="module")
def answer_state_paths(api: dict[str, ApiClient], user_ids: dict[str, int], profile: Profile,
                       run_once: RunOnce) -> dict[str, str]:
    """Key of :data:`ANSWER_STATE_KEYS` -> the comment list's path of such an answer, found with reads once per run."""
    states = run_once("shapes25 answer states",
                      lambda: node_kinds.answer_state_paths(api, user_ids, node_kinds.LISTED_PAGE_SIZE))
    kinds = run_once("list access kind paths", lambda: node_kinds.kind_paths(api, profile, KIND_PAGE_SIZE))
    return {f"answer {k}": v for k, v in dict(states).items()} | dict(kinds)


@pytest.mark.rule("SHAPE-LIST-ANSWER-COMMENTS", "PAGING-ENVELOPE", "LIST-ITEM-TYPE", "CONV-JSON-EXTENSION",
                  "CONV-CONTENT-TYPE-JSON", "VERSION-PATH", "SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED")
@pytest.mark.parametrize("key", ANSWER_STATE_KEYS)
def test_the_comment_list_of_an_answer_in_each_state_has_its_item_schema(
    key: str, fetch: Fetch, answer_state_paths: dict[str, str], contract: Any
) -> None:
    """shapes25 (issue 44): the comment list of an answer in each state (a community-wiki answer, an accepted one,
    one in a child space; the first answer of a wiki, a marked and a child-space question), read by admin, judged
    against the list's schema ("Response: 200, paged list of Node items of type comment, with the sorts array.").
    The shape tests read the fixture answer's list only, so a server that renders the comments of a wiki answer
    through another serializer (round94-wiki-answer-comments-wiki-text) passed. Reads only: one per state."""
    if key not in answer_state_paths:
        skip(SkipKind.MISSING_FIXTURE, f"not checked: no {key.split(' ', 1)[1]} answer in the lists read")
    resp = fetch("admin", answer_state_paths[key])
    what = f"listAnswerComments of the {key} answer as admin"
    body = assert_json_response(resp, 200, what, "SHAPE-LIST-ANSWER-COMMENTS")
    items = (body.get("list") if isinstance(body, dict) else None) or []
    wrong = [(i.get("id"), i.get("type")) for i in items if isinstance(i, dict) and i.get("type") != "comment"]
    expect(not wrong, "LIST-ITEM-TYPE", f"{what} holds comment items; these are not (id, type): {wrong[:5]}", resp)
    assert_schema(contract, "listAnswerComments", 200, body, resp, "SHAPE-LIST-ANSWER-COMMENTS")


CHILD_SPACE_COMMENT = ("member", "to_moderators")
"""suites/own_question_private.py IN_CHILD_SPACE: the shared private comment the run posts under admin's shared answer
where found_nodes.child_space_or put that one in a child space (else under the shared answer)."""


@pytest.mark.writes  # the shared comment it asks for, when it is the first to
@pytest.mark.rule("SHAPE-LIST-ANSWER-COMMENTS", "PAGING-ENVELOPE", "LIST-ITEM-TYPE", "CONV-JSON-EXTENSION",
                  "CONV-CONTENT-TYPE-JSON", "VERSION-PATH", "SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED")
def test_the_comment_list_of_the_runs_answer_in_a_child_space_has_its_item_schema(
    request: pytest.FixtureRequest, fetch: Fetch, contract: Any, question_id: int
) -> None:
    """shapes25 (issue 44): the comment list of the answer member's shared to_moderators comment went under (admin's
    shared answer, in a child space where the run found one), read by admin, judged against the list's schema. The
    seeded answers of a child space carry no comment, so the state test above judges an empty list there. No write
    more: the comment is the run's shared write (posted once per run whichever test asks first, before moderator's
    shared lock of that answer as before_lock keeps it); one read."""
    try:
        written = request.getfixturevalue("private_comment_of")(*CHILD_SPACE_COMMENT)
    except pytest.skip.Exception as e:
        skip(SkipKind.MISSING_FIXTURE, f"not checked: member's shared to_moderators comment is not written ({e})")
    if not 200 <= written.resp.status < 300 or written.node is None or int(written.node) == question_id:
        skip(SkipKind.OTHER, "not checked: member's shared to_moderators comment is not under an answer of the run "
             f"(status {written.resp.status}, parent {written.node})")
    resp = fetch("admin", path("listAnswerComments", answerId=written.node))
    what = f"listAnswerComments of answer {written.node} (member's to_moderators comment's) as admin"
    body = assert_json_response(resp, 200, what, "SHAPE-LIST-ANSWER-COMMENTS")
    assert_schema(contract, "listAnswerComments", 200, body, resp, "SHAPE-LIST-ANSWER-COMMENTS")


OWN_FOLLOWED = ("member_wiki_node_id", "wiki_node_id", "favorite_node_id", "locked_question_id")
"""round63 (issue 44, a list's parent related to its items): the profile's nodes an account of its own wrote. A site
makes an author follow their post by default (the reference data's member wiki question is followed by member), so
their follower lists hold the node's own author: the item a server may render from the node already loaded (its
short author object) instead of the User the list states. The matrices read the fixture question's followers only,
whose author (novice) does not follow it."""


@pytest.mark.rule("SHAPE-LIST-NODE-FOLLOWERS", "PAGING-LISTCOUNT", "LIST-ITEM-TYPE", "PAGING-ENVELOPE",
                  "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON", "VERSION-PATH", "SHAPE-DATES-MILLIS",
                  "SHAPE-DATE-FORMATTED")
def test_the_follower_list_of_a_node_an_account_wrote_holds_user_items(
    fetch: Fetch, profile: Profile, contract: Any
) -> None:
    """Each node of :data:`OWN_FOLLOWED` the profile names, its follower list read by member (default mode): every
    item a User ("Response: 200, paged list (default-mode items are User items)."), listCount the number of items
    ("listCount | integer | Number of items in this page."). Reads only: a one-shot node read before or after its
    one call is still its author's node. A node member is refused (400, 403, 404) is not judged: the run may have sent
    it to moderation, and a site may hide a moderated node even from its author."""
    nodes = {name: getattr(profile.fixtures, name) for name in OWN_FOLLOWED if getattr(profile.fixtures, name)}
    if not nodes:
        skip(SkipKind.MISSING_FIXTURE, f"not checked: the profile names none of {', '.join(OWN_FOLLOWED)} (nodes "
                                       "an account wrote)", fixtures=list(OWN_FOLLOWED))
    hidden = []
    for name, node in nodes.items():
        resp = fetch("member", path("listNodeFollowers", nodeId=node))
        if resp.status in (400, 403, 404):  # the run may have moved the node (sent to moderation): who then reads
            hidden.append(f"{name} {node} ({resp.status})")  # it is the site's (moderated-hidden-from-author; an
            continue  # id the caller cannot see is 404, or 400 under unknown-node-400)
        body = assert_json_response(resp, 200, f"member lists the followers of {name} {node}",
                                    "SHAPE-LIST-NODE-FOLLOWERS")
        assert_schema(contract, "listNodeFollowers", 200, body, resp, "SHAPE-LIST-NODE-FOLLOWERS")
        items = body.get("list") if isinstance(body, dict) else None
        wrong = [i.get("id") for i in items or [] if isinstance(i, dict) and i.get("type") != "user"]
        expect(not wrong, "LIST-ITEM-TYPE", f"the followers of {name} {node} are User items (type user); these "
                                            f"are not: {wrong[:5]}", resp)
        problems = listcount_problems(body) if isinstance(body, dict) and isinstance(items, list) else []
        expect(not problems, "PAGING-LISTCOUNT", f"the followers of {name} {node}: {'; '.join(problems)}", resp)
    if len(hidden) == len(nodes):
        skip(SkipKind.OTHER, f"not judged: member is refused the follower list of each of these nodes "
                             f"({', '.join(hidden)}); the run may have sent them to moderation, and who reads a "
                             "moderated node's followers is not described")


@pytest.mark.rule("SHAPE-LIST-USER-CONTENT", "LIST-ARRAY-CONTENT", "SHAPE-CONTENT-ACTIONDATE", "CONV-JSON-EXTENSION",
                  "CONV-CONTENT-TYPE-JSON", "VERSION-PATH")
@pytest.mark.gdpr
@pytest.mark.rule("SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED")
def test_user_content_list_is_a_bare_array_of_content_entries(
    fetch: Fetch, user_ids: dict[str, int], contract: Any, read_only: bool
) -> None:
    subjects = ("admin", "member") if "admin" in user_ids else ("member",)  # admin's id may be unknown
    for subject in subjects:  # the reader's own content and another user's (blind7, issue 44)
        resp = fetch("admin", path("listUserContent", userId=user_ids[subject]))
        body = assert_json_response(resp, 200, f"admin lists {subject}'s content", "SHAPE-LIST-USER-CONTENT")
        expect(isinstance(body, list), "LIST-ARRAY-CONTENT",
               f"the user content list ({subject}'s, read by admin) is a JSON array, not the paged envelope", resp)
        assert_schema(contract, "listUserContent", 200, body, resp, "SHAPE-LIST-USER-CONTENT",
                      {"actionDate": "SHAPE-CONTENT-ACTIONDATE"})
    if not read_only:
        expect(body, "SHAPE-LIST-USER-CONTENT",
               "member has content (it posts answers in this run) but the list is empty", resp)


@pytest.mark.rule("SHAPE-LIST-ISSUE-TYPES", "LIST-ARRAY-ISSUETYPES", "ISSUETYPES-ARRAY", "CONV-JSON-EXTENSION",
                  "CONV-CONTENT-TYPE-JSON", "VERSION-PATH")
@pytest.mark.rule("SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED")
def test_issue_type_list_is_a_bare_array_of_named_objects(
    fetch: Fetch, require_fixture: Any, contract: Any
) -> None:
    tracker = require_fixture("issue_tracker")
    resp = fetch("admin", path("listIssueTypes", tracker=tracker))
    body = assert_json_response(resp, 200, "admin lists issue types", "SHAPE-LIST-ISSUE-TYPES")
    expect(isinstance(body, list), "LIST-ARRAY-ISSUETYPES",
           "the issue-type list is a JSON array, not the paged envelope", resp)
    nameless = [i for i in body if not (isinstance(i, dict) and isinstance(i.get("name"), str))]
    expect(not nameless, "ISSUETYPES-ARRAY",
           f"every issue type is an object with a string name; these are not: {nameless[:5]}", resp)
    assert_schema(contract, "listIssueTypes", 200, body, resp, "SHAPE-LIST-ISSUE-TYPES")


def _paging_values() -> list[str]:
    """The paging dimension's values (spec/dimensions.yaml), as every other list is crossed with them."""
    return [v for v in load_contract().dimensions.values["paging"] if v != NONE]


@pytest.mark.rule("LIST-ARRAY-ISSUETYPES", "ISSUETYPES-ARRAY")
@pytest.mark.parametrize("paging", _paging_values())
def test_issue_type_list_is_a_bare_array_whatever_paging_parameters_it_is_sent(
    paging: str, fetch: Fetch, require_fixture: Any
) -> None:
    """blindc (issue 44): "Response: 200, a JSON array of objects with name (string)." holds with no condition, so
    also when the Conventions' paging parameters ("Paging parameters: page ..., pageSize ..., sort") come with the
    request, as they do on every other list (the paging dimension). What they do here is not shown ("Query
    parameters and paging of this endpoint: not shown", OBS-ISSUETYPES-PAGING records it): a refusal is not judged;
    a 200 is the bare array, whichever items it holds (a server that routes a paged request through its generic
    list controller answers the envelope)."""
    tracker = require_fixture("issue_tracker")
    resp = fetch("admin", path("listIssueTypes", tracker=tracker), **dict(parse_qsl(paging)))
    if resp.status != 200:
        skip(SkipKind.OTHER, f"not judged: the target answers {resp.status} to {paging} on the issue-type list, whose "
                             "query parameters are not shown")
    try:
        body = resp.json()
    except TargetError:  # not JSON: not the array either (the failure shows the response)
        body = None
    expect(isinstance(body, list), "LIST-ARRAY-ISSUETYPES",
           f"with {paging} the issue-type list is still a JSON array (\"Response: 200, a JSON array\"), not the paged "
           "envelope", resp)
    nameless = [i for i in body if not (isinstance(i, dict) and isinstance(i.get("name"), str))]
    expect(not nameless, "ISSUETYPES-ARRAY",
           f"with {paging} every issue type is an object with a string name; these are not: {nameless[:5]}", resp)


@pytest.mark.rule("SHAPE-POST-ANSWER", "ANSWER-201", "ANSWER-LOCATION", "ANSWER-ID-STRING", "ANSWER-PARENT-FIELDS",
                  "ANSWER-PLUG-NULL", "NODE-TITLE-ANSWERS-COMMENTS", "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON",
                  "VERSION-PATH", "SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED")
@pytest.mark.writes
@pytest.mark.parametrize(
    "role",
    ["admin", "moderator", "member"],  # a caller without Publish answer: "Answer is created" (no status given)
)
def test_posting_an_answer_gives_201_the_new_node_and_its_location(
    role: str, contract: Any, answer_of: Callable[[str], Any]
) -> None:
    """The account's shared answer (suites/conftest.py ``answer_of``: the permission and author tests read it too),
    under the question it went to (moderator's: the profile's locked question, when it names one)."""
    posted = answer_of(role)
    resp, question_id = posted.resp, int(posted.node)
    body = assert_json_response(resp, 201, f"{role} posts an answer", "ANSWER-201")
    expect(isinstance(body, dict), "SHAPE-POST-ANSWER", "the 201 body is the new Node object", resp)
    expect(isinstance(body.get("id"), str) and body["id"].isdecimal(), "ANSWER-ID-STRING",
           f"the id in the response to posting an answer is a string of digits, got {body.get('id')!r}", resp)
    expect(body.get("parentId") == question_id, "ANSWER-PARENT-FIELDS",
           f"parentId of the new answer is the question {question_id}, got {body.get('parentId')!r}", resp)
    expect("plug" in body and body["plug"] is None, "ANSWER-PLUG-NULL", "a new answer carries plug: null", resp)
    expect(body.get("title") is None, "NODE-TITLE-ANSWERS-COMMENTS", "answers carry no title (absent or null)", resp)
    assert_schema(contract, "postAnswer", 201, body, resp, "SHAPE-POST-ANSWER",
                  {"id": "ANSWER-ID-STRING", "parentId": "ANSWER-PARENT-FIELDS", "parentAuthor": "ANSWER-PARENT-FIELDS",
                   "plug": "ANSWER-PLUG-NULL", "title": "NODE-TITLE-ANSWERS-COMMENTS"})
    assert_location_names(resp, int(body["id"]), f"{role} posts an answer", "ANSWER-LOCATION")


@pytest.mark.rule("SHAPE-POST-COMMENT", "COMMENT-201-LOCATION", "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON",
                  "VERSION-PATH")
@pytest.mark.writes
@pytest.mark.parametrize("role", ["admin", "moderator", "member", "novice"])
def test_posting_a_comment_gives_201_and_the_location_of_the_new_comment(
    role: str, comment_of: Callable[[str], Any]
) -> None:
    """The account's shared plain comment (suites/conftest.py ``comment_of``: the permission and default-visibility
    tests read it too)."""
    posted = comment_of(role)
    resp = posted.resp
    what = f"{role} comments on answer {posted.node}"
    assert_status(resp, 201, what, "SHAPE-POST-COMMENT")
    if resp.content.strip():
        assert_json_body(resp, what)  # the body is not shown; when there is one, it is JSON
    assert_location_names(resp, new_id(resp), what, "COMMENT-201-LOCATION")


def _assert_action_result(resp: ApiResponse, op: str, what: str, contract: Any, rule: str) -> None:
    body = assert_json_response(resp, 200, what, rule)
    # round14 (issue 44): the operation's shape rule quotes the same response line as ACTION-WRAPPERS ("200 with
    # {success: boolean, result: ...}"), so a success missing or not a boolean on one path breaks both
    if isinstance(body, dict) and not isinstance(body.get("success"), bool):
        fail(["ACTION-WRAPPERS", rule], f"{what}: the 200 is {{success: boolean, result: ...}}; success is "
             f"{body.get('success')!r}", resp)
    # a missing wrapper field or record field breaks the rule that states it (the wrappers, the record), once
    assert_schema(contract, op, 200, body, resp, rule, {"actionDate": "SHAPE-ACTIONDATE", "success": "ACTION-WRAPPERS",
                                                         "ip": "ACTION-RECORD-SHAPE"})


@pytest.mark.rule("SHAPE-UNMARK-FAVORITE", "SHAPE-ACTIONDATE", "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON",
                  "VERSION-PATH")
@pytest.mark.writes
@pytest.mark.rule("ACTION-RECORD-SHAPE", "ACTION-WRAPPERS", "SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED")
def test_unfavoriting_gives_200_with_the_favorite_action_and_count(unfavorite_once: ApiResponse, contract: Any) -> None:
    _assert_action_result(unfavorite_once, "unmarkFavorite", "member unfavorites favorite_node_id", contract,
                          "SHAPE-UNMARK-FAVORITE")


@pytest.mark.rule("SHAPE-CANCEL-WIKI", "SHAPE-ACTIONDATE", "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON",
                  "VERSION-PATH")
@pytest.mark.writes
@pytest.mark.rule("ACTION-RECORD-SHAPE", "ACTION-WRAPPERS", "SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED")
def test_unwikifying_own_node_gives_200_with_the_wikify_action(cancelwiki_own_once: ApiResponse, contract: Any) -> None:
    _assert_action_result(cancelwiki_own_once, "cancelWiki", "member unwikifies member_wiki_node_id", contract,
                          "SHAPE-CANCEL-WIKI")


@pytest.mark.rule("SHAPE-CANCEL-WIKI", "SHAPE-ACTIONDATE")
@pytest.mark.writes
@pytest.mark.rule("ACTION-RECORD-SHAPE", "ACTION-WRAPPERS", "SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED",
                  "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON", "VERSION-PATH")  # cross17: its checks name them
def test_unwikifying_anothers_node_with_mark_as_wiki_gives_200_with_the_wikify_action(
    cancelwiki_once: ApiResponse, wiki_unwikifier: str, contract: Any
) -> None:
    _assert_action_result(cancelwiki_once, "cancelWiki", f"{wiki_unwikifier} unwikifies wiki_node_id", contract,
                          "SHAPE-CANCEL-WIKI")


@pytest.mark.rule("SHAPE-SEND-TO-MODERATION", "SHAPE-ACTIONDATE", "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON",
                  "VERSION-PATH")
@pytest.mark.writes
@pytest.mark.parametrize("role", ["admin", "moderator"])
@pytest.mark.rule("ACTION-RECORD-SHAPE", "ACTION-WRAPPERS", "SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED")
def test_sending_a_published_node_to_moderation_gives_200_with_the_action(
    role: str, contract: Any, sent_to_mod_by: Callable[[str], Any]
) -> None:
    """The account's shared send to moderation (suites/conftest.py ``sent_to_mod_by``)."""
    sent = sent_to_mod_by(role)
    _assert_action_result(sent.resp, "sendToModeration", f"{role} sends node {sent.node} to moderation", contract,
                          "SHAPE-SEND-TO-MODERATION")


@pytest.mark.rule("SHAPE-LOCK-NODE", "SHAPE-ACTIONDATE", "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON",
                  "VERSION-PATH")
@pytest.mark.writes
@pytest.mark.parametrize("role", ["admin", "moderator", "member"])
@pytest.mark.rule("ACTION-RECORD-SHAPE", "ACTION-WRAPPERS", "SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED")
def test_locking_a_node_with_a_prompt_gives_200_with_the_lock_action(
    role: str, contract: Any, locked_by: Callable[[str], Any]
) -> None:
    """The account's shared lock (suites/conftest.py ``locked_by``): admin and moderator lock another account's
    answer, member its own (Lock comments on own posts)."""
    lock = locked_by(role)
    _assert_action_result(lock.resp, "lockNode", f"{role} locks answer {lock.node}", contract, "SHAPE-LOCK-NODE")


GDPR_MAIN_JOB_TEST = "test_gdpr_jobs.py::test_a_valid_individual_job_is_scheduled_with_201_and_a_job_id"


@pytest.mark.rule("SHAPE-SCHEDULE-GDPR-JOB", "CONV-JSON-EXTENSION", "CONV-CONTENT-TYPE-JSON", "VERSION-PATH")
@pytest.mark.gdpr
@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.rule("SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED")
def test_scheduling_a_valid_data_protection_job_gives_201_with_a_job_id(
    admin: ApiClient, profile: Profile, contract: Any, request: pytest.FixtureRequest
) -> None:
    # A successful job cannot be undone and a run schedules at most three: when the data-protection suite's main job
    # (which names this rule too) runs in this session, this one is not sent. Alone (--only contract) it is.
    if any(item.nodeid.endswith(GDPR_MAIN_JOB_TEST) for item in request.session.items):
        skip(SkipKind.OTHER, f"checked by {GDPR_MAIN_JOB_TEST} in this run (one successful job fewer on the target)")
    user = profile.safety.gdpr_user
    if not user:
        skip(SkipKind.SAFETY,
             "not allowed by safety: [safety] gdpr_user is not set, so the kit may name no user in a job")
    rnd = random.Random()
    when = f"{rnd.randint(1, 12):02d}/{rnd.randint(1, 28):02d}/{rnd.randint(2031, 2039)} " \
           f"{rnd.randint(0, 23):02d}:{rnd.randint(0, 59):02d}"
    job = {"type": "individual", "user": profile.safety.user_spec(), "scheduleDate": {"formatted": when},
           "operations": ["suspend"]}
    resp = admin.post("jobs/gdpr/schedule.json", json=job, operation="scheduleGdprJob")
    body = assert_json_response(resp, 201, f"admin schedules a suspend job for {user} at {when}",
                                "SHAPE-SCHEDULE-GDPR-JOB")
    assert_schema(contract, "scheduleGdprJob", 201, body, resp, "SHAPE-SCHEDULE-GDPR-JOB")
