"""Pass/fail limits of a load run, read from a small TOML file and checked once, at the end.

Why at the end from the final figures (and not by polling during the run): a breach is a property of the whole
run, and the figures it is checked against (Locust's CSV counts, our own sub-millisecond histogram) are final
only then. Every limit becomes one named result, so a breach is listed as ``listQuestions.p95_ms`` and the
exit code says the run failed.

File format (loadtests/thresholds.toml is the default)::

    [defaults]                 # every operation the run made
    p95_ms = 500
    failure_ratio = 0.01
    [total]                    # all requests together
    min_rps = 5
    [operations.postAnswer]    # one operation; overrides [defaults]
    p95_ms = 800
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qaconform.errors import UsageError

UPPER_METRICS = ("p50_ms", "p95_ms", "p99_ms", "max_ms", "failure_ratio")
"""Limits the actual figure must not exceed."""
LOWER_METRICS = ("min_rps",)
"""Limits the actual figure must reach."""
METRICS = UPPER_METRICS + LOWER_METRICS
TOTAL = "total"


class ThresholdError(UsageError, ValueError):
    """A thresholds file or override that cannot be used; the message names the file and key. A usage error: the
    command stops with it before anything is sent."""


@dataclass(frozen=True)
class Limits:
    defaults: dict[str, float]
    total: dict[str, float]
    operations: dict[str, dict[str, float]]


def _limits_table(table: Any, where: str) -> dict[str, float]:
    if not isinstance(table, dict):
        raise ThresholdError(f"{where} must be a table of limits ({', '.join(METRICS)})")
    out: dict[str, float] = {}
    for key, value in table.items():
        if key not in METRICS:
            raise ThresholdError(f"{where} '{key}' is not a metric; use one of {', '.join(METRICS)}")
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
            raise ThresholdError(f"{where} '{key}' must be a non-negative number, not {value!r}")
        out[key] = float(value)
    return out


def _operation(op: str, where: str, also: str = "") -> str:
    """``op`` when it names an operation the load makes (an operationId, or a request name built on one:
    ``unmarkFavorite (one-shot)``); else ThresholdError with the nearest name. A misspelt name
    (``listQuestion.p95_ms=200``) was taken, and a whole capacity search ran with a limit that applied to nothing."""
    import difflib

    from qaconform.contract import load_contract

    known = sorted(load_contract().operations)
    if op in known or op.split(" (", 1)[0] in known:
        return op
    near = difflib.get_close_matches(op, known, n=1)
    hint = f"did you mean {near[0]}? " if near else ""
    raise ThresholdError(f"{where}: '{op}' is not an operationId; {hint}use one of {', '.join(known)}{also}")


def limits_from_dict(data: Mapping[str, Any], where: str = "<thresholds>") -> Limits:
    unknown = sorted(set(data) - {"defaults", "total", "operations"})
    if unknown:
        raise ThresholdError(f"{where}: '{unknown[0]}' is not a section; use [defaults], [total], [operations.<id>]")
    ops_t = data.get("operations", {})
    if not isinstance(ops_t, dict):
        raise ThresholdError(f"{where}: [operations] must hold one table per operationId")
    return Limits(
        defaults=_limits_table(data.get("defaults", {}), f"{where} [defaults]"),
        total=_limits_table(data.get("total", {}), f"{where} [total]"),
        operations={_operation(op, f"{where} [operations.{op}]"): _limits_table(t, f"{where} [operations.{op}]")
                    for op, t in ops_t.items()},
    )


def load_limits(path: str | Path) -> Limits:
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise ThresholdError(f"thresholds {p}: file not found; pass an existing file with --thresholds") from None
    except tomllib.TOMLDecodeError as exc:
        raise ThresholdError(f"thresholds {p}: is not valid TOML ({exc}); fix the syntax at that line") from None
    return limits_from_dict(data, f"thresholds {p}")


def apply_override(limits: Limits, spec: str) -> Limits:
    """``OPERATION.METRIC=VALUE`` (OPERATION may be ``total`` or ``defaults``) from ``--threshold``."""
    name, sep, raw = spec.partition("=")
    op, dot, metric = name.strip().rpartition(".")
    if not sep or not dot or not op:
        raise ThresholdError(f"--threshold {spec!r}: write OPERATION.METRIC=VALUE, e.g. listQuestions.p95_ms=200")
    try:
        value = float(raw)
    except ValueError:
        raise ThresholdError(f"--threshold {spec!r}: {raw!r} is not a number") from None
    checked = _limits_table({metric: value}, f"--threshold {spec!r}")
    if op == "defaults":
        return Limits({**limits.defaults, **checked}, limits.total, limits.operations)
    if op == TOTAL:
        return Limits(limits.defaults, {**limits.total, **checked}, limits.operations)
    ops = {k: dict(v) for k, v in limits.operations.items()}
    ops.setdefault(_operation(op, f"--threshold {spec!r}", ", defaults or total"), {}).update(checked)
    return Limits(limits.defaults, limits.total, ops)


def _actual(figures: Mapping[str, Any], metric: str) -> float | None:
    if metric == "min_rps":
        return float(figures.get("rps") or 0.0)
    if metric == "failure_ratio":
        count = figures.get("count") or figures.get("requests") or 0
        fails = figures.get("failures") or 0
        return fails / count if count else 0.0
    v = figures.get(metric)
    return None if v is None else float(v)


def _result(name: str, op: str, metric: str, limit: float, actual: float | None) -> dict[str, Any]:
    if actual is None:
        ok = False  # a latency limit on an operation that recorded no time cannot be shown to hold
    elif metric in LOWER_METRICS:
        ok = actual >= limit
    else:
        ok = actual <= limit
    return {"name": name, "operation": op, "metric": metric, "limit": limit, "actual": actual, "ok": ok}


def evaluate(limits: Limits, operations: Mapping[str, Mapping[str, Any]], total: Mapping[str, Any]) -> list[dict]:
    """One result per (operation, metric) limit that applies, totals first.

    ``operations`` maps operationId to figures with count, failures, rps, p50_ms ... (the summary's
    ``operations``); ``total`` holds the same for all requests. [defaults] applies to every operation the run
    made; an [operations.X] limit on an operation the run never made is checked too (count 0, rps 0), so that a
    minimum throughput for it fails rather than passing unseen; latency limits on it are left out.
    """
    results = [_result(f"{TOTAL}.{m}", TOTAL, m, lim, _actual(total, m)) for m, lim in sorted(limits.total.items())]
    for op in sorted(set(operations) | set(limits.operations)):
        figures = operations.get(op)
        merged = {**limits.defaults, **limits.operations.get(op, {})} if figures else limits.operations.get(op, {})
        for metric, lim in sorted(merged.items()):
            if figures is None and metric not in LOWER_METRICS:
                continue
            results.append(_result(f"{op}.{metric}", op, metric, lim, _actual(figures or {}, metric)))
    return results


def breaches(results: list[dict]) -> list[dict]:
    return [r for r in results if not r["ok"]]
