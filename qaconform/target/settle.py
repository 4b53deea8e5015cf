"""Reading back what was just written, on targets whose lists lag their writes.

Real servers serve lists from search indexes and caches: an answer or comment may show in a list a moment after
its 201, a node's flag a moment after the change. A read-back after a write is therefore read again, with short
growing pauses, until it shows what was written or the profile's settle window (``settle_s``) has passed; the
last read is returned either way, so a read that never settles fails exactly as it did before. One loop for the
suites (``qaconform.pytest.support.settle``) and the load harness's nothing-lost check, so both wait the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

FIRST_PAUSE_S = 0.05
"""The pause after the first read that did not show the write; each later pause doubles, up to MAX_PAUSE_S."""
MAX_PAUSE_S = 1.0


@dataclass(frozen=True)
class Settled:
    """How one read-back went: what it read, how many reads it took, how long it waited, whether it settled."""

    what: str
    reads: int
    waited_ms: int
    settled: bool

    def as_dict(self) -> dict[str, object]:
        return {"what": self.what, "reads": self.reads, "waited_ms": self.waited_ms, "settled": self.settled}


def settle(window_s: float, read: Callable[[], T], ready: Callable[[T], bool], what: str = "read-back",
           clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep
           ) -> tuple[T, Settled]:
    """``read()`` until ``ready(result)`` or ``window_s`` seconds have passed since the first read; the last result.

    ``window_s`` 0 reads once. A pause never runs past the window, and the last read is made at its end, so a target
    that shows the write within the window is always seen to: a read that began inside the window and ended after it
    (a slow or held-back target, a read of many pages) is followed by one more, begun once the window is over (a
    thorough run against a target that lags and limits its rate saw a write "not listed" after one read of 5 s that
    began before the write showed)."""
    start = clock()
    began = start
    result = read()
    reads, pause = 1, FIRST_PAUSE_S
    while not ready(result):
        left = window_s - (clock() - start)
        if left <= 0:
            if window_s <= 0 or began - start >= window_s:
                return result, Settled(what, reads, round((clock() - start) * 1000), False)
        else:
            sleep(min(pause, left))
            pause = min(pause * 2, MAX_PAUSE_S)
        began = clock()
        result = read()
        reads += 1
    return result, Settled(what, reads, round((clock() - start) * 1000) if reads > 1 else 0, True)
