"""Independent requests of one process sent at once, within the profile's politeness limits (issue 31).

Why: the doctor's reads and the cleanup's deletes do not depend on each other, but sent one after another each
costs a whole round trip: against a target 25 ms away about 0.7 s of reads before the suites start and 0.95 s of
deletes after them. A few threads send them together instead.

What stays as it was: every request still goes through :class:`~qaconform.target.client.ApiClient`, so the
process's :class:`~qaconform.target.politeness.Limiter` (``[safety] max_concurrency`` and ``max_rps``) and the
target's pace hold whatever the threads do; :func:`width` never asks for more at once than the process's share of
``max_concurrency``, and a share of 1 sends everything serially in the caller's thread, in the order given, as
before. Results come back in the order of the calls, never in the order the answers arrived, so what is made of
them (findings, a cleanup record) is the same whichever answer came first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from qaconform.target.politeness import PACE, processes_of_run
from qaconform.target.profile import Profile

T = TypeVar("T")

MAX_WIDTH = 6
"""The most requests one fan-out sends at once without a concurrency limit: enough for the doctor's widest step
(four accounts) and a cleanup's deletes, small enough for a shared staging server."""


def width(profile: Profile) -> int:
    """How many requests this process may send at once: :data:`MAX_WIDTH`, or less by the process's share of
    ``[safety] max_concurrency`` (1: serial); 1 once the target has held the run back (``PACE.was_held``: a target
    that rate-limits answers requests asked together with more 429s, not sooner)."""
    if PACE.was_held:
        return 1
    cap = profile.safety.max_concurrency
    if cap is None:
        return MAX_WIDTH
    return max(1, min(MAX_WIDTH, cap // processes_of_run()))


def gather(calls: Sequence[Callable[[], T]], at_once: int) -> list[T]:
    """Each call's result, in the order of ``calls``; at most ``at_once`` running together (1: one after another in
    this thread, stopping at the first exception as a loop would). An exception is raised once every call has
    ended: the first one in the order of ``calls``."""
    if at_once <= 1 or len(calls) <= 1:
        return [call() for call in calls]
    with ThreadPoolExecutor(max_workers=min(at_once, len(calls)), thread_name_prefix="qc-fanout") as pool:
        futures = [pool.submit(call) for call in calls]
    return [f.result() for f in futures]  # the executor waited for all: result() re-raises in order


def settled(calls: Sequence[Callable[[], T]], at_once: int) -> list[T | Exception]:
    """Like :func:`gather`, but each call's exception is its result instead of being raised: for callers that act
    on the results in the order of the calls and must raise an exception only where a loop doing them in turn
    would have met it (the relations' walks and examples)."""
    def outcome(call: Callable[[], T]) -> Callable[[], T | Exception]:
        def run() -> T | Exception:
            try:
                return call()
            except Exception as exc:  # noqa: BLE001 - returned: the caller raises it in order
                return exc
        return run

    return gather([outcome(call) for call in calls], at_once)

