"""Reads the run sends once, whichever xdist worker asks first (issue 44, "cost stays where it is").

The crossing suites (the rules crossed pairwise, the list permissions, the lists' response rules) each read a
covering array of rows, each row one GET of a list by one account, and judge a property of that one response,
whenever it was read. Their arrays draw many of the same rows (the same account, path and parameters), but the
three run as units of their own, on different workers, and each worker's ``fetch`` cache is its own: measured at
+25 ms (bench/bench_run.py --requests), about 115 of their 1,550 reads repeated a read another worker had made.

:class:`RunReads` keeps each such response in a file every worker of the run shares (the folder the write budget's
file lives in), under an ``flock`` per read: the first worker to ask sends the GET and writes the answer, one that
asks meanwhile waits for it (one round trip) instead of sending it again, and every later one reads the file. On one
process (no xdist) it is a plain per-process cache.

Only for reads that are the same request and judged as one response: never for a read that must follow a write
(a read-back, a count after a write), never for the read-order tests (a read right after another account's, back to
back: they send their own requests). A response from another worker is logged again under the test that judges it
(``judged_again``: its HAR cassette holds it; the interface coverage counts the one that went over the wire).
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from qaconform.target.client import ApiResponse, Exchange

Key = tuple[str, str, tuple[tuple[str, str], ...]]
"""(account, path without its leading slash, the parameters sorted): one GET with the client's default headers."""


def run_folder(config: Any) -> Path | None:
    """The folder every xdist worker of this run shares for its reads (None on one process: nothing to share)."""
    worker = getattr(config, "workerinput", None)
    factory = getattr(config, "_tmp_path_factory", None)
    if worker is None or factory is None:
        return None
    return Path(factory.getbasetemp().parent) / f"qc-reads-{worker['testrunuid']}"


def _encode(resp: ApiResponse) -> str:
    return json.dumps({"status": resp.status, "headers": resp.headers, "url": resp.url,
                       "content": base64.b64encode(resp.content).decode("ascii"),
                       "exchange": resp.exchange.as_dict()})


def _decode(text: str) -> ApiResponse:
    raw = json.loads(text)
    return ApiResponse(int(raw["status"]), dict(raw["headers"]), base64.b64decode(raw["content"]), str(raw["url"]),
                       Exchange(**raw["exchange"]))


class RunReads:
    """One response per :data:`Key` for the whole run: another worker's, else read now and kept for the others.
    The caller keeps what it got (this class reads the shared folder on every call)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.sent = 0
        """Reads this process sent through it; ``taken``: those it took from another worker's file instead."""
        self.taken = 0
        self._lock = threading.Lock()

    def get(self, key: Key, read: Callable[[], ApiResponse], *, take: bool = True) -> tuple[ApiResponse, bool]:
        """The response to ``key`` and whether another worker read it (the caller's test then judges it again: the
        client recorded only the reads it sent). ``take=False``: publish only: a read sent now, written for the other
        workers when none has been, never another worker's (for a suite whose tests compare several responses read
        close together, which another worker's older read would set apart in time)."""
        resp, theirs = (read(), False) if self.folder is None else self._through_file(key, read, take)
        with self._lock:
            if theirs:
                self.taken += 1
            else:
                self.sent += 1
        return resp, theirs

    def _through_file(self, key: Key, read: Callable[[], ApiResponse], take: bool) -> tuple[ApiResponse, bool]:
        assert self.folder is not None
        self.folder.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(repr(key).encode("utf-8")).hexdigest()[:24]
        data = self.folder / f"{digest}.json"
        with open(self.folder / f"{digest}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # a worker reading it now: wait for its answer (one round trip)
            if data.exists():
                if take:
                    return _decode(data.read_text(encoding="utf-8")), True
                return read(), False
            resp = read()
            partial = data.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
            partial.write_text(_encode(resp), encoding="utf-8")
            os.replace(partial, data)
            return resp, False


J = TypeVar("J")


def once(folder: Path | None, key: str, make: Callable[[], J]) -> J:
    """``make()`` once per run, its JSON value read by every other worker (``folder`` None: one process, ``make()``).

    For what a crossing suite learns with reads apart from its rows (what a reader may not see, a search word, the
    paths it reads): each worker running one of its lists would otherwise read it again. A worker asking while
    another makes it waits for that one's value; a ``make()`` that raised leaves nothing, and the next one tries."""
    if folder is None:
        return make()
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / f"value-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:24]}.json"
    with open(data.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if data.exists():
            value: J = json.loads(data.read_text(encoding="utf-8"))
            return value
        value = make()
        partial = data.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
        partial.write_text(json.dumps(value), encoding="utf-8")
        os.replace(partial, data)
        return value
