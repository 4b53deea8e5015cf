"""The request conventions of the description: body fields as parameters (the parameter wins), bodies that do not
match their Content-Type, Basic authentication, and no server error for anything a client can send.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from listops import Fetch
from recipient_encodings import PARENTS, ROWS, described, encoded
from thread_commenter import learned_saved, response

from qaconform import contract
from qaconform.invariants import is_json_content_type
from qaconform.pytest import named_reads
from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.refusals import off_the_interface
from qaconform.pytest.support import (
    LOSING_BODY,
    body_holds,
    find_listed,
    new_id,
    present,
    register_wrongly_created,
)
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile, VisibilityOptions

pytestmark = pytest.mark.contract

_BULK_NO_CSV = "The bulk type was selected, but the request is missing the csvFileId field."


def _stored_comment(client: ApiClient, answer_id: int, resp: ApiResponse, created: Any | None) -> dict[str, Any]:
    """The comment a 201 created: registered as the run's, then read back from its answer's comment list (by its
    author, who sees it whatever its visibility; within the settle window, as a list may lag writes).

    The comments of this module go under the session's ``shared_answer``, not an answer each (issue 29: a run's
    writes are budgeted): each is found by its id, whatever else the answer holds."""
    comment_id = new_id(resp)
    if created is not None:  # None: registered where it was posted (thread_commenter.learned_saved)
        created.add("comment", comment_id, client.role)
    path = contract.path("listAnswerComments", answerId=answer_id)
    item = find_listed(client, path, comment_id, until=present)
    assert item is not None, (
        f"comment {comment_id} (by {client.role}) is not in its answer {answer_id}'s comment list; "
        f"Reproduce with: {client.url(path)}")
    return item


@dataclass(frozen=True)
class Both:
    """member's one comment whose body and visibility are each given as a parameter AND in the JSON body, with other
    values: the parameter of each must win. Both tests read it (issue 29: a run's writes are budgeted)."""

    resp: ApiResponse
    item: dict[str, Any] | None
    param_text: str
    body_text: str


@pytest.fixture(scope="module")
def given_both(member: ApiClient, shared_answer: int, run_tag: str, created: Any, vis: VisibilityOptions,
               profile: Profile) -> Both:
    """Visibility goes into the pair only where the target has it (2.16.0) and the profile names both options'
    wire values; the body pair is sent either way."""
    n = random.randrange(10**9)
    param_text, body_text = f"parameter wins [{run_tag}] {n}", f"body loses [{run_tag}] {n}"
    params: dict[str, Any] = {"body": param_text}
    body: dict[str, Any] = {"body": body_text}
    if _visibility_pair(vis, profile) is None:
        params["visibility"], body["visibility"] = vis.to_moderators, vis.to_original_poster
    resp = member.post(f"node/{shared_answer}/comment.json", params=params, json=body, operation="postComment")
    item = _stored_comment(member, shared_answer, resp, created) if resp.status == 201 else None
    return Both(resp, item, param_text, body_text)


def _visibility_pair(vis: VisibilityOptions, profile: Profile) -> str | None:
    """Why the visibility pair cannot be sent, or None when it can."""
    if not profile.supports("2.16.0"):
        return f"disabled by configuration: visibility was added in 2.16.0, the target runs {profile.service_version}"
    if vis.to_original_poster is None or vis.to_moderators is None:
        return ("not checked: the profile's [visibility] lacks the wire value of to_original_poster or "
                "to_moderators")
    return None


@pytest.mark.rule("CONV-PARAM-WINS-COMMENT")
@pytest.mark.comments
@pytest.mark.writes
def test_a_comment_body_given_as_parameter_and_in_the_body_is_stored_as_the_parameter(given_both: Both) -> None:
    resp = given_both.resp
    expect(resp.status == 201, _created_rule(resp, "SHAPE-POST-COMMENT", "CONV-PARAM-WINS-COMMENT"),
           "expected 201", resp)
    stored = (given_both.item or {}).get("body")
    assert body_holds(stored, given_both.param_text) and not body_holds(stored, given_both.body_text), (
        f"when a field is both a parameter and in the body, the parameter wins: the stored body is {stored!r}, "
        f"expected {given_both.param_text!r}\n{resp.describe()}")


@dataclass(frozen=True)
class Learned:
    """member's comment private to moderator whose every field is a request parameter (recipient_encodings.py):
    the response the run keeps, the encoding of recipients the target took (None: it took none tried, and the comment
    went with visibility a query parameter beside recipients in the JSON body, as before forms25), the encodings
    it refused first, with their status, and the answer it went under (hist26: thread_commenter.py)."""

    resp: ApiResponse
    encoding: str | None
    refused: tuple[tuple[str, int], ...]
    parent: int


@pytest.fixture(scope="module")
def recipients_learned(request: pytest.FixtureRequest) -> Learned | None:
    """forms25 (issue 44): the recipients encoding the target reads as a request parameter, learned from the one
    accepted write the visibility-parameter test made before (each encoding a target refuses is a refusal); once per
    run and target (its writes the suites'). hist26: the comment goes under an answer of the profile's accepted wiki
    question where there is one (thread_commenter.py: member's refused unwikify of that question follows it), else
    under the shared answer. None where the write cannot be made (before 2.16.0, no wire value of recipients, no id
    of moderator)."""
    got = learned_saved(request)
    if got is None:
        return None
    return Learned(response(got), got["encoding"], tuple((e, int(s)) for e, s in got["refused"]), int(got["parent"]))


@pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD", "VERSION-PRIVATE-COMMENTS-2160", "COMMENT-2")
@pytest.mark.comments
@pytest.mark.writes
@pytest.mark.parametrize("option", ["recipients"])
def test_a_comment_visibility_given_only_as_a_parameter_is_stored(
    option: str, member: ApiClient, shared_answer: int, created: Any, vis: VisibilityOptions,
    user_ids: dict[str, int], profile: Profile, api: dict[str, ApiClient], recipients_learned: Learned | None
) -> None:
    """visibility is a body field of the comment, so it may be a parameter too: here every field of a comment
    private to moderator is a form-encoded request parameter, recipients in the first encoding the target takes
    (forms25: :func:`recipients_learned`, recipient_encodings.py); where it takes none, visibility is a query parameter
    beside recipients in the JSON body (the parameter form of an array of objects is not shown). The other options as
    parameters, and a comment's or an answer's body given only as a parameter, are test_stated_forms.py's cases
    (query and form; one account per form under a write budget, every account under --thorough)."""
    if not profile.supports("2.16.0"):
        skip(SkipKind.CONFIGURATION, f"disabled by configuration: visibility was added in 2.16.0, the target runs "
                                     f"{profile.service_version}")
    value = getattr(vis, option)
    if value is None or recipients_learned is None:
        skip(SkipKind.OTHER, f"not checked: the profile's [visibility] names no wire value for {option}, or no id "
                             "of moderator is known")
    learned = recipients_learned
    resp = learned.resp
    how = (f"form-encoded, recipients as {described(learned.encoding)}" if learned.encoding
           else "as a query parameter, recipients in the JSON body")
    # forms25: the form-encoded comment's settings are all parameters, so a setting lost is either rule's
    rules = ["CONV-PARAM-AS-BODY-FIELD", "COMMENT-2"] if learned.encoding else ["CONV-PARAM-AS-BODY-FIELD"]
    expect(resp.status == 201, "CONV-PARAM-AS-BODY-FIELD",
           f"member (Use Private Comments and the option) gives visibility={value} {how}: expected 201", resp)
    item = _stored_comment(member, learned.parent, resp, None)
    expect(item.get("visibility") == value, rules,
           f"visibility given {how} counts like the body field: the comment reads back with visibility "
           f"{item.get('visibility')!r}, expected {value!r}", resp)
    if learned.encoding:  # the recipients it took: "a GET returns the given settings" (COMMENT-2)
        read = item.get("recipients")
        got = sorted(str(r.get("id")) for r in read if isinstance(r, dict)) if isinstance(read, list) else read
        expect(got == [str(user_ids["moderator"])], "COMMENT-2",
               f"member's comment private to moderator ({how}) reads back with recipients {read!r}: \"a GET returns "
               "the given settings\"", resp)
    # reads16 (issue 44 item 2): the recipient the body names reads it back (COMMENT-2: "private to those
    # recipients"), and an account it does not name must not see it (the parameter's visibility taken)
    named_reads.judge_each(api, profile, learned.parent, new_id(resp), "member",
                           {"moderator": "COMMENT-2"}, "COMMENT-2" if learned.encoding else "CONV-PARAM-AS-BODY-FIELD",
                           f"member's comment with visibility={value} {how}")


@pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD", "COMMENT-6")
@pytest.mark.comments
@pytest.mark.writes
@pytest.mark.refused_writes
@pytest.mark.parametrize("parent", PARENTS)
@pytest.mark.parametrize("row", ROWS)
def test_recipients_in_the_encoding_the_target_reads_count_in_every_parameter_form(
        row: str, parent: str, member: ApiClient, shared_answer: int, question_id: int, run_tag: str, created: Any,
        vis: VisibilityOptions, user_ids: dict[str, int], profile: Profile,
        recipients_learned: Learned | None) -> None:
    """forms25 (issue 44): "each body field may also be given as a request or query parameter of the same name".
    The target has shown the encoding of recipients it reads as a request parameter (a form-encoded comment it took,
    :func:`recipients_learned`); the same parameter in the same encoding counts in the query string alone, beside a
    JSON body and beside a form-encoded body, on an answer and on a question. Each row names a visibility that is not
    recipients, so a target that reads the parameter refuses it (comment rule 6: "recipients given while visibility
    is not recipients gives 400"): no accepted write. A 2xx is a comment taken with recipients unread
    (CONV-PARAM-AS-BODY-FIELD) or read against rule 6 (COMMENT-6); another 4xx is not judged (said so)."""
    learned = recipients_learned
    if learned is None or learned.encoding is None or learned.resp.status != 201:
        tried = ", ".join(f"{described(e)}: {s}" for e, s in learned.refused) if learned else "none"
        skip(SkipKind.OTHER, "not judged: the target took recipients in no encoding tried as form-encoded request "
                             f"parameters ({tried}); the parameter form of an array of objects is not shown")
    other = profile.visibility.full or vis.to_original_poster
    if other is None:
        skip(SkipKind.OTHER, "not checked: the profile names no wire value of a visibility other than recipients")
    node = shared_answer if parent == "answer" else question_id
    path = contract.path("postComment", nodeId=node)
    fields = [("body", f"recipients as a {row} parameter on the {parent} [{run_tag}] {random.randrange(10**9)}"),
              ("visibility", other)]
    pairs = encoded(learned.encoding, [user_ids["moderator"]])
    if row == "query":
        resp = member.post(path, params=fields + pairs, operation="postComment")
    elif row == "beside_json":
        resp = member.post(path, params=pairs, json=dict(fields), operation="postComment")
    else:
        resp = member.post(path, params=pairs, data=dict(fields), operation="postComment")
    register_wrongly_created(resp, created, "member")
    where = {"query": "every field a query parameter", "beside_json": "as a query parameter beside a JSON body",
             "beside_form": "as a query parameter beside a form-encoded body"}[row]
    if resp.status == 400:
        return
    if 400 <= resp.status < 500 and not off_the_interface(resp):
        skip(SkipKind.OTHER, f"not judged: refused with {resp.status}, not rule 6's 400 (a refusal for a reason "
                             "this row does not judge)")
    fail(["CONV-PARAM-AS-BODY-FIELD", "COMMENT-6"],
         f"member's comment on the {parent} {node} with visibility={other!r} and recipients {where}, in the "
         f"encoding the target took form-encoded ({described(learned.encoding)}): a target that reads the parameter "
         f"refuses it with 400 (\"recipients given while visibility is not recipients gives 400\"); got "
         f"{resp.status}", resp)


@pytest.mark.rule("CONV-PARAM-WINS-COMMENT")
@pytest.mark.comments
@pytest.mark.writes
def test_a_comment_visibility_given_as_parameter_and_in_the_body_is_stored_as_the_parameter(
    given_both: Both, vis: VisibilityOptions, profile: Profile
) -> None:
    """The visibility pair of the comment the body test reads: to_moderators as a parameter, to_original_poster in
    the body (member may use both)."""
    why = _visibility_pair(vis, profile)
    if why is not None:
        skip(SkipKind.CONFIGURATION if why.startswith("disabled") else SkipKind.OTHER, why)
    resp = given_both.resp
    assert resp.status == 201, f"member may use both options: expected 201\n{resp.describe()}"
    got = (given_both.item or {}).get("visibility")
    assert got == vis.to_moderators, (
        f"visibility {vis.to_moderators!r} as a parameter and {vis.to_original_poster!r} in the body: the parameter "
        f"wins, yet the comment reads back with {got!r}\n{resp.describe()}")


def _created_rule(resp: ApiResponse, status_rule: str, own_rule: str) -> str:
    """A creation answered with another 2xx breaks the status rule (the parameters were taken); a refusal, the
    convention this test checks."""
    return status_rule if 200 <= resp.status < 300 else own_rule


def _post_answer_raw(client: ApiClient, question_id: int, **kw: Any) -> ApiResponse:
    return client.post(f"question/{question_id}/answer.json", operation="postAnswer", **kw)


@pytest.mark.rule("CONV-PARAM-WINS-ANSWER")
@pytest.mark.writes
def test_an_answer_body_given_as_parameter_and_in_the_body_is_stored_as_the_parameter(
    member: ApiClient, answer_in: Callable[[str, str], Any], user_ids: dict[str, int],
    listed_before_the_moves: Callable[[int | None, int], Any],
) -> None:
    """member's shared answer whose body is a query parameter beside a JSON body that says otherwise
    (suites/conftest.py ``answer_in(member, param_wins)``, which the answer form matrix reads too). accept22: under
    member's wiki question, which the run later sends to moderation, the read made right after the post."""
    posted = answer_in("member", "param_wins")
    resp = posted.resp
    expect(resp.status == 201, _created_rule(resp, "ANSWER-201", "CONV-PARAM-WINS-ANSWER"), "expected 201", resp)
    answer_id = new_id(resp)
    early, item = listed_before_the_moves(posted.node, answer_id)
    if not early:
        item = find_listed(member, f"user/{user_ids['member']}/answer.json", answer_id, until=present)
    assert item is not None, f"answer {answer_id} is not in member's answer list\n{resp.describe()}"
    stored = item.get("body")
    assert body_holds(stored, posted.text) and not body_holds(stored, LOSING_BODY), (
        f"when a field is both a parameter and in the body, the parameter wins: the stored body is {stored!r}, "
        f"expected {posted.text!r}\n{resp.describe()}")


def _future_minute() -> str:
    rnd = random.Random()
    return f"{rnd.randint(1, 12):02d}/{rnd.randint(1, 28):02d}/{rnd.randint(2031, 2039)} " \
           f"{rnd.randint(0, 23):02d}:{rnd.randint(0, 59):02d}"


_NO_USER_PREFIX = "The individual type was selected, but the request is missing the user"
"""The start of the individual kind's missing-field row ("{error} starting: ...": the rest is not given)."""
_MISSING_ROW = {"bulk": (_BULK_NO_CSV, "csvFileId"), "individual": (_NO_USER_PREFIX, "user")}
"""Each stated value of type -> the start of its missing-field row in the Errors table, and the field it names."""


@pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD-GDPR")
@pytest.mark.gdpr
@pytest.mark.parametrize("param_type", ["bulk", "individual"])
@pytest.mark.parametrize("body_type", [False, True], ids=["type-only-as-parameter", "parameter-wins-over-body"])
@pytest.mark.writes  # a server that does not refuse it schedules a job
@pytest.mark.refused_writes
def test_a_job_type_given_as_a_parameter_counts(admin: ApiClient, param_type: str, body_type: bool) -> None:
    """?type=<kind> counts, alone and against the body's other kind, for each stated value of type (round26, issue
    44: a server that honoured the parameter for bulk only passed the bulk row): the answer is that kind's
    missing-field row. No csvFileId and no user: whichever type the server takes, no job can be scheduled."""
    job: dict[str, Any] = {"scheduleDate": {"formatted": _future_minute()}, "operations": ["suspend"]}
    other = "individual" if param_type == "bulk" else "bulk"
    if body_type:
        job["type"] = other
    resp = admin.post("jobs/gdpr/schedule.json", params={"type": param_type}, json=job, operation="scheduleGdprJob")
    row, missing = _MISSING_ROW[param_type]
    assert resp.status == 400, f"?type={param_type} without {missing} is the {param_type}-type 400\n{resp.describe()}"
    body = resp.json()
    error = body.get("error") if isinstance(body, dict) else None
    against = f" and wins over the body's type {other!r}" if body_type else ""
    assert isinstance(error, str) and error.startswith(row), (
        f"the parameter type={param_type} counts{against}: expected {{error: {row!r}...}} (the {param_type} kind's "
        f"row: {missing} is missing), got {error!r}\n{resp.describe()}")


_BAD_BODIES = [
    pytest.param(b'{"body": "unterminated', id="truncated-json"),
    pytest.param(b"<comment><body>xml</body></comment>", id="xml-as-json"),
    pytest.param(b'{"body": "\xff\xfe not utf-8"}', id="not-utf-8"),
]
_POSTS = [
    pytest.param("postComment", "member", id="postComment"),
    pytest.param("postAnswer", "member", id="postAnswer"),
    pytest.param("scheduleGdprJob", "admin", id="scheduleGdprJob"),
]


def _post_path(op: str, question_id: int) -> str:
    return {"postComment": f"node/{question_id}/comment.json", "postAnswer": f"question/{question_id}/answer.json",
            "scheduleGdprJob": "jobs/gdpr/schedule.json"}[op]


@pytest.mark.rule("CONV-BODY-FORMAT", "CONV-NO-SERVER-ERROR", "CONV-CONTENT-TYPE-JSON")
@pytest.mark.parametrize(("op", "role"), _POSTS)
@pytest.mark.parametrize("raw", _BAD_BODIES)
@pytest.mark.writes
@pytest.mark.refused_writes
def test_a_body_that_is_not_the_json_its_content_type_says_is_refused_with_a_4xx(
    op: str, role: str, raw: bytes, api: dict[str, ApiClient], question_id: int
) -> None:
    resp = api[role].post(_post_path(op, question_id), data=raw, headers={"Content-Type": "application/json"},
                          operation=op)
    rules = ("CONV-BODY-FORMAT", "CONV-NO-SERVER-ERROR") if resp.status >= 500 else ("CONV-BODY-FORMAT",)
    expect(400 <= resp.status < 500, rules,
           f"{op}: a body that is not valid JSON under Content-Type application/json is refused with a 4xx, got "
           f"{resp.status}", resp)
    if resp.content.strip().startswith((b"{", b"[")):
        expect(is_json_content_type(resp.content_type), "CONV-CONTENT-TYPE-JSON",
               f"{op}: the refusal carries a JSON body, so its Content-Type is application/json", resp)


@pytest.mark.rule("CONV-NO-SERVER-ERROR")
@pytest.mark.parametrize("params", [
    {"pageSize": 0}, {"pageSize": -1}, {"pageSize": 100000}, {"page": -1}, {"page": 999999},
    {"pageSize": "abc"}, {"page": "x"}, {"sort": "%00"}, {"includeOnly": ",,,"}, {"spaceId": "abc"},
    {"q": "'\"<>;--"},
], ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()))
def test_odd_list_parameters_never_give_a_server_error(params: dict[str, Any], member: ApiClient) -> None:
    resp = member.get("question.json", params=params, operation="listQuestions")
    assert resp.status < 500, f"a client's odd parameter is a client matter (2xx or 4xx), never a 5xx\n" \
                              f"{resp.describe()}"


