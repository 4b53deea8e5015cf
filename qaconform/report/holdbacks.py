"""How often and how long the target held the run back (429, 503 with Retry-After), for the run's summary.

A target behind a rate-limiting gateway makes a run slower, never wrong (qaconform.target.holdback): the tests
wait as told and send again. The QA engineer still needs to see it, because it explains a slow run and because
a test the target held back past the kit's patience is not checked: report.json ``held_back``, a line of the
terminal summary and of the page's header.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from qaconform.report.records import TestResult
from qaconform.vocabulary import SkipKind


def of_test(held: Mapping[str, Any] | None) -> dict[str, Any]:
    """A result entry's ``held_back``, as plain numbers (absent or malformed: nothing)."""
    h = held or {}
    raw = h.get("statuses")
    statuses: Mapping[Any, Any] = raw if isinstance(raw, Mapping) else {}
    return {"times": _int(h.get("times")), "waited_s": _float(h.get("waited_s")), "paced_s": _float(h.get("paced_s")),
            "statuses": {str(k): _int(v) for k, v in statuses.items()},
            "given_up": [str(w) for w in h.get("given_up") or []]}


def merged(a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Two result entries' ``held_back`` of one test (its setup's and its call's) as one."""
    x, y = of_test(a), of_test(b)
    if not (x["times"] or y["times"] or x["paced_s"] or y["paced_s"]):
        return None
    statuses = dict(x["statuses"])
    for k, v in y["statuses"].items():
        statuses[k] = statuses.get(k, 0) + v
    return {"times": x["times"] + y["times"], "waited_s": round(x["waited_s"] + y["waited_s"], 3),
            "paced_s": round(x["paced_s"] + y["paced_s"], 3), "statuses": statuses,
            "given_up": [*x["given_up"], *y["given_up"]]}


def summary(tests: Iterable[TestResult]) -> dict[str, Any]:
    """report.json's ``held_back``: answers that held the run back (by status), the seconds waited as told and
    waited for the lowered pace, the tests that met any, and those not checked because the target held them back
    past the kit's patience."""
    times, waited, paced = 0, 0.0, 0.0
    statuses: dict[str, int] = {}
    tests_held: list[dict[str, Any]] = []
    not_checked: list[str] = []
    for t in tests:
        h = of_test(t.held_back)
        if t.skip_kind is SkipKind.HELD_BACK:
            not_checked.append(t.nodeid)
        paced += h["paced_s"]  # a test may only wait for the pace an earlier test's hold-back lowered
        if not h["times"]:
            continue
        times += h["times"]
        waited += h["waited_s"]
        for k, v in h["statuses"].items():
            statuses[k] = statuses.get(k, 0) + v
        tests_held.append({"test": t.nodeid, "times": h["times"], "waited_s": h["waited_s"]})
    return {"times": times, "waited_s": round(waited, 1), "paced_s": round(paced, 1),  # seconds, all workers summed
            "statuses": dict(sorted(statuses.items())), "tests": len(tests_held), "not_checked": not_checked,
            "longest": sorted(tests_held, key=lambda e: -e["waited_s"])[:5]}


def text(held: Mapping[str, Any] | None) -> str:
    """One line for the terminal and the page's header; empty when the target held nothing back."""
    h = held or {}
    times = _int(h.get("times"))
    if not times and not h.get("not_checked"):
        return ""
    by = ", ".join(f"{n}x {s}" for s, n in (h.get("statuses") or {}).items())
    paced = _float(h.get("paced_s"))
    # the tests' own waits, summed: on several workers more than the run's wall time, so the line says so
    line = (f"held back by the target {times} time(s) ({by}) in {_int(h.get('tests'))} test(s): waited "
            f"{_float(h.get('waited_s')):.1f} s as told" + (f", {paced:.1f} s at a lowered pace" if paced else "")
            + " (summed over the tests)")
    gave_up = len(h.get("not_checked") or [])
    return line + (f"; {gave_up} test(s) not checked (held back too long)" if gave_up else "")


def _int(v: Any) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def _float(v: Any) -> float:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else 0.0
