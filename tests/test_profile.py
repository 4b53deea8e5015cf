"""The profile loader accepts the documented profile and rejects each kind of bad one with a clear message."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from qaconform.target.profile import ProfileError, load_profile

ROOT = Path(__file__).resolve().parents[1]
ENV = {"QA_ADMIN_PASSWORD": "pa", "QA_MODERATOR_PASSWORD": "pm",
       "QA_MEMBER_PASSWORD": "pme", "QA_NOVICE_PASSWORD": "pn"}

GOOD = """
base_url = "http://127.0.0.1:8080"
service_version = "2.16.0"
[accounts.admin]
username = "admin"
password = "secret-a"
id = 1
[accounts.moderator]
username = "mod"
password = "secret-m"
[accounts.member]
username = "member"
password_env = "MEMBER_PW"
[accounts.novice]
username = "novice"
password = "secret-n"
[fixtures]
question_id = 10
space_id = 1
[safety]
destructive = true
"""


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "target.toml"
    p.write_text(text)
    return p


def test_example_profile_loads_with_passwords_from_the_environment() -> None:
    prof = load_profile(ROOT / "target.example.toml", env=ENV)
    assert prof.accounts["member"].password == "pme"
    assert prof.fixtures.issue_tracker == "tracker"
    assert prof.api_root == "https://qa.staging.example.com/services/v2"


def test_good_profile_loads_and_password_is_not_in_repr_or_redacted(tmp_path: Path) -> None:
    prof = load_profile(write(tmp_path, GOOD), env={"MEMBER_PW": "from-env"})
    assert prof.accounts["member"].password == "from-env"
    assert prof.accounts["admin"].id == 1
    assert prof.safety.destructive is True
    assert prof.visibility.to_original_poster == "op"
    text = repr(prof) + repr(prof.redacted())
    for secret in ("secret-a", "secret-m", "from-env", "secret-n"):
        assert secret not in text


def test_version_gate_compares_numerically(tmp_path: Path) -> None:
    prof = load_profile(write(tmp_path, GOOD.replace('"2.16.0"', '"2.9.1"')), env={"MEMBER_PW": "x"})
    assert prof.supports("1.6.3")
    assert not prof.supports("2.16.0")


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda t: t.replace('base_url = "http://127.0.0.1:8080"\n', ""), "is missing 'base_url'"),
        (lambda t: t.replace('"http://127.0.0.1:8080"', '"ftp://x"'), "'base_url' must be an http(s) URL"),
        (lambda t: t.replace('"http://127.0.0.1:8080"', "8080"), "'base_url' must be str"),
        (lambda t: t.replace('username = "mod"\n', ""), "[accounts.moderator] is missing 'username'"),
        (lambda t: t.replace('password = "secret-n"\n', ""),
         "[accounts.novice] is missing 'password' (or 'password_env')"),
        (lambda t: t.replace("id = 1\n", 'id = "one"\n'), "[accounts.admin] 'id' must be int"),
        (lambda t: t.replace("[accounts.novice]", "[accounts.guest]"), "[accounts.guest] is not a known role"),
        (lambda t: t.replace("question_id = 10\n", ""), "[fixtures] is missing 'question_id'"),
        (lambda t: t.replace("question_id = 10", "question_id = true"), "'question_id' must be int"),
        (lambda t: t.replace("destructive = true", 'destructive = "yes"'), "'destructive' must be bool"),
        (lambda t: t.replace('service_version = "2.16.0"', 'service_version = "latest"'),
         "'service_version' must look like"),
        (lambda t: "foo = 1\n" + t, "'foo' is not a profile key"),
        (lambda t: t + "\nfoo = 1\n", "[safety] 'foo' is not a safety key"),
        (lambda t: t + "\n[fixtures.extra]\n", "'extra' is not a fixture key"),
        (lambda t: t.replace("[fixtures]", "[fixture]"), "'fixture' is not a profile key"),
        (lambda t: t.split("[fixtures]")[0], "[fixtures] is missing"),
        (lambda t: t.replace("[accounts.admin]", "[accounts.admin]\nusername2 = 1"),
         "'username2' is not an account key"),
        # user13: TOML's inf passed gt=0 and a run with it ended in a traceback (settimeout: timestamp out of range)
        (lambda t: "timeout_s = inf\n" + t, "'timeout_s' must be a finite number, not inf"),
        (lambda t: "settle_s = inf\n" + t, "'settle_s' must be a finite number, not inf"),
    ],
)
def test_bad_profile_is_rejected_naming_file_and_key(tmp_path: Path, edit, expected: str) -> None:  # type: ignore[no-untyped-def]
    path = write(tmp_path, edit(GOOD))
    with pytest.raises(ProfileError) as err:
        load_profile(path, env={"MEMBER_PW": "x"})
    assert str(path) in str(err.value)
    assert expected in str(err.value)


def test_unset_password_env_names_the_variable(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="MEMBER_PW, which is not set"):
        load_profile(write(tmp_path, GOOD), env={})


def test_a_missing_table_points_at_a_command_not_a_file_a_wheel_user_lacks(tmp_path: Path) -> None:
    """user11, from the wheel in an empty folder: "[fixtures] is missing; see target.example.toml" named a file
    only a checkout has. The message names the command that writes the commented example."""
    with pytest.raises(ProfileError) as err:
        load_profile(write(tmp_path, GOOD.split("[fixtures]")[0]), env={"MEMBER_PW": "x"})
    assert "qaconform init --example" in str(err.value) and "see target.example.toml" not in str(err.value)


def test_empty_password_env_is_named_before_anything_is_sent(tmp_path: Path) -> None:
    """A CI secret that is not defined expands to an empty string (GitHub Actions, GitLab): the variable is set, so
    the run used to send an empty password and blame the target ("username 'member' is refused"). The user must be
    told that the variable is empty, not that the account is wrong."""
    with pytest.raises(ProfileError, match="MEMBER_PW, which is empty") as err:
        load_profile(write(tmp_path, GOOD), env={"MEMBER_PW": ""})
    assert "secret" in str(err.value)


def test_missing_unreadable_and_invalid_files(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="file not found"):
        load_profile(tmp_path / "nope.toml")
    with pytest.raises(ProfileError, match="is a directory"):
        load_profile(tmp_path)
    bad = write(tmp_path, "base_url = [unclosed")
    with pytest.raises(ProfileError, match="is not valid TOML"):
        load_profile(bad)
    if os.geteuid() != 0:  # root reads any file, so the permission case only exists for other users
        locked = tmp_path / "locked.toml"
        locked.write_text(GOOD)
        locked.chmod(0)
        with pytest.raises(ProfileError, match="cannot be read"):
            load_profile(locked)


def test_a_limit_below_its_minimum_names_the_key_and_the_minimum(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as err:
        load_profile(write(tmp_path, GOOD.replace("destructive = true", "destructive = true\nmax_concurrency = 0")),
                     env={"MEMBER_PW": "x"})
    assert "[safety] 'max_concurrency' must be at least 1, not 0" in str(err.value)


def test_without_a_full_value_any_value_no_private_option_uses_reads_as_full() -> None:
    """The description shows no wire value for full visibility: a profile that names none (as `qaconform init`
    writes it) must not fail a server that writes "full" or "public", and still tells the private values apart."""
    from qaconform.target.profile import VisibilityOptions

    unknown = VisibilityOptions(to_moderators="mod")
    assert all(unknown.reads_as_full(v) for v in (None, "", "full", "public"))
    assert not any(unknown.reads_as_full(v) for v in ("recipients", "op", "mod", 3))
    named = VisibilityOptions(full="full")
    assert named.reads_as_full("full") and not named.reads_as_full("public") and not named.reads_as_full(None)


def test_a_profile_a_windows_editor_saved_with_a_bom_and_crlf_loads_as_the_same_profile(tmp_path: Path) -> None:
    """qa20: Notepad's "UTF-8 with BOM" made `qaconform doctor` say 'is not valid TOML (Invalid statement (at line
    1, column 1))' for a profile whose first line was a plain comment; and the report's curls, which read the
    password_env names from the file, silently fell back to the default variable names."""
    from qaconform.target.curl_line import password_envs

    windows = tmp_path / "windows.toml"
    windows.write_bytes(b"\xef\xbb\xbf# my site\r\n" + GOOD.replace("\n", "\r\n").encode("utf-8"))
    plain = write(tmp_path, "# my site\n" + GOOD)
    env = {"MEMBER_PW": "from-env"}
    assert replace(load_profile(windows, env=env), path="p") == replace(load_profile(plain, env=env), path="p")
    assert password_envs(str(windows)) == password_envs(str(plain)) == {"member": "MEMBER_PW"}
