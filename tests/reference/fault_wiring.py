"""Which planted faults the reference server's code switches on: a fault's name used outside the modules that define
faults (``faults*.py``, ``fault_model.py``), read from the source with ``ast``.

Why not a text search of every module but the registry's four (the heuristic until seed15): a blind round's faults are
defined in their own ``faults_blind_roundN.py``, so a fault defined there and hooked nowhere still had its name in the
searched text and passed as wired. A use counts only outside the definition modules, in one of the forms the server
writes: the name as a string literal (``faults.is_on("name")``); a constant of a definition module holding the name,
imported and used by its identifier (``faults_fix22.BULK_MANY_OPERATIONS_CSV``); a helper that prefixes a literal
suffix, ``is_on(f"round19-{name}")`` called as ``_on("lock-own-follower")`` in the same module; or a table of a
definition module keyed by the names (``faults_combos.COMBINATIONS``), imported by a module that calls ``is_on`` with
a name it does not spell out (it iterates the table).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

DEFINITIONS = re.compile(r"faults.*\.py|fault_model\.py")
"""The modules that define faults (their names there are no use)."""


def _assigned(tree: ast.Module) -> dict[str, ast.expr]:
    """Module-level ``NAME = value`` and ``NAME: type = value`` of a module."""
    found: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.value is not None:
            found.update({t.id: node.value for t in node.targets if isinstance(t, ast.Name)})
        elif isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.target, ast.Name):
            found[node.target.id] = node.value
    return found


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _is_on_call(node: ast.AST) -> bool:
    func = node.func if isinstance(node, ast.Call) else None
    return (isinstance(func, ast.Attribute) and func.attr == "is_on") or (isinstance(func, ast.Name)
                                                                         and func.id == "is_on")


def used_names(modules: Mapping[str, str]) -> set[str]:
    """Every fault name (and other strings: the caller intersects with the registry) that a module other than the
    definition modules uses in one of the forms the module docstring lists. ``modules``: file name -> source."""
    exported: dict[tuple[str, str], set[str]] = {}
    for name, source in modules.items():
        if DEFINITIONS.fullmatch(name):
            for ident, value in _assigned(ast.parse(source)).items():
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    exported[(name[:-3], ident)] = {value.value}
                elif isinstance(value, ast.Dict):
                    exported[(name[:-3], ident)] = {k.value for k in value.keys
                                                    if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    used: set[str] = set()
    for name, source in modules.items():
        if DEFINITIONS.fullmatch(name):
            continue
        tree = ast.parse(source)
        literals = _strings(tree)
        used |= literals
        imported = {alias.asname or alias.name: (node.module.rsplit(".", 1)[-1], alias.name)
                    for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
                    for alias in node.names}
        calls = [n for n in ast.walk(tree) if _is_on_call(n)]
        names_given = any(not isinstance(c.args[0], ast.Constant | ast.JoinedStr) for c in calls if c.args)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in imported:
                values = exported.get(imported[node.id], set())
                if len(values) == 1 or names_given:  # a constant, or a table read by is_on(name)
                    used |= values
        for call in calls:
            arg = call.args[0] if call.args else None
            if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
                used |= {f"{arg.values[0].value}{suffix}" for suffix in literals}
    return used
