"""The command xdist starts for each worker when the workers are forked (``qaconform.pytest.forked_workers``).

Run as ``python -S -I worker_shim.py -u -c <execnet's bootstrap line>``: standard library only (it must not pay for
site-packages; it imports nothing of qaconform). It hands its standard streams, folder and environment to the fork
server over a Unix socket, forwards the signals it gets to the forked worker, and ends with the worker's exit code:
to xdist it is the worker. Whenever the fork server cannot be reached, it becomes the plain interpreter with the
same arguments (``os.execv``), exactly what xdist would have started.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
from typing import NoReturn

ENV = "QACONFORM_FORK_SERVER"
"""The fork server's socket path, set by the controller for the workers it starts."""


def _plain(argv: list[str]) -> NoReturn:
    os.execv(sys.executable, [sys.executable, *argv])


def main(argv: list[str]) -> None:
    path = os.environ.get(ENV)
    if not path:
        _plain(argv)
    try:
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(path)
        payload = json.dumps({"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
        socket.send_fds(conn, [len(payload).to_bytes(4, "big") + payload], [0, 1, 2])
        reader = conn.makefile("r", encoding="utf-8")
        first = reader.readline().split()
    except OSError:
        first = []
    if len(first) != 2 or first[0] != "pid":
        _plain(argv)  # the server is gone or refused: start as xdist would have
    pid = int(first[1])

    def forward(signum: int, _frame: object) -> None:
        try:
            os.kill(pid, signum)
        except OSError:
            pass

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, forward)
    line = reader.readline().split()
    code = int(line[1]) if len(line) == 2 and line[0] == "exit" else 1
    if code < 0:  # the worker died of a signal: so does its stand-in
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    sys.exit(code)


if __name__ == "__main__":
    main(sys.argv[1:])
