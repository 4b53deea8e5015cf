"""Live totals of a running load test: what `qaconform load` prints every few seconds instead of silence.

Locust runs in its own processes with ``--csv-full-history``; its history file gets a row for the aggregate of all
requests every second (loadtests/qaload/hooks.py makes Locust flush it every 2 s instead of 10). This module reads
only the newest "Aggregated" row from the end of that file, so a long soak test does not re-read its history.

The time a line shows is Locust's own (the row's Timestamp less the first row's), not the time since the processes
started: on a busy machine Locust takes seconds to start, and a wall clock then read "20s of 20s" while the test was
at 15 s, and again at its end (user13: load 36, two workers). A row before the first request finished says so
instead of "0 requests", and the rows after the test's time say the users are stopping.
"""

from __future__ import annotations

import csv
import io
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

TAIL_BYTES = 32 * 1024
DEFAULT_EVERY_S = 5.0


@dataclass(frozen=True)
class Totals:
    users: int
    requests: int
    failures: int
    rps_now: float
    p95_ms: float | None
    timestamp: float | None = None
    """The row's Timestamp (Unix seconds): Locust's clock."""


def _number(raw: str | None) -> float | None:
    try:
        return float(raw) if raw not in (None, "", "N/A") else None
    except ValueError:
        return None


def latest_totals(history_csv: Path) -> Totals | None:
    """The newest aggregate row of Locust's stats history, or None while there is none yet."""
    try:
        with history_csv.open("rb") as f:
            header = f.readline().decode("utf-8", errors="replace")
            size = f.seek(0, io.SEEK_END)
            f.seek(max(len(header), size - TAIL_BYTES))
            tail = f.read().decode("utf-8", errors="replace")
    except OSError:
        return None
    lines = tail.splitlines()[1:] if len(tail) >= TAIL_BYTES else tail.splitlines()  # first may be cut
    rows = [r for r in csv.DictReader([header.strip(), *lines]) if r.get("Name") == "Aggregated"]
    if not rows:
        return None
    r = rows[-1]
    requests, failures = _number(r.get("Total Request Count")), _number(r.get("Total Failure Count"))
    if requests is None:
        return None
    return Totals(users=int(_number(r.get("User Count")) or 0), requests=int(requests), failures=int(failures or 0),
                  rps_now=_number(r.get("Requests/s")) or 0.0, p95_ms=_number(r.get("95%")),
                  timestamp=_number(r.get("Timestamp")))


def first_timestamp(history_csv: Path) -> float | None:
    """The Timestamp of the history's first row: when Locust's test started (its history begins with it)."""
    try:
        with history_csv.open("rb") as f:
            head = [f.readline().decode("utf-8", errors="replace") for _ in range(2)]
    except OSError:
        return None
    rows = list(csv.DictReader([line.strip() for line in head if line.strip()]))
    return _number(rows[0].get("Timestamp")) if rows else None


class LiveTotals:
    """Call :meth:`tick` often (the process watcher does, every second); it prints at most every ``every_s``."""

    def __init__(self, history_csv: Path, duration_s: float, every_s: float = DEFAULT_EVERY_S,
                 console: Console | None = None) -> None:
        self.history_csv = history_csv
        self.duration_s = duration_s
        self.every_s = every_s
        self.console = console or Console(highlight=False, soft_wrap=True)
        self.started = time.monotonic()
        self._last = self.started
        self._shown: Totals | None = None
        self._first: float | None = None
        """The first row's Timestamp, read once."""

    def tick(self) -> None:
        now = time.monotonic()
        if now - self._last < self.every_s:
            return
        self._last = now
        line = self.line(now - self.started)
        if line:
            self.console.print(line, markup=False)

    def line(self, elapsed: float) -> str | None:
        """The line for now (``elapsed``: seconds since the processes started, shown only while Locust has written
        no row), or None when Locust has written nothing new."""
        t = latest_totals(self.history_csv)
        if t is None:
            # qa20: not "5s of 15s": the next line counts from Locust's first row and said "2s of 15s"
            return f"  starting Locust ({elapsed:.0f}s), no request finished yet; the {self.duration_s:.0f}s of " \
                "load count from its start"
        if t == self._shown:
            return None  # no news: Locust has not flushed since the last line
        self._shown = t
        if self._first is None:
            self._first = first_timestamp(self.history_csv)
        ran = elapsed if t.timestamp is None or self._first is None else t.timestamp - self._first
        if ran >= self.duration_s:
            at = f"{self.duration_s:.0f}s of {self.duration_s:.0f}s, " + (
                "users stopping" if t.users else "users stopped")
        else:
            at = f"{ran:.0f}s of {self.duration_s:.0f}s"
        if t.requests == 0:
            return f"  {at}: {t.users} users started, no request finished yet"
        p95 = "-" if t.p95_ms is None else f"{t.p95_ms:.0f}"
        return (f"  {at}: {t.requests} requests, {t.failures} failures, {t.rps_now:.1f} req/s now, "
                f"p95 {p95} ms now, {t.users} users")
