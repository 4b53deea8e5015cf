"""A target that resets the connection in the middle of its answer gave no answer to judge: the client raises
TargetUnreachable (the test is blocked, the run exits 3), never TargetError (a failed rule). An overloaded target's
ConnectionResetError once counted as a failed rule."""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from qaconform.target.client import ApiClient, Recorder, TargetError, TargetUnreachable
from qaconform.target.profile import load_profile


def _read_head(conn: socket.socket) -> bytes:
    """A request's status line and headers (what the servers below need to decide what to do with it)."""
    data = b""
    while b"\r\n\r\n" not in data and len(data) < 65536:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def _serve_resets(sock: socket.socket, answers: int) -> None:
    """Answer ``answers`` connections with headers and part of a body, then a TCP reset (SO_LINGER 0)."""
    for _ in range(answers):
        try:
            conn, _addr = sock.accept()
        except OSError:
            return
        conn.settimeout(5)
        _read_head(conn)  # whatever the request, the answer is cut short
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n"
                     b'{"list": [')
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()


@pytest.fixture
def resetting_url() -> Iterator[str]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(4)
    thread = threading.Thread(target=_serve_resets, args=(sock, 1), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    sock.close()
    thread.join(timeout=5)


def test_a_connection_reset_mid_body_is_unreachable_not_a_broken_answer(resetting_url: str, tmp_path: Path) -> None:
    client = _client_of(resetting_url, tmp_path, role="anonymous")
    try:
        with pytest.raises(TargetUnreachable, match="dropped mid-answer") as caught:
            client.get("question.json", params={"pageSize": 1})
        assert not isinstance(caught.value, TargetError)
    finally:
        client.close()


def _serve_reset_then_answer(sock: socket.socket, resets: int, seen: list[str], connections: int) -> None:
    """Reset the first ``resets`` connections after reading the request (no status line: a keep-alive connection
    the server closed as the request set out), then answer each connection with a 200 JSON envelope; ``connections``
    in all, so that the thread ends by itself."""
    served = 0
    while served < connections:
        try:
            conn, _addr = sock.accept()
        except OSError:
            return
        conn.settimeout(5)
        data = _read_head(conn)
        seen.append(data.split(b" ", 1)[0].decode())
        if served < resets:
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        else:
            body = b'{"list": [], "listCount": 0}'
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                         b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        conn.close()
        served += 1


def _client_of(url: str, tmp_path: Path, role: str = "member") -> ApiClient:
    path = tmp_path / "p.toml"
    path.write_text(f'name = "reset"\nbase_url = "{url}"\ntimeout_s = 5\n'
                    + "".join(f'[accounts.{r}]\nusername = "qa-{r}"\npassword = "pw-{r}"\n'
                              for r in ("admin", "moderator", "member", "novice"))
                    + "[fixtures]\nquestion_id = 10\nspace_id = 1\n", encoding="utf-8")
    if role == "anonymous":
        return ApiClient(load_profile(str(path)), "anonymous", None, None, Recorder())
    return ApiClient(load_profile(str(path)), role, f"qa-{role}", f"pw-{role}", Recorder())


@pytest.mark.parametrize("resets", [1, 2])
def test_a_read_dropped_before_any_answer_is_sent_once_more_and_a_write_never(resets: int, tmp_path: Path) -> None:
    """A keep-alive connection the target closed just as a request set out: the read is sent again once on a new
    connection (one reset: answered; two in a row: unreachable, as before); a write is not sent twice."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(4)
    seen: list[str] = []
    thread = threading.Thread(target=_serve_reset_then_answer, args=(sock, resets, seen, 2), daemon=True)
    thread.start()
    client = _client_of(f"http://127.0.0.1:{sock.getsockname()[1]}", tmp_path)
    try:
        if resets == 1:
            try:  # (a TargetUnreachable escaping a test is "blocked", a skip: say it is this test's failure)
                status = client.get("question.json", params={"pageSize": 1}).status
            except TargetUnreachable as exc:
                pytest.fail(f"the read was not sent again after the reset: {exc}")
            assert status == 200
            assert seen == ["GET", "GET"]
        else:
            with pytest.raises(TargetUnreachable, match="no answer"):
                client.get("question.json", params={"pageSize": 1})
            assert seen == ["GET", "GET"]
            seen.clear()
            sock2 = socket.socket()
            sock2.bind(("127.0.0.1", 0))
            sock2.listen(4)
            seen2: list[str] = []
            t2 = threading.Thread(target=_serve_reset_then_answer, args=(sock2, 1, seen2, 1), daemon=True)
            t2.start()
            writer = _client_of(f"http://127.0.0.1:{sock2.getsockname()[1]}", tmp_path)
            try:
                with pytest.raises(TargetUnreachable, match="no answer"):
                    writer.post("node/10/comment.json", json={"body": "x"})
                assert seen2 == ["POST"]  # never sent twice
            finally:
                writer.close()
                sock2.close()
                t2.join(timeout=5)
    finally:
        client.close()
        sock.close()
        thread.join(timeout=5)


def _serve_keepalive_then_reset(sock: socket.socket, seen: list[str]) -> None:
    """Connection 1: answer its first request and keep the connection, then reset it on the second (the server
    closed a kept-alive connection as the request set out); connection 2: answer, and close."""
    body = b'{"id": 7}'
    answer = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + str(len(body)).encode()
              + b"\r\n\r\n" + body)

    def read_request(conn: socket.socket) -> bytes:
        data = _read_head(conn)
        head, _, rest = data.partition(b"\r\n\r\n")
        length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), 0)
        while len(rest) < length:
            rest += conn.recv(4096)
        return head

    for n in range(2):
        try:
            conn, _addr = sock.accept()
        except OSError:
            return
        conn.settimeout(5)
        seen.append(read_request(conn).split(b" ", 1)[0].decode())
        conn.sendall(answer)
        if n == 0:
            seen.append(read_request(conn).split(b" ", 1)[0].decode())
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()


def test_a_write_dropped_on_a_kept_alive_connection_before_any_answer_is_sent_once_more(tmp_path: Path) -> None:
    """The race of a server closing an idle kept-alive connection as a write set out on it: the write never reached
    the server, so it is sent again on a new connection (a CI-like build was blocked by a POST reset this way)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(4)
    seen: list[str] = []
    thread = threading.Thread(target=_serve_keepalive_then_reset, args=(sock, seen), daemon=True)
    thread.start()
    client = _client_of(f"http://127.0.0.1:{sock.getsockname()[1]}", tmp_path)
    try:
        try:  # (a TargetUnreachable escaping a test is "blocked", a skip: say it is this test's failure)
            assert client.get("question.json", params={"pageSize": 1}).status == 200
            status = client.post("node/10/comment.json", json={"body": "x"}).status
        except TargetUnreachable as exc:
            pytest.fail(f"the write on the kept-alive connection was not sent again: {exc}")
        assert status == 200
        assert seen == ["GET", "POST", "POST"]
    finally:
        client.close()
        sock.close()
        thread.join(timeout=5)
