"""Which response rules can judge a list's row, indexed once per set of rules (list_responses.rules_of).

Why (speed19, issue 44): every worker of a run collects the suites, and list_responses.rules_of is asked for each
of ~4,100 rows (test_list_responses, test_list_shapes, test_subtree_rows) which of ~40 rules judge it: walking every
rule for every row was ~15 % of a worker's collection. The rules a row can meet depend only on its list and on
whether its reader is refused there, so they are looked up once per (list, refused) here; the rules' order, the
``not_across`` dimensions and each check's own ``judges`` stay as they were (the same rules, in the same order).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

Candidates = tuple[tuple[str, tuple[str, ...]], ...]
"""(rule, the dimensions a row must leave at NONE for the rule to judge it), in the order of the rules given."""

_kept: dict[tuple[int, int], tuple[Any, Any, dict[tuple[str, bool], Candidates]]] = {}


def candidates(rules: Mapping[str, tuple[str, ...]], not_across: Mapping[str, Mapping[str, str]],
               refused_rules: Collection[str], always: Collection[str]) -> dict[tuple[str, bool], Candidates]:
    """(list, refused) -> the rules judged on such rows before their values and checks are asked: a rule runs on
    a refused reader's rows only if it is among ``refused_rules``, on the others only if not; ``always`` are judged
    whatever the row's value of a ``not_across`` dimension. Kept per ``rules`` and ``not_across`` object."""
    key = (id(rules), id(not_across))
    kept = _kept.get(key)
    if kept is not None and kept[0] is rules and kept[1] is not_across:
        return kept[2]
    index: dict[tuple[str, bool], list[tuple[str, tuple[str, ...]]]] = {}
    for rule, ops in rules.items():
        across = () if rule in always else tuple(not_across.get(rule, {}))
        for op in dict.fromkeys(ops):
            index.setdefault((op, rule in refused_rules), []).append((rule, across))
    frozen = {key_: tuple(rows) for key_, rows in index.items()}
    _kept[key] = (rules, not_across, frozen)
    return frozen
