"""The dimension values a crossing test's parameter holds, for its ``cell`` marker (crossing11, issue 44 item 1).

qaconform.report.crossing counts a must-rule crossed with a dimension only when the run's results hold, for every
value spec/dimensions.yaml admits, a test naming the rule that reached a verdict in a cell with that value. The
values are read off the parameter each crossing suite already draws (a list's combination, a node action's case, a
write's input form and writer, a list's shape), never listed by hand: the names are spec/dimensions.yaml's."""

from __future__ import annotations

from typing import Any

LIST_FORM = "path_form"
"""spec/dimensions.yaml ``list_responses.form``: the dimension a list row's request form is a value of."""


def dims_of(param: Any) -> tuple[str, dict[str, str]] | None:
    """(operation, dimension -> value) of a crossing suite's parameter, or None for one that holds no cell. A list
    row's values are its combination's (``$word`` unfilled, ``$sort`` and ``$field`` filled), its reader, its
    request form and the read order before it; an action case's role, relation, node kind and state; a write's
    input form, other fields and writer; a shape row's list shape."""
    inner = getattr(param, "case", None) or getattr(param, "row", None)
    if inner is not None and inner is not param:  # a rule judged on a row (list_access.Case, action OptionCase)
        return dims_of(inner)
    combination = getattr(param, "combination", None)
    if combination is not None:
        values = {"reader": str(combination.reader), **{str(d): str(v) for d, v in combination.values}}
        if hasattr(param, "order"):
            values["order"] = str(param.order)
        form = getattr(param, "form", None)
        if form is not None and not str(form).endswith("password") and hasattr(param, "owner"):
            values[LIST_FORM] = str(form)
        return str(combination.op), values
    if hasattr(param, "values") and hasattr(param, "reader") and hasattr(param, "op"):  # a bare Combination
        return str(param.op), {"reader": str(param.reader), **{str(d): str(v) for d, v in param.values}}
    if hasattr(param, "shape") and hasattr(param, "reader"):  # list_shapes.ShapeRow
        return str(param.op), {"reader": str(param.reader), "list_shape": str(param.shape)}
    if hasattr(param, "action") and hasattr(param, "relation"):  # action_cases.Case
        return str(param.action), {"role": str(param.role), "relation": str(param.relation),
                                   "node_kind": str(param.kind), "node_state": str(param.state)}
    if hasattr(param, "writer") and hasattr(param, "form"):  # input_forms.Case, an answer's or a comment's row
        values = {"input_form": str(param.form), "writer": str(param.writer)}
        if getattr(param, "other", None) is not None:
            values["other_fields"] = str(param.other)
        return str(getattr(param, "op", None) or getattr(param, "operation", "")), values
    return None


def cell_marks(param: Any, family: str = "dims") -> list[Any]:
    """The ``cell`` mark of a crossing parameter (its operation and dimension values), none when it holds none."""
    import pytest

    found = dims_of(param)
    if found is None:
        return []
    op, values = found
    return [pytest.mark.cell(family, operation=op, dims=values)]
