"""The terminal lines a user tripped over after `qaconform run` (issue 44, tidy3): "no concurrency or rate limit"
beside "held back by the target 42 times (429)" read as the target's limits, not the profile's; "rules left
unchecked (write budget spent)" beside "86 of 100 accepted" read as the whole budget, not the observations' share
(0 of the default 100); report.json and coverage.json were named without the run folder the user can open them in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from qaconform.report.terminal import format_summary, write_lines
from qaconform.target.writes import OBSERVATIONS, SUITES, limits


def _writes(accepted: int, unchecked: list[str], suites_held: int = 0, budget: int = 100) -> dict[str, Any]:
    """report.json's ``writes`` of a run with ``budget``: the suites' share used ``accepted``, nothing observed."""
    pools = limits(budget)
    return {"budget": budget, "thorough": False, "sent": accepted + 10, "accepted": accepted, "held": suites_held,
            "by_pool": {SUITES: {"sent": accepted + 10, "accepted": accepted, "held": suites_held,
                                 "limit": pools[SUITES]},
                        OBSERVATIONS: {"sent": 0, "accepted": 0, "held": 0, "limit": pools[OBSERVATIONS]}},
            "by_operation": {"postComment": {"sent": accepted + 10, "accepted": accepted}},
            "unchecked_rules": unchecked}


def _line(text: str, start: str) -> str:
    found = [line for line in text.splitlines() if line.startswith(start)]
    assert len(found) == 1, text
    return found[0]


def test_no_limit_is_said_to_be_the_profiles_beside_the_targets_holdbacks() -> None:
    report = {"execution": {"jobs": 4, "max_concurrency": None, "max_rps": None, "round_trip_ms": 12.0},
              "held_back": {"times": 42, "waited_s": 30.0, "paced_s": 0.0, "statuses": {"429": 42}, "tests": 3,
                            "not_checked": [], "longest": []}}
    text = format_summary(report)
    line = _line(text, "ran on ")
    assert line == ("ran on 4 workers (12 ms a round trip to the target); the profile sets no concurrency or rate "
                    "limit ([safety] max_concurrency, max_rps)"), text
    assert "429" in text, "the held-back line is the one that names the target's answers"


def test_the_profiles_limits_are_named_as_the_profiles() -> None:
    report = {"execution": {"jobs": 2, "max_concurrency": 3, "max_rps": 5.0, "round_trip_ms": None}}
    line = _line(format_summary(report), "ran on ")
    assert line == "ran on 2 workers; the profile's limits: at most 3 request(s) at once and at most 5 request(s)/s"


def test_observations_left_out_name_their_share_and_the_option_that_raises_it() -> None:
    """86 of 100 accepted: what is spent is the observations' share (0 of the default 100), not the budget."""
    lines = write_lines(_writes(86, ["OBS-A", "OBS-B"]), {"OBS-A": "observed", "OBS-B": "observed"})
    unchecked = [line for line in lines if line.startswith("rules left unchecked")]
    assert unchecked == [
        "rules left unchecked (the observations' share of the write budget spent; it holds 0 of a budget of 100 "
        f"accepted writes): OBS-A, OBS-B (the share grows with --write-budget: --write-budget 1000 gives it "
        f"{limits(1000)[OBSERVATIONS]} writes; --thorough records every observation)"], lines
    assert limits(1000)[OBSERVATIONS] > limits(100)[OBSERVATIONS], "the hint must name a budget that raises the share"


def test_must_rules_left_out_name_the_suites_share_apart_from_the_observations() -> None:
    lines = write_lines(_writes(5, ["COMMENT-1", "OBS-A"], suites_held=3, budget=6),
                        {"COMMENT-1": "must", "OBS-A": "observed"})
    assert "rules left unchecked (suites share of the write budget spent): COMMENT-1 (raise --write-budget, or " \
           "--thorough)" in lines, lines
    observed = [line for line in lines if "observations' share" in line]
    assert len(observed) == 1 and "OBS-A" in observed[0] and "COMMENT-1" not in observed[0], lines


def test_at_the_shares_cap_only_thorough_is_offered() -> None:
    """A budget of 1000 or more: the observations' share is at its cap, a larger budget would not raise it."""
    lines = write_lines(_writes(900, ["OBS-A"], budget=2000), {"OBS-A": "observed"})
    line = next(line for line in lines if line.startswith("rules left unchecked"))
    assert line.endswith("(--thorough records every observation)") and "--write-budget" not in line, lines


