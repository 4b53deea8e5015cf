"""Passwords are redacted where they are kept, so that whatever prints an object (pytest's tracebacks and
``--showlocals``, hypothesis's falsifying examples, reprs, pretty printers) prints no secret; and what only text
can carry is scrubbed before a reporter or the terminal sees it."""

from __future__ import annotations

import base64
import pprint
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from _pytest._io.saferepr import saferepr
from hypothesis.vendor.pretty import pretty

from qaconform.pytest.redaction import scrub, scrub_report
from qaconform.report.redact import StreamScrubber
from qaconform.target.client import ApiClient, shell_data
from qaconform.target.profile import Profile, profile_from_dict

PASSWORD = "Src-Secret-9f1c"
TOKEN = base64.b64encode(f"qa-member:{PASSWORD}".encode()).decode()


def profile() -> Profile:
    accounts = {role: {"username": f"qa-{role}", "password": PASSWORD} for role in ("admin", "moderator", "novice")}
    accounts["member"] = {"username": "qa-member", "password_env": "QC_TEST_MEMBER_PW"}
    return profile_from_dict({"base_url": "http://127.0.0.1:9", "accounts": accounts,
                              "fixtures": {"question_id": 1, "space_id": 1}}, env={"QC_TEST_MEMBER_PW": PASSWORD})


def shown_by_every_printer(value: object) -> str:
    return "\n".join((repr(value), saferepr(value, maxsize=100_000), pretty(value), pprint.pformat(value)))


def test_a_profile_and_its_accounts_print_no_password() -> None:
    p = profile()
    assert p.accounts["member"].password == PASSWORD, "the client still needs the value"
    for value in (p, p.accounts, p.accounts["member"], p.accounts["member"].password, p.passwords()):
        assert PASSWORD not in shown_by_every_printer(value), f"{type(value).__name__} printed the password"


def test_a_client_and_the_auth_it_hands_to_libraries_print_no_password() -> None:
    p = profile()
    client = ApiClient(p, "member", "qa-member", p.accounts["member"].password)
    kwargs = {"base_url": p.base_url, "auth": client.auth, "timeout": 1.0}
    for value in (client, client.auth, kwargs, client.http.auth):
        text = shown_by_every_printer(value)
        assert PASSWORD not in text and TOKEN not in text, text
    assert "'auth': (" not in repr(kwargs)
    client.close()


def test_a_traceback_with_frame_arguments_and_locals_is_scrubbed() -> None:
    """A library frame holding the plain password (requests encodes it) and a message quoting an echo: pytest's
    long representation with --showlocals, once scrubbed, holds neither."""

    def encode(password: str) -> None:
        raw = f"qa-member:{password}"  # a plain str, as requests' _basic_auth_str builds it
        assert raw.startswith("x"), f"target answered: Authorization: Basic {TOKEN}"

    with pytest.raises(AssertionError) as info:
        encode(str(profile().accounts["member"].password))
    longrepr = info.getrepr(style="long", showlocals=True, funcargs=True)
    assert PASSWORD in str(longrepr) and TOKEN in str(longrepr), "the test must start from a leaking traceback"

    def redact(text: str) -> str:
        return text.replace(PASSWORD, "<redacted>").replace(TOKEN, "<redacted>")

    shown = str(scrub(longrepr, redact))
    assert PASSWORD not in shown and TOKEN not in shown, shown
    assert "encode" in shown and "<redacted>" in shown


def test_the_terminal_stream_is_scrubbed_wherever_the_chunks_split_it() -> None:
    text = (f"....F.. kwargs = {{'auth': ('qa-member', '{PASSWORD}')}} Basic {TOKEN} {PASSWORD[:-1]} " * 30).encode()
    expected = text.replace(PASSWORD.encode(), b"<redacted>").replace(TOKEN.encode(), b"<redacted>")
    rng = random.Random(7)
    for _ in range(100):
        scrubber, out, i = StreamScrubber([PASSWORD, TOKEN]), b"", 0
        while i < len(text):
            n = rng.randint(1, 40)
            out += scrubber.feed(text[i:i + n])
            i += n
        assert out + scrubber.flush() == expected
    assert StreamScrubber([PASSWORD]).feed(b"....F...") == b"....F...", "progress dots are not held back"


BODIES = [b'{"body": "caf\xc3\xa9 \'q\'"}', b"\xff\xfe not UTF-8 \\ %s", b"\x1b[31m red \r\n", b"nul \x00 \xff %'\\",
          bytes(range(256))]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed: the curl lines are for bash")
@pytest.mark.parametrize("body", BODIES, ids=["utf8", "not-utf8", "controls", "nul", "every-byte"])
def test_a_reproduce_line_sends_the_body_byte_for_byte(body: bytes, tmp_path: Path) -> None:
    """What ``curl --data-binary WORD`` would send, as bash expands WORD, is exactly the body (no U+FFFD)."""
    word = shell_data(body)
    script = f"cat {word[1:]}" if word.startswith("@") else f"printf %s {word}"
    out = subprocess.run(["bash", "-c", script], capture_output=True, check=True, timeout=10).stdout
    assert out == body, word
    assert "\ufffd" not in word


def test_a_failure_curl_on_the_terminal_names_the_account_and_its_password_variable(tmp_path: Path) -> None:
    """pytest's failure block printed the client's placeholder credentials: pasted, ``$USER`` is the shell's login
    name. The plugin's report says the account's username and the variable the profile names for its password, as the
    report does, and still no password."""
    from dataclasses import replace
    from typing import Any, cast

    from qaconform.pytest.redaction import personalise_report
    from qaconform.pytest.session_target import Target
    from qaconform.target.client import Recorder
    from qaconform.target.curl_line import PLACEHOLDER

    path = tmp_path / "site.toml"
    path.write_text('[accounts.member]\nusername = "qa-member"\npassword_env = "QC_TEST_MEMBER_PW"\n', encoding="utf-8")
    p = replace(profile(), path=str(path))
    target = Target(profile=p, recorder=Recorder(secrets=set(p.passwords())), resolved=cast(Any, None))
    curl = f"curl -sS -i -X GET -u {PLACEHOLDER} 'http://127.0.0.1:9/services/v2/question.json'"

    def fail() -> None:
        raise AssertionError(f"[SHAPE-LIST-QUESTIONS] wrong shape\nReproduce with: {curl}   # as member\n"
                             f"and as admin: {curl}   # as admin")

    with pytest.raises(AssertionError) as info:
        fail()
    report = pytest.TestReport("t.py::test_x", ("t.py", 0, "test_x"), {}, "failed",
                               info.getrepr(style="long"), "call")
    personalise_report(report, target.curl_accounts)
    scrub_report(report, target.recorder.redact)
    shown = str(report.longrepr)
    assert PLACEHOLDER not in shown, shown
    assert '-u "qa-member:$QC_TEST_MEMBER_PW"' in shown, "the profile's own password variable"
    assert '-u "qa-admin:$QACONFORM_ADMIN_PASSWORD"' in shown, "the default variable where the profile names none"
    assert PASSWORD not in shown
