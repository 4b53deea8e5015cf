"""A pytest plugin the runner loads (``-p qaconform.report.coverage_plugin``): which tests name which rule.

The results file lists only the tests that ran. With ``--only paging`` that cannot tell a rule no test names
("not covered", a gap in the suites) from a rule whose tests were simply not selected ("skipped"). This hook runs
before any deselection (``-m``, ``--rule``) and writes every collected test's rule ids, so the report can.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--qaconform-coverage", dest="qc_coverage", default=None,
                     help="write {rule id: [test ids]} of every collected test (before deselection) to this JSON file")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    path = config.getoption("qc_coverage")
    worker = getattr(config, "workerinput", None)
    if not path or (worker is not None and worker.get("workerid") != "gw0"):
        return  # under xdist the controller collects nothing: the first worker (each collects them all) writes
    rules: dict[str, list[str]] = {}
    for item in items:
        for marker in item.iter_markers("rule"):
            for rid in marker.args:
                rules.setdefault(str(rid), []).append(item.nodeid)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps({"collected": len(items), "rules": rules}, indent=1), encoding="utf-8")
