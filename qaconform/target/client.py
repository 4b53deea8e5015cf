"""HTTP client for a target: one session per account, bounded in time and size, recording for reproduction.

Why not plain ``requests``: a target we did not write may answer one byte a second, send a gzip bomb, redirect
credentials to another host or never end its body. Every call here ends within ``timeout_s`` (plus one read
timeout), holds at most ``max_response_bytes`` in memory, follows redirects only on the same origin, and
records a redacted copy of the exchange with a copy-paste ``curl`` so that a failing test can show it.
"""

from __future__ import annotations

import base64
import http.client
import json as jsonlib
import re
import shlex
import socket
import threading
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar
from urllib.parse import urlencode, urljoin, urlsplit

import requests
import requests.auth
from requests.adapters import HTTPAdapter
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from qaconform.target import holdback
from qaconform.target.created_id import created_id
from qaconform.target.exchange_log import log_exchange
from qaconform.target.politeness import PACE, Limits, limiter_for
from qaconform.target.profile import Profile
from qaconform.target.settle import Settled
from qaconform.target.writes import WriteBudget, WriteBudgetSpent

REDACTED = "<redacted>"
_BODY_KEEP = 4000  # characters of a body kept in a recorded exchange


class TargetError(AssertionError):
    """The target answered something the kit cannot use (not JSON, too big, too slow, a foreign redirect).

    It is an AssertionError on purpose: it is the target's fault, so a test that meets it *fails*; it is not an
    error of the kit.
    """


class TargetUnreachable(Exception):
    """No HTTP answer at all (refused, DNS, TLS, timeout before the status line)."""


@dataclass
class Exchange:
    """A redacted request/response pair, kept for the report and the curl line."""

    role: str
    method: str
    url: str
    status: int | None
    request_headers: dict[str, str]
    request_body: str | None
    response_headers: dict[str, str]
    response_body: str
    elapsed_ms: float
    curl: str
    operation: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return dict(vars(self))


_CREATED_KINDS = (("/answer.json", "answer"), ("/comment.json", "comment"), ("/schedule.json", "gdpr-job"))
"""What a 201 to a POST on a path ending so created (for the created-ids list of the report)."""


