"""Where `qaconform run` puts its files when CI needs fixed paths: ``--report-dir``, ``--junitxml`` and the
``<out>/latest`` link.

Why a module of its own: the rules are about the user's files, not about running suites. A fixed path must never
swallow something the user had there, so each is checked *before* anything is sent to the target (a refusal is a
usage error, exit 2): ``--report-dir`` must be absent or an empty folder, ``--junitxml`` absent or an earlier
JUnit XML file (CI overwrites its own report each run, as pytest's ``--junitxml`` does). ``latest`` is replaced
only when it is a symbolic link.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

from qaconform.errors import UsageError

LATEST = "latest"


class PathProblem(UsageError):
    """A fixed output path that would lose a user's file: exit 2 with this message, before anything is sent."""


def check_report_dir(raw: str) -> Path:
    path = Path(raw).expanduser()
    if path.is_symlink() or (path.exists() and not path.is_dir()):
        raise PathProblem(f"--report-dir {raw}: exists and is not a folder; choose a new or empty folder")
    if path.is_dir() and any(path.iterdir()):
        raise PathProblem(f"--report-dir {raw}: the folder is not empty and a run never overwrites files; remove "
                          "it first (CI: start from a clean checkout) or choose another folder")
    return path


def make_report_dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    if any(path.iterdir()):  # something appeared since the check: still never mix two runs' files
        raise PathProblem(f"--report-dir {path}: the folder is no longer empty; choose another folder")
    return path


def _is_junit(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return head.lstrip().startswith(b"<?xml") and (b"<testsuites" in head or b"<testsuite" in head)


def check_junit_target(raw: str) -> Path:
    path = Path(raw).expanduser()
    if path.is_dir():
        raise PathProblem(f"--junitxml {raw}: is a folder; give a file path such as reports/junit.xml")
    if path.exists() and not _is_junit(path):
        raise PathProblem(f"--junitxml {raw}: the file exists and is not a JUnit XML report; not replacing it "
                          "(choose another path or remove the file)")
    parent = path.parent if str(path.parent) else Path(".")
    if parent.exists() and not parent.is_dir():
        raise PathProblem(f"--junitxml {raw}: {parent} is not a folder")
    return path


def copy_junit(source: Path, target: Path) -> None:
    """Copy the run's junit.xml to the fixed path atomically (a CI reader never sees half a file)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    shutil.copyfile(source, tmp)
    os.replace(tmp, target)


def point_latest(out: Path, run_dir: Path) -> Path | None:
    """``<out>/latest`` -> this run's folder (relative, so the reports folder can move). Returns the link, or
    None when ``latest`` exists and is not a link (a user's own file: left alone) or links are not possible."""
    link = out / LATEST
    if link.exists() and not link.is_symlink():
        return None
    tmp = out / f".{LATEST}.tmp-{os.getpid()}"
    try:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        tmp.symlink_to(run_dir.name, target_is_directory=True)
        os.replace(tmp, link)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return None
    return link
