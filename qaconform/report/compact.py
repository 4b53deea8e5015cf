"""report.json kept to what machines and `qaconform diff` read: every verdict whole, passing evidence summarised.

A clean run of the suites is ~530 tests; written whole, each passing test carries its observations a second and a
third time (under ``observations``, under its rule's evidence and under the test) and every brief a message and a
duration nobody reads, and a failing test carries up to eight full exchanges. Here, unless the run asks to keep
everything (``--keep-all``), the copy written to report.json keeps:

- every rule with its status, reason, evidence of failures and skips, and the ids of its tests;
- observations once, under ``observations`` (by rule), where the diff and the page read them;
- passing tests as id, outcome, rules, areas, duration (and their message and what they created);
- failing tests whole, except that only their last :data:`WHOLE_EXCHANGES` exchanges keep headers and bodies
  (bodies capped at :data:`BODY_LIMIT` characters); earlier ones are summarised as method, URL, status and time.

junit.xml and report.html are built from the full report, before this step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qaconform.status import Effect, Status

WHOLE_EXCHANGES = 3
BODY_LIMIT = 16_000
_EXCHANGE_SUMMARY = ("role", "method", "url", "status", "elapsed_ms", "operation", "curl")


def _broken(outcome: object) -> bool:
    s = Status.of(outcome)
    return s is not None and s.effect in (Effect.BROKE, Effect.WARN, Effect.KIT)


def _cap(text: Any) -> Any:
    if isinstance(text, str) and len(text) > BODY_LIMIT:
        return text[:BODY_LIMIT] + f"... ({len(text) - BODY_LIMIT} more characters; --keep-all keeps them)"
    return text


def _exchanges(exchanges: list[Any]) -> list[Any]:
    cut = max(0, len(exchanges) - WHOLE_EXCHANGES)
    out: list[Any] = []
    for i, x in enumerate(exchanges):
        if not isinstance(x, Mapping):
            continue
        if i < cut:
            out.append({**{k: x.get(k) for k in _EXCHANGE_SUMMARY if k in x}, "summarised": True})
        else:
            out.append({**x, "request_body": _cap(x.get("request_body")),
                        "response_body": _cap(x.get("response_body"))})
    return out


def _test(t: Mapping[str, Any]) -> dict[str, Any]:
    if _broken(t.get("outcome")):
        out = {**t, "exchanges": _exchanges(list(t.get("exchanges") or [])), "observations": []}
        failure = t.get("failure")
        if isinstance(failure, Mapping) and isinstance(failure.get("exchange"), Mapping):
            out["failure"] = {**failure, "exchange": _exchanges([failure["exchange"]])[0]}
        return out
    keep = {k: t.get(k) for k in ("nodeid", "outcome", "rules", "areas", "duration")}
    for k in ("message", "created", "note", "unreachable"):
        if t.get(k):
            keep[k] = t[k]
    return keep


def _brief(t: Mapping[str, Any]) -> dict[str, Any]:
    keep = {"nodeid": t.get("nodeid"), "outcome": t.get("outcome")}
    if t.get("message") and Status.of(t.get("outcome")) is not Status.PASSED:
        keep["message"] = t["message"]
    if t.get("note"):
        keep["note"] = t["note"]
    return keep


def _rule(r: Mapping[str, Any]) -> dict[str, Any]:
    ev = dict(r.get("evidence") or {})
    ev["observations"] = len(ev.get("observations") or [])  # the facts are under report.json's observations
    return {**r, "tests": [_brief(t) for t in r.get("tests") or []], "evidence": ev}


def compact(report: Mapping[str, Any]) -> dict[str, Any]:
    """The report.json copy of a full report (see the module docstring); ``detail`` says which it is."""
    return {**report, "detail": "summary", "rules": [_rule(r) for r in report.get("rules") or []],
            "tests": [_test(t) for t in report.get("tests") or []]}
