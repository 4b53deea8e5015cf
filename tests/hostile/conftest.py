"""Fixtures of the hostile-target tests: misbehaving servers, profiles pointing at them, and the secrets to hunt.

Every profile written here carries passwords made for the test, so that a grep for them (and for the encoded
Authorization value) over everything a run wrote proves that nothing leaked.
"""

from __future__ import annotations

import base64
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hostile.kit import Background
from hostile.server import HostileServer, gzip_bomb, make_self_signed
from qaconform.profile import ROLES, Profile

TIMEOUT_S = 2
"""timeout_s of every hostile profile: small, so that bounded-time assertions stay cheap."""


@dataclass(frozen=True)
class Secrets:
    """The credentials of one hostile profile and every form in which they could leak."""

    passwords: dict[str, str]
    names: dict[str, str] | None = None  # role -> username; default qa-<role>

    def usernames(self) -> dict[str, str]:
        return {role: (self.names or {}).get(role, f"qa-{role}") for role in self.passwords}

    def forms(self) -> list[str]:
        """Passwords and the base64 Authorization values (with and without 'Basic ')."""
        out: list[str] = []
        names = self.usernames()
        for role, pw in self.passwords.items():
            token = base64.b64encode(f"{names[role]}:{pw}".encode()).decode()
            out += [pw, token]
        return out

    @classmethod
    def of(cls, profile: Profile) -> Secrets:
        """The secrets of a profile the tests did not write (the reference server's)."""
        return cls({r: a.password for r, a in profile.accounts.items()},
                   {r: a.username for r, a in profile.accounts.items()})

    def leaks_in(self, text: str) -> list[str]:
        return [s for s in self.forms() if s in text]


@pytest.fixture(scope="session")
def creds() -> Secrets:
    tag = secrets.token_hex(4)
    return Secrets({role: f"Hostile-{role}-{tag}-pw" for role in ROLES})


@pytest.fixture(scope="session")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return make_self_signed(tmp_path_factory.mktemp("tls"))


@pytest.fixture
def hostile() -> Iterator[Callable[..., HostileServer]]:
    """``hostile("slow")`` starts a server with that behaviour; all are stopped when the test ends."""
    started: list[HostileServer] = []

    def start(behaviour: str, **kw: Any) -> HostileServer:
        srv = HostileServer(behaviour, **kw)
        srv.start()
        started.append(srv)
        return srv

    yield start
    for srv in started:
        srv.stop()


def profile_toml(base_url: str, creds: Secrets, *, extra: str = "", password_env: bool = False,
                 timeout_s: float = TIMEOUT_S, max_response_bytes: int = 1024 * 1024) -> str:
    """A complete, valid profile for ``base_url`` (callers break it on purpose with ``extra`` or by editing)."""
    lines = [
        'name = "hostile"',
        f'base_url = "{base_url}"',
        f"timeout_s = {timeout_s}",
        f"max_response_bytes = {max_response_bytes}",
    ]
    body = "\n".join(lines) + "\n" + extra + "\n"
    for role, pw in creds.passwords.items():
        body += f"[accounts.{role}]\nusername = \"qa-{role}\"\n"
        body += f'password_env = "QC_HOSTILE_{role.upper()}"\n' if password_env else f'password = "{pw}"\n'
    body += "[fixtures]\nquestion_id = 10\nspace_id = 1\n"
    return body


@pytest.fixture
def write_profile(tmp_path: Path, creds: Secrets) -> Callable[..., Path]:
    """``write_profile(url, **kw)`` writes a profile (see profile_toml) and returns its path."""
    counter = iter(range(1000))

    def write(base_url: str, **kw: Any) -> Path:
        path = tmp_path / f"profile-{next(counter)}.toml"
        path.write_text(profile_toml(base_url, creds, **kw))
        return path

    return write


@pytest.fixture(scope="session", autouse=True)
def background(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, creds: Secrets,
               tls_files: tuple[Path, Path]) -> Iterator[Background]:
    """Start the kit commands of every selected hostile module at once (see kit.Background)."""
    gzip_bomb()  # made once (0.7 s of CPU), before any test times a call that gets it
    bg = Background(tmp_path_factory.mktemp("kit"), creds, tls_files)
    modules = {item.module.__name__: item.module for item in request.session.items
               if isinstance(item, pytest.Function) and item.module is not None}
    try:
        for name in sorted(modules):
            plan = getattr(modules[name], "plan", None)
            if name.startswith("hostile.") and callable(plan):
                plan(bg)
        bg.start()
        yield bg
    finally:
        bg.close()
