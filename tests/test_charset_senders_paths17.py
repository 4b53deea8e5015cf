"""paths17 (issue 44, round47-answer-json-charset-body-raw's kind): a write's Content-Type carrying a charset
parameter. The run's seed draws half the accounts (``seed_draws.CHARSET_SENDERS``); the client types their JSON and
form-encoded bodies with ``; charset=UTF-8`` (``ApiClient.charset_roles``), keeps a Content-Type a test names, and
leaves the other half's bare, so that every write the run makes anyway tries the parameter on half its writers."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from qaconform.commands import selftest_seeds
from qaconform.commands.selftest import DEFAULT_SEED
from qaconform.pytest.seed_draws import (
    CHARSET_ROLES,
    CHARSET_SENDERS,
    charset_senders_for_seed,
    draws_at,
    order_for_seed,
    private_reply_parent_for_seed,
    unwikifier_for_seed,
)
from qaconform.reference import faults
from qaconform.target.client import ApiClient
from qaconform.target.profile import profile_from_dict
from qaconform.target.recording import Recorder


class _Echo(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.dumps({"content-type": self.headers.get("Content-Type")}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
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


def _sent_type(base: str, role: str, **kw: Any) -> str:
    p = profile_from_dict({"base_url": base, "accounts": {r: {"username": r, "password": "pw"} for r in
                                                           ("admin", "moderator", "member", "novice")},
                           "fixtures": {"question_id": 10, "space_id": 1}})
    client = ApiClient(p, role, role, "pw", Recorder())
    try:
        return str(json.loads(client.post("/x", **kw).content)["content-type"])
    finally:
        client.close()


def test_the_drawn_half_types_its_bodies_with_a_charset_and_the_other_half_bare(echo: str) -> None:
    saved = ApiClient.charset_roles
    ApiClient.charset_roles = CHARSET_ROLES["member and moderator"]
    try:
        assert _sent_type(echo, "member", json={"body": "x"}) == "application/json; charset=UTF-8"
        assert _sent_type(echo, "moderator", data={"body": "x"}) == "application/x-www-form-urlencoded; charset=UTF-8"
        assert _sent_type(echo, "novice", json={"body": "x"}) == "application/json"
        assert _sent_type(echo, "admin", data={"body": "x"}) == "application/x-www-form-urlencoded"
        named = _sent_type(echo, "member", data=b"{}", headers={"Content-Type": "application/json"})
        assert named == "application/json", "a Content-Type the test names is sent as named"
    finally:
        ApiClient.charset_roles = saved


def test_no_role_sends_a_charset_outside_a_run() -> None:
    """A process that starts no run (load, doctor, init) types bare media types. Checked in a fresh interpreter: in this
    one a kit test's own in-process run may have left the class's roles set (CI, 2026-12-01: member and moderator)."""
    code = "from qaconform.target.client import ApiClient; print(sorted(ApiClient.charset_roles))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_the_two_halves_split_every_client_role_between_them() -> None:
    halves = [CHARSET_ROLES[value] for value in CHARSET_SENDERS]
    assert not halves[0] & halves[1]
    assert halves[0] | halves[1] == {"admin", "moderator", "member", "novice", "anonymous", "wrong_password"}
    # each half holds a publisher and an answer-writing account (member publishes; novice's answer is moderated)
    assert "member" in halves[0] and "novice" in halves[1] and "admin" in halves[1]


def test_sixteen_consecutive_seeds_draw_every_combination_of_the_four_dimensions() -> None:
    assert charset_senders_for_seed(DEFAULT_SEED) == "member and moderator"
    for start in (0, 5, DEFAULT_SEED, 2**31 - 16):
        combos = {(charset_senders_for_seed(s), order_for_seed(s), unwikifier_for_seed(s),
                   private_reply_parent_for_seed(s)) for s in range(start, start + 16)}
        assert len(combos) == 16, (start, len(combos))


def test_the_job_fault_names_its_half_and_the_selftest_runs_it_at_a_seed_that_draws_it() -> None:
    draw = ("charset senders=admin, novice and anonymous",)
    assert faults.FAULTS["paths17-job-json-charset-refused"].draws == draw
    for start in (DEFAULT_SEED, DEFAULT_SEED + 8, 3):
        at = selftest_seeds.fault_seed("paths17-job-json-charset-refused", start)
        assert draws_at(draw, at) and start <= at < start + 16, (start, at)
