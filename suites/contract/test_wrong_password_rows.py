"""A wrong password refused on every combination of the lists whose refusal of it is stated (issue 44, commentcross).

Each list credential_rows.py derives (the expert lists: "401 | Expert lists | Missing or bad credentials"; the group
list) is called once per row of its covering array, with an account's username and a password that is not its own,
and must refuse it (401, or another 4xx), never serve it: a server that checks the password on the plain request and
lets a sorted, paged, projected or wrapped one through on the username alone is seen here. About 45 requests, no
write.
"""

from __future__ import annotations

import pytest
from covering import PAIRS, TRIPLES, thorough
from credential_rows import Row, array, credential_rules

from qaconform.contract import load_contract
from qaconform.contract import path as contract_path
from qaconform.pytest.outcomes import fail
from qaconform.pytest.refusals import why_not_refused
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

pytestmark = pytest.mark.contract


def _rows(seed: int, strength: int) -> list[tuple[Row, tuple[str, ...]]]:
    contract = load_contract()
    rules = credential_rules(contract)
    ops = sorted({op for lists in rules.values() for op in lists})
    return [(row, tuple(r for r, lists in rules.items() if op in lists))
            for op in ops for row in array(op, seed, strength, contract)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``credential_row``: every row, marked with the rules judged on it."""
    if "credential_row" not in metafunc.fixturenames:
        return
    from qaconform.pytest.properties.plugin import STATE

    seed = metafunc.config.stash[STATE].seed
    strength = TRIPLES if thorough(metafunc.config) else PAIRS
    metafunc.parametrize("credential_row", [pytest.param(row, id=row.label, marks=pytest.mark.rule(*rules))
                                            for row, rules in _rows(seed, strength)])


def test_a_wrong_password_is_refused_in_every_combination_of_the_list(
    credential_row: Row, request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
) -> None:
    """The row's list, asked with the row's parameters under an account's username and a wrong password, refuses
    it with a 4xx (the expert lists' Errors row: 401)."""
    rules = sorted({r for m in request.node.iter_markers("rule") for r in m.args})
    account = profile.accounts[credential_row.combination.reader]
    client = ApiClient(profile, "wrong_password", account.username, credential_row.wrong(account.password),
                       api["anonymous"].recorder)
    try:
        params = credential_row.combination.params({})
        resp = client.get(contract_path(credential_row.op), params=params or None, operation=credential_row.op)
    finally:
        client.close()
    if (why := why_not_refused(resp)) is not None:
        fail(rules, f"{credential_row.label}: {account.username}'s username with a wrong password "
                    f"({credential_row.form.replace('-', ' ')}) must be refused (401, or another 4xx) whatever the "
                    f"parameters; {why}", resp)
