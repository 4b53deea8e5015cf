"""Which suite tests a collection holds and which rules each names, written as data by a collection that runs
nothing (``pytest suites --collect-only -p qaconform.pytest.rule_map --qaconform-rule-map FILE``).

Why: the commands need the collected tests, and pytest's terminal output is text for people (its ``-q`` form has
changed between versions, and a warning line holding "::" read as a test). Two readers: ``qaconform selftest`` runs
the tests naming one rule against each of 222 faults; given the whole suites folder, each of those pytest processes
collected every suite (800-odd tests) to keep a handful. With this map, collected once per self-test, a fault's
pytest is given only the files that hold its rule's tests, and ``--rule`` still selects among them: the same tests,
without the collection of the rest. ``qaconform run --dry-run`` lists the tests that would write (those its marker
expression selects) from the same file. Loaded only with ``-p``; not registered by the entry point. Writes
``{"tests": {nodeid: [rule ids]}}`` in collection order, for the tests selected (``-m``, ``-k``, ``--rule``), the
markers as collected (parametrized rules included).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("qaconform").addoption("--qaconform-rule-map", dest="qc_rule_map", default=None,
                                           help="write each collected test's rule ids to this JSON file")


def pytest_collection_finish(session: pytest.Session) -> None:
    path = session.config.getoption("qc_rule_map")
    if not path:
        return
    tests = {item.nodeid: [str(a) for m in item.iter_markers("rule") for a in m.args] for item in session.items}
    Path(path).write_text(json.dumps({"tests": tests}), encoding="utf-8")


def read_rule_map(path: Path) -> dict[str, list[str]]:
    """The tests a collection with this plugin wrote to ``path``, in collection order, each with its rule ids.
    ValueError when the file is not such a map (a collection that stopped before writing it leaves none:
    FileNotFoundError)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    tests = data.get("tests") if isinstance(data, dict) else None
    if not isinstance(tests, dict):
        raise ValueError(f"{path}: not a rule map (no 'tests' object)")
    return {str(nodeid): [str(r) for r in rules] for nodeid, rules in tests.items()}
