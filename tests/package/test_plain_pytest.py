"""Under plain pytest the plugin stops with pytest's own code for its meaning, and writes why into the results
file (``qaconform run`` reads the reason there instead of scraping the terminal)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from qaconform import exitcodes
from qaconform.kit import pytest_command


def _run(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    results = tmp_path / "results.json"
    cmd = [*pytest_command(), "-q", "--qaconform-results", str(results), *args]
    proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert results.is_file(), f"no results file\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    return proc, json.loads(results.read_text())


def test_a_missing_profile_is_pytests_usage_error_with_the_reason_in_the_results(tmp_path: Path) -> None:
    proc, data = _run(tmp_path, "--target-profile", str(tmp_path / "missing.toml"), "-k", "envelope")
    assert proc.returncode == exitcodes.PYTEST_BAD_PROFILE == pytest.ExitCode.USAGE_ERROR, proc.stdout[-2000:]
    assert data["stopped"]["reason"] == "profile"
    assert "missing.toml" in data["stopped"]["message"] and "file not found" in data["stopped"]["message"]
    assert "--target-profile" in data["stopped"]["message"]  # the option of plain pytest, not qaconform's --profile


def test_an_unreachable_target_has_the_kits_own_code_outside_pytests(tmp_path: Path) -> None:
    profile = tmp_path / "dead.toml"
    accounts = "".join(f'[accounts.{r}]\nusername = "{r}"\npassword = "x"\n' for r in
                       ("admin", "moderator", "member", "novice"))
    profile.write_text(f'base_url = "http://127.0.0.1:9"\ntimeout_s = 2\n{accounts}'
                       '[fixtures]\nquestion_id = 1\nspace_id = 1\n')
    proc, data = _run(tmp_path, "--target-profile", str(profile), "-k", "envelope")
    assert proc.returncode == exitcodes.PYTEST_UNREACHABLE > 5, proc.stdout[-2000:]
    assert data["stopped"]["reason"] == "unreachable"
    assert "127.0.0.1:9" in data["stopped"]["message"]
