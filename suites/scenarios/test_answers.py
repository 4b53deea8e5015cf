"""Posting answers (operation 7): what the 201 carries, who is its author, and who then sees the answer.

The description is explicit about the response to a posted answer (201, Location, id as a string, parentId,
parentAuthor, plug null) and about publication: with Publish answer the answer is published, without it the answer
is still created but goes to the moderation queue. Whether other users see a moderated answer is not shown, so it
is recorded, never judged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from qaconform.invariants import is_json_content_type
from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.support import answer_form, body_holds, find_listed, new_id, present
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.contract, pytest.mark.writes]


@dataclass(frozen=True)
class Posted:
    """One answer this module posted: the raw 201 (or whatever came), the unique text it carried, who posted it."""

    resp: ApiResponse
    text: str
    role: str

    @property
    def body(self) -> Any:
        return self.resp.json()


def _shared(answer_of: Callable[[str], Any], role: str) -> Posted:
    posted = answer_of(role)
    return Posted(posted.resp, posted.text, role)


@pytest.fixture(scope="module")
def member_posted(answer_of: Callable[[str], Any]) -> Posted:
    """member (Answer questions + Publish answer) posts one answer; the read-only tests below share it (it is the
    run's shared answer of member's, suites/conftest.py ``answer_of``, which the permission and shape tests read)."""
    return _shared(answer_of, "member")


@pytest.fixture(scope="module")
def novice_posted(answer_of: Callable[[str], Any]) -> Posted:
    """novice (Answer questions, no Publish answer) posts one answer: it goes to moderation, but is created (the
    run's shared answer of novice's)."""
    return _shared(answer_of, "novice")


def _safe_find(client: ApiClient, path: str, node_id: int, params: dict[str, Any] | None = None) -> Any:
    """find_listed for observations: the item, None when absent, or a string saying why the list was unreadable."""
    try:
        return find_listed(client, path, node_id, params, max_pages=10)
    except AssertionError as exc:
        return f"unreadable: {str(exc).splitlines()[0][:200]}"


def _listed_or_why(client: ApiClient, path: str, node_id: int) -> bool | str:
    found = _safe_find(client, path, node_id)
    return found if isinstance(found, str) else found is not None


def _created(p: Posted) -> dict[str, Any]:
    """The 201 body, or a failure that says the post itself did not work (so later checks are not misleading)."""
    expect(p.resp.status == 201, "ANSWER-201", f"{p.role} could not post an answer (expected 201)", p.resp)
    body = p.body
    expect(isinstance(body, dict), "SHAPE-POST-ANSWER",
           "the 201 body of a posted answer must be a Node object", p.resp)
    return body


@pytest.mark.rule("ANSWER-201", "CONV-CONTENT-TYPE-JSON")
def test_posting_an_answer_with_a_body_to_a_visible_question_gives_201(member_posted: Posted) -> None:
    r = member_posted.resp
    expect(r.status == 201, "ANSWER-201", "posting an answer must give 201", r)
    expect(is_json_content_type(r.content_type), "CONV-CONTENT-TYPE-JSON",
           "the 201 carries a JSON Node, so Content-Type must be JSON", r)


@pytest.mark.rule("ANSWER-LOCATION")
def test_the_location_header_holds_the_new_answers_url(member_posted: Posted) -> None:
    body = _created(member_posted)
    loc = member_posted.resp.headers.get("location", "")
    r = member_posted.resp
    assert loc, f"a 201 to a posted answer must carry a Location header with the new item's URL\n{r.describe()}"
    assert "://" in loc or loc.startswith("/"), f"Location {loc!r} is not a URL\n{r.describe()}"
    assert str(body.get("id")) in loc, (
        f"Location {loc!r} does not name the new answer id {body.get('id')!r}\n{r.describe()}")


@pytest.mark.rule("ANSWER-ID-STRING")
def test_the_id_in_the_response_to_posting_an_answer_is_a_string(member_posted: Posted) -> None:
    body = _created(member_posted)
    value = body.get("id")
    assert isinstance(value, str) and value.isdecimal(), (
        f"the description says id is a string in the response to posting an answer; got {value!r} "
        f"({type(value).__name__})\n{member_posted.resp.describe()}")


@pytest.mark.rule("ANSWER-PARENT-FIELDS")
def test_a_newly_posted_answer_names_its_question_as_parent(member_posted: Posted, admin: ApiClient,
                                                            question_id: int) -> None:
    body = _created(member_posted)
    r = member_posted.resp
    assert body.get("parentId") == question_id, (
        f"parentId must be the question id {question_id} (an integer); got {body.get('parentId')!r}\n{r.describe()}")
    parent_author = body.get("parentAuthor")
    assert isinstance(parent_author, dict) and isinstance(parent_author.get("username"), str), (
        f"parentAuthor must be an object with username\n{r.describe()}")
    question = find_listed(admin, "question.json", question_id, {"includeOnly": "id,author"})
    if question is not None and isinstance(question.get("author"), dict):
        expected = question["author"].get("username")
        assert parent_author["username"] == expected, (
            f"parentAuthor.username is {parent_author['username']!r} but the question list names the question's "
            f"author {expected!r}\n{r.describe()}")


@pytest.mark.rule("ANSWER-PLUG-NULL")
def test_a_newly_posted_answer_carries_plug_null(member_posted: Posted) -> None:
    body = _created(member_posted)
    assert "plug" in body, f"plug must be present on a newly posted answer\n{member_posted.resp.describe()}"
    assert body["plug"] is None, f"plug must be null there; got {body['plug']!r}\n{member_posted.resp.describe()}"


@pytest.mark.rule("SHAPE-POST-ANSWER", "NODE-TITLE-ANSWERS-COMMENTS")
def test_the_posted_answer_is_a_node_of_type_answer(member_posted: Posted, contract: Any) -> None:
    body = _created(member_posted)
    r = member_posted.resp
    expect(body.get("type") == "answer", "SHAPE-POST-ANSWER", f"type must be answer; got {body.get('type')!r}", r)
    expect(body.get("title") is None, "NODE-TITLE-ANSWERS-COMMENTS", "an answer carries no title (absent or null)", r)
    errors = contract.validate("posted-answer", body)
    expect(not errors, "SHAPE-POST-ANSWER",
           "the posted answer does not match posted-answer.json:\n  " + "\n  ".join(errors[:15]), r)


@pytest.mark.rule("ANSWER-BODY-KEPT", "AUTH-ACTING-USER")
def test_the_answer_keeps_the_posted_text_and_its_author_is_the_caller(member_posted: Posted, member: ApiClient,
                                                                        user_ids: dict[str, int]) -> None:
    body = _created(member_posted)
    r = member_posted.resp
    # ANSWER-BODY-KEPT also says the new answer's author is the caller, as AUTH-ACTING-USER does: a wrong author
    # breaks both.
    expect(body_holds(body.get("body"), member_posted.text), "ANSWER-BODY-KEPT",
           f"the answer body must hold the posted text {member_posted.text!r}", r)
    author = body.get("author")
    if not isinstance(author, dict):
        fail(("ANSWER-BODY-KEPT", "AUTH-ACTING-USER"), "the answer must carry an author object", r)
    expect(author.get("username") == member.username, ("ANSWER-BODY-KEPT", "AUTH-ACTING-USER"),
           f"the acting user is taken from the credentials: author must be {member.username!r}, got "
           f"{author.get('username')!r}", r)
    if "member" in user_ids:
        expect(author.get("id") == user_ids["member"], ("ANSWER-BODY-KEPT", "AUTH-ACTING-USER"),
               f"author.id must be member's id {user_ids['member']}, got {author.get('id')!r}", r)


@pytest.mark.rule("ANSWER-BODY-KEPT")
@pytest.mark.writes
def test_an_answer_keeps_non_ascii_plain_text(member_posted: Posted, member: ApiClient,
                                              user_ids: dict[str, int]) -> None:
    """Plain text is not only ASCII: accents, CJK and a symbol are the same text, in the 201 and when listed (member's
    shared answer carries them, suites/conftest.py ANSWER_TEXT)."""
    resp, text = member_posted.resp, member_posted.text
    assert any(ord(c) > 127 for c in text), "the shared answer's text holds non-ASCII characters"
    expect(resp.status == 201, "ANSWER-BODY-KEPT", "member posts an answer with non-ASCII text", resp)
    body = resp.json()
    expect(body_holds(body.get("body"), text), "ANSWER-BODY-KEPT",
           f"the new answer's body must hold the posted text {text!r}, got {body.get('body')!r}", resp)
    item = find_listed(member, f"user/{user_ids['member']}/answer.json", new_id(resp), until=present)
    expect(item is not None and body_holds(item.get("body"), text), "ANSWER-BODY-KEPT",
           f"listed, the answer's body must still hold {text!r}; got {(item or {}).get('body')!r}")


@pytest.mark.rule("AUTH-ACTING-USER")
@pytest.mark.writes
def test_each_accounts_answer_names_that_account_as_author(api: dict[str, ApiClient],
                                                           answer_of: Callable[[str], Any]) -> None:
    """The acting user is taken from the credentials of each request: several accounts' answers (the run's shared
    ones, posted in whatever order the run's tests asked for them), each its own author."""
    for role in ("member", "admin", "moderator"):
        resp = answer_of(role).resp
        assert resp.status == 201, f"{role} posts an answer\n{resp.describe()}"
        author = resp.json().get("author")
        assert isinstance(author, dict) and author.get("username") == api[role].username, (
            f"{role} posted with its own credentials, so the answer's author is {api[role].username!r}, got "
            f"{author!r}\n{resp.describe()}")


