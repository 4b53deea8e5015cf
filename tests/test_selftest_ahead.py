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


def test_a_jobs_last_fault_starts_the_first_server_of_the_next_batch_nobody_began() -> None:
    """Shared by the self-test's jobs (ci22): at a batch's last fault, the next batch's first server starts ahead;
    a batch another job already began (its first label taken) is skipped, and no label gets two servers."""
    log: list[str] = []
    with Ahead(lambda label: FakeServer(label, log), [("a1", "a2"), ("b1",), ("c1", "c2"), ("d1",)], 2) as ahead:
        a1 = ahead.take("a1")()
        assert not a1.thread.startswith("selftest-ahead"), "the first batch starts cold"
        a1.stop()
        ahead.prepare("a2")
        ahead.take("b1")().stop()  # another job began b
        ahead.take("a2")().stop()
        ahead.prepare(None)  # a's last fault: b is begun, so c's first server starts
        c1 = ahead.take("c1")()
        assert c1.thread.startswith("selftest-ahead"), "the next batch's first server was not started ahead"
        c1.stop()
        ahead.prepare(None)  # d1, not c2: c2 is its own batch's next one, prepared by the job that runs c
        ahead.prepare(None)  # nothing left
    # d1 started once and stopped untaken at the end; c2 never started
    assert sorted(log) == sorted(["start a1", "start a2", "start b1", "start c1", "start d1", "stop a1", "stop a2",
                                  "stop b1", "stop c1", "stop d1"])
