"""A skip for want of writes names the run's budget as a budget: "81 of a budget of 60 accepted writes" is wrong, and
"(6 of the run's 100 accepted writes)" beside the run's "writes: 86 accepted of a budget of 100" read as 100 made.

Each of the three places a spent share is said (a hand-written test's write not sent, an observation left out of
the plan, a generated test's share) is asked with a budget other than the default, so a message that hard-codes or
misreads the figure fails here.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from _pytest.outcomes import Skipped

from qaconform.pytest import results, session_target
from qaconform.pytest.properties.plugin import Budget
from qaconform.target.client import ApiClient
from qaconform.target.writes import OBSERVATIONS, SUITES, WriteBudget, limits, share_text


def test_a_share_is_said_as_part_of_a_budget_and_no_budget_as_none() -> None:
    assert share_text(45, 60) == "45 of a budget of 60 accepted writes"
    assert share_text(None, None) == "no write budget"


def _skip_reason(call: Any) -> str:
    with pytest.raises(Skipped) as caught:
        call()
    return str(caught.value.msg)


@pytest.mark.parametrize("budget", [60, 250])
def test_a_suites_write_not_sent_names_its_share_of_the_runs_budget(budget: int,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ApiClient, "write_budget", WriteBudget(budget))
    why = _skip_reason(lambda: session_target._budget_spent(SUITES, "POST", "http://h/services/v2/answer/1/comment.json"))
    assert f"({limits(budget)[SUITES]} of a budget of {budget} accepted writes)" in why, why
    assert "of the run's" not in why


@pytest.mark.parametrize("budget", [60, 250])
def test_a_generated_tests_share_names_the_runs_budget(budget: int, monkeypatch: pytest.MonkeyPatch) -> None:
    wb = WriteBudget(budget, pool="openapi")
    monkeypatch.setattr(ApiClient, "write_budget", wb)
    assert Budget.share_text() == f"{wb.limit()} of a budget of {budget} accepted writes"
    monkeypatch.setattr(ApiClient, "write_budget", WriteBudget(None))
    assert Budget.share_text() == "no write budget"


@pytest.mark.parametrize("budget", [60, 250])
def test_an_observation_left_out_of_the_plan_names_its_share_of_the_runs_budget(
        budget: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ApiClient, "write_budget", WriteBudget(budget))
    monkeypatch.setattr(results, "_in_suites", lambda item: True)
    monkeypatch.setattr(results, "pool_of", lambda item: OBSERVATIONS)
    monkeypatch.setattr(results, "_observation_plan", lambda item, b: {})
    monkeypatch.setattr(results, "_accepted_writes", lambda item: 2)
    item = SimpleNamespace(nodeid="suites/x.py::test_y", config=SimpleNamespace(getoption=lambda *a, **k: False))
    why = _skip_reason(lambda: results.pytest_runtest_setup(item))  # type: ignore[arg-type]
    share = limits(budget)[OBSERVATIONS]
    assert f"({share} of a budget of {budget} accepted writes)" in why and "needs 2" in why, why
    assert "of the run's" not in why
    assert ("holds no write" in why) == (share == 0) and ("is planned" in why) == (share != 0), why
