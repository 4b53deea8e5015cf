"""A target that holds the run back (issue 31 item 4): the client waits as told on a 429 (and a 503 with
Retry-After), sends the same request again and counts it; it gives up past its cap or budget (the running test is
then not checked, never failed); a 503 without Retry-After is an answer like any other. Against a scripted server
on 127.0.0.1; the whole run against the reference server's rate-limit variant is tests/test_holdback_run.py."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime, formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from qaconform.target import holdback
from qaconform.target.client import ApiClient, Recorder
from qaconform.target.holdback import Hold, hold_of, retry_after_s
from qaconform.target.politeness import Pace
from qaconform.target.profile import profile_from_dict
from qaconform.target.writes import SUITES, WriteBudget

NOW = datetime(2026, 11, 26, 12, 0, 0, tzinfo=UTC)


def test_retry_after_reads_seconds_and_http_dates_and_nothing_else() -> None:
    assert retry_after_s("7") == 7.0
    assert retry_after_s(" 0 ") == 0.0
    assert retry_after_s(format_datetime(NOW + timedelta(seconds=30), usegmt=True), NOW) == 30.0
    assert retry_after_s("Thu, 26 Nov 2026 11:59:00 GMT", NOW) == 0.0  # a date in the past: come back now
    for unreadable in (None, "", "soon", "-5", "1.5e3", "Mon, 99 Foo 2026 25:61:00 GMT"):
        assert retry_after_s(unreadable, NOW) is None, unreadable


def test_a_429_always_holds_back_a_503_only_when_it_says_when() -> None:
    assert hold_of(429, {}) == Hold(429, None)
    assert hold_of(429, {"retry-after": "3"}) == Hold(429, 3.0)
    assert hold_of(503, {"retry-after": "2"}) == Hold(503, 2.0)
    assert hold_of(503, {}) is None  # a plain 503 is the rules' to judge
    assert hold_of(503, {"retry-after": "later"}) is None
    assert hold_of(500, {"retry-after": "1"}) is None and hold_of(200, {}) is None


def test_the_waits_are_bounded_by_a_cap_a_budget_and_a_number_of_tries() -> None:
    told, untold = Hold(429, 2.0), Hold(429, None)
    assert holdback.wait_for(told, 1) == 2.0
    assert holdback.wait_for(Hold(429, 0.0), 1) == holdback.FLOOR_S  # never resend at once
    assert [holdback.wait_for(untold, n) for n in (1, 2, 3)] == [holdback.UNTOLD_S * f for f in (1, 2, 4)]
    assert holdback.give_up_why(told, 2.0, 1, 0.0) is None
    huge = Hold(429, 3600.0)
    assert "longer than the kit waits at once" in str(holdback.give_up_why(huge, 3600.0, 1, 0.0))
    assert "per test" in str(holdback.give_up_why(told, 2.0, 1, holdback.TEST_BUDGET_S - 1))
    assert "sends of the same request" in str(holdback.give_up_why(told, 2.0, holdback.MAX_TRIES, 0.0))


class _Script:
    """What the scripted server answers, in order, then 200 with {"ok": true}; and what it was sent."""

    def __init__(self) -> None:
        self.answers: list[tuple[int, dict[str, str]]] = []
        self.seen: list[tuple[str, float]] = []
        self.lock = threading.Lock()


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[_Script, str]]:
    """A scripted target, and no skip hook: the qaconform plugin, loaded here too, would skip a given-up test."""
    monkeypatch.setattr(ApiClient, "held_back", None)
    script = _Script()

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            with script.lock:
                script.seen.append((self.command, time.monotonic()))
                status, headers = script.answers.pop(0) if script.answers else (200, {})
            body = b'{"ok": true}' if status == 200 else b'{"error": "slow down"}'
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _answer

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield script, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _client(base_url: str) -> ApiClient:
    accounts = {r: {"username": r, "password": "pw-" + r} for r in ("admin", "moderator", "member", "novice")}
    profile = profile_from_dict({"base_url": base_url, "accounts": accounts, "timeout_s": 5,
                                 "fixtures": {"question_id": 1, "space_id": 1}})
    return ApiClient(profile, "member", "member", "pw-member", Recorder(secrets={"pw-member"}))


@pytest.mark.parametrize("retry_after", ["1", "http-date"])
def test_a_429_is_waited_out_as_told_and_the_request_sent_again(scripted: tuple[_Script, str],
                                                               retry_after: str) -> None:
    script, url = scripted
    value = formatdate(time.time() + 2, usegmt=True) if retry_after == "http-date" else retry_after
    script.answers = [(429, {"Retry-After": value})]
    client = _client(url)
    resp = client.get("/question.json")
    assert resp.status == 200 and resp.json() == {"ok": True}
    assert len(script.seen) == 2
    gap = script.seen[1][1] - script.seen[0][1]
    assert gap >= 0.9, f"sent again after {gap:.2f} s, before the target's Retry-After"
    held = client.recorder.take_holds()
    assert held is not None and held["times"] == 1 and held["statuses"] == {"429": 1} and held["waited_s"] >= 0.9
    assert "given_up" not in held
    assert [e.status for e in client.recorder.exchanges] == [200]  # the test sees the answer, not the 429
    assert resp.exchange.elapsed_ms < 500, "the answer's own time, without the wait (qaconform run's round trip)"


def test_a_429_without_retry_after_waits_the_kits_own_time(scripted: tuple[_Script, str]) -> None:
    script, url = scripted
    script.answers = [(429, {})]
    client = _client(url)
    assert client.get("/question.json").status == 200
    assert script.seen[1][1] - script.seen[0][1] >= holdback.UNTOLD_S * 0.9
    assert (client.recorder.take_holds() or {}).get("times") == 1


def test_a_503_with_retry_after_is_waited_out_without_it_it_is_the_answer(scripted: tuple[_Script, str]) -> None:
    script, url = scripted
    script.answers = [(503, {"Retry-After": "0"})]
    client = _client(url)
    assert client.get("/question.json").status == 200
    assert (client.recorder.take_holds() or {}).get("statuses") == {"503": 1}
    script.answers = [(503, {})]
    assert client.get("/question.json").status == 503
    assert "times" not in (client.recorder.take_holds() or {})  # paced after the first, but not held back
    assert len(script.seen) == 3


def test_a_huge_retry_after_is_not_waited_for_the_test_is_given_up_not_failed(
        scripted: tuple[_Script, str], monkeypatch: pytest.MonkeyPatch) -> None:
    script, url = scripted
    script.answers = [(429, {"Retry-After": "86400"})]
    client = _client(url)
    began = time.monotonic()
    resp = client.get("/question.json")  # no skip hook (the doctor, cleanup): the 429 comes back as it is
    assert resp.status == 429 and time.monotonic() - began < 2.0 and len(script.seen) == 1
    held = client.recorder.take_holds() or {}
    assert held.get("times") == 1 and "longer than the kit waits at once" in held["given_up"][0]

    calls: list[tuple[str, str, str]] = []

    class Skipped(BaseException):
        pass

    def hook(method: str, target: str, why: str) -> None:
        calls.append((method, target, why))
        raise Skipped(why)

    monkeypatch.setattr(ApiClient, "held_back", hook)
    script.answers = [(429, {"Retry-After": "86400"})]
    with pytest.raises(Skipped):
        client.get("/question.json")
    assert calls and calls[0][0] == "GET" and calls[0][1].endswith("/question.json") and "86400" in calls[0][2]


def test_a_test_that_waited_its_budget_is_given_up(scripted: tuple[_Script, str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    script, url = scripted
    monkeypatch.setattr(holdback, "TEST_BUDGET_S", 0.6)
    script.answers = [(429, {"Retry-After": "0"})] * 5
    client = _client(url)
    resp = client.get("/question.json")
    assert resp.status == 429
    held = client.recorder.take_holds() or {}
    assert held["times"] == 3 and held["waited_s"] == pytest.approx(0.5), held  # 0.25 + 0.25, the third over 0.6
    assert "per test" in held["given_up"][0]


def test_a_write_given_up_goes_back_to_the_write_budget_before_the_test_is_skipped(
        scripted: tuple[_Script, str], monkeypatch: pytest.MonkeyPatch) -> None:
    script, url = scripted
    budget = WriteBudget(10)
    monkeypatch.setattr(ApiClient, "write_budget", budget)

    class Skipped(BaseException):
        pass

    def hook(method: str, target: str, why: str) -> None:
        raise Skipped(why)

    monkeypatch.setattr(ApiClient, "held_back", hook)
    script.answers = [(429, {"Retry-After": "3600"})]
    with pytest.raises(Skipped):
        _client(url).post("/question/1/answer.json", json={"body": "x"})
    assert budget.spent(SUITES) == 0, "a write the target never took stays spent"


def test_a_write_held_back_is_sent_again_once_accepted_and_counted_once(scripted: tuple[_Script, str]) -> None:
    script, url = scripted
    script.answers = [(429, {"Retry-After": "0"})]
    client = _client(url)
    assert client.post("/question/1/answer.json", json={"body": "x"}).status == 200
    assert [m for m, _ in script.seen] == ["POST", "POST"]
    writes = client.recorder.take_writes()
    once = {"sent": 1, "accepted": 1, "held": 0}
    assert writes["operations"] == {"POST /question/{id}/answer.json": once}
    # the share it came from is named when a write budget is set (a run's plugin sets one): counted once there too
    assert all(counts == once for counts in writes.get("pools", {}).values()), writes


def test_a_hold_back_holds_the_account_and_halves_its_pace_but_not_the_other_accounts() -> None:
    pace = Pace()
    for _ in range(8):
        pace.wait("http://t", "member")
    pace.held("http://t", "member", 0.3)
    began = time.monotonic()
    assert pace.wait("http://t", "admin") < 0.05  # another account is not held
    first = pace.wait("http://t", "member")
    assert first >= 0.25, "the held account waited for the hold"
    sent = [time.monotonic()]
    for _ in range(5):
        pace.wait("http://t", "member")
        sent.append(time.monotonic())
    # the pace was halved from the 8 sent in the last second to 4 a second (recovering at 1/s)
    assert sent[-1] - began >= 1.0, f"6 requests of the held account in {sent[-1] - began:.2f} s"
    pace.held("http://t", None, 0.2)  # a 503 with Retry-After: everyone waits
    assert pace.wait("http://t", "admin") >= 0.15


def test_a_hold_heard_by_one_worker_holds_the_account_in_the_others(tmp_path: Path) -> None:
    """Two processes' paces sharing the run's file (the plugin names it on every xdist worker): a 429 one of them
    met holds that account in the other too, not another account; the pace itself stays each process's own."""
    one, other = Pace(), Pace()
    for pace in (one, other):
        pace.share_through(tmp_path / "qc-pace-run.json")
    assert other.wait("http://t", "member") < 0.05
    one.held("http://t", "member", 0.4)
    began = time.monotonic()
    assert other.wait("http://t", "admin") < 0.05
    assert other.wait("http://t", "member") >= 0.3, "the other process sent while the account was held"
    assert time.monotonic() - began < 2.0
    alone = Pace()  # a process that shares nothing hears nothing
    one.held("http://t", "member", 0.4)
    assert alone.wait("http://t", "member") < 0.05
    assert one.share_through(None) == tmp_path / "qc-pace-run.json", "what a test's own pace restores afterwards"
    one.held("http://t", "novice", 0.4)  # kept to itself now
    assert other.wait("http://t", "novice") < 0.05
