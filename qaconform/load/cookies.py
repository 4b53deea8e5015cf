"""A cookie jar for the load users that costs nothing on the requests where it has nothing to do.

Locust's FastHttpSession keeps a stdlib :class:`http.cookiejar.CookieJar` and geventhttpclient calls it twice per
request: ``add_cookie_header`` before sending, ``extract_cookies`` after the answer. The stdlib does a full pass in
both even when the jar is empty and the answer sets no cookie (lock, clock, a domain walk, an expiry sweep, two
header lookups and policy checks): about a tenth of a load generator's CPU against an API that sets no cookie
(bench/bench_load.py), CPU that a generator needs for requests.

:class:`QuickCookieJar` is that jar with two early returns, and nothing else changed: an empty jar adds no header
(the stdlib adds none either), and an answer without ``Set-Cookie``/``Set-Cookie2`` stores nothing (the stdlib's own
``make_cookies`` returns no cookie then). A target that does set cookies (a session cookie after Basic auth) gets
exactly the stdlib's handling, so the load users still carry their session like a real client.
"""

from __future__ import annotations

from http.cookiejar import CookieJar
from typing import Any


class QuickCookieJar(CookieJar):
    """:class:`http.cookiejar.CookieJar`, minus the work on requests where there is none (see the module)."""

    def add_cookie_header(self, request: Any) -> None:
        if not self._cookies:  # type: ignore[attr-defined]  # the stdlib's own store: {domain: {path: {name: C}}}
            return
        super().add_cookie_header(request)

    def extract_cookies(self, response: Any, request: Any) -> None:
        headers = response.info()
        if "set-cookie" not in headers and "set-cookie2" not in headers:
            return
        super().extract_cookies(response, request)