@pytest.mark.rule("CONV-NO-SERVER-ERROR")
@pytest.mark.parametrize("path", [
    "user/999999999/answer.json", "user/999999999/question.json", "answer/999999999/comment.json",
    "node/999999999/followers.json", "user/abc/answer.json", "users/gdpr/abc/content.json",
])
def test_unknown_or_malformed_path_ids_never_give_a_server_error(path: str, admin: ApiClient) -> None:
    resp = admin.get(path)
    assert resp.status < 500, f"an unknown or malformed id is a client matter (2xx or 4xx), never a 5xx\n" \
                              f"{resp.describe()}"


@pytest.mark.rule("AUTH-BASIC")
@pytest.mark.parametrize("role", ["admin", "moderator", "member", "novice"])
@pytest.mark.parametrize("path", ["question.json", "user/retrieveAllExperts.json", "space.json"])
def test_basic_credentials_of_a_valid_account_are_accepted(role: str, path: str, fetch: Fetch) -> None:
    resp = fetch(role, path)
    assert resp.status == 200, f"{role}'s Basic credentials are valid, so {path} answers 200\n{resp.describe()}"


@pytest.mark.rule("CONV-PARAM-WINS-ANSWER", "TEXT-NON-ASCII")
@pytest.mark.writes
def test_an_answer_posted_with_wrap_stores_the_body_parameter_over_the_json_body(
        member: ApiClient, shared_answer: int, shared_answer_wrapped: dict[str, Any],
        user_ids: dict[str, int]) -> None:
    """trade12 (issue 44): the run's shared answer, sent with the option wrap and its body as a query parameter beside
    a JSON body that says otherwise (suites/shared_answer_post.py: no write of its own), is read back from member's
    answer list: "When both are given, the parameter wins", whatever option comes with it."""
    sent = shared_answer_wrapped
    if not sent["wrapped"]:
        skip(SkipKind.OTHER, f"not judged: the shared answer sent with wrap=true was answered {sent['status']} (the "
                             "values and effect of wrap are not shown), so it was posted without it")
    if "member" not in user_ids:
        skip(SkipKind.OTHER, "not checked: member's user id is unknown, so its answer list cannot be read")
    path = contract.path("listUserAnswers", userId=user_ids["member"])
    item = find_listed(member, path, shared_answer, until=present)
    assert item is not None, f"the shared answer {shared_answer} is not in member's answer list (GET {path})"
    stored = item.get("body")
    head = sent.get("head", sent["text"])  # round81: which body won, judged on the ASCII head alone
    expect(body_holds(stored, head) and not body_holds(stored, LOSING_BODY),
           "CONV-PARAM-WINS-ANSWER",
           f"answer {shared_answer} was sent with wrap=true, its body a query parameter beside a JSON body: the "
           f"parameter wins, yet it is stored as {stored!r}, expected {sent['text']!r}")
    expect(body_holds(stored, sent["text"]), "TEXT-NON-ASCII",
           f"answer {shared_answer}'s body parameter, sent with wrap=true, carries text beyond ASCII: 'body "
           f"(string, the answer text)' reads back unchanged in any stated form, yet it is stored as "
           f"{stored!r}, expected {sent['text']!r}")