@pytest.mark.rule("ANSWER-PUBLISHED", "PERM-ANSWER-PUBLISH")
def test_an_answer_by_a_caller_with_publish_answer_is_listed_for_other_users(member_posted: Posted,
                                                                             novice: ApiClient,
                                                                             user_ids: dict[str, int]) -> None:
    _created(member_posted)
    answer_id = new_id(member_posted.resp)
    member_id = user_ids.get("member")
    expect(member_id is not None, ("ANSWER-PUBLISHED", "PERM-ANSWER-PUBLISH"),
           "member's user id is unknown: set [accounts.member] id in the profile")
    item = find_listed(novice, f"user/{member_id}/answer.json", answer_id, until=present)
    # Both rules say it: with Publish answer the answer is published at once and other users see it.
    expect(item is not None, ("ANSWER-PUBLISHED", "PERM-ANSWER-PUBLISH"),
           f"member holds Publish answer, so answer {answer_id} is published at once; novice must see it in GET "
           f"user/{member_id}/answer.json, but it is not there", member_posted.resp)


@pytest.mark.rule("ANSWER-PUBLISHED")
def test_an_answer_to_a_locked_question_by_a_caller_with_publish_answer_is_listed_for_other_users(
        answer_in: Callable[[str, str], Any], profile: Profile, novice: ApiClient, user_ids: dict[str, int],
        locked_question_writer: str) -> None:
    """moderator's shared answer, which goes under the profile's locked_question_id (suites/conftest.py
    ``LOCKED_QUESTION_WRITER``, given by its fixture): "Caller has Answer questions and Publish answer | Published"
    holds whatever state the question is in. No read shows a lock, so the question's state is the profile's word."""
    role = locked_question_writer
    locked = profile.fixtures.locked_question_id
    if locked is None:
        skip(SkipKind.MISSING_FIXTURE, "not checked: the profile names no [fixtures] locked_question_id (a question "
                                       "locked on the site: the interface creates no question and undoes no lock)")
    posted = answer_in(role, answer_form(role))
    refusal = posted.refused.status if posted.refused is not None else None
    if posted.node != locked and refusal == 404:
        skip(SkipKind.FIXTURE_STATE, f"not checked: [fixtures] locked_question_id {locked} is not a question "
                                     f"{role} can see (404): give a question every account can view")
    if posted.node != locked:
        skip(SkipKind.OTHER, f"not judged: the target refused {role}'s answer to the locked question "
                             f"{locked} ({refusal}): what a lock does to new answers is not shown")
    if not 200 <= posted.resp.status < 300 or posted.id is None:
        skip(SkipKind.OTHER, f"not judged: {role}'s answer to the locked question {locked} answered "
                             f"{posted.resp.status} (ANSWER-201's and the answer form matrix's to judge)")
    writer = user_ids.get(role)
    if writer is None:
        skip(SkipKind.OTHER, f"not checked: {role}'s user id is unknown, so its answer list cannot "
                             "be read")
    path = f"user/{writer}/answer.json"
    item = find_listed(novice, path, int(posted.id), until=present)
    expect(item is not None, "ANSWER-PUBLISHED",
           f"{role} holds Publish answer, so its answer {posted.id} to the locked question {locked} "
           f"is published at once: novice must see it in GET {path}, but it is not there", posted.resp)


