"""Which rules each suite test can blame, read from the source (cross17, issue 44 item 7).

A test whose failure names a rule it is not marked with is charged that rule (``qaconform.pytest.results._blame``:
blocked by it), but the self-test selects a fault's tests by their rule marks (``qaconform.pytest.fault_batch``), so
it never runs that test for that rule's faults: a catch the full run has, the self-test misses (round 43's
question-comment send). This module follows, without running anything, the rule ids that reach a blame:

- a *blame site*: ``fail(RULES, ...)``, ``expect(cond, RULES, ...)``, ``RuleFailure(RULES, ...)``;
- a *step*: ``expect_created(resp, RULE, ...)``, which charges the content a test needed, by design, to the rule
  that content's write holds (the test is reported blocked by it, as by a fixture): kept apart;
- what ``RULES`` can be: a literal id, a tuple or list of them, a module constant (every id in it), a local name
  (every value assigned, appended or extended to it, a loop's iterable), the function's own parameter (then each
  caller's argument in its place), a call of a suite function (the ids its returns can hold).

Calls are followed through suite and kit-plugin modules (``suites/**``, ``qaconform/pytest/**``) by name: a module's
own functions and methods (``self.x``), ``from m import f``, ``m.f`` after ``import m``. A value read from data at run
time (``case.rule``) is invisible here: a row's own rule is its mark (``covering.parametrize_by_rule``). Fixtures
are not followed: a fixture that meets a rule broken blocks the test by design.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

BLAME_CALLS = {"fail": 0, "RuleFailure": 0, "expect": 1}
"""Callable name -> the position of the rules argument."""
STEP_CALLS = {"expect_created": 1}
"""Calls that charge the content a test needed to the rule its write holds (blocked, by design)."""
_FUNC = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass
class Module:
    key: str
    funcs: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    classes: dict[str, str] = field(default_factory=dict)  # qualname -> class name
    consts: dict[str, ast.expr] = field(default_factory=dict)
    imports: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # alias -> (module stem, name|None)


@dataclass
class Blame:
    """What a function can blame: rule -> how (a call trail), and which of its parameters reach a blame."""

    rules: dict[str, str] = field(default_factory=dict)
    steps: dict[str, str] = field(default_factory=dict)
    params: dict[str, str] = field(default_factory=dict)  # parameter name -> "blame" or "step"


class Scanner:
    """The modules of ``files``, keyed by their path relative to ``root``, and the rule ids of ``known``."""

    def __init__(self, root: Path, files: Iterable[Path], known: Iterable[str]) -> None:
        self.known = set(known)
        self.mods: dict[str, Module] = {}
        self.by_stem: dict[str, list[str]] = {}
        for path in files:
            key = str(path.relative_to(root))
            self.add(key, path.read_text(encoding="utf-8"))
        self._memo: dict[tuple[str, str], Blame] = {}

    def add(self, key: str, source: str) -> None:
        mod = Module(key)
        for node in ast.parse(source, key).body:
            if isinstance(node, _FUNC):
                mod.funcs[node.name] = node
            elif isinstance(node, ast.ClassDef):
                for sub in node.body:
                    if isinstance(sub, _FUNC):
                        mod.funcs[f"{node.name}.{sub.name}"] = sub
                        mod.classes[f"{node.name}.{sub.name}"] = node.name
            elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(t, ast.Name):
                        mod.consts[t.id] = node.value
            elif isinstance(node, ast.ImportFrom):
                stem = (node.module or "").split(".")[-1]
                for a in node.names:
                    mod.imports[a.asname or a.name] = (stem, a.name) if stem else (a.name, None)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    mod.imports[a.asname or a.name.split(".")[0]] = (a.name.split(".")[-1], None)
        self.mods[key] = mod
        self.by_stem.setdefault(Path(key).stem, []).append(key)

    # --- names
    def lookup(self, key: str, name: str, depth: int = 0) -> tuple[str, str, str] | None:
        """("f"|"c"|"m", module key, name) of ``name`` as module ``key`` sees it."""
        mod = self.mods[key]
        if name in mod.funcs:
            return ("f", key, name)
        if name in mod.consts:
            return ("c", key, name)
        if name in mod.imports and depth < 6:
            stem, orig = mod.imports[name]
            if orig is None:
                return ("m", stem, stem) if stem in self.by_stem else None
            for other in self.by_stem.get(stem, []):
                found = self.lookup(other, orig, depth + 1)
                if found:
                    return found
            if orig in self.by_stem:  # from . import module
                return ("m", orig, orig)
        return None

    def callee(self, key: str, qual: str, func: ast.expr) -> tuple[str, str] | None:
        """The suite function a call's ``func`` names, as (module key, qualname)."""
        if isinstance(func, ast.Name):
            found = self.lookup(key, func.id)
            return (found[1], found[2]) if found and found[0] == "f" else None
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            owner = func.value.id
            cls = self.mods[key].classes.get(qual)
            if owner in ("self", "cls") and cls and f"{cls}.{func.attr}" in self.mods[key].funcs:
                return (key, f"{cls}.{func.attr}")
            found = self.lookup(key, owner)
            if found and found[0] == "m":
                for other in self.by_stem.get(found[1], []):
                    if func.attr in self.mods[other].funcs:
                        return (other, func.attr)
        return None

    # --- values
    def ids_in(self, key: str, qual: str, expr: ast.AST, seen: frozenset[str] = frozenset()
               ) -> tuple[dict[str, str], set[str]]:
        """The rule ids ``expr`` can hold in function ``qual`` (id -> trail), and the parameters it passes on."""
        fn = self.mods[key].funcs[qual]
        params = _params(fn)
        ids: dict[str, str] = {}
        passed: set[str] = set()
        for node in _walk_values(expr):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in self.known:
                ids.setdefault(node.value, qual)
            elif isinstance(node, ast.Name) and node.id not in seen:
                if node.id in params:
                    passed.add(node.id)
                local = list(_assigned(fn, node.id))
                for value in local:
                    more, more_passed = self.ids_in(key, qual, value, seen | {node.id})
                    for rid, how in more.items():
                        ids.setdefault(rid, how)
                    passed |= more_passed
                if not local and node.id not in params:
                    found = self.lookup(key, node.id)
                    if found and found[0] == "c":
                        for rid in self.literals(self.mods[found[1]].consts[found[2]]):
                            ids.setdefault(rid, f"{qual} -> {found[2]}")
            elif isinstance(node, ast.Call):
                target = self.callee(key, qual, node.func)
                if target:
                    for rid, how in self.returns(*target).items():
                        ids.setdefault(rid, f"{qual} -> {how}")
                for arg in [*node.args, *(kw.value for kw in node.keywords)]:  # created_rule(resp, "R", ...)
                    more, more_passed = self.ids_in(key, qual, arg, seen)
                    for rid in more:
                        ids.setdefault(rid, f"{qual} -> {_name(node.func)}()")
                    passed |= more_passed
        return ids, passed

    def literals(self, expr: ast.AST) -> set[str]:
        return {n.value for n in ast.walk(expr)
                if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in self.known}

    def returns(self, key: str, qual: str) -> dict[str, str]:
        """The rule ids a function's return values can hold (its own literals only)."""
        fn = self.mods[key].funcs[qual]
        out: dict[str, str] = {}
        for node in ast.walk(fn):
            if isinstance(node, ast.Return) and node.value is not None:
                # a table's entry (RULE_OF[op]) is the data's: not followed
                for n in _walk_values(node.value, into_calls=True):
                    if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in self.known:
                        out.setdefault(n.value, qual)
        return out

    # --- blame
    def blame(self, key: str, qual: str, stack: tuple[tuple[str, str], ...] = ()) -> Blame:
        """What function ``qual`` of module ``key`` can blame, its callees' blames included."""
        me = (key, qual)
        if me in self._memo:
            return self._memo[me]
        out = Blame()
        if me in stack or len(stack) > 12:
            return out
        fn = self.mods[key].funcs[qual]
        for call in _calls(fn):
            name = _name(call.func)
            for kind, table in (("blame", BLAME_CALLS), ("step", STEP_CALLS)):
                if name in table:
                    arg = _argument(call, table[name], "rules" if kind == "blame" else "rule")
                    if arg is not None:
                        self._charge(out, kind, *self.ids_in(key, qual, arg))
            target = self.callee(key, qual, call.func)
            if target is None or _name(call.func) in BLAME_CALLS or _name(call.func) in STEP_CALLS:
                continue
            inner = self.blame(*target, stack + (me,))
            for rid, how in inner.rules.items():
                out.rules.setdefault(rid, f"{qual} -> {how}")
            for rid, how in inner.steps.items():
                out.steps.setdefault(rid, f"{qual} -> {how}")
            callee_fn = self.mods[target[0]].funcs[target[1]]
            for pname, kind in inner.params.items():
                arg = _bind(call, callee_fn, pname, bool(self.mods[target[0]].classes.get(target[1])))
                if arg is not None:
                    ids, passed = self.ids_in(key, qual, arg)
                    self._charge(out, kind, {r: f"{qual} -> {target[1]}({pname})" for r in ids}, passed)
        if len(stack) == 0 or me not in stack:
            self._memo[me] = out
        return out

    @staticmethod
    def _charge(out: Blame, kind: str, ids: dict[str, str], passed: set[str]) -> None:
        bucket = out.rules if kind == "blame" else out.steps
        for rid, how in ids.items():
            bucket.setdefault(rid, how)
        for p in passed:
            if out.params.get(p) != "blame":
                out.params[p] = kind


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _params(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    a = fn.args
    return [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    return call.args[position] if len(call.args) > position else None


def _bind(call: ast.Call, fn: ast.FunctionDef | ast.AsyncFunctionDef, pname: str, method: bool) -> ast.expr | None:
    """The argument ``call`` gives parameter ``pname`` of ``fn`` (None: its default)."""
    for kw in call.keywords:
        if kw.arg == pname:
            return kw.value
    positional = [p.arg for p in (*fn.args.posonlyargs, *fn.args.args)]
    if method and positional and positional[0] in ("self", "cls"):
        positional = positional[1:]
    if pname in positional and positional.index(pname) < len(call.args):
        arg = call.args[positional.index(pname)]
        return None if isinstance(arg, ast.Starred) else arg
    return None


def _calls(fn: ast.AST) -> Iterator[ast.Call]:
    """The calls in a function's body, nested functions' and lambdas' included (they run as its steps)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            yield node


def _walk_values(expr: ast.AST, into_calls: bool = False) -> Iterator[ast.AST]:
    """The nodes of a value expression, not descending into a call (ids_in follows its arguments) nor a lambda."""
    stack = [expr]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Call):  # its arguments: ids_in follows them, naming the call
            if into_calls:
                stack.extend([*node.args, *(kw.value for kw in node.keywords)])
            continue
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id.isupper():
            stack.append(node.slice)  # a table's entry picked at run time (RULE_OF[op]): which one is the data's
            continue
        stack.extend(ast.iter_child_nodes(node))


def _assigned(fn: ast.AST, name: str) -> Iterator[ast.expr]:
    """The values function ``fn`` gives local ``name``: assigned, augmented, looped over, appended or extended."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(t)):
                    yield node.value
        elif isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
            if node.target.id == name and node.value is not None:
                yield node.value
        elif isinstance(node, ast.For | ast.comprehension):
            if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.target)):
                yield node.iter
        elif isinstance(node, ast.NamedExpr) and node.target.id == name:
            yield node.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and isinstance(node.func.value, ast.Name) and node.func.value.id == name
              and node.func.attr in ("append", "extend", "add", "update", "insert")):
            yield from node.args
