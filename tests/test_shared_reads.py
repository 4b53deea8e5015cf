"""A read the crossing suites share is sent once per run, whichever worker asks first (shared_reads.py).

Workers are processes; here two ``RunReads`` on one folder stand for two of them (each keeps nothing in memory, so
the file is all they share, as between processes). What is pinned: a response another worker read comes back whole
(status, headers, body byte for byte, the redacted exchange its test's cassette logs again) and said to be theirs; a
publishing reader never takes another's (its tests compare responses it read close together) but its reads serve
the others; two asking at once send one request; a read that raised leaves nothing behind; one process alone shares
nothing.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from qaconform.pytest.shared_reads import Key, RunReads, run_folder
from qaconform.target.client import ApiResponse, Exchange

KEY: Key = ("novice", "question.json", (("pageSize", "2"), ("sort", "active")))


def _response(body: bytes = b'{"list": [], "caf\xc3\xa9": 1}', status: int = 200) -> ApiResponse:
    exchange = Exchange(role="novice", method="GET", url="http://t/services/v2/question.json?pageSize=2&sort=active",
                        status=status, request_headers={"Authorization": "<redacted>"}, request_body=None,
                        response_headers={"content-type": "application/json"}, response_body=body.decode("utf-8"),
                        elapsed_ms=3.5, curl="curl -u $USER:$PASSWORD 'http://t/...'", operation="listQuestions")
    return ApiResponse(status, {"content-type": "application/json"}, body, exchange.url, exchange)


class Sender:
    """A read that counts how often it was sent (and may take its time, or fail)."""

    def __init__(self, resp: ApiResponse | None = None, wait_s: float = 0.0, error: Exception | None = None) -> None:
        self.resp, self.wait_s, self.error, self.sent = resp or _response(), wait_s, error, 0
        self._lock = threading.Lock()

    def __call__(self) -> ApiResponse:
        with self._lock:
            self.sent += 1
        time.sleep(self.wait_s)
        if self.error is not None:
            raise self.error
        return self.resp


def test_another_workers_read_comes_back_whole_and_is_said_to_be_theirs(tmp_path: Path) -> None:
    first, second = RunReads(tmp_path), RunReads(tmp_path)
    send = Sender()
    mine, theirs = first.get(KEY, send)
    assert (mine is send.resp, theirs) == (True, False)
    again, theirs = second.get(KEY, Sender(_response(b"other")))
    assert theirs is True and send.sent == 1
    assert (again.status, again.headers, again.content, again.url) == (mine.status, mine.headers, mine.content,
                                                                       mine.url)
    assert again.exchange == mine.exchange and again.json() == {"list": [], "café": 1}
    assert (first.sent, first.taken, second.sent, second.taken) == (1, 0, 0, 1)


def test_other_requests_are_other_reads(tmp_path: Path) -> None:
    runs = RunReads(tmp_path)
    runs.get(KEY, Sender())
    for other in (("member", *KEY[1:]), (KEY[0], "space.json", KEY[2]), (*KEY[:2], (("pageSize", "3"),))):
        send = Sender()
        _, theirs = RunReads(tmp_path).get(other, send)
        assert (theirs, send.sent) == (False, 1), other


def test_a_publishing_reader_sends_its_own_and_serves_the_others(tmp_path: Path) -> None:
    RunReads(tmp_path).get(KEY, Sender())
    own = Sender(_response(b'{"mine": true}'))
    resp, theirs = RunReads(tmp_path).get(KEY, own, take=False)
    assert (theirs, own.sent, resp.content) == (False, 1, b'{"mine": true}')
    other = tmp_path / "other"
    RunReads(other).get(KEY, Sender(_response(b'{"published": 1}')), take=False)
    taker = Sender()
    resp, theirs = RunReads(other).get(KEY, taker)
    assert (theirs, taker.sent, resp.content) == (True, 0, b'{"published": 1}')


def test_two_asking_at_once_send_one_request(tmp_path: Path) -> None:
    send = Sender(wait_s=0.2)
    got: list[tuple[ApiResponse, bool]] = []
    threads = [threading.Thread(target=lambda: got.append(RunReads(tmp_path).get(KEY, send))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert send.sent == 1 and sorted(theirs for _, theirs in got) == [False, True, True]


def test_a_read_that_failed_leaves_nothing_for_the_others(tmp_path: Path) -> None:
    with pytest.raises(ConnectionError):
        RunReads(tmp_path).get(KEY, Sender(error=ConnectionError("dropped")))
    send = Sender()
    _, theirs = RunReads(tmp_path).get(KEY, send)
    assert (theirs, send.sent) == (False, 1)


def test_one_process_alone_shares_nothing(tmp_path: Path) -> None:
    runs = RunReads(None)
    sends = [Sender(), Sender()]
    assert [runs.get(KEY, s)[1] for s in sends] == [False, False] and [s.sent for s in sends] == [1, 1]
    assert list(tmp_path.iterdir()) == []

    class Config:  # no xdist: no workerinput
        _tmp_path_factory = None

    assert run_folder(Config()) is None
