"""Locust's CSV output (``--csv PREFIX``) read back as figures for the report and its charts.

Locust writes ``PREFIX_stats.csv`` (totals per request name, plus an ``Aggregated`` row),
``PREFIX_stats_history.csv`` (one row per second: throughput and current percentiles, ``Aggregated`` at least)
and ``PREFIX_failures.csv`` (method, name, error, occurrences). Values may be ``N/A``; a run cut short may leave
a file with only its header. Nothing here raises on such data: a chart with no points says so instead.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

PERCENTILES = ("50%", "95%", "99%")
_MAX_HISTORY_ROWS = 20000
_MAX_JSON_BYTES = 200_000


def _num(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        v = float(value)
    except ValueError:
        return None
    return v if v == v else None  # NaN


def _rows(path: Path, limit: int = _MAX_HISTORY_ROWS) -> list[dict[str, str]]:
    try:
        with path.open(newline="", encoding="utf-8", errors="replace") as fh:
            out = []
            for i, row in enumerate(csv.DictReader(fh)):
                if i >= limit:
                    break
                out.append({k.strip(): (v or "").strip() for k, v in row.items() if k})
            return out
    except OSError:
        return []


def read_load_dir(load_dir: Path) -> list[dict[str, Any]]:
    """One entry per Locust CSV prefix found in ``load_dir`` (a run, or the steps of a capacity search)."""
    if not load_dir.is_dir():
        return []
    runs = []
    for stats in sorted(load_dir.rglob("*_stats.csv")):
        prefix = stats.name[: -len("_stats.csv")]
        runs.append(read_run(stats.parent, prefix))
    return runs


def read_run(folder: Path, prefix: str) -> dict[str, Any]:
    stats = _rows(folder / f"{prefix}_stats.csv")
    history = _rows(folder / f"{prefix}_stats_history.csv")
    failures = _rows(folder / f"{prefix}_failures.csv")
    operations = []
    aggregated: dict[str, Any] | None = None
    for r in stats:
        entry = {
            "method": r.get("Type", ""),
            "name": r.get("Name", ""),
            "requests": int(_num(r.get("Request Count")) or 0),
            "failures": int(_num(r.get("Failure Count")) or 0),
            "rps": _num(r.get("Requests/s")),
            "avg_ms": _num(r.get("Average Response Time")),
            "max_ms": _num(r.get("Max Response Time")),
            **{f"p{p.rstrip('%')}_ms": _num(r.get(p)) for p in PERCENTILES},
        }
        if r.get("Name") == "Aggregated":
            aggregated = entry
        else:
            operations.append(entry)
    agg_history = [r for r in history if r.get("Name") == "Aggregated"] or history
    series = []
    t0: float | None = None
    for r in agg_history:
        ts = _num(r.get("Timestamp"))
        if ts is None:
            continue
        t0 = ts if t0 is None else t0
        series.append({
            "t": ts - t0,
            "users": _num(r.get("User Count")),
            "rps": _num(r.get("Requests/s")),
            "fps": _num(r.get("Failures/s")),
            **{f"p{p.rstrip('%')}_ms": _num(r.get(p)) for p in PERCENTILES},
        })
    failure_rows = [{"method": r.get("Method", ""), "name": r.get("Name", ""), "error": r.get("Error", ""),
                     "occurrences": int(_num(r.get("Occurrences")) or 0)} for r in failures]
    return {"prefix": prefix, "folder": folder.name, "aggregated": aggregated, "operations": operations,
            "history": series, "failures": failure_rows}


def read_json_files(load_dir: Path) -> dict[str, Any]:
    """The ``summary.json`` files the load harness leaves next to its CSVs (verdict, thresholds), by path."""
    out: dict[str, Any] = {}
    if not load_dir.is_dir():
        return out
    for p in sorted(load_dir.rglob("summary.json"))[:20]:
        try:
            if p.stat().st_size <= _MAX_JSON_BYTES:
                out[str(p.relative_to(load_dir))] = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            out[str(p.relative_to(load_dir))] = "<unreadable>"
    return out


def load_section(load_dir: Path, status: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The ``load`` part of report.json: what the runner recorded (status, command, exit code) and the figures."""
    runs = read_load_dir(load_dir)
    if not runs and not status:
        return None
    section: dict[str, Any] = dict(status or {})
    files = read_json_files(load_dir)
    verdicts = {v.get("verdict") for v in files.values() if isinstance(v, dict)}
    if "status" not in section:
        section["status"] = ("breached" if "fail" in verdicts else "passed" if "pass" in verdicts
                             else "ran" if runs else "no results")
    section["runs"] = runs
    section["files"] = files
    return section
