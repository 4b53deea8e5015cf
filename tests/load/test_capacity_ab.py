"""`qaconform capacity --baseline-target`: both builds measured at once, judged from the pairs' noise band (qa17).

The verdict is tested on made-up rounds (what a busy machine gives: pairs that move together), the machine probes
on this process, the command line's refusals in a subprocess (no load is started)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from qaconform import exitcodes
from qaconform.load import ab


def _rounds(pairs: list[tuple[float, float]], **extra: object) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for k, (a, b) in enumerate(pairs):
        for build, rps in (("baseline", a), ("candidate", b)):
            out.append({"n": len(out) + 1, "build": build, "pair": k, "achieved_rps": rps,
                        "folder": f"{build}/browse/step-{k + 2:02d}", "failure_ratio": 0.0, **extra})
    return out


# the machine moves both builds of a pair together: 109 to 643 req/s, the ratio within each pair near 1
BUSY_SAME = [(109.0, 110.0), (643.0, 640.0), (300.0, 303.0), (420.0, 418.0), (150.0, 151.0), (500.0, 497.0)]


def test_same_build_on_a_machine_that_moves_fivefold_is_same() -> None:
    got = ab.verdict(_rounds(BUSY_SAME), 5.0)
    assert got["verdict"] == ab.SAME, got
    assert got["pairs"] == 6 and "throughput" in got["measures"]
    assert ab.exit_code({"browse": got}) == exitcodes.OK


def test_a_build_slower_by_a_fifth_on_the_same_machine_is_slower() -> None:
    got = ab.verdict(_rounds([(a, b * 0.8) for a, b in BUSY_SAME]), 5.0)
    assert got["verdict"] == ab.SLOWER and "below the tolerance" in got["why"], got
    assert ab.exit_code({"browse": got}) == exitcodes.RULE_FAILED


def test_pairs_that_disagree_cannot_be_judged_and_say_what_to_do() -> None:
    got = ab.verdict(_rounds([(100, 84), (100, 113), (100, 100), (100, 91), (100, 100), (100, 94)]), 5.0)
    assert got["verdict"] == ab.CANNOT_JUDGE and "--rounds" in got["why"], got
    assert ab.exit_code({"browse": got}) == exitcodes.CANNOT_JUDGE == 5
    assert ab.exit_code({"browse": got, "mixed": {"verdict": ab.SLOWER}}) == exitcodes.RULE_FAILED


def test_a_build_that_costs_more_cpu_is_slower_even_when_throughput_is_noisy() -> None:
    rounds = _rounds([(100, 84), (100, 113), (100, 100), (100, 91), (100, 100), (100, 94)])
    for r in rounds:
        r["requests_per_cpu_s"] = 3000.0 if r["build"] == "baseline" else 2000.0 + 10 * int(str(r["pair"]))
    got = ab.verdict(rounds, 5.0)
    assert got["verdict"] == ab.SLOWER and "CPU second" in got["why"], got
    assert set(got["measures"]) == {"throughput", "cpu_efficiency"}


def test_same_needs_every_measure_within_the_tolerance() -> None:
    rounds = _rounds(BUSY_SAME)
    for r in rounds:
        r["requests_per_cpu_s"] = 3000.0 * (1.3 if r["build"] == "candidate" and r["pair"] == 1 else 1.0)
    assert ab.verdict(rounds, 5.0)["verdict"] == ab.CANNOT_JUDGE


def test_a_faster_build_is_faster() -> None:
    assert ab.verdict(_rounds([(a, b * 1.3) for a, b in BUSY_SAME]), 5.0)["verdict"] == ab.FASTER


@pytest.mark.parametrize(("extra", "words"), [
    ({"failure_ratio": 0.2}, "failed"),
    ({"steal_pct": 35.0}, "steal"),
])
def test_a_round_that_measured_no_throughput_refuses_to_judge(extra: dict[str, object], words: str) -> None:
    got = ab.verdict(_rounds(BUSY_SAME, **extra), 5.0)
    assert got["verdict"] == ab.CANNOT_JUDGE and words in got["why"], got


def test_a_round_without_requests_and_too_few_pairs_refuse_to_judge() -> None:
    assert "made no request" in ab.verdict(_rounds([(0.0, 10.0), *BUSY_SAME]), 5.0)["why"]
    got = ab.verdict(_rounds(BUSY_SAME[:2]), 5.0)
    assert got["verdict"] == ab.CANNOT_JUDGE and "3 needed" in got["why"]


def test_the_band_is_students_t_over_the_log_ratios() -> None:
    b = ab.band([0.9, 1.0, 1.1])
    assert b["low"] < 0.9 < 1.1 < b["high"] and b["ratio"] == pytest.approx(0.9966, abs=1e-3)
    assert ab.t975(1) == 12.706 and ab.t975(100) == 1.96


def test_the_machine_probes_read_this_machine() -> None:
    if not os.path.exists("/proc/stat"):
        pytest.skip("no /proc: the probes say None there, tested by the None below")
    assert ab.calibrate(10_000) > 0
    cpu = ab.process_cpu_s(os.getpid())
    assert cpu is not None and cpu > 0
    assert ab.process_cpu_s(None) is None
    assert ab.steal_pct(None, (1.0, 2.0)) is None
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert ab.local_pid(f"http://127.0.0.1:{port}") == os.getpid()
    assert ab.local_pid("https://qa.example.com") is None


def _capacity(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "capacity", *argv],
                          capture_output=True, text=True, timeout=60)


def test_the_command_line_refuses_two_baselines_and_too_few_rounds(tmp_path: object) -> None:
    both = _capacity("--baseline-target", "a.toml", "--baseline", "capacity.json")
    assert both.returncode == exitcodes.USAGE and "not both" in both.stderr + both.stdout
    few = _capacity("--baseline-target", "a.toml", "--profile", "b.toml", "--rounds", "2")
    assert few.returncode == exitcodes.USAGE and "--rounds must be 3 or more" in few.stderr + few.stdout
    alone = _capacity("--baseline-target", "a.toml")
    assert alone.returncode == exitcodes.USAGE and "needs --profile" in alone.stderr + alone.stdout
    old = _capacity("--baseline-target", "a.toml", "--profile", "b.toml", "--rounds", "2", "--out", "x")
    assert "--out is deprecated: it is now --report-dir" in old.stderr
    assert "Traceback" not in both.stderr + few.stderr + alone.stderr + old.stderr


def test_a_missing_baseline_profile_is_named_by_its_own_option(tmp_path: object) -> None:
    """qa19: a --baseline-target file that is not there was told to `pass an existing file with --profile`."""
    gone = _capacity("--baseline-target", "no-such-baseline.toml", "--profile", "no-such-candidate.toml")
    said = gone.stderr + gone.stdout
    assert gone.returncode == exitcodes.USAGE, said
    assert "no-such-baseline.toml: file not found; pass an existing file with --baseline-target" in said
    assert "Traceback" not in said
