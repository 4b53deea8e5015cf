"""The HTML report renders in a real browser: headless Chromium shows the summary, a rule row and a chart.

Skips, saying why, where Debian's chromium is not installed (.ci/run installs it). The screenshot is kept under
reports/ so a person can look at what the browser drew.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from report_builders import CATALOG, write_locust_csvs

from qaconform.report.writer import build_and_write

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT = ROOT / "reports" / "report-html-chromium.png"
_TIMEOUT_S = 90


def chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    pytest.skip("chromium is not installed (apt-get install -y chromium); the HTML report was not checked in a browser")


def run_chromium(binary: str, profile_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", f"--user-data-dir={profile_dir}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=_TIMEOUT_S, check=False)


def test_chromium_renders_summary_rule_rows_and_charts(tmp_path: Path, results: dict[str, Any]) -> None:
    binary = chromium()
    run_dir = tmp_path / "run"
    write_locust_csvs(run_dir / "load")
    _, paths = build_and_write(results, run_dir, rules=CATALOG, meta={"run_id": "chromium-check",
                                                                      "load": {"status": "ran"}})
    url = paths["html"].resolve().as_uri()
    dom = run_chromium(binary, tmp_path / "profile-dom", "--dump-dom", url)
    assert dom.returncode == 0, f"chromium --dump-dom failed ({dom.returncode}): {dom.stderr[-2000:]}"
    html = dom.stdout
    assert '<section id="summary">' in html and 'id="verdict"' in html
    assert 'id="rule-FAIL-1"' in html and 'data-status="failed"' in html
    assert html.count("<svg") >= 4  # the summary bar and three load charts
    assert "Latency percentiles over time" in html

    SCREENSHOT.parent.mkdir(exist_ok=True)
    SCREENSHOT.unlink(missing_ok=True)
    shot = run_chromium(binary, tmp_path / "profile-shot", f"--screenshot={SCREENSHOT}", "--window-size=1400,2000",
                        "--hide-scrollbars", url)
    assert shot.returncode == 0, f"chromium --screenshot failed ({shot.returncode}): {shot.stderr[-2000:]}"
    assert SCREENSHOT.is_file() and SCREENSHOT.stat().st_size > 10_000, "the screenshot is missing or blank"
