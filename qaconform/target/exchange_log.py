"""A log of every request a run sends, one JSON line each, when ``QACONFORM_EXCHANGE_LOG`` names a folder.

Issue 31 item 1: before cutting requests, count them: per suite file and rule, reads against writes, and reads
that repeat an identical earlier one (``bench/request_table.py`` reads this log). The client's recorder keeps only
the running test's last exchanges, in memory; this log keeps one short line per request of the whole run, redacted
(the URL as the recorder shows it, no header, no body). Off unless the variable is set: a run pays nothing for it.

Each process (the runner, every xdist worker) appends to its own file (``exchanges-<pid>.jsonl``), so no two write
one file. The test is pytest's ``PYTEST_CURRENT_TEST`` (read, not imported: this room never imports pytest).
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import IO

ENV = "QACONFORM_EXCHANGE_LOG"
"""The folder the log is written to; unset: no log."""

_lock = threading.Lock()
_file: IO[str] | None = None
_opened_for: tuple[str, int] | None = None


def _out() -> IO[str] | None:
    """This process's log file, opened on first use (again after a fork), or None when logging is off."""
    global _file, _opened_for
    folder = os.environ.get(ENV)
    if not folder:
        return None
    key = (folder, os.getpid())
    if _opened_for != key:
        Path(folder).mkdir(parents=True, exist_ok=True)
        _file = open(Path(folder) / f"exchanges-{os.getpid()}.jsonl", "a", encoding="utf-8")  # noqa: SIM115
        _opened_for = key
    return _file


def current_test() -> str | None:
    """The test pytest is running in this process (its node id), or None outside a test (the doctor, cleanup)."""
    raw = os.environ.get("PYTEST_CURRENT_TEST")
    return raw.rsplit(" (", 1)[0] if raw else None


def log_exchange(role: str, method: str, url: str, status: int | None, operation: str | None, started: float,
                 *, held: bool = False) -> None:
    """One request as sent: who, what, the answer's status; ``held``: an answer that held the run back (429, 503
    with Retry-After), sent again after a wait. ``url`` must be redacted already."""
    with _lock:
        out = _out()
        if out is None:
            return
        line = {"t": round(time.time(), 4), "pid": os.getpid(), "test": current_test(), "role": role,
                "method": method.upper(), "url": url, "status": status, "operation": operation,
                "ms": round((time.monotonic() - started) * 1000, 1)}
        if held:
            line["held"] = True
        out.write(json.dumps(line) + "\n")
        out.flush()
