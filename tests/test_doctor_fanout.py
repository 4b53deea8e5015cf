"""The doctor's reads go together (qaconform.target.fanout), and that changes nothing but the time they take.

Against a target whose answers come back in another order than the requests went (a proxy holding each request a
different time), a concurrent examination must find exactly what a serial one finds, in the same order, from the
same requests; it must never have more requests in flight than ``[safety] max_concurrency`` allows, and with 1 it
sends them one at a time, as before.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from delay_proxy import DelayProxy

from qaconform.reference import ReferenceServer
from qaconform.target.client import Recorder
from qaconform.target.doctor import examine
from qaconform.target.profile import Profile, load_profile


class _JitterProxy(DelayProxy):
    """Holds each request 5 to 60 ms, drawn anew (seeded): later requests often overtake earlier ones."""

    @property  # type: ignore[override]
    def delay_s(self) -> float:
        return self._rng.uniform(0.005, 0.06)

    @delay_s.setter
    def delay_s(self, value: float) -> None:  # DelayProxy.__init__ sets it: the draw replaces it
        self._rng = random.Random(31)


@pytest.fixture(scope="module", params=["profile-without-ids", "one-shots-consumed"])
def jittered(request: pytest.FixtureRequest) -> Iterator[tuple[Profile, _JitterProxy]]:
    """A reference server (ids to discover; one-shot fixtures consumed: findings of every kind) behind the proxy."""
    with ReferenceServer(variants=(request.param,)) as srv, _JitterProxy(srv.url, 0.0) as proxy:
        yield load_profile(srv.profile_path), proxy


@pytest.fixture(autouse=True)
def _one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The limits are this process's alone (under xdist a worker would get a share of them)."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)


def _through(profile: Profile, proxy: DelayProxy, max_concurrency: int | None) -> Profile:
    return replace(profile, base_url=proxy.url,
                   safety=profile.safety.model_copy(update={"max_concurrency": max_concurrency}))


def _examined(profile: Profile, proxy: DelayProxy) -> tuple[dict[str, Any], Counter[tuple[str, str, str]], int]:
    """The findings as plain data, the requests sent (role, method, URL) and the most the proxy had at once."""
    proxy.stats.reset()
    rec = Recorder(secrets=set(profile.passwords()), keep=10_000)
    found = examine(profile, rec).as_dict()
    return found, Counter((e.role, e.method, e.url) for e in rec.exchanges), proxy.stats.max_in_flight


def test_concurrent_reads_find_what_serial_reads_find_in_the_same_order(
        jittered: tuple[Profile, _JitterProxy]) -> None:
    profile, proxy = jittered
    serial, serial_sent, serial_most = _examined(_through(profile, proxy, 1), proxy)
    together, together_sent, together_most = _examined(_through(profile, proxy, None), proxy)
    assert serial_most == 1
    assert together_most > 1, "the doctor's independent reads were sent one after another"
    assert together == serial  # findings (messages, order), ids, unusable fixtures, one-shot choices
    assert together_sent == serial_sent
    assert {m for _, m, _ in together_sent} == {"GET"}


@pytest.mark.parametrize("cap", [1, 2])
def test_never_more_in_flight_than_max_concurrency(jittered: tuple[Profile, _JitterProxy], cap: int) -> None:
    profile, proxy = jittered
    _, sent, most = _examined(_through(profile, proxy, cap), proxy)
    assert sum(sent.values()) > 10
    assert most == cap  # up to the limit (the doctor has four accounts' reads to send at once), never over it
