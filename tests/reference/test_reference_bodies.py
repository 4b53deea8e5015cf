"""Request bodies: JSON or form, Content-Type handling, size limit; bad input is never a 5xx."""

from __future__ import annotations

import random

import pytest
from ref_helpers import Ref

POSTS = ["/node/{qid}/comment.json", "/question/{qid}/answer.json", "/jobs/gdpr/schedule.json"]


def paths(ref: Ref) -> list[str]:
    return [p.format(qid=ref.profile.fixtures.question_id) for p in POSTS]


@pytest.mark.parametrize("data", [b"{not json", b"[1, 2]", b'"text"', b"\xff\xfe\x00{", b'{"body": "\xe9"}', b"null"])
def test_body_that_does_not_parse_as_json_is_400(ref: Ref, data: bytes) -> None:
    for path in paths(ref):
        r = ref.post(path, "admin", data=data, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (path, data, r.text)
        assert r.json()["error"]


def test_non_utf8_form_body_is_400(ref: Ref) -> None:
    r = ref.post(
        paths(ref)[0], "admin", data=b"body=\xff\xfe", headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert r.status_code == 400


@pytest.mark.parametrize("content_type", ["text/plain", "application/xml", "multipart/form-data; boundary=x"])
def test_unsupported_content_type_with_a_body_is_415(ref: Ref, content_type: str) -> None:
    for path in paths(ref):
        r = ref.post(path, "admin", data=b"body=hello", headers={"Content-Type": content_type})
        assert r.status_code == 415 and r.json()["error"]


def test_json_with_charset_parameter_is_accepted(ref: Ref) -> None:
    r = ref.post(
        paths(ref)[1],
        "admin",
        data='{"body": "caf\u00e9"}'.encode(),
        headers={"Content-Type": "application/json; charset=UTF-8"},
    )
    assert r.status_code == 201 and r.json()["body"] == "caf\u00e9"


def test_body_over_one_megabyte_is_413(ref: Ref) -> None:
    big = b'{"body": "' + b"x" * (1024 * 1024 + 10) + b'"}'
    r = ref.post(paths(ref)[1], "admin", data=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]


def test_random_bodies_never_cause_a_server_error(ref: Ref) -> None:
    rng = random.Random(7)
    alphabet = b'{}[]":,0123456789abcdefnulltrue \\\x00\xff=&'
    for i in range(150):
        data = bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        ctype = rng.choice(["application/json", "application/x-www-form-urlencoded", "text/plain", ""])
        path = rng.choice(paths(ref))
        r = ref.post(path, rng.choice(["admin", "member"]), data=data, headers={"Content-Type": ctype})
        assert r.status_code < 500, (i, path, data, ctype, r.text)


HUGE = 99_999_999_999_999_999_999


def test_ids_beyond_sqlite_integers_are_client_errors_not_500(ref: Ref) -> None:
    for params in ({"page": str(HUGE)}, {"spaceId": str(HUGE)}, {"topics": str(HUGE)}, {"pageSize": str(HUGE)}):
        r = ref.get("/question.json", "admin", params=params)
        assert r.status_code == 200, (params, r.text)
    assert ref.get("/question.json", "admin", params={"page": str(HUGE)}).json()["list"] == []
    qid = ref.profile.fixtures.question_id
    r = ref.post(
        f"/node/{qid}/comment.json",
        "admin",
        json={"body": "x", "visibility": "recipients", "recipients": [{"id": HUGE}]},
    )
    assert r.status_code == 400
    for payload, message in (
        ({"type": "bulk", "csvFileId": HUGE}, "The requested file does not exist"),
        ({"type": "individual", "user": {"id": HUGE}}, "The provided 'user' is invalid"),
        (
            {"type": "bulk", "csvFileId": 7, "operations": ["suspend"], "reassignUser": {"id": str(HUGE)}},
            "The provided 'reassignUser' is/are invalid",
        ),
    ):
        r = ref.post("/jobs/gdpr/schedule.json", "admin", json=payload)
        assert r.status_code == 400 and r.json() == {"error": message}


def test_lone_surrogates_are_400_not_500(ref: Ref) -> None:
    qid = ref.profile.fixtures.question_id
    r = ref.post(
        f"/node/{qid}/comment.json", "admin", data=b'{"body": "\\ud800"}', headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 400 and "surrogate" in r.json()["error"]
    r = ref.post("/jobs/gdpr/schedule.json?type=individual&user=%7B%22username%22%3A%22%5Cud800%22%7D", "admin")
    assert r.status_code == 400 and "surrogate" in r.json()["error"]
    r = ref.get("/question.json?q=%ED%A0%80", "admin")
    assert r.status_code == 200
