"""The write budget of a load run: how fast and how much the load may write to the target, and what it wrote.

Why a budget: load runs against a shared staging server, and a 30 s ``mixed`` run once left 1,167 answers and
1,820 comments there, which nothing removes. Every request that is not a read (POST, PUT) counts; a write task
that finds no write allowed makes a read instead, so a run that spent its budget keeps reading for its duration
(and an open-model run keeps its schedule: one request per task).

Each Locust process holds one :class:`WriteBudget`: the whole budget when it runs alone, its share
(:func:`shares`) when it is one of several workers; the master hands the shares out when the test starts. No
locust or gevent here (the Locust processes import it; so do `qaconform load` and the kit's tests): one process
runs its users as greenlets, so :meth:`WriteBudget.available` then :meth:`WriteBudget.take` with nothing
between them cannot be raced.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

ONE_SHOT = " (one-shot)"
"""Suffix of the request name of a state change sent once per run to a one-shot fixture of the profile (unfavorite,
cancelwiki): whether an earlier run consumed the fixture is unknown to the load, so its refusal is a failure row of
its own name, counted and shown, and not judged against the target."""


def is_one_shot(name: str) -> bool:
    return name.endswith(ONE_SHOT)


@dataclass(frozen=True)
class Limits:
    """A budget: at most ``max_writes`` writes sent (None: no total) at ``max_write_rps`` per second (None: no rate)."""

    max_writes: int | None
    max_write_rps: float | None

    def as_dict(self) -> dict[str, Any]:
        return {"max_writes": self.max_writes, "max_write_rps": self.max_write_rps}


def shares(limits: Limits, n: int) -> list[Limits]:
    """The budget split between ``n`` worker processes: the rate evenly, the total in whole writes (the first
    ``max_writes % n`` workers one more), so that the shares add up to the budget exactly."""
    n = max(1, n)
    rate = None if limits.max_write_rps is None else limits.max_write_rps / n
    if limits.max_writes is None:
        return [Limits(None, rate)] * n
    base, extra = divmod(limits.max_writes, n)
    return [Limits(base + (1 if i < extra else 0), rate) for i in range(n)]


@dataclass
class Tally:
    """Writes per request name: sent, accepted (a 2xx, and no ``success: false`` in it), refused (a 4xx, or a 2xx
    with ``success: false``); the rest got no answer or another status."""

    sent: int = 0
    accepted: int = 0
    refused: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"sent": self.sent, "accepted": self.accepted, "refused": self.refused}


def outcome(status: int, body: Any) -> str:
    """``accepted``, ``refused`` or ``other`` for one write's answer (status 0: no HTTP answer)."""
    if 200 <= status < 300:
        return "refused" if isinstance(body, dict) and body.get("success") is False else "accepted"
    if 400 <= status < 500:
        return "refused"
    return "other"


