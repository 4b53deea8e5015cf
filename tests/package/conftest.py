"""The wheel, built once per test session: test_wheel.py reads what it holds, test_new_user.py installs it.

Building costs about ten seconds of CPU; every test of the package that needs the distribution shares this one.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _listed(*args: str) -> set[str] | None:
    out = subprocess.run(["git", "ls-files", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    return {line for line in out.stdout.splitlines() if line} if out.returncode == 0 else None


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from a copy of the checkout's files (pip builds in the source folder: a build/ left there by
    an earlier build could hold files the checkout no longer has)."""
    tracked = _listed(".")
    if tracked is None:
        pytest.skip("not a git checkout: cannot list the files the wheel is built from")
    source = tmp_path_factory.mktemp("source")
    for name in tracked | (_listed("--others", "--exclude-standard") or set()):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, f"pip wheel failed:\n{proc.stdout}\n{proc.stderr}"
    (built,) = out.glob("qaconform-*.whl")
    return built
