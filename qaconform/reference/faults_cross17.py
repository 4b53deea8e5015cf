"""cross17 (issue 44 item 7): a fault the whole run caught and the self-test missed, because the one test that meets
it named a rule it was not marked with (where it bites: :mod:`cross17_paths`, one ``request_hooks.Hook``). Missed by
main's self-test at cross17's branch point 50d5ba3 (``qaconform selftest --fault NAME --no-clean --jobs 1``: the
rule's marked tests never meet it) and caught after tests/test_blame_in_marks.py's fixes (ARCHITECTURE.md, cross17):

- a refusal answered with a 5xx on a node written before the run: the found-relations walk
  (suites/contract/test_found_relations.py) is the only refusal of a lock on such an answer, and it names
  PERM-DENIED-STATUS for a 5xx while it was marked with the cell's permission rule alone.
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_F = Fault

_ALL: tuple[Fault, ...] = (
    _F("cross17-refused-lock-of-older-answer-500", "PERM-DENIED-STATUS",
       "'Every operation requires the permissions below' (a denial is a 4xx): a lock the permission table refuses, "
       "of an answer written before the run (30 days or more ago), is answered 500 instead of its 401/403; the "
       "refusal of the run's own answers, and of older questions and comments, stays right"),
)

_MISSED_REASONS: dict[str, str] = {}
"""Missed after cross17's change, with why it stays out (none)."""

# CROSS17: missed by main's self-test and caught after cross17's change: registered in faults.py.
CROSS17, CROSS17_MISSED = split_missed(_ALL, _MISSED_REASONS)
