"""The HTML report renders in a real browser: headless Chromium shows the summary, a rule row and a chart, and for a
run with a planted fault, the first failed rule inside the first screen with its rerun command.

Skips, saying why, where Debian's chromium is not installed (.ci/run installs it). The screenshot is kept under
reports/ so a person can look at what the browser drew.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from report_builders import CATALOG, write_locust_csvs
from shared_runs import FAULT, FAULT_RULE, faulted_paging_run, private_copy

from qaconform.report.writer import build_and_write

pytestmark = pytest.mark.slow  # a faulted run rendered in headless Chromium

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


_PROBE = """<script>
(function(){var card=document.querySelector('#failed .rule-card');var h=card&&card.querySelector('h3');
var r=h?h.getBoundingClientRect():null;var cmd=document.querySelector('#failed .cmd.rerun code');
function rows(){return Array.prototype.slice.call(document.querySelectorAll('#rules-table tbody tr'))}
var firstRow=rows()[0].dataset.status;qcSort(document.querySelector('#rules-table th[data-key=id]'));
var ids=rows().map(function(x){return x.dataset.id});qcFilter('failed',null);
var shown=rows().filter(function(x){return x.style.display!=='none'}).map(function(x){return x.dataset.id});
document.body.setAttribute('data-qc-probe',JSON.stringify({viewport:[window.innerWidth,window.innerHeight],
 scrollY:window.scrollY,firstRule:card?card.id:null,top:r?r.top:null,bottom:r?r.bottom:null,
 rerun:cmd?cmd.textContent:null,firstRow:firstRow,sortedById:ids,failedShown:shown}));})();
</script></body>"""
"""Measures, inside the page as Chromium laid it out, where the first failed rule's heading is and what the first
rerun command says; the result is written into the DOM, which --dump-dom prints."""
VIEWPORT = (1280, 800)


def test_the_first_failed_rule_of_a_faulted_run_is_visible_without_scrolling(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The session's one ``qaconform run --reference-fault FAULT --only paging`` (shared_runs.py: test_run_command.py
    reads it too), probed in a copy of its folder."""
    binary = chromium()
    proc, out = faulted_paging_run(tmp_path_factory)
    assert proc.returncode == 1, f"the faulted run should fail one rule\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}"
    (shared_dir,) = [p for p in out.iterdir() if p.is_dir() and not p.is_symlink()]  # reports/latest is a link
    run_dir = private_copy(shared_dir, tmp_path / "run")  # the probe page is written beside the report
    html = (run_dir / "report.html").read_text(encoding="utf-8")
    assert "</body>" in html
    probe = run_dir / "probe.html"
    probe.write_text(html.replace("</body>", _PROBE, 1), encoding="utf-8")
    dom = run_chromium(binary, tmp_path / "profile-probe", f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}",
                       "--dump-dom", probe.resolve().as_uri())
    assert dom.returncode == 0, f"chromium --dump-dom failed ({dom.returncode}): {dom.stderr[-2000:]}"
    found = re.search(r'data-qc-probe="([^"]*)"', dom.stdout)
    assert found, "the probe script did not run in Chromium"
    facts = json.loads(unescape(found.group(1)))
    assert facts["firstRule"] == f"failed-{FAULT_RULE}", facts
    assert facts["scrollY"] == 0 and facts["viewport"][1] > 0, facts
    assert 0 <= facts["top"] and facts["bottom"] <= facts["viewport"][1], f"first failed rule below the fold: {facts}"
    rerun = facts["rerun"] or ""
    assert "-m pytest " in rerun and "/suites/" in rerun and "::test_" in rerun, f"no rerun command: {facts}"
    assert "--target-profile" in rerun, facts
    assert f"qaconform run --reference-fault {FAULT} --only {FAULT_RULE}" in dom.stdout
    assert facts["firstRow"] == "failed", "the rule table puts failed rules on top"
    assert facts["sortedById"] == sorted(facts["sortedById"]) and len(facts["sortedById"]) > 100, "sort by rule id"
    assert facts["failedShown"] == [FAULT_RULE], "the status filter shows only the failed rule"

    TOP_SHOT.parent.mkdir(exist_ok=True)
    TOP_SHOT.unlink(missing_ok=True)
    shot = run_chromium(binary, tmp_path / "profile-top", f"--screenshot={TOP_SHOT}",
                        f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}", "--hide-scrollbars",
                        (run_dir / "report.html").resolve().as_uri())
    assert shot.returncode == 0 and TOP_SHOT.is_file() and TOP_SHOT.stat().st_size > 10_000, shot.stderr[-2000:]


TOP_SHOT = ROOT / "reports" / "report-html-top-chromium.png"
