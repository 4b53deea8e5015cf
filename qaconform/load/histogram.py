"""A latency histogram with microsecond buckets below 10 ms, mergeable across processes.

Why our own: Locust rounds every response time under 100 ms to a whole millisecond before it computes
percentiles, so a service answering in 0.3 ms shows "0" or "1". Each Locust process records the float time of
every request here, ships the buckets to the master (or writes them) and the harness merges them. Buckets are
sparse ints (microseconds, coarser above 10 ms and 1 s), so a run of millions of requests costs a few thousand
dict entries and merging is a sum.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def bucket_us(ms: float) -> int:
    """The bucket of a time in milliseconds: 1 µs wide below 10 ms, 100 µs below 1 s, 10 ms above."""
    us = int(ms * 1000.0)
    if us < 10_000:
        return us if us > 0 else 0
    if us < 1_000_000:
        return us - us % 100
    return us - us % 10_000


def _bucket_width_us(b: int) -> int:
    if b < 10_000:
        return 1
    if b < 1_000_000:
        return 100
    return 10_000


class Histogram:
    """Counts per bucket plus exact count, sum, min and max (in milliseconds)."""

    __slots__ = ("buckets", "count", "total_ms", "min_ms", "max_ms")

    def __init__(self) -> None:
        self.buckets: dict[int, int] = {}
        self.count = 0
        self.total_ms = 0.0
        self.min_ms = float("inf")
        self.max_ms = 0.0

    def add(self, ms: float) -> None:
        """Count one time. Runs once per request in every Locust process: the common bucket (below 10 ms, 1 µs
        wide) is computed here rather than by a call to :func:`bucket_us` (the same rule)."""
        us = int(ms * 1000.0)
        b = (us if us > 0 else 0) if us < 10_000 else bucket_us(ms)
        buckets = self.buckets
        buckets[b] = buckets.get(b, 0) + 1
        self.count += 1
        self.total_ms += ms
        if ms > self.max_ms:
            self.max_ms = ms
        if ms < self.min_ms:
            self.min_ms = ms

    def to_wire(self) -> dict[str, Any]:
        """What a worker ships to the master: :meth:`to_dict` with the buckets' int keys kept (Locust's msgpack
        carries them), so neither side converts thousands of keys to and from strings every report."""
        return {"buckets": self.buckets, "count": self.count, "total_ms": self.total_ms,
                "min_ms": self.min_ms if self.count else None, "max_ms": self.max_ms}

    def merge_raw(self, data: Mapping[str, Any]) -> None:
        """Add a :meth:`to_dict` or :meth:`to_wire` form without building a Histogram of it first."""
        buckets = self.buckets
        for b, n in (data.get("buckets") or {}).items():
            key = b if type(b) is int else int(b)
            buckets[key] = buckets.get(key, 0) + int(n)
        self.count += int(data.get("count", 0))
        self.total_ms += float(data.get("total_ms", 0.0))
        mn = data.get("min_ms")
        if mn is not None and float(mn) < self.min_ms:
            self.min_ms = float(mn)
        self.max_ms = max(self.max_ms, float(data.get("max_ms", 0.0)))

    def merge(self, other: Histogram) -> None:
        for b, n in other.buckets.items():
            self.buckets[b] = self.buckets.get(b, 0) + n
        self.count += other.count
        self.total_ms += other.total_ms
        self.max_ms = max(self.max_ms, other.max_ms)
        self.min_ms = min(self.min_ms, other.min_ms)

    def percentile(self, q: float) -> float | None:
        """The q-th percentile (0 < q <= 100) in ms, interpolated inside its bucket; None when empty.

        The nearest-rank method on bucket edges: the answer is never more than one bucket width (1 µs below
        10 ms) from the true sample. The max is exact, so p100 returns it.
        """
        if self.count == 0:
            return None
        if q >= 100:
            return self.max_ms
        rank = max(1, int(-(-q * self.count // 100)))  # ceil(q * n / 100)
        seen = 0
        for b in sorted(self.buckets):
            n = self.buckets[b]
            if seen + n >= rank:
                width = _bucket_width_us(b)
                frac = (rank - seen) / n
                value_ms = (b + width * frac) / 1000.0
                return min(max(value_ms, self.min_ms), self.max_ms)
            seen += n
        return self.max_ms

    def mean(self) -> float | None:
        return self.total_ms / self.count if self.count else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (keys as strings) used between processes and in latency files."""
        return {
            "buckets": {str(b): n for b, n in self.buckets.items()},
            "count": self.count,
            "total_ms": self.total_ms,
            "min_ms": self.min_ms if self.count else None,
            "max_ms": self.max_ms,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Histogram:
        h = cls()
        h.buckets = {int(b): int(n) for b, n in data.get("buckets", {}).items()}
        h.count = int(data.get("count", sum(h.buckets.values())))
        h.total_ms = float(data.get("total_ms", 0.0))
        mn = data.get("min_ms")
        h.min_ms = float(mn) if mn is not None else float("inf")
        h.max_ms = float(data.get("max_ms", 0.0))
        return h


class HistogramSet:
    """One histogram per request name (operationId), as recorded in one process or merged from many."""

    def __init__(self) -> None:
        self.by_name: dict[str, Histogram] = {}

    def add(self, name: str, ms: float) -> None:
        h = self.by_name.get(name)
        if h is None:
            h = self.by_name[name] = Histogram()
        h.add(ms)

    def merge_dict(self, data: Mapping[str, Any]) -> None:
        for name, hd in data.items():
            h = self.by_name.get(name)
            if h is None:
                h = self.by_name[name] = Histogram()
            h.merge_raw(hd)

    def drain(self) -> dict[str, Any]:
        """Everything recorded since the last drain, in the wire form (int keys), and start afresh (what a worker
        ships; the histograms handed over are not touched again here)."""
        out = {name: h.to_wire() for name, h in self.by_name.items()}
        self.by_name = {}
        return out

    def to_dict(self) -> dict[str, Any]:
        return {name: h.to_dict() for name, h in self.by_name.items()}

    def total(self) -> Histogram:
        agg = Histogram()
        for h in self.by_name.values():
            agg.merge(h)
        return agg

    @classmethod
    def merged(cls, parts: Iterable[Mapping[str, Any]]) -> HistogramSet:
        hs = cls()
        for p in parts:
            hs.merge_dict(p)
        return hs
