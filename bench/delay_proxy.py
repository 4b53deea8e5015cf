"""A forwarding HTTP/1.1 proxy that holds every request for a fixed delay before passing it on: a server in another
region, on loopback. It also measures what the politeness limits promise: requests received, the most in flight at
once, the most that arrived within any one second, and the answers by method and status (the writes a target
accepted, for bench/bench_ci_soak.py).

Used by bench/bench_run.py (in a thread of the bench process). Listens on 127.0.0.1 only; keep-alive both ways,
one upstream connection per client connection, bodies by Content-Length (what the kit and the reference server
send).
"""

from __future__ import annotations

import http.client
import socket
import threading
import time
from bisect import bisect_left
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from urllib.parse import urlsplit

_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade",
        "proxy-authorization", "proxy-authenticate"}


class Stats:
    """What crossed the proxy. Thread-safe; ``reset()`` between runs."""

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

    def max_per_second(self) -> int:
        """The most requests that arrived within any window of one second."""
        t = sorted(self.arrivals)
        return max((i - bisect_left(t, t[i] - 1.0) + 1 for i in range(len(t))), default=0)


class DelayProxy:
    """``with DelayProxy("http://127.0.0.1:8000", delay_s=0.025) as p: p.url`` forwards to the upstream."""

    def __init__(self, upstream: str, delay_s: float) -> None:
        parts = urlsplit(upstream)
        self.upstream_host = parts.hostname or "127.0.0.1"
        self.upstream_port = parts.port or 80
        self.delay_s = delay_s
        self.stats = Stats()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            upstream: http.client.HTTPConnection | None = None

            def setup(self) -> None:
                super().setup()
                # answers go out as one write, but the head of a request can arrive apart from its body: without
                # this, Nagle's algorithm and delayed ACKs would add ~40 ms to some requests on loopback
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
                pass

            def _forward(self) -> None:
                proxy.stats.enter()
                try:
                    length = int(self.headers.get("Content-Length") or 0)
                    body = self.rfile.read(length) if length else None
                    if proxy.delay_s:
                        time.sleep(proxy.delay_s)
                    headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP}
                    for attempt in (1, 2):  # an idle upstream connection may have been closed: reconnect once
                        if self.upstream is None:
                            self.upstream = http.client.HTTPConnection(proxy.upstream_host, proxy.upstream_port,
                                                                       timeout=60)
                        try:
                            t0 = time.monotonic()
                            self.upstream.request(self.command, self.path, body=body, headers=headers)
                            resp = self.upstream.getresponse()
                            data = resp.read()
                            with proxy.stats.lock:
                                proxy.stats.upstream_s += time.monotonic() - t0
                            proxy.stats.answered(self.command, resp.status, self.path)
                            break
                        except (http.client.HTTPException, OSError):
                            self.upstream.close()
                            self.upstream = None
                            if attempt == 2:
                                raise
                    head = [f"HTTP/1.1 {resp.status} {resp.reason}"]
                    head += [f"{k}: {v}" for k, v in resp.getheaders()
                             if k.lower() not in _HOP and k.lower() != "content-length"]
                    head.append(f"Content-Length: {len(data)}")
                    out = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1")
                finally:
                    # counted out before the answer leaves: once the client has it, its next request may arrive
                    # (in another thread) before this one would have been counted out
                    proxy.stats.leave()
                self.wfile.write(out + (data if self.command != "HEAD" else b""))

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = _forward

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> DelayProxy:
        self.thread.start()
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)
