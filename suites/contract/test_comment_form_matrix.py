"""Every response rule of a posted comment, on the run's shared plain comments in every stated input form by every
writer (issue 44: "a comment sent as query parameters by a novice drops a recipient": the suites catch only what
they cross).

The input form matrix (test_input_form_matrix.py) sends the refusals of a comment in every form; its successes are
the run's shared plain comments (suites/conftest.py ``comment_of``), whose input form the run's seed draws per
writer (support.comment_form: every form in every run, each by another writer, every pair over four seeds). Each
comment is one write whichever test asks, so every rule of comment_responses.py is judged on each at no write of its
own: created with 201 and a Location, listed under its answer with its text, full visibility and no recipients, the
writer as its author, the parameter's text where the body came as a parameter. One read-back per comment (novice's
view of the shared answer's comment list, within the settle window), shared by the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from cells import cell_marks
from comment_responses import RESPONSE_RULES, Posted, Row, judge, judges
from rule_assertions import assert_location_names

from qaconform import contract
from qaconform.pytest.properties.plugin import STATE
from qaconform.pytest.support import FULL_NAMED_BY, comment_form, comment_other_fields, list_all, new_id
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.contract, pytest.mark.comments, pytest.mark.writes]


def _rows(config: pytest.Config) -> list[Any]:
    """Every (rule, comment) of comment_responses.RESPONSE_RULES: each rule on every writer's shared comment, in the
    form the run's seed gives it, the rule as the row's marker."""
    seed = config.stash[STATE].seed if STATE in config.stash else 0
    writers = contract.load_contract().dimensions.values["writer"]
    cells = [Row(w, comment_form(w, seed), "stated" if w in FULL_NAMED_BY else "none") for w in writers]
    return [pytest.param(rule, row, id=f"{rule}-{row.label}", marks=[pytest.mark.rule(rule), *cell_marks(row)])
            for rule in RESPONSE_RULES for row in cells if judges(rule, row)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "row" in metafunc.fixturenames:
        metafunc.parametrize(("response_rule", "row"), _rows(metafunc.config))


@pytest.fixture(scope="module")
def listed_by_novice(novice: ApiClient) -> Callable[[int, int], dict[str, Any] | None]:
    """``listed(answer, comment)``: the comment as novice lists it under ``answer``, read once per comment (awaited
    within the settle window)."""
    seen: dict[int, dict[str, Any] | None] = {}

    def listed(answer: int, comment: int) -> dict[str, Any] | None:
        if comment not in seen:
            items = list_all(novice, contract.path("listAnswerComments", answerId=answer),
                             until=lambda got: any(str(i.get("id")) == str(comment) for i in got))
            seen[comment] = next((i for i in items if str(i.get("id")) == str(comment)), None)
        return seen[comment]

    return listed


def test_every_response_rule_of_a_comment_in_every_form_by_every_writer(
        response_rule: str, row: Row, comment_of: Callable[[str], Any], api: dict[str, ApiClient],
        profile: Profile, listed_by_novice: Callable[[int, int], dict[str, Any] | None]) -> None:
    """The writer's shared plain comment, judged for every rule of a posted comment's response and read-back
    (comment_responses.py), whichever form carried its body."""
    shared = comment_of(row.writer)
    posted = Posted(shared.resp, shared.text, shared.form, api[row.writer].username,
                    lambda new: listed_by_novice(int(shared.node), new), assert_location_names, new_id,
                    profile.visibility, profile.supports("2.16.0"),
                    comment_other_fields(row.writer, profile.visibility.full, profile.supports("2.16.0")) == "stated",
                    shared.refused)
    judge(response_rule, row, posted)
