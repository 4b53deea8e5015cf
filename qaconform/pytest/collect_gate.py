"""Forked workers collect a few at a time, as many as there are CPUs, so that the first of them start testing early.

Why (issue 31): the workers of a parallel run are forked at once and each collects the whole suite (about 0.8 s of
CPU). Five of them sharing two CPUs all finished together, 2.5 s later, and no test ran before. With at most one
collection per CPU, the first two workers are ready after about a second and start their tests (which mostly wait for
the target's answers) while the others collect; xdist's scheduler (qaconform/pytest/parallel.py) hands work to a
worker as soon as its own collection has arrived. The CPU spent is the same; the waiting for the target overlaps it.

How: the fork server (qaconform/pytest/forked_workers.py) makes one slot file per CPU in its folder and sets
:data:`FOLDER`, which the workers it forks inherit. A worker holds an ``flock`` on a free slot while it collects; the
kernel releases it if the worker dies. A worker that finds no free slot within :data:`PATIENCE_S` collects anyway:
the gate can only reorder the start, never stop a run. Workers not forked from the server (``pytest -n`` without
it, ``QACONFORM_FORK_WORKERS=0``) collect as they always did.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

FOLDER: str | None = None
"""The slot files' folder, set in the fork server (and so in every worker forked from it); None elsewhere."""
PATIENCE_S = 20.0
"""How long a worker waits for a slot before it collects without one."""
POLL_S = 0.01


def open_slots(folder: Path, count: int | None = None) -> None:
    """Make ``count`` slot files (default: the CPUs this process may run on) in ``folder`` and set :data:`FOLDER`."""
    global FOLDER
    n = count if count is not None else len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)
    for i in range(max(1, n)):
        (folder / f"collect-slot-{i}").touch()
    FOLDER = str(folder)


@contextlib.contextmanager
def slot(folder: str | None = None, patience_s: float | None = None) -> Iterator[bool]:
    """Hold a free slot of ``folder`` (default :data:`FOLDER`) for the ``with`` block; yields whether it got one (no
    folder, no slot files, or no slot free within the patience: it goes ahead without)."""
    folder = folder if folder is not None else FOLDER
    paths = sorted(Path(folder).glob("collect-slot-*")) if folder else []
    deadline = time.monotonic() + (PATIENCE_S if patience_s is None else patience_s)
    held: int | None = None
    while paths and held is None:
        for path in paths:
            try:
                fd = os.open(path, os.O_RDWR)
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            held = fd
            break
        if held is None:
            if time.monotonic() >= deadline:
                break
            time.sleep(POLL_S)
    try:
        yield held is not None
    finally:
        if held is not None:
            os.close(held)  # releases the lock
