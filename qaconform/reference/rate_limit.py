"""The variant rate-limit-20rps: a gateway in front of the site that answers 429 with Retry-After when one account
sends more than about 20 requests a second (variants.py).

Staging servers sit behind such gateways; the interface description says nothing of them, so a kit must take a
429 as the target's pace, never as a broken rule. A token bucket per account (by its Authorization header, as a
gateway sees it without knowing the site's users) and one for anonymous callers: RATE tokens a second, BURST at
most. A refused request carries ``Retry-After`` in delta-seconds for accounts and as an HTTP-date for anonymous
callers: gateways write either form, so a run against this variant meets both.
"""

from __future__ import annotations

import math
import threading
import time
from email.utils import formatdate

from starlette.requests import Request
from starlette.responses import Response

from .http_io import json_response

RATE = 20.0
"""Requests a second each account may send, on average."""
BURST = 20.0
"""Requests an account may send at once after a quiet second."""

_buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, monotonic time of that count)
_lock = threading.Lock()


def reset() -> None:
    """Every account's bucket full again (a new server)."""
    with _lock:
        _buckets.clear()


def refused(request: Request) -> Response | None:
    """The 429 for a caller over its rate, or None to let the request through (and take one token)."""
    key = request.headers.get("authorization") or "anonymous"
    with _lock:
        now = time.monotonic()
        tokens, then = _buckets.get(key, (BURST, now))
        tokens = min(BURST, tokens + (now - then) * RATE)
        if tokens >= 1.0:
            _buckets[key] = (tokens - 1.0, now)
            return None
        _buckets[key] = (tokens, now)
        wait_s = max(1, math.ceil((1.0 - tokens) / RATE))
    retry = formatdate(time.time() + wait_s, usegmt=True) if key == "anonymous" else str(wait_s)
    return json_response({"error": f"rate limit: at most {RATE:g} requests a second per account; retry later"},
                         429, {"Retry-After": retry})
