"""A run's tests folded into the report's tallies: one entry per test from its phases and xdist workers, the writes
per operation and pool against the write budget, the read-backs that waited for a write to settle, and the fixtures
the run used or missed.

Apart from :mod:`qaconform.report.model` (which decides each rule's status) because these are counts over tests that
decide no status; ``model`` re-exports :func:`settle_text` for the pages that import it from there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from qaconform.contract import API_PREFIX
from qaconform.report import holdbacks
from qaconform.report.records import JsonObject, Results, TestResult, WriteBudgetRecord
from qaconform.status import Status, rank
from qaconform.target.ledger import MET
from qaconform.target.writes import write_summary
from qaconform.vocabulary import SkipKind


def merge_tests(entries: Iterable[TestResult]) -> list[TestResult]:
    """One entry per test (nodeid): a call result and a teardown error of the same test become one, worst first."""
    merged: dict[str, TestResult] = {}
    for e in entries:
        old = merged.get(e.nodeid)
        if old is None:
            merged[e.nodeid] = replace(e)
            continue
        worst, other = (e, old) if rank(e.outcome) < rank(old.outcome) else (old, e)
        old_settle, new_settle = _settle_of(old.settle), _settle_of(e.settle)
        combined = replace(
            worst, duration=old.duration + e.duration,
            rules=list(dict.fromkeys([*old.rules, *e.rules])), areas=list(dict.fromkeys([*old.areas, *e.areas])),
            exchanges=[*old.exchanges, *e.exchanges], observations=[*old.observations, *e.observations],
            created=[*old.created, *e.created], writes=_merged_writes(old.writes, e.writes),
            settle={"reads": old_settle["reads"] + new_settle["reads"],
                    "waits": [*old_settle["waits"], *new_settle["waits"]]},
            held_back=holdbacks.merged(old.held_back, e.held_back), cell=old.cell or e.cell)
        if other.message and other.outcome in (Status.FAILED, Status.ERROR) and other.message != worst.message:
            combined.message = f"{worst.message or ''}\n[{other.when or 'also'}] {other.message}"
        merged[e.nodeid] = combined
    return list(merged.values())


def _merged_writes(a: JsonObject | None, b: JsonObject | None) -> JsonObject | None:
    """Two result entries' ``writes`` of one test (its setup's and its call's) as one."""
    parts = [w for w in (a, b) if isinstance(w, Mapping)]
    if not parts:
        return None
    merged: dict[str, Any] = {"pool": parts[0].get("pool")}
    for part in ("operations", "pools"):
        into_part: dict[str, dict[str, int]] = {}
        for w in parts:
            for name, c in (w.get(part) or {}).items():
                into = into_part.setdefault(str(name), {"sent": 0, "accepted": 0, "held": 0})
                for key in into:
                    into[key] += int((c or {}).get(key) or 0) if isinstance(c, Mapping) else 0
        if into_part or part == "operations":
            merged[part] = into_part
    return merged


def writes_report(tests: list[TestResult], budget: WriteBudgetRecord | None,
                  rules: list[dict[str, Any]]) -> dict[str, Any]:
    """report.json's ``writes``: sent and accepted writes per operation and share against the budget, and the rules
    left unchecked because the budget was spent."""
    summary = write_summary([{"writes": t.writes} for t in tests if t.writes is not None],
                            budget.as_dict() if budget is not None else None)
    names, reads = _operation_names(), _read_operations()
    by_op: dict[str, dict[str, int]] = {}
    for label, c in summary["by_operation"].items():
        into = by_op.setdefault(names.get(label, label), {"sent": 0, "accepted": 0, "held": 0})
        for key in into:
            into[key] += c[key]
    # a read operation (GET) counts writes only when a generated test sends it another method (--thorough's
    # negative cases): those are said apart, so that the operations that write are the ones listed as writing
    summary["by_operation"] = {op: c for op, c in sorted(by_op.items()) if op not in reads}
    other_methods = {op: c for op, c in sorted(by_op.items()) if op in reads}
    if other_methods:
        summary["other_methods_to_reads"] = other_methods
    summary["unchecked_rules"] = [r["id"] for r in rules if r.get("status") == "skipped"
                                  and r.get("skip_category") == SkipKind.WRITE_BUDGET.category]
    return summary


def _operation_names() -> dict[str, str]:
    """``POST /answer/{id}/comment.json`` -> ``postComment``: the operation of spec/ a write without one names."""
    from qaconform.contract import load_contract

    try:
        ops = load_contract().operations.values()
    except Exception:  # noqa: BLE001 - without spec/ the report keeps the path templates
        return {}
    out: dict[str, str] = {}
    for op in ops:
        template = re.sub(r"\{[^}]+\}", "{id}", op.path.removeprefix(API_PREFIX))
        out[f"{op.method.upper()} {template}"] = op.operation_id
    return out


