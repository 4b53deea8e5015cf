"""`qaconform load` end to end against the embedded reference server, each run a bounded subprocess.

Locust never runs in this pytest process (gevent would patch it): every run is ``python -m qaconform.commands.cli load``
and the tests read what it printed, its exit code and its summary.json.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from qaconform.reference import ReferenceServer

ROOT = Path(__file__).resolve().parents[2]
SUMMARY_KEYS = {"scenario", "duration_s", "users", "rate", "workers", "requests", "failures", "rps", "operations",
                "thresholds", "lost", "generator_cpu_warning", "verdict"}
OPERATION_KEYS = {"count", "failures", "rps", "p50_ms", "p95_ms", "p99_ms", "max_ms"}


@pytest.fixture(scope="module")
def ref_profile() -> Iterator[str]:
    """One reference server (fresh in-memory database) for the runs of this module."""
    with ReferenceServer() as server:
        yield str(server.profile_path)


def load(profile: str, out: Path, *args: str, timeout: float = 60) -> tuple[int, str, dict[str, Any]]:
    cmd = [sys.executable, "-m", "qaconform.commands.cli", "load", "--profile", profile,
           "--report-dir", str(out), *args]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    summary_path = out / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.is_file() else {}
    return proc.returncode, proc.stdout + proc.stderr, summary


@pytest.mark.slow
def test_a_mixed_run_passes_the_default_thresholds(ref_profile: str, tmp_path: Path) -> None:
    rc, output, s = load(ref_profile, tmp_path, "--scenario", "mixed", "--duration", "8")
    assert rc == 0, output
    assert SUMMARY_KEYS <= set(s)
    assert s["verdict"] == "pass" and s["failures"] == 0, output
    assert s["thresholds"] and all(t["ok"] for t in s["thresholds"])
    assert {"listQuestions", "postAnswer", "postComment", "scheduleGdprJob"} <= set(s["operations"])
    for figures in s["operations"].values():
        assert OPERATION_KEYS <= set(figures)
    assert s["latency_source"] == "histogram"
    for name in ("locust_stats.csv", "locust_stats_history.csv", "locust.html"):
        assert (tmp_path / name).is_file(), name
    with (tmp_path / "locust_stats.csv").open(newline="") as fh:
        aggregated = next(r for r in csv.DictReader(fh) if r["Name"] == "Aggregated")
    assert int(aggregated["Request Count"]) == s["requests"], "Locust's CSV holds the whole run (the report charts it)"
    live = [line for line in output.splitlines() if line.startswith("  ") and "s of 8s: " in line]
    assert live, f"no live totals while the load ran:\n{output}"


@pytest.mark.slow
def test_an_impossible_threshold_fails_the_run_and_is_named(ref_profile: str, tmp_path: Path) -> None:
    rc, output, s = load(ref_profile, tmp_path, "--scenario", "browse", "--duration", "3", "--users", "2",
                         "--threshold", "listQuestions.p95_ms=0.0001")
    assert rc == 1, output
    assert "THRESHOLD BREACHED listQuestions.p95_ms" in output
    assert s["verdict"] == "fail"
    assert [t["name"] for t in s["thresholds"] if not t["ok"]] == ["listQuestions.p95_ms"]


@pytest.mark.slow
def test_master_and_two_workers_on_loopback_both_make_requests(ref_profile: str, tmp_path: Path) -> None:
    # 10 s, not 3 or 6: at load 20 one worker's users had not started within 3 s (CI beside other work: 1174 and 0), and
    # at load 15 not within 6 s (1610 and 0, 2026-12-01)
    rc, output, s = load(ref_profile, tmp_path, "--scenario", "browse", "--duration", "10", "--users", "4",
                         "--workers", "2")
    assert rc == 0, output
    assert s["workers"] == 2
    by_worker = s["requests_by_worker"]
    assert len(by_worker) == 2 and all(n > 0 for n in by_worker.values()), by_worker
    assert sum(by_worker.values()) == s["requests"], "every request's time reached the master's histogram"
    assert {c["name"] for c in s["generator_cpu"]} == {"master", "worker-1", "worker-2"}


@pytest.mark.slow
def test_a_write_run_loses_nothing(ref_profile: str, tmp_path: Path) -> None:
    rc, output, s = load(ref_profile, tmp_path, "--scenario", "write", "--duration", "4", "--users", "4")
    assert rc == 0, output
    facts = s["nothing_lost"]
    assert facts["answers"] > 0 and facts["comments"] > 0, facts
    assert s["lost"] == []
    created = s["operations"]["postAnswer"]["count"] + s["operations"]["postComment"]["count"]
    assert facts["created"] == created, "every 201 was recorded for the check"


@pytest.mark.slow
def test_workers_send_what_they_created_to_the_master_and_nothing_is_lost(ref_profile: str, tmp_path: Path) -> None:
    """Created ids travel with the workers' stats reports, so a master on another machine gets them too: here the
    master's file is the only one, and it holds every 201 both workers got."""
    rc, output, s = load(ref_profile, tmp_path, "--scenario", "write", "--duration", "4", "--users", "4",
                         "--workers", "2")
    assert rc == 0, output
    assert len(s["requests_by_worker"]) == 2, s["requests_by_worker"]
    facts = s["nothing_lost"]
    created = s["operations"]["postAnswer"]["count"] + s["operations"]["postComment"]["count"]
    assert created > 0 and facts["created"] == created, (facts, created)
    assert s["lost"] == []
    assert len(list(tmp_path.glob("created-*.jsonl"))) == 1, "workers wrote files of their own"


