"""Progress lines ("n of N", time left), live load totals read from Locust's history file, and the text tables."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from qaconform.load.live import LiveTotals, latest_totals
from qaconform.report import progress
from qaconform.report.tables import table_text

HEADER = ("Timestamp,User Count,Type,Name,Requests/s,Failures/s,50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%,"
          "Total Request Count,Total Failure Count,Total Median Response Time,Total Average Response Time,"
          "Total Min Response Time,Total Max Response Time,Total Average Content Size")


def row(ts: int, users: int, name: str, rps: float, p95: str, total: int, failed: int) -> str:
    kind = "" if name == "Aggregated" else "GET"
    return (f"{ts},{users},{kind},{name},{rps:2f},0.000000,5,6,7,8,9,{p95},12,13,14,15,16,{total},{failed},"
            "5,6.1,1,16,512")


def quiet_console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=False, width=200, highlight=False), out


def test_duration_reads_like_a_person_writes_it() -> None:
    assert [progress.duration(s) for s in (0, 59.4, 75, 3725)] == ["0s", "59s", "1m15s", "1h02m"]


def test_tracker_prints_n_of_n_and_an_estimate_from_the_items_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter([100.0, 110.0, 120.0, 130.0])
    monkeypatch.setattr(progress.time, "monotonic", lambda: next(clock))
    console, out = quiet_console()
    with progress.Tracker(3, "self-test", console=console) as t:
        first = t.advance("fault-a: caught (9s)")   # 10 s for 1 item, 2 left
        second = t.advance("fault-b: caught (9s)")  # 20 s for 2 items, 1 left
        third = t.advance("fault-c: MISSED (9s)")
    assert first == "[1 of 3] fault-a: caught (9s) (about 20s left)"
    assert second == "[2 of 3] fault-b: caught (9s) (about 10s left)"
    assert third == "[3 of 3] fault-c: MISSED (9s)"
    assert out.getvalue().splitlines() == [first, second, third]


def test_live_totals_show_the_newest_aggregate_row(tmp_path: Path) -> None:
    history = tmp_path / "locust_stats_history.csv"
    assert latest_totals(history) is None  # not written yet
    history.write_text(HEADER + "\n")
    assert latest_totals(history) is None  # Locust started, no row yet
    lines = [row(1, 5, "/question.json", 3.0, "11", 3, 0), row(1, 5, "Aggregated", 3.0, "11", 3, 0),
             row(2, 10, "/question.json", 8.0, "20", 11, 1), row(2, 10, "Aggregated", 8.5, "21", 12, 1)]
    history.write_text(HEADER + "\n" + "\n".join(lines) + "\n")
    t = latest_totals(history)
    assert t is not None
    assert (t.users, t.requests, t.failures, t.rps_now, t.p95_ms) == (10, 12, 1, 8.5, 21.0)
    console, out = quiet_console()
    live = LiveTotals(history, duration_s=20, every_s=0, console=console)
    # Locust's clock (the rows' Timestamps 1 and 2), not the 5.2 s since the processes started
    assert live.line(5.2) == "  1s of 20s: 12 requests, 1 failures, 8.5 req/s now, p95 21 ms now, 10 users"
    assert live.line(7.0) is None  # nothing new since the last line


def test_live_totals_count_locusts_time_and_say_what_zero_requests_and_the_end_mean(tmp_path: Path) -> None:
    """user13, load 36 with two workers: the lines read "5s of 20s: 0 requests" (users spawning) and "20s of 20s"
    twice (the processes took 5 s to start, so the wall clock reached 20 s while Locust was at 15 s)."""
    history = tmp_path / "locust_stats_history.csv"
    console, _ = quiet_console()
    live = LiveTotals(history, duration_s=20, every_s=0, console=console)
    rows = [row(1000, 5, "Aggregated", 0.0, "0", 0, 0)]
    history.write_text(HEADER + "\n" + "\n".join(rows) + "\n")
    assert live.line(5.0) == "  0s of 20s: 5 users started, no request finished yet"
    rows.append(row(1015, 10, "Aggregated", 23.6, "720", 469, 0))
    history.write_text(HEADER + "\n" + "\n".join(rows) + "\n")
    assert live.line(20.0) == "  15s of 20s: 469 requests, 0 failures, 23.6 req/s now, p95 720 ms now, 10 users"
    rows.append(row(1021, 7, "Aggregated", 43.5, "780", 727, 0))
    history.write_text(HEADER + "\n" + "\n".join(rows) + "\n")
    assert (live.line(25.0) or "").startswith("  20s of 20s, users stopping: 727 requests")
    rows.append(row(1022, 0, "Aggregated", 50.8, "780", 734, 0))
    history.write_text(HEADER + "\n" + "\n".join(rows) + "\n")
    assert (live.line(26.0) or "").startswith("  20s of 20s, users stopped: 734 requests")


def test_live_totals_read_only_the_end_of_a_long_history(tmp_path: Path) -> None:
    history = tmp_path / "locust_stats_history.csv"
    body = [row(i, 50, "Aggregated", 100.0, "30", 100 * i, 0) for i in range(1, 5001)]
    history.write_text(HEADER + "\n" + "\n".join(body) + "\n")
    assert history.stat().st_size > 10 * 32 * 1024
    t = latest_totals(history)
    assert t is not None and t.requests == 500000


def test_live_totals_before_the_first_request_say_so(tmp_path: Path) -> None:
    console, _ = quiet_console()
    live = LiveTotals(tmp_path / "missing.csv", duration_s=10, console=console)
    assert live.line(3.0) == "  starting Locust (3s), no request finished yet; the 10s of load count from its start"


def test_the_clock_of_the_live_lines_never_runs_backwards(tmp_path: Path) -> None:
    """qa20: `qaconform load -d 15` printed "5s of 15s: starting Locust" and then "2s of 15s: 556 requests": the
    first line counted from the kit's start, the next from Locust's first history row."""
    history = tmp_path / "locust_stats_history.csv"
    console, _ = quiet_console()
    live = LiveTotals(history, duration_s=15, console=console)
    starting = live.line(5.0)
    history.write_text(HEADER + "\n" + "\n".join([row(100, 5, "Aggregated", 0.0, "20", 0, 0),
                                                  row(102, 5, "Aggregated", 300.0, "22", 556, 0)]) + "\n")
    running = live.line(7.0)
    assert starting is not None and running is not None and running.startswith("  2s of 15s: 556 requests"), running
    assert " of 15s" not in starting, "the start-up seconds are not seconds of the load's duration"


def test_tables_align_numbers_right_and_show_missing_values_as_a_dash() -> None:
    text = table_text(("operation", "count", "p95 ms"), [("listQuestions", 120, "12.5"), ("postComment", 3, None)],
                      numeric=(1, 2))
    lines = text.splitlines()
    assert lines[0].split() == ["operation", "count", "p95", "ms"]
    assert set(lines[1]) == {"-"}
    assert lines[2].split() == ["listQuestions", "120", "12.5"] and lines[3].split() == ["postComment", "3", "-"]
    assert lines[2].index("120") + 3 == lines[3].index("3") + 1  # right-aligned


def test_capacity_bounds_its_steps_by_the_time_left() -> None:
    from qaconform.load.capacity import STEP_OVERHEAD_S, max_steps

    assert max_steps(3 * (8 + STEP_OVERHEAD_S), 8) == 3
    assert max_steps(3 * (8 + STEP_OVERHEAD_S) - 0.1, 8) == 2
    assert max_steps(-5, 8) == 0
