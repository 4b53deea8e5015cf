"""Every permission row of target-profile.md, per operation and caller, plus bad credentials on every operation.

Statuses: a number is the exact status; a denial is 401 for anonymous callers and 403 for logged-in ones, both
with the errors body. Allowed calls that still fail for another reason say so (404 not a favorite, 409 not wiki).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from ref_helpers import Ref

PERMISSION_BODY = {"errors": {"message": "You don't have permission to do this action.\nPlease login as another user"}}
CALLERS = ("admin", "moderator", "member", "novice", None)
_minute = itertools.count(1)

Call = Callable[[Ref], tuple[str, str, dict[str, Any]]]


def _job(ref: Ref) -> tuple[str, str, dict[str, Any]]:
    minute = next(_minute)
    body = {
        "type": "individual",
        "user": {"username": "gdpr-target"},
        "operations": ["suspend"],
        "scheduleDate": {"formatted": f"01/02/2031 {minute // 60:02d}:{minute % 60:02d}"},
    }
    return "POST", "/jobs/gdpr/schedule.json", {"json": body}


def _comment(visibility: str | None) -> Call:
    def call(ref: Ref) -> tuple[str, str, dict[str, Any]]:
        body: dict[str, Any] = {"body": "permission check"}
        if visibility:
            body["visibility"] = visibility
        return "POST", f"/node/{ref.profile.fixtures.question_id}/comment.json", {"json": body}

    return call


def _get(path: Callable[[Ref], str]) -> Call:
    return lambda ref: ("GET", path(ref), {})


def _put(path: Callable[[Ref], str]) -> Call:
    return lambda ref: ("PUT", path(ref), {})


QID: Callable[[Ref], int] = lambda ref: ref.profile.fixtures.question_id  # noqa: E731

# operation -> (call, expected status by caller in CALLERS order; "D" = denied: 401 anonymous / 403 logged in)
MATRIX: dict[str, tuple[Call, tuple[int | str, ...]]] = {
    "1 comment full": (_comment(None), (201, 201, 201, 201, "D")),
    "1 comment op": (_comment("op"), (201, 201, 201, "D", "D")),
    "1 comment mod": (_comment("mod"), (201, 201, 201, "D", "D")),
    "1 comment group": (_comment("group"), (201, 201, "D", "D", "D")),
    "2 schedule job": (_job, (201, "D", "D", "D", "D")),
    "3 questions": (_get(lambda r: "/question.json"), (200, 200, 200, 200, 200)),
    "4 user answers": (_get(lambda r: "/user/3/answer.json"), (200, 200, 200, 200, 200)),
    "5 active experts": (_get(lambda r: "/user/retrieveAllExperts.json"), (200, 200, 200, 200, 401)),
    "6 earned experts": (_get(lambda r: "/user/retrieveEarnedExperts.json"), (200, 200, 200, 200, 401)),
    "7 post answer": (
        lambda r: ("POST", f"/question/{QID(r)}/answer.json", {"json": {"body": "permission check"}}),
        (201, 201, 201, 201, "D"),
    ),
    "8 user content": (_get(lambda r: "/users/gdpr/5/content.json"), (200, "D", "D", "D", "D")),
    "9 spaces": (_get(lambda r: "/space.json"), (200, 200, 200, 200, 200)),
    "10 unfavorite (not a favorite)": (
        _put(lambda r: f"/node/{QID(r)}/unmarkfavorite.json"),
        (404, 404, 404, "D", "D"),
    ),
    "11 cancelwiki (not wiki, not own)": (_put(lambda r: f"/node/{QID(r)}/cancelwiki.json"), (409, 409, "D", "D", "D")),
    "13 lock (not own)": (
        _put(lambda r: f"/node/{r.profile.fixtures.wiki_node_id}/lock.json?prompt=check"),
        (200, 200, "D", "D", "D"),
    ),
    "13 lock (member's own)": (
        _put(lambda r: f"/node/{r.profile.fixtures.member_wiki_node_id}/lock.json?prompt=check"),
        (200, 200, 200, "D", "D"),
    ),
    "14 topics": (_get(lambda r: "/topic.json"), (200, 200, 200, 200, 200)),
    "15 user questions": (_get(lambda r: "/user/3/question.json"), (200, 200, 200, 200, 200)),
    "16 followers": (_get(lambda r: f"/node/{QID(r)}/followers.json"), (200, 200, 200, 200, 200)),
    "17 groups": (_get(lambda r: "/group.json"), (200, "D", "D", "D", "D")),
    "18 answer comments": (_get(lambda r: f"/answer/{r.fixture_answer_id}/comment.json"), (200, 200, 200, 200, 200)),
    "19 issue types": (_get(lambda r: "/tracker/issuetype.json"), (200, 200, 200, 200, 401)),
}


@pytest.mark.parametrize("caller_index", range(len(CALLERS)), ids=[c or "anonymous" for c in CALLERS])
@pytest.mark.parametrize("operation", list(MATRIX))
def test_permission_row(ref: Ref, operation: str, caller_index: int) -> None:
    call, expected_row = MATRIX[operation]
    who = CALLERS[caller_index]
    expected = expected_row[caller_index]
    method, path, kw = call(ref)
    r = ref.call(method, path, who, **kw)
    if expected == "D":
        expected = 401 if who is None else 403
    assert r.status_code == expected, f"{operation} as {who or 'anonymous'}: {r.status_code} {r.text[:200]}"
    if expected in (401, 403):
        assert r.json() == PERMISSION_BODY
        assert r.headers["content-type"] == "application/json;charset=UTF-8"


def test_send_to_moderation_is_for_moderation_roles_only(ref: Ref) -> None:
    answer = ref.ok("POST", f"/question/{QID(ref)}/answer.json", "admin", 201, json={"body": "to be moderated"})
    path = f"/node/{answer['id']}/sendToMod.json"
    for who, status in (("member", 403), ("novice", 403), (None, 401), ("moderator", 200), ("admin", 200)):
        assert ref.put(path, who).status_code == status, who


def test_cancelwiki_own_node_needs_convert_own_posts(ref: Ref) -> None:
    own_non_wiki = ref.ok("GET", f"/user/{ref.user_id('member')}/question.json", params={"pageSize": 1000})["list"]
    target = [q for q in own_non_wiki if not q["wiki"]][0]
    assert ref.put(f"/node/{target['id']}/cancelwiki.json", "member").status_code == 409
    assert ref.put(f"/node/{ref.profile.fixtures.wiki_node_id}/cancelwiki.json", "member").status_code == 403


ALL_OPERATIONS = [
    ("POST", "/node/1/comment.json"),
    ("POST", "/jobs/gdpr/schedule.json"),
    ("GET", "/question.json"),
    ("GET", "/user/3/answer.json"),
    ("GET", "/user/retrieveAllExperts.json"),
    ("GET", "/user/retrieveEarnedExperts.json"),
    ("POST", "/question/1/answer.json"),
    ("GET", "/users/gdpr/3/content.json"),
    ("GET", "/space.json"),
    ("PUT", "/node/14/unmarkfavorite.json"),
    ("PUT", "/node/12/cancelwiki.json"),
    ("PUT", "/node/1/sendToMod.json"),
    ("PUT", "/node/1/lock.json?prompt=x"),
    ("GET", "/topic.json"),
    ("GET", "/user/3/question.json"),
    ("GET", "/node/1/followers.json"),
    ("GET", "/group.json"),
    ("GET", "/answer/2/comment.json"),
    ("GET", "/tracker/issuetype.json"),
]


@pytest.mark.parametrize("method, path", ALL_OPERATIONS)
def test_wrong_password_is_401_on_every_operation(ref: Ref, method: str, path: str) -> None:
    r = ref.call(method, path, "wrong", json={"body": "x"} if method == "POST" else None)
    assert r.status_code == 401 and r.json() == PERMISSION_BODY


@pytest.mark.parametrize("header", ["Basic !!!", "Basic " + "dW5rbm93bjp4", "Bearer abc", "Basic bm9jb2xvbg=="])
def test_malformed_or_unknown_credentials_are_401(ref: Ref, header: str) -> None:
    r = ref.get("/question.json", headers={"Authorization": header})
    assert r.status_code == 401 and r.json() == PERMISSION_BODY


@pytest.mark.parametrize("path", ["/user/retrieveAllExperts.json", "/user/retrieveEarnedExperts.json"])
def test_expert_401_is_an_html_page_for_a_browser(ref: Ref, path: str) -> None:
    for who in (None, "wrong"):
        r = ref.get(path, who, headers={"Accept": "text/html,application/xhtml+xml"})
        assert r.status_code == 401 and r.headers["content-type"].startswith("text/html")
        assert "<title>HTTP Status 401 - Bad credentials</title>" in r.text
        assert "requires HTTP authentication" in r.text
        r = ref.get(path, who, headers={"Accept": "application/json, text/html"})
        assert r.status_code == 401 and r.json() == PERMISSION_BODY
