"""The client's connections (qaconform/target/transport.py: Transport, urllib3 under ApiClient): what a requests
Session did for the client and the suites rely on, checked against a local server that echoes what it got:
defaults overridden case-insensitively, an account's credentials over any Authorization a test names, cookies
the target sets sent back (and dropped when it expires them), kept-alive connections reused."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from qaconform.target.client import ApiClient, BasicAuth
from qaconform.target.profile import profile_from_dict
from qaconform.target.recording import Recorder


class _Echo(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        body = json.dumps({"headers": {k.lower(): v for k, v in self.headers.items()},
                           "all": [k for k in self.headers.keys()],
                           "port": self.client_address[1]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if self.path.endswith("/login"):
            self.send_header("Set-Cookie", "JSESSIONID=abc123; Path=/; HttpOnly")
            self.send_header("Set-Cookie", "theme=dark")
        if self.path.endswith("/logout"):
            self.send_header("Set-Cookie", "JSESSIONID=; Max-Age=0; Path=/")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def echo() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _client(base: str, password: str | None = "pw") -> ApiClient:
    p = profile_from_dict({"base_url": base, "accounts": {r: {"username": r, "password": "pw"} for r in
                                                           ("admin", "moderator", "member", "novice")},
                           "fixtures": {"question_id": 10, "space_id": 1}})
    return ApiClient(p, "member", "member" if password else None, password, Recorder())


def _got(client: ApiClient, path: str = "/x", **kw: Any) -> dict[str, Any]:
    return json.loads(client.get(path, **kw).content)


def test_a_header_a_test_names_replaces_the_default_whatever_its_case(echo: str) -> None:
    got = _got(_client(echo), headers={"accept": "text/html", "content-type": "text/plain"})
    assert got["headers"]["accept"] == "text/html"
    assert [k for k in got["all"] if k.lower() == "accept"] == ["accept"]  # one Accept, the test's
    assert got["headers"]["content-type"] == "text/plain"
    assert got["headers"]["user-agent"] == "qaconform"
    assert got["headers"]["accept-encoding"] == "gzip, deflate"


def test_the_accounts_credentials_go_over_any_authorization_a_test_names(echo: str) -> None:
    sent = _got(_client(echo), headers={"Authorization": "Basic bm90OnRoaXM="})["headers"]["authorization"]
    assert sent == BasicAuth("member", "pw").header() == "Basic bWVtYmVyOnB3"
    anonymous = _got(_client(echo, password=None), headers={"Authorization": "Bearer given"})
    assert anonymous["headers"]["authorization"] == "Bearer given"


def test_cookies_the_target_sets_are_sent_back_until_it_expires_them(echo: str) -> None:
    client = _client(echo)
    assert "cookie" not in _got(client, "/login")["headers"]
    assert _got(client, "/after")["headers"]["cookie"] == "JSESSIONID=abc123; theme=dark"
    _got(client, "/logout")
    assert _got(client, "/later")["headers"]["cookie"] == "theme=dark"


def test_requests_of_one_client_reuse_a_kept_alive_connection(echo: str) -> None:
    client = _client(echo)
    ports = {_got(client)["port"] for _ in range(5)}
    assert len(ports) == 1
    client.close()
    assert _got(client)["port"] not in ports  # closed: the next request opens a new connection


def test_https_to_a_plain_http_port_says_to_write_http_not_to_turn_verification_off(echo: str) -> None:
    """A base_url with https:// on a port that serves plain HTTP (a user's first guess for a staging site): the hint
    for a self-signed certificate (verify_tls = false) changes nothing there, so the message says what does."""
    from qaconform.target.client import TargetUnreachable

    with pytest.raises(TargetUnreachable) as caught:
        _client(echo.replace("http://", "https://")).get("/x")
    message = str(caught.value)
    assert "plain HTTP" in message and "write base_url with http://" in message, message
    assert "verify_tls" not in message, message
