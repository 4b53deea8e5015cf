"""The one base user every load user derives from: authenticated as a profile role, every response checked.

Why a custom ``call`` instead of ``FastHttpUser.rest()``: rest() decodes the body to text (with charset
detection when the header has none) before parsing, and the generator's CPU is the scarcest thing in a load
test; here the bytes are parsed once and the checks of :mod:`qaconform.load.locust_checks` run on them. Every request
is named by its operationId, so Locust groups statistics per operation and never per URL with ids in it.
"""

from __future__ import annotations

import base64
import json
import random
import time
from typing import Any, ClassVar

import gevent
from geventhttpclient.header import Headers
from locust import FastHttpUser
from locust.contrib.fasthttp import FAILURE_EXCEPTIONS

from qaconform.contract import API_PREFIX
from qaconform.contract import path as op_path
from qaconform.load.body import decode_capped, too_big
from qaconform.load.cookies import QuickCookieJar
from qaconform.load.locust_checks import GONE, PARSE_EVERY, CheckFailure, Expect, check_response
from qaconform.load.locust_checks import OK_LIST as OK_LIST_PAGE
from qaconform.load.pacing import Pacer
from qaconform.target.created_id import created_id

from . import hooks
from .settings import SETTINGS

_HEADERS_GET = {"Accept": "application/json", "Accept-Encoding": "gzip, deflate"}
_HEADERS_BODY = {**_HEADERS_GET, "Content-Type": "application/json"}
_NO_CONTEXT: dict[str, Any] = {}
_QUESTIONS = op_path("listQuestions")
MAX_BODY = SETTINGS.profile.max_response_bytes
TIMEOUT_S = SETTINGS.profile.timeout_s
_BLOCK = 65536
WRITE_POLL_S = 0.05
"""How often :meth:`QaUser.may_write_within` looks for the rate's next write."""


class DeadlinePassed(BaseException):  # noqa: N818 - a signal, like gevent.Timeout, not an error
    """Thrown into a user's greenlet when one request (answer and body) outlives the profile's timeout_s.

    Its own type, not gevent.Timeout: geventhttpclient retries (then reports as RetriesExceeded) anything that is
    a gevent.Timeout. The timer behind it is one repeating loop timer per user, re-armed with ``again()`` for
    each request (0.2 µs; a new gevent.Timeout costs 2 µs, and a stopped-then-started timer would resume with
    its *remaining* time, firing after timeout_s of cumulated request time).
    """


def _throw_deadline(glet: Any) -> None:
    glet.throw(DeadlinePassed)


