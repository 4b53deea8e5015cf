"""Under plain pytest the plugin stops with pytest's own code for its meaning, and writes why into the results
file (``qaconform run`` reads the reason there instead of scraping the terminal)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from qaconform import exitcodes
from qaconform.kit import pytest_command

pytestmark = pytest.mark.slow  # plain pytest runs of the suites


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


def test_an_account_refused_on_one_operation_only_is_a_verdict_not_a_bad_profile(tmp_path: Path) -> None:
    """A server that splits the credentials at the last colon on the expert lists refuses novice there (its password
    holds colons) and takes it everywhere else: the preflight must not call that a wrong password (exit 4, no
    verdict), the suites judge it: AUTH-BASIC fails, exit 1."""
    from qaconform.reference import ReferenceServer

    with ReferenceServer(faults=("auth-colon-password-refused-on-experts",)) as srv:
        proc, data = _run(tmp_path, "--target-profile", str(srv.profile_path), "--rule", "AUTH-BASIC",
                          "-k", "basic_credentials_of_a_valid_account", "-p", "no:randomly")
    assert proc.returncode == pytest.ExitCode.TESTS_FAILED, proc.stdout[-2000:]
    assert not data.get("stopped"), data.get("stopped")
    failed = [t for t in data["tests"] if t["outcome"] == "failed"]
    assert failed and all("novice" in t["nodeid"] and "retrieveAllExperts" in t["nodeid"] for t in failed), failed


def test_an_account_refused_everywhere_still_stops_the_run_as_a_bad_profile(tmp_path: Path) -> None:
    from qaconform.reference import ReferenceServer

    with ReferenceServer() as srv:
        profile = tmp_path / "wrong.toml"
        text = Path(srv.profile_path).read_text()
        profile.write_text(text.replace('username = "member"\npassword_env = "QACONFORM_MEMBER_PASSWORD"',
                                        'username = "member"\npassword = "not-the-password"'))
        assert profile.read_text() != text
        proc, data = _run(tmp_path, "--target-profile", str(profile), "-k", "envelope")
    assert proc.returncode == exitcodes.PYTEST_BAD_PROFILE, proc.stdout[-2000:]
    assert data["stopped"]["reason"] == "profile" and "[accounts.member]" in data["stopped"]["message"]


def test_an_override_the_doctor_never_saw_is_refused_before_any_request(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """One resolved target per run: findings the doctor made for one URL handed to a session that an override
    (QACONFORM_BASE_URL, pytest-base-url's variable) points elsewhere stop it as a usage error (4), no test run;
    `qaconform run` applies the override itself, so its doctor examines that URL and an unreachable one is exit 3
    with no failed rule."""
    from qaconform.reference import ReferenceServer
    from qaconform.target.doctor import examine
    from qaconform.target.profile import load_profile

    with ReferenceServer() as srv:
        doctor = tmp_path / "doctor.json"
        doctor.write_text(json.dumps(examine(load_profile(srv.profile_path)).as_dict()))
        monkeypatch.setenv("QACONFORM_BASE_URL", "http://127.0.0.1:9")
        proc, data = _run(tmp_path, "--target-profile", str(srv.profile_path), "--qaconform-doctor", str(doctor),
                          "-k", "envelope")
        assert proc.returncode == exitcodes.PYTEST_BAD_PROFILE, proc.stdout[-2000:]
        assert data["stopped"]["reason"] == "usage" and "one run tests one target" in data["stopped"]["message"]
        assert not data["tests"], "no test ran"
        run = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "run", "--profile", str(srv.profile_path),
                              "--only", "paging",
                              "--report-dir", str(tmp_path / "r")], cwd=tmp_path, capture_output=True, text=True,
                             timeout=120, check=False)
    assert run.returncode == exitcodes.UNREACHABLE, run.stdout[-2000:] + run.stderr[-2000:]
    assert "testing http://127.0.0.1:9" in run.stdout and "Check QACONFORM_BASE_URL" in run.stdout + run.stderr
    report = tmp_path / "r" / "report.json"
    assert not report.exists() or not json.loads(report.read_text())["summary"]["failed_rules"], "no failed rule"
