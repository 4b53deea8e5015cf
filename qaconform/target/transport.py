"""The connection-level guards under :class:`~qaconform.target.client.ApiClient`: a per-request watchdog that shuts
the socket at the deadline (socket timeouts bound each read, not the whole answer), the pool classes and adapter that
hand it the connection in use, and the tests that tell "not HTTP" from "connection dropped" in an exception chain.

Apart from the client because they work on urllib3's connections, below the level of requests the client speaks.
"""

from __future__ import annotations

import http.client
import socket
import threading
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

    def cut(self) -> None:
        self.fired.set()
        sock = getattr(self.conn, "sock", None)
        if sock is not None:
            try:
                socket.socket.shutdown(sock, socket.SHUT_RDWR)  # the plain socket's shutdown, also under TLS
            except OSError:
                pass


class _Watch(threading.local):
    cutoff: Cutoff | None = None


WATCH = _Watch()


class _WatchedPool(HTTPConnectionPool):
    def _get_conn(self, timeout: float | None = None) -> Any:
        conn = super()._get_conn(timeout)
        if WATCH.cutoff is not None:
            WATCH.cutoff.conn = conn
        return conn


class _WatchedHTTPSPool(HTTPSConnectionPool):
    def _get_conn(self, timeout: float | None = None) -> Any:
        conn = super()._get_conn(timeout)
        if WATCH.cutoff is not None:
            WATCH.cutoff.conn = conn
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
