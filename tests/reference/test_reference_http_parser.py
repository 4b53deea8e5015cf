"""The reference server answers the same whichever HTTP parser uvicorn runs it with (qaconform/reference/
http_protocol.py): httptools when installed, h11 when not. The same raw requests go to one server of each kind;
every answer must match byte for byte but for the Date header, including the requests whose target or headers
httptools' own URL handling would have read differently (a 100 KB query, a fragment, an absolute target, a
missing Host).
"""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from qaconform.reference import ReferenceServer
from qaconform.reference.http_protocol import protocol

pytest.importorskip("httptools", reason="httptools is not installed: the server runs h11 only, nothing to compare")

HEAD = b"Host: h\r\nAccept: application/json\r\n"
REQUESTS: dict[str, bytes] = {
    "list": b"GET /services/v2/question.json?pageSize=3&sort=newest HTTP/1.1\r\n" + HEAD + b"\r\n",
    "percent-encoded-path": b"GET /services/v2/user/%31/answer.json HTTP/1.1\r\n" + HEAD + b"\r\n",
    "encoded-question-mark": b"GET /services/v2/user/1%3F/answer.json HTTP/1.1\r\n" + HEAD + b"\r\n",
    "query-100kb": b"GET /services/v2/question.json?q=" + b"x" * 100_000 + b" HTTP/1.1\r\n" + HEAD + b"\r\n",
    "fragment": b"GET /services/v2/question.json#part HTTP/1.1\r\n" + HEAD + b"\r\n",
    "absolute-target": b"GET http://h/services/v2/question.json HTTP/1.1\r\n" + HEAD + b"\r\n",
    "no-route": b"GET /services/v2/nothing.json HTTP/1.1\r\n" + HEAD + b"\r\n",
    "wrong-method": b"DELETE /services/v2/question.json HTTP/1.1\r\n" + HEAD + b"\r\n",
    "head": b"HEAD /services/v2/topic.json HTTP/1.1\r\n" + HEAD + b"\r\n",
    "bad-credentials": b"GET /services/v2/group.json HTTP/1.1\r\n" + HEAD + b"Authorization: Basic eDp5\r\n\r\n",
    "form-post-anonymous": b"POST /services/v2/question/1/answer.json HTTP/1.1\r\n" + HEAD
    + b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 6\r\n\r\nbody=x",
    "chunked-post-anonymous": b"POST /services/v2/question/1/answer.json HTTP/1.1\r\n" + HEAD
    + b"Transfer-Encoding: chunked\r\n\r\n6\r\nbody=x\r\n0\r\n\r\n",
    "two-on-one-connection": b"GET /services/v2/topic.json HTTP/1.1\r\n" + HEAD + b"\r\n"
    + b"GET /services/v2/space.json HTTP/1.1\r\n" + HEAD + b"\r\n",
    "no-host": b"GET /services/v2/question.json HTTP/1.1\r\nAccept: application/json\r\n\r\n",
    "non-ascii-target": b"GET /services/v2/user/\xc3\xa9/answer.json HTTP/1.1\r\n" + HEAD + b"\r\n",
}
"""Raw requests, each on its own connection, whose answers must not depend on the parser."""

STATUS_ONLY = {"no-host", "non-ascii-target"}
"""Refused by uvicorn itself (not the application) with its 400 page, which h11 and httptools word differently
(headers, framing); the status line is what must match."""


def _exchange(url: str, raw: bytes) -> bytes:
    host, port = url.split("//", 1)[1].rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(raw)
        sock.shutdown(socket.SHUT_WR)
        data = b""
        for _ in range(1000):  # bounded: the server closes after the last answer
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    return re.sub(rb"(?im)^date: [^\r\n]*", b"date: -", data)


def _answers(url: str) -> dict[str, bytes]:
    out = {}
    for name, raw in REQUESTS.items():
        data = _exchange(url, raw)
        out[name] = data.split(b"\r\n", 1)[0] if name in STATUS_ONLY else data
    return out


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, bytes], dict[str, bytes]]]:
    """(answers of a server on httptools, answers of a server on h11: httptools hidden from its interpreter)."""
    with ReferenceServer() as fast:
        on_httptools = _answers(fast.url)
    blocker = Path(tmp_path_factory.mktemp("no-httptools"), "httptools")
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ImportError('hidden by test_reference_http_parser.py')\n")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PYTHONPATH", str(blocker.parent))
        with ReferenceServer() as slow:
            on_h11 = _answers(slow.url)
    yield on_httptools, on_h11


def test_the_server_runs_on_httptools_when_it_is_installed() -> None:
    assert not isinstance(protocol(), str), "httptools is installed but the server would run h11"


def test_the_server_falls_back_to_h11_without_httptools(monkeypatch: pytest.MonkeyPatch) -> None:
    from qaconform.reference import http_protocol

    monkeypatch.setattr(http_protocol, "HttpToolsProtocol", None)
    assert http_protocol.protocol() == "h11"


@pytest.mark.parametrize("name", list(REQUESTS))
def test_an_answer_does_not_depend_on_the_parser(
    name: str, both: tuple[dict[str, bytes], dict[str, bytes]]
) -> None:
    on_httptools, on_h11 = both
    assert on_h11[name].startswith(b"HTTP/1.1 "), f"{name}: the h11 server gave no answer: {on_h11[name][:200]!r}"
    assert on_httptools[name] == on_h11[name], (
        f"{name}: httptools answered {on_httptools[name][:300]!r}, h11 {on_h11[name][:300]!r}"
    )


def test_a_long_query_and_an_odd_target_reach_the_application(
    both: tuple[dict[str, bytes], dict[str, bytes]]
) -> None:
    """What httptools' URL parser alone would have refused or read otherwise gets the application's JSON answer."""
    on_httptools, _ = both
    for name, status in (("query-100kb", b"400"), ("fragment", b"404"), ("absolute-target", b"404")):
        head = on_httptools[name].split(b"\r\n\r\n", 1)[0].lower()
        assert head.startswith(b"http/1.1 " + status) and b"content-type: application/json" in head, (name, head)
