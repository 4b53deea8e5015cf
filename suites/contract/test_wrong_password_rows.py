"""A wrong password refused on every combination of the lists whose refusal of it is stated (issue 44, commentcross).

Each list credential_rows.py derives (the expert lists: "401 | Expert lists | Missing or bad credentials"; the group
list) is called once per row of its covering array, with an account's username and a password that is not its own,
and must refuse it (401, or another 4xx), never serve it: a server that checks the password on the plain request and
lets a sorted, paged, projected or wrapped one through on the username alone is seen here. About 45 requests, no
write.
"""

from __future__ import annotations

import uuid

import pytest
from covering import PAIRS, TRIPLES, thorough
from credential_rows import STATUS_RULES, UNKNOWN, Row, array, credential_rules

from qaconform.contract import load_contract
from qaconform.contract import path as contract_path
from qaconform.pytest.outcomes import fail
from qaconform.target.client import ApiClient, ApiResponse
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
    reader = credential_row.combination.reader
    if reader == UNKNOWN:  # blind10 (issue 44): a username no account has, with any password
        username, password, whose = f"qc-no-such-user-{uuid.uuid4().hex[:8]}", "qc-any-password", "an unknown"
    else:
        account = profile.accounts[reader]
        username, password = account.username, credential_row.wrong(account.password)
        whose = f"{username}'s"
    client = ApiClient(profile, "wrong_password", username, password, api["anonymous"].recorder)
    try:
        params = credential_row.combination.params({})
        resp = client.get(contract_path(credential_row.op), params=params or None, operation=credential_row.op)
    finally:
        client.close()
    if not 400 <= resp.status < 500:
        fail([r for r in rules if r not in STATUS_RULES] or rules,
             f"{credential_row.label}: {whose} username with a wrong password "
             f"({credential_row.form.replace('-', ' ')}) must be refused (401, or another 4xx) whatever the "
             f"parameters; got {resp.status}", resp)
    stated = [r for r in rules if r in STATUS_RULES]
    if stated and not (resp.status == 401 and _documented_401(resp)):
        fail(stated, f"{credential_row.label}: {whose} username with a wrong password is bad credentials, which the "
             "expert lists answer 401 with JSON {errors: {message}} or an HTML page titled HTTP Status 401 (Errors "
             f"table: Missing or bad credentials); got {resp.status}", resp)


def _documented_401(resp: ApiResponse) -> bool:
    """The two stated forms of the expert lists' 401: JSON {errors: {message}}, or an HTML page so titled."""
    try:
        body = resp.json()
    except Exception:  # noqa: BLE001 - the HTML page is the other stated form
        return "HTTP Status 401" in resp.text
    errors = body.get("errors") if isinstance(body, dict) else None
    return isinstance(errors, dict) and isinstance(errors.get("message"), str)
