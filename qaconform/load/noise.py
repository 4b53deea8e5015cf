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


NOISY_STEP_PCT = 10.0
"""A step whose throughput moved by at least this much from window to window (coefficient of variation over its
steady windows) on a busy machine was not steady: the machine, not the rate asked, set its figures. user26 (load 18
on 2 cores, CPUs 100 % busy): the same search twice said "nothing held, between 0 and 68 req/s" (exit 1), then "at
least 77.3 req/s"; the step at 68 req/s made 76, 66, 17, 35 and 50 req/s in its windows (40 %)."""
MAX_BAND_PCT = 50.0
"""The widest noise band a broken step is repeated for: a step that made less than half its rate broke, however noisy
the machine."""
REAL_BREAKS = ("failure_ratio", "created items not listed")
"""Breaks no busy machine explains (answers that failed, items lost): never inside the noise, never repeated."""


def inside_noise(record: Mapping[str, Any], n_cores: int) -> float | None:
    """The noise band (percent, two coefficients of variation of its windows) a broken step fell inside, or None.

    Inside it means: the machine was busy through the step (its CPUs at least SATURATED_PCT busy, or a load average
    above its cores), the step's own windows moved by at least NOISY_STEP_PCT (or it broke only by missing start
    slots, the rate made), and it made at least ``100 - band`` percent of the offered rate; a break by failures or
    lost items is never inside it. Such a step is repeated once
    instead of failed (k6 and Gatling judge a threshold on a whole run; a capacity step of 8 s on a machine that stalls
    for seconds is too short to be judged on one try), and the repeat decides."""
    reasons = [str(r) for r in record.get("reasons") or []]
    offered = float(record.get("offered_rps") or 0.0)
    if record.get("held") or not reasons or not offered or record.get("cause") not in (None, "target"):
        return None
    if any(k in r for r in reasons for k in REAL_BREAKS):
        return None
    busy = float(record.get("machine_busy_pct") or 0.0) >= SATURATED_PCT or \
        float(record.get("load_average") or 0.0) > n_cores
    spread = window_spread(record) or 0.0
    # only late starts, the rate made: the busy machine kept the generator from its start slots (a step at 697 req/s
    # made 693.3 with a p95 of 9 ms and "missed 119 of its 5561 start slots", at load 2 on 2 cores with a CPU hog)
    slots_only = all(r.startswith("missed ") for r in reasons)
    if not busy or (100.0 * spread < NOISY_STEP_PCT and not slots_only):
        return None
    band = min(MAX_BAND_PCT, max(200.0 * spread, NOISY_STEP_PCT if slots_only else 0.0))
    short = 100.0 * (1 - float(record.get("achieved_rps") or 0.0) / offered)
    return round(band, 1) if short <= band else None


def machine_words(records: Sequence[Mapping[str, Any]], n_cores: int) -> str:
    """The machine's own noise during a search, in words: its load, how busy its CPUs were, how far the throughput
    moved within the steps."""
    loads = [float(r["load_average"]) for r in records if r.get("load_average") is not None]
    busy = [float(r["machine_busy_pct"]) for r in records if r.get("machine_busy_pct") is not None]
    spreads = [w for w in (window_spread(r) for r in records) if w is not None]
    said = []
    if loads:
        said.append(f"load average up to {max(loads):.1f} on {n_cores} cores")
    if busy:
        said.append(f"its CPUs {min(busy):.0f} to {max(busy):.0f} % busy")
    if spreads:
        said.append(f"the throughput moving ±{_pct(max(spreads)):g} % from second to second within a step")
    return ", ".join(said) if said else "no measure of the machine"


def inconclusive(records: Sequence[Mapping[str, Any]], hi: float | None, n_cores: int,
                 step_s: float) -> str:
    """Why a search that held no rate every time gives no answer, and what would give one: said instead of "it held
    nothing" when its budget ran out first (the truth lies between 0 and the lowest rate that broke: no answer)."""
    noisy = [r for r in records if r.get("inside_noise_pct") is not None]
    where = f"below {hi:g} req/s" if hi else "at any rate"
    why = (f"inconclusive: no rate was judged to hold before the time budget ran out, so the capacity lies somewhere "
           f"{where}; the machine's own noise: {machine_words(records, n_cores)}")
    if noisy:
        why += f"; {len(noisy)} step(s) fell inside that noise and were repeated"
    return (why + f". To get an answer: longer steps (--step-duration {max(20, round(2 * step_s))}) and a longer "
            "budget (--max-time 300), a quieter machine, or, to compare two builds here, --baseline-target")


def _pct(x: float) -> float:
    return round(100.0 * x, 1)
