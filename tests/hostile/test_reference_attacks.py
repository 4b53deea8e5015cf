"""The reference server under bad input: hand-written attacks get a 4xx (or, for input that is merely odd but
valid, a normal answer), never a 5xx, and the database stays consistent afterwards.

The reference server is what `qaconform run` uses with no profile and what proves the suites; a 5xx there on
input a fuzzer or a careless client sends would make the kit's own verdicts noisy. schemathesis's negative
testing runs in suites/properties; these are the attacks a generator does not think of.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import requests

from qaconform.contract import load_contract
from qaconform.reference import ReferenceServer
from qaconform.target.profile import Profile, load_profile

JSON = {"Content-Type": "application/json", "Accept": "application/json"}
BIG = 2**80  # beyond SQLite's 64-bit integers


@dataclass(frozen=True)
class Attack:
    name: str
    method: str
    path: str  # {q} is the fixture question id
    params: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=lambda: dict(JSON))
    client_error: bool = True  # False: the input is odd but valid; any status below 500 will do


def _j(value: Any) -> bytes:
    return json.dumps(value).encode()


def _job(**fields: Any) -> bytes:
    base = {"type": "individual", "user": {"id": 2}, "operations": ["suspend"],
            "scheduleDate": {"formatted": "01/01/2031 10:00"}}
    return _j({**base, **fields})


SQL = "' OR 1=1; DROP TABLE nodes; --"
ATTACKS: list[Attack] = [
    # SQL metacharacters: in a search or a text they are text (any non-5xx), in a number they are a 400
    Attack("sql-in-q", "GET", "/question.json", {"q": SQL}, client_error=False),
    Attack("sql-union-in-topic-q", "GET", "/topic.json", {"q": "%' UNION SELECT password_hash FROM users --"},
           client_error=False),
    Attack("sql-in-sort", "GET", "/question.json", {"sort": "id; DROP TABLE nodes"}, client_error=False),
    Attack("sql-in-includeonly", "GET", "/question.json", {"includeOnly": "id,(SELECT 1)"}, client_error=False),
    Attack("sql-in-pagesize", "GET", "/question.json", {"pageSize": "1 OR 1=1"}),
    Attack("sql-in-spaceid", "GET", "/question.json", {"spaceId": "1 OR 1=1"}),
    Attack("sql-in-path-id", "GET", "/user/1%20OR%201=1/answer.json"),
    Attack("sql-in-answer-body", "POST", "/question/{q}/answer.json", body=_j({"body": SQL}), client_error=False),
    Attack("sql-in-visibility", "POST", "/node/{q}/comment.json", body=_j({"body": "x", "visibility": SQL})),
    Attack("sql-in-job-user", "POST", "/jobs/gdpr/schedule.json", body=_job(user={"username": SQL})),
    # numbers beyond 64 bits: a page past the end or a space that does not exist may be an empty list
    Attack("huge-page", "GET", "/question.json", {"page": "9" * 23}, client_error=False),
    Attack("page-2-62", "GET", "/question.json", {"page": str(2**62), "pageSize": "100"}, client_error=False),
    Attack("huge-spaceid", "GET", "/question.json", {"spaceId": str(BIG)}, client_error=False),
    Attack("huge-path-id", "GET", "/user/" + "9" * 30 + "/answer.json"),
    Attack("huge-recipient-id", "POST", "/node/{q}/comment.json",
           body=_j({"body": "x", "visibility": "recipients", "recipients": [{"id": BIG}]})),
    Attack("huge-csv-file-id", "POST", "/jobs/gdpr/schedule.json", body=_job(type="bulk", csvFileId=BIG, user=None)),
    Attack("huge-timestamp", "POST", "/jobs/gdpr/schedule.json", body=_job(scheduleDate={"timeStamp": 10**30})),
    # huge input
    Attack("body-2mb", "POST", "/question/{q}/answer.json", body=_j({"body": "x" * 2_000_000})),
    Attack("q-100kb", "GET", "/question.json", {"q": "x" * 100_000}),
    Attack("10000-recipients", "POST", "/node/{q}/comment.json",
           body=_j({"body": "x", "visibility": "recipients", "recipients": [{"id": i} for i in range(1, 10_001)]}),
           client_error=False),
    Attack("10000-operations", "POST", "/jobs/gdpr/schedule.json", body=_job(operations=["suspend"] * 10_000)),
    # invalid UTF-8
    Attack("utf8-json-body", "POST", "/question/{q}/answer.json", body=b'{"body": "\xff\xfe"}'),
    Attack("utf8-form-body", "POST", "/question/{q}/answer.json", body=b"body=%ff\xff",
           headers={"Content-Type": "application/x-www-form-urlencoded"}),
    Attack("utf8-in-path", "GET", "/user/%ff%fe/answer.json"),
    Attack("utf8-in-q", "GET", "/question.json?q=%ff%fe%fd", client_error=False),
    # malformed JSON
    Attack("nested-arrays-100000", "POST", "/node/{q}/comment.json", body=b"[" * 100_000 + b"]" * 100_000),
    Attack("nested-objects-50000", "POST", "/node/{q}/comment.json",
           body=b'{"body":' + b'{"a":' * 50_000 + b"1" + b"}" * 50_000 + b"}"),
    Attack("json-array-body", "POST", "/node/{q}/comment.json", body=b"[1, 2]"),
    Attack("json-null-body", "POST", "/node/{q}/comment.json", body=b"null"),
    Attack("body-not-a-string", "POST", "/node/{q}/comment.json", body=_j({"body": {"x": 1}})),
    Attack("recipients-junk", "POST", "/node/{q}/comment.json",
           body=_j({"body": "x", "visibility": "recipients", "recipients": [{"id": "1 OR 1=1"}, None, "x"]})),
]


@dataclass
class Target:
    profile: Profile
    auth: tuple[str, str]


@pytest.fixture(scope="module")
def ref() -> Iterator[Target]:
    with ReferenceServer() as server:
        profile = load_profile(server.profile_path)
        admin = profile.accounts["admin"]
        yield Target(profile, (admin.username, admin.password))


def _send(t: Target, a: Attack) -> requests.Response:
    path = a.path.replace("{q}", str(t.profile.fixtures.question_id))
    return requests.request(a.method, t.profile.api_root + path, params=a.params or None, data=a.body,
                            headers=a.headers, auth=t.auth, timeout=30)


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.name for a in ATTACKS])
def test_attack_gets_a_client_error_never_a_server_error(attack: Attack, ref: Target) -> None:
    r = _send(ref, attack)
    assert r.status_code < 500, f"{attack.name}: {r.status_code} {r.text[:300]}"
    if attack.client_error:
        assert 400 <= r.status_code < 500, f"{attack.name}: {r.status_code} {r.text[:300]}"
        assert r.headers.get("content-type", "").startswith("application/json"), r.headers


def _lists(t: Target) -> dict[str, dict[str, Any]]:
    """Every list operation that needs no path id, read as admin: name -> envelope."""
    out: dict[str, dict[str, Any]] = {}
    for path in ("question.json", "space.json", "topic.json", "group.json", "user/retrieveAllExperts.json",
                 "user/retrieveEarnedExperts.json"):
        r = requests.get(f"{t.profile.api_root}/{path}", params={"pageSize": 100}, auth=t.auth, timeout=30,
                         headers={"Accept": "application/json"})
        assert r.status_code == 200, f"after the attacks GET {path} answered {r.status_code}: {r.text[:300]}"
        out[path] = r.json()
    return out


def test_database_stays_consistent_after_every_attack(ref: Target) -> None:
    contract = load_contract()
    before = _lists(ref)
    for attack in ATTACKS:
        _send(ref, attack)
    after = _lists(ref)
    for path, body in after.items():
        schema = {"question.json": "question-list.json", "space.json": "space-list.json",
                  "topic.json": "topic-list.json", "group.json": "group-list.json"}.get(path, "user-list.json")
        assert contract.validate(schema, body) == [], f"{path} after the attacks"
        assert body["listCount"] == len(body["list"]) and body["totalCount"] >= body["listCount"], path
        assert body["totalCount"] == before[path]["totalCount"], f"{path}: the attacks changed the number of items"
        ids = [item["id"] for item in body["list"]]
        assert len(ids) == len(set(ids)), f"{path}: an item is listed twice"
