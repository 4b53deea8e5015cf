"""A wrong password refused on every combination of the lists whose refusal of it is stated (issue 44, commentcross).

Each list credential_rows.py derives (the expert lists: "401 | Expert lists | Missing or bad credentials"; the group
list) is called once per row of its covering array, with an account's username and a password that is not its own,
and must refuse it (401, or another 4xx), never serve it: a server that checks the password on the plain request and
lets a sorted, paged, projected or wrapped one through on the username alone is seen here. About 45 requests, no
write. round81 (issue 44): some rows send the username alone (no colon, no password), which is bad credentials too.
"""

from __future__ import annotations

import base64
import functools
import uuid

import pytest
from covering import parametrize_rows
from credential_rows import ALONE, EMAILED, STATUS_RULES, UNKNOWN, Row, array, credential_rules

from qaconform.contract import load_contract
from qaconform.contract import path as contract_path
from qaconform.pytest.exchange_log import judged_again, outside_tests
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.refusals import why_not_refused
from qaconform.target import fanout
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
    parametrize_rows(metafunc, "credential_row", _rows)


def _credentials(row: Row, profile: Profile) -> tuple[str, str, str]:
    """The row's username, password and how a message names them: an account's username with a password that is not
    its own, or (blind10, issue 44) a username no account has, with any password."""
    if row.combination.reader == UNKNOWN:
        return f"qc-no-such-user-{uuid.uuid4().hex[:8]}", "qc-any-password", "an unknown"
    if row.combination.reader == EMAILED:  # round91 (issue 44): a user's email address as the user part
        email = profile.safety.gdpr_user_email
        if email is None:
            skip(SkipKind.MISSING_FIXTURE, "not checked: credentials naming a user by email need [safety] "
                                           "gdpr_user_email", fixtures=["gdpr_user_email"])
        return email, f"qc-not-the-password-{uuid.uuid4().hex[:8]}", "a user's email address as"
    account = profile.accounts[row.combination.reader]
    return account.username, row.wrong(account.password), f"{account.username}'s"


def _read(row: Row, api: dict[str, ApiClient], profile: Profile) -> ApiResponse:
    """The row's one request: its list with its parameters, under the row's username and a wrong password."""
    username, password, _ = _credentials(row, profile)
    headers = None
    if row.form == ALONE:  # round81 (issue 44): Basic credentials of the username alone, no colon, no password
        headers = {"Authorization": "Basic " + base64.b64encode(username.encode("utf-8")).decode("ascii")}
        client = ApiClient(profile, "wrong_password", None, None, api["anonymous"].recorder)
    else:
        client = ApiClient(profile, "wrong_password", username, password, api["anonymous"].recorder)
    try:
        params = row.combination.params({})
        return client.get(contract_path(row.op), params=params or None, headers=headers, operation=row.op)
    finally:
        client.close()


def _key(row: Row) -> str:
    """A row's key among the answers read ahead: its label and reader (two rows never share both, whereas a label
    alone is only as unique as the array's rows)."""
    return f"{row.label}|{row.combination.reader}|{row.form}"


@pytest.fixture(scope="module")
def rows_read() -> dict[str, ApiResponse | None]:
    """The answers :func:`read_ahead` read, by row label (the key None: the read-ahead was made)."""
    return {}


@pytest.fixture(autouse=True)
def read_ahead(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
               rows_read: dict[str, ApiResponse | None]) -> None:
    """Every row's request before the first row, a few at once (``fanout.width``; speed3, issue 44): each answer is
    judged by its row whenever it was read (a refusal of the credential), and the module is one unit of work
    (parallel.GROUPS "wrong-password-rows") so that its 45 reads are about 9 round trips instead of 45. Each answer is
    logged again under the row that judges it."""
    if "" in rows_read:
        return
    rows_read[""] = None
    at_once = fanout.width(profile)
    if at_once <= 1:
        return
    rows = [item.callspec.params["credential_row"] for item in request.session.items  # type: ignore[attr-defined]
            if getattr(item, "module", None) is request.module and "credential_row" in getattr(
                getattr(item, "callspec", None), "params", {})]
    if profile.safety.gdpr_user_email is None:  # round91: those rows skip, each on its own
        rows = [row for row in rows if row.combination.reader != EMAILED]
    try:
        with outside_tests():
            got = fanout.settled([functools.partial(_read, row, api, profile) for row in rows], at_once)
    except (Exception, pytest.fail.Exception, pytest.skip.Exception):  # noqa: BLE001 - a head start only
        return  # each row sends its own request
    rows_read.update((_key(row), resp) for row, resp in zip(rows, got, strict=True) if isinstance(resp, ApiResponse))


def test_a_wrong_password_is_refused_in_every_combination_of_the_list(
    credential_row: Row, request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
    rows_read: dict[str, ApiResponse | None],
) -> None:
    """The row's list, asked with the row's parameters under an account's username and a wrong password, refuses
    it with a 4xx (the expert lists' Errors row: 401)."""
    rules = sorted({r for m in request.node.iter_markers("rule") for r in m.args})
    whose = _credentials(credential_row, profile)[2]
    resp = rows_read.pop(_key(credential_row), None)
    if resp is None:
        resp = _read(credential_row, api, profile)
    else:
        judged_again(resp.exchange)
    if (why := why_not_refused(resp)) is not None:
        fail([r for r in rules if r not in STATUS_RULES] or rules,
             f"{credential_row.label}: {whose} username with a wrong password "
             f"({credential_row.form.replace('-', ' ')}) must be refused (401, or another 4xx) whatever the "
             f"parameters; {why}", resp)
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