def basic_auth(username: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode("ascii")


def read_body(resp: Any, cap: int = MAX_BODY) -> bytes:
    """The whole body, but never more than ``cap`` bytes of it in memory (nor after decompression).

    The common answer (a Content-Length within the cap, no encoding) is read in one call; a longer declared
    length fails without reading; a chunked or compressed body is read in blocks and counted.
    """
    headers = resp.headers
    encoding = headers.get("content-encoding") if "content-encoding" in headers else None  # no KeyError path
    length = headers.get("content-length")
    if isinstance(length, str) and length.isdecimal() and int(length) > cap:
        resp.release()
        raise too_big("Content-Length")
    if encoding is None and length is not None:
        return bytes(resp.read())
    chunks = []
    total = 0
    while True:
        block = resp.read(_BLOCK)
        if not block:
            break
        total += len(block)
        if total > cap:
            resp.release()
            raise too_big("body")
        chunks.append(block)
    return decode_capped(b"".join(chunks), encoding if isinstance(encoding, str) else None, cap)


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
        jar = QuickCookieJar()  # Locust's session and its user agent share one jar: replace it in both
        self.client.cookiejar = self.client.client.cookiejar = jar
        self.pacer: Pacer | None = None
        self.account = SETTINGS.profile.accounts[self.role]
        auth = {"Authorization": basic_auth(self.account.username, self.account.password)}
        # built once as geventhttpclient's own Headers: the user agent merges a Headers object into each request's
        # by copying its entries (a plain dict goes through Headers.__setitem__ per header, 1.4 µs a request more)
        self.get_headers = Headers({**_HEADERS_GET, **auth})
        self.body_headers = Headers({**_HEADERS_BODY, **auth})
        self.fire_request = environment.events.request.fire
        self.root = self.host.rstrip("/") + API_PREFIX
        self.rng = random.Random()
        self.calls = 0
        self.deadline = gevent.get_hub().loop.timer(TIMEOUT_S, TIMEOUT_S)
        self.last_content: bytes | None = None

    def on_start(self) -> None:
        rate = SETTINGS.rate_per_user
        if rate > 0:
            interval = 1.0 / rate
            offset = self.rng.random() * interval  # spread users over the interval: no synchronized bursts
            gevent.sleep(offset)
            self.pacer = Pacer(interval, time.perf_counter(), hooks.PACING)

    @staticmethod
    def created_id(js: Any, resp: Any) -> int | None:
        """The id of what a 201 created (None for any other answer, or no answer)."""
        if resp is None or resp.status_code != 201:
            return None
        location = resp.headers.get("location") if resp.headers is not None else None
        return created_id(js, location if isinstance(location, str) else None)

    @staticmethod
    def may_write() -> bool:
        """Take one write from this process's budget (hooks.BUDGET) if the rate and the total allow one now; a task
        that gets False makes :meth:`read_instead` (one request per task, whatever the budget)."""
        return hooks.BUDGET.take()

    @staticmethod
    def may_write_within(seconds: float) -> bool:
        """:meth:`may_write`, waiting up to ``seconds`` for the rate to allow one. For a task set's first write of an
        operation only: in a mixed run the writers take every token as it comes, and a class of one user (the
        administrator's refused data-protection jobs) could go a whole short run without one, so that its operation
        was never measured (CI of stop 57: an 8 s mixed run with no scheduleGdprJob). The rate still holds: the
        wait only takes the next token, it adds none."""
        deadline = time.monotonic() + seconds
        while not hooks.BUDGET.ready():
            if hooks.BUDGET.spent_for_good() or time.monotonic() >= deadline:
                return hooks.BUDGET.take()  # counts the write held back, as a task's own try would
            gevent.sleep(WRITE_POLL_S)
        return hooks.BUDGET.take()

    def read_instead(self) -> None:
        """The read a write task makes when the budget allows no write: page 1 of the question list (BrowseTasks
        makes its own weighted list read instead)."""
        self.call("listQuestions", "GET", _QUESTIONS, OK_LIST_PAGE, parse=self.sample())

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
        js = None
        exc: Exception | None = None
        content = None
        resp: Any = None
        deadline = self.deadline
        deadline.again(_throw_deadline, gevent.getcurrent())
        try:
            if body is None:
                resp = self.client._send_request_safe_mode(method, url, headers=self.get_headers)
            else:
                resp = self.client._send_request_safe_mode(method, url, payload=json.dumps(body),
                                                           headers=self.body_headers)
            if resp.status_code == 0:
                exc = CheckFailure("status_expected", f"no HTTP answer ({type(getattr(resp, 'error', None)).__name__})")
            else:
                content = read_body(resp)
        except CheckFailure as e:
            exc = e
        except FAILURE_EXCEPTIONS as e:
            exc = e
        except DeadlinePassed:
            exc = CheckFailure("total_time", f"no complete answer within timeout_s={SETTINGS.profile.timeout_s:g}s")
            if resp is not None:
                resp.release()
        finally:
            deadline.stop()
        elapsed_ms = (time.perf_counter() - t0) * 1000
        self.last_content = content
        if exc is None:
            try:
                ctype = resp.headers.get("content-type")
                js = check_response(resp.status_code, ctype if isinstance(ctype, str) else None, content, expect,
                                    parse)
            except CheckFailure as e:
                exc = e
        if self.pacer is not None:
            late_ms = (t0 - self.pacer.next_start) * 1000
            hooks.intended(op, elapsed_ms + late_ms if late_ms > 0 else elapsed_ms)
        if method != "GET":
            hooks.BUDGET.record(op, resp.status_code if resp is not None else 0,
                                js if js is not None else getattr(exc, "body", None))
        if isinstance(exc, CheckFailure):
            exc.name_rule(op, resp.status_code if resp is not None else 0, expect)  # failures only: off the hot path
        if exc is None and expect.gone and resp.status_code in expect.gone:
            op = f"{op} {GONE}"  # not judged: the learnt item is no longer shown (Expect.gone)
        self.fire_request(
            request_type=method, name=op, response_time=elapsed_ms, response_length=len(content) if content else 0,
            response=resp, context=_NO_CONTEXT, exception=exc, start_time=start_time, url=url)
        return js, resp
