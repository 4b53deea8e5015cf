"""qaconform.pytest.time_frames: each run's data-protection jobs on frames of its own (runs one after the other or
at once practically never meet), and a frame found taken is retried exactly once."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta

from qaconform.pytest.time_frames import NEAR_SPREAD_MIN, Frames, retry_once_in_a_fresh_frame

_TAG_RNG = random.Random(29)
TAGS = [f"qc-{_TAG_RNG.getrandbits(32):08x}" for _ in range(300)]
"""Run tags as `qaconform run` makes them (qc- and 8 hex digits), fixed for a reproducible test."""


def test_two_runs_practically_never_share_an_hour_and_never_a_minute() -> None:
    """300 run tags: no two first frames in the same minute; at most a few pairs in the same hour (about 1 in
    12 * 28 * 24 * 50 per pair, 44,850 pairs)."""
    firsts = [Frames.of(t).far(0) for t in TAGS]
    assert len(set(firsts)) == len(firsts)
    hours = [f.replace(minute=0) for f in firsts]
    same_hour = sum(1 for a, b in itertools.combinations(hours, 2) if a == b)
    assert same_hour <= 3, f"{same_hour} pairs of runs share an hour"


def test_a_runs_own_far_frames_differ_in_every_field_and_lie_years_ahead() -> None:
    for tag in TAGS[:50]:
        frames = [Frames.of(tag).far(k) for k in range(3)]
        for a, b in itertools.pairwise(frames):
            assert (a.year, a.month, a.day, a.hour, a.minute) != (b.year, b.month, b.day, b.hour, b.minute)
            assert a.hour != b.hour and a.minute != b.minute and a.year != b.year
        assert all(2030 <= f.year <= 2083 for f in frames), frames


def test_the_same_tag_gives_the_same_frames_and_the_near_frame_stays_within_its_spread() -> None:
    earliest = datetime(2026, 11, 27, 8, 0, tzinfo=UTC)
    assert Frames.of("qc-1234abcd").far(1) == Frames.of("qc-1234abcd").far(1)
    nears = {Frames.of(t).near(earliest) for t in TAGS}
    assert all(earliest <= n < earliest + timedelta(minutes=NEAR_SPREAD_MIN) for n in nears)
    assert len(nears) > 100, "the near frames of 300 runs spread over the window"
    fresh = Frames.fresh_near(earliest)
    assert earliest <= fresh < earliest + timedelta(minutes=NEAR_SPREAD_MIN)


def test_a_frame_found_taken_is_retried_once_in_a_fresh_frame_and_no_more() -> None:
    first, fresh = datetime(2050, 1, 1, tzinfo=UTC), datetime(2060, 1, 1, tzinfo=UTC)
    sent: list[datetime] = []

    def attempt_taken_always(moment: datetime) -> str:
        sent.append(moment)
        return "taken"

    answer, earlier = retry_once_in_a_fresh_frame(attempt_taken_always, lambda a: a == "taken", first, lambda: fresh)
    assert sent == [first, fresh] and answer == earlier == "taken"

    sent.clear()
    answer, earlier = retry_once_in_a_fresh_frame(lambda m: sent.append(m) or "201", lambda a: a == "taken", first,
                                                  lambda: fresh)
    assert sent == [first] and answer == "201" and earlier is None