@dataclass
class Recorder:
    """Collects exchanges for the test that is running; the pytest plugin reads and resets it per test."""

    secrets: set[str] = field(default_factory=set)
    exchanges: list[Exchange] = field(default_factory=list)
    keep: int = 30
    total: int = 0
    late_in_row: int = 0  # requests in a row that used their whole timeout_s without a complete answer
    give_up_after: int = 3  # then stop sending: a hanging target would otherwise cost timeout_s per test
    retry_after_s: float = 30.0  # ... except one request this long after the last late one (it may have recovered)
    last_late: float = 0.0
    created: list[dict[str, Any]] = field(default_factory=list)  # every 201 to a POST, whoever sent it
    settle_reads: int = 0  # read-backs after a write this test made (support.settle)
    settle_waits: list[dict[str, Any]] = field(default_factory=list)  # those that read more than once, or never settled
    writes: dict[str, dict[str, int]] = field(default_factory=dict)
    """Writes of the running test per operation: ``{"postAnswer": {"sent": 3, "accepted": 2, "held": 1}}`` (held:
    not sent, the write budget was spent)."""

    pool_writes: dict[str, dict[str, int]] = field(default_factory=dict)
    """The same per pool of the write budget they were taken from (a fixture may serve another test's share)."""

    holds: dict[str, Any] = field(default_factory=dict)
    """Hold-backs of the running test (429, 503 with Retry-After): ``{"times": 2, "waited_s": 2.0, "statuses":
    {"429": 2}, "paced_s": 0.4, "given_up": [why]}``."""
    tap: ClassVar[Callable[[Exchange], None] | None] = None
    """Called with every exchange of every recorder of the process (``qaconform.pytest.exchange_log``: the run's
    interface coverage and its HAR cassettes), besides the last ``keep`` each recorder holds for its test."""

    def note_write(self, operation: str, what: str, pool: str | None = None) -> None:
        """One write of ``operation``: ``sent``, ``accepted`` (a 2xx) or ``held`` (not sent: budget spent)."""
        counts = self.writes.setdefault(operation, {"sent": 0, "accepted": 0, "held": 0})
        counts[what] += 1
        if pool is not None:
            self.pool_writes.setdefault(pool, {"sent": 0, "accepted": 0, "held": 0})[what] += 1

    def take_writes(self) -> dict[str, Any] | None:
        """This test's writes for the results file (``writes``: per operation, and per pool when a budget counted
        them), and a fresh count for the next test."""
        out = {"operations": self.writes, **({"pools": self.pool_writes} if self.pool_writes else {})}
        self.writes, self.pool_writes = {}, {}
        return out if out["operations"] else None

    def note_settle(self, how: Settled) -> None:
        """One read-back: counted; kept when it had to wait for the target's lists (or never saw the write)."""
        self.settle_reads += 1
        if how.reads > 1 or not how.settled:
            self.settle_waits.append(how.as_dict())

    def take_settles(self) -> dict[str, Any] | None:
        """This test's read-backs for the results file (``settle``), and a fresh count for the next test."""
        out = {"reads": self.settle_reads, "waits": self.settle_waits} if self.settle_reads else None
        self.settle_reads, self.settle_waits = 0, []
        return out

    def note_hold(self, status: int, waited_s: float, given_up: str | None = None) -> None:
        """One answer that held the running test back (qaconform.target.holdback): waited ``waited_s`` as told, or
        ``given_up`` (why the request was not sent again)."""
        h = self.holds
        h["times"] = int(h.get("times", 0)) + 1
        h["waited_s"] = round(float(h.get("waited_s", 0.0)) + waited_s, 3)
        statuses = h.setdefault("statuses", {})
        statuses[str(status)] = statuses.get(str(status), 0) + 1
        if given_up is not None:
            h.setdefault("given_up", []).append(given_up)

    def note_paced(self, waited_s: float) -> None:
        """Time the running test waited for the pace a hold-back lowered (not for the profile's own limits)."""
        if waited_s >= 0.001:
            self.holds["paced_s"] = round(float(self.holds.get("paced_s", 0.0)) + waited_s, 3)

    @property
    def held_s(self) -> float:
        """What the running test has waited as told so far (its budget: holdback.TEST_BUDGET_S)."""
        return float(self.holds.get("waited_s", 0.0))

    def take_holds(self) -> dict[str, Any] | None:
        """This test's hold-backs for the results file (``held_back``), and a fresh count for the next test."""
        out, self.holds = self.holds, {}
        return out or None

    def note_outcome(self, late: bool) -> None:
        self.late_in_row = self.late_in_row + 1 if late else 0
        if late:
            self.last_late = time.monotonic()

    def holding_back(self) -> bool:
        """Whether the target has hung often enough, and recently enough, that the next request is not sent."""
        return (bool(self.give_up_after) and self.late_in_row >= self.give_up_after
                and time.monotonic() - self.last_late < self.retry_after_s)

    def note_created(self, role: str, url: str, content: bytes, location: str | None) -> None:
        """Remember what a POST created, so the report lists it even when the test that sent it did not."""
        path = urlsplit(url).path
        kind = next((k for suffix, k in _CREATED_KINDS if path.endswith(suffix)), "content")
        body: Any = None
        if len(content) < 65536:
            try:
                body = jsonlib.loads(content)
            except (ValueError, UnicodeDecodeError):
                body = None
        new_id: Any
        if kind == "gdpr-job":  # a job's id: its type is not shown, so it is kept as the target sent it
            new_id = body.get("jobId") if isinstance(body, dict) else None
        else:
            new_id = created_id(body, location)
        self.created.append({"kind": kind, "id": new_id, "by": role, "url": self.redact(url)})

    def redact(self, text: str) -> str:
        for s in self.secrets:
            if s and len(s) >= 3:
                text = text.replace(s, REDACTED)
        return text

    def redact_bytes(self, data: bytes) -> bytes:
        """:meth:`redact` for a body as sent, which need not be UTF-8."""
        for s in self.secrets:
            if s and len(s) >= 3 and s.encode() in data:
                data = data.replace(s.encode(), REDACTED.encode())
        return data

    def add(self, ex: Exchange) -> None:
        self.total += 1
        if Recorder.tap is not None:
            Recorder.tap(ex)
        self.exchanges.append(ex)
        if len(self.exchanges) > self.keep:
            del self.exchanges[0]

    def take(self) -> list[Exchange]:
        out, self.exchanges = self.exchanges, []
        return out


