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


@pytest.fixture(autouse=True)
def _no_clean_runs_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts as a self-test does: no clean run of the generated tests alone made yet."""
    monkeypatch.setattr(selftest_second, "_CLEAN_RUNS", {})


def _clean(seed: int = 7, returncode: int = 0, failed: int = 0,
           made: list[int] | None = None) -> tuple[int, Callable[[], RunResult]]:
    """(seed, the generated tests alone on a clean server): green unless told; ``made`` counts the runs."""

    def run() -> RunResult:
        if made is not None:
            made.append(seed)
        return RunResult(label="clean", rule=None, returncode=returncode, variants=("clean",), seed=seed,
                         failed=[{"nodeid": "suites/properties/t::p", "outcome": "failed", "rules": ["X"]}] * failed)

    return seed, run


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


def _asked() -> list[dict[str, Any]]:
    return []


def _missed_first_run() -> RunResult:
    return RunResult(label="f", rule=RULE, returncode=0, counts={"passed": 40},
                     failed=[{"nodeid": "x::other", "outcome": "failed", "rules": ["X"], "charged": ["X"]}])


def test_the_generated_tests_alone_catch_the_fault_and_nothing_else_runs() -> None:
    res, asked = _missed_first_run(), _asked()
    serve = _serve(res, [{"counts": {"passed": 2, "failed": 1}, "failed": [_caught("suites/properties/t::p1")],
                          "returncode": 1}], asked)
    made: list[int] = []
    selftest_second.run_second(res, serve, FILES, False, _clean(made=made))
    assert asked == [{"only_generated": True, "files": ()}] and made == [7]
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
    res, asked = _missed_first_run(), _asked()
    old = {"counts": {"passed": 40, "failed": 1}, "failed": [_caught("suites/contract/test_a.py::t9")],
           "returncode": 1}
    selftest_second.run_second(res, _serve(res, [alone, old], asked), FILES, False, _clean())
    assert asked == [{"only_generated": True, "files": ()}, {"files": with_generated(FILES)}]
    assert res.caught_by() == ["suites/contract/test_a.py::t9"] and res.problem is None and res.returncode == 1
    assert res.counts == {"passed": 80, "failed": 1}, "the forgotten run's counts stay out"


def test_a_run_of_old_that_misses_too_leaves_the_fault_missed() -> None:
    res, asked = _missed_first_run(), _asked()
    selftest_second.run_second(res, _serve(res, [{"counts": {"passed": 3}}, {"counts": {"passed": 43}}], asked),
                               FILES, False, _clean())
    assert len(asked) == 2 and not res.caught and res.counts == {"passed": 83}


def test_every_suite_or_the_switch_off_runs_only_the_run_of_old(monkeypatch: pytest.MonkeyPatch) -> None:
    res, asked = _missed_first_run(), _asked()
    selftest_second.run_second(res, _serve(res, [{"counts": {"passed": 9}}], asked), FILES, True, _clean())
    assert asked == [{"files": ()}]
    res, asked = _missed_first_run(), _asked()  # --default-profile: no clean run of that shape to trust them by
    selftest_second.run_second(res, _serve(res, [{"counts": {"passed": 9}}], asked), FILES, False, None)
    assert asked == [{"files": with_generated(FILES)}]
    monkeypatch.setenv("QACONFORM_SELFTEST_GENERATED_FIRST", "0")
    res, asked = _missed_first_run(), _asked()
    selftest_second.run_second(res, _serve(res, [{"counts": {"passed": 9}}], asked), FILES, False, _clean())
    assert asked == [{"files": with_generated(FILES)}]


@pytest.mark.parametrize("clean", [{"returncode": 1, "failed": 1}, {"returncode": 2}])
def test_a_catch_by_the_generated_tests_alone_is_not_trusted_when_they_fail_alone_on_a_clean_server(
        clean: dict[str, int]) -> None:
    """A test that fails alone whatever the server would "catch" every fault: then the run of old decides."""
    res, asked = _missed_first_run(), _asked()
    alone = {"counts": {"failed": 1}, "failed": [_caught("suites/properties/t::p1")], "returncode": 1}
    old = {"counts": {"passed": 41}, "returncode": 0}
    selftest_second.run_second(res, _serve(res, [alone, old], asked), FILES, False,
                               _clean(returncode=clean["returncode"], failed=clean.get("failed", 0)))
    assert len(asked) == 2 and not res.caught and res.counts == {"passed": 81}


def test_the_clean_run_alone_is_made_once_per_seed_whichever_fault_asks() -> None:
    made: list[int] = []
    for seed in (7, 7, 8, 7):
        res, asked = _missed_first_run(), _asked()
        alone = {"counts": {"failed": 1}, "failed": [_caught("suites/properties/t::p1")], "returncode": 1}
        selftest_second.run_second(res, _serve(res, [alone], asked), FILES, False, _clean(seed, made=made))
        assert res.caught and len(asked) == 1
    assert made == [7, 8]


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
    monkeypatch.setattr(selftest, "_run_generated", lambda label, server, timeout, seed: RunResult(
        label=label, rule=None, returncode=0, variants=(server,), seed=seed))
    res = selftest._run_one("f", RULE, 60.0, 1, files=FILES)
    assert [c["generated"] for c in calls] == [False, True] and calls[1]["only_generated"] is True
    assert res.caught and res.generated and 1 in selftest_second._CLEAN_RUNS


def test_under_until_caught_only_the_run_alone_stops_at_its_catch() -> None:
    """``--until-caught`` (CI): the run of the generated tests alone ends at its first test charged with the rule;
    the run of old that follows a miss runs as before (asked without it)."""
    res, asked = _missed_first_run(), _asked()
    serve = _serve(res, [{"counts": {"passed": 3}}, {"counts": {"passed": 43}, "failed": [_caught("a::t")],
                                                     "returncode": 1}], asked)
    selftest_second.run_second(res, serve, FILES, False, _clean(), until_caught=True)
    assert asked == [{"only_generated": True, "files": (), "until_caught": True}, {"files": with_generated(FILES)}]
    assert res.caught
    res, asked = _missed_first_run(), _asked()
    selftest_second.run_second(res, _serve(res, [{"counts": {"passed": 3}}, {"counts": {"passed": 43}}], asked),
                               FILES, False, _clean())
    assert "until_caught" not in asked[0], "without --until-caught the run alone runs every generated test"


def test_run_one_passes_until_caught_to_the_second_run(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []

    def fake(res: RunResult, label: str, rule: str | None, timeout: float, seed: int, generated: bool,
             **options: Any) -> None:
        calls.append({"generated": generated, **options})
        res.returncode = 1 if options.get("only_generated") else 0
        if options.get("only_generated"):
            res.failed.append(_caught("suites/properties/test_privacy_model.py::t[part-1-of-3]"))

    monkeypatch.setattr(selftest, "_serve_and_test", fake)
    monkeypatch.setattr(selftest, "generated_test_rules", lambda: frozenset({RULE}))
    monkeypatch.setattr(selftest, "_run_generated", lambda label, server, timeout, seed: RunResult(
        label=label, rule=None, returncode=0, variants=(server,), seed=seed))
    res = selftest._run_one("f", RULE, 60.0, 1, files=FILES, until_caught=True)
    assert res.caught and calls[1]["only_generated"] is True and calls[1]["until_caught"] is True
    assert not calls[0].get("until_caught"), "the first run here is no batch's: --until-caught is the batch's there"


def test_the_generated_tests_alone_run_the_privacy_model_first_and_every_file_once() -> None:
    """What a run of the generated tests alone collects (the fault's run and the clean run that trusts it alike):
    every test file of suites/properties once, the privacy model's first; ``until_caught`` adds the stop at the
    rule's first charged test only to a run of one rule."""
    from qaconform.commands.selftest_rules import GENERATED_FIRST, generated_files, pytest_base
    from qaconform.kit import suites_dir

    folder = suites_dir() / "properties"
    files = generated_files()
    assert sorted(files) == sorted(str(p) for p in folder.glob("test_*.py")) and len(set(files)) == len(files)
    assert files[0] == str(folder / GENERATED_FIRST[0])
    fault = pytest_base(RULE, 3, True, only_generated=True, until_caught=True)
    assert fault[fault.index(files[0]):fault.index(files[0]) + len(files)] == files
    assert fault[-4:] == ["-p", "qaconform.pytest.fault_batch", "--qaconform-until-caught", RULE]
    assert str(folder) not in fault, "the folder besides its files would collect them again or in its own order"
    assert "--qaconform-until-caught" not in pytest_base(None, 3, True, only_generated=True, until_caught=True)
    assert "--qaconform-until-caught" not in pytest_base(RULE, 3, True, only_generated=True)
