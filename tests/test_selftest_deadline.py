"""The bound on one pytest run of `qaconform selftest` (qaconform/commands/selftest_deadline.py): --timeout stretched
by the measured load for the run's own CPU, so a slow run on a booked machine finishes and a hang is still stopped."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from qaconform.commands.selftest_deadline import Deadline, allowed_seconds

_SPIN = "import sys, time\nend = time.process_time() + 30\nwhile time.process_time() < end: pass\n"


def test_the_bound_is_the_timeout_on_a_machine_booked_at_most_full() -> None:
    assert allowed_seconds(300, 1.0, 120) == 300
    assert allowed_seconds(300, 0.3, 120) == 300


def test_the_bound_stretches_by_the_runs_own_cpu_times_the_booking_above_full() -> None:
    """Load 30 on 2 cores is 15 per CPU: a run that spent 20 s of CPU may take 280 s more than a quiet machine's."""
    assert allowed_seconds(300, 15.0, 20) == 300 + 20 * 14
    assert allowed_seconds(300, 15.0, 0) == 300  # a hang spends no CPU: no stretch, whatever the load


def _wait(proc: subprocess.Popen[bytes], deadline: Deadline, limit_s: float) -> float:
    """Sample as selftest._pytest does until the run ends or is over its bound; returns the seconds it ran."""
    started = time.monotonic()
    try:
        while proc.poll() is None and time.monotonic() - started < limit_s:
            deadline.sample(proc.pid)
            if deadline.over():
                break
            time.sleep(0.2)
        return time.monotonic() - started
    finally:
        proc.kill()
        proc.wait()


def test_a_hanging_run_is_stopped_near_its_timeout_however_booked_the_machine(tmp_path: Path) -> None:
    log = tmp_path / "pytest.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], stdout=out)
    deadline = Deadline(1.0, log, load=lambda: 3.0)
    seconds = _wait(proc, deadline, limit_s=60)
    assert deadline.over(), f"a run that only sleeps was not stopped in {seconds:.0f}s (bound {deadline.allowed()})"
    assert deadline.cpu_s < 2, deadline.cpu_s  # the interpreter's start-up, nothing more
    assert "pytest did not finish within" in deadline.why() and "raise --timeout" in deadline.why()


@pytest.mark.parametrize("pause_s", [0.0, 1.0], ids=["at-once", "after-its-parent-opened-the-log"])
def test_the_cpu_counted_is_that_of_the_process_writing_the_log_even_when_it_is_no_child_of_the_one_started(
        tmp_path: Path, pause_s: float) -> None:
    """Under the fork server the process started is a stand-in (the shim) that only waits; pytest is forked by
    another child of the self-test and writes the same log. Here a waiting parent starts a spinning grandchild,
    at once or a second after it opened the log (CI at load 15 sampled in between: the parent was taken for the
    writer and the grandchild never looked for)."""
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("open files are read from /proc: Linux only, where the fork server runs")
    log = tmp_path / "pytest.log"
    server = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time\n"
                               f"out = open({str(log)!r}, 'wb')\n"
                               f"time.sleep({pause_s})\n"
                               f"subprocess.Popen([sys.executable, '-c', {_SPIN!r}], stdout=out)\n"
                               "time.sleep(120)\n"])
    shim = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    deadline = Deadline(3600.0, log, load=lambda: 2.0)
    try:
        started = time.monotonic()
        while deadline.cpu_s < 0.5 and time.monotonic() - started < 120:
            deadline.sample(shim.pid)
            time.sleep(0.2)
    finally:
        spinning = psutil.Process(server.pid).children(recursive=True)  # before its parent goes: then it is init's
        for p in (shim, server):
            p.kill()
            p.wait()
        for child in spinning:
            with contextlib.suppress(psutil.Error):
                child.kill()
    assert deadline.cpu_s >= 0.5, "the spinning process that writes the log was not counted"
    assert deadline.allowed() == pytest.approx(3600.0 + deadline.cpu_s)
