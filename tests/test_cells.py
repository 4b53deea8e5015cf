"""The crossing suites' ``cell`` markers are read off the parameters they draw (suites/contract/cells.py,
crossing11, issue 44 item 1): every dimension a cell names is one of spec/dimensions.yaml and every value one the
spec gives it (``$sort``, ``$field`` filled, ``$word`` not), so qaconform.report.run_crossing can count a rule judged
on a value only where a test of the rule really held it. A parameter whose fields were renamed would mark no cell and
the run's figure would say "not run" of what ran: this fails first."""

from __future__ import annotations

import functools

import list_access
import list_responses
import list_shapes
from action_cases import Case as ActionCase
from answer_responses import Row as AnswerRow
from cells import LIST_FORM, dims_of
from comment_responses import Row as CommentRow
from input_forms import Case as FormCase

from qaconform.contract import load_contract
from qaconform.report.crossing import load_spec
from qaconform.report.run_crossing import _matches


@functools.cache
def _values() -> dict[str, tuple[str, ...]]:
    """Every value spec/dimensions.yaml gives each dimension, read once per session (ci24: read again for each
    row checked, 1,710 in the permission rows' test alone, it was nearly all of the file's time); tuples, so no test
    changes what another reads."""
    from qaconform.kit import spec_dir

    spec = load_spec(spec_dir()) or {}
    more = tuple(str(v) for v in (spec.get("list_responses") or {}).get("paging_more") or ())
    values = {str(d): tuple(str(v) for v in vs) for d, vs in (spec.get("dimensions") or {}).items()}
    values["paging"] = values["paging"] + more
    return values


def _spec_values(op: str, dims: dict[str, str]) -> None:
    values = _values()
    for dim, value in dims.items():
        assert dim in values, f"{op}: {dim} is no dimension of spec/dimensions.yaml"
        assert any(_matches(v, value) for v in values[dim]), f"{op}: {dim}={value} is no value spec/ gives {dim}"


def test_a_list_row_marks_its_list_reader_parameters_and_request_form() -> None:
    contract = load_contract()
    rows = [r for op in ("listQuestions", "listNodeFollowers", "listAnswerComments")
            for r in list_responses.array(op, 0, contract=contract)]
    assert rows
    for row in rows:
        found = dims_of(row)
        assert found is not None and found[0] == row.combination.op
        op, dims = found
        assert dims["reader"] == row.combination.reader and dims[LIST_FORM] == row.form
        assert {d for d, _ in row.combination.values} <= set(dims)
        _spec_values(op, dims)


def test_a_permission_row_marks_the_read_order_and_a_shape_row_its_shape() -> None:
    cases = list_access.cases(0)
    assert cases
    for case in cases:
        found = dims_of(case)
        assert found is not None and found[1]["order"] == case.row.order and LIST_FORM not in found[1]
        _spec_values(*found)
    section = list_shapes.load(load_contract())
    assert section.dimension == "list_shape"
    row = list_shapes.ShapeRow("listSpaces", "short", "member")
    assert dims_of(row) == ("listSpaces", {"reader": "member", "list_shape": "short"})


def test_an_action_case_and_a_write_row_mark_their_dimensions() -> None:
    case = ActionCase("lockNode", "member", "parent_author", "comment", "locked")
    assert dims_of(case) == ("lockNode", {"role": "member", "relation": "parent_author", "node_kind": "comment",
                                          "node_state": "locked"})
    form = FormCase("COMMENT-6", "postComment", "query", "stated", "novice", ("input_form",))
    assert dims_of(form) == ("postComment", {"input_form": "query", "writer": "novice", "other_fields": "stated"})
    assert dims_of(AnswerRow("moderator", "form")) == ("postAnswer", {"input_form": "form", "writer": "moderator"})
    assert dims_of(CommentRow("novice", "json")) == ("postComment", {"input_form": "json", "writer": "novice"})
    for found in (dims_of(case), dims_of(form)):
        assert found is not None
        _spec_values(*found)
    assert dims_of(object()) is None and dims_of("listQuestions") is None


def test_every_row_class_holding_a_combination_declares_its_form_and_one_that_declares_none_is_refused() -> None:
    """crossing13: a row's request form is its class's declaration (cells.FORM_DECLARATION), not a guess from its
    other fields: every row class of the crossing suites that holds a combination declares it, and a class that
    declares nothing is a TypeError naming it, never a cell without (or with a wrong) form."""
    import dataclasses
    import importlib
    from pathlib import Path

    import pytest
    from cells import FORM_DECLARATION

    from qaconform.kit import suites_dir

    found = []
    for path in sorted((Path(suites_dir()) / "contract").glob("*.py")):
        if path.name.startswith("test_") or path.name == "conftest.py":
            continue
        module = importlib.import_module(path.stem)
        for cls in vars(module).values():
            if (isinstance(cls, type) and cls.__module__ == module.__name__ and dataclasses.is_dataclass(cls)
                    and "combination" in {f.name for f in dataclasses.fields(cls)}):
                found.append(cls)
                assert FORM_DECLARATION in vars(cls), f"{cls.__qualname__} ({path.name}) declares no {FORM_DECLARATION}"
    assert {c.__qualname__ for c in found} >= {"Row"} and len(found) >= 3

    @dataclasses.dataclass(frozen=True)
    class Undeclared:
        combination: object
        form: str

    row = list_responses.array("listSpaces", 0)[0]
    with pytest.raises(TypeError, match=FORM_DECLARATION):
        dims_of(Undeclared(row.combination, "accept_json"))


def test_a_shape_row_adding_a_stated_parameter_marks_it_and_judges_only_the_rules_the_plain_row_leaves_out() -> None:
    """crossing13: the shape rows that add includeOnly, spaceId or an expert sort (list_shapes.added) carry the added
    value in their cell, and name only the rules the parameter brings (the plain row judges the rest)."""
    contract = load_contract()
    added = list_shapes.added(1, contract)
    rules = {r for _, judged in added for r in judged}
    assert rules == {"PROJ-INCLUDEONLY", "FILTER-SPACEID", "SORT-EXPERTS-VALUES"}
    for row, _ in added:
        found = dims_of(row)
        assert found is not None and found[1]["list_shape"] == row.shape and dict(row.adds).items() <= found[1].items()
        _spec_values(*found)
    sorts = {v for row, _ in added if row.op == "listActiveExperts" for _, v in row.adds}
    assert len(sorts) == len(list_shapes.shapes_of("listActiveExperts", contract, list_shapes.load(contract)))