@dataclass
class WriteBudget:
    """One process's budget (a token bucket for the rate, a counter for the total) and the tally of its writes.

    The bucket holds at most one second of writes (at least one) and starts with one: a run never opens with a
    burst. ``limits`` None means the share is not known yet (a worker before the master's message): no write.
    """

    limits: Limits | None
    clock: Callable[[], float] = time.monotonic
    spent: int = 0
    held_back: dict[str, int] = field(default_factory=lambda: {"rate": 0, "total": 0, "share_unknown": 0})
    by_name: dict[str, Tally] = field(default_factory=dict)
    total_spent: bool = False
    """This process spent its whole total (a later write was held back for it)."""
    _tokens: float = 1.0
    _last: float | None = None

    def set_limits(self, limits: Limits) -> None:
        self.limits = limits
        self._tokens, self._last = 1.0, None

    def _refill(self) -> float:
        assert self.limits is not None
        now = self.clock()
        rate = self.limits.max_write_rps
        if rate is not None:
            if self._last is not None:
                self._tokens = min(max(1.0, rate), self._tokens + (now - self._last) * rate)
            self._last = now
        return self._tokens

    def available(self) -> bool:
        """Whether a write may be sent now (nothing is taken); counts why not."""
        if self.limits is None:
            self.held_back["share_unknown"] += 1
            return False
        if self.limits.max_writes is not None and self.spent >= self.limits.max_writes:
            self.held_back["total"] += 1
            self.total_spent = True
            return False
        if self.limits.max_write_rps is not None and self._refill() < 1.0:
            self.held_back["rate"] += 1
            return False
        return True

    def ready(self) -> bool:
        """Whether :meth:`take` would give a write now, counting nothing held back (a task waiting for one polls)."""
        if self.limits is None or (self.limits.max_writes is not None and self.spent >= self.limits.max_writes):
            return False
        return self.limits.max_write_rps is None or self._refill() >= 1.0

    def spent_for_good(self) -> bool:
        """No write will come any more: the total is spent (a share not known yet may still come)."""
        return (self.limits is not None and self.limits.max_writes is not None
                and self.spent >= self.limits.max_writes)

    def take(self) -> bool:
        """Take one write from the budget if one is available now."""
        if not self.available():
            return False
        if self.limits is not None and self.limits.max_write_rps is not None:
            self._tokens -= 1.0
        self.spent += 1
        return True

    def record(self, name: str, status: int, body: Any) -> None:
        """A write sent under request ``name`` and how the target answered it."""
        t = self.by_name.get(name)
        if t is None:
            t = self.by_name[name] = Tally()
        t.sent += 1
        result = outcome(status, body)
        if result == "accepted":
            t.accepted += 1
        elif result == "refused":
            t.refused += 1

    def drain(self) -> dict[str, Any]:
        """What was tallied since the last drain (a worker ships it to the master with its stats report)."""
        out = {"by_name": {n: t.as_dict() for n, t in self.by_name.items()}, "held_back": dict(self.held_back),
               "total_spent": self.total_spent}
        self.by_name = {}
        self.held_back = dict.fromkeys(self.held_back, 0)
        return out


@dataclass
class WriteTotals:
    """Tallies of every process merged (the master's, or the only process's): ``latency.json``'s ``writes``."""

    limits: Limits
    processes: int = 1
    by_name: dict[str, Tally] = field(default_factory=dict)
    held_back: dict[str, int] = field(default_factory=dict)
    shares_spent: int = 0

    def merge(self, part: Mapping[str, Any]) -> None:
        for name, t in (part.get("by_name") or {}).items():
            mine = self.by_name.setdefault(name, Tally())
            mine.sent += int(t.get("sent", 0))
            mine.accepted += int(t.get("accepted", 0))
            mine.refused += int(t.get("refused", 0))
        for why, n in (part.get("held_back") or {}).items():
            self.held_back[why] = self.held_back.get(why, 0) + int(n)

    def as_dict(self) -> dict[str, Any]:
        return {**self.limits.as_dict(), "processes": self.processes, "shares_spent": self.shares_spent,
                "by_name": {n: t.as_dict() for n, t in sorted(self.by_name.items())},
                "held_back": dict(self.held_back)}


def summarize(raw: Mapping[str, Any] | None, elapsed_s: float) -> dict[str, Any] | None:
    """The summary's ``writes`` from ``latency.json``'s: totals, per operation, the rate made, the budget reached."""
    if not raw:
        return None
    by_name = raw.get("by_name") or {}
    sent = sum(int(t.get("sent", 0)) for t in by_name.values())
    accepted = sum(int(t.get("accepted", 0)) for t in by_name.values())
    refused = sum(int(t.get("refused", 0)) for t in by_name.values())
    max_writes = raw.get("max_writes")
    held = raw.get("held_back") or {}
    reached = bool(int(held.get("total", 0)) > 0 or (max_writes is not None and sent >= max_writes))
    return {"max_writes": max_writes, "max_write_rps": raw.get("max_write_rps"), "sent": sent,
            "accepted": accepted, "refused": refused,
            "rps": round(sent / elapsed_s, 2) if elapsed_s > 0 else None,
            "budget_reached": reached, "processes": raw.get("processes", 1),
            "shares_spent": raw.get("shares_spent", 0), "held_back": dict(held),
            "by_operation": {n: dict(t) for n, t in sorted(by_name.items())}}


def one_shot_refusals(writes: Mapping[str, Any] | None) -> dict[str, int]:
    """Refusals of one-shot fixture calls per request name: failure rows, but not the target's to answer for."""
    if not writes:
        return {}
    return {n: int(t.get("refused", 0)) for n, t in (writes.get("by_operation") or {}).items()
            if is_one_shot(n) and t.get("refused")}
