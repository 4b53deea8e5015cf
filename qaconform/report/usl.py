"""A Universal Scalability Law fit of a capacity search's steps: a model, for reading a curve beyond what was
measured, never a measurement.

Gunther's law: X(N) = λN / (1 + σ(N − 1) + κN(N − 1)), throughput X at concurrency N, with λ the throughput of one
request in flight, σ contention and κ coherence (crosstalk). Each step gives a point: its achieved throughput and its
concurrency by Little's law (throughput × mean response time). For a λ the law is linear in σ and κ
(λN/X − 1 = σ(N − 1) + κN(N − 1)), so λ is searched on a grid and σ, κ ≥ 0 solved by least squares; the fit with the
smallest squared error in throughput wins. With κ > 0 the model predicts its peak at N* = √((1 − σ)/κ).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

MIN_POINTS = 4


MIN_R2 = 0.9
"""A fit that explains less of the measured throughput than this is not shown: a model that does not fit the points
would be read as a prediction it cannot make."""


def points(steps: Sequence[Mapping[str, Any]]) -> list[tuple[float, float]]:
    """(concurrency, throughput) of every step with figures: Little's law on the steady state. Only concurrencies of
    one and more: the law counts requests in flight from one up (below, its N − 1 terms turn negative)."""
    out = []
    for s in steps:
        x = s.get("achieved_rps")
        mean = ((s.get("steady") or {}).get("total") or {}).get("mean_ms")
        if isinstance(x, int | float) and isinstance(mean, int | float) and x > 0 and mean > 0:
            n = x * mean / 1000.0
            if n >= 1:
                out.append((n, float(x)))
    return sorted(out)


def _model(n: float, lam: float, sigma: float, kappa: float) -> float:
    return lam * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))


def _solve(pts: list[tuple[float, float]], lam: float) -> tuple[float, float]:
    """σ, κ ≥ 0 minimising Σ (a·σ + b·κ − y)² for y = λN/X − 1, a = N − 1, b = N(N − 1)."""
    rows = [(n - 1, n * (n - 1), lam * n / x - 1) for n, x in pts]
    saa = sum(a * a for a, _, _ in rows)
    sbb = sum(b * b for _, b, _ in rows)
    sab = sum(a * b for a, b, _ in rows)
    say = sum(a * y for a, _, y in rows)
    sby = sum(b * y for _, b, y in rows)
    det = saa * sbb - sab * sab
    if det > 1e-12:
        sigma, kappa = (say * sbb - sby * sab) / det, (sby * saa - say * sab) / det
        if sigma >= 0 and kappa >= 0:
            return sigma, kappa
    only_sigma = (max(0.0, say / saa) if saa else 0.0, 0.0)
    only_kappa = (0.0, max(0.0, sby / sbb) if sbb else 0.0)

    def err(sk: tuple[float, float]) -> float:
        return sum((a * sk[0] + b * sk[1] - y) ** 2 for a, b, y in rows)

    return min((only_sigma, only_kappa, (0.0, 0.0)), key=err)


def fit_usl(steps: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The fitted law and a curve to draw, or None with fewer than MIN_POINTS points of distinct concurrency or a fit
    that explains less than MIN_R2 of the measured throughput."""
    pts = points(steps)
    if len({round(n, 3) for n, _ in pts}) < MIN_POINTS:
        return None
    base = max(x / n for n, x in pts)
    best: tuple[float, float, float, float] | None = None
    for i in range(81):
        lam = base * (0.5 + 2.5 * i / 80)
        sigma, kappa = _solve(pts, lam)
        err = sum((_model(n, lam, sigma, kappa) - x) ** 2 for n, x in pts)
        if best is None or err < best[0]:
            best = (err, lam, sigma, kappa)
    assert best is not None
    err, lam, sigma, kappa = best
    mean_x = sum(x for _, x in pts) / len(pts)
    spread = sum((x - mean_x) ** 2 for _, x in pts)
    r2 = 1 - err / spread if spread else 0.0
    if r2 < MIN_R2:
        return None
    peak_n = math.sqrt((1 - sigma) / kappa) if kappa > 0 and sigma < 1 else None
    top = max(n for n, _ in pts) * 1.5
    if peak_n:
        top = max(top, peak_n * 1.3)
    curve = [(top * i / 60, _model(top * i / 60, lam, sigma, kappa)) for i in range(1, 61)]
    return {"model": "Universal Scalability Law (a fit, not a measurement)", "lambda": lam, "sigma": sigma,
            "kappa": kappa, "r2": round(r2, 4), "peak_concurrency": peak_n,
            "peak_rps": _model(peak_n, lam, sigma, kappa) if peak_n else None,
            "points": pts, "curve": curve}
