"""One `qaconform run` for every test of a pytest session that only reads what that run wrote, whichever xdist worker
runs each test (ci14, issue 44: CI is everyone's feedback loop).

Several test files start the same command only to read its artefacts: test_run_command.py's faulted run and the
Chromium test of its report both ran ``qaconform run --reference-fault envelope-listcount-wrong --only paging``
(about 34 s of CPU each at load 22). :func:`once` runs a command the first time a test of the session asks for it
and hands every later asker, in this worker or the other, the same folder and the same completed process (exit code,
stdout, stderr), so each test still asserts everything it asserted on its own run: a run that went wrong fails every
test that reads it, with that run's output. A test that changes what it reads works on a copy
(:func:`private_copy`), so no test sees another's leftovers. Tests whose point is their own flags keep their own runs.

The first asker holds an exclusive lock (``fcntl.flock`` on a file beside the session's temporary folders, which
xdist's workers share: ``basetemp/popen-gwN``'s parent) while the command runs; the other waits for it and reads the
stored result. A command that raised (a timeout) is stored as such and raised again to every asker.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

FAULT = "envelope-listcount-wrong"
FAULT_RULE = "PAGING-LISTCOUNT"
"""The planted fault of the shared faulted run: it breaks PAGING-LISTCOUNT and, in the paging area, nothing else."""
FAULTED_PAGING = ("--reference-fault", FAULT, "--only", "paging")
"""``qaconform run``'s options of the shared faulted run (test_run_command.py, test_html_in_chromium.py)."""
RUN_TIMEOUT_S = 600


def session_root(factory: pytest.TempPathFactory) -> Path:
    """The folder every worker of this session sees: under xdist each worker's basetemp is ``<session>/popen-gwN``."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def once(factory: pytest.TempPathFactory, name: str,
         make: Callable[[Path], subprocess.CompletedProcess[str]]) -> tuple[subprocess.CompletedProcess[str], Path]:
    """``make(folder)`` once per session for ``name``; every caller gets its completed process and ``folder``."""
    root = session_root(factory)
    folder = root / f"shared-{name}"
    done = root / f"shared-{name}.json"
    with open(root / f"shared-{name}.lock", "a", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not done.exists():
                folder.mkdir(parents=True, exist_ok=True)
                try:
                    proc = make(folder)
                    record = {"args": list(map(str, proc.args)), "returncode": proc.returncode,
                              "stdout": proc.stdout, "stderr": proc.stderr, "raised": None}
                except Exception as exc:  # stored, and raised again to every test that asks for this run
                    record = {"args": [], "returncode": None, "stdout": "", "stderr": "",
                              "raised": f"{type(exc).__name__}: {exc}"}
                done.write_text(json.dumps(record), encoding="utf-8")
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    record = json.loads(done.read_text(encoding="utf-8"))
    if record["raised"]:
        raise RuntimeError(f"the shared run {name!r} (shared_runs.once) did not complete: {record['raised']}")
    return subprocess.CompletedProcess(record["args"], record["returncode"], record["stdout"], record["stderr"]), folder


def run_kit(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``qaconform run --out OUT ARGS`` as a user runs it (a subprocess, no terminal input)."""
    return subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "run", "--out", str(out), *args],
                          capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False, stdin=subprocess.DEVNULL)


def faulted_paging_run(factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The session's one ``qaconform run --out OUT --reference-fault FAULT --only paging``: its process and OUT."""
    return once(factory, "faulted-paging", lambda out: run_kit(out, *FAULTED_PAGING))


def private_copy(folder: Path, dest: Path) -> Path:
    """A copy of a shared run's folder for a test that writes into it (the copy keeps its relative links)."""
    shutil.copytree(folder, dest, symlinks=True)
    return dest
