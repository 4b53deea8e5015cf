"""The connection-level guards under :class:`~qaconform.target.client.ApiClient`: a per-request watchdog that shuts
the socket at the deadline (socket timeouts bound each read, not the whole answer), the pool classes and adapter that
hand it the connection in use, the client's connections themselves (``Transport``, urllib3's pool manager), and the
tests that tell "not HTTP" from "connection dropped" in an exception chain.

Apart from the client because they work on urllib3's connections, below the requests the client makes.
"""

from __future__ import annotations

import email.utils
import heapq
import http.client
import http.cookies
import itertools
import os
import socket
import threading
import time
import warnings
from dataclasses import dataclass, field
from typing import Any

import certifi
import urllib3
import urllib3.exceptions
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
    """A pool that tells the request's watchdog which connection it took, and whether it was kept alive (the HTTPS
    pool below inherits it: one definition for both schemes)."""

    def _get_conn(self, timeout: float | None = None) -> Any:
        conn = super()._get_conn(timeout)
        if WATCH.cutoff is not None:
            WATCH.cutoff.conn = conn
            WATCH.cutoff.reused = getattr(conn, "sock", None) is not None
        return conn


class _WatchedHTTPSPool(_WatchedPool, HTTPSConnectionPool):
    pass


# urllib3 names the pool class in its messages; keep the names users know.
_WatchedPool.__name__ = "HTTPConnectionPool"
_WatchedHTTPSPool.__name__ = "HTTPSConnectionPool"


DEFAULT_HEADERS = {"Accept": "application/json", "User-Agent": "qaconform", "Accept-Encoding": "gzip, deflate",
                   "Connection": "keep-alive"}
"""Sent with every request unless the request names the header (None: left out)."""


class Transport:
    """A client's keep-alive connections to its target: urllib3's pool manager with the watched pools.

    What a requests ``Session`` did for the client, without its preparation of every request (merged settings,
    hooks, a cookie jar of mock requests): measured against the reference server, 1.6 to 1.9 ms of CPU a request
    through requests and 0.55 ms for the same urllib3 call, about 3 s of a run's 2,800 requests on a machine whose
    cores the workers share. ``auth`` (an object with ``header()``) is applied last, over any Authorization the
    request names, as requests did. Cookies the target sets are kept (name and value; the client talks to one
    origin and never follows a redirect to another) and sent back, as a session keeps them; an expired one is
    dropped.
    """

    def __init__(self, verify_tls: bool) -> None:
        self.auth: Any = None
        self.headers: dict[str, str] = dict(DEFAULT_HEADERS)
        self.cookies: dict[str, str] = {}
        tls: dict[str, Any] = {"cert_reqs": "CERT_REQUIRED", "ca_certs": certifi.where()} if verify_tls else {
            "cert_reqs": "CERT_NONE"}
        if not verify_tls:
            # The profile chose it (verify_tls = false): urllib3's warning on every request would bury a run's own
            # output under hundreds of lines (CI's log of a self-signed staging site showed nothing else).
            warnings.filterwarnings("ignore", category=urllib3.exceptions.InsecureRequestWarning)
        self._pools = urllib3.PoolManager(num_pools=10, maxsize=10, block=False, **tls)
        self._pools.pool_classes_by_scheme = {"http": _WatchedPool, "https": _WatchedHTTPSPool}

    def send(self, method: str, url: str, headers: dict[str, str | None], body: bytes | None, connect_s: float,
             read_s: float) -> urllib3.BaseHTTPResponse:
        """One request, its answer's body left unread (``read1`` it, then :meth:`done`). Raises urllib3's errors
        (and OSError) as they are: no retries, no redirects, no decoding."""
        sent = self._headers(headers)
        if self.auth is not None:
            sent["Authorization"] = self.auth.header()
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in tuple(self.cookies.items()))  # threads share it
        resp = self._pools.urlopen(method, url, body=body, headers=sent, redirect=False, retries=False,
                                   assert_same_host=False, preload_content=False, decode_content=False,
                                   timeout=urllib3.Timeout(connect=connect_s, read=read_s))
        self._keep_cookies(resp.headers.getlist("set-cookie"))
        return resp

    def _headers(self, given: dict[str, str | None]) -> dict[str, str]:
        """The defaults, then the request's (case-insensitively: one ``Accept``, the request's)."""
        lower = {k.lower() for k in given}
        out = {k: v for k, v in self.headers.items() if k.lower() not in lower}
        out.update({k: v for k, v in given.items() if v is not None})
        return out

    def _keep_cookies(self, lines: list[str]) -> None:
        for line in lines:
            jar = http.cookies.SimpleCookie()
            try:
                jar.load(line)
            except http.cookies.CookieError:
                continue
            for name, morsel in jar.items():
                if morsel["max-age"].strip() in ("0", "-1") or _expired(morsel["expires"]):
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.coded_value

    @staticmethod
    def done(resp: urllib3.BaseHTTPResponse, whole: bool) -> None:
        """Hand the connection back to the pool when the body was read to its end, else close it (a half-read
        answer would be read by the next request)."""
        if not whole:
            resp.close()
        resp.release_conn()

    def close(self) -> None:
        """Close every idle connection (the next request opens a new one)."""
        self._pools.clear()


def _expired(expires: str) -> bool:
    if not expires:
        return False
    try:
        return email.utils.parsedate_to_datetime(expires).timestamp() < time.time()
    except (TypeError, ValueError, IndexError, OverflowError):
        return False


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


_PLAIN_HTTP = ("WRONG_VERSION_NUMBER", "wrong version number", "record layer failure", "http request",
               "packet length too long")
"""What OpenSSL says when the other end answered a TLS hello in plain HTTP (1.1 and 3.x wordings)."""


def tls_hint(exc: BaseException) -> str:
    """What to change after a failed TLS handshake. A base_url with https:// on a port that serves plain HTTP fails
    with "wrong version number": verify_tls = false (the hint for a self-signed certificate) changes nothing
    there, so a user who followed it only met the same message again."""
    text = str(exc)
    if any(marker in text for marker in _PLAIN_HTTP):
        return "the server answers plain HTTP on this port: write base_url with http://, not https://"
    return "for a self-signed staging certificate set verify_tls = false in the profile"
