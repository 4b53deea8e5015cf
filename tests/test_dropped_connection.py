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


def _serve_resets(sock: socket.socket, answers: int) -> None:
    """Answer ``answers`` connections with headers and part of a body, then a TCP reset (SO_LINGER 0)."""
    for _ in range(answers):
        try:
            conn, _addr = sock.accept()
        except OSError:
            return
        conn.settimeout(5)
        data = b""
        while b"\r\n\r\n" not in data and len(data) < 65536:
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
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
    path = tmp_path / "p.toml"
    path.write_text(f'name = "reset"\nbase_url = "{resetting_url}"\ntimeout_s = 5\n'
                    + "".join(f'[accounts.{r}]\nusername = "qa-{r}"\npassword = "pw-{r}"\n'
                              for r in ("admin", "moderator", "member", "novice"))
                    + "[fixtures]\nquestion_id = 10\nspace_id = 1\n", encoding="utf-8")
    client = ApiClient(load_profile(str(path)), "anonymous", None, None, Recorder())
    try:
        with pytest.raises(TargetUnreachable, match="dropped mid-answer") as caught:
            client.get("question.json", params={"pageSize": 1})
        assert not isinstance(caught.value, TargetError)
    finally:
        client.close()
