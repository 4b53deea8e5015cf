"""A hostile HTTP target: one small threaded server whose behaviour is switched by name.

The kit is pointed at servers we did not write. This server misbehaves on purpose, in one way at a time,
so that a test can prove the kit still ends in bounded time, with a clear verdict, without leaking credentials.
It listens on 127.0.0.1, port 0, speaks HTTP/1.1 by hand on raw sockets (http.server would refuse to send most
of these answers), counts every request it receives and records method, path and headers of each.

Every loop here is bounded twice: by the server's stop event and by a fixed number of iterations, so that a
client that hangs cannot keep a handler thread alive past the test.
"""

from __future__ import annotations

import datetime as dt
import http.client
import ipaddress
import json
import socket
import socketserver
import ssl
import threading
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

BEHAVIOURS: dict[str, str] = {
    "ok": "plausible JSON: an empty paged list on every GET, 201 with an id on POST, 200 success on PUT",
    "refused": "nothing listens on the port (connection refused)",
    "silent": "accepts the connection, reads the request, never answers",
    "slow": "answers a valid response one byte a second",
    "endless": "200 with JSON headers, then a body that never ends",
    "huge": "200 with a 100 MB JSON body (streamed, never held in memory by the server)",
    "html": "200 text/html page on every path",
    "badjson": "200 application/json whose body is not JSON",
    "wrongtypes": "200 application/json of the wrong types (strings for numbers, objects for arrays)",
    "html401": "401 with an HTML error page on every path, credentials or not",
    "trace500": "500 with a Java stack trace that echoes the request headers (Authorization included)",
    "redirect_foreign": "302 to the same path on another host (a second listener records what arrives there)",
    "redirect_loop": "302 to a path that redirects back, forever",
    "bad_length": "200 whose Content-Length promises more bytes than are sent before the connection closes",
    "gzip_bomb": "200 Content-Encoding gzip: 100 KB on the wire, 100 MB once decompressed",
    "huge_headers": "200 with 2000 headers of 4 KB each (8 MB of headers)",
    "markup": "JSON full of what breaks report files: XML-special characters, escaped control characters and a lone "
              "surrogate in strings, NaN and Infinity for numbers, and the same characters in headers",
    "proxy": "forwards every request to an upstream server and records it (a recording proxy)",
}
"""Behaviour name -> what the server does. A test names one; tls=True serves any of them over self-signed TLS."""
GARBAGE = ("redirect_foreign", "redirect_loop", "trace500", "html", "badjson", "wrongtypes", "bad_length", "markup")
"""Answers the kit cannot use but that cost nothing: one run (or load) meets them all, the server rotating them."""
HEAVY = ("huge", "gzip_bomb", "huge_headers")
"""Answers that would fill memory if read whole, rotated the same way."""

_HEAD_LIMIT = 256 * 1024
_BODY_LIMIT = 64 * 1024 * 1024
_HANG_LIMIT_S = 120.0  # the longest any handler may keep a connection open, whatever the client does
_STACK_TRACE = """<html><head><title>Error 500</title></head><body><h1>HTTP Status 500 - Internal Server Error</h1>
<pre>java.lang.NullPointerException: Cannot invoke "com.example.qa.Node.getId()" because "node" is null
\tat com.example.qa.rest.v2.QuestionResource.list(QuestionResource.java:212)
\tat jdk.internal.reflect.GeneratedMethodAccessor311.invoke(Unknown Source)
\tat org.glassfish.jersey.server.model.internal.ResourceMethodInvocationHandlerFactory.lambda$static$0(RMI.java:52)
\tat org.apache.catalina.core.ApplicationFilterChain.doFilter(ApplicationFilterChain.java:166)
Request headers:
{headers}
</pre></body></html>"""
_HTML_401 = (
    "<!doctype html><html><head><title>HTTP Status 401 - Bad credentials</title></head><body>"
    "<h1>HTTP Status 401 - Bad credentials</h1><p>This request requires HTTP authentication.</p></body></html>"
)
_EMPTY_LIST = {"name": "", "sort": "active", "page": 1, "pageSize": 15, "pageCount": 0, "listCount": 0,
               "totalCount": 0, "list": []}
