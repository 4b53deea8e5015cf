"""What each xdist worker did with CI's wall, printed at the end of the kit's own `pytest -n 2` (ci14, issue 44).

CI's wall is the later worker's last test plus what the two fought over: a worker that finished minutes before the
other (an idle tail) says the units are badly balanced; CPUs busy most of the session say only less work (fewer CPU
seconds) shortens it, and a lower share says the workers waited (rate limits, lag variants, subprocesses asleep) and
the order or the number of workers would. Neither could be read from a CI log before: ``--durations`` gives the
slowest tests, not when or where they ran. The controller (tests/conftest.py) takes each test phase's start and stop
from the worker's report and two samples of /proc/stat (the whole machine's CPUs: on a busy machine they count other
work too, so the line says the load averages beside them).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field


def cpu_jiffies(stat: str | None = None) -> tuple[int, int] | None:
    """(busy, total) jiffies of all CPUs from /proc/stat's first line; None where there is no /proc/stat."""
    if stat is None:
        try:
            with open("/proc/stat", encoding="ascii") as f:
                stat = f.readline()
        except OSError:
            return None
    fields = [int(x) for x in stat.split()[1:]]
    if len(fields) < 4:
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields) - idle, sum(fields)


@dataclass
class Timeline:
    """Each worker's test phases (setup, call, teardown) as (start, stop) in seconds since the epoch."""

    started: float = field(default_factory=time.time)
    cpu_at_start: tuple[int, int] | None = field(default_factory=cpu_jiffies)
    phases: dict[str, list[tuple[float, float]]] = field(default_factory=dict)

    def add(self, worker: str, start: float, stop: float) -> None:
        self.phases.setdefault(worker, []).append((start, stop))

    def lines(self, ended: float | None = None, cpu_now: tuple[int, int] | None = None,
              cpus: int | None = None, load: tuple[float, float, float] | None = None) -> list[str]:
        """One line per worker (busy seconds, when its first test started: the start and collection before it, when
        its last ended, its longest wait between tests) and one of the machine's CPUs over the session; nothing when
        no worker reported a test."""
        if not self.phases:
            return []
        ended = time.time() if ended is None else ended
        wall = max(ended - self.started, 1e-9)
        out = []
        for worker in sorted(self.phases):
            spans = sorted(self.phases[worker])
            busy = sum(stop - start for start, stop in spans)
            gap = max((b[0] - a[1] for a, b in zip(spans, spans[1:], strict=False)), default=0.0)
            last = spans[-1][1] - self.started
            first = spans[0][0] - self.started
            out.append(f"{worker}: busy {busy:.0f} s of {wall:.0f} s, first test at {first:.0f} s, "
                       f"last test ended at {last:.0f} s "
                       f"(idle tail {max(wall - last, 0.0):.0f} s), longest wait between tests {max(gap, 0.0):.0f} s")
        cpu_now = cpu_jiffies() if cpu_now is None else cpu_now
        if self.cpu_at_start and cpu_now and cpu_now[1] > self.cpu_at_start[1]:
            share = (cpu_now[0] - self.cpu_at_start[0]) / (cpu_now[1] - self.cpu_at_start[1])
            cpus = os.cpu_count() if cpus is None else cpus
            load = os.getloadavg() if load is None else load
            out.append(f"CPUs: {share:.0%} busy over the session ({cpus} CPUs, /proc/stat: the whole machine's, "
                       f"so other work on it counts too; load average now {load[0]:.1f} {load[1]:.1f} "
                       f"{load[2]:.1f})")
        return out
