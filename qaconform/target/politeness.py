"""Politeness on a shared target: the profile's ``[safety] max_concurrency`` and ``max_rps``, kept by every request.

Staging servers are shared, so a run must never send more at once, or faster, than the profile allows, however
many pytest-xdist workers it uses. The budget is split between the processes of a run (each worker learns how
many there are from ``PYTEST_XDIST_WORKER_COUNT``) instead of coordinated at run time: a share cannot be exceeded
by one process, so the sum cannot be exceeded by all of them, and nothing is shared between processes that could
be left locked by a crashed worker. The price is that a share is rounded down to whole requests per second, and
that a run may not have more workers than the limits allow (``max_jobs``).

The rate is kept as "at most k requests in any window of 1 s" on the sending side, with a small margin for
requests that travel at different speeds (their arrival at the server may be closer together than their sending).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

WINDOW_S = 1.0
"""The window max_rps is judged over."""
MARGIN_S = 0.05
"""Added to the window on the sending side: two requests sent 1 s apart may arrive 0.95 s apart."""


@dataclass(frozen=True)
class Limits:
    """What the profile allows, for all processes of a run together (None: no limit)."""

    max_concurrency: int | None = None
    max_rps: float | None = None

    @property
    def limited(self) -> bool:
        return self.max_concurrency is not None or self.max_rps is not None

    def max_jobs(self) -> int | None:
        """The most worker processes the limits can be shared between (each needs at least 1 at once, 1 per s)."""
        caps = [c for c in (self.max_concurrency, None if self.max_rps is None else max(1, math.floor(self.max_rps)))
                if c is not None]
        return min(caps) if caps else None

    def share(self, processes: int) -> Limits:
        """One process's part when ``processes`` send at the same time; raises ValueError when there are more
        processes than the limits can be shared between."""
        cap = self.max_jobs()
        if processes > 1 and cap is not None and processes > cap:
            raise ValueError(f"{processes} workers cannot share {self.describe()}: use at most {cap} workers")
        n = max(1, processes)
        return Limits(None if self.max_concurrency is None else max(1, self.max_concurrency // n),
                      None if self.max_rps is None else self.max_rps / n)

    def describe(self) -> str:
        parts = []
        if self.max_concurrency is not None:
            parts.append(f"at most {self.max_concurrency} request(s) at once")
        if self.max_rps is not None:
            parts.append(f"at most {self.max_rps:g} request(s) per second")
        return " and ".join(parts) or "no limits"

    def as_dict(self) -> dict[str, float | int | None]:
        return {"max_concurrency": self.max_concurrency, "max_rps": self.max_rps}


def processes_of_run() -> int:
    """How many processes of this run send requests at the same time (xdist sets this in each worker)."""
    raw = os.environ.get("PYTEST_XDIST_WORKER_COUNT", "")
    return int(raw) if raw.isdecimal() and int(raw) > 0 else 1


class Limiter:
    """Keeps one process within its share: a semaphore for concurrency, a sliding window of send times for rate."""

    def __init__(self, share: Limits) -> None:
        self.share = share
        self._slots = threading.BoundedSemaphore(share.max_concurrency) if share.max_concurrency else None
        rps = share.max_rps
        if rps is None:
            self._k, self._window = 0, 0.0
        elif rps >= 1:
            self._k, self._window = math.floor(rps), WINDOW_S + MARGIN_S
        else:  # less than one a second: one per 1/rps seconds
            self._k, self._window = 1, 1.0 / rps + MARGIN_S
        self._sent: deque[float] = deque()
        self._lock = threading.Lock()

    def _wait_for_rate(self) -> None:
        if not self._k:
            return
        while True:
            with self._lock:
                now = time.monotonic()
                while self._sent and now - self._sent[0] >= self._window:
                    self._sent.popleft()
                if len(self._sent) < self._k:
                    self._sent.append(now)
                    return
                pause = self._window - (now - self._sent[0])
            time.sleep(max(pause, 0.001))

    @contextmanager
    def slot(self) -> Iterator[float]:
        """Hold a place for one request; yields the seconds spent waiting for it (not the target's time)."""
        began = time.monotonic()
        if self._slots is not None:
            self._slots.acquire()
        try:
            self._wait_for_rate()
            yield time.monotonic() - began
        finally:
            if self._slots is not None:
                self._slots.release()


_LIMITERS: dict[tuple[Limits, int], Limiter] = {}
_LIMITERS_LOCK = threading.Lock()


def limiter_for(limits: Limits) -> Limiter | None:
    """The process-wide limiter of these limits (every client of the process shares it), or None without limits."""
    if not limits.limited:
        return None
    n = processes_of_run()
    with _LIMITERS_LOCK:
        key = (limits, n)
        if key not in _LIMITERS:
            _LIMITERS[key] = Limiter(limits.share(n))
        return _LIMITERS[key]
