"""A pytest plugin the runner loads (``-p qaconform.pytest.exchange_log``): every exchange of the run, on disk.

The results file keeps a failing test's last exchanges, and only for the report. The run's interface coverage
(``qaconform.report.coverage``: what was actually sent and received, per operation and account) and its HAR
cassettes (``qaconform.report.har``) need every exchange, from every process. Each process (the controller, each
xdist worker) appends to its own file ``<dir>/<worker>.jsonl``, one line per exchange with the test that was running,
so no worker waits for another and nothing rides on xdist's report channel; the runner reads them all afterwards.
The exchanges are the client's recorded copies: Authorization and the profile's secrets are already redacted.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from qaconform.target.client import Exchange, Recorder

_KEY = pytest.StashKey["_ExchangeLog"]()


class _ExchangeLog:
    """The open file of this process and the test running now (exchanges before any test belong to none)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file: IO[str] = path.open("a", encoding="utf-8")
        self.test: str | None = None
        self._lock = threading.Lock()
        """A test's reads may run in several threads (support.for_each, the relations' walks): a text file written
        from two threads at once interleaves their lines, and a torn line is lost to the coverage and cassettes."""

    def write(self, ex: Exchange, *, shared: bool = False) -> None:
        started = time.time() - ex.elapsed_ms / 1000
        entry: dict[str, Any] = {"test": self.test, "started": round(started, 3), **ex.as_dict()}
        if shared:
            entry["shared"] = True
        entry.pop("curl", None)  # the report keeps curls; a cassette has the request itself
        line = json.dumps(entry, default=str) + "\n"
        with self._lock:
            self.file.write(line)

    def close(self) -> None:
        self.file.close()


_OPEN: list[_ExchangeLog] = []
"""This process's log while the run has one (set at configure), for :func:`judged_again` and :func:`outside_tests`."""


_JUDGED: list[Exchange] = []
"""The answers read earlier that the running test phase judged (:func:`judged_again`), whether or not a log is open:
the plugin takes them after each phase (:func:`take_judged`) for the failure's curl as a field."""


def judged_again(exchange: Exchange) -> None:
    """An answer read earlier in this process (a cached read: the contract suites' ``fetch``) that the running test
    judges too: logged again under this test, marked ``shared``, so that the test's HAR cassette holds the answer it
    judged. Sent once: the interface coverage counts only the first line (what went over the wire). Kept for the
    results too: a test that judged only cached answers recorded no exchange of its own, and its failure's curl is
    the last answer it judged."""
    _JUDGED.append(exchange)
    if _OPEN and _OPEN[0].test is not None:
        _OPEN[0].write(exchange, shared=True)


def take_judged() -> list[Exchange]:
    """The answers judged again since the last call (the running test phase's), and a fresh list for the next."""
    out = _JUDGED[:]
    del _JUDGED[:len(out)]
    return out


@contextlib.contextmanager
def outside_tests() -> Iterator[None]:
    """Exchanges sent in this block belong to no test: reads made ahead for a module's tests (the matrix's
    read-ahead, in its first test's setup), each then logged under the test that judges it (:func:`judged_again`),
    not all under the first."""
    log = _OPEN[0] if _OPEN else None
    if log is None:
        yield
        return
    test, log.test = log.test, None
    try:
        yield
    finally:
        log.test = test


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--qaconform-exchanges", dest="qc_exchanges", default=None, metavar="DIR",
                     help="append every exchange with the test that sent it to DIR/<process>.jsonl "
                          "(the interface coverage and HAR files of `qaconform run`)")


def pytest_configure(config: pytest.Config) -> None:
    folder = config.getoption("qc_exchanges", None)
    if not folder:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    log = _ExchangeLog(Path(folder) / f"{worker}.jsonl")
    config.stash[_KEY] = log
    Recorder.tap = log.write
    _OPEN[:] = [log]


def pytest_unconfigure(config: pytest.Config) -> None:
    log = config.stash.get(_KEY, None)
    if log is not None:
        Recorder.tap = None
        _OPEN.clear()
        log.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Exchanges sent while a test runs (its session fixtures' included, the first time) are that test's."""
    log = item.config.stash.get(_KEY, None)
    if log is not None:
        log.test = item.nodeid
    yield
    if log is not None:
        log.test = None
        log.file.flush()

