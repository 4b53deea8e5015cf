"""`qaconform serve --profile-out` writes a profile that holds no password (qa15; the brief: no password in any file).

Oracle: how the kit carries a real profile's secrets (`qaconform init`: the profile names ``password_env``, never the
password). The served profile names QACONFORM_<ROLE>_PASSWORD (qa17: what `init` reads); ``serve --print-env`` prints
the one export line that sets them, only when asked; a shell that evaluated it loads the profile and every account logs
in. The embedded server's throwaway profile (its own private folder, removed at stop) names the same variables
(qa16), which the process that started it holds: the curls of a run without a profile replay after that eval line.
"""

from __future__ import annotations

import base64
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from qaconform.kit import PASSWORD_NAMES_SAID, suite_env
from qaconform.reference.cli import main as cli_main
from qaconform.reference.seed import ACCOUNTS
from qaconform.target.password_names import deprecation_line, say_deprecated
from qaconform.target.profile import ProfileError, load_profile


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[str]]]:
    folder = tmp_path_factory.mktemp("served")
    profile = folder / "ref.toml"
    proc = subprocess.Popen([sys.executable, "-m", "qaconform.reference", "--port", "0", "--profile-out", str(profile)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            lines.append(line)
            if "listening on" in line or not line:
                break
        assert profile.is_file(), "".join(lines)
        yield profile, lines
    finally:
        proc.terminate()
        proc.wait(timeout=15)


def test_the_served_profile_names_variables_and_holds_no_password(served: tuple[Path, list[str]]) -> None:
    profile, lines = served
    text = profile.read_text(encoding="utf-8")
    for acc in ACCOUNTS:
        basic = base64.b64encode(f"{acc.username}:{acc.password}".encode()).decode()
        assert acc.password not in text and basic not in text and "password =" not in text
        assert f'password_env = "QACONFORM_{acc.role.upper()}_PASSWORD"' in text
    said = "".join(lines)
    assert 'eval "$(qaconform serve --print-env)"' in said  # the log says how to set them ...
    assert not any(acc.password in said for acc in ACCOUNTS)  # ... and prints none


def test_print_env_sets_what_the_profile_names_and_every_account_logs_in(
        served: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    profile, _ = served
    with pytest.raises(ProfileError, match="QACONFORM_ADMIN_PASSWORD"):
        load_profile(profile, env={k: v for k, v in os.environ.items() if not k.startswith("QACONFORM_")})
    assert cli_main(["--print-env"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("export ") and line.count("\n") == 0
    shell = subprocess.run(["sh", "-c", f'{line}; env'], capture_output=True, text=True, check=True).stdout
    names = {f"QACONFORM_{acc.role.upper()}_PASSWORD" for acc in ACCOUNTS}
    assert all(name + "=" in line for name in names)
    env = dict(x.split("=", 1) for x in shell.splitlines() if x.split("=", 1)[0] in names)
    loaded = load_profile(profile, env=env)
    for role, account in loaded.accounts.items():
        resp = requests.get(loaded.base_url + "/services/v2/user/retrieveAllExperts.json", timeout=10,
                            auth=(account.username.encode(), account.password.encode()))
        assert resp.status_code == 200, (role, resp.status_code)


def test_the_embedded_servers_own_profile_holds_no_password_and_its_curls_name_what_print_env_sets() -> None:
    """qa16: the profile `qaconform run` without --profile loads held the demo passwords inline, and the curls its
    failures printed named QACONFORM_<ROLE>_PASSWORD, which no command of the kit sets: a user who followed the
    rerun line (`eval "$(qaconform serve --print-env)"`) replayed them without a password and got 401."""
    from qaconform.reference import ReferenceServer
    from qaconform.target.curl_line import password_envs

    with ReferenceServer(throwaway=True) as srv:
        text = Path(srv.profile_path).read_text(encoding="utf-8")
        for acc in ACCOUNTS:
            assert acc.password not in text and "password =" not in text
            variable = f"QACONFORM_{acc.role.upper()}_PASSWORD"
            assert password_envs(srv.profile_path)[acc.role] == variable
            assert os.environ[variable] == acc.password  # what the kit's own loads and the runs it starts read
        loaded = load_profile(srv.profile_path)
        member = loaded.accounts["member"]
        resp = requests.get(loaded.base_url + "/services/v2/user/retrieveAllExperts.json", timeout=10,
                            auth=(member.username.encode(), member.password.encode()))
        assert resp.status_code == 200, resp.status_code


def test_the_old_name_is_still_read_with_a_deprecation_message(
        served: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """qa17: one name, QACONFORM_<ROLE>_PASSWORD; a shell that evaluated an older `serve --print-env`
    (QACONFORM_REFERENCE_<ROLE>_PASSWORD) and a profile an older `serve --profile-out` wrote still load, each
    saying the new name on stderr, never the password: in one line naming the roles (qa18: it was four)."""
    profile, _ = served
    monkeypatch.delenv(PASSWORD_NAMES_SAID, raising=False)  # as `qaconform run` itself, not the pytest it starts
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    old_env = {f"QACONFORM_REFERENCE_{acc.role.upper()}_PASSWORD": acc.password for acc in ACCOUNTS}
    loaded = load_profile(profile, env=old_env)
    assert {r: a.password for r, a in loaded.accounts.items()} == {a.role: a.password for a in ACCOUNTS}
    said = capsys.readouterr().err
    assert len(said.splitlines()) == 1, said
    assert "QACONFORM_REFERENCE_<ROLE>_PASSWORD is deprecated: the one name is QACONFORM_<ROLE>_PASSWORD" in said
    assert "for admin, moderator, member, novice" in said, said
    old_profile = profile.with_name("old.toml")
    old_profile.write_text(profile.read_text(encoding="utf-8").replace("QACONFORM_", "QACONFORM_REFERENCE_"),
                           encoding="utf-8")
    new_env = {f"QACONFORM_{acc.role.upper()}_PASSWORD": acc.password for acc in ACCOUNTS}
    assert load_profile(old_profile, env=new_env).accounts["member"].password == "".join(
        a.password for a in ACCOUNTS if a.role == "member")
    again = capsys.readouterr().err
    assert len(again.splitlines()) == 1 and "write the profile again" in again, again
    said += again
    assert not any(acc.password in said for acc in ACCOUNTS)


def test_one_role_read_by_its_old_name_is_spelt_out() -> None:
    """One role on the old name: the line spells that variable, not <ROLE>; no role: no line."""
    line = deprecation_line({"member": "QACONFORM_MEMBER_PASSWORD"})
    assert line is not None and "QACONFORM_REFERENCE_MEMBER_PASSWORD is deprecated" in line and "<ROLE>" not in line
    assert "QACONFORM_MEMBER_PASSWORD is not set for member" in line, line
    assert deprecation_line({}) is None


def test_the_suites_pytest_of_a_run_and_an_xdist_worker_say_nothing(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """qa18: `qaconform run`, its pytest and each worker loaded the profile and each said it (4 lines for 2
    workers); now the run says it, and the processes it starts (kit.suite_env marks them) and xdist workers do not."""
    old_names = {"admin": "QACONFORM_ADMIN_PASSWORD", "novice": "QACONFORM_NOVICE_PASSWORD"}
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv(PASSWORD_NAMES_SAID, suite_env({"XDG_CACHE_HOME": str(tmp_path)})[PASSWORD_NAMES_SAID])
    say_deprecated(old_names)
    monkeypatch.delenv(PASSWORD_NAMES_SAID)
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    say_deprecated(old_names)
    assert capsys.readouterr().err == ""
    monkeypatch.delenv("PYTEST_XDIST_WORKER")
    say_deprecated(old_names)
    assert "not set for admin, novice" in capsys.readouterr().err
