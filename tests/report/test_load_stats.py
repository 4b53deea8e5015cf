"""Locust CSVs are read into the figures the report charts, tolerating N/A and cut-short files."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from report_builders import CATALOG, write_locust_csvs, write_summary_json

from qaconform.report.loadstats import load_section, read_load_dir
from qaconform.report.writer import build_and_write


def test_locust_csvs_become_totals_history_and_failures(tmp_path: Path) -> None:
    runs = read_load_dir(write_locust_csvs(tmp_path / "load"))
    assert len(runs) == 1
    run = runs[0]
    assert run["aggregated"]["requests"] == 1000 and run["aggregated"]["failures"] == 3
    assert [o["name"] for o in run["operations"]] == ["listQuestions", "postComment"]
    assert run["operations"][1]["p95_ms"] == 25.0
    assert len(run["history"]) == 11 and run["history"][0]["t"] == 0 and run["history"][0]["p50_ms"] is None
    assert run["history"][-1]["rps"] == 99.0
    assert run["failures"] == [{"method": "POST", "name": "postComment", "error": "HTTPError('500 Server Error')",
                                "occurrences": 3}]


def test_a_run_cut_short_with_header_only_files_gives_empty_figures(tmp_path: Path) -> None:
    d = tmp_path / "load"
    d.mkdir()
    (d / "x_stats.csv").write_text("Type,Name,Request Count\n")
    run = read_load_dir(d)[0]
    assert run["aggregated"] is None and run["operations"] == [] and run["history"] == []


def test_the_load_section_records_the_status_even_without_csvs(tmp_path: Path) -> None:
    section = load_section(tmp_path / "missing", {"status": "unavailable", "message": "qaconform load not installed"})
    assert section == {"status": "unavailable", "message": "qaconform load not installed", "runs": [], "files": []}
    assert load_section(tmp_path / "missing", None) is None


def test_the_load_section_headlines_the_harness_exact_percentiles_and_its_thresholds(tmp_path: Path) -> None:
    load_dir = write_summary_json(write_locust_csvs(tmp_path / "load", prefix="locust"))
    (load_dir / "locust_failures.csv").write_text(
        "Method,Name,Error,Occurrences,First Seen,Last Seen\n"
        "POST,postComment,\"CheckFailure('status_expected: got 200, expected 201')\",2,1,2\n"
        "POST,postComment,\"HTTPError('500 Server Error')\",1,1,2\n")
    section = load_section(load_dir, {"status": "breached"})
    assert section is not None
    assert section["headline"]["p50_ms"] == 5.324 and section["headline"]["p95_ms"] == 10.847  # not Locust's 5 / 11
    assert section["thresholds"][0] == {"operation": "postComment", "metric": "failure_ratio", "limit": 0.01,
                                        "measured": 0.03, "ok": False, "name": "postComment.failure_ratio"}
    assert section["thresholds_breached"] == ["postComment.failure_ratio"]
    assert section["failures_by_check"] == [{"check": "status_expected", "failures": 2},
                                            {"check": "HTTPError", "failures": 1}]
    assert section["failures_by_operation"][0] == {"operation": "postComment", "failures": 3}
    assert section["failures"][0] == {"operation": "postComment", "method": "POST", "occurrences": 2,
                                      "error": "CheckFailure('status_expected: got 200, expected 201')"}
    assert len(section["over_time"]) == 11 and section["files"] == ["summary.json"]


def test_the_html_load_section_has_the_headline_a_thresholds_table_and_four_charts_with_axes(
        tmp_path: Path, results: dict[str, Any]) -> None:
    write_summary_json(write_locust_csvs(tmp_path / "run" / "load", prefix="locust"))
    report, paths = build_and_write(results, tmp_path / "run", rules=CATALOG, meta={"load": {"status": "breached"}})
    assert report["load"]["headline"]["p95_ms"] == 10.847
    html = paths["html"].read_text(encoding="utf-8")
    load = html[html.index('<section id="load">'):]
    assert "p50 5.324 ms, p95 10.847 ms, p99 25.03 ms" in load
    assert re.search(r"<tr><td>postComment</td><td>failure_ratio</td><td>0.01</td><td>0.03</td>"
                     r'<td class="fail">FAIL</td></tr>', load)
    for title in ("Throughput over time", "Latency over time", "Failures by operation", "Failures by check"):
        assert f"<title>{title}" in load
    for axis in ("time since start (s)", "requests per second", "latency (ms)", "failed requests (count)"):
        assert axis in load, axis
    assert "load harness output" not in load  # no raw JSON dump any more


def test_the_html_load_section_lists_what_each_failure_answered_and_says_which_checks_were_sampled(
        tmp_path: Path, results: dict[str, Any]) -> None:
    load_dir = write_summary_json(write_locust_csvs(tmp_path / "run" / "load", prefix="locust"))
    (load_dir / "locust_failures.csv").write_text(
        "Method,Name,Error,Occurrences,First Seen,Last Seen\n"
        "PUT,sendToModeration,\"CheckFailure('status_expected: got 400, expected 2xx; body: {\"\"error\"\": "
        "\"\"Node # is <in> moderation\"\"}')\",7,1,2\n")
    _, paths = build_and_write(results, tmp_path / "run", rules=CATALOG, meta={"load": {"status": "breached"}})
    html = paths["html"].read_text(encoding="utf-8")
    load = html[html.index('<section id="load">'):]
    failures = load[load.index('<table id="load-failures">'):]
    assert "<td>sendToModeration</td><td>PUT</td><td>7</td>" in failures
    assert "got 400, expected 2xx; body: {&quot;error&quot;: &quot;Node # is &lt;in&gt; moderation" in failures
    assert "list answers parsed on one in 16 calls per user (sampled)" in load


def test_the_html_load_section_says_what_the_load_wrote_under_its_budget(
        tmp_path: Path, results: dict[str, Any]) -> None:
    load_dir = write_summary_json(write_locust_csvs(tmp_path / "run" / "load", prefix="locust"))
    summary = json.loads((load_dir / "summary.json").read_text(encoding="utf-8"))
    summary["writes"] = {"max_writes": 100, "max_write_rps": 5.0, "sent": 100, "accepted": 99, "refused": 1,
                         "budget_reached": True,
                         "by_operation": {"postComment": {"sent": 100, "accepted": 99, "refused": 1}}}
    (load_dir / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    report, paths = build_and_write(results, tmp_path / "run", rules=CATALOG, meta={"load": {"status": "breached"}})
    assert report["load"]["writes"]["sent"] == 100
    load = paths["html"].read_text(encoding="utf-8")
    load = load[load.index('<h3 id="load-writes">'):]
    assert load.startswith('<h3 id="load-writes">Writes: 100 sent, 99 accepted, 1 refused (budget 100 writes at 5.0/s)')
    assert "<tr><td>postComment</td><td>100</td><td>99</td><td>1</td></tr>" in load
    assert "The write budget was reached" in load
