"""The action matrix's option cases (blindp, issue 44): each combination that changes nothing sent again with one of
the operation's stated options (wrap, v1). Apart from action_cases.py, which draws the combinations, so that each
module stays under 600 lines (tests/package/test_module_size.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from action_cases import KIND, STATE, ActionMatrix, Case


@dataclass(frozen=True)
class OptionCase:
    """A combination that changes nothing (a refusal, or an allowed call the node's state refuses) sent again with one
    of the operation's stated options (wrap, v1): the permission table does not depend on them (blindp, issue 44)."""

    case: Case
    option: str

    @property
    def label(self) -> str:
        return f"{self.case.label}-{self.option}"


def _facets(case: Case) -> set[tuple[str, ...]]:
    """What an option is crossed with: the caller in its relation to the node (the permission table's input, a pair:
    a moderator on another's node is not a moderator on its own), the node's kind, the node's state."""
    return {("caller", case.role, case.relation), (KIND, case.kind), (STATE, case.state)}


def option_cases(matrix: ActionMatrix, options: Sequence[str], every: bool = False) -> list[OptionCase]:
    """Each option crossed with the matrix's combinations that change nothing: every caller in every relation, every
    kind and every state tried with each option at least once (:func:`_facets`), the first combination in the seeded
    order that adds the most untried ones taken each time (about a dozen per option, one request each); with
    ``every`` (``--thorough``) each such combination with each option."""
    # the options cross the drawn combinations (their ids as before); the added cells are each tried plainly
    free = [c for c in matrix.cases[:matrix.drawn] if not c.changes_node]
    rows: list[OptionCase] = []
    for option in options:
        if every:
            rows += [OptionCase(c, option) for c in free]
            continue
        wanted = set().union(*map(_facets, free)) if free else set()
        while wanted:
            best = max(free, key=lambda c: len(_facets(c) & wanted))
            rows.append(OptionCase(best, option))
            wanted -= _facets(best)
    return rows
