"""Time frames for the data-protection jobs a run must see succeed, chosen per run from its run tag.

A target refuses a second job in a time frame already taken ("There is a job already scheduled for that time
frame."), keeps its jobs, and does not show how wide a frame is (a minute on one site, an hour on another). Two runs
against one target, one after the other or at once (a push and its pull request), must not take each other's frames:
each run draws year, month, day, hour and minute from a hash of its run tag, its own jobs lie a year, a month, a day,
an hour and a minute apart, and a frame the target still calls taken (another run's job) is replaced once by a random
one before anything is judged (:func:`retry_once_in_a_fresh_frame`).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TypeVar

FIRST_YEAR, YEARS = 2030, 50
"""The run's far frames start in one of 2030-2079 (its later jobs a year or so on): years ahead, so a job there never
runs while anyone watches."""
STEP = timedelta(days=397, hours=1, minutes=1)
"""Between the run's own far frames: every field of the date differs, whatever a frame's width."""
EDGE_DAYS = range(13, 29)
EDGE_HOURS = range(13, 22)
"""blindc (issue 44): a far frame's day is above 12 and its hour in the afternoon ("formatted (string, pattern
month/day/year hour:minute in 24-hour form, two-digit month, day, hour and minute ...)"), so that the formatted date
of every far frame uses the 24-hour clock's own half and a day no month number is: a server that parses it on a
12-hour clock, or day first, refuses it or names another moment, whatever the run tag. The hours stop at 21 so that
the run's third frame (two STEPs on, an hour later each) is still in the afternoon."""
NEAR_SPREAD_MIN = 8 * 60
"""A near frame lies within this many minutes after the earliest minute allowed (the run tag chooses it)."""

T = TypeVar("T")
_rng = random.SystemRandom()


@dataclass(frozen=True)
class Frames:
    """The run's frames: ``far(k)`` years ahead, ``near(earliest)`` within a day; ``fresh_*`` random ones."""

    seed: int

    @classmethod
    def of(cls, run_tag: str) -> Frames:
        return cls(int.from_bytes(hashlib.sha256(run_tag.encode()).digest()[:8], "big"))

    def far(self, k: int) -> datetime:
        """The run's k-th frame years ahead (k = 0, 1, 2, ...). The first one (the main job's) lies at the stated
        form's edges (:data:`EDGE_DAYS`, :data:`EDGE_HOURS`); the later ones an hour later each, so afternoon too."""
        s = self.seed
        base = datetime(FIRST_YEAR + s % YEARS, 1 + (s >> 8) % 12, EDGE_DAYS[(s >> 16) % len(EDGE_DAYS)],
                        EDGE_HOURS[(s >> 24) % len(EDGE_HOURS)], (s >> 32) % 60, tzinfo=UTC)
        return base + k * STEP

    def near(self, earliest: datetime) -> datetime:
        """The run's minute in the ``NEAR_SPREAD_MIN`` minutes from ``earliest`` on."""
        return earliest + timedelta(minutes=(self.seed >> 40) % NEAR_SPREAD_MIN)

    @staticmethod
    def fresh_far() -> datetime:
        """A random minute of a year 2030-2099 (the retry after a frame found taken)."""
        return datetime(_rng.randint(2030, 2099), _rng.randint(1, 12), _rng.choice(EDGE_DAYS),
                        _rng.choice(EDGE_HOURS), _rng.randint(0, 59), tzinfo=UTC)

    @staticmethod
    def fresh_near(earliest: datetime) -> datetime:
        return earliest + timedelta(minutes=_rng.randrange(NEAR_SPREAD_MIN))


def retry_once_in_a_fresh_frame(attempt: Callable[[datetime], T], taken: Callable[[T], bool], frame: datetime,
                                fresh: Callable[[], datetime]) -> tuple[T, T | None]:
    """``attempt(frame)``; when its answer says the frame is taken, ``attempt(fresh())`` once more.

    Returns the answer to judge and the first answer when the first frame was taken (else None). A fresh frame taken
    too is returned as it is: two independent frames both held by others is the target's answer to judge."""
    first = attempt(frame)
    if not taken(first):
        return first, None
    return attempt(fresh()), first
