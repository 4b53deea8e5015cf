"""The refusals' share of the write budget (budget19, issue 44): a call the description says is refused costs a
conforming target nothing, so once the suites' share is spent it is still sent, as a probe into a small share; a
target that accepts such calls fills that share, and the run then stops sending them and says why, never past the
run's cap.

Measured before: a whole `qaconform run --seed 20260801` sent none of the permission table's 26 denied write
cells (the suites' 81 were spent before them), so a fault that lets a denied caller write
(denied-answer-still-created, blind7-anonymous-sendtomod-v1, blind18-comment-group-stored-before-403,
round41-answer-anonymous-with-wrap) was caught by the self-test (the rule's tests alone), missed by a whole run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _pytest.outcomes import Skipped

from qaconform.pytest import session_target
from qaconform.target.client import ApiClient
from qaconform.target.writes import (
    DEFAULT_WRITE_BUDGET,
    GENERATED_SHARES,
    REFUSALS,
    SUITES,
    WriteBudget,
    limits,
)

ROOT = Path(__file__).resolve().parents[1]


def _spend_suites(budget: WriteBudget) -> None:
    budget.start_test(SUITES)
    for _ in range(limits(DEFAULT_WRITE_BUDGET)[SUITES] or 0):
        assert budget.reserve_from() == SUITES
        budget.kept(SUITES)


def test_a_target_accepting_every_refusal_stays_within_the_runs_cap(tmp_path: Path) -> None:
    """Every share spent in full, then 200 refusals sent to a target that accepts each: at most the budget."""
    budget = WriteBudget(DEFAULT_WRITE_BUDGET, tmp_path / "w.json")
    for pool in GENERATED_SHARES:
        budget.start_test(pool)
        while budget.reserve_from() == pool:
            budget.kept(pool)
    _spend_suites(budget)
    budget.start_test(SUITES, refusals=True)
    sent = 0
    for _ in range(200):
        pool = budget.reserve_from()
        if pool is None:
            continue
        assert pool == REFUSALS
        sent += 1
        budget.kept(REFUSALS)  # the faulty target accepts it
    assert sent == limits(DEFAULT_WRITE_BUDGET)[REFUSALS] == 1
    assert sum(budget.all_spent().values()) <= DEFAULT_WRITE_BUDGET


def test_a_shared_write_asked_by_a_refusals_test_is_content_never_a_probe(tmp_path: Path) -> None:
    """A denied cell that is first to need the node it acts on (a shared answer, accepted by any target) must not put
    that write into the refusals' share: once the suites' share is spent it is held back (the test skips)."""
    budget = WriteBudget(DEFAULT_WRITE_BUDGET, tmp_path / "w.json")
    _spend_suites(budget)
    budget.start_test(SUITES, refusals=True)
    with budget.charged_to(SUITES):
        assert budget.reserve_from() is None, "a shared write went out as a probe"
        assert not budget.refusals
    assert budget.refusals, "the test's own refusals are probes again after the shared write"
    assert budget.reserve_from() == REFUSALS
    budget.give_back(REFUSALS)
    assert budget.all_spent().get(REFUSALS, 0) == 0


def test_an_own_cells_refused_half_is_a_probe_and_its_shared_content_is_not(tmp_path: Path) -> None:
    """trades20 (issue 44): an own-node cell (not marked refused_writes: its allowed half is content) sends its call on
    another's node as a refusal once the suites' share is spent; a shared answer made inside stays the suites'."""
    budget = WriteBudget(DEFAULT_WRITE_BUDGET, tmp_path / "w.json")
    _spend_suites(budget)
    budget.start_test(SUITES)
    assert budget.reserve_from() is None, "an own cell's allowed write went out as a probe"
    with budget.as_refusals():
        with budget.charged_to(SUITES):
            assert budget.reserve_from() is None, "a shared answer made for the refused half went out as a probe"
        assert budget.reserve_from() == REFUSALS
        budget.give_back(REFUSALS)
    assert not budget.refusals and budget.reserve_from() is None, "the block's refusals outlived it"
    assert budget.all_spent().get(REFUSALS, 0) == 0


