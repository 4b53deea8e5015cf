"""round26 (issue 44): the privacy model judges the comment list's item rules on every comment of its subtree
(suites/properties/subtree_views.item_problems); each rule is named by what breaks it, and a conforming list of every
depth, its title null or absent, names none."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any


def _subtree_views() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "suites" / "properties" / "subtree_views.py"
    spec = importlib.util.spec_from_file_location("subtree_views_items_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


VIEWS = _subtree_views()
MILLIS = 1_764_480_000_000


def _comment(cid: int, parent: int, **changed: Any) -> dict[str, Any]:
    return {"id": cid, "type": "comment", "originalParentId": parent, "creationDate": MILLIS,
            "lastActiveDate": MILLIS, **changed}


def test_a_conforming_subtree_names_no_item_rule() -> None:
    author = {"id": 3, "username": "member", "reputation": 0, "realname": None}
    items = [_comment(10, 2), _comment(11, 10, title=None), _comment(12, 11, author=author)]
    assert VIEWS.item_problems(items) == {}


def test_each_item_rule_is_named_by_the_item_that_breaks_it_at_any_depth() -> None:
    cases = {
        "NODE-ORIGINAL-PARENT-ID": _comment(12, 11, originalParentId=None),
        "NODE-TITLE-ANSWERS-COMMENTS": _comment(12, 11, title="How do I reset my password?"),
        "SHAPE-DATES-MILLIS": _comment(12, 11, creationDate=MILLIS // 1000),
        "LIST-ITEM-TYPE": _comment(12, 11, type="ideacomment"),
        # recip (issue 44): a comment's author without reputation (the first read after a post)
        "SHAPE-LIST-ANSWER-COMMENTS": _comment(12, 11, author={"id": 3, "username": "member"}),
    }
    assert set(cases) == set(VIEWS.ITEM_RULES)
    for rule, broken in cases.items():
        found = VIEWS.item_problems([_comment(10, 2), _comment(11, 10), broken])
        assert set(found) == {rule}, (rule, found)
        assert "12" in "; ".join(found[rule]), f"{rule}: the message names the item: {found[rule]}"
    assert set(VIEWS.item_problems([_comment(12, 11, originalParentId="11")])) == {"NODE-ORIGINAL-PARENT-ID"}, \
        "an id as text is not the integer the field states"
    as_text = _comment(12, 11, author={"id": "3", "username": "member", "reputation": 0})
    assert set(VIEWS.item_problems([as_text])) == {"SHAPE-LIST-ANSWER-COMMENTS"}, "an author id as text"
