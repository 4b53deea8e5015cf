"""``qaconform selftest --whole-suite --until-caught`` (whole18): each fault's run is a whole run's pytest (every
suite, the generated tests included, in a whole run's order) ended at its first test charged with the fault's rule,
so its "caught" is what ``qaconform run --reference-fault NAME`` catches, not what the rule's tests catch alone
(paths17-reply-sticky-privacy: caught by its rule's tests alone, missed by a whole run, where another test's writes
come first)."""

from __future__ import annotations

from typing import Any

import pytest

from qaconform.commands import selftest, selftest_rules, selftest_second
from qaconform.reference import faults

SEED = selftest.DEFAULT_SEED


def _stop(cmd: list[str]) -> str | None:
    return cmd[cmd.index("--qaconform-until-caught") + 1] if "--qaconform-until-caught" in cmd else None


def test_a_whole_suite_stop_selects_every_test_and_ends_at_the_rule() -> None:
    cmd = selftest_rules.pytest_base(None, SEED, True, stop_at="COMMENT-1")
    assert _stop(cmd) == "COMMENT-1" and "--rule" not in cmd
    assert "suites/properties" not in cmd, "a whole run's pytest keeps the generated tests"
    assert str(selftest_rules.suites_dir()) in cmd, "every suite, as a whole run collects them"


def test_the_stop_applies_to_a_whole_suite_run_only() -> None:
    """With a rule (the tests naming it), only ``until_caught`` stops the run; ``stop_at`` is a whole suite's."""
    assert _stop(selftest_rules.pytest_base("COMMENT-1", SEED, False, stop_at="COMMENT-2")) is None
    assert _stop(selftest_rules.pytest_base("COMMENT-1", SEED, False, until_caught=True)) == "COMMENT-1"
    assert _stop(selftest_rules.pytest_base(None, SEED, True)) is None


def test_a_faults_run_in_a_whole_runs_order_has_the_generated_tests_and_no_second_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A miss there is a miss of the whole run: no run of the generated tests alone may turn it into a catch."""
    seen: list[dict[str, Any]] = []

    def serve(res: selftest.RunResult, label: str, rule: str | None, *args: Any, **kwargs: Any) -> None:
        seen.append(kwargs)
        res.returncode = 0

    def second(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a second run after a whole run's order")

    monkeypatch.setattr(selftest, "_serve_and_test", serve)
    monkeypatch.setattr(selftest_second, "second_run", second)
    name = "lock-exposes-private"  # its rule is named by the generated tests (a second run follows a miss)
    rule = faults.FAULTS[name].rule
    assert rule in selftest_rules.generated_test_rules()
    res = selftest._run_one(name, rule, 60.0, SEED, whole_suite=True, until_caught=True)
    assert not res.caught and len(seen) == 1
    assert seen[0]["generated"] is True and seen[0]["whole_suite"] is True and seen[0]["until_caught"] is True
    assert not seen[0]["files"] and seen[0]["batch"] is None


@pytest.mark.slow
def test_a_fault_in_a_whole_runs_order_is_caught_by_one_test_after_other_rules_tests() -> None:
    """envelope-listcount-wrong: its whole run (``qaconform run --seed 20260801 --reference-fault NAME``) first
    charged PAGING-LISTCOUNT at test_counts_after_posts.py, after tests of other rules; the stopped run ends there."""
    name, rule = "envelope-listcount-wrong", "PAGING-LISTCOUNT"
    assert faults.FAULTS[name].rule == rule
    with selftest._forked_pytest():
        res = selftest._run_one(name, rule, 600.0, SEED, whole_suite=True, until_caught=True)
    assert res.problem is None, res.problem
    assert len(res.caught_by()) == 1, res.failed
    assert res.caught_by()[0].startswith("suites/contract/test_counts_after_posts.py::"), res.caught_by()
    assert sum(res.counts.values()) > 100, res.counts
