"""The rules: every normative statement of spec/rules.yaml, by id.

A rule is what a test names (``@pytest.mark.rule("COMMENT-4")``), what a failure is charged to and what the report
lists; the contract loads them and the report describes them with the same :class:`Rule`, so the two cannot drift.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qaconform.contract.files import ContractError, load_yaml


@dataclass(frozen=True)
class Rule:
    """One normative statement of spec/rules.yaml: what the contract loads and what the report lists (one type, so
    the two cannot drift; the defaults let the report describe an id that rules.yaml lacks)."""

    id: str
    level: str = "must"
    area: str = ""
    operations: tuple[str, ...] = ()
    since: str | None = None
    summary: str = ""
    source: str = ""
    quote: str = ""
    """The sentence of interface-v2.md the rule checks, when rules.yaml quotes one (an observation's words, qa18)."""

    @classmethod
    def of(cls, rule: Any) -> Rule:
        """A Rule from another Rule, a rules.yaml mapping or a report.json rule entry (missing fields: defaults)."""
        if isinstance(rule, Rule):
            return rule
        get = rule.get if isinstance(rule, Mapping) else (lambda k, d=None: getattr(rule, k, d))
        return cls(
            id=str(get("id")),
            level=str(get("level", "must") or "must"),
            area=str(get("area", "") or ""),
            operations=tuple(get("operations", ()) or ()),
            since=get("since"),
            summary=str(get("summary", "") or ""),
            source=str(get("source", "") or ""),
            quote=str(get("quote", "") or ""),
        )


def load_rules(rules_path: Path) -> dict[str, Rule]:
    """spec/rules.yaml's rules by id, each checked for the fields every rule has (a missing file: no rule yet)."""
    data = load_yaml(rules_path, required=False)
    raw_rules = data.get("rules") or []
    if not isinstance(raw_rules, list):
        raise ContractError(f"{rules_path}: 'rules' must be a list of rule mappings")
    rules: dict[str, Rule] = {}
    for index, raw in enumerate(raw_rules):
        where = f"{rules_path}: rules[{index}]"
        if not isinstance(raw, dict):
            raise ContractError(f"{where} must be a mapping with id, level, area, operations, summary, source")
        missing = [k for k in ("id", "level", "area", "operations", "summary") if not raw.get(k)]
        if missing:
            raise ContractError(f"{where} ({raw.get('id', 'no id')}) is missing {', '.join(missing)}")
        rule_id = str(raw["id"])
        if rule_id in rules:
            raise ContractError(f"{where}: id {rule_id} is used twice; rule ids must be unique")
        ops = raw["operations"]
        ops_t = (ops,) if isinstance(ops, str) else tuple(str(o) for o in ops)
        since = raw.get("since")
        rules[rule_id] = Rule(
            id=rule_id,
            level=str(raw["level"]),
            area=str(raw["area"]),
            operations=ops_t,
            since=None if since is None else str(since),
            summary=str(raw["summary"]),
            source=str(raw.get("source", "")),
            quote=str(raw.get("quote") or ""),
        )
    return rules