class ApiResponse:
    """A finished response: status, headers, the (capped) body, and helpers that fail with clear messages."""

    def __init__(self, status: int, headers: dict[str, str], content: bytes, url: str, exchange: Exchange) -> None:
        self.status = status
        self.headers = headers
        self.content = content
        self.url = url
        self.exchange = exchange

    @property
    def status_code(self) -> int:
        return self.status

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")

    @property
    def curl(self) -> str:
        return self.exchange.curl

    def json(self) -> Any:
        """The body as JSON, or a TargetError that shows what came instead."""
        try:
            return jsonlib.loads(self.content)
        except (ValueError, UnicodeDecodeError):
            snippet = self.exchange.response_body[:200].replace("\n", " ")  # redacted: a target may echo credentials
            raise TargetError(
                f"{self.exchange.method} {self.url} answered {self.status} with a body that is not JSON "
                f"(Content-Type {self.content_type or 'missing'}): {snippet!r}\nReproduce with: {self.curl}"
            ) from None

    def describe(self) -> str:
        """One paragraph for an assertion message: what was asked, what came back, how to reproduce."""
        body = self.exchange.response_body[:600]  # as recorded: redacted (a debug page may echo the credentials)
        return (
            f"{self.exchange.method} {self.url} -> {self.status} ({self.content_type or 'no Content-Type'})\n"
            f"body: {body}\nReproduce with: {self.curl}"
        )

    def __repr__(self) -> str:
        return f"<ApiResponse {self.status} {self.exchange.method} {self.url}>"


@dataclass
class _Cutoff:
    """One request's watchdog. Socket timeouts bound each read, not the whole answer: a target that sends one byte
    a second never trips them. At the deadline the watchdog shuts the connection's socket, so the read fails."""

    conn: Any = None
    fired: threading.Event = field(default_factory=threading.Event)

    def cut(self) -> None:
        self.fired.set()
        sock = getattr(self.conn, "sock", None)
        if sock is not None:
            try:
                socket.socket.shutdown(sock, socket.SHUT_RDWR)  # the plain socket's shutdown, also under TLS
            except OSError:
                pass


class _Watch(threading.local):
    cutoff: _Cutoff | None = None


_WATCH = _Watch()


class _WatchedPool(HTTPConnectionPool):
    def _get_conn(self, timeout: float | None = None) -> Any:
        conn = super()._get_conn(timeout)
        if _WATCH.cutoff is not None:
            _WATCH.cutoff.conn = conn
        return conn


class _WatchedHTTPSPool(HTTPSConnectionPool):
    def _get_conn(self, timeout: float | None = None) -> Any:
        conn = super()._get_conn(timeout)
        if _WATCH.cutoff is not None:
            _WATCH.cutoff.conn = conn
        return conn


# urllib3 names the pool class in its messages; keep the names users know.
_WatchedPool.__name__ = "HTTPConnectionPool"
_WatchedHTTPSPool.__name__ = "HTTPSConnectionPool"


class _DeadlineAdapter(HTTPAdapter):
    """Hands the connection in use to the current :class:`_Cutoff`."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _WatchedPool, "https": _WatchedHTTPSPool}


def _not_http(exc: BaseException) -> bool:
    """Whether a connection error is really an answer that is not valid HTTP (too many headers, a bad status
    line): the target answered, so it is the target's fault, not an unreachable target."""
    chain: list[BaseException] = [exc]
    for e in chain:
        if isinstance(e, http.client.HTTPException) and not isinstance(e, ConnectionError):
            return True
        if len(chain) < 16:
            chain.extend(a for a in e.args if isinstance(a, BaseException))
            chain.extend(c for c in (e.__cause__, e.__context__) if c is not None)
    return False


