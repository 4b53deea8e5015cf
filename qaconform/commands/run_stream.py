"""A child process of `qaconform run` (pytest, `qaconform load`) with its output copied to the terminal as it comes,
scrubbed of the profile's secrets, its tail kept for kit-error.txt, and stopped at a deadline: never parsed."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import IO

from qaconform.kit import pytest_cwd

# ----------------------------------------------------------------------------------------------------------
# subprocesses

_TAIL_BYTES = 64 * 1024
_READ_TICK_S = 0.5
_STOP_GRACE_S = 15.0


@dataclass
class Finished:
    returncode: int
    tail: str
    timed_out: bool = False


def stream(cmd: Sequence[str], *, timeout_s: float, env: dict[str, str] | None = None,
           sink: IO[bytes] | None = None, secrets: Iterable[str] = ()) -> Finished:
    """Run ``cmd``, copying its output to the terminal as it comes (pytest prints dots without newlines, so bytes,
    not lines), keep the tail for diagnosis, and stop it when ``timeout_s`` is over.

    ``secrets`` (the profile's passwords and their Basic forms) never reach the terminal nor the tail: the child
    (pytest and its plugins, Locust) redacts where it can, and this is the last pass over what it printed."""
    from qaconform.report.redact import StreamScrubber

    scrubber = StreamScrubber(secrets)
    out = sink if sink is not None else sys.stdout.buffer
    tail: deque[bytes] = deque()
    size = 0
    proc = subprocess.Popen(list(cmd), cwd=pytest_cwd(), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    deadline = time.monotonic() + timeout_s
    timed_out = False
    try:
        while True:
            if time.monotonic() > deadline:
                timed_out = True
                _stop(proc)
                break
            ready, _, _ = select.select([fd], [], [], _READ_TICK_S)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunk = scrubber.feed(chunk)
            out.write(chunk)
            out.flush()
            tail.append(chunk)
            size += len(chunk)
            while size > _TAIL_BYTES and len(tail) > 1:
                size -= len(tail.popleft())
    except BaseException:
        _stop(proc)
        raise
    finally:
        proc.stdout.close()
        rest = scrubber.flush()
        out.write(rest)
        out.flush()
        tail.append(rest)
    try:
        rc = proc.wait(timeout=_STOP_GRACE_S)
    except subprocess.TimeoutExpired:
        _stop(proc)
        rc = proc.wait(timeout=_STOP_GRACE_S)
    return Finished(rc, b"".join(tail).decode("utf-8", errors="replace"), timed_out)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGINT first (pytest then writes its results), SIGKILL if it does not end; only this child's group."""
    if proc.poll() is not None:
        return
    for sig, wait in ((signal.SIGINT, _STOP_GRACE_S), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue
