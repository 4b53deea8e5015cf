"""The must-rule crossing figure from what the run judged (crossing11, issue 44 item 1).

qaconform.report.crossing counts from spec/ which must-rules a whole run is built to cross with every dimension their
operations admit: the plan. This module checks the plan against the run's results: a rule counts as judged across a
dimension of an operation only when, for each value spec/dimensions.yaml gives that dimension, a test naming the rule
reached a verdict (passed, failed, observed, warning) in a cell with that value (the ``cell`` marker's ``operation``
and ``dims``: suites/contract/cells.py; a dimension's value may be a list, every value the test's own reads
judged). A value no such test judged is missing, with why: the skip's reason, a block
or an error, or "not run" when no test of the rule held it. ``selected``: the rules an ``--only`` run ran; the figure
then counts only those, and says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from qaconform.report.run_cells import VERDICTS

NOT_RUN = "not run"
"""Why a value is missing when no test naming the rule held it (not even a skipped one)."""
_TOKEN = re.compile(r"\\\$[a-z]+")


def _get(test: Any, key: str) -> Any:
    value = test.get(key) if isinstance(test, Mapping) else getattr(test, key, None)
    return getattr(value, "value", value)


def _matches(spec_value: str, value: str) -> bool:
    """Whether a run's value is the spec's (``sort=$sort`` names ``sort=active``; ``$word`` stays unfilled)."""
    if spec_value == value:
        return True
    pattern = _TOKEN.sub(".+", re.escape(spec_value))
    return pattern != re.escape(spec_value) and re.fullmatch(pattern, value) is not None


def _why_not(test: Any) -> str:
    """Why a test in the cell reached no verdict, in one short line."""
    outcome = str(_get(test, "outcome"))
    message = str(_get(test, "message") or _get(test, "skip_reason") or "").strip().splitlines()
    first = message[0][:80] if message else ""
    return f"{outcome}: {first}" if first else outcome


Cells = dict[tuple[str, str, str], dict[str, dict[str, str]]]
"""(rule, operation, dimension) -> value -> node id -> "judged" or why not."""


def cells_of(tests: Iterable[Any]) -> Cells:
    """The dimension values each rule was tried with, from every test whose cell names its operation and values."""
    out: Cells = {}
    for t in tests:
        cell = _get(t, "cell")
        if not isinstance(cell, Mapping) or not isinstance(cell.get("dims"), Mapping) or not cell.get("operation"):
            continue
        status = "judged" if str(_get(t, "outcome")) in VERDICTS else _why_not(t)
        nodeid = str(_get(t, "nodeid"))
        for rule in _get(t, "rules") or ():
            for dim, value in cell["dims"].items():
                by_value = out.setdefault((str(rule), str(cell["operation"]), str(dim)), {})
                # a list: every value the test's own reads judged (cells.cell_marks ``beside``, crossing13)
                for one in value if isinstance(value, list | tuple) else (value,):
                    tests_of = by_value.setdefault(str(one), {})
                    old = tests_of.get(nodeid)  # a test's worst phase decides (a broken teardown: no verdict)
                    tests_of[nodeid] = status if old is None or old == "judged" else old
    return out


def _value_status(by_value: Mapping[str, Mapping[str, str]], spec_value: str) -> str:
    """"judged" (a verdict in any test of the cell wins over a skip in another), or why no test judged it."""
    whys: list[str] = []
    for value, tests in by_value.items():
        if _matches(spec_value, value):
            if "judged" in tests.values():
                return "judged"
            whys += tests.values()
    return sorted(whys)[0] if whys else NOT_RUN


def run_crossing(plan: Mapping[str, Mapping[str, Iterable[str]]], values: Mapping[str, Iterable[Any]],
                 tests: Iterable[Any], considered: int, selected: set[str] | None = None,
                 selection: str = "", excluded: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """coverage.json ``crossing.run``: per planned rule (of ``selected`` only, when given) the dimensions of each
    operation whose every value the run judged (``judged``: op -> dimensions) and, for the others ("op dim"), the
    values judged and those missing with why (``missing``); and how many rules it judged across every one
    (``judged`` of ``considered``: the must-rules with dimensions of the selection). ``excluded``
    (crossing.PLAN_EXCLUDED): "op dim" -> value -> why spec/ leaves the value out there, and under ``responses`` the
    same for the rules ``response_rules`` names only, under ``by_rule`` rule -> "op dim" -> value -> why for one rule
    (not asked; a rule's entry names those as ``excluded``, crossing12)."""
    excluded = excluded or {}
    by_rule: Mapping[str, Mapping[str, Mapping[str, str]]] = excluded.get("by_rule") or {}
    responses: Mapping[str, Mapping[str, str]] = excluded.get("responses") or {}
    response_rules = set(excluded.get("response_rules") or ())
    cells = cells_of(tests)
    rules: dict[str, Any] = {}
    for rid, ops in sorted(plan.items()):
        if selected is not None and rid not in selected:
            continue
        whole: dict[str, list[str]] = {}
        missing: dict[str, Any] = {}
        own = {key: dict(values) for key, values in (by_rule.get(rid) or {}).items()
               if key.partition(" ")[0] in ops and key.partition(" ")[2] in ops[key.partition(" ")[0]]}
        for op, dims in sorted(ops.items()):
            for dim in dims:
                by_value = cells.get((rid, op, dim)) or {}
                left = {**(excluded.get(f"{op} {dim}") or {}),
                        **((responses.get(f"{op} {dim}") or {}) if rid in response_rules else {}),
                        **(own.get(f"{op} {dim}") or {})}
                status = {str(v): _value_status(by_value, str(v)) for v in values.get(dim) or () if str(v) not in left}
                if all(s == "judged" for s in status.values()):
                    whole.setdefault(op, []).append(dim)
                else:
                    missing[f"{op} {dim}"] = {"judged": [v for v, s in status.items() if s == "judged"],
                                              "missing": {v: s for v, s in status.items() if s != "judged"}}
        rules[rid] = {"crossed": not missing, "judged": whole, **({"missing": missing} if missing else {}),
                      **({"excluded": own} if own else {})}
    judged = sorted(r for r, e in rules.items() if e["crossed"])
    out: dict[str, Any] = {"planned": len(rules), "judged": len(judged), "of": considered,
                           "not_judged": sorted(set(rules) - set(judged)), "rules": rules}
    return {**out, "selection": selection} if selection else out


def run_text(c: Mapping[str, Any] | None) -> str:
    """The terminal's figure: "planned 115 of 139 ..., judged N of 139 in the run's cells"."""
    if not c:
        return ""
    only = f" (counting only the must-rules --only {c['selection']} ran)" if c.get("selection") else ""
    left = len(c.get("not_judged") or ())
    return (f"judged {c['judged']} of {c['of']} in the run's cells{only}" + (
        f", {left} planned but a dimension value not judged (coverage.json: crossing.run.rules)" if left else ""))
