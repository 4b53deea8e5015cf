"""seeds23 (issue 44): a blind miss on a path only some seed draws reach, registered with the draw it needs.

round66-cancelwiki-answer-stays-wiki (blind round 66, left out: ``faults_blind_round66._MISSED_REASONS``) bites on an
unwikified ANSWER only; the wiki node kind (``qaconform/pytest/seed_draws.py`` ``WIKI_NODE_KINDS``) is a question at
the self-test's seed 20260801, an answer at 20260816, where test_node_actions.py's read-back catches it (measured by
round66). Registered here with its draw (``Fault.draws``), the self-test runs it at the first seed drawing an answer;
a build without ``--seed`` takes an answer on turns 1, 4, 7 and 10 of the seed draws' rotation
(``qaconform/commands/run_draws.py``: one build in any three consecutive ones). The round's module keeps its text as
written (docs/blind-rounds.md counts it missed on first measure).
"""

from __future__ import annotations

import dataclasses

from .fault_model import Fault
from .faults_blind_round66 import BLIND_round66_MISSED

DRAWN: dict[str, tuple[str, ...]] = {
    "round66-cancelwiki-answer-stays-wiki": ("wiki node kind=an answer",),
}
"""The left-out faults registered here, each with the draws it needs."""

SEED23: tuple[Fault, ...] = tuple(dataclasses.replace(f, draws=DRAWN[f.name])
                                  for f in BLIND_round66_MISSED if f.name in DRAWN)
"""The faults of :data:`DRAWN`, as round66 wrote them, with their draws."""
