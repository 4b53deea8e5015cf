"""The commands work from any working folder: relative paths are the user's, although pytest and Locust run
elsewhere (next to the suites, which may be inside the installed package)."""

from __future__ import annotations

import os
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
    proc = _kit(tmp_path, "load", "--duration", "3", "--users", "2", "--scenario", "browse", "--report-dir", "load-out")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert (tmp_path / "load-out" / "summary.json").is_file()


def test_a_parallel_run_leaves_nothing_in_the_callers_folder_but_what_it_was_asked_for(tmp_path: Path) -> None:
    """A CI build in a fresh folder holding its profile: afterwards it holds the reports and the JUnit file asked
    for, and no cache of the tools the kit runs (hypothesis kept ``.hypothesis/`` in the folder the fork server
    started in). The caches go to the kit's cache folder (here a temporary XDG_CACHE_HOME)."""
    work, cache = tmp_path / "build", tmp_path / "cache"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("HYPOTHESIS_STORAGE_DIRECTORY", "QACONFORM_JOBS")}
    proc = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "run", "--only", "paging", "--jobs", "2",
                           "--junitxml", "junit.xml"], cwd=work, capture_output=True, text=True, timeout=600,
                          check=False, env={**env, "XDG_CACHE_HOME": str(cache)})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "2 workers" in proc.stdout, proc.stdout[-3000:]
    assert sorted(p.name for p in work.iterdir()) == ["junit.xml", "reports"]
    assert (cache / "qaconform" / "hypothesis").is_dir()
