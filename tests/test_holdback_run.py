"""A whole run against a target that rate-limits (issue 31 item 4): the reference server's variant rate-limit-20rps
answers 429 with Retry-After beyond about 20 requests a second per account. The run waits as told: it exits 0 with
no rule failed and no test given up, and its summary says how often and how long it was held back. (The client's
handling, answer by answer: tests/test_holdback.py; every suite against the variant: `qaconform selftest --variant
rate-limit-20rps`.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from qaconform.reference import ReferenceServer
from qaconform.target.holdback import FLOOR_S

pytestmark = pytest.mark.slow  # qaconform run in a subprocess: not in the fast lane (README)


def test_a_run_against_a_rate_limiting_target_is_held_back_never_failed(tmp_path: Path) -> None:
    out = tmp_path / "run"
    with ReferenceServer(variants=("rate-limit-20rps",)) as srv:
        proc = subprocess.run(
            [sys.executable, "-m", "qaconform.commands.cli", "run", "--profile", srv.profile_path, "--only", "paging",
             "--report-dir", str(out), "--no-cleanup", "--jobs", "2"],
            cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False)
    assert (out / "report.json").is_file(), proc.stdout[-3000:] + proc.stderr[-3000:]
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    held = report["held_back"]
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert report["summary"]["rules"].get("failed", 0) == 0 and report["summary"]["rules"].get("error", 0) == 0
    assert held["times"] > 0 and held["statuses"].get("429") == held["times"], (
        f"paging walks lists as fast as the target answers: a run with no 429 did not meet the variant? {held}")
    assert held["waited_s"] >= FLOOR_S * held["times"], held  # waited as told: never resent at once
    assert held["not_checked"] == [], held
    line = next((x for x in proc.stdout.splitlines() if x.startswith("held back by the target")), None)
    assert line is not None and f"{held['times']} time(s)" in line, proc.stdout[-3000:]
    assert "held back by the target" in (out / "report.html").read_text(encoding="utf-8")
