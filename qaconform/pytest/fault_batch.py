"""One collection, many sessions: the self-test's runs of one rule's tests against each fault's own server.

Why: the self-test runs the tests naming a fault's rule against a server with only that fault on, once per fault
(516 faults, 152 rules, 2026-11-29). Each run started pytest, collected the rule's suite files (thousands of
parametrized cases built and deselected) and only then sent its first request; the faults of one rule repeated that
collection identically, since no collection reads the target (``plugin.pytest_collection_finish`` is where the
target is first resolved). Here pytest collects once per rule and forks one process per fault after the
collection: each fork resolves its own fault's profile (the doctor examines that server, as before), runs the same
tests, and writes its own results file, exactly as a pytest started for it alone would, only without the start and
the collection. The servers stay one per fault, started and stopped by the self-test around each fork: faults are
never composed into one server (composing was measured unsafe: ``comment-list-cache-by-url`` changes its failed
rules).

The protocol is files in the folder ``--qaconform-batch`` names, so that no standard stream is shared with pytest's
capture: the self-test writes ``N.json`` (``{"profile", "results", "timeout"}``, and ``"rule"`` when this process
collected every suite: the fork keeps only that rule's tests, as ``--rule`` would) for the N-th run (from 0) and
``end`` when there is none left (``"until_caught": RULE`` ends the fork's session at its first test charged with
RULE, as ``-x`` ends one at its first failure: :class:`UntilCaught`; with it, ``"first": NODEID`` runs that test
first, the one that caught the fault last time, and ``"alone": true`` that test alone: :func:`_first`); this
process forks the run, waits for it (killing it after ``timeout`` seconds), and writes ``N.done`` (``{"exit": code}``
or ``{"timeout": true}``). Only the self-test passes the option (``qaconform.commands.selftest_batch``); without it
this plugin does nothing.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from qaconform.blame import charged_rules
from qaconform.pytest.run_state import _in_suites, _rule_ids, state

POLL_S = 0.02
"""How often the parent looks for the next request and at its running fork (a run takes seconds)."""
IDLE_S = 900.0
"""The parent ends when no request came for this long: the self-test that fed it is gone."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("qaconform").addoption(
        "--qaconform-batch", dest="qc_batch", default=None, metavar="FOLDER",
        help="the self-test's: collect once, then run the selected tests once per request file of FOLDER, each in a "
             "fork with its own --target-profile and --qaconform-results (qaconform/pytest/fault_batch.py)")
    parser.getgroup("qaconform").addoption(
        "--qaconform-until-caught", dest="qc_until_caught", default=None, metavar="RULE",
        help="the self-test's: end the session at its first test charged with RULE (a fault's second run with "
             "--until-caught; qaconform/pytest/fault_batch.py)")


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """A pytest of its own (not a batch's fork) ends at its first test charged with ``--qaconform-until-caught``'s
    rule: the self-test's second run of a fault, the generated tests alone (``selftest_rules.pytest_base``)."""
    rule = session.config.getoption("qc_until_caught", None)
    if rule:
        session.config.pluginmanager.register(UntilCaught(session, str(rule)), "qaconform-until-caught")


def deferred(config: pytest.Config) -> bool:
    """Whether the target is resolved by each fork, not at the end of the collection."""
    return bool(config.getoption("qc_batch", None))


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> Any:
    """In the parent: one fork per request; each fork returns None here, so pytest's own loop runs its tests and
    the session ends in the fork as a session of its own would (results file, exit code). The parent runs no test
    and writes no results file."""
    config = session.config
    folder = config.getoption("qc_batch", None)
    if not folder:
        return None
    index: dict[str, list[int]] | None = None
    for n, request in _requests(Path(folder)):
        if request.get("rule") and index is None:  # once, before the first fork that keeps one rule's tests
            index = rule_index(session.items)
        for stream in (sys.stdout, sys.stderr):  # nothing buffered here is written twice by the fork
            stream.flush()
        pid = os.fork()
        if pid == 0:
            _become(session, request, index)
            return None
        outcome = _wait(pid, float(request.get("timeout", IDLE_S)))
        done = Path(folder) / f"{n}.done"
        done.with_suffix(".tmp").write_text(json.dumps(outcome))
        done.with_suffix(".tmp").replace(done)
    config.option.qc_results = None
    return True


def _requests(folder: Path) -> Any:
    """(N, request) as the self-test writes them, until its ``end`` file (or nothing came for :data:`IDLE_S`)."""
    n = 0
    waited_since = time.monotonic()
    while True:
        path = folder / f"{n}.json"
        if path.exists():
            yield n, json.loads(path.read_text())
            n += 1
            waited_since = time.monotonic()
        elif (folder / "end").exists() or time.monotonic() - waited_since > IDLE_S:
            return
        else:
            time.sleep(POLL_S)


