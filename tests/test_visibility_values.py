"""The doctor's [visibility] check (qaconform.target.visibility_values) against a server with the other wire values.

userplay (session 7): a profile that guessed ``to_moderators = "moderators"``, ``to_own_groups = "groups"`` against a
site whose values are "mod" and "group" ended with 6 must-rules failed, every one a 400 for the profile's value. The
variant ``visibility-options-named`` is the other way round ("moderators"/"groups"); a profile with the default's
values must stop before any test naming each key and the value the site shows, with reads only; the right values
are usable; and where the reads are not conclusive nothing is said (the suites judge, strictly, as before).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from qaconform.reference import ReferenceServer
from qaconform.target.client import Recorder
from qaconform.target.diagnosis import Diagnosis
from qaconform.target.doctor import Severity, examine, render
from qaconform.target.profile import Profile, load_profile
from qaconform.target.visibility_values import _meant


@pytest.fixture(scope="module")
def named() -> Iterator[ReferenceServer]:
    with ReferenceServer(variants=("visibility-options-named",)) as srv:
        yield srv


def _examine(srv: ReferenceServer, folder: Path, **values: str | None) -> tuple[Diagnosis, Profile, set[str]]:
    text = Path(srv.profile_path).read_text(encoding="utf-8")
    for key, value in values.items():
        text, n = re.subn(rf"^{key} = .*$", f'{key} = "{value}"' if value else "", text, flags=re.MULTILINE)
        assert n == 1, key
    target = folder / "site.toml"
    target.write_text(text, encoding="utf-8")
    profile = load_profile(target)
    rec = Recorder(secrets=set(profile.passwords()), keep=10_000)
    return examine(profile, rec), profile, {e.method for e in rec.exchanges}


def test_guessed_values_stop_before_any_test_naming_each_key_and_the_sites_value(named: ReferenceServer,
                                                                                tmp_path: Path) -> None:
    d, profile, methods = _examine(named, tmp_path, to_moderators="mod", to_own_groups="group")
    text = render(d, profile)
    assert d.exit_code == 2, text
    stops = {f.key: f for f in d.of(Severity.STOP)}
    assert set(stops) == {"visibility.to_moderators", "visibility.to_own_groups"}, text
    assert stops["visibility.to_moderators"].fix.startswith("set [visibility] to_moderators = 'moderators'"), text
    assert stops["visibility.to_own_groups"].fix.startswith("set [visibility] to_own_groups = 'groups'"), text
    assert "'mod'" in stops["visibility.to_moderators"].message and "'moderators'" in text
    assert methods == {"GET"}
    assert all(p not in text for p in profile.passwords())


def test_the_values_the_site_shows_are_usable(named: ReferenceServer, tmp_path: Path) -> None:
    d, profile, _ = _examine(named, tmp_path)
    assert d.exit_code == 0, render(d, profile)
    assert not [f for f in d.findings if f.key.startswith("visibility")], render(d, profile)


def test_a_value_no_shown_value_reads_as_is_left_to_the_suites(named: ReferenceServer, tmp_path: Path) -> None:
    """Two wrong keys, neither close to a value the site shows: which is which is not conclusive, nothing said (a
    server that refuses a value it never shows is the suites' to judge: the doctor never turns that into a stop)."""
    d, profile, _ = _examine(named, tmp_path, to_moderators="staff", to_own_groups="team")
    assert not [f for f in d.findings if f.key.startswith("visibility")], render(d, profile)


def test_an_option_the_profile_leaves_out_is_not_checked(named: ReferenceServer, tmp_path: Path) -> None:
    d, profile, _ = _examine(named, tmp_path, to_moderators="moderators", to_own_groups=None)
    assert d.exit_code == 0 and not [f for f in d.findings if f.key.startswith("visibility")], render(d, profile)


@pytest.mark.parametrize(("given", "unnamed", "single", "meant"), [
    ("groups", ["group", "mod"], False, "group"),
    ("moderators", ["group", "mod"], False, "mod"),
    ("staff", ["group", "mod"], False, None),
    ("staff", ["mod"], True, "mod"),
    ("staff", ["mod"], False, None),
    ("m", ["mod", "moderators"], False, None),
])
def test_the_value_meant_is_one_or_none(given: str, unnamed: list[str], single: bool, meant: str | None) -> None:
    assert _meant(given, unnamed, single) == meant
