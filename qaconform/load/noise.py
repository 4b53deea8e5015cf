"""How sure a capacity answer is: the noise a search measured on its own machine, and the interval it gives.

A capacity figure that moved by a quarter between two runs of one build, compared with a 5 % tolerance, turned every
comparison into a coin toss (issue 45). The search already measures what it needs to say how sure it is: every
open-model step records its throughput per window of its steady state (``steady.rate_trend_rps``), a confirmation
runs a rate twice, and each step how far its achieved rate stayed from the offered one. The noise is the largest of
those spreads, and the answer becomes an interval: ``lower`` (what held, less the noise), ``best`` (what held),
``upper`` (the lowest rate that broke, plus the noise; none when nothing broke: a lower bound).
``qaconform.report.capacity_diff`` compares intervals, not single numbers.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

MIN_WINDOWS = 3
"""A step's window spread counts only with at least this many steady windows."""

SATURATED_PCT = 90.0
"""A step during which the machine's CPUs (all of them) were at least this busy left no CPU to spare: whatever answered
was bounded by the machine, shared with whatever else ran on it."""
SHARED_MACHINE_PCT = 12.0
"""The noise of an answer the machine's CPU bounded (the target on the generator's machine, or a machine too busy for
both): two runs of one build of the reference server on the same two cores with a CPU hog on one differed by 10 %
(3,094 and 3,444 req/s, issue 45) and 11 % (2,139 and 1,910, bench/bench_capacity.py --self --hog) while each run's
own spreads said 1 to 4 %: the CPU the target gets moves between runs (which core the scheduler gives whom), not
within one. The spreads of one run cannot see that; the saturation can."""


def cpu_times() -> tuple[float, float] | None:
    """(busy, total) jiffies of all the machine's CPUs since boot (/proc/stat), or None where there is no /proc."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [float(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    if len(fields) < 5:
        return None
    idle = fields[3] + fields[4]  # idle + iowait
    total = sum(fields[:8])  # user nice system idle iowait irq softirq steal (guest is counted in user)
    return total - idle, total


def busy_pct(before: tuple[float, float] | None, after: tuple[float, float] | None) -> float | None:
    """How busy the machine's CPUs were between two :func:`cpu_times` readings, in percent of all of them."""
    if before is None or after is None or after[1] <= before[1]:
        return None
    return round(100.0 * (after[0] - before[0]) / (after[1] - before[1]), 1)


def window_spread(record: Mapping[str, Any]) -> float | None:
    """The coefficient of variation of a step's throughput over its steady windows (0.08: 8 %), or None."""
    rates = [float(r) for r in ((record.get("steady") or {}).get("rate_trend_rps") or [])]
    if len(rates) < MIN_WINDOWS or not statistics.fmean(rates):
        return None
    return statistics.pstdev(rates) / statistics.fmean(rates)


def measured(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The search's own noise, each source apart and their largest as ``noise_pct``."""
    steps = [r for r in records if r.get("kind") != "probe" and r.get("offered_rps")]
    windows = [w for w in (window_spread(r) for r in steps) if w is not None]
    # the same rate run twice (a confirmation): how far apart the two achieved rates were
    by_rate: dict[float, list[float]] = {}
    for r in steps:
        if r.get("held"):
            by_rate.setdefault(float(r["offered_rps"]), []).append(float(r.get("achieved_rps") or 0.0))
    repeats = [(max(v) - min(v)) / statistics.fmean(v) for v in by_rate.values() if len(v) > 1 and statistics.fmean(v)]
    tracking = [abs(float(r.get("achieved_rps") or 0.0) / float(r["offered_rps"]) - 1) for r in steps if r.get("held")]
    parts = {
        "windows_pct": _pct(statistics.median(windows)) if windows else None,
        "repeats_pct": _pct(max(repeats)) if repeats else None,
        "tracking_pct": _pct(statistics.median(tracking)) if tracking else None,
    }
    parts["shared_machine_pct"] = SHARED_MACHINE_PCT if saturated(steps) else None
    loads = [float(r["load_average"]) for r in records if r.get("load_average") is not None]
    known = [v for v in parts.values() if v is not None]
    return {**parts, "noise_pct": max(known) if known else 0.0, "load_average_max": max(loads) if loads else None}


def saturated(steps: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the machine's CPUs were saturated at the answer: every step at the highest rate that held ran with
    the machine at least SATURATED_PCT busy (the answer is then the machine's, not only the target's)."""
    held = [r for r in steps if r.get("held")]
    if not held:
        return False
    top = max(float(r["offered_rps"]) for r in held)
    busy = [r.get("machine_busy_pct") for r in held if float(r["offered_rps"]) == top]
    return bool(busy) and all(b is not None and float(b) >= SATURATED_PCT for b in busy)


def interval(best: float | None, broke_at: float | None, noise_pct: float) -> dict[str, Any]:
    """The answer as an interval: ``lower`` and ``best`` from what held, ``upper`` from the lowest rate that broke
    (None when nothing broke above what held: the answer is a lower bound)."""
    n = noise_pct / 100.0
    return {"lower": None if best is None else round(best * (1 - n), 1), "best": best,
            "upper": None if broke_at is None else round(broke_at * (1 + n), 1), "noise_pct": noise_pct}



def _pct(x: float) -> float:
    return round(100.0 * x, 1)
