"""qaconform.pytest.support.once_per_run: content a session fixture writes is made once per run and target, however
many pytest-xdist workers read it (issue 29: a run's writes are budgeted)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from qaconform.pytest.support import once_per_run


class _Factory:
    def __init__(self, root: Path, worker: str) -> None:
        self.base = root / f"popen-{worker}"

    def getbasetemp(self) -> Path:
        self.base.mkdir(parents=True, exist_ok=True)
        return self.base


class _Config:
    def __init__(self, workerinput: dict[str, Any] | None) -> None:
        if workerinput is not None:
            self.workerinput = workerinput


class _Request:
    """What once_per_run reads of a fixture's request: the config (a worker's has workerinput), tmp_path_factory."""

    def __init__(self, root: Path, worker: str | None, run: str = "run-1") -> None:
        self.config = _Config(None if worker is None else {"workerid": worker, "testrunuid": run})
        self._factory = _Factory(root, worker or "main")

    def getfixturevalue(self, name: str) -> Any:
        assert name == "tmp_path_factory"
        return self._factory


TARGET = "http://127.0.0.1:9"


def test_the_workers_of_one_run_share_one_make_against_one_target(tmp_path: Path) -> None:
    calls: list[str] = []

    def make() -> list[Any]:
        calls.append("made")
        return [7, [1, 2, 3]]

    first = once_per_run(_Request(tmp_path, "gw0"), TARGET, "commented_answer", make)
    second = once_per_run(_Request(tmp_path, "gw1"), TARGET, "commented_answer", make)
    assert first == second == [7, [1, 2, 3]]
    assert calls == ["made"]


def test_another_target_another_key_or_another_run_makes_its_own(tmp_path: Path) -> None:
    calls: list[str] = []

    def make() -> int:
        calls.append("made")
        return len(calls)

    once_per_run(_Request(tmp_path, "gw0"), TARGET, "shared_answer", make)
    once_per_run(_Request(tmp_path, "gw1"), "http://127.0.0.1:10", "shared_answer", make)  # each worker's server
    once_per_run(_Request(tmp_path, "gw1"), TARGET, "privacy_thread", make)
    once_per_run(_Request(tmp_path, "gw1", run="run-2"), TARGET, "shared_answer", make)
    assert len(calls) == 4


def test_a_make_that_fails_leaves_nothing_and_the_next_worker_makes_it(tmp_path: Path) -> None:
    def broken() -> int:
        raise AssertionError("[ANSWER-201] member could not post an answer")

    with pytest.raises(AssertionError, match="ANSWER-201"):
        once_per_run(_Request(tmp_path, "gw0"), TARGET, "shared_answer", broken)
    assert once_per_run(_Request(tmp_path, "gw1"), TARGET, "shared_answer", lambda: 42) == 42


def test_without_workers_each_call_makes_its_own(tmp_path: Path) -> None:
    """A serial run has one session: its session fixture is made once by pytest itself."""
    calls: list[str] = []

    def make() -> int:
        calls.append("made")
        return 1

    for _ in range(2):
        once_per_run(_Request(tmp_path, None), TARGET, "shared_answer", make)
    assert calls == ["made", "made"]
