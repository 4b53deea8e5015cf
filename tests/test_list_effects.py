"""suites/contract/list_effects.py: every query parameter of every list has a decided effect check (a must-rule
where a sentence gives it a meaning, an observed rule where the description is silent), the effects judged in the
matrix are declared crossed in spec/dimensions.yaml, and the order and space checks judge what they say."""

from __future__ import annotations

import pytest
from list_effects import PARAMETER_EFFECTS, met_twice, order_break, outside_space, parameter_effect
from listops import LIST_OPS

from qaconform.contract import load_contract


def test_every_query_parameter_of_every_list_has_a_decided_effect() -> None:
    contract = load_contract()
    for op in LIST_OPS:
        for p in contract.operation(op).parameters:
            if p.location != "query":
                continue
            effect = parameter_effect(op, p.name)
            assert effect is not None, f"{op}: query parameter {p.name} has no effect check decided (list_effects.py)"
            rule = contract.rule(effect.rule)
            assert op in rule.operations or not effect.stated, f"{effect.rule} does not name {op}"
            assert (rule.level == "must") == effect.stated, (
                f"{op} {p.name}: {effect.rule} is {rule.level}, yet the effect is {'' if effect.stated else 'not '}"
                "stated")


def test_every_effect_judged_in_the_matrix_is_crossed_over_its_lists() -> None:
    contract = load_contract()
    dims = contract.dimensions
    for op in LIST_OPS:
        for p in contract.operation(op).parameters:
            effect = parameter_effect(op, p.name) if p.location == "query" else None
            if effect is None or not effect.matrix:
                continue
            assert effect.rule in dims.rules, f"{effect.rule} is not declared under rules: of spec/dimensions.yaml"
            assert op in dims.rules[effect.rule].lists, f"{effect.rule} is not crossed over {op}"


def test_the_table_names_only_rules_that_exist() -> None:
    rules = load_contract().rules
    assert {e.rule for e in PARAMETER_EFFECTS.values()} <= set(rules)


def _users(*rows: tuple[int, str, str | None, int, int]) -> list[dict[str, object]]:
    return [{"id": i, "username": u, "realname": r, "reputation": rep, "creationDate": d,
             "modificationDate": d + 1} for i, u, r, rep, d in rows]


USERS = _users((2, "moderator", "Moe Moderator", 2500, 100), (3, "member", "Mia Member", 800, 200),
               (10, "user10", None, 29, 300))
"""By reputation, highest first (the reference's default)."""


@pytest.mark.parametrize("sort", ["reputation", "recent", "oldest", "username", "realname"])
def test_an_order_by_the_key_holds_in_either_allowed_direction(sort: str) -> None:
    key = {"reputation": "reputation", "recent": "creationDate", "oldest": "creationDate", "username": "username",
           "realname": "realname"}[sort]
    ranked = sorted(USERS, key=lambda u: (u[key] is None, u[key]), reverse=sort == "recent")  # type: ignore[index]
    assert order_break(sort, ranked) is None
    if sort in ("reputation", "username", "realname"):
        assert order_break(sort, list(reversed(ranked))) is None, "no direction is stated: either holds"


def test_an_echo_of_the_sort_in_the_default_order_breaks_it() -> None:
    assert order_break("username", USERS) is not None
    assert order_break("recent", USERS) is not None


def test_oldest_newest_first_breaks_it_and_either_date_may_be_the_key() -> None:
    assert order_break("oldest", list(reversed(USERS))) is not None
    by_modification = [dict(u, creationDate=0) for u in USERS]
    assert order_break("oldest", by_modification) is None


def test_users_without_the_key_are_not_ranked_and_two_are_needed() -> None:
    assert order_break("realname", [*USERS[:1], {"id": 9, "realname": ""}, *USERS[1:2]]) is None
    assert order_break("username", USERS[:1]) is None


def test_an_item_is_placed_by_its_containers_or_by_the_index() -> None:
    items = [{"id": 1, "primaryContainerId": 2, "containerIds": [1, 2]}, {"id": 5, "title": "x"}, {"id": 6}]
    assert outside_space(items, "2", {"5": {"2"}, "6": {"3"}}) == [(6, ["3"])]
    assert outside_space(items, "1", {}) == []


def _pages(*pages: list[tuple[int, str]], total: int = 3) -> list[tuple[int, dict[str, object]]]:
    return [(n, {"totalCount": total, "list": [{"id": i, "username": u, "realname": u} for i, u in page]})
            for n, page in enumerate(pages, 1)]


def test_a_user_met_on_two_pages_of_a_still_key_walk_is_no_order() -> None:
    """round70: page 2 ordered by another key repeats a user while the usernames read still climb."""
    walk = _pages([(3, "member")], [(3, "member")], [(10, "user10")])
    assert order_break("username", [i for _, b in walk for i in b["list"]]) is None  # type: ignore[attr-defined]
    assert met_twice("username", walk) is not None
    assert met_twice("realname", walk) is not None


def test_a_repeat_is_not_judged_on_a_moving_key_a_changed_count_or_a_tie() -> None:
    walk = _pages([(3, "member")], [(3, "member")])
    assert met_twice("reputation", walk) is None, "reputation moves with the run's own writes"
    assert met_twice("username", [walk[0], (2, dict(walk[1][1], totalCount=4))]) is None, "a user came or went"
    tied = _pages([(3, "same"), (4, "same")], [(3, "same")])
    assert met_twice("realname", tied) is None, "a tie the description does not order may move between reads"
    assert met_twice("username", _pages([(3, "member")], [(4, "moderator")])) is None
