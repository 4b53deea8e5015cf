"""Fixtures of the hostile-target tests: misbehaving servers, profiles pointing at them, and the secrets to hunt.

Every profile written here carries passwords made for the test, so that a grep for them (and for the encoded
Authorization value) over everything a run wrote proves that nothing leaked.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hostile_kit import Background, Secrets, profile_toml
from hostile_server import HostileServer, gzip_bomb, make_self_signed

from qaconform.target.profile import ROLES


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
    """Start the kit commands of every selected hostile module at once (see hostile_kit.Background)."""
    gzip_bomb()  # made once (0.7 s of CPU), before any test times a call that gets it
    bg = Background(tmp_path_factory.mktemp("kit"), creds, tls_files)
    here = Path(__file__).parent
    modules = {item.module.__name__: item.module for item in request.session.items
               if isinstance(item, pytest.Function) and item.module is not None and item.path.parent == here}
    try:
        for name in sorted(modules):
            plan = getattr(modules[name], "plan", None)
            if callable(plan):
                bg.add_plan(plan)
        bg.start()
        yield bg
    finally:
        bg.close()
