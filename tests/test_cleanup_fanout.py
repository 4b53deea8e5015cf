"""The cleanup's deletes go together (qaconform.target.fanout) where they do not wait for another, and end as they
would one after another: answers before the comments under them (or comments first on a site that does not
cascade), a reply after the comment it answers, the same statuses and record, never more in flight than
``[safety] max_concurrency``."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

from qaconform.target.cleanup import remove_created
from qaconform.target.client import Recorder
from qaconform.target.profile import Profile, profile_from_dict

ROLES = ("admin", "moderator", "member", "novice")
HOLD_S = 0.03
"""How long each fake delete takes: long enough that deletes sent together overlap."""

CREATED: list[dict[str, Any]] = [
    {"kind": "answer", "id": 21, "by": "member", "url": "http://h/services/v2/question/1/answer.json"},
    {"kind": "answer", "id": 22, "by": "member", "url": "http://h/services/v2/question/1/answer.json"},
    {"kind": "comment", "id": 31, "by": "novice", "url": "http://h/services/v2/node/21/comment.json"},
    {"kind": "comment", "id": 32, "by": "member", "url": "http://h/services/v2/node/1/comment.json"},
    {"kind": "comment", "id": 33, "by": "member", "url": "http://h/services/v2/node/1/comment.json"},
    {"kind": "comment", "id": 34, "by": "member", "url": "http://h/services/v2/node/32/comment.json"},  # a reply
    {"kind": "comment", "id": 35, "by": "member"},  # parent unknown
    {"kind": "gdpr-job", "id": "job-1", "by": "admin"},
]


@pytest.fixture(autouse=True)
def _one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The limits are this process's alone (under xdist a worker would get a share of them)."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)


class _Log:
    """When each delete started and ended, and the most in flight at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.spans: dict[int, tuple[float, float]] = {}
        self.in_flight = self.most = 0


class _Fake:
    """A client whose deletes take :data:`HOLD_S`, answering from a table of node id -> status (else 200)."""

    def __init__(self, role: str, answers: dict[int, int], log: _Log) -> None:
        self.role, self.answers, self.log, self.recorder = role, answers, log, Recorder()

    def request(self, method: str, url: str, **_kw: Any) -> Any:
        node = int(url.rsplit("/", 2)[1])
        with self.log.lock:
            self.log.in_flight += 1
            self.log.most = max(self.log.most, self.log.in_flight)
        began = time.monotonic()
        time.sleep(HOLD_S)
        with self.log.lock:
            self.log.in_flight -= 1
            self.log.spans[node] = (began, time.monotonic())
        status = self.answers.get(node, 200)
        return _Resp(status, {"success": True} if status == 200 else {"error": "x"})


class _Resp:
    def __init__(self, status: int, body: Any) -> None:
        self.status_code, self._body, self.text = status, body, json.dumps(body)

    def json(self) -> Any:
        return self._body


def _profile(max_concurrency: int | None, **cleanup: Any) -> Profile:
    accounts = {r: {"username": r, "password": "pw"} for r in ROLES}
    safety = {} if max_concurrency is None else {"max_concurrency": max_concurrency}
    return profile_from_dict({"base_url": "http://127.0.0.1:9", "accounts": accounts,
                              "fixtures": {"question_id": 1, "space_id": 1}, "safety": safety,
                              "cleanup": {"path": "/n/node/{id}/delete.json", **cleanup}})


def _remove(profile: Profile, answers: dict[int, int] | None = None,
            created: list[dict[str, Any]] = CREATED) -> tuple[dict[str, Any], _Log]:
    log = _Log()
    clients = {r: _Fake(r, answers or {}, log) for r in ROLES}
    record = remove_created(profile, created, clients=clients).as_dict()  # type: ignore[arg-type]
    record.pop("seconds")
    return record, log


def _after(log: _Log, later: int, *earlier: int) -> bool:
    return all(log.spans[later][0] >= log.spans[e][1] for e in earlier)


@pytest.mark.parametrize("answers", [{}, {21: 404, 32: 403}, {22: 500, 34: 410}])
def test_sent_together_the_record_is_the_one_of_one_at_a_time(answers: dict[int, int]) -> None:
    serial, one = _remove(_profile(1), answers)
    together, log = _remove(_profile(None), answers)
    assert one.most == 1
    assert log.most > 1, "the cleanup's deletes were sent one after another"
    assert together == serial  # every item's status, http, why, in the order created; calls; counts
    assert set(log.spans) == set(one.spans)


def test_answers_go_before_the_comments_and_a_reply_after_the_comment_it_answers() -> None:
    record, log = _remove(_profile(None))
    assert set(log.spans) == {21, 22, 32, 33, 35}  # 31 and 34 went with their parents (an answer, a comment)
    status = {i["id"]: i["status"] for i in record["items"]}
    assert status[31] == status[34] == "removed with its answer"
    assert all(_after(log, c, 21, 22) for c in (32, 33, 35))
    assert log.spans[32][0] < log.spans[33][1] and log.spans[33][0] < log.spans[32][1], "32 and 33 went together"


def test_a_site_that_does_not_cascade_has_its_comments_deleted_first_and_a_reply_after_its_comment() -> None:
    record, log = _remove(_profile(None, cascades=False))
    assert set(log.spans) == {21, 22, 31, 32, 33, 34, 35}
    assert _after(log, 34, 32)
    assert all(_after(log, a, 31, 32, 33, 34, 35) for a in (21, 22))
    assert record["removed"] == 7 and record["calls"] == 7


@pytest.mark.parametrize("cap", [1, 2, 3])
def test_never_more_deletes_in_flight_than_max_concurrency(cap: int) -> None:
    many = [{"kind": "comment", "id": 100 + n, "by": "member"} for n in range(12)]
    record, log = _remove(_profile(cap), created=many)
    assert record["removed"] == 12
    assert log.most == cap