@pytest.mark.slow
def test_rate_mode_reaches_its_rate(ref_profile: str, tmp_path: Path) -> None:
    rc, output, s = load(ref_profile, tmp_path, "--scenario", "browse", "--duration", "4", "--rate", "60")
    assert rc == 0, output
    om = s["open_model"]
    assert om["kept_up"], om
    assert 0.85 * 60 <= s["rps"] <= 1.15 * 60, s["rps"]
    assert s["rate"] == 60
    from_intended = om["latency_from_intended_start"]
    assert from_intended["p99_ms"] >= s["total"]["p99_ms"] - 0.01, "queueing can only add to the service time"


@pytest.mark.slow
def test_a_bad_profile_or_thresholds_file_is_a_usage_error_before_any_load(tmp_path: Path) -> None:
    bad = tmp_path / "thresholds.toml"
    bad.write_text("[defaults]\np95 = 1\n")
    cmd = [sys.executable, "-m", "qaconform.commands.cli", "load", "--profile", str(tmp_path / "missing.toml"),
           "--report-dir", str(tmp_path / "out")]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "file not found" in proc.stderr, proc.stderr
    proc = subprocess.run([*cmd, "--thresholds", str(bad)], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "'p95' is not a metric" in proc.stderr, proc.stderr
    assert not (tmp_path / "out" / "summary.json").exists()


def test_the_nothing_lost_check_reports_an_id_the_lists_do_not_show(ref_profile: str, tmp_path: Path) -> None:
    import requests

    from qaconform.load.nothing_lost import check_nothing_lost, read_created
    from qaconform.target.profile import load_profile

    profile = replace(load_profile(ref_profile), settle_s=0.5)  # a missing id is read again for half a second
    member = profile.accounts["member"]
    qid = profile.fixtures.question_id
    r = requests.post(f"{profile.base_url}/services/v2/question/{qid}/answer.json", json={"body": "<p>kept</p>"},
                      auth=(member.username, member.password), timeout=10)
    assert r.status_code == 201, r.text
    real = int(r.json()["id"])
    uid = r.json()["author"]["id"]
    lines = [{"kind": "answer", "id": real, "role": "member", "parent": qid, "user_id": uid},
             {"kind": "answer", "id": 987654321, "role": "member", "parent": qid, "user_id": uid},
             {"kind": "comment", "id": 987654322, "role": "member", "parent": real, "user_id": uid}]
    (tmp_path / "created-1.jsonl").write_text("\n".join(json.dumps(x) for x in lines) + "\n{torn")
    lost, facts = check_nothing_lost(profile, read_created(tmp_path), budget_s=20)
    assert facts["created"] == 3
    assert sorted((x["kind"], x["id"], x["problem"]) for x in lost) == [
        ("answer", 987654321, "missing"), ("comment", 987654322, "missing")]
    # both lists missed an id, so both were read again within the settle window before the ids were called lost
    assert facts["settle_s"] == 0.5 and facts["lists_that_waited"] == 2 and facts["longest_wait_ms"] >= 500
