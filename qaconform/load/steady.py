"""A load run's figures per window of time, and its steady state: what a capacity step is judged on.

Why windows: a step's whole-run figures mix the warm-up (users starting, connections opening, caches filling) with
the load the step asked for, and they hide a queue that builds up during the step (the p95 of a step whose latency
climbs all the way can still be under its limit). Each Locust process of a capacity step keeps, per window of
``width_s`` seconds (by the time a request ended), the exact histogram of each operation's response times (the
harness's :mod:`~qaconform.load.histogram`), its failures, and the latency counted from each request's intended
start (open model); workers ship them to the master, which writes them into ``latency.json``. Here the windows
after the warm-up and before the last (partial) one are merged into the steady figures, and the trend of the
latency across them says whether a queue was building. Imports neither locust nor gevent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from qaconform.load.histogram import Histogram, HistogramSet


class Windows:
    """Per-window recorder of one process (or, merged, of a run). ``add`` runs on every request: two dict looks."""

    __slots__ = ("width_s", "by_key")

    def __init__(self, width_s: float) -> None:
        self.width_s = width_s
        self.by_key: dict[int, tuple[HistogramSet, dict[str, int], Histogram]] = {}

    def _window(self, now: float) -> tuple[HistogramSet, dict[str, int], Histogram]:
        key = int(now // self.width_s)
        w = self.by_key.get(key)
        if w is None:
            w = self.by_key[key] = (HistogramSet(), {}, Histogram())
        return w

    def add(self, name: str, ms: float, failed: bool, now: float) -> None:
        hist, failures, _ = self._window(now)
        hist.add(name, ms)
        if failed:
            failures[name] = failures.get(name, 0) + 1

    def add_intended(self, ms: float, now: float) -> None:
        self._window(now)[2].add(ms)

    def to_dict(self) -> dict[str, Any]:
        return {"width_s": self.width_s,
                "windows": {str(k): {"hist": h.to_dict(), "failures": dict(f), "intended": i.to_dict()}
                            for k, (h, f, i) in self.by_key.items()}}

    def drain(self) -> dict[str, Any]:
        """Everything recorded since the last drain (what a worker ships), and start afresh."""
        out = self.to_dict()
        self.by_key = {}
        return out

    def merge_dict(self, data: Mapping[str, Any]) -> None:
        for key, part in (data.get("windows") or {}).items():
            hist, failures, intended = self.by_key.setdefault(int(key), (HistogramSet(), {}, Histogram()))
            hist.merge_dict(part.get("hist", {}))
            for name, n in (part.get("failures") or {}).items():
                failures[name] = failures.get(name, 0) + int(n)
            intended.merge(Histogram.from_dict(part.get("intended", {})))


@dataclass(frozen=True)
class Steady:
    """The steady state of one run: the merged windows after the warm-up, and how latency moved across them."""

    seconds: float
    operations: dict[str, dict[str, Any]]
    """Per operationId: count, failures, rps, p50_ms, p95_ms, p99_ms, max_ms (the summary's keys)."""
    total: dict[str, Any]
    latency_trend: list[float]
    """Median latency from intended start (closed model: response time) per window, in ms."""
    rate_trend: list[float]
    """Requests answered per second in each window: their spread is the step's own noise (qaconform.load.noise)."""
    growing: bool
    """The latency kept growing through the steady state: a queue was building (see :func:`queue_building`)."""

    def as_dict(self) -> dict[str, Any]:
        return {"seconds": self.seconds, "total": self.total, "operations": self.operations,
                "latency_trend_ms": self.latency_trend, "latency_growing": self.growing,
                "rate_trend_rps": self.rate_trend}


def _figures(h: Histogram, failures: int, seconds: float) -> dict[str, Any]:
    def r(v: float | None) -> float | None:
        return None if v is None else round(v, 3)
    return {"count": h.count, "failures": failures, "rps": round(h.count / seconds, 2) if seconds else 0.0,
            "mean_ms": r(h.mean()), "p50_ms": r(h.percentile(50)), "p95_ms": r(h.percentile(95)),
            "p99_ms": r(h.percentile(99)),
            "max_ms": r(h.max_ms) if h.count else None}


def queue_building(trend: list[float], floor_ms: float = 20.0) -> bool:
    """Whether latency kept growing across the windows, beyond the windows' own noise: the last third's mean is
    above the first third's by more than ``floor_ms``, by half of it and by three times the typical change from one
    window to the next (the noise a busy machine adds), and the windows rise in at least two steps of three. A queue
    in front of a saturated server grows by the excess rate every second; a server below its capacity fluctuates
    around a level, and on a busy machine it fluctuates widely (issue 45: steps that made their rate with a p95 of
    211 ms against a 500 ms limit were judged "a queue building")."""
    n = len(trend)
    if n < 3:
        return False
    third = max(1, n // 3)
    first = sum(trend[:third]) / third
    last = sum(trend[-third:]) / third
    steps = [b - a for a, b in zip(trend, trend[1:], strict=False)]
    rises = sum(1 for d in steps if d > 0)
    noise = sorted(abs(d) for d in steps)[len(steps) // 2]
    return last - first > max(floor_ms, 0.5 * first, 3 * noise) and rises >= 2 * (n - 1) / 3


def steady_state(data: Mapping[str, Any], warmup_s: float, stopped_at: float | None = None) -> Steady | None:
    """The steady figures from ``latency.json``'s ``windows``: windows from ``warmup_s`` after the first request to
    before the last one (partial: the users were stopping), and none after ``stopped_at`` (epoch). None when no
    full window is left (a run too short for its warm-up)."""
    win = Windows(float(data.get("width_s") or 1.0))
    win.merge_dict(data)
    if not win.by_key:
        return None
    width = win.width_s
    first, last = min(win.by_key), max(win.by_key)
    start = first + max(1, int(-(-warmup_s // width)))
    end = last - 1  # the last window is partial
    if stopped_at is not None:
        end = min(end, int(stopped_at // width) - 1)
    keys = list(range(start, end + 1))
    if not keys:
        return None
    seconds = len(keys) * width
    per_op: dict[str, Histogram] = {}
    fails: dict[str, int] = {}
    trend: list[float] = []
    rates: list[float] = []
    for k in keys:
        hist, failures, intended = win.by_key.get(k, (HistogramSet(), {}, Histogram()))
        rates.append(round(sum(h.count for h in hist.by_name.values()) / width, 2))
        for name, h in hist.by_name.items():
            per_op.setdefault(name, Histogram()).merge(h)
        for name, n in failures.items():
            fails[name] = fails.get(name, 0) + n
        point = intended.percentile(50) if intended.count else hist.total().percentile(50)
        if point is not None:
            trend.append(round(point, 3))
    total_h = Histogram()
    for h in per_op.values():
        total_h.merge(h)
    operations = {name: _figures(h, fails.get(name, 0), seconds) for name, h in sorted(per_op.items())}
    total = _figures(total_h, sum(fails.values()), seconds)
    return Steady(seconds, operations, total, trend, rates, queue_building(trend))