def _dropped(exc: BaseException) -> bool:
    """Whether a read failed because the target reset or aborted the connection (an overloaded or dying target):
    the kit got no answer to judge, so the test is blocked, never failed."""
    chain: list[BaseException] = [exc]
    for e in chain:
        if isinstance(e, ConnectionResetError | ConnectionAbortedError | BrokenPipeError):
            return True
        if len(chain) < 16:
            chain.extend(a for a in e.args if isinstance(a, BaseException))
            chain.extend(c for c in (e.__cause__, e.__context__) if c is not None)
    return False


def basic_auth(username: str, password: str) -> tuple[bytes, bytes]:
    """Basic credentials for requests, UTF-8 encoded: given text, requests encodes Latin-1, which sends a wrong
    password for an account with a non-ASCII one (and raises beyond Latin-1). UTF-8 is the one charset RFC 7617
    names; everything else of the kit (the load users, the bench) sends UTF-8 too."""
    return username.encode("utf-8"), password.encode("utf-8")


def _with_query(url: str, params: dict[str, Any] | Iterable[tuple[str, Any]] | None) -> str:
    """The URL with ``params`` appended (None values left out)."""
    if not params:
        return url
    items = list(params.items()) if isinstance(params, dict) else list(params)
    q = urlencode([(k, _param(v)) for k, v in items if v is not None])
    return url + ("&" if "?" in url else "?") + q if q else url


def _encode_body(json: Any, data: bytes | str | dict[str, Any] | None, hdrs: dict[str, str]) -> bytes | None:
    """The request body: ``json`` as JSON, a dict ``data`` as a form, text or bytes as they are; sets the
    Content-Type in ``hdrs`` for the first two unless given."""
    if json is not None:
        hdrs.setdefault("Content-Type", "application/json")
        return jsonlib.dumps(json).encode()
    if isinstance(data, dict):
        hdrs.setdefault("Content-Type", "application/x-www-form-urlencoded")
        return urlencode(data).encode()
    if isinstance(data, str):
        return data.encode()
    return data


_NOT_PASTEABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
"""Characters a terminal would act on, or a paste would lose, inside a quoted shell word (newline and tab paste)."""
_PLAIN_BYTES = frozenset(range(0x20, 0x7f)) - {ord("'"), ord("\\")}


