"""seed15 (issue 44): the wiring test's heuristic (tests/reference/fault_wiring.py) counts a fault's name only where
it is used outside the modules that define faults, in the forms the reference server writes; a fault defined in its
round's module and hooked nowhere is unwired (the text search before seed15 read the round's own module too)."""

from __future__ import annotations

from fault_wiring import used_names

ROUND = ('from .fault_model import Fault as _F\n'
         '_ALL = (_F("round99-unhooked", "R", "d"), _F("round99-hooked", "R", "d"))\n'
         'HELD: str = "round99-by-constant"\n'
         'TABLE = {"round99-in-table": 1, "round99-in-table-too": 2}\n'
         '_MISSED_REASONS = {"round99-left-out": "why"}\n')
NAMES = {"round99-unhooked", "round99-hooked", "round99-by-constant", "round99-in-table", "round99-in-table-too",
         "round99-left-out", "round99-prefixed"}


def _used(**server: str) -> set[str]:
    return used_names({"faults_blind_round99.py": ROUND, **{f"{k}.py": v for k, v in server.items()}}) & NAMES


def test_a_fault_named_only_in_its_definition_module_is_not_wired() -> None:
    assert _used(blind_round99='from . import faults\n\ndef f():\n    return faults.is_on("round99-hooked")\n') == {
        "round99-hooked"}
    assert _used(blind_round99="x = 1\n") == set()


def test_a_constant_a_prefix_helper_and_a_table_read_by_is_on_are_uses() -> None:
    constant = ('from . import faults\nfrom .faults_blind_round99 import HELD\n\n'
                'def f():\n    return faults.is_on(HELD)\n')
    prefix = ('from . import faults\n\ndef _on(name):\n    return faults.is_on(f"round99-{name}")\n\n'
              'def f():\n    return _on("prefixed")\n')
    table = ('from . import faults\nfrom .faults_blind_round99 import TABLE\n\n'
             'def f():\n    return [n for n in TABLE if faults.is_on(n)]\n')
    assert _used(a=constant) == {"round99-by-constant"}
    assert _used(a=prefix) == {"round99-prefixed"}
    assert _used(a=table) == {"round99-in-table", "round99-in-table-too"}
    not_read = 'from . import faults\nfrom .faults_blind_round99 import TABLE\n\ndef f():\n    return len(TABLE)\n'
    assert _used(a=not_read) == set(), "a table imported but never read by is_on(name) wires nothing"
