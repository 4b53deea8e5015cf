"""The kit's own tests start dozens of `qaconform run` commands, many at once (tests/hostile plans them all at
session start), on CI machines of 2 cores: each runs its suites serially unless it passes --jobs (as the tests of
parallel runs do), so that every worker a test did not ask for is not one more process collecting the suites.

CI sets ``PYTHONDONTWRITEBYTECODE`` (.ci/run), so every Python these tests start (hundreds: kit commands, reference
servers, Locust workers, self-test runs) would compile the kit's modules and rewrite the suites' asserts again, a
few seconds of CPU each. They share one bytecode cache of this session instead, in its own temporary folder (never
beside the sources, which is what that setting protects)."""

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("QACONFORM_JOBS", "1")
if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
    os.environ.pop("PYTHONDONTWRITEBYTECODE")
    os.environ["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="qaconform-tests-pycache-")
    atexit.register(shutil.rmtree, os.environ["PYTHONPYCACHEPREFIX"], True)


from collections.abc import Iterator  # noqa: E402
from typing import Any  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _not_held_back() -> Iterator[None]:
    """Each test starts as a run the target has not held back: a 429 one test provoked must not make the fan-outs of
    the next ones serial (``PACE.was_held`` is the process's, as in a run)."""
    from qaconform.target.politeness import PACE

    # Under `pytest -n 2` (CI) the suites' session shares the target's holds between workers through a file
    # (session_target): a kit test in the same worker would read another test's 429s from it. Kit tests keep their own.
    shared = PACE.share_through(None)  # restored after the test, for the suites that run in this worker
    PACE.was_held = False
    yield
    PACE.was_held = False
    PACE.share_through(shared)


_TIMELINE: Any = None
"""ci_timeline.Timeline of this session, in the xdist controller only (CI's `pytest -n 2`)."""


def pytest_sessionstart(session: pytest.Session) -> None:
    global _TIMELINE
    if getattr(session.config.option, "numprocesses", None) and not hasattr(session.config, "workerinput"):
        from ci_timeline import Timeline

        _TIMELINE = Timeline()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """The controller's copy of a worker's test phase: where and when it ran (ci_timeline.py)."""
    worker = getattr(report, "worker_id", None) or getattr(getattr(getattr(report, "node", None), "gateway", None),
                                                             "id", None)
    if _TIMELINE is not None and worker and getattr(report, "start", None) and getattr(report, "stop", None):
        _TIMELINE.add(str(worker), report.start, report.stop)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """After the durations: each worker's busy seconds and idle tail, and how busy the CPUs were (CI's balance)."""
    lines = _TIMELINE.lines() if _TIMELINE is not None else []
    if lines:
        terminalreporter.write_sep("=", "workers and CPUs (tests/ci_timeline.py)")
        for line in lines:
            terminalreporter.write_line(line)
