"""How long one pytest run of `qaconform selftest` may take: ``--timeout`` (a quiet machine's bound), stretched by
what the machine's booking cost the run's own CPU work, the way the hostile tests bound a kit command
(``tests/hostile/hostile_kit.py``: ``allowed_seconds``).

Why: the fixed 300 s stopped runs that were doing nothing wrong at a load of 30 on 2 cores, where a run's wall time
is its CPU work times the booking per CPU. Stretching only the CPU the run itself spent keeps a real hang caught: a
hanging pytest spends no CPU, so its bound stops growing and it is stopped at ``--timeout`` plus what its work so
far was stretched by, never later.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import psutil


def load_per_cpu() -> float:
    """The 1-minute load average per CPU now (1.0 is a machine booked exactly full)."""
    return os.getloadavg()[0] / (os.cpu_count() or 1)


def allowed_seconds(timeout_s: float, load: float, cpu_s: float) -> float:
    """``timeout_s`` plus the run's CPU (``cpu_s``) times how much more than full the machine was booked (``load``,
    the mean load per CPU, not capped): ``timeout_s + cpu_s * (load - 1)``; never less than ``timeout_s``."""
    return timeout_s + cpu_s * max(0.0, load - 1.0)


@dataclass
class Deadline:
    """The bound of one pytest run, measured while it runs: :meth:`sample` about once a second, :meth:`over` to
    ask. The run's processes are those with its log file open (``log_path``): pytest writes there, whether it was
    started as a child or forked from the self-test's fork server (then it is no child of the process started)."""

    timeout_s: float
    log_path: Path
    load: Callable[[], float] = load_per_cpu
    started: float = field(default_factory=time.monotonic)
    loads: list[float] = field(default_factory=list)
    cpu_s: float = 0.0
    _pids: set[int] = field(default_factory=set)

    def sample(self, pid: int) -> None:
        """Measure the load now and the CPU the run's processes (``pid``, the process started, and every
        descendant of this process with the log open) spent so far; a process that ended keeps what it spent."""
        self.loads.append(self.load())
        # every tick, not only until a first writer is found: the process that opened the log may be a waiting
        # parent whose child (pytest) inherits it a moment later (one scan of the descendants' open files a second)
        self._pids |= {pid, *self._writers()}
        total = 0.0
        for p in list(self._pids):
            try:
                t = psutil.Process(p).cpu_times()
                total += t.user + t.system + t.children_user + t.children_system
            except psutil.Error:
                self._pids.discard(p)
        self.cpu_s = max(self.cpu_s, total)

    def _writers(self) -> set[int]:
        found: set[int] = set()
        with contextlib.suppress(psutil.Error):
            for p in psutil.Process().children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    if p.pid not in self._pids and any(f.path == str(self.log_path) for f in p.open_files()):
                        found.add(p.pid)
        return found

    def mean_load(self) -> float:
        return sum(self.loads) / len(self.loads) if self.loads else 1.0

    def allowed(self) -> float:
        return allowed_seconds(self.timeout_s, self.mean_load(), self.cpu_s)

    def over(self) -> bool:
        return time.monotonic() - self.started > self.allowed()

    def why(self) -> str:
        """The problem a run stopped at its bound records: the bound, and how it was reached."""
        stretched = self.allowed() - self.timeout_s
        how = (f" (--timeout {self.timeout_s:.0f}s, stretched {stretched:.0f}s for {self.cpu_s:.0f}s of its CPU at "
               f"a load of {self.mean_load():.1f} per CPU)") if stretched >= 1 else ""
        return (f"pytest did not finish within {self.allowed():.0f}s{how} (raise --timeout, or find the hanging "
                "test)")
