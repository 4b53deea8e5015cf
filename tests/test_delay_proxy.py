"""bench/delay_proxy.py forwards what the kit and the reference server exchange, unchanged, and holds every request.

The benches' figures rest on it (bench/bench_run.py: a target far away; bench/bench_ci_soak.py: the writes a target
accepted; tests/test_parallel_run.py: the politeness limits), so its forwarding is checked here against a small
upstream that answers in each framing: by length, chunked, without a body, and closing its connection. Every server
listens on 127.0.0.1. The delay is checked as a lower bound only (speed is measured in bench/).
"""

from __future__ import annotations

import http.client
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from delay_proxy import DelayProxy


class _Upstream(BaseHTTPRequestHandler):
    """Answers by path: /chunked (a chunked body), /empty (204), /close (then closes), anything else echoes the method,
    path and body by Content-Length. Reads a request body by Content-Length or chunked."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass

    def _body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            parts = []
            for _ in range(100):
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()  # no trailers: the empty line
                    break
                parts.append(self.rfile.read(size + 2)[:size])
            return b"".join(parts)
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def _answer(self) -> None:
        body = self._body()
        if self.path == "/chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.write(b"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
            return
        if self.path == "/empty":
            self.send_response(204)
            self.end_headers()
            return
        echo = f"{self.command} {self.path} {body.decode()} hop={self.headers.get('Keep-Alive')}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(echo)))
        if self.path == "/close":
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(echo)

    do_GET = do_POST = do_PUT = do_HEAD = _answer


@pytest.fixture
def proxy() -> Iterator[DelayProxy]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Upstream)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        with DelayProxy(f"http://127.0.0.1:{server.server_address[1]}", 0.05) as p:
            yield p
    finally:
        server.shutdown()
        server.server_close()


def _connect(p: DelayProxy) -> http.client.HTTPConnection:
    host, port = p.url.removeprefix("http://").split(":")
    return http.client.HTTPConnection(host, int(port), timeout=10)


def _get(conn: http.client.HTTPConnection, method: str, path: str, body: bytes | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, bytes, http.client.HTTPResponse]:
    conn.request(method, path, body=body, headers=headers or {})
    resp = conn.getresponse()
    return resp.status, resp.read(), resp


def test_every_request_is_held_and_counted_by_method_status_and_delete(proxy: DelayProxy) -> None:
    conn = _connect(proxy)
    began = time.monotonic()
    assert _get(conn, "GET", "/a?x=1")[:2] == (200, b"GET /a?x=1  hop=None")
    assert time.monotonic() - began >= 0.05
    assert _get(conn, "POST", "/n/delete.json", b"id=1")[:2] == (200, b"POST /n/delete.json id=1 hop=None")
    assert _get(conn, "PUT", "/n", b"x", {"Keep-Alive": "timeout=5"})[:2] == (200, b"PUT /n x hop=None")
    conn.close()
    stats = proxy.stats
    assert stats.requests == 3 and stats.max_in_flight == 1 and stats.in_flight == 0
    assert stats.answers == {("GET", 200, False): 1, ("POST", 200, True): 1, ("PUT", 200, False): 1}
    assert stats.writes() == (2, 2) and stats.writes(deletes=True) == (1, 1)
    assert stats.upstream_s > 0


def test_requests_on_different_connections_are_held_at_the_same_time(proxy: DelayProxy) -> None:
    start = threading.Barrier(5)
    statuses: list[int] = []

    def one() -> None:
        conn = _connect(proxy)
        start.wait(timeout=10)
        statuses.append(_get(conn, "GET", "/x")[0])
        conn.close()

    threads = [threading.Thread(target=one) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert statuses == [200] * 5
    assert proxy.stats.max_in_flight == 5  # held one after another, never more than one would be in flight


def test_bodies_pass_in_every_framing_on_one_kept_alive_connection(proxy: DelayProxy) -> None:
    conn = _connect(proxy)
    assert _get(conn, "GET", "/chunked")[:2] == (200, b"hello world")
    chunked = iter([b"ab", b"cd"])  # a body without a length: http.client sends it chunked
    assert _get(conn, "POST", "/echo", chunked)[:2] == (200, b"POST /echo abcd hop=None")
    status, body, resp = _get(conn, "HEAD", "/h")
    assert (status, body, resp.getheader("Content-Length")) == (200, b"", str(len("HEAD /h  hop=None")))
    assert _get(conn, "GET", "/empty")[:2] == (204, b"")
    sock = conn.sock
    assert _get(conn, "GET", "/after")[:2] == (200, b"GET /after  hop=None")
    assert conn.sock is sock  # still the first connection: every answer above ended where its framing said


def test_an_upstream_that_closes_is_reconnected_and_the_client_keeps_its_connection(proxy: DelayProxy) -> None:
    conn = _connect(proxy)
    status, _, resp = _get(conn, "GET", "/close")
    assert status == 200 and resp.getheader("Connection") is None
    sock = conn.sock
    assert _get(conn, "GET", "/next")[:2] == (200, b"GET /next  hop=None")
    assert conn.sock is sock


def test_a_client_that_asks_to_close_gets_its_answer_and_a_closed_connection(proxy: DelayProxy) -> None:
    with socket.create_connection(proxy.url.removeprefix("http://").split(":"), timeout=10) as raw:
        raw.sendall(b"GET /bye HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        got = b""
        for _ in range(100):  # until the proxy closes the connection
            chunk = raw.recv(65536)
            if not chunk:
                break
            got += chunk
    assert got.startswith(b"HTTP/1.0 200") or got.startswith(b"HTTP/1.1 200"), got
    assert b"\r\nConnection: close\r\n" in got and got.endswith(b"GET /bye  hop=None")
