"""The self-test's side of one rule's batch: a pytest that collected the rule's tests once, fed one fault at a time.

Why: a fault's run was a pytest of its own (start, collection of the rule's suite files, then the tests), and the
faults of one rule repeated the start and the collection identically: 516 faults share 152 rules (2026-11-29). The
batch's pytest (``qaconform/pytest/fault_batch.py``) collects once and forks a session per fault after the
collection; each fork resolves and examines its fault's own server and writes its own results file, as a pytest
started for that fault would. The servers stay one per fault, started and stopped around each run by the caller.

What a run returns is what ``subprocess`` gave the pytest of one fault: an exit code, or why there is none (the run
timed out, or the batch's pytest ended without running it), and the output it wrote.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

POLL_S = 0.02
"""How often the self-test looks for a run's ``N.done`` (a run takes seconds)."""
Task: TypeAlias = tuple[str, str | None, tuple[str, ...] | None, int | None]
"""A self-test task (``selftest.run_selftest``): label, rule, variant group (a batch: its faults' labels), seed (an
extra seed of the generated tests, or the faults' own seed: ``selftest_seeds``; None: the self-test's)."""
MAX_BATCH = 6
"""At most this many faults in one batch (a rule with more gets several): a batch runs its faults one after another
on one job, and 20 faults of PAGING-TOTALCOUNT-UNION in one batch left the other job idle for minutes at the end of
a 60-fault self-test (832 s against 765 s without batches, at load 8-22, 2026-11-29)."""
GRACE_S = 120.0
"""Beyond a run's own timeout (which the batch's pytest enforces on its fork): the collection before the first run,
and a busy machine's slack, before the self-test gives up on the batch's pytest itself."""


def enabled() -> bool:
    """Whether a fault's first run goes through its rule's batch (``QACONFORM_SELFTEST_BATCH=0``: a pytest of its
    own per fault, as before; the same tests and verdicts, measured slower)."""
    return os.environ.get("QACONFORM_SELFTEST_BATCH", "1").strip() != "0"


def by_rule(tasks: list[Task], files: dict[str, list[str]]) -> list[Task]:
    """The faults' tasks as one task per rule and seed (its faults' labels, at most :data:`MAX_BATCH` a task;
    ``selftest._run_rule``), the largest first after the clean run (long batches last would leave one job idle at
    the end); the others as they were. A rule no suite file names keeps its faults' own runs (they report that no
    test names it)."""
    faults: dict[tuple[str, int | None], list[str]] = {}  # seed15: by rule and the faults' own seed
    for label, rule, group, seed in tasks:
        if rule is not None and group is None and files.get(rule):
            faults.setdefault((rule, seed), []).append(label)
    head = [t for t in tasks if t[1] is None and t[0] == "clean" and t[2] is None]
    rest = [t for t in tasks if t not in head and not ((t[1], t[3]) in faults and t[2] is None)]
    chunks = [(key, labels[i:i + MAX_BATCH]) for key, labels in faults.items()
              for i in range(0, len(labels), MAX_BATCH)]
    batches: list[Task] = [(labels[0], rule, tuple(labels), seed)
                           for (rule, seed), labels in sorted(chunks, key=lambda kv: -len(kv[1]))]
    return [*head, *batches, *rest]


@dataclass
class BatchRun:
    """One fault's run: ``returncode`` as a pytest of its own would have exited, or ``problem`` when none did."""

    returncode: int | None
    output: str
    problem: str | None = None