def shell_data(body: bytes) -> str:
    """The shell word that makes ``curl --data-binary`` send exactly ``body`` (bash, zsh).

    UTF-8 text without control characters as itself, quoted; any other body (a generated negative case may send
    bytes that are not UTF-8) as ``$'...'`` with ``\\xHH`` escapes, or, holding a NUL (no shell word can), read from
    ``printf`` through process substitution. Never decoded with U+FFFD, which would send other bytes."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None and not _NOT_PASTEABLE.search(text):
        return shlex.quote(text)
    if b"\x00" not in body:
        return "$'" + "".join(chr(b) if b in _PLAIN_BYTES else {0x27: "\\'", 0x5C: "\\\\"}.get(b, f"\\x{b:02x}")
                              for b in body) + "'"
    shown = "".join(chr(b) if b in _PLAIN_BYTES and b != ord("%") else
                    {0x5C: "\\\\", 0x25: "%%"}.get(b, f"\\x{b:02x}") for b in body)
    return f"@<(printf '{shown}')"


def _curl(role: str, method: str, url: str, headers: dict[str, str], body: bytes | None, authed: bool) -> str:
    parts = ["curl", "-sS", "-i", "-X", method]
    if authed:
        parts += ["-u", '"$USER:$PASSWORD"']
    for k, v in headers.items():
        if k.lower() in ("authorization", "user-agent", "accept-encoding", "connection", "content-length"):
            continue
        parts += ["-H", shlex.quote(f"{k}: {v}")]
    if body is not None:
        parts += ["--data-binary", shell_data(body)]
    parts.append(shlex.quote(url))
    line = " ".join(parts)
    return f"{line}   # as {role}" if authed else line


class BasicAuth(requests.auth.HTTPBasicAuth):
    """requests' Basic auth, shown as ``<BasicAuth member:<redacted>>``: the one form in which an account's
    credentials are handed to requests and schemathesis (never the plain ``(username, password)`` tuple, which a
    failing test's traceback prints whole as an argument of every frame it passes through)."""

    def __init__(self, username: str, password: str) -> None:
        """UTF-8 encoded (:func:`basic_auth`): given text, requests would send Latin-1."""
        super().__init__(*basic_auth(username, password))

    def __repr__(self) -> str:
        name = self.username.decode(errors="replace") if isinstance(self.username, bytes) else self.username
        return f"<BasicAuth {name}:{REDACTED}>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """hypothesis's pretty printer (a falsifying example's arguments)."""
        printer.text(repr(self))


class ApiClient:
    """Calls the target as one account (or anonymously). Paths are relative to ``{base_url}/services/v2``."""

    write_guard: ClassVar[Callable[[str, str], None] | None] = None
    """Called before any request that is not a read; the pytest plugin sets it under --read-only to skip the test
    that tries (safety does not rest on every writing test carrying the ``writes`` marker)."""

    write_budget: ClassVar[WriteBudget | None] = None
    """The run's write budget (qaconform.target.writes), set by the pytest plugin: every write is reserved from the
    running test's pool before it is sent and given back when the target refuses it."""

    budget_spent: ClassVar[Callable[[str, str, str], None] | None] = None
    """Called with (pool, method, url) instead of sending a write whose pool is spent; the plugin skips the running
    test there (``SkipKind.WRITE_BUDGET``). Without it the client raises WriteBudgetSpent."""

    held_back: ClassVar[Callable[[str, str, str], None] | None] = None
    """Called with (method, url, why) when the target held a request back longer than the kit waits
    (qaconform.target.holdback); the plugin skips the running test there (``SkipKind.HELD_BACK``: not checked, never
    failed). Without it (the doctor, cleanup) the client returns the last held-back answer as it is."""

    def __init__(
        self,
        profile: Profile,
        role: str,
        username: str | None,
        password: str | None,
        recorder: Recorder | None = None,
        user_id: int | None = None,
    ) -> None:
        self.profile = profile
        self.role = role
        self.username = username
        self.user_id = user_id
        self.recorder = recorder if recorder is not None else Recorder()
        if password:
            self.recorder.secrets.add(password)
        if username is not None and password:
            # A target may echo the request headers (a debug 500 page): the encoded credential is a secret too.
            self.recorder.secrets.add(base64.b64encode(f"{username}:{password}".encode()).decode())
        self._limiter = limiter_for(Limits(profile.safety.max_concurrency, profile.safety.max_rps))
        scheme, netloc = _origin(profile.api_root)
        self._origin = f"{scheme}://{netloc}"
        self._account = username or "anonymous"
        self.http = requests.Session()
        self.http.trust_env = False  # never route credentials through an environment proxy
        self.http.mount("http://", _DeadlineAdapter())
        self.http.mount("https://", _DeadlineAdapter())
        self.http.verify = profile.verify_tls
        self.http.headers.update(
            {"Accept": "application/json", "User-Agent": "qaconform", "Accept-Encoding": "gzip, deflate"}
        )
        self.auth: BasicAuth | None = None
        if username is not None and password is not None:
            self.auth = self.http.auth = BasicAuth(username, password)

    def __repr__(self) -> str:
        return f"<ApiClient {self.role} {self.username or '(anonymous)'}>"

    def url(self, path: str) -> str:
        if path.startswith("http://") or path.startswith("https://"):
            return path
        return self.profile.api_root + "/" + path.lstrip("/")

    def close(self) -> None:
        self.http.close()

    def get(self, path: str, **kw: Any) -> ApiResponse:
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> ApiResponse:
        return self.request("POST", path, **kw)

    def put(self, path: str, **kw: Any) -> ApiResponse:
        return self.request("PUT", path, **kw)

    def request(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | Iterable[tuple[str, Any]] | None = None,
        json: Any = None,
        data: bytes | str | dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        operation: str | None = None,
    ) -> ApiResponse:
        """Send one request and return the finished response. Raises TargetUnreachable or TargetError."""
        url = self.url(path)
        self._may_send(method, url)
        write = method.upper() not in ("GET", "HEAD", "OPTIONS")
        label = operation or write_label(method, url, self.profile.api_root)
        pool = self._reserve_write(method, url, label) if write else None
        url = _with_query(url, params)
        hdrs = dict(headers or {})
        body = _encode_body(json, data, hdrs)
        rec = self.recorder
        given_up: str | None = None
        for tries in range(1, holdback.MAX_TRIES + 1):  # sent again only after a hold-back (429, 503 Retry-After)
            rec.note_paced(PACE.wait(self._origin, self._account))
            started = time.monotonic()
            try:
                sent_method, sent_url, sent_body, status, resp_headers, content = self._follow(
                    method, url, hdrs, body, started + self.profile.timeout_s, self.url(path))
            except (TargetError, TargetUnreachable):
                rec.note_outcome(late=time.monotonic() - started >= self.profile.timeout_s * 0.9)
                self._record(method, url, hdrs, body, None, {}, b"", started, operation)
                raise  # a write without an answer stays spent: the target may have taken it
            hold = holdback.hold_of(status, resp_headers)
            if hold is None:
                break
            given_up = self._wait_out(hold, tries, sent_method, sent_url, started, operation)
            if given_up is not None:
                break
        method, url, body = sent_method, sent_url, sent_body
        rec.note_outcome(late=False)
        if write:
            self._settle_write(pool, label, status)
        if method.upper() == "POST" and status == 201:
            rec.note_created(self.role, url, content, resp_headers.get("location"))
        ex = self._record(method, url, hdrs, body, status, resp_headers, content, started, operation)
        callback = ApiClient.held_back
        if given_up is not None and callback is not None:  # after the write went back to its pool
            callback(method.upper(), url, given_up)
        return ApiResponse(status or 0, resp_headers, content, url, ex)

    def _wait_out(self, hold: holdback.Hold, tries: int, method: str, url: str, started: float,
                  operation: str | None) -> str | None:
        """A held-back answer: wait as told and return None (send again), or give up and return why (the answer is
        returned as it is, unless ``held_back`` skips the running test). The account's pace is lowered either way (a
        503 lowers everyone's)."""
        rec = self.recorder
        wait_s = holdback.wait_for(hold, tries)
        why = holdback.give_up_why(hold, wait_s, tries, rec.held_s)
        log_exchange(self.role, method, rec.redact(url), hold.status, operation, started, held=True)
        # the account (a 503: everyone) is held as long as this request waits, and its pace lowered; a request given
        # up holds nobody: the next ones learn the same at once, and their tests end as quickly
        PACE.held(self._origin, self._account if hold.status == 429 else None, 0.0 if why else wait_s)
        if why is None:
            rec.note_hold(hold.status, wait_s)
            time.sleep(wait_s)
            return None
        rec.note_hold(hold.status, 0.0, given_up=why)
        return why

    def _reserve_write(self, method: str, url: str, label: str) -> str | None:
        """Count a write of ``label`` (its operation) and reserve it from the running test's pool of the write budget
        (returned), or refuse it unsent when that pool is spent (``budget_spent``: the plugin skips the test)."""
        budget = ApiClient.write_budget
        if budget is None:
            self.recorder.note_write(label, "sent")
            return None
        pool = budget.pool
        if not budget.reserve(pool):
            self.recorder.note_write(label, "held", pool)
            spent = ApiClient.budget_spent
            if spent is not None:
                spent(pool, method.upper(), url)
            raise WriteBudgetSpent(f"{method.upper()} {urlsplit(url).path}: not sent: the write budget of "
                                   f"{pool} is spent ({budget.describe()})")
        self.recorder.note_write(label, "sent", pool)
        return pool

    def _settle_write(self, pool: str | None, label: str, status: int | None) -> None:
        """An answered write: accepted (2xx) stays spent; refused, it goes back to its pool."""
        if status is not None and 200 <= status < 300:
            self.recorder.note_write(label, "accepted", pool)
        elif pool is not None and ApiClient.write_budget is not None:
            ApiClient.write_budget.give_back(pool)

    def _may_send(self, method: str, url: str) -> None:
        """Refuse before sending: a write under --read-only (the write guard), or any request to a target that left
        the last ones unanswered (TargetError saying when it is tried again)."""
        guard = ApiClient.write_guard
        if guard is not None and method.upper() not in ("GET", "HEAD", "OPTIONS"):
            guard(method.upper(), url)
        rec = self.recorder
        if rec.holding_back():
            raise TargetError(
                f"{method} {url}: not sent: the last {rec.late_in_row} requests got no complete answer within "
                f"timeout_s={self.profile.timeout_s}s, so the target hangs or is too slow (one request is tried "
                f"again {rec.retry_after_s:.0f}s after the last late one); fix the target (or raise timeout_s in "
                f"{self.profile.path}) and run again"
            )

    def _follow(self, method: str, url: str, hdrs: dict[str, str], body: bytes | None, deadline: float,
                shown: str) -> tuple[str, str, bytes | None, int | None, dict[str, str], bytes]:
        """Send, following at most 5 redirects on the same origin (a 303 becomes a GET without body); the method,
        URL and body finally sent, and the answer to them (a redirect to another origin is returned as it is).
        ``shown``: the URL a redirect loop's message names."""
        for _hop in range(6):
            status, resp_headers, content, _final = self._send_once(method, url, hdrs, body, deadline)
            if status in (301, 302, 303, 307, 308) and "location" in resp_headers:
                target = urljoin(url, resp_headers["location"])
                if _origin(target) != _origin(url):
                    break  # never carry credentials to another host: stop and show the redirect
                url = target
                if status == 303:
                    method, body = "GET", None
                continue
            break
        else:
            raise TargetError(f"{method} {shown}: more than 5 redirects (a redirect loop?)")
        return method, url, body, status, resp_headers, content

    def _send_once(
        self, method: str, url: str, hdrs: dict[str, str], body: bytes | None, deadline: float
    ) -> tuple[int, dict[str, str], bytes, str]:
        """One request, within the profile's politeness limits (time spent waiting for them is not the target's)."""
        if self._limiter is None:
            return self._send_now(method, url, hdrs, body, deadline)
        with self._limiter.slot() as waited:
            return self._send_now(method, url, hdrs, body, deadline + waited)

    def _send_now(
        self, method: str, url: str, hdrs: dict[str, str], body: bytes | None, deadline: float
    ) -> tuple[int, dict[str, str], bytes, str]:
        remaining = max(0.5, deadline - time.monotonic())
        cutoff = _Cutoff()
        timer = threading.Timer(remaining, cutoff.cut)
        timer.daemon = True
        _WATCH.cutoff = cutoff
        timer.start()
        try:
            try:
                r = self.http.request(
                    method, url, data=body, headers=hdrs, timeout=(min(remaining, 10.0), remaining),
                    allow_redirects=False, stream=True,
                )
            except requests.exceptions.SSLError as exc:
                raise TargetUnreachable(
                    f"TLS to {urlsplit(url).netloc} failed ({_short(exc)}); for a self-signed staging certificate "
                    "set verify_tls = false in the profile"
                ) from None
            except (requests.exceptions.ConnectionError, requests.exceptions.Timeout) as exc:
                if cutoff.fired.is_set() or isinstance(exc, requests.exceptions.ReadTimeout):
                    raise TargetUnreachable(
                        f"{method} {url}: no complete status line and headers within timeout_s="
                        f"{self.profile.timeout_s}s (the target answers too slowly, or not at all)"
                    ) from None
                if _not_http(exc):
                    raise TargetError(f"{method} {url}: the answer is not valid HTTP ({_short(exc)})") from None
                raise TargetUnreachable(f"{method} {url}: no answer ({_short(exc)})") from None
            except requests.exceptions.RequestException as exc:
                raise TargetError(f"{method} {url}: the answer is not valid HTTP ({_short(exc)})") from None
            finally:
                _WATCH.cutoff = None
            try:
                headers = {k.lower(): v for k, v in r.headers.items()}
                raw = self._read_capped(r, url, deadline)
                if cutoff.fired.is_set():
                    raise TargetError(f"{url}: the body did not end within timeout_s={self.profile.timeout_s}s")
                content = _decode(raw, headers.get("content-encoding", ""), self.profile.max_response_bytes, url)
                return r.status_code, headers, content, url
            except TargetError:
                if cutoff.fired.is_set():
                    raise TargetError(
                        f"{url}: the response body did not end within timeout_s={self.profile.timeout_s}s"
                    ) from None
                raise
            finally:
                r.close()
        finally:
            timer.cancel()

    def _read_capped(self, r: requests.Response, url: str, deadline: float) -> bytes:
        cap = self.profile.max_response_bytes
        chunks: list[bytes] = []
        size = 0
        try:
            while True:
                if time.monotonic() > deadline:
                    raise TargetError(
                        f"{url}: the response body did not end within timeout_s={self.profile.timeout_s}s "
                        f"({size} bytes received)"
                    )
                chunk = r.raw.read1(65536, decode_content=False)
                if not chunk:
                    break
                size += len(chunk)
                if size > cap:
                    raise TargetError(f"{url}: response body larger than max_response_bytes={cap}; not read further")
                chunks.append(chunk)
        except TargetError:
            raise
        except Exception as exc:  # urllib3 protocol errors, read timeouts, wrong Content-Length
            if _dropped(exc):  # the connection was reset mid-body: no answer to judge, not a broken rule
                raise TargetUnreachable(f"{url}: the connection was dropped mid-answer ({_short(exc)})") from None
            raise TargetError(f"{url}: the response body could not be read ({_short(exc)})") from None
        return b"".join(chunks)

    def _record(
        self,
        method: str,
        url: str,
        hdrs: dict[str, str],
        body: bytes | None,
        status: int | None,
        resp_headers: dict[str, str],
        content: bytes,
        started: float,
        operation: str | None,
    ) -> Exchange:
        rec = self.recorder
        authed = self.http.auth is not None
        req_headers = {"Accept": str(self.http.headers.get("Accept")), **hdrs}
        if authed:
            req_headers["Authorization"] = REDACTED
        sent = None if body is None else rec.redact_bytes(body)
        body_text = None if sent is None else sent.decode("utf-8", errors="backslashreplace")
        shown_url = rec.redact(url)
        ex = Exchange(
            role=self.role,
            method=method,
            url=shown_url,
            status=status,
            request_headers={k: rec.redact(v) for k, v in req_headers.items()},
            request_body=None if body_text is None else body_text[:_BODY_KEEP],
            response_headers={k: rec.redact(v) for k, v in resp_headers.items() if k != "set-cookie"},
            response_body=rec.redact(content[:_BODY_KEEP].decode("utf-8", errors="replace")),
            elapsed_ms=round((time.monotonic() - started) * 1000, 2),
            curl=_curl(self.role, method, shown_url, hdrs, sent, authed),
            operation=operation,
        )
        rec.add(ex)
        log_exchange(self.role, method, shown_url, status, operation, started)
        return ex


_NUMBER_SEGMENT = re.compile(r"/-?\d+(?=/|\.json|$)")


def write_label(method: str, url: str, api_root: str) -> str:
    """A write that names no operation, as its path template: ``POST /answer/{id}/comment.json`` (the report names
    the operation from spec/ where the template matches one)."""
    path = urlsplit(url).path
    root = urlsplit(api_root).path.rstrip("/")
    if root and path.startswith(root):
        path = path[len(root):]
    return f"{method.upper()} {_NUMBER_SEGMENT.sub('/{id}', path)}".strip()


def _param(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _origin(url: str) -> tuple[str, str]:
    p = urlsplit(url)
    return p.scheme, p.netloc.lower()


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) < 200 else text[:200] + "..."


def _decode(raw: bytes, encoding: str, cap: int, url: str) -> bytes:
    """Undo Content-Encoding with an output cap, so a gzip bomb cannot fill memory."""
    enc = encoding.strip().lower()
    if enc not in ("gzip", "deflate", "x-gzip"):
        return raw
    wbits = 16 + zlib.MAX_WBITS if "gzip" in enc else zlib.MAX_WBITS
    d = zlib.decompressobj(wbits)
    try:
        out = d.decompress(raw, cap + 1)
    except zlib.error as exc:
        raise TargetError(f"{url}: Content-Encoding {enc} but the body does not decompress ({exc})") from None
    if len(out) > cap or d.unconsumed_tail:
        raise TargetError(f"{url}: decompressed body larger than max_response_bytes={cap} (a compression bomb?)")
    return out
