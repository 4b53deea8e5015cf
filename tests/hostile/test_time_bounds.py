"""The time bound of a hostile run (hostile_kit.allowed_seconds): load stretches a command's own work, never its
waiting. Checked without running anything, so the arithmetic that decides whether a hostile run was in time can
fail here on a quiet machine too."""

from __future__ import annotations

from hostile_kit import MAX_BUSY, allowed_seconds


def test_the_time_bound_stretches_only_the_commands_own_work_by_the_load() -> None:
    assert allowed_seconds(80, 1.0, 1.0, 30.0) == 80  # a quiet machine: the bound as before
    assert allowed_seconds(80, MAX_BUSY, MAX_BUSY, 30.0) == 80 * MAX_BUSY  # the capped stretch where it is more
    assert allowed_seconds(80, MAX_BUSY, 16.0, 30.0) == 80 + 30 * 15  # 16x booked: 30 s of work took 480 s
    # a run that waited: 5 s of CPU at 16x booking, 300 s of wall time is ~220 s of waiting, beyond any bound
    assert not 300 < allowed_seconds(80, MAX_BUSY, 16.0, 5.0)
