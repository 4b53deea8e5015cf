"""No credential reaches a report file, whatever shape it arrives in."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from report_builders import CATALOG, PLANTED, PLANTED_B64, make_results

from qaconform.report.redact import REDACTED, redact_text, secret_variants
from qaconform.report.writer import build_and_write


@pytest.mark.parametrize("with_profile_secrets", [True, False], ids=["profile-known", "results-only"])
def test_a_planted_password_appears_in_none_of_the_three_files(tmp_path: Path, with_profile_secrets: bool) -> None:
    secrets = secret_variants([PLANTED], ["qa-member"]) if with_profile_secrets else set()
    _, paths = build_and_write(make_results(planted=True), tmp_path, rules=CATALOG, secrets=secrets)
    assert set(paths) == {"junit", "json", "html"}
    for p in paths.values():
        text = p.read_text(encoding="utf-8")
        assert PLANTED not in text, f"password leaked into {p.name}"
        assert PLANTED_B64 not in text, f"Basic credentials leaked into {p.name}"
        assert REDACTED in text or "&lt;redacted&gt;" in text, f"{p.name} shows no redaction marker"


def test_the_failing_exchange_is_still_shown_after_redaction(tmp_path: Path) -> None:
    _, paths = build_and_write(make_results(planted=True), tmp_path, rules=CATALOG)
    html = paths["html"].read_text()
    assert "/services/v2/node/5/comment.json" in html
    assert "$USER:$PASSWORD" in html


@pytest.mark.parametrize("text", [
    "Authorization: Basic YWRtaW46c2VjcmV0",
    'curl -u admin:s3cr3t http://h/x',
    '{"password": "s3cr3t"}',
    "http://admin:s3cr3t@host/path",
    "/login?user=a&password=s3cr3t&x=1",
])
def test_credential_shapes_are_redacted_without_knowing_the_secret(text: str) -> None:
    out = redact_text(text)
    assert "s3cr3t" not in out and "YWRtaW46c2VjcmV0" not in out
    assert REDACTED in out or "$USER:$PASSWORD" in out


def test_the_curl_placeholder_is_left_alone() -> None:
    line = 'curl -sS -i -X GET -u "$USER:$PASSWORD" \'http://h/services/v2/space.json\'   # as admin'
    assert redact_text(line) == line


def test_an_authentication_challenge_is_not_mistaken_for_a_credential() -> None:
    from qaconform.report.redact import redact

    data = {"response_headers": {"www-authenticate": 'Basic realm="Community Q&A"'}, "note": "realm of the site"}
    assert redact(data) == data


_PIECES = ["Basic ", "Bearer ", "dXNlcjpwYXNz", "password", "PassWd", "pwd", "=", ":", '"', "'", " ", "-u ",
           "--user ", "https://", "a:b@", "@", "host", "x", "%3Credacted%3E", "<redacted>", "$PASSWORD", "\\",
           " --user a:b", " -u a:b", "https://u:p@host", 'PASSWORD="x"', "pwd=x", "Basic dXNlcjpwYXNz", "Bearer abcdef"]


@given(st.lists(st.sampled_from(_PIECES), max_size=14).map("".join))
@settings(max_examples=300, deadline=None)
def test_the_patterns_skipped_for_a_text_would_not_have_changed_it(text: str) -> None:
    """``_redact_text`` applies a shape pattern only when its word is in the text (``_NEEDS``): the same result as
    applying every pattern to every text."""
    from qaconform.report import redact as r

    every = text
    for pattern, repl in r._PATTERNS:
        every = pattern.sub(repl, every)
    assert r._redact_text(text, ()) == every


_SECRETS = ["s3cr3t-pass", "dXNlcjpzM2NyM3QtcGFzcw==", "other-pw"]


@given(st.recursive(st.lists(st.sampled_from(_PIECES + _SECRETS + ["ok", "id 5", "s3cr3t"]), max_size=6).map("".join),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(["url", "password", "body", "token", "id"]), inner, max_size=4),
                    max_leaves=12),
       st.lists(st.sampled_from(_SECRETS), max_size=3))
@settings(max_examples=300, deadline=None)
def test_a_text_left_alone_by_the_fast_path_would_not_have_changed(value: object, known: list[str]) -> None:
    """``redact`` skips a text holding no secret and no word a shape pattern needs, and scrubs each distinct text once
    (``_TextScrubber``, issue 44 speed): the same result as scrubbing every text in full."""
    from qaconform.report import redact as r

    secrets = r._longest_first(set(known) | r.harvest_secrets(value))

    def every(v: object) -> object:
        if isinstance(v, str):
            return r._redact_text(v, secrets)
        if isinstance(v, dict):
            return {k: r.REDACTED if r._secret_key(k) and isinstance(x, str | int | float) else every(x)
                    for k, x in v.items()}
        if isinstance(v, list):
            return [every(x) for x in v]
        return v

    assert r.redact(value, known) == every(value)
