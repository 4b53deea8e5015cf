"""The connection-level guards under :class:`~qaconform.target.client.ApiClient`: a per-request watchdog that shuts
the socket at the deadline (socket timeouts bound each read, not the whole answer), the pool classes and adapter that
hand it the connection in use, and the tests that tell "not HTTP" from "connection dropped" in an exception chain.

Apart from the client because they work on urllib3's connections, below the level of requests the client speaks.
"""

from __future__ import annotations

import heapq
import http.client
import itertools
import os
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from requests.adapters import HTTPAdapter
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool


@dataclass
class Cutoff:
    """One request's watchdog. Socket timeouts bound each read, not the whole answer: a target that sends one byte
    a second never trips them. At the deadline the watchdog shuts the connection's socket, so the read fails."""

    conn: Any = None
    fired: threading.Event = field(default_factory=threading.Event)
    reused: bool = False
    """The request went out on a kept-alive connection (one a server may have closed as it was sent)."""

    def cut(self) -> None:
        self.fired.set()
        sock = getattr(self.conn, "sock", None)
        if sock is not None:
            try:
                socket.socket.shutdown(sock, socket.SHUT_RDWR)  # the plain socket's shutdown, also under TLS
            except OSError:
                pass


class Watchdog:
    """One thread that fires every armed :class:`Cutoff` at its deadline.

    A ``threading.Timer`` per request started and joined a thread for each of the ~2,700 requests of a run (about
    1 ms of CPU apiece, most of it the thread's start); one thread with a heap of deadlines does the same work for
    a run. The thread starts at the first :meth:`arm` (after a fork too: it belongs to the process that started it)
    and sleeps until the earliest deadline or the next arm.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int, Cutoff]] = []
        self._live: set[int] = set()
        self._seq = itertools.count()
        self._thread: threading.Thread | None = None
        self._pid = 0

    def arm(self, seconds: float, cutoff: Cutoff) -> int:
        """Fire ``cutoff`` after ``seconds`` unless :meth:`disarm` is called first; returns the handle to disarm."""
        with self._cond:
            if self._thread is None or self._pid != os.getpid() or not self._thread.is_alive():
                self._heap.clear()
                self._live.clear()
                self._pid = os.getpid()
                self._thread = threading.Thread(target=self._loop, name="qaconform-watchdog", daemon=True)
                self._thread.start()
            handle = next(self._seq)
            heapq.heappush(self._heap, (time.monotonic() + seconds, handle, cutoff))
            self._live.add(handle)
            self._cond.notify()
            return handle

    def disarm(self, handle: int) -> None:
        with self._cond:
            self._live.discard(handle)

    def _loop(self) -> None:
        while True:
            with self._cond:
                while self._heap and self._heap[0][1] not in self._live:
                    heapq.heappop(self._heap)  # disarmed: its request answered in time
                if not self._heap:
                    self._cond.wait()
                    continue
                due, handle, cutoff = self._heap[0]
                wait = due - time.monotonic()
                if wait > 0:
                    self._cond.wait(wait)
                    continue
                heapq.heappop(self._heap)
                self._live.discard(handle)
            cutoff.cut()  # outside the lock: shutting a socket may take a moment


WATCHDOG = Watchdog()


class _Watch(threading.local):
    cutoff: Cutoff | None = None


WATCH = _Watch()


class _WatchedPool(HTTPConnectionPool):
    def _get_conn(self, timeout: float | None = None) -> Any:
        conn = super()._get_conn(timeout)
        if WATCH.cutoff is not None:
            WATCH.cutoff.conn = conn
            WATCH.cutoff.reused = getattr(conn, "sock", None) is not None
        return conn


class _WatchedHTTPSPool(HTTPSConnectionPool):
    def _get_conn(self, timeout: float | None = None) -> Any:
        conn = super()._get_conn(timeout)
        if WATCH.cutoff is not None:
            WATCH.cutoff.conn = conn
            WATCH.cutoff.reused = getattr(conn, "sock", None) is not None
        return conn


# urllib3 names the pool class in its messages; keep the names users know.
_WatchedPool.__name__ = "HTTPConnectionPool"
_WatchedHTTPSPool.__name__ = "HTTPSConnectionPool"


class DeadlineAdapter(HTTPAdapter):
    """Hands the connection in use to the current :class:`Cutoff`."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _WatchedPool, "https": _WatchedHTTPSPool}


def not_http(exc: BaseException) -> bool:
    """Whether a connection error is really an answer that is not valid HTTP (too many headers, a bad status
    line): the target answered, so it is the target's fault, not an unreachable target."""
    chain: list[BaseException] = [exc]
    for e in chain:
        if isinstance(e, http.client.HTTPException) and not isinstance(e, ConnectionError):
            return True
        if len(chain) < 16:
            chain.extend(a for a in e.args if isinstance(a, BaseException))
            chain.extend(c for c in (e.__cause__, e.__context__) if c is not None)
    return False


def dropped(exc: BaseException) -> bool:
    """Whether a read failed because the target reset or aborted the connection (an overloaded or dying target):
    the kit got no answer to judge, so the test is blocked, never failed."""
    chain: list[BaseException] = [exc]
    for e in chain:
        if isinstance(e, ConnectionResetError | ConnectionAbortedError | BrokenPipeError):
            return True
        if len(chain) < 16:
            chain.extend(a for a in e.args if isinstance(a, BaseException))
            chain.extend(c for c in (e.__cause__, e.__context__) if c is not None)
    return False
