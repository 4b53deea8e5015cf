"""The dimension values a crossing test's parameter holds, for its ``cell`` marker (crossing11, issue 44 item 1).

qaconform.report.crossing counts a must-rule crossed with a dimension only when the run's results hold, for every
value spec/dimensions.yaml admits, a test naming the rule that reached a verdict in a cell with that value. The
values are read off the parameter each crossing suite already draws (a list's combination, a node action's case, a
write's input form and writer, a list's shape), never listed by hand: the names are spec/dimensions.yaml's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

LIST_FORM = "path_form"
"""spec/dimensions.yaml ``list_responses.form``: the dimension a list row's request form is a value of."""
FORM_DECLARATION = "CELL_FORM"
"""The class attribute a row holding a ``combination`` declares (crossing13): the dimension its ``form`` field is a
value of (:data:`LIST_FORM` for a list read's request form), or None when its ``form`` is no dimension's value (a
wrong password's form) or it has none. Declared, never guessed from other fields: a new row class whose form a
guess misread would mark cells the run did not judge."""


def form_dimension(param: Any) -> str | None:
    """The dimension ``param``'s ``form`` is a value of, as its class declares (:data:`FORM_DECLARATION`); a row
    class holding a combination that declares nothing is a TypeError naming it and what to add."""
    declared = getattr(type(param), FORM_DECLARATION, _UNDECLARED)
    if declared is _UNDECLARED:
        raise TypeError(f"{type(param).__module__}.{type(param).__qualname__} holds a combination but declares no "
                        f"{FORM_DECLARATION}: add `{FORM_DECLARATION}: ClassVar[str | None] = ...` naming the "
                        f"dimension its form is a value of (cells.LIST_FORM), or None (suites/contract/cells.py)")
    return None if declared is None else str(declared)


_UNDECLARED = object()


def dims_of(param: Any) -> tuple[str, dict[str, str]] | None:
    """(operation, dimension -> value) of a crossing suite's parameter, or None for one that holds no cell. A list
    row's values are its combination's (``$word`` unfilled, ``$sort`` and ``$field`` filled), its reader, its
    request form (where its class declares it one: :func:`form_dimension`) and the read order before it; an action
    case's role, relation, node kind and state; a write's input form, other fields and writer; a shape row's list
    shape (and the parameter a shape row adds: list_shapes.added)."""
    inner = getattr(param, "case", None) or getattr(param, "row", None)
    if inner is not None and inner is not param:  # a rule judged on a row (list_access.Case, action OptionCase)
        return dims_of(inner)
    combination = getattr(param, "combination", None)
    if combination is not None:
        values = {"reader": str(combination.reader), **{str(d): str(v) for d, v in combination.values}}
        if hasattr(param, "order"):
            values["order"] = str(param.order)
        dimension = form_dimension(param)
        if dimension is not None:
            values[dimension] = str(param.form)
        return str(combination.op), values
    if hasattr(param, "values") and hasattr(param, "reader") and hasattr(param, "op"):  # a bare Combination
        return str(param.op), {"reader": str(param.reader), **{str(d): str(v) for d, v in param.values}}
    if hasattr(param, "shape") and hasattr(param, "reader"):  # list_shapes.ShapeRow
        return str(param.op), {"reader": str(param.reader), "list_shape": str(param.shape),
                               **{str(d): str(v) for d, v in getattr(param, "adds", ())}}
    if hasattr(param, "action") and hasattr(param, "relation"):  # action_cases.Case
        return str(param.action), {"role": str(param.role), "relation": str(param.relation),
                                   "node_kind": str(param.kind), "node_state": str(param.state)}
    if hasattr(param, "writer") and hasattr(param, "form"):  # input_forms.Case, an answer's or a comment's row
        values = {"input_form": str(param.form), "writer": str(param.writer)}
        if getattr(param, "other", None) is not None:
            values["other_fields"] = str(param.other)
        return str(getattr(param, "op", None) or getattr(param, "operation", "")), values
    return None


Judged = Mapping[str, Sequence[str]]
"""dimension -> the values a test judges beside its parameter's own (its own reads with the stated parameter added or
left out, each compared: test_matrix.py JUDGED_BESIDE)."""


def cell_marks(param: Any, family: str = "dims", beside: Judged | None = None) -> list[Any]:
    """The ``cell`` mark of a crossing parameter (its operation and dimension values), none when it holds none;
    ``beside``: dimensions whose every listed value the test's own reads judge (a list in the cell: the test's
    verdict is each one's, qaconform/report/run_crossing.py)."""
    import pytest

    found = dims_of(param)
    if found is None:
        return []
    op, values = found
    more = {str(d): [str(v) for v in vs] for d, vs in (beside or {}).items()}
    return [pytest.mark.cell(family, operation=op, dims={**values, **more})]
