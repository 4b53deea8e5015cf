"""Which suite tests name which rule, written by a collection without running anything (``pytest suites
--collect-only -p qaconform.pytest.rule_map --qaconform-rule-map FILE``).

Why: ``qaconform selftest`` runs the tests naming one rule against each of 222 faults; given the whole suites
folder, each of those pytest processes collected every suite (800-odd tests) to keep a handful. With this map,
collected once per self-test, a fault's pytest is given only the files that hold its rule's tests, and ``--rule``
still selects among them: the same tests, without the collection of the rest. Loaded only with ``-p``; not
registered by the entry point. Writes ``{"tests": {nodeid: [rule ids]}}``, the markers as collected (parametrized
rules included).
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
