"""`qaconform run` against a target that stops listening in the middle of the run (issue 30): exit 3, and 0 failed
rules in every output (terminal, report.json, report.html, junit.xml). The tests that met no answer are blocked;
an unreachable target is never a failed rule."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hostile_server import HostileServer

from qaconform import exitcodes

pytestmark = pytest.mark.slow  # qaconform run in a subprocess: not in the fast lane (README)

DIE_AFTER = 40
"""Requests the proxy forwards before it stops listening: past the preflight and the doctor, inside the suites."""


@pytest.fixture(scope="module")
def reference() -> Iterator[tuple[str, Path]]:
    from qaconform.reference import ReferenceServer

    with ReferenceServer() as srv:
        yield srv.url, Path(srv.profile_path)


def test_a_target_that_dies_mid_run_exits_3_with_no_failed_rule_anywhere(
        reference: tuple[str, Path], hostile: Callable[..., HostileServer], tmp_path: Path) -> None:
    url, profile_path = reference
    proxy = hostile("proxy", upstream=url, die_after=DIE_AFTER)
    profile = tmp_path / "dying.toml"
    text = profile_path.read_text(encoding="utf-8").replace(f'"{url}"', f'"{proxy.url}"')
    profile.write_text(re.sub(r"(?m)^timeout_s = .*$", "timeout_s = 3", text), encoding="utf-8")
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "run", "--profile", str(profile), "--out",
                           str(out), "--only", "paging", "--jobs", "1", "--no-cleanup"],
                          capture_output=True, text=True, timeout=300, check=False, stdin=subprocess.DEVNULL)
    said = f"--- stdout ---\n{proc.stdout[-5000:]}\n--- stderr ---\n{proc.stderr[-3000:]}"
    assert proc.returncode == exitcodes.UNREACHABLE, said
    assert "stopped answering during the run" in proc.stderr, said
    folder = next(p for p in out.iterdir() if p.is_dir() and not p.is_symlink())
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    assert report["exit_code"] == exitcodes.UNREACHABLE and report["stopped"]["reason"] == "unreachable"
    assert report["summary"]["failed_rules"] == [] and report["summary"]["rules"].get("failed", 0) == 0, said
    blocked = [t for t in report["tests"] if t.get("unreachable")]
    assert blocked and all(t["outcome"] == "blocked" for t in blocked), report["tests"]
    junit = ET.fromstring((folder / "junit.xml").read_text(encoding="utf-8"))
    assert junit.get("failures") == "0" and junit.find(".//failure") is None
    html = (folder / "report.html").read_text(encoding="utf-8")
    assert "No rule failed." in html and "stopped answering" in html
    table = proc.stdout.splitlines()
    head = next(i for i, line in enumerate(table) if line.startswith("rules "))
    counts = dict(zip(table[head].split()[1:], table[head + 1].split(), strict=False))
    assert counts.get("failed") == "0" and "\nfailed:" not in proc.stdout, said
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    assert results["stopped"]["reason"] == "unreachable" and results["collection_errors"] == []
