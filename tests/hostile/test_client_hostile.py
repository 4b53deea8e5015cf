"""qaconform.target.client.ApiClient against each hostile behaviour: bounded time, bounded memory, a clear error, no
leak.

These are the cheapest proofs that the kit survives a hostile target: every suite test talks to a target through
ApiClient, so if one call ends in bounded time with a typed error (TargetUnreachable: no answer; TargetError: an
answer the kit cannot use), a whole run does too.
"""

from __future__ import annotations

import json
import time
import tracemalloc
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
from hostile_kit import TIMEOUT_S, Secrets
from hostile_server import HostileServer

from qaconform.target.client import ApiClient, Recorder, TargetError, TargetUnreachable
from qaconform.target.profile import Profile, load_profile

MAX_BYTES = 1024 * 1024  # max_response_bytes of the hostile profiles
SLACK_S = 1.5  # what a call may take beyond timeout_s (thread wake-up, connection shutdown)


def _client(profile: Profile, creds: Secrets, role: str = "member") -> ApiClient:
    return ApiClient(profile, role, f"qa-{role}", creds.passwords[role], Recorder())


def _call(client: ApiClient) -> tuple[float, int, object]:
    """One GET; returns (seconds, peak traced bytes, the response or the exception raised)."""
    tracemalloc.start()
    started = time.monotonic()
    try:
        outcome: object = client.get("question.json", params={"pageSize": 1})
    except (TargetError, TargetUnreachable) as exc:
        outcome = exc
    finally:
        elapsed = time.monotonic() - started
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return elapsed, peak, outcome


# behaviour -> (exception type or None for an answer, words the message must hold)
CASES: dict[str, tuple[type[BaseException] | None, str]] = {
    "refused": (TargetUnreachable, "no answer"),
    "silent": (TargetUnreachable, f"within timeout_s={float(TIMEOUT_S)}s"),
    "slow": (TargetUnreachable, f"within timeout_s={float(TIMEOUT_S)}s"),
    "endless": (TargetError, f"did not end within timeout_s={float(TIMEOUT_S)}s"),
    "huge": (TargetError, f"larger than max_response_bytes={MAX_BYTES}"),
    "bad_length": (TargetError, "could not be read"),
    "gzip_bomb": (TargetError, "compression bomb"),
    "huge_headers": (TargetError, "not valid HTTP"),
    "redirect_loop": (TargetError, "redirect loop"),
}


_HOPS = 6
"""The requests a redirect loop costs the client before it stops (the first and 5 redirects: client._follow)."""


