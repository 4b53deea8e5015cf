"""The one base user every load user derives from: authenticated as a profile role, every response checked.

Why a custom ``call`` instead of ``FastHttpUser.rest()``: rest() decodes the body to text (with charset
detection when the header has none) before parsing, and the generator's CPU is the scarcest thing in a load
test; here the bytes are parsed once and the checks of :mod:`qaconform.load.checks` run on them. Every request
is named by its operationId, so Locust groups statistics per operation and never per URL with ids in it.
"""

from __future__ import annotations

import base64
import json
import random
import re
import time
from typing import Any, ClassVar

import gevent
from locust import FastHttpUser
from locust.contrib.fasthttp import FAILURE_EXCEPTIONS

from qaconform.load.checks import CheckFailure, Expect, check_response
from qaconform.load.pacing import Pacer

from . import hooks
from .settings import SETTINGS

API = "/services/v2"
_HEADERS_GET = {"Accept": "application/json", "Accept-Encoding": "gzip, deflate"}
_HEADERS_BODY = {**_HEADERS_GET, "Content-Type": "application/json"}
_NO_CONTEXT: dict[str, Any] = {}
_TRAILING_ID = re.compile(r"/(\d+)(?:[/.][^/]*)?$")
PARSE_EVERY = 8
"""A list answer not needed for its content is parsed (and its envelope fully checked) once in this many calls
per user; the others get the byte-level envelope check. Parsing costs the generator more than the request."""


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
        auth = {"Authorization": basic_auth(self.account.username, self.account.password)}
        self.get_headers = {**_HEADERS_GET, **auth}
        self.body_headers = {**_HEADERS_BODY, **auth}
        self.root = self.host.rstrip("/") + API
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

    def call(self, op: str, method: str, path: str, expect: Expect, qs: str = "", body: Any = None,
             parse: bool = True) -> tuple[Any, Any]:
        """One checked request; returns (parsed body or None, response). A failed check is a Locust failure.

        ``qs`` is the query string, built by the caller from plain values (``urlencode`` on every request costs
        more than the checks). ``parse=False`` (list answers whose content the caller does not need) checks the
        envelope on the bytes. The request goes through Locust's own safe-mode send (what
        ``FastHttpSession.request`` uses) and this method fires the request event itself: the with-block of
        ``catch_response`` costs more per request than all our checks together.
        """
        url = f"{self.root}{path}?{qs}" if qs else self.root + path
        start_time = time.time()
        t0 = time.perf_counter()
        if body is None:
            resp = self.client._send_request_safe_mode(method, url, headers=self.get_headers)
        else:
            resp = self.client._send_request_safe_mode(method, url, payload=json.dumps(body),
                                                       headers=self.body_headers)
        js = None
        exc: Exception | None = None
        content = None
        try:
            content = resp.content
        except FAILURE_EXCEPTIONS as e:
            exc = e
        elapsed_ms = (time.perf_counter() - t0) * 1000
        if exc is None:
            status = resp.status_code
            if status == 0:
                err = getattr(resp, "error", None)
                exc = CheckFailure("status_expected", f"no HTTP answer ({type(err).__name__})")
            else:
                try:
                    ctype = resp.headers.get("content-type") if resp.headers is not None else None
                    js = check_response(status, ctype if isinstance(ctype, str) else None, content, expect, parse)
                except CheckFailure as e:
                    exc = e
        if self.pacer is not None:
            late_ms = (t0 - self.pacer.next_start) * 1000
            hooks.HIST_INTENDED.add(op, elapsed_ms + late_ms if late_ms > 0 else elapsed_ms)
        self.environment.events.request.fire(
            request_type=method, name=op, response_time=elapsed_ms, response_length=len(content) if content else 0,
            response=resp, context=_NO_CONTEXT, exception=exc, start_time=start_time, url=url)
        return js, resp
