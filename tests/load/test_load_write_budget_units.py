"""The write budget's arithmetic and the refusal check, without Locust: a token bucket on a fake clock, shares that
add up, what counts as accepted and refused, and what the thresholds are left to judge."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from qaconform.load.cli import add_arguments, write_limits
from qaconform.load.locust_checks import STATE_CHANGE, CheckFailure, check_response
from qaconform.load.runner import format_writes, judged_figures
from qaconform.load.write_budget import (
    Limits,
    WriteBudget,
    WriteTotals,
    outcome,
    shares,
    summarize,
)
from qaconform.target.profile import Profile, ProfileError, load_profile


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_the_rate_allows_one_write_at_once_then_its_rate_per_second() -> None:
    clock = Clock()
    budget = WriteBudget(Limits(None, 4.0), clock=clock)
    assert budget.take() and not budget.take(), "a run never opens with a burst"
    taken = 0
    for _ in range(100):  # 10 s in steps of 0.1 s, trying 3 writes each step
        clock.t += 0.1
        taken += sum(budget.take() for _ in range(3))
    assert 39 <= taken <= 41, taken
    assert budget.held_back["rate"] > 0


def test_the_bucket_holds_at_most_one_second_of_writes() -> None:
    clock = Clock()
    budget = WriteBudget(Limits(None, 4.0), clock=clock)
    budget.take()
    clock.t += 60  # a minute without writes
    assert sum(budget.take() for _ in range(20)) == 4


def test_the_total_stops_writes_and_says_so() -> None:
    budget = WriteBudget(Limits(3, None))
    assert [budget.take() for _ in range(5)] == [True, True, True, False, False]
    assert budget.total_spent and budget.held_back["total"] == 2


def test_zero_writes_means_none() -> None:
    assert not WriteBudget(Limits(0, 5.0)).take()


def test_a_worker_writes_nothing_before_its_share_is_known() -> None:
    budget = WriteBudget(None)
    assert not budget.take() and budget.held_back["share_unknown"] == 1
    budget.set_limits(Limits(2, None))
    assert budget.take()


@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_shares_add_up_to_the_budget(n: int) -> None:
    parts = shares(Limits(20, 5.0), n)
    assert len(parts) == n
    assert sum(p.max_writes or 0 for p in parts) == 20
    assert sum(p.max_write_rps or 0 for p in parts) == pytest.approx(5.0)
    assert shares(Limits(None, None), n) == [Limits(None, None)] * n


@pytest.mark.parametrize(("status", "body", "expected"), [
    (201, {"id": 1}, "accepted"), (200, {"success": True}, "accepted"), (200, {"success": False}, "refused"),
    (400, None, "refused"), (409, {"error": "x"}, "refused"), (500, None, "other"), (0, None, "other"),
])
def test_what_a_write_answer_counts_as(status: int, body: object, expected: str) -> None:
    assert outcome(status, body) == expected


def test_a_refused_state_change_fails_as_refused_with_its_status() -> None:
    with pytest.raises(CheckFailure) as err:
        check_response(400, "application/json", b'{"error": "node 13 is not wiki"}', STATE_CHANGE)
    assert err.value.check == "refused" and str(err.value).startswith("refused: got 400; body: ")
    assert "#" in str(err.value), "numbers masked: one row per status and message, not per node"
    with pytest.raises(CheckFailure) as err:
        check_response(200, "application/json", b'{"success": false, "result": {}}', STATE_CHANGE)
    assert str(err.value).startswith("refused: got 200 with success false") and err.value.body == {
        "success": False, "result": {}}
    assert check_response(200, "application/json", b'{"success": true, "result": {}}', STATE_CHANGE) == {
        "success": True, "result": {}}


def test_totals_merge_workers_and_say_the_budget_was_reached() -> None:
    totals = WriteTotals(Limits(4, 5.0), processes=2)
    for _ in range(2):
        worker = WriteBudget(Limits(2, None))
        for _ in range(3):
            if worker.take():
                worker.record("postAnswer", 201, {"id": 1})
        totals.merge(worker.drain())
    w = summarize(totals.as_dict(), elapsed_s=2.0)
    assert w is not None
    assert (w["sent"], w["accepted"], w["budget_reached"], w["rps"]) == (4, 4, True, 2.0)
    assert w["by_operation"] == {"postAnswer": {"sent": 4, "accepted": 4, "refused": 0}}
    assert w["held_back"]["total"] == 2


def test_a_one_shot_refusal_is_not_judged_but_other_failures_are() -> None:
    ops = {"cancelWiki (one-shot)": {"count": 1, "failures": 1}, "lockNode": {"count": 4, "failures": 1}}
    total = {"count": 5, "failures": 2}
    writes = {"by_operation": {"cancelWiki (one-shot)": {"sent": 1, "accepted": 0, "refused": 1},
                               "lockNode": {"sent": 4, "accepted": 3, "refused": 1}}}
    judged_ops, judged_total = judged_figures(ops, total, writes)
    assert judged_ops["cancelWiki (one-shot)"]["failures"] == 0 and judged_ops["lockNode"]["failures"] == 1
    assert judged_total["failures"] == 1
    assert ops["cancelWiki (one-shot)"]["failures"] == 1, "the summary's own figures are left as Locust counted"


EXAMPLE = Path(__file__).resolve().parents[2] / "target.example.toml"
ENV = {f"QA_{r}_PASSWORD": "x" for r in ("ADMIN", "MODERATOR", "MEMBER", "NOVICE")}


def _profile(tmp_path: Path, extra: str) -> Profile:
    path = tmp_path / "site.toml"
    path.write_text(EXAMPLE.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return load_profile(path, env=ENV)


def test_the_budget_comes_from_the_profile_then_the_command_line(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    default = _profile(tmp_path, "")
    assert (default.load.max_writes, default.load.max_write_rps) == (300, 5.0), "polite defaults"
    site = _profile(tmp_path, "\n[load]\nmax_writes = 40\nmax_write_rps = 0.5\n")
    assert write_limits(parser.parse_args([]), site) == Limits(40, 0.5)
    assert write_limits(parser.parse_args(["--max-writes", "0"]), site) == Limits(0, 0.5)
    assert write_limits(parser.parse_args(["--max-write-rps", "2"]), site) == Limits(40, 2.0)
    assert write_limits(parser.parse_args(["--no-write-budget"]), site) == Limits(None, None)


@pytest.mark.parametrize(("extra", "message"), [
    ("[load]\nmax_writes = -1\n", "[load] 'max_writes' must be at least 0, not -1"),
    ("[load]\nmax_write_rps = 0\n", "[load] 'max_write_rps' must be positive, not 0"),
    ("[load]\nmax_writs = 3\n", "[load] 'max_writs' is not a load key (did you mean 'max_writes'?)"),
])
def test_a_bad_load_key_is_named(tmp_path: Path, extra: str, message: str) -> None:
    with pytest.raises(ProfileError, match=re.escape(message)):
        _profile(tmp_path, "\n" + extra)


def test_the_terminal_says_what_was_written_and_that_the_budget_was_reached() -> None:
    w = summarize({"max_writes": 4, "max_write_rps": 5.0, "processes": 2, "shares_spent": 1,
                   "by_name": {"postAnswer": {"sent": 3, "accepted": 3, "refused": 0},
                               "cancelWiki (one-shot)": {"sent": 1, "accepted": 0, "refused": 1}},
                   "held_back": {"total": 3}}, elapsed_s=2.0)
    assert w is not None
    text = "\n".join(format_writes(w))
    assert "writes: 4 sent, 3 accepted, 1 refused (2 writes/s; budget 4 writes at 5/s)" in text
    assert "WRITE BUDGET REACHED: 4 of 4 writes sent (1 of 2 worker shares spent)" in text
    assert "cancelWiki (one-shot): refused 1 time(s): a failure row, not held against the target" in text
    assert [line.split()[:4] for line in text.splitlines() if line.startswith("postAnswer")] == [
        ["postAnswer", "3", "3", "0"]]
