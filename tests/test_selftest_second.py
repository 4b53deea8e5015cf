"""A fault's second run (qaconform/commands/selftest_second.py): the generated tests alone first, kept only when
they catch the fault with no problem; else that run is forgotten and the run of old (the rule's files and the
generated tests) follows. Fake runs: what each call was asked and what it found."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from qaconform.commands import selftest, selftest_second
from qaconform.commands.selftest_result import RunResult
from qaconform.commands.selftest_rules import with_generated

FILES = ["suites/contract/test_a.py", "suites/scenarios/test_b.py"]
RULE = "COMMENT-4"


def _caught(nodeid: str) -> dict[str, Any]:
    return {"nodeid": nodeid, "outcome": "failed", "rules": [RULE], "blocked_by": [], "charged": [RULE],
            "message": f"[{RULE}] broken"}


def _serve(res: RunResult, finds: list[dict[str, Any]], asked: list[dict[str, Any]]) -> Callable[..., None]:
    """A run that records its options and adds the next of ``finds`` (counts, failures, exit code, problem)."""

    def serve(**options: Any) -> None:
        asked.append(options)
        found = finds[len(asked) - 1]
        for outcome, n in found.get("counts", {}).items():
            res.counts[outcome] = res.counts.get(outcome, 0) + n
        res.failed.extend(found.get("failed", []))
        res.returncode = found.get("returncode", 0)
        res.problem = found.get("problem")

    return serve


def _missed_first_run() -> RunResult:
    return RunResult(label="f", rule=RULE, returncode=0, counts={"passed": 40},
                     failed=[{"nodeid": "x::other", "outcome": "failed", "rules": ["X"], "charged": ["X"]}])


def test_the_generated_tests_alone_catch_the_fault_and_nothing_else_runs() -> None:
    res, asked = _missed_first_run(), []
    serve = _serve(res, [{"counts": {"passed": 2, "failed": 1}, "failed": [_caught("suites/properties/t::p1")],
                          "returncode": 1}], asked)
    selftest_second.second_run(res, serve, FILES, whole_suite=False)
    assert asked == [{"only_generated": True, "files": ()}]
    assert res.caught and res.caught_by() == ["suites/properties/t::p1"] and res.problem is None
    assert res.counts == {"passed": 42, "failed": 1} and res.returncode == 1
    assert [t["nodeid"] for t in res.failed] == ["suites/properties/t::p1"]  # the first run's failures are not kept


@pytest.mark.parametrize("alone", [
    {"counts": {"passed": 3}, "returncode": 0},  # they miss it alone
    {"counts": {"failed": 1}, "failed": [_caught("suites/properties/t::p1")], "returncode": None,
     "problem": "pytest did not finish within 300s"},  # caught, but the run could not be judged
    {"returncode": 5, "problem": "no suite test names COMMENT-4: write one"},  # a rule no generated test names
])
def test_when_the_generated_tests_alone_do_not_catch_it_the_run_of_old_follows_as_if_they_never_ran(
        alone: dict[str, Any]) -> None:
    res, asked = _missed_first_run(), []
    old = {"counts": {"passed": 40, "failed": 1}, "failed": [_caught("suites/contract/test_a.py::t9")],
           "returncode": 1}
    selftest_second.second_run(res, _serve(res, [alone, old], asked), FILES, whole_suite=False)
    assert asked == [{"only_generated": True, "files": ()}, {"files": with_generated(FILES)}]
    assert res.caught_by() == ["suites/contract/test_a.py::t9"] and res.problem is None and res.returncode == 1
    assert res.counts == {"passed": 80, "failed": 1}, "the forgotten run's counts stay out"


def test_a_run_of_old_that_misses_too_leaves_the_fault_missed() -> None:
    res, asked = _missed_first_run(), []
    selftest_second.second_run(res, _serve(res, [{"counts": {"passed": 3}}, {"counts": {"passed": 43}}], asked),
                               FILES, whole_suite=False)
    assert len(asked) == 2 and not res.caught and res.counts == {"passed": 83}


def test_every_suite_or_the_switch_off_runs_only_the_run_of_old(monkeypatch: pytest.MonkeyPatch) -> None:
    res, asked = _missed_first_run(), []
    selftest_second.second_run(res, _serve(res, [{"counts": {"passed": 9}}], asked), FILES, whole_suite=True)
    assert asked == [{"files": ()}]
    monkeypatch.setenv("QACONFORM_SELFTEST_GENERATED_FIRST", "0")
    res, asked = _missed_first_run(), []
    selftest_second.second_run(res, _serve(res, [{"counts": {"passed": 9}}], asked), FILES, whole_suite=False)
    assert asked == [{"files": with_generated(FILES)}]


def test_a_faults_run_goes_to_the_generated_tests_alone_when_its_first_run_misses(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """selftest._run_one wires it: a first run that misses, then one run of the generated tests alone."""
    calls: list[dict[str, Any]] = []

    def fake(res: RunResult, label: str, rule: str | None, timeout: float, seed: int, generated: bool,
             **options: Any) -> None:
        calls.append({"generated": generated, **options})
        res.generated = res.generated or generated
        res.returncode = 1 if options.get("only_generated") else 0
        if options.get("only_generated"):
            res.failed.append(_caught("suites/properties/test_privacy_model.py::t[part-1-of-3]"))

    monkeypatch.setattr(selftest, "_serve_and_test", fake)
    monkeypatch.setattr(selftest, "generated_test_rules", lambda: frozenset({RULE}))
    res = selftest._run_one("f", RULE, 60.0, 1, files=FILES)
    assert [c["generated"] for c in calls] == [False, True] and calls[1]["only_generated"] is True
    assert res.caught and res.generated
