"""Capacity between releases: two ``capacity.json`` files, scenario by scenario (`qaconform capacity --baseline`,
`qaconform diff A/capacity.json B/capacity.json`).

"browse: 1,180 → 960 req/s (−19 %) at the same thresholds" is what a release note needs; a fall beyond the
tolerance the user sets is a regression (exit 1). A change of thresholds between the two runs is said, because
capacities under different limits are not the same measure; a lower bound on either side is said too (a time-limited
answer compared with a precise one can look like a regression it is not).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from qaconform.errors import UsageError


class CompareError(UsageError, ValueError):
    """A file that is not a capacity report; the message says what to pass instead (a usage error: exit 2)."""


def read_capacity(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    if p.is_dir():
        p = p / "capacity.json"
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CompareError(f"{p}: file not found; pass the capacity.json of an earlier `qaconform capacity` run "
                           "(or its folder)") from None
    except (OSError, ValueError) as exc:
        raise CompareError(f"{p}: not readable as JSON ({exc}); pass a capacity.json") from None
    if not isinstance(data, dict) or not isinstance(data.get("scenarios"), dict):
        raise CompareError(f"{p}: not a capacity report (no 'scenarios'); pass the capacity.json that "
                           "`qaconform capacity` wrote")
    return data


def _capacity(result: Mapping[str, Any]) -> float | None:
    v = result.get("capacity_rps", result.get("held_rps"))
    return float(v) if isinstance(v, int | float) else None


def interval_of(result: Mapping[str, Any]) -> dict[str, Any]:
    """A scenario's answer as an interval (``qaconform.load.noise``); a capacity.json of an earlier version, which
    has none, gives one of no noise: what held, up to the lowest rate that broke (none for a lower bound)."""
    got = result.get("interval")
    if isinstance(got, Mapping) and "best" in got:
        return dict(got)
    best = _capacity(result)
    between = result.get("between") or [None, None]
    upper = None if result.get("lower_bound") else between[1] if len(between) > 1 else None
    return {"lower": best, "best": best, "upper": upper, "noise_pct": 0.0}


NO_CHANGE, REGRESSION, IMPROVED, CANNOT_TELL, OK = (
    "no significant change", "REGRESSION", "improved", "cannot tell at this noise", "ok")
"""The verdicts of a scenario compared; only REGRESSION fails (exit 1)."""


def judge_change(a: Mapping[str, Any], b: Mapping[str, Any], tolerance_pct: float) -> tuple[str, str]:
    """The verdict of interval ``b`` against baseline ``a`` and why, in words.

    A regression is a fall beyond the tolerance that the two intervals cannot explain: B's upper end (what broke,
    plus the noise) below A's lower end (what held, less the noise). A fall the intervals do cover is "cannot tell at
    this noise", never "ok"; a lower bound is compared as one (B a lower bound only shows no regression when it is
    at or above A's lower end)."""
    ca, cb = a.get("best"), b.get("best")
    noise = max(float(a.get("noise_pct") or 0.0), float(b.get("noise_pct") or 0.0))
    if ca is None or cb is None:
        if cb is None and ca is not None and b.get("upper") is not None:
            return REGRESSION, "nothing held in this run: every rate it tried broke"
        if cb is None:
            return CANNOT_TELL, "this run held nothing it could judge (its time ran out, or another limit than the " \
                                "target's): no answer to compare"
        return CANNOT_TELL, "nothing held in the baseline"
    change = (cb / ca - 1) * 100
    tol = tolerance_pct
    a_low, b_low = float(a.get("lower") or ca), float(b.get("lower") or cb)
    if b.get("upper") is None:  # B a lower bound: the truth is at or above it
        if b_low >= a_low or change >= -tol:
            where = "above" if change > tol else "at or near"  # +217 % is not "near" (measured: 168 -> 533)
            return OK, f"this run is a lower bound {where} the baseline: no regression shown"
        return CANNOT_TELL, "this run is a lower bound below the baseline: its true capacity may be higher"
    b_up = float(b["upper"])
    if change < -tol:
        if b_up < a_low:
            return REGRESSION, f"what broke in this run ({b_up:,.0f} req/s with the noise) is below what held in the " \
                               f"baseline ({a_low:,.0f})"
        return CANNOT_TELL, (f"the fall of {-change:.0f} % lies within the measured noise (±{noise:g} %) and the "
                             "search's precision: rerun on a quieter machine, or with longer steps, or measure "
                             "both builds at once (--baseline-target: the baseline running now)")
    if a.get("upper") is not None and change > tol and float(a["upper"]) < b_low:
        return IMPROVED, f"what held in this run ({b_low:,.0f} req/s) is above what broke in the baseline"
    if abs(change) <= max(noise, tol):
        return NO_CHANGE, (f"within the measured noise (±{noise:g} %)" if noise > tol else
                           f"within the tolerance ({tol:g} %)")
    return OK, "within the two intervals"