@pytest.mark.rule("ANSWER-MODERATION", "AUTH-ACTING-USER", "PERM-ANSWER-PUBLISH")
def test_an_answer_by_a_caller_without_publish_answer_is_still_created(novice_posted: Posted,
                                                                       novice: ApiClient) -> None:
    r = novice_posted.resp
    expect(200 <= r.status < 300, ("ANSWER-MODERATION", "PERM-ANSWER-PUBLISH"),
           "novice holds Answer questions but not Publish answer: the answer goes to moderation but must be created (a "
           "2xx: the description gives no status for this case)", r)
    body = r.json() if r.content.strip() else None
    author = body.get("author") if isinstance(body, dict) else None
    if author is not None:  # the body is not described for this case; when it carries the node, its author
        expect(isinstance(author, dict) and author.get("username") == novice.username, "AUTH-ACTING-USER",
               f"the moderated answer's author must be the caller {novice.username!r}", r)


@pytest.mark.observation
@pytest.mark.rule("OBS-ANSWER-MODERATION-VISIBILITY")
def test_whether_other_users_see_an_answer_held_in_moderation_is_recorded(
        novice_posted: Posted, api: dict[str, ApiClient], user_ids: dict[str, int], question_id: int,
        observe: Any) -> None:
    r = novice_posted.resp
    if r.status != 201:  # ANSWER-MODERATION fails for this; here there is only the status to record
        observe("OBS-ANSWER-MODERATION-VISIBILITY", status=r.status, created=False, body=r.text[:300])
        return
    answer_id = new_id(r)
    body = r.json()
    facts: dict[str, Any] = {"status": r.status, "answer_id": answer_id,
                             "fields": sorted(body) if isinstance(body, dict) else None,
                             "nodeStates": body.get("nodeStates") if isinstance(body, dict) else None}
    novice_id = user_ids.get("novice")
    in_user_list: dict[str, Any] = {}
    in_question: dict[str, Any] = {}
    for role in ("novice", "member", "moderator", "admin", "anonymous"):
        if novice_id is not None:
            in_user_list[role] = _listed_or_why(api[role], f"user/{novice_id}/answer.json", answer_id)
        q = _safe_find(api[role], "question.json", question_id, {"includeOnly": "id,answers,answerCount"})
        in_question[role] = (answer_id in (q.get("answers") or [])) if isinstance(q, dict) else q
    facts["listed_in_novice_answer_list"] = in_user_list
    facts["listed_in_fixture_question_answers"] = in_question
    observe("OBS-ANSWER-MODERATION-VISIBILITY", **facts)


@pytest.mark.accepted_writes(1)
@pytest.mark.observation
@pytest.mark.rule("OBS-ANSWER-NO-BODY")
def test_the_status_of_an_answer_posted_without_body_is_recorded(member: ApiClient, question_id: int,
                                                                 created: Any, observe: Any) -> None:
    resp = member.post(f"question/{question_id}/answer.json", json={}, operation="postAnswer")
    facts: dict[str, Any] = {"status": resp.status, "content_type": resp.content_type, "body": resp.text[:300]}
    if resp.status == 201:
        created.add("answer", new_id(resp), member.role)
    observe("OBS-ANSWER-NO-BODY", **facts)
