"""The next fault's reference server, started while the current fault's tests run (a rule's batch, one job), and
the first server of the next rule's batch while a job runs its batch's last fault (ci22).

Why: a fault's first run waited for its own server to start (about 0.4 s at load 5, 1.2 s at load 30; ci7's
measures, 2026-11-30) before its fork ran, one fault after another on each job, for every fault of the registry.
The faults of one batch are known in advance, so each one's server can start while the previous fault's fork runs;
its run then finds it ready. The batches of the whole self-test are known in advance too (``selftest_batch.by_rule``:
305 for 1,450 faults), and each one's first fault still started its server cold (ci22, 2026-12-01: 40 faults of the
head start, each caught by its one catcher, each the first of its batch, waited 0.23 s median for its server at load
12, a third of its run): one :class:`Ahead` shared by the self-test's jobs (``batches``) starts, while a job runs its
batch's last fault, the server of the first fault of the next batch no job has begun. Each fault still gets a fresh
server of its own with only its fault on, started the same way: what its tests see is the same, only when the server
started differs (seconds earlier, idle until its run).

A server started ahead and never used (a batch ended early) is stopped by :meth:`Ahead.close`; its process also
ends with the self-test's (``--exit-with-parent``).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Generic, Protocol, TypeVar


class Stoppable(Protocol):
    def stop(self) -> None: ...


S = TypeVar("S", bound=Stoppable)


class Ahead(Generic[S]):
    """Starts servers (``start(label)``, which returns a started server or raises) ahead, on ``starters`` threads.

    :meth:`take` gives the server of ``label``: the one started ahead for it, or one started now. The caller stops
    it after its run; :meth:`prepare` starts the next label's while that run goes (None: the batch's last fault, so
    the first label of the next of ``batches`` that nobody has taken or started yet). Safe to share between jobs."""

    def __init__(self, start: Callable[[str], S], batches: Sequence[Sequence[str]] = (), starters: int = 1) -> None:
        self._start = start
        self._pool = ThreadPoolExecutor(max_workers=starters, thread_name_prefix="selftest-ahead")
        self._lock = threading.Lock()
        self._ahead: dict[str, Future[S]] = {}
        """Started ahead, not taken yet."""
        self._taken: set[str] = set()
        self._heads: deque[str] = deque(b[0] for b in batches if b)
        """The first label of each batch, in the order the jobs take them; one that was taken or started is dropped
        when met."""

    def prepare(self, label: str | None) -> None:
        """Start ``label``'s server in the background; None: the next batch's first one (nothing without
        ``batches``)."""
        with self._lock:
            if label is None:
                while self._heads and (self._heads[0] in self._taken or self._heads[0] in self._ahead):
                    self._heads.popleft()
                label = self._heads.popleft() if self._heads else None
            if label is not None and label not in self._taken and label not in self._ahead:
                self._ahead[label] = self._pool.submit(self._start, label)

    def take(self, label: str) -> Callable[[], S]:
        """A callable giving ``label``'s started server (raising as ``start`` raised): the one started ahead when there
        is one, else one started when called. Each label's server is given once."""
        with self._lock:
            self._taken.add(label)
            future = self._ahead.pop(label, None)
        if future is not None:
            return future.result
        return lambda: self._start(label)

    def close(self) -> None:
        """Stop every server started ahead that nobody took."""
        with self._lock:
            left, self._ahead = list(self._ahead.values()), {}
        for future in left:
            try:
                future.result().stop()
            except Exception:  # noqa: BLE001, S112 - it failed to start: nothing to stop, and nobody asked for it
                continue
        self._pool.shutdown(wait=True)

    def __enter__(self) -> Ahead[S]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
