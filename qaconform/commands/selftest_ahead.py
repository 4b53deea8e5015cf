"""The next fault's reference server, started while the current fault's tests run (a rule's batch, one job).

Why: a fault's first run waited for its own server to start (about 0.4 s at load 5, 1.2 s at load 30; ci7's
measures, 2026-11-30) before its fork ran, one fault after another on each job, for every fault of the registry.
The faults of one batch are known in advance, so each one's server can start while the previous fault's fork runs;
its run then finds it ready. Each fault still gets a fresh server of its own with only its fault on, started the same
way: what its tests see is the same, only when the server started differs (seconds earlier, idle until its run).

A server started ahead and never used (the batch ended early) is stopped by :meth:`Ahead.close`; its process also
ends with the self-test's (``--exit-with-parent``).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Generic, Protocol, TypeVar


class Stoppable(Protocol):
    def stop(self) -> None: ...


S = TypeVar("S", bound=Stoppable)


class Ahead(Generic[S]):
    """Starts servers (``start(label)``, which returns a started server or raises) one label ahead, on one thread.

    :meth:`take` gives the server of ``label``: the one started ahead for it, or one started now. The caller stops
    it after its run; :meth:`prepare` starts the next label's while that run goes."""

    def __init__(self, start: Callable[[str], S]) -> None:
        self._start = start
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="selftest-ahead")
        self._next: tuple[str, Future[S]] | None = None

    def prepare(self, label: str | None) -> None:
        """Start ``label``'s server in the background (None: nothing more to start)."""
        self._drop()
        if label is not None:
            self._next = (label, self._pool.submit(self._start, label))

    def take(self, label: str) -> Callable[[], S]:
        """A callable giving ``label``'s started server (raising as ``start`` raised): the one started ahead when it
        was ``label``'s, else one started when called."""
        if self._next is not None and self._next[0] == label:
            future = self._next[1]
            self._next = None
            return future.result
        self._drop()
        return lambda: self._start(label)

    def _drop(self) -> None:
        """Stop a server started ahead that nobody took."""
        if self._next is None:
            return
        future, self._next = self._next[1], None
        try:
            future.result().stop()
        except Exception:  # it failed to start: nothing to stop, and nobody asked for it
            pass

    def close(self) -> None:
        self._drop()
        self._pool.shutdown(wait=True)

    def __enter__(self) -> Ahead[S]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
