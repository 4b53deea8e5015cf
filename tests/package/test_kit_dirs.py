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
