"""A target that holds the run back: 429 (and 503 with ``Retry-After``) as the target's pace, never a verdict.

Staging servers sit behind gateways that answer 429 when one account sends more than some number of requests a
second. Such an answer says nothing about the interface: the request was not looked at. So the client waits as
told and sends the same request again, instead of handing the 429 to a test that expected 200 (issue 31 item 4:
14 tests of one suite file failed "expected 200 -> 429"). A 503 is a hold-back only when it says when to come back
(``Retry-After``); a bare 503 is an answer like any other, for the rules to judge.

Waiting is bounded twice, so that a gateway that never lets go cannot hold a run for hours: one wait is at most
:data:`CAP_S` (a target that asks for more is not waited for at all), and a test waits at most
:data:`TEST_BUDGET_S` in all. Past either, the request is given up: the running test is not checked ("held back
by the target's rate limit"), never failed. Plain data and no pytest: the client asks :func:`hold_of` and
:func:`wait_for`, the plugin decides what a given-up request does to the running test.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

CAP_S = 30.0
"""The longest single wait the kit takes; a target that asks for longer is given up at once (its test not checked)."""
TEST_BUDGET_S = 90.0
"""The most one test waits as told, all its requests together (its fixtures' included)."""
UNTOLD_S = 1.0
"""The first wait after a 429 that says no ``Retry-After``; doubled for each further hold of the same request."""
FLOOR_S = 0.25
"""The shortest wait (``Retry-After: 0`` would otherwise resend at once, as fast as the gateway refuses)."""
MAX_TRIES = 12
"""Sends of one request at most (the first and its retries), whatever the waits: every loop is bounded."""


@dataclass(frozen=True)
class Hold:
    """An answer that holds the run back: its status and the seconds ``Retry-After`` asked for (None: not told)."""

    status: int
    told_s: float | None


def retry_after_s(value: str | None, now: datetime | None = None) -> float | None:
    """The seconds a ``Retry-After`` value asks for: delta-seconds or an HTTP-date (RFC 9110 10.2.3); a date in the
    past is 0. None for a missing or unreadable value (the caller then chooses its own wait)."""
    if value is None:
        return None
    text = value.strip()
    if text.isdecimal():
        return float(int(text))
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:  # an HTTP-date is always GMT; parsedate gives naive for "-0000"
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def hold_of(status: int | None, headers: dict[str, str]) -> Hold | None:
    """The hold-back an answer is, or None for an answer the test should see: any 429, a 503 with Retry-After."""
    told = retry_after_s(headers.get("retry-after"))
    if status == 429:
        return Hold(429, told)
    if status == 503 and told is not None:
        return Hold(503, told)
    return None


def wait_for(hold: Hold, tries: int) -> float:
    """Seconds to wait before sending a held-back request again (``tries``: sends so far, 1 after the first): what
    the target asked for, else :data:`UNTOLD_S` doubled per try; never under :data:`FLOOR_S`. May exceed
    :data:`CAP_S`: :func:`give_up_why` decides."""
    if hold.told_s is not None:
        return max(FLOOR_S, hold.told_s)
    return max(FLOOR_S, UNTOLD_S * 2.0 ** max(0, tries - 1))


def give_up_why(hold: Hold, wait_s: float, tries: int, waited_s: float) -> str | None:
    """Why the request is not waited for again, or None to wait ``wait_s`` and resend. ``waited_s``: what the
    running test has waited as told so far."""
    told = "" if hold.told_s is None else f" (Retry-After {_seconds(hold.told_s)})"
    if wait_s > CAP_S:
        return f"the target answered {hold.status}{told}: longer than the kit waits at once ({CAP_S:g} s)"
    if tries >= MAX_TRIES:
        return f"the target answered {hold.status}{told} to {tries} sends of the same request"
    if waited_s + wait_s > TEST_BUDGET_S:
        return (f"the target answered {hold.status}{told} after this test had waited {waited_s:.1f} s as told "
                f"(at most {TEST_BUDGET_S:g} s per test)")
    return None


def _seconds(s: float) -> str:
    return f"{math.ceil(s)} s" if s < 10 ** 7 else "far in the future"


class HeldBack(Exception):
    """A request the target held back longer than the kit waits: no answer to judge. Not an AssertionError (it is
    not the target breaking a rule) and not TargetUnreachable (the target answers)."""
