"""Locust CSVs are read into the figures the report charts, tolerating N/A and cut-short files."""

from __future__ import annotations

from pathlib import Path

from report_builders import write_locust_csvs

from qaconform.report.loadstats import load_section, read_load_dir


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
    assert section == {"status": "unavailable", "message": "qaconform load not installed", "runs": [], "files": {}}
    assert load_section(tmp_path / "missing", None) is None
