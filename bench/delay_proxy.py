"""A forwarding HTTP/1.1 proxy that holds every request for a fixed delay before passing it on: a server in another
region, on loopback. It also measures what the politeness limits promise: requests received, the most in flight at
once, the most that arrived within any one second, and the answers by method and status (the writes a target
accepted, for bench/bench_ci_soak.py), and the time the upstream took to answer.

Used by bench/bench_run.py and bench/bench_ci_soak.py (in a thread of the bench process) and tests/. Listens on
127.0.0.1 only; keep-alive both ways, one upstream connection per client connection; each request is held ``delay_s``
once it has arrived whole, then passed on; requests on different connections are held at the same time (as round
trips overlap), not one after another. Bodies by Content-Length or chunked (forwarded with their framing); an answer
with neither is read to the upstream's close and passed on with a Content-Length.

Why it moves bytes: a real remote target costs the kit's machine nothing for the network, so the simulation should
cost it as little as it can (on 2 cores its CPU competes with the kit it measures). It reads only the request line,
the status line and the headers that frame a message or end a connection, through a buffered reader (the line
splitting is C), and drops the hop-by-hop headers. What is left is mostly the kernel's: waking the thread for the
request, the delay, the answer, and the loopback sends. ``python bench/bench_delay_proxy.py --workload run`` measures
the CPU per request: about 0.5 ms, where http.server and http.client objects took about 1 ms and an asyncio event
loop with streams 0.8 ms (its loop turns and futures cost more than a thread per connection blocked in the kernel).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from bisect import bisect_left
from collections import Counter
from types import TracebackType
from typing import BinaryIO
from urllib.parse import urlsplit

_HOP = {b"connection", b"keep-alive", b"proxy-connection", b"te", b"trailer", b"upgrade", b"proxy-authorization",
        b"proxy-authenticate"}
"""Hop-by-hop headers, not passed on. Transfer-Encoding is hop-by-hop too, but a chunked body is forwarded as it
came, so its header goes with it."""
_MAX_LINE = 65536
_MAX_HEADERS = 200
_IDLE_S = 600.0
"""A client connection idle this long is closed (the kit's own pool closes idle ones much sooner)."""
_UPSTREAM_S = 60.0
"""The longest the upstream may take to answer, as before."""


class Stats:
    """What crossed the proxy. Thread-safe (read by other threads while the proxy runs); ``reset()`` between runs."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        with self.lock:
            self.arrivals: list[float] = []
            self.in_flight = 0
            self.max_in_flight = 0
            self.answers: Counter[tuple[str, int, bool]] = Counter()
            self.upstream_s = 0.0
            """Summed time the upstream took to answer (request sent to body read): the server's share of a run."""

    def answered(self, method: str, status: int, path: str = "") -> None:
        """One answer passed back: counted by (method, status, a delete action?), so a bench can count the writes a
        target accepted, and how many of them removed what a run created (a path ending in /delete.json)."""
        with self.lock:
            self.answers[(method, status, path.split("?")[0].endswith("/delete.json"))] += 1

    def writes(self, deletes: bool | None = None) -> tuple[int, int]:
        """(sent, accepted): requests other than GET/HEAD/OPTIONS, and those the target answered with a 2xx;
        ``deletes``: only the delete actions (True), only the others (False), or all (None)."""
        with self.lock:
            sent = [(s, n) for (m, s, d), n in self.answers.items()
                    if m not in ("GET", "HEAD", "OPTIONS") and deletes in (None, d)]
        return sum(n for _, n in sent), sum(n for s, n in sent if 200 <= s < 300)

    def enter(self) -> None:
        with self.lock:
            self.arrivals.append(time.monotonic())
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def leave(self) -> None:
        with self.lock:
            self.in_flight -= 1

    @property
    def requests(self) -> int:
        return len(self.arrivals)

    def max_per_second(self, window_s: float = 1.0) -> int:
        """The most requests that arrived within any window of ``window_s`` (one second by default)."""
        t = sorted(self.arrivals)
        return max((i - bisect_left(t, t[i] - window_s) + 1 for i in range(len(t))), default=0)


class _Head:
    """A message's head, read only as far as forwarding needs: its first line, the headers that frame its body or
    end the connection, and the lines to pass on (without the hop-by-hop headers)."""

    __slots__ = ("first", "length", "chunked", "close", "out")

    def __init__(self, rfile: BinaryIO) -> None:
        """Reads the head from ``rfile``; ConnectionError when the connection ends before a whole head."""
        first = rfile.readline(_MAX_LINE)
        if not first.endswith(b"\n"):
            raise ConnectionError("the connection ended before a message")
        self.first = first.rstrip(b"\r\n")
        self.length: int | None = None
        self.chunked = False
        self.close = False
        self.out = [self.first]
        """The lines to pass on; :meth:`encode` joins them."""
        for _ in range(_MAX_HEADERS):
            line = rfile.readline(_MAX_LINE)
            if line in (b"\r\n", b"\n"):
                return
            if not line.endswith(b"\n"):
                raise ConnectionError("the connection ended inside a head")
            name, _, value = line.partition(b":")
            key = name.strip().lower()
            if key == b"content-length":
                self.length = int(value)
            elif key == b"transfer-encoding":
                self.chunked = value.strip().lower().endswith(b"chunked")
            elif key == b"connection":
                self.close = b"close" in value.lower()
            if key not in _HOP:
                self.out.append(line.rstrip(b"\r\n"))
        raise ValueError(f"more than {_MAX_HEADERS} header lines")

    def encode(self, *extra: bytes) -> bytes:
        return b"\r\n".join(self.out + list(extra)) + b"\r\n\r\n"


def _body(rfile: BinaryIO, head: _Head, to_eof: bool) -> bytes:
    """The body after ``head``, raw: by Content-Length, chunked (with its framing and trailers), or, when ``to_eof``
    (an answer with neither), up to the sender's close."""
    if head.chunked:
        parts = []
        while True:  # bounded by the sender: a chunk of size 0 ends the body, a close ends the read
            size_line = rfile.readline(_MAX_LINE)
            if not size_line.endswith(b"\n"):
                raise ConnectionError("the connection ended inside a chunked body")
            parts.append(size_line)
            size = int(size_line.split(b";")[0], 16)
            if size == 0:
                break
            parts.append(_exactly(rfile, size + 2))
        for _ in range(_MAX_HEADERS):  # trailers, then the empty line
            line = rfile.readline(_MAX_LINE)
            parts.append(line)
            if line in (b"\r\n", b"\n", b""):
                break
        return b"".join(parts)
    if head.length is not None:
        return _exactly(rfile, head.length) if head.length else b""
    return rfile.read() if to_eof else b""


def _exactly(rfile: BinaryIO, n: int) -> bytes:
    data = rfile.read(n)
    if len(data) < n:
        raise ConnectionError("the connection ended inside a body")
    return data


class DelayProxy:
    """``with DelayProxy("http://127.0.0.1:8000", delay_s=0.025) as p: p.url`` forwards to the upstream."""

    def __init__(self, upstream: str, delay_s: float) -> None:
        parts = urlsplit(upstream)
        self.upstream_host = parts.hostname or "127.0.0.1"
        self.upstream_port = parts.port or 80
        self.delay_s = delay_s
        self.stats = Stats()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)  # the accepting thread looks at _stopping this often
        self._stopping = threading.Event()
        self._clients: set[socket.socket] = set()
        """Open client connections, shut on exit so that their threads end."""
        self._clients_lock = threading.Lock()
        self.thread = threading.Thread(target=self._accept, daemon=True, name="delay-proxy")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}"

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                client, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return  # the listener was closed
            with self._clients_lock:
                self._clients.add(client)
            threading.Thread(target=self._connection, args=(client,), daemon=True, name="delay-proxy-conn").start()

    def _connection(self, client: socket.socket) -> None:
        """One client connection: its requests in turn, each held, forwarded and answered, on one upstream
        connection (opened again when the upstream closes it)."""
        client.settimeout(_IDLE_S)
        # the answer goes out as one write, but without this Nagle's algorithm and delayed ACKs could hold a write
        # that follows an unacknowledged one (~40 ms on loopback)
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        rfile = client.makefile("rb")
        up: tuple[socket.socket, BinaryIO] | None = None
        stats = self.stats
        try:
            while not self._stopping.is_set():  # one request a turn; ends when the client closes or asks to
                head = _Head(rfile)
                stats.enter()
                try:
                    method, target, version = (head.first.split(b" ", 2) + [b"", b""])[:3]
                    request = head.encode() + _body(rfile, head, to_eof=False)
                    if self.delay_s:
                        time.sleep(self.delay_s)
                    up, answer, data = self._exchange(up, method, request)
                    stats.answered(method.decode("latin-1"), int(answer.first.split(b" ", 2)[1]),
                                   target.decode("latin-1"))
                    closing = head.close or version == b"HTTP/1.0"
                finally:
                    # counted out before the answer leaves: once the client has it, its next request may arrive
                    # (in another thread) before this one would have been counted out
                    stats.leave()
                client.sendall(answer.encode(*([b"Connection: close"] if closing else [])) + data)
                if closing:
                    return
        except (OSError, ValueError, IndexError):
            return  # a client that went away or idled out, a malformed message, an upstream that twice gave no answer
        finally:
            if up is not None:
                up[0].close()
            with self._clients_lock:
                self._clients.discard(client)
            client.close()

    def _exchange(self, up: tuple[socket.socket, BinaryIO] | None, method: bytes,
                  request: bytes) -> tuple[tuple[socket.socket, BinaryIO] | None, _Head, bytes]:
        """Send ``request`` upstream and read its answer: (the connection to keep, or None; the head; the body).
        An idle upstream connection may have been closed: a request that got no answer on it is sent once more,
        on a new one."""
        for attempt in (1, 2):
            if up is None:
                sock = socket.create_connection((self.upstream_host, self.upstream_port), timeout=_UPSTREAM_S)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                up = (sock, sock.makefile("rb"))
            try:
                t0 = time.monotonic()
                up[0].sendall(request)
                for _ in range(_MAX_HEADERS):  # an interim answer (1xx) is not the answer: skipped
                    answer = _Head(up[1])
                    status = int(answer.first.split(b" ", 2)[1])
                    if status >= 200:
                        break
                framed = answer.chunked or answer.length is not None
                no_body = method == b"HEAD" or status in (204, 304)
                body = b"" if no_body else _body(up[1], answer, to_eof=not framed)
                with self.stats.lock:
                    self.stats.upstream_s += time.monotonic() - t0
                if not no_body and not framed:  # read to the close: the client gets a length instead
                    answer.out.append(b"Content-Length: %d" % len(body))
                    answer.close = True
                if answer.close:
                    up[0].close()
                    up = None
                return up, answer, body
            except ConnectionError:
                if up is not None:
                    up[0].close()
                up = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def __enter__(self) -> DelayProxy:
        self.thread.start()
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self._stopping.set()
        self.thread.join(timeout=5)
        self.listener.close()
        with self._clients_lock:
            for client in self._clients:
                with contextlib.suppress(OSError):
                    client.shutdown(socket.SHUT_RDWR)  # its thread's read ends: the thread closes it
