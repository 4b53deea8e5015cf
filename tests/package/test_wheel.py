"""The built distribution is the same kit as the checkout: a wheel holds the spec, the suites and the
load profiles, and registers the pytest plugin, so `pip install .` works from any folder."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KIT_DIRS = ("spec", "suites", "loadtests")


def _tracked(folder: str) -> set[str]:
    out = subprocess.run(["git", "ls-files", folder], cwd=ROOT, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        pytest.skip(f"not a git checkout ({out.stderr.strip()}): cannot list the files the wheel must hold")
    return {line for line in out.stdout.splitlines() if line}


def _untracked() -> set[str]:
    out = subprocess.run(["git", "ls-files", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True,
                         text=True, check=False)
    return {line for line in out.stdout.splitlines() if line}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """A wheel built from a copy of the checkout's files (pip builds in the source folder: a build/ left there by
    an earlier build could hold files the checkout no longer has)."""
    source = tmp_path_factory.mktemp("source")
    for name in _tracked(".") | _untracked():
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, f"pip wheel failed:\n{proc.stdout}\n{proc.stderr}"
    (built,) = out.glob("qaconform-*.whl")
    return zipfile.ZipFile(built)


def test_the_wheel_holds_spec_suites_and_load_profiles(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    for folder in KIT_DIRS:
        tracked = _tracked(folder)
        assert tracked, f"git lists no file under {folder}/"
        missing = sorted(f for f in tracked if f"qaconform/{f}" not in names)
        assert not missing, f"the wheel lacks {len(missing)} file(s) of {folder}/: {missing[:10]}"


def test_the_wheel_registers_the_pytest_plugin_and_the_command(wheel: zipfile.ZipFile) -> None:
    (entry_points,) = [n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt")]
    text = wheel.read(entry_points).decode()
    assert "[pytest11]\nqaconform = qaconform.pytest.plugin" in text, text
    assert "qaconform = qaconform.commands.cli:main" in text, text