BUSIER_BY = 0.10
"""This run's machine counts as busier than the baseline's when its highest load average was more than this share
above the baseline's: two searches of one build in a row on two shared cores found 801 req/s at load 13.4 and 396 at
18.4, and the second was called a regression."""


def busier_machine(before: Mapping[str, Any], after: Mapping[str, Any]) -> str | None:
    """Why a fall cannot be told, when this run's answer was the machine's (its CPUs saturated at the answer:
    ``noise.shared_machine_pct``) and its machine was busier than the baseline's (``noise.load_average_max``); else
    None. A machine-bound answer falls with the machine's load, whatever the build: "cannot tell", never "ok"."""
    na, nb = before.get("noise") or {}, after.get("noise") or {}
    la, lb = na.get("load_average_max"), nb.get("load_average_max")
    if nb.get("shared_machine_pct") is None or not isinstance(la, int | float) or not isinstance(lb, int | float):
        return None
    if lb <= la * (1 + BUSIER_BY):
        return None
    return (f"this run's machine was busier than the baseline's (load average up to {lb:.1f} against {la:.1f}) and "
            "its CPUs were saturated at the answer: a machine-bound answer falls with the machine's load; rerun both "
            "when the machine is as quiet, measure on a target with a machine of its own, or measure both builds at "
            "once (--baseline-target: the baseline running now)")


def compare_capacity(before: Mapping[str, Any], after: Mapping[str, Any], tolerance_pct: float) -> list[dict[str, Any]]:
    """One entry per scenario measured in both: the two intervals, the change of the best values in percent, the
    verdict and why (:func:`judge_change`), regressed, notes."""
    same_limits = before.get("thresholds") == after.get("thresholds")
    out = []
    for sc in sorted(set(before["scenarios"]) & set(after["scenarios"])):
        a, b = before["scenarios"][sc], after["scenarios"][sc]
        ia, ib = interval_of(a), interval_of(b)
        ca, cb = ia["best"], ib["best"]
        change = (cb / ca - 1) * 100 if ca and cb is not None else None
        notes = []
        if not same_limits:
            notes.append("the thresholds differ between the two runs")
        if a.get("lower_bound") or b.get("lower_bound"):
            notes.append("lower bound in " + " and ".join(n for n, r in (("the baseline", a), ("this run", b))
                                                           if r.get("lower_bound")))
        na, nb = float(ia.get("noise_pct") or 0.0), float(ib.get("noise_pct") or 0.0)
        noise = max(na, nb)
        if noise > tolerance_pct:  # whose noise: this run's terminal line shows its own, which may be the smaller
            whose = "both runs'" if na == nb else ("the baseline's" if na > nb else "this run's")
            notes.append(f"the machine's measured noise (±{noise:g} %, {whose}) is larger than the tolerance asked "
                         f"for ({tolerance_pct:g} %): a smaller change cannot be told")
        verdict, why = judge_change(ia, ib, tolerance_pct)
        busier = busier_machine(a, b)
        if verdict == REGRESSION and busier:
            verdict, why = CANNOT_TELL, busier
        out.append({"scenario": sc, "before_rps": ca, "after_rps": cb, "before": ia, "after": ib,
                    "change_pct": None if change is None else round(change, 1), "verdict": verdict, "why": why,
                    "regressed": verdict == REGRESSION, "same_thresholds": same_limits, "notes": notes})
    return out


def _rps(v: float | None) -> str:
    return "nothing held" if v is None else f"{v:,.0f} req/s" if v >= 100 else f"{v:,.1f} req/s"


def compare_text(changes: list[dict[str, Any]], tolerance_pct: float) -> str:
    if not changes:
        return "baseline: no scenario measured in both runs"
    lines = []
    for c in changes:
        pct = "" if c["change_pct"] is None else f" ({c['change_pct']:+.0f} %)".replace("-", "−")
        at = "at the same thresholds" if c["same_thresholds"] else "(thresholds differ)"
        verdict = c.get("verdict") or (REGRESSION if c["regressed"] else OK)
        mark = f"REGRESSION beyond {tolerance_pct:g} %" if verdict == REGRESSION else verdict
        line = (f"{c['scenario']}: {_rps(c['before_rps'])} → {_rps(c['after_rps'])}".replace(" req/s →", " →")
                + f"{pct} {at}: {mark}")
        if c.get("why"):
            line += f": {c['why']}"
        if c["notes"]:
            line += " (" + "; ".join(c["notes"]) + ")"
        lines.append(line)
    return "\n".join(lines)
