"""The self-test starts the next fault's server while the current fault runs (``selftest_ahead.Ahead``): each label
gets a server started for it alone, a server nobody took is stopped, and a start that failed fails only its taker."""

from __future__ import annotations

import threading

import pytest

from qaconform.commands.selftest_ahead import Ahead


class FakeServer:
    def __init__(self, label: str, log: list[str]) -> None:
        self.label = label
        self.log = log
        self.thread = threading.current_thread().name
        log.append(f"start {label}")

    def stop(self) -> None:
        self.log.append(f"stop {self.label}")


def test_each_label_gets_its_own_server_the_next_one_started_ahead_on_another_thread() -> None:
    log: list[str] = []
    labels = ["a", "b", "c"]
    with Ahead(lambda label: FakeServer(label, log)) as ahead:
        for n, label in enumerate(labels):
            server = ahead.take(label)
            ahead.prepare(labels[n + 1] if n + 1 < len(labels) else None)
            srv = server()
            assert srv.label == label
            if n > 0:
                assert srv.thread.startswith("selftest-ahead"), "started ahead, while the previous run went"
            srv.stop()
    assert sorted(log) == sorted(f"{verb} {label}" for label in labels for verb in ("start", "stop"))


def test_a_server_started_ahead_that_nobody_takes_is_stopped() -> None:
    log: list[str] = []
    with Ahead(lambda label: FakeServer(label, log)) as ahead:
        ahead.prepare("a")
        srv = ahead.take("b")()  # another label: a's server is not given to b
        assert srv.label == "b"
        srv.stop()
        ahead.prepare("c")
    assert sorted(log) == ["start a", "start b", "start c", "stop a", "stop b", "stop c"]


def test_a_server_that_failed_to_start_ahead_raises_for_its_taker_only() -> None:
    def start(label: str) -> FakeServer:
        if label == "bad":
            raise RuntimeError("the reference server exited with code 1 before it was ready")
        return FakeServer(label, [])

    with Ahead(start) as ahead:
        ahead.prepare("bad")
        server = ahead.take("bad")
        ahead.prepare("good")
        with pytest.raises(RuntimeError, match="before it was ready"):
            server()
        assert ahead.take("good")().label == "good"
