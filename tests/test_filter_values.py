"""Filter values drawn from the list's own items, and the read-backs by every account a write names (reads16, issue
44 items 1 and 2: suites/contract/filter_values.py, qaconform/pytest/named_reads.py), on made-up responses."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import filter_values
import pytest
from covering import Combination

from qaconform.pytest import named_reads
from qaconform.pytest.outcomes import RuleFailure


class _Resp:
    def __init__(self, status: int, body: Any) -> None:
        self.status, self._body = status, body

    def json(self) -> Any:
        return self._body


PROFILE = SimpleNamespace(fixtures=SimpleNamespace(space_id=1), visibility=SimpleNamespace(readers=["admin"]))


def test_the_space_is_the_one_the_unfiltered_unprojected_first_page_shows_most_questions_of() -> None:
    asked: list[dict[str, str]] = []

    def fetch(reader: str, path: str, **params: str) -> _Resp:
        asked.append(params)
        return _Resp(200, {"list": [{"id": 7, "primaryContainerId": 3}, {"id": 8, "primaryContainerId": 3},
                                    {"id": 9, "primaryContainerId": 2}]})

    c = Combination("listQuestions", "novice", (("search", "q=$word"), ("projection", "include=title"),
                                                 ("paging", "page=2&pageSize=2")))
    space, shown = filter_values.drawn_space(fetch, c, {"listQuestions": "question.json"}, {"$word": "backup"},
                                             PROFILE)  # type: ignore[arg-type]
    assert (space, shown) == ("3", ["7", "8"])
    assert asked == [{"q": "backup", "pageSize": "2"}]  # no projection, no page, no spaceId


def test_an_empty_unfiltered_read_keeps_the_profiles_space_and_judges_no_loss() -> None:
    c = Combination("listQuestions", "novice", ())
    space, shown = filter_values.drawn_space(lambda *a, **k: _Resp(403, {}), c, {"listQuestions": "q.json"}, {},
                                             PROFILE)  # type: ignore[arg-type]
    assert (space, shown) == ("1", [])
    filter_values.judge_lost({"totalCount": 0, "list": []}, None, space, shown, "row")  # type: ignore[arg-type]


def test_a_filtered_read_that_loses_every_question_the_unfiltered_one_showed_of_the_space_fails() -> None:
    with pytest.raises(RuleFailure, match="FILTER-SPACEID"):
        filter_values.judge_lost({"totalCount": 0, "list": [], "page": 2}, None, "3", ["7"], "row")  # type: ignore
    filter_values.judge_lost({"totalCount": 4, "list": [], "page": 2}, None, "3", ["7"], "row")  # type: ignore


def test_the_accounts_a_write_names_and_the_one_it_does_not() -> None:
    ids = {"admin": 1, "moderator": 2, "member": 3, "novice": 4}
    assert named_reads.roles_of(ids, ["4", 2, 99]) == ["novice", "moderator"]
    api = dict.fromkeys(ids)
    assert named_reads.outsider(api, PROFILE, "member", ["moderator"]) == "novice"
    assert named_reads.outsider(api, PROFILE, "member", ["novice", "moderator"]) is None  # admin reads every one
