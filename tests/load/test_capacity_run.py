"""`qaconform capacity` end to end against a target of known capacity: the reference server behind the capped proxy
(bench/capped_proxy.py: at most 20 requests/s, queued beyond). A correctness check of the search with margin, not a
speed measurement (bench/bench_capacity.py measures 300 and 1,200 req/s); Locust runs in subprocesses only."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from capped_proxy import CappedProxy

from qaconform.reference import ReferenceServer

ROOT = Path(__file__).resolve().parents[2]
TRUTH = 20.0
STEP_KEYS = {"offered_rps", "achieved_rps", "p50_ms", "p95_ms", "p99_ms", "failure_ratio", "generator_cpu_pct",
             "held", "reasons", "steady"}


@pytest.mark.slow
def test_capacity_finds_a_known_low_capacity_within_its_budget(tmp_path: Path) -> None:
    with ReferenceServer() as server, CappedProxy(server.url, rps=TRUTH, service_ms=2) as proxy:
        profile = tmp_path / "capped.toml"
        profile.write_text(Path(server.profile_path).read_text().replace(server.url, proxy.url))
        out = tmp_path / "cap"
        cmd = [sys.executable, "-m", "qaconform.commands.cli", "capacity", "--profile", str(profile),
               "--report-dir", str(out),
               "-s", "browse", "--max-time", "44", "--step-duration", "6"]
        started = time.monotonic()
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
        elapsed = time.monotonic() - started
    report = json.loads((out / "capacity.json").read_text())
    result = report["scenarios"]["browse"]
    output = proc.stdout + proc.stderr + "\n" + json.dumps(result["limited_by"])
    assert proc.returncode == 0, output
    found = result["capacity_rps"]
    # the answer is within 5 % of the truth when the search finishes on a quiet machine; a busy one ends it early (a
    # lower bound, said so) or starves the proxy and the server below the truth (at a load average of 20 on 2 cores
    # the closed-loop probe made 25 of 30 req/s): the margin allows for that, never for an answer above the cap. A
    # first step that broke (CI: 17.8 req/s, a queue building at load 1.9 on 2 cores) is stepped down from, never
    # blamed on a generator at 5 % of a core: "limited by" is the target or the time, and a busy machine a caveat
    assert 0.75 * TRUTH <= found <= 1.03 * TRUTH, output
    assert result["lower_bound"] or (result["precision_reached"] and result["confirmed"]), output
    steps = result["steps"]
    assert steps[0]["kind"] == "probe" and all(STEP_KEYS <= set(s) for s in steps[1:]), steps
    broke = [s for s in steps[1:] if not s["held"]]
    assert all(s["offered_rps"] > found for s in broke), "no rate below the answer broke"
    assert result["limited_by"]["kind"] in ("target", "time"), result["limited_by"]
    assert "highest sustained throughput" in proc.stdout and result["statement"] in proc.stdout
    assert (out / "capacity.html").read_text().count("<svg") == 2
    assert elapsed < 44 + 25, f"capacity overran its --max-time: {elapsed:.0f} s"
