"""A capacity search on a busy machine (cap26): a step that broke inside the machine's own noise is repeated, not
failed; a search whose budget ran out before any rate held says "inconclusive" (exit 5) with the machine's noise and
what would give an answer, never "nothing held". Made-up steps and a made-up clock: no Locust, no server."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from qaconform import exitcodes
from qaconform.load import capacity
from qaconform.load.judge import TARGET, Verdict
from qaconform.load.noise import inconclusive, inside_noise, machine_words
from qaconform.load.thresholds import limits_from_dict

LIMITS = limits_from_dict({"defaults": {"p95_ms": 500, "failure_ratio": 0.01}})


def _rec(offered: float, achieved: float, reasons: list[str], windows: list[float], busy: float = 100.0,
         load: float = 17.9) -> dict[str, Any]:
    return {"kind": "step", "offered_rps": offered, "achieved_rps": achieved, "held": not reasons,
            "reasons": reasons, "cause": None if not reasons else TARGET, "machine_busy_pct": busy,
            "load_average": load, "steady": {"rate_trend_rps": windows}}


# user26's step at 68 req/s on two cores at load 17.9, CPUs 100 % busy: its windows made 76, 66, 17, 35, 50 req/s
USER26 = _rec(68.0, 48.8, ["listQuestions.p95_ms 785.7 over 500", "made 48.8 of 68 req/s",
                           "missed 100 of 420 start slots"], [76.0, 66.0, 17.0, 35.0, 50.0])


def test_a_step_that_broke_within_its_own_windows_spread_on_a_busy_machine_is_inside_the_noise() -> None:
    band = inside_noise(USER26, 2)
    assert band is not None and 28.2 <= band <= 50.0, band  # 28 % short, windows moving ±40 %: a band of 50 %


@pytest.mark.parametrize("change, why", [
    ({"machine_busy_pct": 40.0, "load_average": 1.0}, "a quiet machine: the break is the target's"),
    ({"steady": {"rate_trend_rps": [50.0, 49.0, 48.0, 49.0, 50.0]}}, "steady windows: the rate was what it made"),
    ({"achieved_rps": 20.0}, "made less than the band allows"),
    ({"reasons": ["total.failure_ratio 0.2 over 0.01"]}, "failures are never the machine's noise"),
    ({"reasons": ["3 created items not listed"]}, "lost items are never the machine's noise"),
    ({"held": True, "reasons": []}, "a step that held has nothing to repeat"),
])
def test_a_break_outside_the_noise_is_not_repeated(change: dict[str, Any], why: str) -> None:
    assert inside_noise({**USER26, **change}, 2) is None, why


def test_only_late_start_slots_at_the_rate_made_on_a_busy_machine_are_inside_the_noise() -> None:
    """A step with the rate made, a p95 of 9 ms and "missed 119 of its 5561 start slots" at load 2 on 2 cores with a
    CPU hog: the generator started late because the machine was busy."""
    rec = _rec(697.0, 693.3, ["missed 119 of its 5561 start slots"], [700.0, 695.0, 690.0, 698.0], busy=96.0,
               load=2.1)
    assert inside_noise(rec, 2) == 10.0
    assert inside_noise({**rec, "machine_busy_pct": 50.0, "load_average": 1.0}, 2) is None


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def _search(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, outcome: Any, budget_s: float,
            probe_rps: float = 100.0) -> dict[str, Any]:
    """``capacity.search`` with each step's record from ``outcome(rate, try) -> record``; every step takes its
    duration on a made-up clock, so the budget ends the search as it would."""
    clock, tries = Clock(), dict[float | None, int]()

    def run(self: Any, rate: float | None, seconds: float, kind: str) -> Verdict:
        clock.now += seconds
        tries[rate] = tries.get(rate, 0) + 1
        rec = _rec(0, probe_rps, [], [probe_rps] * 4) if rate is None else outcome(rate, tries[rate])
        v = Verdict(rate, rec["achieved_rps"], rec["held"], rec["reasons"], rec["cause"], None)
        self.records.append({**v.record(), **rec, "n": len(self.records) + 1, "kind": "probe" if rate is None
                             else kind, "offered_rps": rate, "duration_s": seconds, "users": 16, "folder": "s"})
        self.overheads.append(0.0)
        return v

    monkeypatch.setattr(capacity, "time", clock)
    monkeypatch.setattr(capacity.Steps, "run", run)
    monkeypatch.setattr(capacity, "cores", lambda: 2)
    args = argparse.Namespace(precision=5.0, step_duration=8.0, start_rate=None, probe_users=16, workers=0)
    return capacity.search("mixed", args, None, tmp_path / "target.json", tmp_path, LIMITS, clock.now + budget_s)


def test_a_step_inside_the_noise_is_repeated_once_and_the_repeat_decides(monkeypatch: pytest.MonkeyPatch,
                                                                         tmp_path: Path) -> None:
    """The first try at 90 req/s fell inside the noise (user26's windows); the repeat made its rate: 90 holds. A rate
    is repeated once: above the truth (100 req/s) a repeat inside the noise breaks, and counts."""
    def outcome(rate: float, n: int) -> dict[str, Any]:
        if rate <= 100 and n > 1:
            return _rec(rate, rate, [], [rate] * 5)
        return {**USER26, "offered_rps": rate, "achieved_rps": rate * 0.8,
                "reasons": [f"made {rate * 0.8:.1f} of {rate:g} req/s"]}

    result = _search(monkeypatch, tmp_path, outcome, 3600.0)
    steps = result["steps"][1:]
    assert steps[0]["offered_rps"] == 90.0 and steps[0]["repeated"] and steps[0]["inside_noise_pct"] == 50.0
    assert steps[1]["kind"] == "repeat" and steps[1]["held"], steps[1]
    rates = [s["offered_rps"] for s in steps]
    assert all(rates.count(r) <= 2 + (r == result["capacity_rate"]) for r in rates), rates  # once, and the confirm
    assert result["verdict"] == "answer" and 95.0 <= result["capacity_rps"] <= 100.0, result["statement"]


def test_a_search_whose_budget_ran_out_before_any_rate_held_is_inconclusive_not_nothing_held(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: Any) -> None:
    """user26, twice in a row at load 18 on 2 cores with --max-time 60: first exit 1 "nothing held, between 0 and
    68 req/s", then exit 0 "at least 77.3 req/s". Where the budget ran out before any rate held, the answer is not
    "nothing held": it is inconclusive (exit 5), with the machine's noise and what to do."""
    def outcome(rate: float, n: int) -> dict[str, Any]:
        return {**USER26, "offered_rps": rate, "achieved_rps": rate * 0.3,
                "reasons": [f"made {rate * 0.3:.1f} of {rate:g} req/s"]}

    result = _search(monkeypatch, tmp_path, outcome, 60.0)
    assert result["verdict"] == "inconclusive" and result["capacity_rps"] is None, result["statement"]
    said = result["statement"]
    assert "held nothing" not in said and "inconclusive" in said, said
    assert "load average up to 17.9 on 2 cores" in said and "100 to 100 % busy" in said and "±43.4 %" in said, said
    assert "--step-duration 20" in said and "--max-time 300" in said and "quieter machine" in said, said
    assert capacity.exit_code({"mixed": result}, []) == exitcodes.CANNOT_JUDGE == 5
    report = {"scenarios": {"mixed": result}, "checks": {}}
    table = capacity.summary_text(report)
    assert "inconclusive (noise ±" in table and "nothing held" not in table, table


def test_a_search_that_tried_every_rate_down_and_none_held_still_fails(monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path: Path) -> None:
    """Not the budget: every rate down to the lowest broke on the target's thresholds on a quiet machine. That is an
    answer (nothing held, exit 1), not an inconclusive one."""
    def outcome(rate: float, n: int) -> dict[str, Any]:
        return _rec(rate, rate, ["listQuestions.p95_ms 900 over 500"], [rate] * 5, busy=30.0, load=0.5)

    result = _search(monkeypatch, tmp_path, outcome, 36000.0)
    assert result["verdict"] != "inconclusive" and result["capacity_rps"] is None, result["statement"]
    assert capacity.exit_code({"browse": result}, []) == exitcodes.RULE_FAILED


def test_the_machines_noise_in_words_and_what_to_do() -> None:
    assert machine_words([], 2) == "no measure of the machine"
    said = inconclusive([USER26], 68.0, 2, 8.0)
    assert said.startswith("inconclusive: ") and "below 68 req/s" in said, said
    assert "--step-duration 24" in inconclusive([], None, 2, 12.0) and "at any rate" in inconclusive([], None, 2, 8)


def test_the_page_says_inconclusive_not_nothing_held() -> None:
    from qaconform.report.capacity_page import render_capacity

    result = {"verdict": "inconclusive", "capacity_rps": None, "capacity_rate": None, "lower_bound": True,
              "between": [None, 68.0], "statement": inconclusive([USER26], 68.0, 2, 8.0), "steps": [USER26],
              "limited_by": {"kind": "time", "detail": "the time budget ran out"}, "interval": {}, "noise": {}}
    page = render_capacity({"format": "qaconform-capacity/1", "run_id": "r", "target": "http://127.0.0.1:1",
                            "scenarios": {"mixed": result}, "thresholds": {}, "checks": {}})
    assert "inconclusive (no rate held before the budget ran out)" in page and "nothing held" not in page
    result["steps"] = [{**USER26, "n": 1, "repeated": True, "inside_noise_pct": 50.0}]
    page = render_capacity({"format": "qaconform-capacity/1", "run_id": "r", "target": "http://127.0.0.1:1",
                            "scenarios": {"mixed": result}, "thresholds": {}, "checks": {}})
    assert "inside the machine&#x27;s noise (±50.0 %), repeated: " in page or \
        "inside the machine's noise (±50.0 %), repeated: " in page, page


def test_an_inconclusive_search_compared_with_a_baseline_exits_5_and_a_regression_still_exits_1() -> None:
    lost = {"mixed": {"verdict": "inconclusive", "capacity_rps": None}}
    cannot_tell = [{"scenario": "mixed", "regressed": False, "verdict": "cannot tell at this noise"}]
    assert capacity.exit_code(lost, cannot_tell) == exitcodes.CANNOT_JUDGE
    assert capacity.exit_code({**lost, "browse": {"capacity_rps": 9.0}},
                              [{**cannot_tell[0], "scenario": "browse", "regressed": True}]) == exitcodes.RULE_FAILED
