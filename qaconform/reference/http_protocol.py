"""The HTTP/1.1 protocol the reference server runs under uvicorn: httptools (a C parser) when it is installed, h11
(uvicorn's pure-Python parser) otherwise.

Why: a serial ``qaconform run`` is CPU-bound on a small machine, and h11's parsing and event bookkeeping took about
a third of the server's CPU per request. The answers must not change with the parser, so the httptools protocol
hands the application the request exactly as uvicorn's h11 protocol does:

* the path and query come from splitting the request target at its first ``?`` (h11's rule), not from httptools'
  URL parser, which refuses targets over 64 KiB (a 100 KB search would get uvicorn's plain-text 400 instead of the
  application's JSON one) and drops a ``#fragment`` or the scheme and host of an absolute target;
* an HTTP/1.1 request without ``Host`` is refused with uvicorn's 400, as h11 refuses it.

What differs, on framing no client of the kit sends: llhttp (httptools' parser, left strict) refuses with
uvicorn's 400 what h11 reads: bare LF line endings, a header continued on the next line (obs-fold), and both
Content-Length and ``Transfer-Encoding: chunked`` on one request (RFC 9112 lets a server refuse each). uvicorn's
400 page then carries date and server headers and a Content-Length where h11's was chunked, and the
``connection: close`` uvicorn adds to a closing response is written in lower case (header names are
case-insensitive).
"""

from __future__ import annotations

import asyncio
from urllib.parse import unquote

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # httptools not installed (no wheel for this platform): h11 answers the same, with more CPU
    HttpToolsProtocol = None  # type: ignore[assignment,misc]


class _InvalidRequest(Exception):
    """Raised in a parser callback: httptools stops and uvicorn answers its 400 (as h11 does for the same input)."""


def _has_host(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether the request has a Host header (names are lower-cased by then; clients send it first)."""
    for name, _ in headers:
        if name == b"host":
            return True
    return False


if HttpToolsProtocol is not None:

    class AsH11HttpToolsProtocol(HttpToolsProtocol):
        """uvicorn's httptools protocol, handing the application the request as the h11 protocol would (see the
        module's docstring)."""

        def on_headers_complete(self) -> None:
            target = self.url
            if self.parser.get_http_version() == "1.1" and not _has_host(self.headers):
                raise _InvalidRequest("an HTTP/1.1 request without Host")
            raw_path, _, query_string = target.partition(b"?")
            path = unquote(raw_path.decode("ascii"))  # a non-ASCII target is refused (400), as by h11
            self.url = b"/"  # what httptools' URL parser reads below; the scope is then set as h11 sets it
            try:
                super().on_headers_complete()
            finally:
                self.url = target  # a WebSocket upgrade replays the request from it
            self.scope["path"] = self.root_path + path
            self.scope["raw_path"] = self.root_path.encode("ascii") + raw_path
            self.scope["query_string"] = query_string


def protocol() -> type[asyncio.Protocol] | str:
    """What ``uvicorn.Config(http=...)`` gets: the httptools protocol above when httptools is installed, else
    uvicorn's h11 protocol."""
    return AsH11HttpToolsProtocol if HttpToolsProtocol is not None else "h11"
