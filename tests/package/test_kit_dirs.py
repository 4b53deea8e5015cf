"""qaconform.kit finds spec/, suites/ and loadtests/ in a checkout, inside an installed package, or where the
user points, and says what to set when they are missing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from qaconform import kit

ROOT = Path(__file__).resolve().parents[2]


def test_a_checkout_finds_its_top_level_folders(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in kit.ENV:
        monkeypatch.delenv(kit.ENV[name], raising=False)
        assert kit.kit_dir(name) == ROOT / name


def test_an_installed_copy_inside_the_package_wins_over_the_parent_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "site-packages" / "qaconform"
    shutil.copytree(ROOT / "spec", package / "spec")
    monkeypatch.setattr(kit, "PACKAGE", package)
    monkeypatch.delenv(kit.ENV["spec"], raising=False)
    assert kit.spec_dir() == package / "spec"


def test_the_environment_points_at_a_users_own_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "suites", tmp_path / "my-suites")
    monkeypatch.setenv(kit.ENV["suites"], str(tmp_path / "my-suites"))
    assert kit.suites_dir() == tmp_path / "my-suites"


def test_a_missing_folder_names_the_variable_to_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(kit.ENV["loadtests"], str(tmp_path / "nowhere"))
    with pytest.raises(kit.KitNotFound, match="QACONFORM_LOADTESTS"):
        kit.loadtests_dir()


@pytest.mark.parametrize("with_bytecode", [True, False])
def test_bytecode_goes_to_the_kits_cache_only_when_the_installation_has_none(
    with_bytecode: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under PYTHONDONTWRITEBYTECODE the suites' processes keep their bytecode in the kit's cache folder, unless the
    installation carries its own (pip's wheel install): a prefix would hide it and a new container would compile
    everything again. Nothing is ever written beside the sources."""
    monkeypatch.setattr(kit, "installed_with_bytecode", lambda: with_bytecode)
    env = kit.suite_env({"PYTHONDONTWRITEBYTECODE": "1", "XDG_CACHE_HOME": str(tmp_path)})
    if with_bytecode:
        assert env.get("PYTHONDONTWRITEBYTECODE") == "1" and "PYTHONPYCACHEPREFIX" not in env
    else:
        assert "PYTHONDONTWRITEBYTECODE" not in env
        assert env["PYTHONPYCACHEPREFIX"] == str(tmp_path / "qaconform" / "pycache")
    # a prefix the user chose is theirs either way
    kept = kit.suite_env({"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": "/x", "XDG_CACHE_HOME": str(tmp_path)})
    assert kept["PYTHONPYCACHEPREFIX"] == "/x" and kept["PYTHONDONTWRITEBYTECODE"] == "1"


def test_an_installation_has_bytecode_when_its_pycache_holds_the_kits_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    source = tmp_path / "kit.py"
    source.write_text("")
    monkeypatch.setattr(kit, "__file__", str(source))
    assert kit.installed_with_bytecode() is False
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / f"kit.{sys.implementation.cache_tag}.pyc").write_bytes(b"")
    assert kit.installed_with_bytecode() is True
