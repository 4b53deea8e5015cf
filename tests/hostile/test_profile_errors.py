"""A broken profile stops `qaconform run` and `qaconform load` before anything is sent: exit 2, one message that
names the file and the key, no traceback, no request (the hostile server behind base_url counts them: zero).

The profiles point at a live server on purpose: a kit that sent a request before validating the whole profile
would be seen.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hostile_kit import TRACEBACK, Background, Finished, Planned, Secrets, profile_toml
from hostile_server import HostileServer

from qaconform import exitcodes


@dataclass(frozen=True)
class Broken:
    name: str
    key: str  # the message names this key
    make: Callable[[str, Secrets, Path], Path]  # (base_url, creds, folder) -> profile path


def _edit(text_change: Callable[[str], str]) -> Callable[[str, Secrets, Path], Path]:
    def make(url: str, creds: Secrets, folder: Path) -> Path:
        path = folder / "profile.toml"
        path.write_text(text_change(profile_toml(url, creds)))
        return path
    return make


def _directory(url: str, creds: Secrets, folder: Path) -> Path:
    path = folder / "profile.toml"
    path.mkdir()
    return path


def _not_utf8(url: str, creds: Secrets, folder: Path) -> Path:
    path = folder / "profile.toml"
    path.write_bytes(profile_toml(url, creds).encode() + b'\nname = "\xff\xfe"\n')
    return path


def _missing(url: str, creds: Secrets, folder: Path) -> Path:
    return folder / "no-such-profile.toml"


CASES: dict[str, Broken] = {b.name: b for b in (
    Broken("missing-fixture-key", "question_id", _edit(lambda t: t.replace("question_id = 10\n", ""))),
    Broken("missing-account", "[accounts.novice]", _edit(lambda t: re.sub(r"\[accounts\.novice\]\n[^\[]*", "", t))),
    Broken("wrong-type", "timeout_s", _edit(lambda t: t.replace("timeout_s = 2", 'timeout_s = "fast"'))),
    Broken("unknown-role", "[accounts.guest]",
           _edit(lambda t: t + '[accounts.guest]\nusername = "g"\npassword = "Hostile-guest-pw"\n')),
    Broken("unset-password-env", "password_env",
           _edit(lambda t: re.sub(r'password = "Hostile-member[^"]*"', 'password_env = "QC_HOSTILE_UNSET_VAR"', t))),
    Broken("not-toml", "not valid TOML", _edit(lambda t: t.replace("[fixtures]", "[fixtures"))),
    Broken("not-utf8", "not UTF-8", _not_utf8),
    Broken("a-directory", "is a directory", _directory),
    Broken("no-such-file", "file not found", _missing),
)}


LOAD_TOO = ("missing-fixture-key", "unknown-role", "unset-password-env", "not-toml")
"""`qaconform load` reads the profile with the same loader; a few kinds prove it stops the same way."""


def plan(bg: Background) -> dict[str, Planned]:
    """A live server and a broken profile per kind, and the commands that must refuse it (see conftest); keyed
    ``kind/command``."""
    env = {k: v for k, v in os.environ.items() if k != "QC_HOSTILE_UNSET_VAR"}
    planned: dict[str, Planned] = {}
    for name, case in CASES.items():
        srv = bg.enter(HostileServer("ok"))
        folder = bg.work(f"profile/{name}")
        path = case.make(srv.url, bg.creds, folder)
        run = bg.job(f"profile/{name}/run", ["run", "--profile", str(path), "--out", str(folder / "run" / "out")],
                     60.0, env=env, first=True)
        planned[f"{name}/run"] = Planned(run, srv, path)
        if name in LOAD_TOO:
            load = bg.job(f"profile/{name}/load", ["load", "--profile", str(path), "--duration", "3",
                                                   "--report-dir", str(folder / "load" / "out")],
                          60.0, env=env, first=True)
            planned[f"{name}/load"] = Planned(load, srv, path)
    return planned


@pytest.fixture(scope="module")
def tried(background: Background) -> dict[str, Finished]:
    return {check: p.finished() for check, p in background.planned(plan).items()}


CHECKS = [f"{n}/run" for n in sorted(CASES)] + [f"{n}/load" for n in LOAD_TOO]


@pytest.mark.parametrize("check", CHECKS)
def test_broken_profile_is_one_message_naming_file_and_key_exit_2_nothing_sent(
        check: str, tried: dict[str, Finished], creds: Secrets) -> None:
    t = tried[check]
    name, run = check.split("/")[0], t.run
    assert run.returncode == exitcodes.USAGE, run.describe()
    lines = [line for line in run.output.splitlines() if line.strip()]
    assert len(lines) == 1, "expected one message: " + run.describe()
    assert str(t.profile) in lines[0] and CASES[name].key in lines[0], run.describe()
    assert TRACEBACK not in run.output
    assert t.server.count == 0, f"{t.server.count} request(s) sent with a broken profile"
    assert run.written_files() == [], "a broken profile must not leave a run folder"
    assert creds.leaks_in(run.output) == []
