"""The built distribution is the same kit as the checkout: a wheel holds the spec, the suites and the
load profiles, and registers the pytest plugin, so `pip install .` works from any folder."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds the wheel

ROOT = Path(__file__).resolve().parents[2]

KIT_DIRS = ("spec", "suites", "loadtests", "docs")
KIT_FILES = ("target.example.toml",)


def _tracked(folder: str) -> set[str]:
    out = subprocess.run(["git", "ls-files", folder], cwd=ROOT, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        pytest.skip(f"not a git checkout ({out.stderr.strip()}): cannot list the files the wheel must hold")
    return {line for line in out.stdout.splitlines() if line}


@pytest.fixture(scope="module")
def wheel(built_wheel: Path) -> zipfile.ZipFile:
    return zipfile.ZipFile(built_wheel)


def test_the_wheel_holds_spec_suites_load_profiles_docs_and_the_example_profile(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    for folder in KIT_DIRS:
        tracked = _tracked(folder)
        assert tracked, f"git lists no file under {folder}/"
        missing = sorted(f for f in tracked if f"qaconform/{f}" not in names)
        assert not missing, f"the wheel lacks {len(missing)} file(s) of {folder}/: {missing[:10]}"
    for name in KIT_FILES:
        assert f"qaconform/{name}" in names, f"the wheel lacks {name}: a user without a checkout needs it"


def test_the_wheel_registers_the_pytest_plugin_and_the_command(wheel: zipfile.ZipFile) -> None:
    (entry_points,) = [n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt")]
    text = wheel.read(entry_points).decode()
    assert "[pytest11]\nqaconform = qaconform.pytest.plugin" in text, text
    assert "qaconform = qaconform.commands.cli:main" in text, text