def _become(session: pytest.Session, request: dict[str, Any], index: dict[str, list[int]] | None = None) -> None:
    """In the fork: this run's profile and results file, a fresh start time, and the target resolved now (the
    doctor examines this fault's server before the first test, as ``plugin.pytest_collection_finish`` does in a
    session of its own, when a suite test was collected; a profile it refuses ends this run here)."""
    _die_with_parent()
    config = session.config
    config.option.qc_profile = request["profile"]
    config.option.qc_results = request["results"]
    config.option.qc_batch = None
    if request.get("rule"):
        _select(session, str(request["rule"]), index)
    if request.get("until_caught"):
        config.pluginmanager.register(UntilCaught(session, str(request["until_caught"])), "qaconform-until-caught")
        if request.get("first"):
            _first(session, str(request["first"]), alone=bool(request.get("alone")))
    run = state(config)
    run.started = time.time()
    if any(_rule_ids(i) or _in_suites(i) for i in session.items):
        run.holder.get()


def rule_index(items: list[pytest.Item]) -> dict[str, list[int]]:
    """{rule: the positions in ``items`` of the tests naming it, in order}: built once by the batch's parent, so
    that no fork walks every collected test's rules again.

    Why: a fork of a collection of every suite kept its rule's tests by asking each of the ~9,200 collected tests
    for its rule ids (a stash look-up and a new list each): 0.013 s of CPU a fork, 0.0007 s by the index, which
    costs its parent 0.009 s once (31 faults, the same tests kept for each; ci16, 2026-12-01), where CI runs 1,154
    faults. The parent's forks inherit the index."""
    index: dict[str, list[int]] = {}
    for n, item in enumerate(items):
        for rule in dict.fromkeys(_rule_ids(item)):
            index.setdefault(rule, []).append(n)
    return index


def _select(session: pytest.Session, rule: str, index: dict[str, list[int]] | None = None) -> None:
    """In the fork of a collection of every suite (the self-test's long-lived one per job): only the tests naming
    ``rule``, deselected as ``--rule`` deselects them (``plugin.pytest_collection_modifyitems``), so the fork runs
    the tests a pytest of the rule's own files with ``--rule`` would, in the same order, and every test that reads
    ``session.items`` (read-ahead, the observations' plan) sees that same list. ``index``: :func:`rule_index` of
    ``session.items``, built by the parent (without it, each test's rules are asked here)."""
    items = session.items
    at = index.get(rule, []) if index is not None else [n for n, i in enumerate(items) if rule in _rule_ids(i)]
    kept = set(at)
    keep = [items[n] for n in at]
    drop = [item for n, item in enumerate(items) if n not in kept]
    if drop:
        session.config.hook.pytest_deselected(items=drop)
    session.items[:] = keep
    session.testscollected = len(keep)
    session.config.option.qc_rules = [rule]


def _first(session: pytest.Session, nodeid: str, alone: bool = False) -> None:
    """Under ``until_caught``: the test ``nodeid`` (the fault's last catch, ``selftest_catchers``) moved to the head
    of ``session.items``, the others in their order behind it; nothing moves when it is not among them (renamed,
    another rule's, a generated test). ``alone``: that test is the session's only one (none when it is not among
    them); the self-test then runs the rule's tests in their order against a fresh server unless it caught the fault.

    Why: a fault's first run ended at its catch after hundreds of its rule's tests (``selftest_catchers``); now the
    catch is usually the first test. The fault is still caught only by a failed test charged with its rule (ci19);
    alone (ci21), a catch that passes costs one test, not its rule's whole order on a server it already changed."""
    items = session.items
    at = next((n for n, item in enumerate(items) if item.nodeid == nodeid), None)
    if alone:
        keep = [items[at]] if at is not None else []
        drop = [item for n, item in enumerate(items) if n != at]
        if drop:
            session.config.hook.pytest_deselected(items=drop)
        items[:] = keep
        session.testscollected = len(keep)
    elif at:
        items.insert(0, items.pop(at))


class UntilCaught:
    """Ends the fork's session after the first test whose result is charged with ``rule`` (the self-test's
    ``--until-caught``), as ``--maxfail`` ends one: the tests before it ran as in a whole run, the rest do not.

    Why: a fault is caught by one failed test charged with its rule, and the self-test in CI asks only that; a rule
    crossed by a covering array is named by hundreds of tests, and a fault that breaks it fails all of them, each
    failure formatted and reported (envelope-listcount-wrong: 949 tests, 37 s of a 40-fault sample's 190, 2026-11-30).
    Sound: the session runs the same tests in the same order up to that test, so a fault is reported caught only by
    a failure its whole run has too (what such a run no longer gives is the rules its later tests would charge)."""

    def __init__(self, session: pytest.Session, rule: str) -> None:
        self.session = session
        self.rule = rule
        self._seen = 0

    @pytest.hookimpl(trylast=True)  # after the results plugin appended this report's entry
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        results = state(self.session.config).results
        fresh, self._seen = results[self._seen:], len(results)
        if any(self.rule in charged_rules(entry) for entry in fresh):
            self.session.shouldfail = f"--until-caught: {report.nodeid} is charged with {self.rule}"


def _die_with_parent() -> None:
    """A fork whose parent was killed (the self-test's timeout) is killed too, as a test of a killed pytest is."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _wait(pid: int, timeout: float) -> dict[str, Any]:
    """The fork's exit code, or ``timeout`` after killing it when it ran longer."""
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return {"exit": os.waitstatus_to_exitcode(status)}
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return {"timeout": True}
        time.sleep(POLL_S)