class Batch:
    """One pytest process over one rule's tests (``cmd`` without a profile nor a results file), runs fed in turn."""

    def __init__(self, cmd: list[str], env: dict[str, str], cwd: Path, folder: Path,
                 launch: Callable[[list[str], dict[str, str]], list[str]], every_rule: bool = False,
                 until_caught: bool = False) -> None:
        self.every_rule = every_rule
        """It collected every suite (:class:`Collectors`): each run names the rule whose tests its fork keeps."""
        self.until_caught = until_caught
        """Each run ends at its first test charged with the run's rule (``--until-caught``,
        ``fault_batch.UntilCaught``)."""
        self.folder = folder / "requests"
        self.folder.mkdir(parents=True)
        self.log_path = folder / "batch.log"
        self.runs = 0
        full = [*cmd, "-p", "qaconform.pytest.fault_batch", "--qaconform-batch", str(self.folder)]
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(launch(full, env), cwd=cwd, stdin=subprocess.DEVNULL, stdout=log,
                                         stderr=subprocess.STDOUT, env=env, start_new_session=True)

    def run(self, profile: str, results: Path, timeout: float, rule: str | None = None,
            first: str | None = None) -> BatchRun:
        """Run the collected tests against ``profile``, the results to ``results``; its fork is killed after
        ``timeout`` seconds. ``rule``: the fault's (a batch that collected every suite keeps only the tests
        naming it, :class:`Collectors`). ``first``: under ``until_caught``, the node id of the test to run alone
        (the fault's last catch, ``selftest_catchers``). A batch whose pytest ended or hung is :meth:`broken`
        afterwards."""
        n, self.runs = self.runs, self.runs + 1
        offset = self.log_path.stat().st_size
        request = self.folder / f"{n}.json"
        asked = {"profile": profile, "results": str(results), "timeout": timeout,
                 **({"rule": rule} if rule and self.every_rule else {}),
                 **({"until_caught": rule} if rule and self.until_caught else {}),
                 **({"first": first, "alone": True} if first and rule and self.until_caught else {})}
        request.with_suffix(".tmp").write_text(json.dumps(asked))
        request.with_suffix(".tmp").replace(request)
        done = self.folder / f"{n}.done"
        deadline = time.monotonic() + timeout + GRACE_S
        while not done.exists():
            if self.proc.poll() is not None:
                return BatchRun(None, self._output(offset),
                                f"pytest ended (exit {self.proc.returncode}) before this run finished; its output "
                                f"ends with:\n{self._output(offset)[-1500:]}")
            if time.monotonic() > deadline:
                self.stop()
                return BatchRun(None, self._output(offset),
                                f"pytest did not finish within {timeout:.0f}s (raise --timeout, or find the hanging "
                                "test)")
            time.sleep(POLL_S)
        outcome = json.loads(done.read_text())
        if outcome.get("timeout"):
            return BatchRun(None, self._output(offset),
                            f"pytest did not finish within {timeout:.0f}s (raise --timeout, or find the hanging test)")
        return BatchRun(int(outcome["exit"]), self._output(offset))

    def broken(self) -> bool:
        return self.proc.poll() is not None

    def _output(self, offset: int) -> str:
        """What this run wrote to the batch's log (the parent writes nothing while a fork runs)."""
        with open(self.log_path, "rb") as log:
            log.seek(offset)
            return log.read().decode(errors="replace")

    def stop(self) -> None:
        """No more runs: the batch's pytest ends by itself (``end``), or is killed when it does not."""
        if self.proc.poll() is None:
            (self.folder / "end").touch()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=30)


FULL_COLLECTION_COST = 4
"""A collection of every suite cost about as much as this many collections of one rule's files (the first fault's
wait for them, 60 faults at load 20-28, 2026-11-30: about 8 s against 2 s): a second one pays only when a job has
more rules' batches than that to run (:func:`collections_for`)."""


def collections_for(batches: int, jobs: int) -> int:
    """How many collections of every suite a self-test of ``batches`` rule batches on ``jobs`` jobs keeps: one per
    job when each job has more than :data:`FULL_COLLECTION_COST` batches to run, else one (the rule map's: a
    `--fault` or two spend no second one)."""
    return jobs if batches > FULL_COLLECTION_COST * jobs else 1


class Collectors:
    """Long-lived :class:`Batch` es over every suite but the generated tests, one per job of the self-test at most:
    each collects once, and each fault's first run is a fork of one of them that keeps only its rule's tests.

    Why: a batch per rule collected the rule's suite files again for every batch (about 190 collections for 636
    faults, the large contract files most of them), where one collection per job holds every rule's tests. ``start``
    makes a batch (the caller's command, environment and launch); a job takes one for a rule's faults
    (:meth:`take`) and gives it back after (:meth:`give`); one whose pytest ended or hung is replaced."""

    def __init__(self, start: Callable[[Path, Path | None], Batch], folder: Path, most: int) -> None:
        self.most = most
        """At most this many batches run at once (:func:`collections_for`); a job that finds them all busy gets
        none, and runs its rule's faults by a batch of the rule's own files."""
        self._start = start
        self._folder = folder
        self._lock = threading.Lock()
        self._idle: list[Batch] = []
        self._all: list[Batch] = []

    def take(self) -> Batch | None:
        """An idle batch that still runs, or a new one (its collection runs before its first fault's run), or None
        when :attr:`most` run already."""
        with self._lock:
            while self._idle:
                batch = self._idle.pop()
                if not batch.broken():
                    return batch
                batch.stop()
            if sum(not b.broken() for b in self._all) >= self.most:
                return None
            batch = self._start(self._folder / str(len(self._all)), None)
            self._all.append(batch)
            return batch

    def rule_map(self, timeout: float) -> dict[str, list[str]] | None:
        """Each collected test's rule ids (:mod:`qaconform.pytest.rule_map`), written by the first batch as its
        collection ends, and that batch kept for the first faults: the self-test's map of the rules' files without
        a collection of its own. None when the batch ended or took longer than ``timeout`` (the caller collects the
        map itself, as before)."""
        path = self._folder / "rule-map.json"
        with self._lock:
            batch = self._start(self._folder / str(len(self._all)), path)
            self._all.append(batch)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not batch.broken():
            try:  # written in one go, but not atomically: a part of it is not JSON yet
                tests = json.loads(path.read_text(encoding="utf-8"))["tests"]
            except (OSError, ValueError, KeyError, TypeError):
                time.sleep(POLL_S * 10)
                continue
            self.give(batch)
            return {str(nodeid): [str(r) for r in rules] for nodeid, rules in tests.items()}
        return None

    def give(self, batch: Batch) -> None:
        with self._lock:
            self._idle.append(batch)

    @property
    def started(self) -> int:
        """How many batches were started (each one collection)."""
        return len(self._all)

    def stop(self) -> None:
        for batch in self._all:
            batch.stop()
