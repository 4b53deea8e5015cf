"""Turn one run's raw outputs (Locust's final CSV, our latency.json, the nothing-lost result) into
``summary.json``, the file the report charts and the exit code come from.

Counts, failures and throughput come from Locust's own ``*_stats.csv`` (it is the authority on what it sent);
percentiles come from our float histogram, which is exact to the microsecond below 10 ms where Locust's are
whole milliseconds. When the histogram of an operation is missing (a worker that never reported), Locust's
percentiles are used and ``latency_source`` says so.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from qaconform.load.histogram import Histogram, HistogramSet

AGGREGATED = "Aggregated"


def read_stats_csv(path: str | Path) -> dict[str, dict[str, Any]]:
    """Rows of Locust's ``<prefix>_stats.csv`` by request name (``Aggregated`` for the total row)."""
    rows: dict[str, dict[str, Any]] = {}
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            name = row.get("Name") or ""
            rows[name] = {
                "type": row.get("Type", ""),
                "count": int(row.get("Request Count") or 0),
                "failures": int(row.get("Failure Count") or 0),
                "rps": float(row.get("Requests/s") or 0.0),
                "p50_ms": _num(row.get("50%")),
                "p95_ms": _num(row.get("95%")),
                "p99_ms": _num(row.get("99%")),
                "max_ms": _num(row.get("Max Response Time")),
            }
    return rows


def _num(raw: str | None) -> float | None:
    if raw in (None, "", "N/A"):
        return None
    return float(raw)


def _r(v: float | None, nd: int = 3) -> float | None:
    return None if v is None else round(v, nd)


def operation_figures(row: Mapping[str, Any], hist: Histogram | None) -> dict[str, Any]:
    figures = {"count": row["count"], "failures": row["failures"], "rps": _r(row["rps"], 2)}
    if hist is not None and hist.count:
        figures.update(p50_ms=_r(hist.percentile(50)), p95_ms=_r(hist.percentile(95)),
                       p99_ms=_r(hist.percentile(99)), max_ms=_r(hist.max_ms))
    else:
        figures.update(p50_ms=row["p50_ms"], p95_ms=row["p95_ms"], p99_ms=row["p99_ms"], max_ms=row["max_ms"])
    return figures


def build_operations(stats: Mapping[str, Mapping[str, Any]], hists: HistogramSet) -> tuple[dict, dict, str]:
    """(operations by name, total figures, latency source) from the CSV rows and merged histograms."""
    ops: dict[str, dict[str, Any]] = {}
    source = "histogram"
    for name, row in stats.items():
        if name == AGGREGATED:
            continue
        h = hists.by_name.get(name)
        if h is None or not h.count:
            source = "locust"
        ops[name] = operation_figures(row, h)
    agg = stats.get(AGGREGATED) or {"count": 0, "failures": 0, "rps": 0.0, "p50_ms": None, "p95_ms": None,
                                     "p99_ms": None, "max_ms": None}
    total = operation_figures(agg, hists.total() if source == "histogram" else None)
    return ops, total, source