def _skip_reason(call: Any) -> str:
    with pytest.raises(Skipped) as caught:
        call()
    return str(caught.value.msg)


@pytest.mark.parametrize(("budget", "full"), [(100, True), (20, False)])
def test_a_refusal_not_sent_says_the_refusals_share_is_full_of_accepted_refusals(
        budget: int, full: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    wb = WriteBudget(budget)
    wb.start_test(SUITES, refusals=True)
    monkeypatch.setattr(ApiClient, "write_budget", wb)
    why = _skip_reason(lambda: session_target._budget_spent(SUITES, "PUT", "http://h/services/v2/node/5/lock.json"))
    assert f"the refusals' share ({limits(budget)[REFUSALS]} of a budget of {budget} accepted writes)" in why, why
    assert ("the target accepted although the description says it refuses them" in why) == full, why
    assert ("holds no write" in why) == (not full), why
    wb.start_test(SUITES)
    why = _skip_reason(lambda: session_target._budget_spent(SUITES, "PUT", "http://h/services/v2/node/5/lock.json"))
    assert "refusals" not in why, "a test whose writes may be accepted says only that the suites' share is spent"


def test_the_permission_tables_denied_write_cells_and_only_they_send_refusals(monkeypatch: pytest.MonkeyPatch) -> None:
    """An allowed or own cell's write is accepted by a conforming target: marked refused_writes it would spend the
    refusals' share on a correct server. A denied write cell not marked would be held back once the suites' share is
    spent (issue 44: 26 cells at seed 20260801)."""
    monkeypatch.syspath_prepend(str(ROOT / "suites" / "scenarios"))
    import test_permissions as tp  # noqa: PLC0415 - a suites module, importable only with its folder on the path
    from permission_matrix import DENY, cells  # noqa: PLC0415

    marked, denied_writes = set(), set()
    for cell in cells():
        param = tp._param(cell)
        if any(m.name == "refused_writes" for m in param.marks):
            marked.add(cell.id)
        if cell.value == DENY and cell.row.writes:
            denied_writes.add(cell.id)
    assert marked == denied_writes and len(marked) >= 30, sorted(marked ^ denied_writes)


@pytest.mark.slow  # a whole qaconform run in a subprocess (about 2 min)
def test_a_whole_run_against_a_target_letting_wrong_passwords_in_stays_within_the_cap_and_says_why(
        tmp_path: Path) -> None:
    """wrong-password-accepted lets every wrong_password write cell in: those refusals are accepted, fill the
    refusals' share, fail their rules, and the later ones skip naming the full share; the run stays <= 100."""
    done = subprocess.run(
        [sys.executable, "-m", "qaconform.commands.cli", "run", "--seed", "20260801", "--jobs", "1",
         "--report-dir", str(tmp_path / "run"), "--reference-fault", "wrong-password-accepted"],
        cwd=ROOT, capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and "exit code 1:" in done.stdout, done.stdout[-3000:] + done.stderr[-3000:]
    writes = json.loads((tmp_path / "run" / "report.json").read_text())["writes"]
    assert 0 < writes["accepted"] <= DEFAULT_WRITE_BUDGET, writes
    assert writes["by_pool"][REFUSALS]["accepted"] == limits(DEFAULT_WRITE_BUDGET)[REFUSALS], writes["by_pool"]
    results = json.loads((tmp_path / "run" / "results.json").read_text())
    failed = {r for t in results["tests"] if t["outcome"] == "failed" for r in t.get("rules") or []}
    assert "AUTH-BAD-CREDENTIALS" in failed
    said = [t for t in results["tests"] if "refusals' share" in str(t.get("message") or "")]
    assert said, "measured with a share of 2: 25 refused_writes tests skip naming it (seed 20260801)"
    assert all("accepted although the description says it refuses them" in str(t["message"]) for t in said)
