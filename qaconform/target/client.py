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
import ssl
import time
import zlib
from collections.abc import Callable, Iterable
from typing import Any, ClassVar
from urllib.parse import urlencode, urljoin, urlsplit

import requests.auth
import urllib3

from qaconform.errors import Unreachable
from qaconform.target import holdback
from qaconform.target.curl_line import curl_line, reproduce_with, shell_data
from qaconform.target.exchange_log import log_exchange
from qaconform.target.politeness import PACE, Limits, limiter_for
from qaconform.target.profile import Profile
from qaconform.target.recording import BODY_KEEP, REDACTED, Exchange, Recorder
from qaconform.target.transport import WATCH, WATCHDOG, Cutoff, Transport, dropped, not_http, tls_hint
from qaconform.target.unusable_answer import call_line, not_json_rules
from qaconform.target.writes import WriteBudget, WriteBudgetSpent

__all__ = ["REDACTED", "ApiClient", "ApiResponse", "BasicAuth", "Exchange", "Recorder", "TargetError",
           "TargetUnreachable", "basic_auth", "shell_data", "write_label"]


class TargetError(AssertionError):
    """The target answered something the kit cannot use (not JSON, too big, too slow, a foreign redirect).

    It is an AssertionError on purpose: it is the target's fault, so a test that meets it *fails*; it is not an
    error of the kit. ``curl``: how to send the request again, when the answer came (the results file records it, so
    the report shows it for a failure met in a session fixture, whose exchange the test did not record). ``rules``:
    the rules the answer itself broke, when the call alone says so (a 2xx that is not JSON:
    :mod:`qaconform.target.unusable_answer`); a test that made the call only as a step toward its own rules is then
    *blocked* by them, not failed. ``call``: that call in one line, for the blocked tests' report.
    """

    def __init__(self, message: str, *, curl: str | None = None, rules: tuple[str, ...] = (),
                 call: str | None = None) -> None:
        super().__init__(message)
        self.curl = curl
        self.rules = rules
        self.call = call


class TargetUnreachable(Unreachable):
    """No HTTP answer at all (refused, DNS, TLS, timeout before the status line).

    An :class:`qaconform.errors.Unreachable`, so one a command does not catch still ends it with the exit code of
    "the target did not answer" and this message, not a traceback."""


