"""The dimensions: spec/dimensions.yaml, the circumstances each rule must hold across (issue 33).

A rule that holds "for a caller" or "for a request" holds in every combination of the circumstances the description
names; the suites cross them pairwise (suites/contract/test_matrix.py and its siblings). The circumstances are data
beside the rules, read here once and checked against the operations and rules the contract knows, so a misspelt
list, rule or dimension is a clear message, not a skipped combination.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qaconform.contract.files import ContractError

NONE = "none"
"""The value of a parameter dimension that leaves the parameter out."""
READER = "reader"
"""The dimension every list takes: the account that reads it."""


@dataclass(frozen=True)
class RuleDimensions:
    """What one rule declares: the dimensions it must hold across, and the lists (or the node actions) it is crossed
    over."""

    rule: str
    across: tuple[str, ...]
    lists: tuple[str, ...]
    actions: tuple[str, ...] = ()
    validations: tuple[str, ...] = ()  # the write operations whose refusal the rule states, crossed with input forms


@dataclass(frozen=True)
class Dimensions:
    """Dimension name -> values; list operation -> the optional-parameter dimensions the description states for
    it; rule id -> what it declares."""

    values: Mapping[str, tuple[str, ...]]
    lists: Mapping[str, tuple[str, ...]]
    rules: Mapping[str, RuleDimensions]
    actions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """node action operation -> the dimensions a combination of it draws (caller, node kind, node state)."""
    validations: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # write op -> its refusals' dimensions

    def of_list(self, op: str) -> tuple[str, ...]:
        """The dimensions a combination of list ``op`` draws: the reader, then its stated parameters."""
        return (READER, *self.lists[op])

    def rules_of(self, op: str) -> tuple[RuleDimensions, ...]:
        """The rules crossed over list ``op``."""
        return tuple(r for r in self.rules.values() if op in r.lists)


def _names(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise ContractError(f"{where} must be a non-empty list of names")
    return tuple(value)


def parse_dimensions(data: Mapping[str, Any], path: Path, operations: Collection[str],
                     rules: Collection[str]) -> Dimensions:
    """``data`` (the YAML of ``path``) as Dimensions, every name checked against ``operations`` and ``rules``."""
    raw_values, raw_lists, raw_rules = (data.get(k) for k in ("dimensions", "lists", "rules"))
    for key, raw in (("dimensions", raw_values), ("lists", raw_lists), ("rules", raw_rules)):
        if not isinstance(raw, dict) or not raw:
            raise ContractError(f"{path}: '{key}' must be a mapping")
    assert isinstance(raw_values, dict) and isinstance(raw_lists, dict) and isinstance(raw_rules, dict)
    values = {str(k): _names(v, f"{path}: dimensions.{k}") for k, v in raw_values.items()}
    if READER not in values:
        raise ContractError(f"{path}: dimensions must name '{READER}' (the accounts that read a list)")
    lists: dict[str, tuple[str, ...]] = {}
    for op, dims in raw_lists.items():
        if op not in operations:
            raise ContractError(f"{path}: lists.{op} is not an operationId of spec/openapi.yaml")
        lists[op] = _names(dims, f"{path}: lists.{op}") if dims else ()
        unknown = [d for d in lists[op] if d not in values or d == READER]
        if unknown:
            raise ContractError(f"{path}: lists.{op} names {unknown[0]!r}, not a parameter dimension")
    actions = _actions(data.get("actions") or {}, path, operations, values)
    validations = _actions(data.get("validations") or {}, path, operations, values, "validations")
    declared: dict[str, RuleDimensions] = {}
    for rule, raw in raw_rules.items():
        where = f"{path}: rules.{rule}"
        if rule not in rules:
            raise ContractError(f"{where} is not a rule of spec/rules.yaml")
        if not isinstance(raw, dict) or not (raw.get("lists") or raw.get("actions") or raw.get("validations")):
            raise ContractError(f"{where} must be a mapping with 'across' and 'lists' (or 'actions', 'validations')")
        across = _names(raw.get("across"), f"{where}.across")
        on = _names(raw["lists"], f"{where}.lists") if raw.get("lists") else ()
        acts = _names(raw["actions"], f"{where}.actions") if raw.get("actions") else ()
        writes = _names(raw["validations"], f"{where}.validations") if raw.get("validations") else ()
        bad = [d for d in across if d not in values] + [o for o in on if o not in lists] + \
            [a for a in acts if a not in actions] + [w for w in writes if w not in validations]
        if bad:
            raise ContractError(f"{where} names {bad[0]!r}, which dimensions.yaml does not define")
        declared[rule] = RuleDimensions(rule, across, on, acts, writes)
    return Dimensions(values, lists, declared, actions, validations)


def _actions(raw: Any, path: Path, operations: Collection[str],
             values: Mapping[str, tuple[str, ...]], key: str = "actions") -> dict[str, tuple[str, ...]]:
    """``actions`` (node action) or ``validations`` (write operation) -> the dimensions it draws, checked by name."""
    if not isinstance(raw, dict):
        raise ContractError(f"{path}: '{key}' must be a mapping")
    out: dict[str, tuple[str, ...]] = {}
    for op, dims in raw.items():
        if op not in operations:
            raise ContractError(f"{path}: {key}.{op} is not an operationId of spec/openapi.yaml")
        out[op] = _names(dims, f"{path}: {key}.{op}")
        unknown = [d for d in out[op] if d not in values]
        if unknown:
            raise ContractError(f"{path}: {key}.{op} names {unknown[0]!r}, not a dimension")
    return out
