"""Start Locust processes, watch their CPU, and make sure every one of them ends.

Why a module of its own: a load run is several processes (master and workers) that must all stop by
themselves within a known time; here each is started in its own session (so it can be ended as a group,
by its own pid), sampled with psutil once a second (the generator's CPU is the figure that says whether the
load or the generator was the limit), and ended with SIGTERM then SIGKILL if it outlives the deadline.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import psutil

CPU_BOTTLENECK_PCT = 90.0
"""A generator process above this share of one core most of the run was the limit, not the target."""


@dataclass
class LocustProcess:
    name: str
    argv: list[str]
    log_path: Path
    popen: subprocess.Popen[bytes] | None = None
    ps: psutil.Process | None = None
    samples: list[float] = field(default_factory=list)
    sampled_at: list[float] = field(default_factory=list)
    """Wall-clock time (epoch) of each sample, to leave out what comes after the users stopped (see ``cpu``)."""
    _log: IO[bytes] | None = None

    def start(self, env: dict[str, str], cwd: str) -> None:
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in close()
        self.popen = subprocess.Popen(self.argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=self._log,
                                      stderr=subprocess.STDOUT, start_new_session=True)
        try:
            self.ps = psutil.Process(self.popen.pid)
            self.ps.cpu_percent(None)  # first call primes the counter
        except psutil.Error:
            self.ps = None

    def sample(self) -> None:
        if self.ps is None or not self.running():
            return
        try:
            self.samples.append(self.ps.cpu_percent(None))
            self.sampled_at.append(time.time())
        except psutil.Error:
            pass

    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def stop(self, grace_s: float = 5.0) -> None:
        """SIGTERM to this process's own group, then SIGKILL after ``grace_s``; never anything else."""
        if self.popen is None or self.popen.poll() is not None:
            return
        for sig, wait in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(self.popen.pid, sig)
            except ProcessLookupError:
                return
            try:
                self.popen.wait(timeout=wait)
                return
            except subprocess.TimeoutExpired:
                continue

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    @property
    def returncode(self) -> int | None:
        return None if self.popen is None else self.popen.returncode

    def steady(self, until: float | None = None, since: float | None = None) -> list[float]:
        """The samples while the users ran: none taken after ``until`` (epoch seconds: when the users stopped), and
        none before ``since`` (when the test started), each with half a sample's second of slack. After ``until`` a
        process is writing its reports or waiting for the last CSV row (hooks.py sleeps a second for it); counting
        that as the run's CPU showed a generator that was busy all the time as idle ~15 % of it. Before ``since`` a
        process is importing its locustfile or waiting for the workers: a master that loads the contract and the
        profile (~0.4 s of CPU) was counted as the generator's CPU of a 6 s run, ours more than a bare one's.
        Without ``since`` the first two samples are taken for start-up."""
        kept = self.samples
        timed = len(self.sampled_at) == len(self.samples)
        if until is not None and timed:
            kept = [s for s, t in zip(self.samples, self.sampled_at, strict=True) if t <= until + 0.5]
        if since is not None and timed:
            after = [s for s, t in zip(self.samples, self.sampled_at, strict=True)
                     if t >= since + 0.5 and (until is None or t <= until + 0.5)]
            if after:
                return after
        return kept[2:] or kept or self.samples

    def cpu(self, until: float | None = None, since: float | None = None) -> dict[str, float | str | int | None]:
        """Mean and max CPU (% of one core) while the users ran (``steady``)."""
        steady = self.steady(until, since)
        return {
            "name": self.name,
            "pid": self.popen.pid if self.popen else None,
            "mean_cpu_pct": round(sum(steady) / len(steady), 1) if steady else None,
            "max_cpu_pct": round(max(steady), 1) if steady else None,
        }

    def cpu_bound(self, until: float | None = None, since: float | None = None) -> bool:
        steady = self.steady(until, since)
        return bool(steady) and sum(steady) / len(steady) > CPU_BOTTLENECK_PCT

    def log_tail(self, lines: int = 15) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


def watch(procs: list[LocustProcess], main: LocustProcess, deadline: float, tick_s: float = 1.0,
          on_tick: Callable[[], None] | None = None) -> bool:
    """Sample CPU until ``main`` exits and the others follow (they get Locust's quit message), or the deadline.
    ``on_tick`` runs every tick (live totals on the terminal).

    Returns False when something had to be ended by force. Every process is stopped before returning.
    """
    on_time = True
    while main.running() and time.monotonic() < deadline:
        for p in procs:
            p.sample()
        if on_tick is not None:
            on_tick()
        time.sleep(tick_s)
    if main.running():
        on_time = False
    follow = time.monotonic() + 10.0
    while any(p.running() for p in procs) and time.monotonic() < min(follow, deadline + 10.0):
        time.sleep(0.2)
    for p in procs:
        if p.running():
            on_time = False
            p.stop()
        p.close()
    return on_time