_MARKUP_TEXT = "<q a=\"1\">&amp; 'x' ]]> \x00\x07\x1b \ud800 \ufffe"
_MARKUP = json.dumps({"name": _MARKUP_TEXT, "sort": "<b>", "page": float("nan"), "pageSize": float("inf"),
                      "pageCount": -float("inf"), "listCount": 1, "totalCount": 1, "success": float("nan"),
                      "id": _MARKUP_TEXT, "jobId": _MARKUP_TEXT, "error": _MARKUP_TEXT,
                      "list": [{"id": 1, "type": _MARKUP_TEXT, "title": _MARKUP_TEXT}]}).encode()
"""JSON that Python's parser accepts (it reads NaN and Infinity) with, in its strings, every kind of character XML
1.0 cannot carry or must escape (escaped in the JSON as \\u0000, \\ud800 ...)."""
_MARKUP_HEADERS = [("X-Note", '<b a="1">&amp; \'x\'</b>'), ("WWW-Authenticate", 'Basic realm="<Q&A> \'site\'"')]
_WRONG_TYPES = {"name": 0, "sort": [], "page": "one", "pageSize": "15", "pageCount": None, "listCount": "0",
                "totalCount": {"n": 0}, "list": {"0": {"id": "x"}}, "success": "yes", "result": [], "jobId": {}}


@dataclass
class Seen:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    body_bytes: int
    body: bytes = b""  # the first 64 KB of the request body
    behaviour: str = ""  # which behaviour answered it (a rotating server has several)
    status: int | None = None  # filled in by the proxy: what the upstream answered
    response: bytes = b""
    response_headers: dict[str, str] = field(default_factory=dict)

    @property
    def authorization(self) -> str | None:
        return self.headers.get("authorization")


@dataclass
class Recording:
    """Everything a listener received, shared with the handler threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    seen: list[Seen] = field(default_factory=list)

    def add(self, s: Seen) -> None:
        with self.lock:
            self.seen.append(s)

    def snapshot(self) -> list[Seen]:
        with self.lock:
            return list(self.seen)


def make_self_signed(directory: Path) -> tuple[Path, Path]:
    """A key and a self-signed certificate for 127.0.0.1, made at test time (never committed)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "qaconform hostile self-signed")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
        .sign(key, hashes.SHA256())
    )
    key_path, cert_path = directory / "hostile-key.pem", directory / "hostile-cert.pem"
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return key_path, cert_path


_GZIP_BOMB: bytes | None = None


def gzip_bomb() -> bytes:
    """100 MB of zeros, gzip-compressed once per process (about 100 KB)."""
    global _GZIP_BOMB
    if _GZIP_BOMB is None:
        c = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        block = b"0" * (1 << 20)
        parts = [c.compress(block) for _ in range(100)]
        parts.append(c.flush())
        _GZIP_BOMB = b"".join(parts)
    return _GZIP_BOMB


