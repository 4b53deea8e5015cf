"""The coverage gate: every `must` rule of spec/rules.yaml is named by at least one suite test.

Architecture rule 4 makes coverage a query over markers, not a list kept by hand. This test answers it statically
(no target, no collection): it parses suites/**/*.py and reads the rule ids written as string literals in
  - ``pytest.mark.rule("ID", ...)`` and ``rule("ID", ...)`` calls (also inside ``pytest.param(marks=...)``), and
  - ``rules=`` / ``rule=`` keyword arguments of any call (a declarative matrix: ``Cell(..., rules=("PERM-LOCK",))``).
Ids computed at run time are invisible here on purpose: a reader of the file should see which rule a test checks.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from qaconform.contract import load_contract

ROOT = Path(__file__).resolve().parents[1]
SUITES = ROOT / "suites"
_RULE_KEYWORDS = ("rules", "rule")


def _strings(node: ast.AST) -> Iterator[str]:
    """String literals of an argument: a literal, or literals inside a tuple/list/set (starred included)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for elt in node.elts:
            yield from _strings(elt)
    elif isinstance(node, ast.Starred):
        yield from _strings(node.value)


def _is_rule_mark(func: ast.expr) -> bool:
    """``pytest.mark.rule``, ``mark.rule`` or a bare ``rule`` (an alias of the marker)."""
    if isinstance(func, ast.Name):
        return func.id == "rule"
    if isinstance(func, ast.Attribute) and func.attr == "rule":
        owner = func.value
        return (isinstance(owner, ast.Attribute) and owner.attr == "mark") or (
            isinstance(owner, ast.Name) and owner.id == "mark"
        )
    return False


def rule_ids_in_source(source: str, filename: str = "<source>") -> dict[str, list[int]]:
    """Rule id -> line numbers where the source names it as a marker argument or a rules=/rule= keyword."""
    found: dict[str, list[int]] = {}
    for node in ast.walk(ast.parse(source, filename=filename)):
        if not isinstance(node, ast.Call):
            continue
        values: list[ast.AST] = []
        if _is_rule_mark(node.func):
            values.extend(node.args)
        values.extend(kw.value for kw in node.keywords if kw.arg in _RULE_KEYWORDS)
        for value in values:
            for text in _strings(value):
                found.setdefault(text, []).append(node.lineno)
    return found


def named_rules(root: Path = SUITES) -> dict[str, list[str]]:
    """Rule id -> ``path:line`` of every place under ``root`` that names it."""
    named: dict[str, list[str]] = {}
    for path in sorted(root.resolve().rglob("*.py")):
        rel = path.relative_to(ROOT)
        for rid, lines in rule_ids_in_source(path.read_text(encoding="utf-8"), str(path)).items():
            named.setdefault(rid, []).extend(f"{rel}:{line}" for line in lines)
    return named


def test_the_scanner_reads_marks_params_and_rules_keywords() -> None:
    source = '''
import pytest
from pytest import mark
rule = pytest.mark.rule

@pytest.mark.rule("A-1", "A-2")
def test_a(): ...

@mark.rule("B-1")
def test_b(): ...

@pytest.mark.parametrize("x", [pytest.param(1, marks=pytest.mark.rule("C-1")),
                               pytest.param(2, marks=[rule("C-2"), pytest.mark.writes])])
def test_c(x): ...

CELLS = [Cell("lockNode", "novice", "deny", rules=("D-1", "D-2")), Cell("x", rule="D-3")]

def test_not_a_rule():
    assert "NOT-A-RULE" != other.rule  # an attribute read is not a mark
'''
    found = rule_ids_in_source(source)
    assert set(found) == {"A-1", "A-2", "B-1", "C-1", "C-2", "D-1", "D-2", "D-3"}, found


def test_every_must_rule_is_named_by_a_suite_test() -> None:
    contract = load_contract()
    named = named_rules()
    missing = sorted(r.id for r in contract.rules.values() if r.level == "must" and r.id not in named)
    if missing:
        by_area: dict[str, list[str]] = {}
        for rid in missing:
            by_area.setdefault(contract.rules[rid].area, []).append(rid)
        lines = [f"  {area}: {', '.join(ids)}" for area, ids in sorted(by_area.items())]
        pytest.fail(
            f"{len(missing)} must rule(s) of spec/rules.yaml have no suite test; add a test marked "
            f"@pytest.mark.rule(\"ID\") under suites/ for each:\n" + "\n".join(lines)
        )


def test_every_rule_id_a_suite_names_exists_in_rules_yaml() -> None:
    known = set(load_contract().rules)
    unknown = {rid: where for rid, where in named_rules().items() if rid not in known}
    assert not unknown, (
        "suite files name rule ids that spec/rules.yaml lacks; fix the id or add the rule to spec/rules.yaml:\n"
        + "\n".join(f"  {rid}: {', '.join(where[:3])}" for rid, where in sorted(unknown.items()))
    )
