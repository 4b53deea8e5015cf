"""What a fork server's waiter and a forked worker do with the shim's socket and streams, whoever forked the worker:
the fork server (qaconform/pytest/forked_workers.py) or the first worker's template
(qaconform/pytest/collected_fork.py)."""

from __future__ import annotations

import os
import select
import signal
import socket
import sys


def report_worker(pid: int, conn: socket.socket, fds: list[int]) -> None:
    """In a waiter, after it forked the worker ``pid`` for the shim on ``conn``: close the shim's streams here, tell
    the shim the pid and later the exit code (the forked worker is a child of this waiter: only it can reap it)."""
    for fd in fds:
        os.close(fd)
    shim_gone = False
    try:
        conn.sendall(f"pid {pid}\n".encode())
        shim_gone = kill_when_orphaned(pid, conn)
    except OSError:  # the shim died before it learnt the pid (or its socket broke): the worker goes with it,
        os.kill(pid, signal.SIGKILL)  # as the end of a plain interpreter would have ended it
        shim_gone = True
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if not shim_gone:  # else nobody is left to tell, and a broken pipe's traceback would only be noise
        try:
            conn.sendall(f"exit {code}\n".encode())
        except BrokenPipeError:  # it went just after the process it stood for
            pass


def kill_when_orphaned(pid: int, conn: socket.socket) -> bool:
    """Wait for the forked process to end; if its shim goes first (killed: SIGKILL cannot be forwarded), kill it too,
    as the end of a plain interpreter would have ended it, and say so (nobody is left to tell its exit code: the
    self-test kills every fault's reference server that way). The shim sends nothing after its request, so its
    socket turns readable only when it is gone."""
    try:
        watched = os.pidfd_open(pid)
    except (AttributeError, OSError):  # an older kernel: only waitpid
        return False
    try:
        while True:
            ready, _, _ = select.select([watched, conn.fileno()], [], [])
            if watched in ready:
                return False
            if not conn.recv(64):
                os.kill(pid, signal.SIGKILL)
                return True
    finally:
        os.close(watched)


def streams() -> None:
    """The standard streams of ``python -u`` on the shim's descriptors: unbuffered bytes, text written through."""
    import io

    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - the process's own streams
    for fd, name in ((1, "stdout"), (2, "stderr")):
        raw = open(fd, "wb", buffering=0, closefd=False)  # noqa: SIM115
        setattr(sys, name, io.TextIOWrapper(raw, encoding="utf-8", errors="backslashreplace" if fd == 2 else "strict",
                                            line_buffering=True, write_through=True))