class _Dropped(Exception):
    """A read the target dropped before answering: :meth:`ApiClient._send_once` sends it once more."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


_RESENDABLE = frozenset({"GET", "HEAD"})
"""Methods sent again when the connection was dropped before any answer: reads, which change nothing."""


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
            rules = not_json_rules(self.exchange.method, self.url, self.status)
            named = f"[{', '.join(rules)}] " if rules else ""
            # the story first, in one line (qa16: the terminal shows a failure's first line, and a lock's URL with the
            # kit's prompt filled all of it): the call without its query, what came back; then the URL as sent
            call = call_line(self.exchange.method, self.url, self.status, self.exchange.role)
            raise TargetError(
                f"{named}{call.replace(' -> ', ' answered ', 1)} with a body that is not JSON (Content-Type "
                f"{self.content_type or 'missing'}): {snippet!r}\nsent: {self.exchange.method} {self.url}\n"
                f"{reproduce_with(self.curl)}",
                curl=self.curl, rules=rules, call=call,
            ) from None

    def describe(self) -> str:
        """One paragraph for an assertion message: what was asked, what came back, how to reproduce."""
        body = self.exchange.response_body[:600]  # as recorded: redacted (a debug page may echo the credentials)
        return (
            f"{self.exchange.method} {self.url} -> {self.status} ({self.content_type or 'no Content-Type'})\n"
            f"body: {body}\n{reproduce_with(self.curl)}"
        )

    def __repr__(self) -> str:
        return f"<ApiResponse {self.status} {self.exchange.method} {self.url}>"


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


CHARSET = "; charset=UTF-8"
"""The media-type parameter the accounts of ``ApiClient.charset_roles`` add to the Content-Type the client types."""


def _encode_body(json: Any, data: bytes | str | dict[str, Any] | None, hdrs: dict[str, str],
                 parameter: str = "") -> bytes | None:
    """The request body: ``json`` as JSON, a dict ``data`` as a form, text or bytes as they are; sets the
    Content-Type in ``hdrs`` for the first two unless given (``parameter`` appended: :data:`CHARSET` or nothing)."""
    if json is not None:
        hdrs.setdefault("Content-Type", "application/json" + parameter)
        return jsonlib.dumps(json).encode()
    if isinstance(data, dict):
        hdrs.setdefault("Content-Type", "application/x-www-form-urlencoded" + parameter)
        return urlencode(data).encode()
    if isinstance(data, str):
        return data.encode()
    return data


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

    def header(self) -> str:
        """The Authorization value (made when a request is sent, never kept in a field or passed as an argument)."""
        user = self.username if isinstance(self.username, bytes) else str(self.username).encode("utf-8")
        word = self.password if isinstance(self.password, bytes) else str(self.password).encode("utf-8")
        return "Basic " + base64.b64encode(user + b":" + word).decode("ascii")

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

    charset_roles: ClassVar[frozenset[str]] = frozenset()
    """The roles whose JSON and form-encoded bodies go under a Content-Type carrying :data:`CHARSET` (a body whose
    Content-Type the caller gives keeps it): the run's seeded half of the accounts (``seed_draws.CHARSET_SENDERS``,
    set by the pytest plugin; paths17, issue 44). Empty elsewhere: the doctor, cleanup, the load harness."""

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
        self.http = Transport(profile.verify_tls)  # never an environment proxy: credentials go to the target only
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
        body = _encode_body(json, data, hdrs, CHARSET if self.role in ApiClient.charset_roles else "")
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
                if pool is not None and ApiClient.write_budget is not None:
                    ApiClient.write_budget.kept(pool)
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
            rec.note_created(self.role, url, content, resp_headers.get("location"),
                             body if isinstance(body, bytes) else None)
        elif write and method.upper() != "POST" and status is not None and 200 <= status < 300:
            rec.note_changed(self.role, url, label)  # clean26: a state change no delete undoes
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
        pool = budget.reserve_from(budget.pool)
        if pool is None:
            pool = budget.pool
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
            if pool is not None and ApiClient.write_budget is not None:
                ApiClient.write_budget.kept(pool)
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
        """One request, within the profile's politeness limits (time spent waiting for them is not the target's).

        A request whose connection the target dropped before any answer is sent once more, on a new connection:
        servers close idle keep-alive connections (uvicorn after 5 s, gateways after a minute or so), and a request
        that set out on one just as it closed gets a reset. That race is the transport's, not a verdict: two CI-like
        builds in five against the reference server ended "blocked: the target gave no answer" (exit 3) on one such
        reset, a GET and a POST. A read is sent again after any such drop; a write only when it went out on a
        kept-alive connection (the race above: the server closed the connection, it did not read the request), as
        browsers do, and never when its own new connection was dropped (a second POST could create a second answer).
        A target that drops the request again is unreachable, as before."""
        for attempt in (1, 2):
            try:
                if self._limiter is None:
                    return self._send_now(method, url, hdrs, body, deadline)
                with self._limiter.slot() as waited:
                    return self._send_now(method, url, hdrs, body, deadline + waited)
            except _Dropped as exc:
                if attempt == 2 or time.monotonic() >= deadline:
                    raise TargetUnreachable(exc.message) from None
                self.http.close()  # the pool's other idle connections may be as stale as this one was
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    def _send_now(
        self, method: str, url: str, hdrs: dict[str, str], body: bytes | None, deadline: float
    ) -> tuple[int, dict[str, str], bytes, str]:
        remaining = max(0.5, deadline - time.monotonic())
        cutoff = Cutoff()
        WATCH.cutoff = cutoff
        armed = WATCHDOG.arm(remaining, cutoff)
        try:
            try:
                r = self.http.send(method, url, dict(hdrs), body, min(remaining, 10.0), remaining)
            except (urllib3.exceptions.SSLError, ssl.SSLError) as exc:
                raise TargetUnreachable(
                    f"TLS to {urlsplit(url).netloc} failed ({_short(exc)}); {tls_hint(exc)}") from None
            except (urllib3.exceptions.ProtocolError, urllib3.exceptions.NewConnectionError,
                    urllib3.exceptions.TimeoutError, OSError) as exc:
                if cutoff.fired.is_set() or isinstance(exc, urllib3.exceptions.ReadTimeoutError):
                    raise TargetUnreachable(
                        f"{method} {url}: no complete status line and headers within timeout_s="
                        f"{self.profile.timeout_s}s (the target answers too slowly, or not at all)"
                    ) from None
                if not_http(exc):
                    raise TargetError(f"{method} {url}: the answer is not valid HTTP ({_short(exc)})") from None
                if dropped(exc) and (method in _RESENDABLE or cutoff.reused):
                    raise _Dropped(f"{method} {url}: no answer ({_short(exc)})") from None
                raise TargetUnreachable(f"{method} {url}: no answer ({_short(exc)})") from None
            except (urllib3.exceptions.HTTPError, http.client.HTTPException, ValueError) as exc:
                raise TargetError(f"{method} {url}: the answer is not valid HTTP ({_short(exc)})") from None
            finally:
                WATCH.cutoff = None
            whole = False
            try:
                headers = {k.lower(): v for k, v in r.headers.items()}
                raw = self._read_capped(r, url, deadline)
                whole = True
                if cutoff.fired.is_set():
                    raise TargetError(f"{url}: the body did not end within timeout_s={self.profile.timeout_s}s")
                content = _decode(raw, headers.get("content-encoding", ""), self.profile.max_response_bytes, url)
                return r.status, headers, content, url
            except TargetError:
                if cutoff.fired.is_set():
                    raise TargetError(
                        f"{url}: the response body did not end within timeout_s={self.profile.timeout_s}s"
                    ) from None
                raise
            finally:
                self.http.done(r, whole and not cutoff.fired.is_set())
        finally:
            WATCHDOG.disarm(armed)

    def _read_capped(self, r: urllib3.BaseHTTPResponse, url: str, deadline: float) -> bytes:
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
                chunk = r.read1(65536, decode_content=False)
                if not chunk:
                    break
                size += len(chunk)
                if size > cap:
                    raise TargetError(f"{url}: response body larger than max_response_bytes={cap}; not read further")
                chunks.append(chunk)
        except TargetError:
            raise
        except Exception as exc:  # urllib3 protocol errors, read timeouts, wrong Content-Length
            if dropped(exc):  # the connection was reset mid-body: no answer to judge, not a broken rule
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
        binary = None
        if sent is not None:
            try:
                sent.decode("utf-8")
            except UnicodeDecodeError:
                binary = base64.b64encode(sent[:BODY_KEEP]).decode("ascii")
        shown_url = rec.redact(url)
        ex = Exchange(
            role=self.role,
            method=method,
            url=shown_url,
            status=status,
            request_headers={k: rec.redact(v) for k, v in req_headers.items()},
            request_body=None if body_text is None else body_text[:BODY_KEEP],
            response_headers={k: rec.redact(v) for k, v in resp_headers.items() if k != "set-cookie"},
            response_body=rec.redact(content[:BODY_KEEP].decode("utf-8", errors="replace")),
            elapsed_ms=round((time.monotonic() - started) * 1000, 2),
            curl=curl_line(self.role, method, shown_url, hdrs, sent, authed),
            operation=operation,
            request_body_base64=binary,
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