def _read_operations() -> frozenset[str]:
    """The operationIds of spec/ that read (GET): none of them writes when sent as described."""
    from qaconform.contract import load_contract

    try:
        ops = load_contract().operations.values()
    except Exception:  # noqa: BLE001 - without spec/ every label stays a write
        return frozenset()
    return frozenset(op.operation_id for op in ops if op.method.upper() in ("GET", "HEAD"))


def _settle_of(settle: JsonObject | None) -> dict[str, Any]:
    """A test's read-backs (``support.settle``): how many, and those that had to wait for the target's lists."""
    s = settle or {}
    reads = s.get("reads")
    return {"reads": reads if isinstance(reads, int) and not isinstance(reads, bool) else 0,
            "waits": [dict(w) for w in s.get("waits") or [] if isinstance(w, Mapping)]}


def settle_summary(tests: Iterable[TestResult], target: JsonObject | None) -> dict[str, Any]:
    """report.json's ``settle``: the profile's settle window, how many read-backs after a write the run made, how many
    had to wait for the target's lists to show the write (and how long), and how many never did within the window."""
    reads, waits = 0, []
    for t in tests:
        s = _settle_of(t.settle)
        reads += s["reads"]
        waits += [{"test": t.nodeid, **w} for w in s["waits"]]
    settled = sorted(float(w.get("waited_ms") or 0) for w in waits if w.get("settled"))
    window = target.get("settle_s") if target is not None else None
    return {
        "window_s": window,
        "read_backs": reads,
        "waited": len(waits),
        "never_settled": sum(1 for w in waits if not w.get("settled")),
        "longest_ms": round(settled[-1]) if settled else 0,
        "median_ms": round(settled[len(settled) // 2]) if settled else 0,
        "slowest": sorted(waits, key=lambda w: -float(w.get("waited_ms") or 0))[:5],
    }


def settle_text(settle: Mapping[str, Any] | None) -> str:
    """One line for the report header and the terminal: how long the target's lists took to show what was written."""
    s = settle or {}
    reads = s.get("read_backs") or 0
    if not reads:
        return ""
    window = s.get("window_s")
    shown = "settle window off" if window == 0 else (
        f"settle window {window:g} s" if isinstance(window, int | float) else "settle window not recorded")
    waited = s.get("waited") or 0
    if not waited:
        return f"{reads} read-backs after writes, none had to wait ({shown})"
    never = s.get("never_settled") or 0
    late = f"; {never} never settled" if never else ""
    return (f"{reads} read-backs after writes, {waited} waited for the lists to settle (median "
            f"{s.get('median_ms', 0)} ms, longest {s.get('longest_ms', 0)} ms{late}; {shown})")


def needed_fixtures(skips: Iterable[TestResult]) -> list[str] | None:
    """The profile fixtures a rule's skipped tests need, when every one of them names some (the report says
    what a richer profile would check); None when any skip has another reason."""
    names: list[str] = []
    for t in skips:
        found = t.needs_fixtures
        if not found:
            return None
        names += found
    return list(dict.fromkeys(names)) or None


def fixtures_used(results: Results) -> dict[str, Any]:
    """What the run did to the target's one-shot fixtures and what the doctor found of them, for the top of the
    report: the nodes this run consumed (from the record it kept beside the profile; ``consumed_earlier``: those its
    call met already consumed, so an earlier run did), per pool the node used and
    how many are left and which nodes had a state no read showed (``state_unknown``), the fixtures not in their
    state (their tests skipped) with how to renew them."""
    doctor = results.doctor or {}
    renew = {str(f.get("key", "")).removeprefix("fixtures.").removeprefix("safety."): f.get("fix")
             for f in doctor.get("findings") or [] if f.get("severity") == "fixture"}
    pools = {name: {"pool": list(s.get("pool") or []), "used": s.get("chosen"),
                    "consumed_before": list(s.get("consumed") or []), "left_after": s.get("left_after"),
                    "state_unknown": list(s.get("unknown") or [])}
             for name, s in (doctor.get("one_shots") or {}).items()}
    met = {(str(m.get("fixture")), m.get("node")) for t in results.tests for m in [t.met_consumed] if m is not None}
    met |= {(str(c.get("fixture")), c.get("node")) for c in results.consumed if str(c.get("run")).endswith(MET)}
    sent = [{"fixture": c.get("fixture"), "node": c.get("node")} for c in results.consumed]
    for name, p in pools.items():  # pool26: a run moves on along its pool: what is left after its last node
        taken = [i for i, n in enumerate(p["pool"]) if {"fixture": name, "node": n} in sent]
        if taken:
            p["left_after"] = len([n for n in p["pool"][max(taken) + 1:] if n not in p["consumed_before"]])
    return {"consumed": [c for c in sent if (str(c["fixture"]), c["node"]) not in met],
            "consumed_earlier": [c for c in sent if (str(c["fixture"]), c["node"]) in met],
            "one_shots": pools,
            "not_in_state": {name: {"reason": why, "renew": renew.get(name)}
                             for name, why in (doctor.get("unusable") or {}).items()},
            "record": doctor.get("record")}
