"""The one base user every load user derives from: authenticated as a profile role, every response checked.

Why a custom ``call`` instead of ``FastHttpUser.rest()``: rest() decodes the body to text (with charset
detection when the header has none) before parsing, and the generator's CPU is the scarcest thing in a load
test; here the bytes are parsed once and the checks of :mod:`qaconform.load.checks` run on them. Every request
is named by its operationId, so Locust groups statistics per operation and never per URL with ids in it.
"""

from __future__ import annotations

import base64
import random
import re
import time
from typing import Any, ClassVar
from urllib.parse import quote

import gevent
from locust import FastHttpUser

from qaconform.load.checks import CheckFailure, Expect, check_response
from qaconform.load.pacing import Pacer

from . import hooks
from .settings import SETTINGS

API = "/services/v2"
_HEADERS_GET = {"Accept": "application/json"}
_HEADERS_BODY = {"Accept": "application/json", "Content-Type": "application/json"}
_TRAILING_ID = re.compile(r"/(\d+)(?:[/.][^/]*)?$")
_PLAIN = re.compile(r"[A-Za-z0-9_.,-]*")
PARSE_EVERY = 8
"""A list answer not needed for its content is parsed (and its envelope fully checked) once in this many calls
per user; the others get the byte-level envelope check. Parsing costs the generator more than the request."""


def query(params: dict[str, Any]) -> str:
    """``urlencode`` for our few plain parameters, at a fraction of its cost (it runs on every request)."""
    parts = []
    for k, v in params.items():
        s = str(v)
        parts.append(f"{k}={s if _PLAIN.fullmatch(s) else quote(s, safe=',')}")
    return "&".join(parts)


def basic_auth(username: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode("ascii")


def new_id(js: Any, location: str | None) -> int | None:
    """The id of a created node: the body's ``id`` (a string for answers), else the last number of Location."""
    if isinstance(js, dict) and js.get("id") is not None:
        try:
            return int(js["id"])
        except (TypeError, ValueError):
            return None
    if location:
        m = _TRAILING_ID.search(location.split("?", 1)[0])
        if m:
            return int(m.group(1))
    return None


def _wait_time(user: QaUser) -> float:
    if user.pacer is not None:
        return user.pacer.wait(time.perf_counter())
    return SETTINGS.wait_ms / 1000.0


class QaUser(FastHttpUser):
    """Abstract: a profile account (``role``) making checked, operation-named requests."""

    abstract = True
    role: ClassVar[str] = "member"
    host = SETTINGS.profile.base_url
    network_timeout = SETTINGS.profile.timeout_s
    connection_timeout = SETTINGS.profile.timeout_s
    insecure = not SETTINGS.profile.verify_tls
    max_redirects = 0
    wait_time = _wait_time

    def __init__(self, environment: Any) -> None:
        super().__init__(environment)
        self.pacer: Pacer | None = None
        self.account = SETTINGS.profile.accounts[self.role]
        self.client.auth_header = basic_auth(self.account.username, self.account.password)
        self.rng = random.Random()
        self.calls = 0

    def on_start(self) -> None:
        rate = SETTINGS.rate_per_user
        if rate > 0:
            interval = 1.0 / rate
            offset = self.rng.random() * interval  # spread users over the interval: no synchronized bursts
            gevent.sleep(offset)
            self.pacer = Pacer(interval, time.perf_counter(), hooks.PACING)

    def sample(self) -> bool:
        """True once in PARSE_EVERY calls of this user: parse this list answer although its content is not needed."""
        self.calls += 1
        return self.calls % PARSE_EVERY == 0

    def call(self, op: str, method: str, path: str, expect: Expect, params: dict[str, Any] | None = None,
             body: Any = None, parse: bool = True) -> tuple[Any, Any]:
        """One checked request; returns (parsed body or None, response). A failed check is a Locust failure.

        ``parse=False`` (list answers whose content the caller does not need) checks the envelope on the bytes.
        """
        url = API + path
        if params:
            url += "?" + query(params)
        headers = _HEADERS_GET if body is None else _HEADERS_BODY
        with self.client.request(method, url, name=op, headers=headers, json=body, catch_response=True) as r:
            try:
                js = check_response(r.status_code, r.headers.get("content-type") if r.headers else None,
                                    r.content, expect, parse)
            except CheckFailure as exc:
                r.failure(exc)
                return None, r
            r.success()
            return js, r
