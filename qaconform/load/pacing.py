"""Open-model pacing: each simulated user starts one task per fixed interval, whatever the latency.

Why not Locust's ``constant_throughput``: it measures from the end of the previous task, forgets a missed
slot, and never says it fell behind, so a slow generator or server quietly lowers the arrival rate (the
"coordinated omission" problem). Here every user keeps its schedule of intended start times; a late start runs
at once (catching up) and is counted with its lag, and slots more than ``max_debt_s`` behind are dropped and
counted as missed. The counts are what ``qaconform load --rate`` reports when the generator cannot keep up.
"""

from __future__ import annotations

from typing import Any


class Pacer:
    """The schedule of one user: intended starts every ``interval_s``, beginning at ``first_start``.

    While a task runs, ``next_start`` is that task's own intended start (``wait`` moves it on before sleeping),
    so a request can measure its latency from when it *should* have started.
    """

    __slots__ = ("interval_s", "next_start", "max_debt_s", "late_tolerance_s", "stats")

    def __init__(self, interval_s: float, first_start: float, stats: PacingStats, max_debt_s: float = 1.0) -> None:
        if interval_s <= 0:
            raise ValueError(f"interval must be positive, got {interval_s}")
        self.interval_s = interval_s
        self.next_start = first_start
        self.max_debt_s = max(max_debt_s, interval_s)
        self.late_tolerance_s = max(0.002, interval_s * 0.1)
        self.stats = stats

    def wait(self, now: float) -> float:
        """Seconds to sleep before the next task, called when a task has ended at ``now``."""
        self.next_start += self.interval_s
        lag = now - self.next_start
        if lag > self.max_debt_s:
            missed = int(lag // self.interval_s)
            self.stats.missed += missed
            self.next_start += missed * self.interval_s
            lag = now - self.next_start
        self.stats.slots += 1
        if lag > self.late_tolerance_s:
            self.stats.late += 1
            if lag > self.stats.max_lag_s:
                self.stats.max_lag_s = lag
        return max(0.0, -lag)


class PacingStats:
    """Totals over all users of one process (or, merged, of a run)."""

    __slots__ = ("slots", "late", "missed", "max_lag_s")

    def __init__(self) -> None:
        self.slots = 0
        self.late = 0
        self.missed = 0
        self.max_lag_s = 0.0

    def drain(self) -> dict[str, Any]:
        out = self.to_dict()
        self.slots = self.late = self.missed = 0
        self.max_lag_s = 0.0
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"slots": self.slots, "late": self.late, "missed": self.missed, "max_lag_s": self.max_lag_s}

    def merge_dict(self, d: dict[str, Any]) -> None:
        self.slots += int(d.get("slots", 0))
        self.late += int(d.get("late", 0))
        self.missed += int(d.get("missed", 0))
        self.max_lag_s = max(self.max_lag_s, float(d.get("max_lag_s", 0.0)))


def users_for_rate(rate: float, users: int | None = None, per_user_max: float = 5.0) -> int:
    """How many users carry ``rate`` tasks/s: the given number, or enough that none runs above ``per_user_max``.

    A user can start at most 1/latency tasks per second; 5/s each keeps the schedule while answers take up to
    200 ms (slower than that, the rate is not reached and the run says so).
    """
    if rate <= 0:
        raise ValueError(f"--rate must be positive, got {rate}")
    if users:
        return users
    return max(2, min(5000, -(-int(rate * 1000) // int(per_user_max * 1000))))
