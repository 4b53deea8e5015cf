"""The suites fail through one typed call, never through a "[RULE]" prefix of an assertion message (issue 30).

A failure names the rules it charges as fields (``qaconform.pytest.outcomes.expect`` / ``fail`` raise a
``RuleFailure``); a message prefix is text the report would have to parse back, and a typo in it charges nothing.
Read from the source with ``ast``: an ``assert`` whose message, an ``AssertionError(...)``, or a ``pytest.fail(...)``
/ ``self._fail(...)`` whose text starts with ``[RULE-ID`` or ``[{...}`` is refused, and so is a helper that builds
such a prefix (``"[" + ", ".join(rules) + "] "``). A docstring or comment that explains the format is fine.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUITES = ROOT / "suites"
_RULE_START = re.compile(r"\[(?:[A-Z][A-Z0-9]*-[A-Z0-9-]*|$)")
"""The start of a rule prefix: ``[PAGING-LISTCOUNT`` (a literal id), or ``[`` right before a formatted value."""
_FIELD = "\x00"
"""Stands for a formatted value in the leading text of an f-string."""


def _leading_text(node: ast.expr) -> str | None:
    """The text a string expression starts with, up to its first formatted value (shown as ``_FIELD``); None when
    it does not start with a literal (a name, a call)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        text = ""
        for value in node.values:
            if not isinstance(value, ast.Constant):
                return text + _FIELD
            text += str(value.value)
        return text
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _leading_text(node.left)
    return None


def _message_of(node: ast.AST) -> ast.expr | None:
    """The failure message of an assert, an ``AssertionError(...)``, a ``pytest.fail(...)`` or ``..._fail(...)``."""
    if isinstance(node, ast.Assert):
        return node.msg
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name == "AssertionError" or (isinstance(func, ast.Attribute) and name in ("fail", "_fail")):
            return node.args[0]
    return None


def _builds_a_prefix(node: ast.AST) -> bool:
    """``"[" + ", ".join(...)``: a helper assembling a rule prefix out of ids."""
    return (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and isinstance(node.left, ast.Constant) and node.left.value == "["
            and isinstance(node.right, ast.Call) and isinstance(node.right.func, ast.Attribute)
            and node.right.func.attr == "join")


def prefixed_failures(files: list[Path], root: Path = ROOT) -> Iterator[tuple[str, int, str]]:
    """Each failure message that starts with a rule prefix, and each prefix builder: ``(file, line, text)``."""
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            where = path.relative_to(root).as_posix()
            if _builds_a_prefix(node):
                yield where, getattr(node, "lineno", 0), ast.unparse(node)[:80]
                continue
            message = _message_of(node)
            text = _leading_text(message) if message is not None else None
            if text is not None and (_RULE_START.match(text) or text.startswith("[" + _FIELD)):
                yield where, getattr(node, "lineno", 0), text.replace(_FIELD, "{...}")[:80]


def test_no_suite_fails_with_a_rule_prefixed_message() -> None:
    files = sorted(SUITES.rglob("*.py"))
    assert len(files) > 20, "the suites were found"
    assert list(prefixed_failures(files)) == []


def test_the_scan_sees_each_form_of_a_prefixed_message(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        '"""[RULE-A] in a docstring is fine."""\n'
        'import pytest\n'
        'def t(resp, rule, rules):\n'
        '    assert resp, "[RULE-A] literal"\n'
        '    assert resp, f"[{rule}] formatted"\n'
        '    assert resp, (f"[RULE-B, RULE-C] {resp} implicit "\n'
        '                  f"concatenation")\n'
        '    assert resp, "[RULE-D] added " + str(resp)\n'
        '    raise AssertionError(f"[{rule}] raised")\n'
        '    pytest.fail("[RULE-E] pytest.fail")\n'
        '    tag = "[" + ", ".join(rules) + "] "\n'
        '    assert resp, f"{tag}built elsewhere is caught where it is built"\n'
        '    assert resp, "[not a rule] a bracket of words"\n'
        '    assert resp, f"list {[1, 2]}: a bracket later on"\n'
        '    text = f"[{rule}] test data, not a failure"\n',
        encoding="utf-8")
    found = [(line, text) for _, line, text in prefixed_failures([module], tmp_path)]
    assert found == [(4, "[RULE-A] literal"), (5, "[{...}"), (6, "[RULE-B, RULE-C] {...}"), (8, "[RULE-D] added "),
                     (9, "[{...}"), (10, "[RULE-E] pytest.fail"), (11, "'[' + ', '.join(rules)")], found
