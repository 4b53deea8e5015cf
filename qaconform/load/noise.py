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
    loads = [float(r["load_average"]) for r in records if r.get("load_average") is not None]
    known = [v for v in parts.values() if v is not None]
    return {**parts, "noise_pct": max(known) if known else 0.0, "load_average_max": max(loads) if loads else None}


def interval(best: float | None, broke_at: float | None, noise_pct: float) -> dict[str, Any]:
    """The answer as an interval: ``lower`` and ``best`` from what held, ``upper`` from the lowest rate that broke
    (None when nothing broke above what held: the answer is a lower bound)."""
    n = noise_pct / 100.0
    return {"lower": None if best is None else round(best * (1 - n), 1), "best": best,
            "upper": None if broke_at is None else round(broke_at * (1 + n), 1), "noise_pct": noise_pct}


def _pct(x: float) -> float:
    return round(100.0 * x, 1)
