"""The commands work from any working folder: relative paths are the user's, although pytest and Locust run
elsewhere (next to the suites, which may be inside the installed package)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # whole runs from other folders


def _kit(tmp_path: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "qaconform.commands.cli", *args], cwd=tmp_path, capture_output=True,
                          text=True, timeout=timeout, check=False)


def test_run_writes_its_reports_under_the_callers_folder(tmp_path: Path) -> None:
    proc = _kit(tmp_path, "run", "--only", "PAGING-LISTCOUNT", "--junitxml", "junit.xml")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    runs = [p for p in (tmp_path / "reports").iterdir() if not p.is_symlink()]
    assert len(runs) == 1 and (runs[0] / "report.html").is_file() and (runs[0] / "results.json").is_file(), runs
    assert (tmp_path / "junit.xml").is_file()


def test_load_writes_its_reports_under_the_callers_folder(tmp_path: Path) -> None:
    proc = _kit(tmp_path, "load", "--duration", "3", "--users", "2", "--scenario", "browse", "--out", "load-out")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert (tmp_path / "load-out" / "summary.json").is_file()