def test_a_share_of_0_whose_tests_never_wrote_is_not_named() -> None:
    """--only comments with --write-budget 6: the generated shares are 0 and nothing tried them; only the suites'
    held writes back."""
    writes = _writes(6, ["COMMENT-1"], suites_held=5, budget=6)
    writes["by_pool"]["openapi"] = {"sent": 0, "accepted": 0, "held": 0, "limit": 0}
    lines = write_lines(writes, {"COMMENT-1": "must"})
    assert "rules left unchecked (suites share of the write budget spent): COMMENT-1 (raise --write-budget, or " \
           "--thorough)" in lines, lines


def test_without_levels_every_unchecked_rule_is_on_one_line_as_before() -> None:
    lines = write_lines(_writes(81, ["X-1"], suites_held=1))
    assert lines[-1] == "rules left unchecked (suites share of the write budget spent): X-1 (raise --write-budget, " \
                        "or --thorough)", lines


def test_report_and_coverage_files_are_named_by_the_path_the_user_can_open(tmp_path: Path) -> None:
    page = tmp_path / "run" / "report.html"
    coverage = {"summary": {"operations_exercised": 19, "operations": 19, "cells_exercised": 95, "cells": 95,
                            "requests": 10, "fields_not_sent": 0},
                "operations": [{"operation": "postComment"}],
                "crossing": {"must_rules_with_dimensions": 2, "crossed_fully": 1, "not_fully": [], "excluded": []}}
    report = {"created": [{"kind": "comment", "id": 7, "by": "member"}], "coverage": coverage}
    text = format_summary(report, page)
    folder = tmp_path / "run"
    created = _line(text, "created on the target: ")
    assert created == f"created on the target: 1 comment ({folder / 'report.json'}: created)", text
    assert _line(text, "interface coverage: ").endswith(f"({folder / 'coverage.json'})"), text
    assert _line(text, "crossing: ").endswith(f"({folder / 'coverage.json'}: crossing)"), text
    bare = format_summary(report)  # no run folder (a report rebuilt without its page): the bare names, as before
    assert "(report.json: created)" in bare and "(coverage.json)" in bare and "(coverage.json: crossing)" in bare


def test_the_thorough_writes_line_lists_only_operations_that_write() -> None:
    """--thorough's generated negative cases send a read operation other methods (counted as writes by their
    method): the per-operation line listed listQuestions 6/0 among the writes; it is said apart, as not writes."""
    from qaconform.report.records import TestResult
    from qaconform.report.tallies import writes_report
    from qaconform.status import Status

    tests = [TestResult("suites/properties/t.py::test_ops[GET /question.json]", Status.PASSED,
                        writes={"operations": {"listQuestions": {"sent": 6, "accepted": 0, "held": 0}}}),
             TestResult("suites/properties/t.py::test_ops[POST /answer/{id}/comment.json]", Status.PASSED,
                        writes={"operations": {"postComment": {"sent": 9, "accepted": 4, "held": 0}}})]
    writes = writes_report(tests, None, [])
    assert list(writes["by_operation"]) == ["postComment"], writes
    assert writes["other_methods_to_reads"] == {"listQuestions": {"sent": 6, "accepted": 0, "held": 0}}, writes
    lines = write_lines(writes)
    assert _line("\n".join(lines), "  per operation") == "  per operation (sent/accepted): postComment 9/4"
    assert _line("\n".join(lines), "  not writes") == (
        "  not writes: 6 request(s) to 1 read operation(s) with a method other than GET (generated negative cases); "
        "none accepted")


def test_the_embedded_servers_consumed_fixtures_point_at_no_file_that_is_gone() -> None:
    """qa16: a run without --profile said its one-shot fixtures were "recorded in /tmp/qaconform-reference-.../
    profile.consumed.json; the next run reads their state", a folder removed when the embedded server stopped, and
    the next run starts a fresh server. A profile target's record is still named."""
    fixtures = {"consumed": [{"fixture": "wiki_node_id", "node": 13}],
                "record": "/tmp/qaconform-reference-x/profile.consumed.json"}
    embedded = _line(format_summary({"reference": True, "fixtures": fixtures}), "consumed one-shot fixtures:")
    assert "/tmp/qaconform-reference-x" not in embedded and "fresh one" in embedded, embedded
    target = _line(format_summary({"reference": False, "fixtures": fixtures}), "consumed one-shot fixtures:")
    assert "recorded in /tmp/qaconform-reference-x/profile.consumed.json" in target, target
