"""A target of known capacity: a forwarding HTTP/1.1 proxy that serves at most N requests/s, each with a fixed
service time, and queues the rest (first come, first served).

Why: a capacity search can only be checked against a known answer. The reference server's own capacity depends on
the machine, the scenario and whoever else is using the cores; behind this proxy it is exactly N requests/s (as
long as the server behind it can do N), whatever the requests are. Each request gets the next free slot of a
schedule one 1/N s apart (``slot = max(arrival, previous slot + 1/N)``), is forwarded at its slot, and its answer
leaves no sooner than ``service_ms`` after the slot. Below N req/s a request waits only for the slot spacing
(an M/D/1 queue); above, the queue and the latency grow without end, as in front of a saturated server.

Used by tests/load (in a thread of the test process, at low rates) and bench/bench_capacity.py (as its own process,
``python bench/capped_proxy.py --upstream URL --rps 300``: prints ``capped proxy listening on URL``). Listens on
127.0.0.1 only; keep-alive both ways, one upstream connection per client connection; request bodies by
Content-Length, answers by Content-Length or chunked. Knows nothing of the interface: it forwards bytes.

Without an upstream (``--canned``) it answers every request itself with a small JSON list envelope (a bare array
for paths ending in ``issuetype.json`` or ``content.json``): a target far cheaper per request than the load
generator, for a search the generator limits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
import threading
import time
from types import TracebackType
from urllib.parse import urlsplit

READY = "capped proxy listening on "
_ENVELOPE = (b'{"name":"","sort":"active","page":1,"pageSize":15,"pageCount":1,"listCount":2,"totalCount":2,'
             b'"sorts":["active"],"list":[{"id":1,"type":"question","title":"q","answers":[],"author":{"id":3}},'
             b'{"id":2,"type":"question","title":"r","answers":[],"author":{"id":3}}]}')


def canned(head: bytes) -> tuple[bytes, bytes]:
    """The answer of the canned mode: (head, body)."""
    target = head.split(b" ", 2)[1] if head.count(b" ") >= 2 else b"/"
    path = target.split(b"?", 1)[0]
    body = b"[]" if path.endswith((b"issuetype.json", b"content.json")) else _ENVELOPE
    return (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + str(len(body)).encode()
            + b"\r\n\r\n", body)
_MAX_HEAD = 65536


class Gate:
    """The schedule of slots: at most ``rps`` a second, in order of arrival. Single event loop: no lock needed."""

    def __init__(self, rps: float) -> None:
        if rps <= 0:
            raise ValueError(f"rps must be positive, not {rps}")
        self.interval = 1.0 / rps
        self.next_slot = 0.0
        self.served = 0

    def slot(self, now: float) -> float:
        """The time this request may be served (monotonic clock); reserves it."""
        at = max(now, self.next_slot)
        self.next_slot = at + self.interval
        self.served += 1
        return at


async def _read_head(reader: asyncio.StreamReader) -> bytes | None:
    try:
        return await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, ConnectionError):
        return None
    except asyncio.LimitOverrunError:
        return None


def _header(head: bytes, name: bytes) -> bytes | None:
    for line in head.split(b"\r\n")[1:]:
        key, sep, value = line.partition(b":")
        if sep and key.strip().lower() == name:
            return value.strip()
    return None


async def _read_body(reader: asyncio.StreamReader, head: bytes) -> bytes:
    """The body after ``head``, raw (chunked bodies keep their framing: they are forwarded as they came)."""
    length = _header(head, b"content-length")
    if length is not None:
        return await reader.readexactly(int(length)) if int(length) else b""
    if (_header(head, b"transfer-encoding") or b"").lower() == b"chunked":
        parts = []
        while True:
            size_line = await reader.readuntil(b"\r\n")
            parts.append(size_line)
            size = int(size_line.split(b";")[0].strip(), 16)
            if size == 0:
                parts.append(await reader.readuntil(b"\r\n"))  # no trailers from the servers we front
                return b"".join(parts)
            parts.append(await reader.readexactly(size + 2))
    return b""


class CappedProxy:
    """``with CappedProxy("http://127.0.0.1:8000", rps=40, service_ms=5) as p: p.url`` (runs in a thread)."""

    def __init__(self, upstream: str | None, rps: float, service_ms: float = 2.0, port: int = 0,
                 record: bool = False) -> None:
        self.canned = upstream is None
        self.requests: list[tuple[str, str]] | None = [] if record else None
        """With ``record``: (method, target) of every request, in order of arrival (the tests read what was sent)."""
        parts = urlsplit(upstream or "http://127.0.0.1:80")
        self.upstream_host = parts.hostname or "127.0.0.1"
        self.upstream_port = parts.port or 80
        self.rps = rps
        self.service_s = service_ms / 1000.0
        self.gate = Gate(rps)
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_r: asyncio.StreamReader | None = None
        up_w: asyncio.StreamWriter | None = None
        loop = asyncio.get_running_loop()
        try:
            while True:
                head = await _read_head(reader)
                if head is None:
                    return
                body = await _read_body(reader, head)
                if self.requests is not None:
                    method, target = (head.split(b" ", 2) + [b"", b""])[:2]
                    self.requests.append((method.decode("latin-1"), target.decode("latin-1")))
                slot = self.gate.slot(loop.time())
                wait = slot - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                for attempt in (1, 2):  # an idle upstream connection may have been closed: reconnect once
                    if self.canned:
                        r_head, r_body = canned(head)
                        break
                    if up_w is None:
                        up_r, up_w = await asyncio.open_connection(self.upstream_host, self.upstream_port)
                    assert up_r is not None
                    try:
                        up_w.write(head + body)
                        await up_w.drain()
                        got = await _read_head(up_r)
                        if got is None:
                            raise ConnectionError("upstream closed")
                        r_head, r_body = got, await _read_body(up_r, got)
                        break
                    except (ConnectionError, asyncio.IncompleteReadError):
                        up_w.close()
                        up_r = up_w = None
                        if attempt == 2:
                            raise
                done = slot + self.service_s - loop.time()
                if done > 0:
                    await asyncio.sleep(done)
                writer.write(r_head + (b"" if head.startswith(b"HEAD ") else r_body))
                await writer.drain()
                if (_header(r_head, b"connection") or b"").lower() == b"close":
                    return
        except (ConnectionError, asyncio.IncompleteReadError, ValueError, OSError):
            return
        finally:
            if up_w is not None:
                up_w.close()
            writer.close()

    async def _start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port, limit=_MAX_HEAD)
        sock = self._server.sockets[0]
        self.port = sock.getsockname()[1]

    def _run(self) -> None:
        loop = self._loop = asyncio.new_event_loop()
        loop.run_until_complete(self._start())
        self._ready.set()
        loop.run_forever()
        if self._server is not None:
            self._server.close()
        loop.run_until_complete(asyncio.sleep(0))
        loop.close()

    def __enter__(self) -> CappedProxy:
        self._thread = threading.Thread(target=self._run, daemon=True, name="capped-proxy")
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the capped proxy did not start within 10 s")
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=5)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--upstream", help="the server to forward to, e.g. http://127.0.0.1:8080")
    ap.add_argument("--canned", action="store_true", help="no upstream: answer every request with a small JSON list")
    ap.add_argument("--rps", type=float, required=True, help="requests served per second at most")
    ap.add_argument("--service-ms", type=float, default=2.0, help="fixed service time of each request (default 2)")
    ap.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    ap.add_argument("--max-s", type=float, default=3600.0, help="stop after this many seconds (default 3600)")
    args = ap.parse_args()
    if args.rps <= 0 or args.service_ms < 0 or bool(args.upstream) == args.canned:
        print("capped_proxy: give --upstream URL or --canned; --rps must be positive and --service-ms 0 or more",
              file=sys.stderr)
        return 2
    proxy = CappedProxy(None if args.canned else args.upstream, args.rps, args.service_ms, args.port)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    with proxy:
        print(READY + proxy.url, flush=True)
        started = time.monotonic()
        while not stop.wait(0.5) and time.monotonic() - started < args.max_s:
            pass
    with contextlib.suppress(Exception):
        print(f"served {proxy.gate.served} requests", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
