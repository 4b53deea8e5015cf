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

import fcntl
import json
import math
import os
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

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


PACE_DROP = 0.5
"""A hold-back halves the pace of its lane (of what that lane sent in the last second)."""
PACE_FLOOR_RPS = 1.0
"""The slowest pace a lane is lowered to: one request a second."""
PACE_RECOVER_RPS_PER_S = 1.0
"""How fast a lowered pace comes back while the target holds nothing back: one request a second more each second
(from 10/s to 20/s in 10 s), so that a run held back once early does not crawl to its end."""
PACE_FREE_RPS = 1000.0
"""A pace recovered this far is no pace at all (the lane is free again)."""


@dataclass
class _Lane:
    """One lane of the target's pace: an account (or all of them) as this process sends to it."""

    not_before: float = 0.0
    rps: float | None = None  # None: not lowered
    lowered_at: float = 0.0
    sent: deque[float] | None = None

    def rate(self, now: float) -> float | None:
        if self.rps is None:
            return None
        grown = self.rps + PACE_RECOVER_RPS_PER_S * max(0.0, now - self.lowered_at)
        if grown >= PACE_FREE_RPS:
            self.rps = None
            return None
        return grown

    def recent(self, now: float) -> int:
        """Requests of this lane sent in the last second."""
        q = self.sent if self.sent is not None else deque()
        while q and now - q[0] >= WINDOW_S + MARGIN_S:
            q.popleft()
        return len(q)


class Pace:
    """The target's own pace, learnt from its hold-backs (qaconform.target.holdback), per account and overall.

    The profile's limits (:class:`Limiter`) are what the QA lead allows; a gateway's limit is found only when it
    answers 429. Then the account that was held back waits as told (not only the request that met it: its other
    requests would meet the same 429) and its pace is halved, coming back slowly while nothing is held back. A 503
    with Retry-After says the whole server is busy: it holds and slows every account (the overall lane).

    The holds are shared between the processes of a run when :meth:`share_through` names a file (the plugin does on
    every xdist worker): a gateway's "wait 1 s" is for the account, not for the worker that heard it. The file is
    replaced whole under an exclusive ``flock`` and read again only when it changed (one ``stat`` per request). The
    pace itself stays each process's own, learnt from its own hold-backs: each worker sends a share of the traffic.
    """

    def __init__(self) -> None:
        self._lanes: dict[tuple[str, str | None], _Lane] = {}
        self._lock = threading.Lock()
        self._shared: Path | None = None
        self._seen: int | None = None  # mtime_ns of the shared file when last read
        self.was_held = False
        """Whether the target has held back this process, or another of the run (their holds shared): a target that
        rate-limits. Requests a process sent together (qaconform.target.fanout) then go one after another: against
        such a target asking more at once only meets more 429s (a CI build against a 20-requests-a-second gateway
        took 98 s instead of 77 s, 86 hold-backs instead of 47)."""

    def share_through(self, path: Path | None) -> Path | None:
        """Share holds with the other processes of the run through ``path`` (None: this process keeps its own);
        returns the path shared through until now, for a caller that shares differently for a while (a test)."""
        with self._lock:
            before, self._shared, self._seen = self._shared, path, None
        return before

    def _pull(self, now: float) -> None:
        """Holds other processes published since the last look (under ``self._lock``)."""
        path = self._shared
        if path is None:
            return
        try:
            stamp = path.stat().st_mtime_ns
            if stamp == self._seen:
                return
            holds = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        self._seen = stamp
        offset = now - time.time()
        for key, until in holds.items() if isinstance(holds, dict) else ():
            origin, _, account = str(key).partition("\t")
            if isinstance(until, int | float):
                self.was_held = True
                lane = self._lane((origin, None if account == "*" else account))
                lane.not_before = max(lane.not_before, until + offset)

    def _publish(self, origin: str, account: str | None, until_wall: float) -> None:
        """Tell the other processes: this lane is held until ``until_wall`` (epoch seconds)."""
        path = self._shared
        if path is None:
            return
        key = f"{origin}\t{'*' if account is None else account}"
        try:
            with open(path.with_suffix(".lock"), "a") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                try:
                    holds = json.loads(path.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    holds = {}
                wall = time.time()
                holds = {k: v for k, v in holds.items() if isinstance(v, int | float) and v > wall}  # bounded
                holds[key] = max(float(holds.get(key, 0.0)), until_wall)
                tmp = path.with_suffix(".tmp")
                tmp.write_text(json.dumps(holds), encoding="utf-8")
                tmp.replace(path)
        except OSError:
            return  # sharing is a courtesy: this process still keeps its own hold

    def _lane(self, key: tuple[str, str | None]) -> _Lane:
        lane = self._lanes.get(key)
        if lane is None:
            lane = self._lanes[key] = _Lane(sent=deque())
        return lane

    def wait(self, origin: str, account: str, bound: float = 600.0) -> float:
        """Wait until this account may send (its lane's and the overall lane's hold and pace); the seconds waited.
        ``bound``: the longest wait (every loop is bounded)."""
        began = time.monotonic()
        while True:
            with self._lock:
                now = time.monotonic()
                self._pull(now)
                mine, everyone = self._lane((origin, account)), self._lane((origin, None))
                ready = now
                for lane in (mine, everyone):
                    ready = max(ready, lane.not_before)
                    rate = lane.rate(now)
                    if rate is not None and lane.recent(now) >= max(1, math.floor(rate)):
                        assert lane.sent is not None  # at most floor(rate) in any second, as the Limiter keeps
                        ready = max(ready, lane.sent[0] + WINDOW_S + MARGIN_S)
                if ready <= now or now - began >= bound:
                    for lane in (mine, everyone):
                        assert lane.sent is not None
                        lane.sent.append(now)
                        lane.recent(now)  # keep the deque to the last second
                    return now - began
                pause = min(ready - now, bound - (now - began))
            time.sleep(max(pause, 0.001))

    def held(self, origin: str, account: str | None, wait_s: float) -> None:
        """The target held ``account`` back (None: everyone, a 503) for ``wait_s``: hold its lane that long and halve
        its pace."""
        with self._lock:
            self.was_held = True
            now = time.monotonic()
            lane = self._lane((origin, account))
            lane.not_before = max(lane.not_before, now + wait_s)
            current = lane.rate(now)
            seen = float(lane.recent(now))
            base = min(current, seen) if current is not None and seen else (current or seen or PACE_FLOOR_RPS)
            lane.rps = max(PACE_FLOOR_RPS, base * PACE_DROP)
            lane.lowered_at = now + wait_s
        if wait_s > 0:
            self._publish(origin, account, time.time() + wait_s)


PACE = Pace()
"""The process's pace: every ApiClient of the process shares it."""
