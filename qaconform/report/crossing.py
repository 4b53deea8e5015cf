"""How far each must-rule is crossed with the circumstances its operation admits (issue 44: "crossed by default").

spec/dimensions.yaml says which dimensions each operation admits (a list's reader and stated parameters, a node
action's caller role, relation, node kind and state, a write's input forms and writer; the read order for the rules
whose answer depends on the caller) and, per rule, what it is crossed with: the rules it names (``rules:``,
``across``) and, derived, every permission rule of a list and the rules ``list_access.also`` names, crossed over their
lists with every dimension the list admits, less the exclusions ``list_access.exclude`` lists with their reasons and a
rule's own ``not_across`` (dimension -> why it is left out). This module counts, from spec/ alone, how many must-rules
are crossed with every dimension their operations admit, names the ones that are not (with the dimensions missing)
and the exclusions with their reasons: what `coverage.json` holds under ``crossing`` and the terminal says in one
line. It reads the spec as data; whether a run drew every combination is the run's (each test names its rule).

The run's own subtree and wrong credentials (issue 44, commentcross): a rule of ``list_responses.not_response``
judged on every row of a subtree list (:data:`SUBTREE`), and a must-rule of area auth there judged with a wrong
password on every row of its lists (suites/contract/credential_rows.py), count crossed with every dimension of those
lists.

Writes and node actions (issue 44, writecross): a must-rule on a write or an action operation that does not declare
that operation is derived crossed with every dimension the operation admits, since the suites judge it on every row
of the operation's matrix; ``write_crossing`` lists only its exclusions, with their reasons (:data:`WRITES`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from itertools import product
from pathlib import Path
from typing import Any

import yaml

READER, ORDER = "reader", "order"
WRITES = "write_crossing"
"""spec/dimensions.yaml's block of the writes and node actions crossed by default (issue 44, writecross): a must-rule
on a write or an action operation (``actions``, ``validations``) that does not declare that operation is judged on
every row of the operation's matrix (suites/contract/action_responses.py, answer_responses.py, comment_responses.py),
so it counts crossed with every dimension the operation admits; ``exclude`` names what is not, each with its reason:
``RULE`` (every write of the rule), ``RULE op`` (one operation), ``RULE op dimension``, and ``not_across`` (operation
-> dimension -> why no derived rule crosses it)."""


def _admitted(spec: Mapping[str, Any], op: str, by_caller: bool = True, by_form: bool = False) -> set[str]:
    """The dimensions operation ``op`` admits, by its kind (list, node action, write). The read order (who read the
    same URL right before) is a dimension of the rules whose answer depends on the caller (``by_caller``); the
    request form (``list_responses.form``: which Accept comes with the .json path) of the rules judged on the body
    a list answers (``by_form``)."""
    lists = spec.get("lists") or {}
    access = spec.get("list_access") or {}
    out: set[str] = set()
    if op in lists:
        out |= {READER, *lists[op], *((access.get("own") or {}).get(op) or ())}
        if access.get("order") and by_caller:
            out.add(ORDER)
        form = (spec.get("list_responses") or {}).get("form")
        if form and by_form:
            out.add(str(form))
        shape = (spec.get(SHAPES) or {}).get("dimension")
        if shape and by_form:  # lists (issue 44): the response rules are judged on every shape of the list
            out.add(str(shape))
    out |= set((spec.get("actions") or {}).get(op) or ())
    out |= set((spec.get("validations") or {}).get(op) or ())
    return out


SHAPES = "list_shapes"
"""spec/dimensions.yaml's block of the list shapes (issue 44, lists): the dimension the response rules of a list are
also judged across (empty, shorter than a page, exactly full, longer, past the end: suites/contract/list_shapes.py,
test_list_shapes.py), and ``exclude``, the (list, shape) pairs left out, each with its reason (recorded once each
among the exclusions: what no response rule of that list is judged on)."""


def _shape_exclusions(spec: Mapping[str, Any]) -> list[dict[str, str]]:
    """The (list, shape) pairs no response rule is judged on, with their reasons."""
    block = spec.get(SHAPES) or {}
    return [{"rule": f"the response rules of {key.split(' ')[0]} across {block.get('dimension')} "
                     f"{key.partition(' ')[2]}", "why": str(why)}
            for key, why in (block.get("exclude") or {}).items()]


def _get(rule: Any, key: str) -> Any:
    """A field of a ``contract.Rule`` or of a report.json rule entry."""
    return rule.get(key) if isinstance(rule, Mapping) else getattr(rule, key, None)


def response_rule(spec: Mapping[str, Any], rule: Any) -> bool:
    """Whether ``rule`` is a response rule of its lists, crossed by default (spec/dimensions.yaml
    ``list_responses``): a must-rule whose operations include a list, that no other crossing owns (not a permission
    rule, not declared under ``rules:``, not in ``list_access.also``) and that ``not_response`` does not name (judged
    on more than one response), or a declared rule ``list_responses.also`` names (judged on every row too).
    suites/contract/list_responses.py derives the same set and runs a check of each on
    every row of its lists (tests/test_list_responses.py keeps the two in step)."""
    responses = spec.get("list_responses") or {}
    if not responses or _get(rule, "level") != "must" or _get(rule, "area") == "permissions":
        return False
    rid = str(_get(rule, "id"))
    if rid in (responses.get("also") or ()):
        return True
    if rid in (spec.get("rules") or {}) or rid in ((spec.get("list_access") or {}).get("also") or ()):
        return False
    if rid in (responses.get("not_response") or {}):
        return False
    return bool(set(spec.get("lists") or {}) & set(_get(rule, "operations") or ()))


def _write_part(spec: Mapping[str, Any], rid: str, op: str, excluded: list[dict[str, str]]) -> set[str] | None:
    """A derived write or action rule on ``op``: the dimensions it counts crossed with (every one ``op`` admits but
    its exclusions, recorded in ``excluded``), or None when ``op`` is excluded for the rule (recorded too)."""
    block = spec.get(WRITES) or {}
    exclude: Mapping[str, str] = block.get("exclude") or {}
    why = exclude.get(f"{rid} {op}") or exclude.get(rid)
    if why is not None:
        excluded.append({"rule": f"{rid} on {op}", "why": str(why)})
        return None
    admitted = _admitted(spec, op, False)
    left: dict[str, str] = dict(((block.get("not_across") or {}).get(op)) or {})
    left.update({dim: str(exclude[f"{rid} {op} {dim}"]) for dim in admitted if f"{rid} {op} {dim}" in exclude})
    for dim, reason in sorted(left.items()):
        excluded.append({"rule": f"{rid} on {op} across {dim}", "why": str(reason)})
    return admitted - set(left)


SUBTREE = "subtree_responses"
"""spec/dimensions.yaml's block of the comment rules judged on the run's own subtree (issue 44, commentcross): a rule
of ``list_responses.not_response`` whose operations include a list of ``lists`` is judged on every row of that list's
covering array as it shows the privacy thread (suites/contract/subtree_rows.py), so it counts crossed with every
dimension the list admits there, the request form included, less its ``not_across`` (recorded with their reasons);
``left_out`` names the rules that are not (what the thread does not hold)."""


def _subtree_ops(spec: Mapping[str, Any], rid: str, ops: Iterable[str]) -> set[str]:
    """The subtree lists among ``ops`` on whose every row rule ``rid`` is judged (none when it is left out)."""
    block = spec.get(SUBTREE) or {}
    not_response = (spec.get("list_responses") or {}).get("not_response") or {}
    if rid not in not_response or rid in (block.get("left_out") or {}):
        return set()
    return set(block.get("lists") or ()) & set(ops)


def _credential_ops(spec: Mapping[str, Any], rule: Any, ops: Iterable[str]) -> set[str]:
    """The lists among ``ops`` on whose every combination a must-rule of area auth that ``not_response`` names is
    judged with a wrong password (suites/contract/credential_rows.py: whose username, the list's parameters)."""
    not_response = (spec.get("list_responses") or {}).get("not_response") or {}
    if _get(rule, "area") != "auth" or str(_get(rule, "id")) not in not_response:
        return set()
    return set(spec.get("lists") or {}) & set(ops)


def _subtree_part(spec: Mapping[str, Any], rid: str, op: str, excluded: list[dict[str, str]]) -> None:
    """Record the dimensions of subtree list ``op`` that rule ``rid`` is not judged across, with their reasons."""
    left = ((spec.get(SUBTREE) or {}).get("not_across") or {}).get(rid) or {}
    for dim, why in sorted(left.items()):
        excluded.append({"rule": f"{rid} on {op} across {dim}", "why": str(why)})


CELLS = "action_cells"
"""spec/dimensions.yaml's block of the node-action combinations a default run does not try, each group with its
reason (combos, issue 44): ``unreachable``, a list of ``{why, cells}``, each cell pattern five fields (action, then the
values of its ``actions`` dimensions), ``*`` any value, ``a|b`` either."""


def cell_matches(pattern: str, cell: tuple[str, ...]) -> bool:
    """Whether a cell pattern of :data:`CELLS` names ``cell`` (action, role, relation, node kind, node state)."""
    fields = _pattern_fields(pattern)
    if len(fields) != len(cell):
        return False
    for f, value in zip(fields, cell, strict=True):  # a loop, not all(...): no generator per call
        if f is not None and value not in f:
            return False
    return True


@functools.lru_cache(maxsize=4096)
def _pattern_fields(pattern: str) -> tuple[frozenset[str] | None, ...]:
    """A pattern's fields, each the set of its ``a|b`` alternatives (None: ``*``, any value), split once per
    process. Why (speed14, issue 44): the crossing figure at the end of every run asks :func:`cell_matches` ~158,000
    times (every action and depth cell against every pattern), and splitting the same few hundred patterns again
    each time was ~15 % of building the report, on the run's critical path after its last test."""
    return tuple(None if f == "*" else frozenset(f.split("|")) for f in pattern.split())


def action_cells(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The node-action combinations of ``actions`` (every value of each action's dimensions), how many a default run
    leaves untried with a reason (:data:`CELLS`, each group with its count), and so how many it tries; {} without
    the block."""
    groups = (spec.get(CELLS) or {}).get("unreachable") or []
    values = spec.get("dimensions") or {}
    every: list[tuple[str, ...]] = []
    for action, dims in (spec.get("actions") or {}).items():
        rows: list[tuple[str, ...]] = [(action,)]
        for dim in dims:
            rows = [(*row, str(v)) for row in rows for v in values.get(dim) or ()]
        every += rows
    if not groups or not every:
        return {}
    named: set[tuple[str, ...]] = set()
    out = []
    for group in groups:
        cells = {c for c in every if any(cell_matches(str(p), c) for p in group.get("cells") or ())}
        named |= cells
        out.append({"why": str(group.get("why", "")), "cells": list(group.get("cells") or ()), "count": len(cells)})
    return {"combinations": len(every), "unreachable": len(named), "tried": len(every) - len(named), "groups": out}


def _writes(spec: Mapping[str, Any]) -> set[str]:
    """The write and node-action operations: those of ``actions`` and ``validations``."""
    return set(spec.get("actions") or {}) | set(spec.get("validations") or {})


PLAN = "plan"
"""coverage.json ``crossing.plan``: per rule spec/ counts crossed, operation -> the dimensions the run must judge it
across (every value of each: qaconform.report.run_crossing checks them against the run's cells, crossing11)."""

PLAN_EXCLUDED = "plan_excluded"
"""coverage.json ``crossing.plan_excluded``: "operation dimension" -> value -> why no rule is judged there (the
list shapes ``list_shapes.exclude`` leaves out), and under ``responses`` the same for the response rules of a list
(spec/dimensions.yaml ``run_crossing.responses``), and under ``by_rule`` rule -> "op dim" -> value -> why for the
rules spec/dimensions.yaml ``run_crossing.values`` names (crossing12): a value listed here is not asked of the run."""
RESPONSES = "responses"
BY_RULE = "by_rule"


def _rule_exclusions(spec: Mapping[str, Any]) -> dict[str, dict[str, dict[str, str]]]:
    """spec/dimensions.yaml ``run_crossing.values`` as rule -> "op dim" -> value -> why: the values the description
    makes inapplicable to those rules (a refusal holds no record, a form cannot carry the field, the rule is about
    one reader), each group with its reason (crossing12)."""
    out: dict[str, dict[str, dict[str, str]]] = {}
    for group in ((spec.get("run_crossing") or {}).get("values")) or ():
        for rid in group.get("rules") or ():
            for key, values in (group.get("cells") or {}).items():
                out.setdefault(str(rid), {}).setdefault(str(key), {}).update(
                    {str(v): str(group.get("why")) for v in values})
    return out


def _value_exclusions(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The (operation, dimension, value) spec/ leaves out with a reason, as ``"op dim" -> value -> why``, with
    ``responses`` (the same, for the response rules of a list only)."""
    block = spec.get(SHAPES) or {}
    out: dict[str, Any] = {}
    for key, why in (block.get("exclude") or {}).items():
        op, _, value = str(key).partition(" ")
        out.setdefault(f"{op} {block.get('dimension')}", {})[value] = str(why)
    responses = ((spec.get("run_crossing") or {}).get(RESPONSES)) or {}
    out[RESPONSES] = {str(k): {str(v): str(w) for v, w in (values or {}).items()} for k, values in responses.items()}
    out[BY_RULE] = _rule_exclusions(spec)
    return out


_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""PyYAML's safe loader in C (libyaml): dimensions.yaml in 4 ms instead of 40 ms at the end of every run."""


def load_spec(spec_dir: Path) -> dict[str, Any] | None:
    """spec_dir's dimensions.yaml as data, or None without one."""
    try:
        text = (spec_dir / "dimensions.yaml").read_text(encoding="utf-8")
    except OSError:
        return None
    return yaml.load(text, Loader=_LOADER) or {}  # noqa: S506 (a safe loader)


def crossing(spec_dir: Path, rules: Iterable[Any]) -> dict[str, Any]:
    """The crossing figure of the must-rules of ``rules`` (``contract.Rule``s), from ``spec_dir``'s dimensions.yaml."""
    spec = load_spec(spec_dir)
    if spec is None:
        return {}
    declared = spec.get("rules") or {}
    access = spec.get("list_access") or {}
    lists = set(spec.get("lists") or {})
    also = set(access.get("also") or ())
    exclude: Mapping[str, str] = access.get("exclude") or {}
    responses = spec.get("list_responses") or {}
    not_response: Mapping[str, str] = responses.get("not_response") or {}
    writes = _writes(spec)
    write_exclude: Mapping[str, str] = (spec.get(WRITES) or {}).get("exclude") or {}
    full, partly, excluded = [], [], _shape_exclusions(spec)
    plan: dict[str, dict[str, list[str]]] = {}
    plan_responses: list[str] = []
    considered = 0
    for rule in rules:
        if _get(rule, "level") != "must":
            continue
        rid = str(_get(rule, "id"))
        ops = [op for op in _get(rule, "operations") or () if _admitted(spec, op)]
        if not ops:
            continue
        considered += 1
        entry = declared.get(rid) or {}
        crossed = set(entry.get("across") or ())
        left_out: Mapping[str, str] = entry.get("not_across") or {}
        derived = rid in also or (_get(rule, "area") == "permissions" and bool(lists & set(ops)))
        by_caller, by_form = derived, False
        why_out = {key: str(why) for key, why in exclude.items() if key == rid or key.startswith(rid + " ")}
        if response_rule(spec, rule):
            derived, by_form = True, True
            left_out = {**left_out, **((responses.get("not_across") or {}).get(rid) or {})}
            why_out = {key: str(why) for key, why in (responses.get("exclude") or {}).items()
                       if key.startswith(rid + " ")}
        elif rid in not_response:
            excluded.append({"rule": f"{rid} on one response", "why": str(not_response[rid])})
        for dim, why in left_out.items():
            excluded.append({"rule": f"{rid} across {dim}", "why": str(why)})
        if rid in exclude:
            excluded.append({"rule": rid, "why": exclude[rid]})
            continue
        own_ops = set(entry.get("actions") or ()) | set(entry.get("validations") or ())
        if entry and not (own_ops or entry.get("lists")):  # declared with no operations named: all of its own
            own_ops = set(ops)
        derived_ops = [op for op in ops if op in writes and op not in own_ops]
        if rid in write_exclude and len(derived_ops) == len(ops):
            excluded.append({"rule": rid, "why": str(write_exclude[rid])})
            continue
        missing: dict[str, list[str]] = {}
        need: dict[str, set[str]] = {}  # op -> the dimensions the run must judge the rule across (crossing11)
        subtree_ops = _subtree_ops(spec, rid, ops)
        credential_ops = _credential_ops(spec, rule, ops)
        for op in ops:
            if op in subtree_ops:
                _subtree_part(spec, rid, op, excluded)
                left = ((spec.get(SUBTREE) or {}).get("not_across") or {}).get(rid) or {}
                need[op] = (_admitted(spec, op, False) | {str(responses.get("form"))}) - set(left) - {"None"}
                continue
            if op in credential_ops:
                need[op] = _admitted(spec, op, False)
                continue
            if op in derived_ops:
                dims = _write_part(spec, rid, op, excluded)
                if dims is not None:
                    need[op] = dims
                continue
            if f"{rid} {op}" in why_out:
                excluded.append({"rule": f"{rid} on {op}", "why": why_out[f"{rid} {op}"]})
                continue
            admitted = _admitted(spec, op, by_caller, by_form)
            have = crossed | set(left_out) | (admitted if derived and op in lists else set())
            if op in writes:  # a declared write's dimension left out in write_crossing, with its reason
                for dim in sorted(admitted - have):
                    if f"{rid} {op} {dim}" in write_exclude:
                        have.add(dim)
                        excluded.append({"rule": f"{rid} on {op} across {dim}",
                                         "why": str(write_exclude[f"{rid} {op} {dim}"])})
            gap = sorted(admitted - have)
            if gap:
                missing[op] = gap
            need[op] = admitted - set(left_out) - {d for d in admitted if f"{rid} {op} {d}" in write_exclude}
        if missing:
            partly.append({"rule": rid, "missing": missing})
        else:
            full.append(rid)
            plan[rid] = {op: sorted(dims) for op, dims in sorted(need.items())}
            if by_form or subtree_ops or credential_ops:  # judged on a list's responses: not on a refused reader
                plan_responses.append(rid)
    out = {"must_rules_with_dimensions": considered, "crossed_fully": len(full), "fully": full,
           "not_fully": partly, "excluded": excluded, PLAN: plan,
           PLAN_EXCLUDED: {**_value_exclusions(spec), "response_rules": plan_responses}}
    cells = action_cells(spec)
    out = {**out, CELLS: cells} if cells else out
    comments = comment_cells(spec)  # combos2 (issue 44)
    out = {**out, COMMENT_CELLS: comments} if comments else out
    deep = depth_cells(spec)  # refusals3 (issue 44)
    return {**out, DEPTH_CELLS: deep} if deep else out


RUN_CELLS = "run_cells"
"""coverage.json ``crossing.run_cells``: the cells the run's tests judged, from its results
(qaconform.report.run_cells: found relations, write forms by seed, rule 7 in every form, list rows)."""
RUN = "run"
"""coverage.json ``crossing.run``: the plan checked against the run's cells (qaconform.report.run_crossing)."""
NOT_COUNTED = "not_counted"
"""coverage.json ``crossing.not_counted``: why there is no figure (the run did not end)."""


def not_counted(reason: str, cells: Mapping[str, Any]) -> dict[str, Any]:
    """The crossing of a run that stopped early (interrupted, ...): no figure, since spec/'s counts say what a whole
    run crosses, only the cells its tests reached (crossing10, issue 44 item 1)."""
    return {NOT_COUNTED: f"the run did not end ({reason}): no crossing figure", "stopped": reason,
            RUN_CELLS: dict(cells)}


def crossing_line(c: Mapping[str, Any] | None) -> str:
    """The terminal's one line: "crossing: 31 of 88 must-rules ...", or "" without figures."""
    from qaconform.report.run_cells import run_cells_text
    from qaconform.report.run_crossing import run_text

    if c and c.get(NOT_COUNTED):
        reached = run_cells_text(c.get(RUN_CELLS)).removeprefix("; ")
        return (f"crossing: not counted, {c[NOT_COUNTED].removesuffix(': no crossing figure')}"
                + (f"; judged before it stopped: {reached}" if reached else "") + " (coverage.json: crossing)")
    if not c or not c.get("must_rules_with_dimensions"):
        return ""
    cells = c.get(CELLS) or {}
    tried = (f"; node actions: {cells['tried']} of {cells['combinations']} combinations of role, relation, kind and "
             f"state tried, {cells['unreachable']} unreachable with a reason") if cells.get("combinations") else ""
    comments = c.get("comment_cells") or {}  # combos2 (issue 44)
    tried += (f"; comments refused: {comments['tried']} of {comments['combinations']} combinations of role, "
              f"relation, parent kind, state and visibility tried, {comments['unreachable']} unreachable with a "
              f"reason") if comments.get("combinations") else ""
    deep = c.get("depth_cells") or {}  # refusals3 (issue 44)
    tried += (f"; refusals by depth: {deep['tried']} of {deep['combinations']} refused comments and node actions "
              f"at parent depth 1-3 tried, {deep['unreachable']} unreachable with a reason"
              ) if deep.get("combinations") else ""
    selection = (c.get(RUN) or {}).get("selection")
    if selection and tried:  # crossing13: spec/'s combinations, the same whatever --only selected: said so
        tried = f"; the whole kit's, not counted for --only {selection}: {tried.removeprefix('; ')}"
    tried += run_cells_text(c.get(RUN_CELLS))  # crossing10 (issue 44): what the run's tests judged
    judged = run_text(c.get(RUN))  # crossing11: the plan against the run's cells
    return (f"crossing: planned {c['crossed_fully']} of {c['must_rules_with_dimensions']} must-rules crossed with "
            f"every dimension their operation admits (spec/dimensions.yaml)" + (f", {judged}" if judged else "")
            + f"; {len(c['not_fully'])} partly, {len(c['excluded'])} exclusion(s) with a reason{tried} "
            "(coverage.json: crossing)")


# --- combos2 (issue 44): every refused comment, on every parent the run reaches
COMMENT_CELLS = "comment_cells"
"""spec/dimensions.yaml's block of the refused comments (combos2, issue 44): ``dimensions`` (role, relation, kind,
state, option: the values crossed), ``refused`` (patterns "role option" of the callers and options the description
refuses, whatever the parent) and ``unreachable`` (``{why, cells}``, each cell pattern "role relation kind state
option", as :data:`CELLS`)."""
COMMENT_DIMENSIONS = ("role", "relation", "kind", "state", "option")


def comment_cells(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The refused comment combinations (every value of each dimension whose role and option the description
    refuses), how many a default run leaves untried with a reason, and so how many it tries; {} without the block."""
    block = spec.get(COMMENT_CELLS) or {}
    dims = block.get("dimensions") or {}
    refused = [str(p) for p in block.get("refused") or ()]
    if not refused or any(not dims.get(d) for d in COMMENT_DIMENSIONS):
        return {}
    every = [c for c in product(*(tuple(map(str, dims[d])) for d in COMMENT_DIMENSIONS))
             if any(cell_matches(p, (c[0], c[4])) for p in refused)]
    named: set[tuple[str, ...]] = set()
    out = []
    for group in block.get("unreachable") or []:
        cells = {c for c in every if any(cell_matches(str(p), c) for p in group.get("cells") or ())}
        named |= cells
        out.append({"why": str(group.get("why", "")), "cells": list(group.get("cells") or ()), "count": len(cells)})
    return {"combinations": len(every), "unreachable": len(named), "tried": len(every) - len(named), "groups": out}


# --- refusals3 (issue 44): the refused comments and node actions at the depth of their node
DEPTH_CELLS = "depth_cells"
"""spec/dimensions.yaml's block of the refusals by depth (refusals3, issue 44): ``dimensions`` (what, role, relation,
state, option, depth), ``refused`` (patterns of six fields, the combinations the description refuses) and
``unreachable`` (``{why, cells}``, as :data:`CELLS`)."""
DEPTH_DIMENSIONS = ("what", "role", "relation", "state", "option", "depth")


def depth_cells(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The refused combinations at a depth (every value of each dimension a ``refused`` pattern names), how many a
    default run leaves untried with a reason, and so how many it tries; {} without the block."""
    block = spec.get(DEPTH_CELLS) or {}
    dims = block.get("dimensions") or {}
    refused = [str(p) for p in block.get("refused") or ()]
    if not refused or any(not dims.get(d) for d in DEPTH_DIMENSIONS):
        return {}
    every = [c for c in product(*(tuple(map(str, dims[d])) for d in DEPTH_DIMENSIONS))
             if any(cell_matches(p, c) for p in refused)]
    named: set[tuple[str, ...]] = set()
    out = []
    for group in block.get("unreachable") or []:
        cells = {c for c in every if any(cell_matches(str(p), c) for p in group.get("cells") or ())}
        named |= cells
        out.append({"why": str(group.get("why", "")), "cells": list(group.get("cells") or ()), "count": len(cells)})
    return {"combinations": len(every), "unreachable": len(named), "tried": len(every) - len(named), "groups": out}
