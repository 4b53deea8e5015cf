"""``serve --list-left-out``: the faults wired but out of the registry, so a blind writer can check a new path
against them as well as against ``--list-faults`` (round 88 repeated a left-out fault of round 75)."""

from __future__ import annotations

import pytest

from qaconform.reference.cli import main as cli_main
from qaconform.reference.faults import FAULTS
from qaconform.reference.faults_blind_round75 import BLIND_round75_MISSED
from qaconform.reference.faults_blind_round90 import _MISSED_REASONS as ROUND90_REASONS
from qaconform.reference.left_out import left_out


def test_left_out_holds_every_missed_fault_of_a_round_and_no_registered_one() -> None:
    rows = {row.fault.name: row for row in left_out(frozenset(FAULTS))}
    assert "round75-lock-marked-question-extra-null" in {f.name for f in BLIND_round75_MISSED}
    assert "round75-lock-marked-question-extra-null" in rows
    assert not rows.keys() & FAULTS.keys()
    for name, reason in ROUND90_REASONS.items():
        if name not in FAULTS:
            assert rows[name].reason == reason and rows[name].module == "faults_blind_round90"


def test_a_left_out_fault_a_later_closing_registered_is_not_listed() -> None:
    every_missed = {row.fault.name for row in left_out(frozenset())}
    registered_later = every_missed & FAULTS.keys()
    assert registered_later, "some round's missed fault was registered by a later closing"
    assert not registered_later & {row.fault.name for row in left_out(frozenset(FAULTS))}


def test_cli_lists_them_with_rule_and_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["--list-left-out"]) == 0
    out = capsys.readouterr().out
    assert "round75-lock-marked-question-extra-null" in out and "ACTION-LOCK-EXTRA" in out
    assert "    left out (faults_blind_round75): " in out
