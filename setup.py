"""Build step that pyproject.toml cannot say: spec/, suites/, loadtests/, docs/, target.example.toml and
requirements.lock travel inside the wheel.

The repository keeps them at the top level, where people look for them; an installed kit finds them as
``qaconform/spec`` ... (``qaconform.kit``): a user who installed the wheel has the example profile, the definition of
the roles (docs/profile.md) and every other page without a checkout. An editable install uses the checkout's files.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

KIT_DIRS = ("spec", "suites", "loadtests", "docs")
KIT_FILES = ("target.example.toml", "requirements.lock")
"""requirements.lock: the versions the kit was tested with, so a wheel user installs those (README, docs/ci/)."""
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", ".schemathesis", ".pytest_cache")


class BuildWithKit(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for name in KIT_DIRS:
            target = Path(self.build_lib) / "qaconform" / name
            shutil.copytree(Path(__file__).parent / name, target, dirs_exist_ok=True, ignore=SKIP)
        for name in KIT_FILES:
            shutil.copy2(Path(__file__).parent / name, Path(self.build_lib) / "qaconform" / name)


setup(cmdclass={"build_py": BuildWithKit})