def _loop_budget(base_url: str) -> float:
    """timeout_s for the redirect loop, from the need measured now: its 6 hops share one call's timeout_s, and at a
    load of 50 on 2 CPUs six round trips to the threaded test server took more than the 2 s the other cases get
    (the body of the sixth hop cut at timeout_s=2 instead of "redirect loop", qa16). The slowest of three single hops,
    sent the way the client sends them, times the hop count, three times over; never below the others' 2 s. What
    is asserted stays the same: the loop ends within this budget with its own typed error."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(base_url)
    slowest = 0.0
    tracemalloc.start()  # as in _call: tracing every allocation slows the client's hops several times over
    try:
        for _ in range(3):
            conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
            started = time.monotonic()
            conn.request("GET", "/services/v2/question.json?pageSize=1")
            conn.getresponse().read()
            slowest = max(slowest, time.monotonic() - started)
            conn.close()
    finally:
        tracemalloc.stop()
    return max(float(TIMEOUT_S), round(3 * _HOPS * slowest, 1))


@pytest.mark.parametrize("behaviour", sorted(CASES))
def test_client_call_ends_in_time_with_a_typed_error(
    behaviour: str, hostile: Callable[..., HostileServer], write_profile: Callable[..., Path], creds: Secrets
) -> None:
    srv = hostile(behaviour)
    timeout_s = _loop_budget(srv.url) if behaviour == "redirect_loop" else TIMEOUT_S
    profile = load_profile(write_profile(srv.url, timeout_s=timeout_s))
    client = _client(profile, creds)
    elapsed, peak, outcome = _call(client)
    kind, words = CASES[behaviour]
    assert kind is not None and isinstance(outcome, kind), f"{behaviour}: expected {kind}, got {outcome!r}"
    assert words in str(outcome), f"{behaviour}: message lacks {words!r}: {outcome}"
    assert elapsed < timeout_s + SLACK_S, f"{behaviour}: the call took {elapsed:.1f}s with timeout_s={timeout_s}"
    assert peak < 4 * MAX_BYTES, f"{behaviour}: {peak} bytes traced for a cap of {MAX_BYTES}"
    recorded = json.dumps([e.as_dict() for e in client.recorder.exchanges])
    assert not creds.leaks_in(recorded + str(outcome))


@pytest.mark.parametrize("behaviour,status,ctype", [
    ("html", 200, "text/html"),
    ("badjson", 200, "application/json"),
    ("html401", 401, "text/html"),
])
def test_answer_that_is_not_json_fails_with_what_came_instead(
    behaviour: str, status: int, ctype: str, hostile: Callable[..., HostileServer],
    write_profile: Callable[..., Path], creds: Secrets,
) -> None:
    srv = hostile(behaviour)
    client = _client(load_profile(write_profile(srv.url)), creds)
    r = client.get("question.json")
    assert r.status == status
    with pytest.raises(TargetError, match="not JSON") as info:
        r.json()
    assert ctype in str(info.value) and "Reproduce with: curl" in str(info.value)
    assert not creds.leaks_in(str(info.value))


def test_stack_trace_echoing_the_authorization_header_is_redacted(
    hostile: Callable[..., HostileServer], write_profile: Callable[..., Path], creds: Secrets
) -> None:
    srv = hostile("trace500")
    client = _client(load_profile(write_profile(srv.url)), creds)
    r = client.get("question.json")
    assert r.status == 500
    token = creds.forms()[creds.forms().index(creds.passwords["member"]) + 1]
    assert token in r.text, "the hostile server should have echoed the Authorization header"
    shown = json.dumps(r.exchange.as_dict()) + r.describe() + r.curl
    assert not creds.leaks_in(shown), "the recorded exchange shows the credential the target echoed"
    assert "<redacted>" in r.exchange.response_body


def test_redirect_to_another_host_is_not_followed_with_credentials(
    hostile: Callable[..., HostileServer], write_profile: Callable[..., Path], creds: Secrets
) -> None:
    srv = hostile("redirect_foreign")
    assert srv.foreign is not None
    client = _client(load_profile(write_profile(srv.url)), creds)
    r = client.get("question.json")
    assert r.status == 302 and "localhost" in r.headers["location"]
    assert srv.seen[0].authorization, "the first hop (same origin) should carry the credentials"
    assert [s.authorization for s in srv.foreign.seen if s.authorization] == []


def test_self_signed_tls_is_refused_by_default_with_the_profile_key_to_change(
    hostile: Callable[..., HostileServer], write_profile: Callable[..., Path], creds: Secrets,
    tls_files: tuple[Path, Path],
) -> None:
    srv = hostile("ok", tls_files=tls_files)
    strict = _client(load_profile(write_profile(srv.url)), creds)
    with pytest.raises(TargetUnreachable, match="verify_tls = false"):
        strict.get("question.json")
    assert srv.count == 0, "a request went through a certificate the client should have refused"
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        lax = _client(load_profile(write_profile(srv.url, extra="verify_tls = false")), creds)
        assert lax.get("question.json").status == 200
    assert srv.count == 1
    unverified = [str(w.message) for w in warned if "Unverified HTTPS" in str(w.message)]
    assert unverified == [], "verify_tls = false is the profile's choice: no warning per request"


@pytest.mark.slow
def test_client_stops_sending_after_three_requests_in_a_row_time_out(
    hostile: Callable[..., HostileServer], write_profile: Callable[..., Path], creds: Secrets
) -> None:
    srv = hostile("endless")
    client = _client(load_profile(write_profile(srv.url)), creds)
    started = time.monotonic()
    for _ in range(3):
        with pytest.raises(TargetError, match="did not end"):
            client.get("question.json")
    with pytest.raises(TargetError, match="not sent: the last 3 requests"):
        client.get("question.json")
    assert srv.count == 3
    assert time.monotonic() - started < 3 * (TIMEOUT_S + SLACK_S)


@pytest.mark.slow
def test_client_tries_one_request_again_after_holding_back(
    hostile: Callable[..., HostileServer], write_profile: Callable[..., Path], creds: Secrets
) -> None:
    srv = hostile("endless")
    client = _client(load_profile(write_profile(srv.url)), creds)
    client.recorder.retry_after_s = 0.5
    for _ in range(3):
        with pytest.raises(TargetError, match="did not end"):
            client.get("question.json")
    with pytest.raises(TargetError, match="not sent"):
        client.get("question.json")
    time.sleep(0.6)
    with pytest.raises(TargetError, match="did not end"):  # the probe is sent, and the target still hangs
        client.get("question.json")
    assert srv.count == 4


def test_a_complete_answer_resets_the_count_of_late_requests(
    hostile: Callable[..., HostileServer], write_profile: Callable[..., Path], creds: Secrets
) -> None:
    slow, ok = hostile("endless"), hostile("ok")
    rec = Recorder()
    late = ApiClient(load_profile(write_profile(slow.url)), "member", "qa-member", creds.passwords["member"], rec)
    fine = ApiClient(load_profile(write_profile(ok.url)), "member", "qa-member", creds.passwords["member"], rec)
    for _ in range(2):
        with pytest.raises(TargetError):
            late.get("question.json")
    assert fine.get("question.json").status == 200
    assert rec.late_in_row == 0
