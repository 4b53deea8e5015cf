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
    """The ``load`` part of report.json: what the runner recorded (status, command, exit code) and the figures.

    The headline, per-operation figures and thresholds come from the load harness's summary.json, whose
    percentiles are exact (the kit's own histogram, 1 µs buckets below 10 ms); Locust's CSVs give the per-second
    history for the over-time charts (Locust rounds those to whole ms under 100 ms, the chart says so) and the
    failures by check. ``files`` lists the harness's JSON files; their content stays in the load folder."""
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
    summary = _main_summary(files)
    if summary is not None:
        section.update(_figures(summary, runs))
    section["files"] = sorted(files)
    return section


# ----------------------------------------------------------------------------------------------------------
# the figures people read: exact percentiles, thresholds, failures by operation and by check

def _main_summary(files: dict[str, Any]) -> dict[str, Any] | None:
    """The load harness's summary.json of the run (the top-level one when a capacity search left several)."""
    for name in sorted(files, key=lambda n: (n.count("/"), n)):
        if isinstance(files[name], dict) and isinstance(files[name].get("operations"), dict):
            return dict(files[name])
    return None


def _figures(summary: dict[str, Any], runs: list[dict[str, Any]]) -> dict[str, Any]:
    """What report.json's ``load`` section and the HTML headline show, from the kit's histogram (summary.json) and
    Locust's per-second history (rounded by Locust to whole ms under 100 ms: used only for the over-time chart)."""
    total = summary.get("total") or {}
    requests = int(total.get("count") or summary.get("requests") or 0)
    failures = int(total.get("failures") or summary.get("failures") or 0)
    headline = {
        "requests": requests, "failures": failures,
        "failure_ratio": round(failures / requests, 6) if requests else None,
        "rps": total.get("rps", summary.get("rps")),
        **{k: total.get(k) for k in ("p50_ms", "p95_ms", "p99_ms", "max_ms")},
        "latency_source": summary.get("latency_source"),
    }
    operations = [{"operation": name, "requests": int(o.get("count") or 0), "failures": int(o.get("failures") or 0),
                   **{k: o.get(k) for k in ("rps", "p50_ms", "p95_ms", "p99_ms", "max_ms")}}
                  for name, o in sorted((summary.get("operations") or {}).items())]
    thresholds = [{"operation": t.get("operation"), "metric": t.get("metric"), "limit": t.get("limit"),
                   "measured": t.get("actual"), "ok": bool(t.get("ok")), "name": t.get("name")}
                  for t in summary.get("thresholds") or [] if isinstance(t, dict)]
    thresholds.sort(key=lambda t: (t["ok"], str(t["operation"]), str(t["metric"])))
    # every failure counted by the check that raised it, as the load processes tallied it (check_rules.RuleTally):
    # data, not a name read back out of Locust's failure text
    checks = (summary.get("failed_rules") or {}).get("checks") or {}
    by_check = {str(k): int(n) for k, n in checks.items() if isinstance(n, int)}
    by_op_csv: dict[str, int] = {}
    for run in runs[:1]:
        for f in run.get("failures") or []:
            by_op_csv[f["name"]] = by_op_csv.get(f["name"], 0) + f["occurrences"]
    by_op = {o["operation"]: o["failures"] for o in operations}
    for name, n in by_op_csv.items():
        by_op[name] = max(by_op.get(name, 0), n)
    over_time = [{k: h.get(k) for k in ("t", "users", "rps", "fps", "p50_ms", "p95_ms", "p99_ms")}
                 for h in (runs[0].get("history") if runs else None) or []]
    return {
        "scenario": summary.get("scenario"), "users": summary.get("users"), "rate": summary.get("rate"),
        "workers": summary.get("workers"), "duration_s": summary.get("duration_s"),
        "verdict": summary.get("verdict"), "headline": headline, "operations": operations,
        "thresholds": thresholds,
        "thresholds_breached": [t["name"] for t in thresholds if not t["ok"]],
        "failures_by_operation": [{"operation": k, "failures": v} for k, v in sorted(by_op.items(),
                                                                                      key=lambda kv: (-kv[1], kv[0]))],
        "failures_by_check": [{"check": k, "failures": v} for k, v in sorted(by_check.items(),
                                                                             key=lambda kv: (-kv[1], kv[0]))],
        "over_time": over_time,
        "lost": summary.get("lost") or [],
        "generator_cpu_warning": summary.get("generator_cpu_warning"),
        "failures": _failure_rows(runs),
        "checks": summary.get("checks") or None,
        "writes": summary.get("writes") or None,
    }


FAILURE_ROWS = 20


def _failure_rows(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The most frequent failure rows as Locust recorded them: operation, method, count and the message, which
    names the status and the start of the body the server answered (qaconform.load.locust_checks)."""
    rows = [{"operation": f["name"], "method": f["method"], "error": f["error"], "occurrences": f["occurrences"]}
            for run in runs[:1] for f in run.get("failures") or []]
    return sorted(rows, key=lambda r: (-r["occurrences"], r["operation"], r["error"]))[:FAILURE_ROWS]