class _Listener(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True
    block_on_close = False

    def __init__(self, owner: HostileServer) -> None:
        self.owner = owner
        super().__init__(("127.0.0.1", 0), _Handler)

    def finish_request(self, request: Any, client_address: Any) -> None:
        ctx = self.owner.tls_context
        if ctx is not None:
            request.settimeout(5)
            try:
                request = ctx.wrap_socket(request, server_side=True)
            except (OSError, ssl.SSLError):
                self.owner.tls_refused += 1  # the client refused our certificate: exactly what verify_tls wants
                return
        super().finish_request(request, client_address)


class _Handler(socketserver.BaseRequestHandler):
    """Reads one request, records it, answers it the way the server's behaviour says, closes."""

    server: _Listener

    def handle(self) -> None:
        owner = self.server.owner
        sock: socket.socket = self.request
        sock.settimeout(10)
        try:
            seen, body = _read_request(sock)
        except (OSError, ValueError):
            return
        looping = seen.path.startswith("/loop-a/") and "redirect_loop" in owner.behaviours
        stung = next((b for part, b in owner.sting.items() if part in seen.path.split("?")[0]), None)
        seen.behaviour = "redirect_loop" if looping else stung or owner.next_behaviour()
        owner.recording.add(seen)
        if owner.die_after is not None and owner.count >= owner.die_after:
            owner.die()
        try:
            owner.answer(sock, seen, body)
        except (OSError, ssl.SSLError):
            pass  # the client hung up (as it should, on most of these behaviours)


def _read_request(sock: socket.socket) -> tuple[Seen, bytes]:
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            raise ValueError("connection closed before the request head ended")
        buf += chunk
        if len(buf) > _HEAD_LIMIT:
            raise ValueError("request head too large")
    head, _, rest = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, target, _version = (lines[0].split(" ", 2) + ["", ""])[:3]
    headers: dict[str, str] = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    length = int(headers.get("content-length", "0") or 0)
    body = rest
    while len(body) < min(length, _BODY_LIMIT):
        chunk = sock.recv(min(65536, length - len(body)))
        if not chunk:
            break
        body += chunk
    return Seen(method=method, path=target, headers=headers, body_bytes=len(body), body=body[:65536]), body[:length]


def _head(status: int, reason: str, headers: list[tuple[str, str]]) -> bytes:
    lines = [f"HTTP/1.1 {status} {reason}"] + [f"{k}: {v}" for k, v in headers] + ["", ""]
    return "\r\n".join(lines).encode("latin-1")


def _simple(status: int, reason: str, ctype: str, body: bytes, extra: list[tuple[str, str]] | None = None) -> bytes:
    headers = [("Content-Type", ctype), ("Content-Length", str(len(body))), ("Connection", "close")]
    return _head(status, reason, headers + (extra or [])) + body


class HostileServer:
    """``with HostileServer("slow") as srv: srv.url`` -- a target that misbehaves in one named way.

    ``HostileServer(("html", "badjson"))`` rotates: request n gets behaviour n modulo the count, so that one kit
    run meets several misbehaviours (a run costs seconds of CPU; the behaviours cost nothing).

    ``srv.count`` is the number of requests received, ``srv.seen`` what they were; ``srv.foreign`` is the second
    listener a ``redirect_foreign`` server sends clients to (it must never see an Authorization header).
    ``proxy`` forwards to ``upstream`` (a base URL) and records, so a test can see every method a run sent;
    ``sting={"topic.json": "gzip_bomb"}`` answers the paths holding a key with that behaviour instead: a target
    that works except for one broken endpoint. ``die_after=N`` stops listening after N requests: a target that
    crashes in the middle of a run (later connections are refused).
    """

    def __init__(
        self,
        behaviour: str | tuple[str, ...],
        *,
        tls_files: tuple[Path, Path] | None = None,
        upstream: str | None = None,
        sting: dict[str, str] | None = None,
        die_after: int | None = None,
    ) -> None:
        self.sting = dict(sting or {})
        self.die_after = die_after
        self.behaviours = (behaviour,) if isinstance(behaviour, str) else tuple(behaviour)
        unknown = [b for b in self.behaviours if b not in BEHAVIOURS]
        if unknown or not self.behaviours:
            raise ValueError(f"unknown behaviour {unknown}; choose among {', '.join(BEHAVIOURS)}")
        if "proxy" in self.behaviours and not upstream:
            raise ValueError("behaviour 'proxy' needs upstream='http://127.0.0.1:PORT' (the server to forward to)")
        unknown_sting = [b for b in (sting or {}).values() if b not in BEHAVIOURS or b in ("proxy", "refused")]
        if unknown_sting:
            raise ValueError(f"sting behaviours {unknown_sting} cannot answer one path; see BEHAVIOURS")
        if "refused" in self.behaviours and len(self.behaviours) > 1:
            raise ValueError("'refused' means nothing listens; it cannot rotate with other behaviours")
        behaviour = "+".join(self.behaviours)
        self.behaviour = behaviour
        self.upstream = upstream
        self.recording = Recording()
        self.stop_event = threading.Event()
        self.tls_refused = 0
        self.tls_context: ssl.SSLContext | None = None
        if tls_files is not None:
            key, cert = tls_files
            self.tls_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.tls_context.load_cert_chain(str(cert), str(key))
        self.foreign: HostileServer | None = None
        self._turn = 0
        self._listener: _Listener | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    # -- lifecycle -------------------------------------------------------------------------------------------
    def __enter__(self) -> HostileServer:
        self.start()
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    def start(self) -> None:
        if "redirect_foreign" in self.behaviours or "redirect_foreign" in self.sting.values():
            self.foreign = HostileServer("ok")
            self.foreign.start()
        if self.behaviour == "refused":
            probe = socket.socket()
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
            probe.close()  # nothing listens there any more: connecting is refused
            return
        self._listener = _Listener(self)
        self.port = self._listener.server_address[1]
        self._thread = threading.Thread(target=self._listener.serve_forever, kwargs={"poll_interval": 0.1},
                                        name=f"hostile-{self.behaviour}", daemon=True)
        self._thread.start()

    def die(self) -> None:
        """Stop accepting connections now (from a handler thread: shutdown() would wait for this very thread)."""
        listener = self._listener
        if listener is not None and not self.stop_event.is_set():
            self.stop_event.set()
            threading.Thread(target=listener.shutdown, daemon=True).start()
            listener.socket.close()

    def stop(self) -> None:
        self.stop_event.set()
        if self._listener is not None:
            self._listener.shutdown()
            self._listener.server_close()
            self._listener = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self.foreign is not None:
            self.foreign.stop()

    # -- what a test reads -----------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        scheme = "https" if self.tls_context is not None else "http"
        return f"{scheme}://127.0.0.1:{self.port}"

    @property
    def seen(self) -> list[Seen]:
        return self.recording.snapshot()

    @property
    def count(self) -> int:
        return len(self.seen)

    # -- behaviours ------------------------------------------------------------------------------------------
    def next_behaviour(self) -> str:
        with self.recording.lock:
            self._turn += 1
            return self.behaviours[(self._turn - 1) % len(self.behaviours)]

    def answered_by(self, behaviour: str) -> list[Seen]:
        return [s for s in self.seen if s.behaviour == behaviour]

    def answer(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        getattr(self, "_" + seen.behaviour)(sock, seen, body)

    def _wait(self, seconds: float) -> bool:
        """Sleep unless the server stops; True when it is time to give up."""
        return self.stop_event.wait(seconds)

    def _ok(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        payload: Any
        if seen.method == "POST":
            payload, status, reason = {"id": "9001", "jobId": "job-1"}, 201, "Created"
        elif seen.method == "PUT":
            payload, status, reason = {"success": True, "result": {}}, 200, "OK"
        else:
            bare = seen.path.split("?")[0].endswith("content.json")  # the one list that is a bare array
            payload, status, reason = ([] if bare else _EMPTY_LIST), 200, "OK"
        sock.sendall(_simple(status, reason, "application/json", json.dumps(payload).encode()))

    def _silent(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        deadline = time.monotonic() + _HANG_LIMIT_S
        while time.monotonic() < deadline and not self._wait(0.2):
            pass

    def _slow(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        data = _simple(200, "OK", "application/json", json.dumps(_EMPTY_LIST).encode())
        for i in range(min(len(data), int(_HANG_LIMIT_S))):
            sock.sendall(data[i : i + 1])
            if self._wait(1.0):
                return

    def _endless(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        sock.sendall(_head(200, "OK", [("Content-Type", "application/json"), ("Connection", "close")]))
        sock.sendall(b'{"list": [')
        item = b'{"id": 1, "type": "question", "title": "again"},' * 64
        deadline = time.monotonic() + _HANG_LIMIT_S
        while time.monotonic() < deadline and not self.stop_event.is_set():
            sock.sendall(item)
            time.sleep(0.01)

    def _huge(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        total = 100 * 1024 * 1024
        sock.sendall(_head(200, "OK", [("Content-Type", "application/json"), ("Content-Length", str(total)),
                                      ("Connection", "close")]))
        block = b" " * 65536  # JSON whitespace: a client that parsed it all would still hold 100 MB
        sent = 0
        while sent < total and not self.stop_event.is_set():
            sock.sendall(block)
            sent += len(block)

    def _html(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        page = b"<!doctype html><html><head><title>Welcome</title></head><body><h1>Maintenance</h1></body></html>"
        sock.sendall(_simple(200, "OK", "text/html; charset=utf-8", page))

    def _badjson(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        sock.sendall(_simple(200, "OK", "application/json", b'{"name": "", "list": [{"id": 1,, ]'))

    def _wrongtypes(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        status, reason = (201, "Created") if seen.method == "POST" else (200, "OK")
        sock.sendall(_simple(status, reason, "application/json", json.dumps(_WRONG_TYPES).encode()))

    def _markup(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        status, reason = (201, "Created") if seen.method == "POST" else (200, "OK")
        sock.sendall(_simple(status, reason, "application/json", _MARKUP, _MARKUP_HEADERS))

    def _html401(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        sock.sendall(_simple(401, "Unauthorized", "text/html;charset=utf-8", _HTML_401.encode(),
                             [("WWW-Authenticate", 'Basic realm="qa"')]))

    def _trace500(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        echoed = "\n".join(f"{k}: {v}" for k, v in seen.headers.items())
        page = _STACK_TRACE.replace("{headers}", echoed).encode()
        sock.sendall(_simple(500, "Internal Server Error", "text/html;charset=utf-8", page))

    def _redirect_foreign(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        assert self.foreign is not None
        # "localhost" and 127.0.0.1 are different origins for a client, and the port differs too.
        location = f"http://localhost:{self.foreign.port}{seen.path}"
        sock.sendall(_simple(302, "Found", "text/plain", b"moved", [("Location", location)]))

    def _redirect_loop(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        location = "/loop-a" + seen.path  # a new URL each hop, so only a hop count can end it
        sock.sendall(_simple(302, "Found", "text/plain", b"again", [("Location", location)]))

    def _bad_length(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        sock.sendall(_head(200, "OK", [("Content-Type", "application/json"), ("Content-Length", "100000"),
                                      ("Connection", "close")]))
        sock.sendall(b'{"name": "", "list": [')
        sock.shutdown(socket.SHUT_WR)

    def _gzip_bomb(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        data = gzip_bomb()
        sock.sendall(_head(200, "OK", [("Content-Type", "application/json"), ("Content-Encoding", "gzip"),
                                      ("Content-Length", str(len(data))), ("Connection", "close")]) + data)

    def _huge_headers(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
        value = "x" * 4096
        for i in range(2000):
            if self.stop_event.is_set():
                return
            sock.sendall(f"X-Padding-{i}: {value}\r\n".encode())
        payload = json.dumps(_EMPTY_LIST).encode()
        sock.sendall(f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n".encode() + payload)

    def _proxy(self, sock: socket.socket, seen: Seen, body: bytes) -> None:
        assert self.upstream is not None
        up = urlsplit(self.upstream)
        conn = http.client.HTTPConnection(up.hostname or "127.0.0.1", up.port or 80, timeout=30)
        skip = {"host", "connection", "keep-alive", "proxy-connection", "transfer-encoding"}
        headers = {k: v for k, v in seen.headers.items() if k not in skip}
        try:
            conn.request(seen.method, seen.path, body=body if body else None, headers=headers)
            resp = conn.getresponse()
            data = resp.read(_BODY_LIMIT)
            out = [(k, v) for k, v in resp.getheaders()
                   if k.lower() not in ("transfer-encoding", "connection", "content-length")]
            out += [("Content-Length", str(len(data))), ("Connection", "close")]
            seen.status, seen.response = resp.status, data[:65536]
            seen.response_headers = {k.lower(): v for k, v in resp.getheaders()}
            sock.sendall(_head(resp.status, resp.reason or "OK", out) + data)
        finally:
            conn.close()


def main(argv: list[str] | None = None) -> int:
    """``python tests/hostile/hostile_server.py BEHAVIOUR [SECONDS]``: serve one behaviour by hand, to try the kit."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("behaviour", choices=sorted(BEHAVIOURS))
    parser.add_argument("seconds", type=float, nargs="?", default=600.0, help="stop after this long (default 600)")
    parser.add_argument("--upstream", help="for 'proxy': the base URL to forward to")
    args = parser.parse_args(argv)
    with HostileServer(args.behaviour, upstream=args.upstream) as srv:
        print(f"{srv.url}  ({BEHAVIOURS[args.behaviour]})", flush=True)
        try:
            srv.stop_event.wait(args.seconds)
        except KeyboardInterrupt:
            pass
        print(f"{srv.count} request(s) received", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
