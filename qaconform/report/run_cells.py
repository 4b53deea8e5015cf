"""The crossing cells a run actually judged, counted from its results (crossing10, issue 44 item 1).

qaconform.report.crossing counts from spec/ which dimensions each must-rule's operation admits and which the suites
cross it with: what a run is built to do. What a run did is in its results: each test of a crossing the spec's
figure does not hold carries a ``cell`` marker (its family and values, recorded by qaconform.pytest.results), and a
cell counts as judged only when its test reached a verdict (passed, failed, observed); a skip, a blocked test or a
test an interrupted run never reached does not. The families:

- ``found_relations`` (histories6): every (action, role, relation, kind) the permission table refuses, tried on a
  node the accounts wrote, found with reads; a cell with no found node in its relation skips.
- ``write_forms`` (forms9): the shared writes that post in an input form the seed draws. One run judges one form per
  slot; a slot rotates over its forms one step a seed, so each slot meets every form over as many seeds in a row as it
  has forms: said so ("by seed"), never counted as crossed in one run.
- ``form_refusals`` (forms9): rule 7's refusal in every input form on every parent kind.
- ``list_rows`` (lists9): the lists' response arrays, the item rules among the rules judged on each row: how many
  rows and how many (list, parameter, value) pairs a verdict judged.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

VERDICTS = frozenset({"passed", "failed", "observed", "warning"})
"""Outcomes that judged the cell's rules (a skip, a blocked test and an error did not)."""
FAMILIES = ("found_relations", "write_forms", "form_refusals", "list_rows")


def _get(test: Any, key: str) -> Any:
    """A field of a ``records.TestResult`` or of a results.json test entry."""
    value = test.get(key) if isinstance(test, Mapping) else getattr(test, key, None)
    return getattr(value, "value", value)  # a Status is a str enum: its value


def _cells(tests: Iterable[Any]) -> dict[str, list[tuple[Mapping[str, Any], bool]]]:
    """family -> (cell, judged) of every test that carries a cell, one per node id; its worst phase decides, as the
    report's merged entry (a call that passed and a teardown that broke: an error, no verdict)."""
    seen: dict[str, tuple[str, Mapping[str, Any], bool]] = {}
    for t in tests:
        cell = _get(t, "cell")
        if not isinstance(cell, Mapping) or cell.get("family") not in FAMILIES:
            continue
        nodeid = str(_get(t, "nodeid"))
        judged = str(_get(t, "outcome")) in VERDICTS
        old = seen.get(nodeid)
        seen[nodeid] = (str(cell["family"]), cell, judged and (old is None or old[2]))
    out: dict[str, list[tuple[Mapping[str, Any], bool]]] = defaultdict(list)
    for family, cell, judged in seen.values():
        out[family].append((cell, judged))
    return dict(out)


def _plain(rows: list[tuple[Mapping[str, Any], bool]]) -> dict[str, int]:
    return {"cells": len(rows), "judged": sum(1 for _, j in rows if j)}


def _write_forms(rows: list[tuple[Mapping[str, Any], bool]]) -> dict[str, Any]:
    """Slots judged this run, the forms each operation met, and over how many seeds in a row each slot meets every
    form (its rotation: one step a seed)."""
    ops: dict[str, dict[str, set[str]]] = {}
    for cell, judged in rows:
        op = ops.setdefault(str(cell.get("operation")), {"forms": set(), "judged": set()})
        op["forms"] |= {str(f) for f in cell.get("forms") or ()}
        if judged:
            op["judged"].add(str(cell.get("form")))
    seeds = max((len(cell.get("forms") or ()) for cell, _ in rows), default=0)
    return {**_plain(rows), "by_seed": seeds,
            "operations": {op: {"forms": sorted(v["forms"]), "judged": sorted(v["judged"])}
                           for op, v in sorted(ops.items())}}


def _list_rows(rows: list[tuple[Mapping[str, Any], bool]]) -> dict[str, Any]:
    """Rows judged, and the (list, parameter, value) pairs of the arrays that a judged row read."""
    pairs: set[tuple[str, str, str]] = set()
    judged: set[tuple[str, str, str]] = set()
    for cell, ok in rows:
        values = dict(cell.get("values") or {})
        values.update(reader=cell.get("reader"), form=cell.get("form"))
        mine = {(str(cell.get("list")), str(d), str(v)) for d, v in values.items() if v is not None}
        pairs |= mine
        if ok:
            judged |= mine
    return {**_plain(rows), "values": len(pairs), "values_judged": len(judged),
            "lists": len({str(c.get("list")) for c, _ in rows})}


def run_cells(tests: Iterable[Any]) -> dict[str, Any]:
    """What the run judged of each family (``{}`` when no test carries a cell: an old results file, or a selection
    without those tests)."""
    cells = _cells(tests)
    out: dict[str, Any] = {}
    for family, rows in cells.items():
        if family == "write_forms":
            out[family] = _write_forms(rows)
        elif family == "list_rows":
            out[family] = _list_rows(rows)
        else:
            out[family] = _plain(rows)
    return out


def _not_judged(family: Mapping[str, Any]) -> str:
    """", N not judged (...)" when some cells of a family reached no verdict, else ""."""
    left = int(family["cells"]) - int(family["judged"])
    return f", {left} not judged (skipped, blocked or not reached: coverage.json crossing.run_cells)" if left else ""


def run_cells_text(c: Mapping[str, Any] | None) -> str:
    """The terminal's part on the run's own cells ("; found relations: 52 of 76 ..."), or ""."""
    if not c:
        return ""
    parts = []
    found = c.get("found_relations")
    if found:
        parts.append(f"found relations: {found['judged']} of {found['cells']} refused (action, role, relation, kind) "
                     f"cells judged on nodes the accounts wrote{_not_judged(found)}")
    forms = c.get("write_forms")
    if forms:
        per_op = ", ".join(f"{op} {len(v['judged'])} of {len(v['forms'])}" + (" forms" if not n else "")
                           for n, (op, v) in enumerate(forms["operations"].items()))
        parts.append(f"write forms: {forms['judged']} of {forms['cells']} shared writes judged in their drawn form "
                     f"(this run: {per_op}; by seed: each write takes every form it may over at most "
                     f"{forms['by_seed']} runs with consecutive seeds){_not_judged(forms)}")
    refusals = c.get("form_refusals")
    if refusals:
        parts.append(f"rule 7 refused in {refusals['judged']} of {refusals['cells']} (form, parent kind) cells"
                     f"{_not_judged(refusals)}")
    rows = c.get("list_rows")
    if rows:
        parts.append(f"list rows: {rows['judged']} of {rows['cells']} judged, {rows['values_judged']} of "
                     f"{rows['values']} (list, parameter, value) pairs read on a judged row{_not_judged(rows)}")
    return "".join(f"; {p}" for p in parts)
