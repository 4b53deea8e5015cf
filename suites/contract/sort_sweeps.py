"""Rows beside each list's covering array that send every sort name where the array draws only some (fix24, issue 44:
"every documented sort name of a list crossed with its shape rules and with the projection parameters").

The covering array (list_responses.array) draws two of the sort names the description has seen for a list other than
the expert lists, and crosses the expert lists' sorts with paging only (their section states page, pageSize, sort).
Two kinds of server bug hid there (blind round 24): a list whose items come from another query under a sort name the
array did not draw (the topic list sorted newest: usedCount null), and an expert list that refuses a documented sort
once a projection parameter of the Conventions is given beside it (sort=oldest with includeOnly: 400).

- :func:`every_sort_elsewhere`: one row per seen sort name the array did not draw on every list that takes a sort
  and is no node list (list_responses.every_sort_name covers those): "Accepted sort values for lists other than the
  expert lists: not shown", but "an invalid sort name makes the request fall back to the default sort", so whichever
  the name is, the list's response rules hold on its answer (a 4xx is not judged: list_answers.served skips it).
- :func:`every_sort_projected`: each documented expert sort with each projection value of the Conventions ("Projection
  parameters: include, exclude, includeOnly"), judged for the sort's status only (:data:`PROJECTED_RULES`): the
  items' shape under a projection of a list whose section names none is not stated. The same projection without the
  sort is read too (:func:`without_sort`): where it is refused, the projection is what the target does not take, and
  the row is not judged (said so).

Pure: no request. Every row is admin's (list_responses.SWEEP_READER), in the samples' form, with ids no drawn row has.
"""

from __future__ import annotations

from covering import EXPERT_LISTS, Combination
from list_responses import JSON_FORM, SWEEP_READER, SWEPT_ITEMS, Row
from listops import LIST_OPS

from qaconform.contract import NONE, Contract, envelope

PROJECTION = "projection"
PROJECTED_RULES = ("SORT-EXPERTS-VALUES",)
"""The rules judged on a projected expert row: the documented sort's status (list_responses.FIRST judges it before
the body is read)."""


def every_sort_elsewhere(op: str, rows: list[Row], contract: Contract) -> list[Row]:
    """One row per seen sort name ``rows`` (the list's covering array) did not draw, on a list that takes a sort and
    is neither an expert list nor a node list; none elsewhere."""
    if op in EXPERT_LISTS or "sort" not in contract.dimensions.of_list(op) or LIST_OPS[op].item_type in SWEPT_ITEMS:
        return []
    drawn = {row.value("sort") for row in rows}
    return [Row(Combination(op, SWEEP_READER, (("sort", f"sort={name}"),)), JSON_FORM)
            for name in envelope().sorts_seen if f"sort={name}" not in drawn]


def projections(op: str, contract: Contract) -> list[str]:
    """The projection values of spec/dimensions.yaml with the list's field filled (listops.py include_only)."""
    field = LIST_OPS[op].include_only[1]
    return [v.replace("$field", field) for v in contract.dimensions.values[PROJECTION] if v != NONE]


def every_sort_projected(op: str, contract: Contract) -> list[Row]:
    """Each documented sort of an expert list (its openapi enum) with each projection value; none elsewhere."""
    if op not in EXPERT_LISTS:
        return []
    return [Row(Combination(op, SWEEP_READER, (("sort", f"sort={name}"), (PROJECTION, value))), JSON_FORM)
            for name in contract.operation(op).parameter("sort").values for value in projections(op, contract)]


def is_projected(row: Row) -> bool:
    """Whether ``row`` is one of :func:`every_sort_projected`'s (an expert list's row with a projection)."""
    return row.op in EXPERT_LISTS and row.value(PROJECTION) != NONE


def without_sort(row: Row) -> Row:
    """The same read as ``row`` without its sort: what the target answers to the projection alone."""
    rest = tuple(p for p in row.combination.values if p[0] != "sort")
    return Row(Combination(row.op, row.reader, rest), row.form)
