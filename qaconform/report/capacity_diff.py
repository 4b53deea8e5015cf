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


def compare_capacity(before: Mapping[str, Any], after: Mapping[str, Any], tolerance_pct: float) -> list[dict[str, Any]]:
    """One entry per scenario measured in both: before, after, change in percent, regressed, notes."""
    same_limits = before.get("thresholds") == after.get("thresholds")
    out = []
    for sc in sorted(set(before["scenarios"]) & set(after["scenarios"])):
        a, b = before["scenarios"][sc], after["scenarios"][sc]
        ca, cb = _capacity(a), _capacity(b)
        change = (cb / ca - 1) * 100 if ca and cb is not None else None
        notes = []
        if not same_limits:
            notes.append("the thresholds differ between the two runs")
        if a.get("lower_bound") or b.get("lower_bound"):
            notes.append("lower bound in " + " and ".join(n for n, r in (("the baseline", a), ("this run", b))
                                                           if r.get("lower_bound")))
        regressed = (cb is None and ca is not None) or (change is not None and change < -tolerance_pct)
        out.append({"scenario": sc, "before_rps": ca, "after_rps": cb,
                    "change_pct": None if change is None else round(change, 1), "regressed": regressed,
                    "same_thresholds": same_limits, "notes": notes})
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
        mark = f"REGRESSION beyond {tolerance_pct:g} %" if c["regressed"] else "ok"
        line = (f"{c['scenario']}: {_rps(c['before_rps'])} → {_rps(c['after_rps'])}".replace(" req/s →", " →")
                + f"{pct} {at}: {mark}")
        if c["notes"]:
            line += " (" + "; ".join(c["notes"]) + ")"
        lines.append(line)
    return "\n".join(lines)
