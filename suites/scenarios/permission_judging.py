"""How a permission cell's answer is judged (test_permissions.py holds the tests; permission_calls.py how each line is
called; permission_matrix.py the table): the statuses that count as a denial, the rules a wrong one breaks, the
denial's body, and an allowed call's status.
"""

from __future__ import annotations

import re
from typing import Any

from permission_calls import DENIED_BODY, DENIED_STATUS, NO_EFFECT, Attempt, redirected_off_the_interface
from permission_matrix import WRONG_PASSWORD_RULES, Cell, Row

from qaconform.pytest.outcomes import expect
from qaconform.pytest.support import refused_in_body
from qaconform.target.client import ApiResponse

# A test that names several rules fails in the report only for the rules its failure names (ARCHITECTURE.md): each
# failure is a RuleFailure carrying the rules its check concerns (NO_EFFECT, DENIED_BODY, DENIED_STATUS and the
# cell's rules), derived from the cell's rules where a cell is judged.

_TITLE = re.compile(r"<title>\s*(.*?)\s*</title>", re.IGNORECASE | re.DOTALL)
EXPERT_401_TITLE = "HTTP Status 401"


def body_kind(resp: ApiResponse) -> str:
    if not resp.content.strip():
        return "empty"
    try:
        body = resp.json()
    except AssertionError:
        title = _TITLE.search(resp.text)
        return f"not JSON ({resp.content_type or 'no Content-Type'}" + (f", title {title.group(1)!r})"
                                                                        if title else ")")
    if isinstance(body, dict):
        return "object with " + ",".join(sorted(body)[:8])
    return type(body).__name__


def json_or_none(resp: ApiResponse) -> Any:
    try:
        return resp.json()
    except AssertionError:
        return None


def expert_401_form_problems(resp: ApiResponse, contract: Any) -> list[str]:
    """The two documented forms of the expert lists' 401: JSON {errors: {message}} or an HTML page so titled."""
    try:
        body = resp.json()
    except AssertionError:
        title = _TITLE.search(resp.text)
        if title and title.group(1).startswith(EXPERT_401_TITLE):
            return []
        return [f"the 401 body is neither JSON {{errors: {{message}}}} nor an HTML page titled "
                f"'{EXPERT_401_TITLE} - Bad credentials' (title: {title.group(1) if title else 'none'!r})"]
    return [f"the 401 JSON body is not {{errors: {{message}}}}: {p}" for p in contract.validate("errors", body)]


def denial_statuses(row: Row, caller: str) -> tuple[int, ...] | None:
    """Statuses that count as this caller's denial; None means any 4xx (a wrong password, AUTH-BAD-CREDENTIALS)."""
    if row.denied_status == (401,):
        return (401,)
    if caller == "wrong_password":
        return None
    if caller == "anonymous":
        return (401, 403)
    return row.denied_status


def denial_rules(cell: Cell) -> list[str]:
    """The rules the refusal itself of a denied cell concerns: the cell's rules but the no-effect and body ones."""
    return [r for r in cell.rules if r not in (NO_EFFECT, DENIED_BODY)] or list(cell.rules)


def denial_status_rules(cell: Cell, status: int, in_body: bool = False) -> list[str]:
    """The rules a wrong status of a denied cell breaks, among the cell's rules.

    - wrong_password: not refused with a 4xx breaks AUTH-BAD-CREDENTIALS (any 4xx refuses a wrong password); a 4xx
      other than the 401 the line fixes breaks the line's own rule (EXPERTS-401);
    - others: a 2xx or another 4xx means the permission was not applied (the line's rules, AUTH-ANONYMOUS-WRITES, the
      comment rule 7 ids, whatever the cell names); anything else (a 5xx) is a denial in the wrong form,
      PERM-DENIED-STATUS where the cell names it (a denial is a 4xx, never 2xx or 5xx); so is a 2xx whose body says
      nothing happened (``in_body``: success false, support.refused_in_body).
    """
    rules = denial_rules(cell)
    refused = 400 <= status < 500
    if cell.caller == "wrong_password":
        named = [r for r in rules if (r in cell.row.deny_rules if refused else r in WRONG_PASSWORD_RULES)]
        return named or rules
    if (200 <= status < 300 and not in_body) or refused:
        return [r for r in rules if r != DENIED_STATUS] or rules
    return [DENIED_STATUS] if DENIED_STATUS in rules else rules


def allowed_rules(cell: Cell) -> list[str]:
    """The rules an allowed (or own-node) call of a cell concerns: the cell's rules but those of the denial."""
    return [r for r in cell.rules if r not in (NO_EFFECT, DENIED_BODY, DENIED_STATUS)] or list(cell.rules)


STATE_REFUSALS = (400, 404, 409, 422)
"""A refusal for the node's state (not a favorite of the caller, not wiki). The description does not order the state
and the permission checks, so where the caller cannot meet the state precondition, such a 4xx is a refusal too."""


def assert_denied(cell: Cell, attempt: Attempt, contract: Any, where: str = "") -> None:
    """The denial of ``cell`` (``where``: on which other node the call was made, for the message)."""
    resp, row = attempt.resp, cell.row
    expect(not redirected_off_the_interface(resp), [DENIED_STATUS] if DENIED_STATUS in cell.rules else
           denial_rules(cell), f"{cell.id}{where}: the table denies this; the target answered with a redirect away "
           f"from the interface (the answer came from {resp.url}), not with the operation's own 4xx", resp)
    expected = denial_statuses(row, cell.caller)
    if expected is not None and attempt.state_unmet and resp.status in STATE_REFUSALS:
        expected = (*expected, resp.status)
    if expected is None:
        ok = 400 <= resp.status < 500
        wanted = "a 4xx (401 expected)"
    else:
        ok = resp.status in expected
        wanted = " or ".join(map(str, expected))
    expect(ok, denial_status_rules(cell, resp.status, refused_in_body(resp)),
           f"{cell.id}{where}: the table denies this; expected {wanted}, got {resp.status}", resp)
    logged_in = cell.caller not in ("anonymous", "wrong_password")
    if row.operation == "listGroups" and resp.status in (401, 403) and logged_in:
        problems = contract.validate("errors", resp.json())
        expect(not problems, DENIED_BODY,
               f"{cell.id}{where}: a denied group list carries JSON {{errors: {{message}}}}; {problems}", resp)
    elif row.denied_status != (401,):
        # Elsewhere the description shows no denial body; when the target uses the documented errors object, it
        # must be the documented shape (a body of another form is recorded by OBS-PERM-DENIED-BODIES).
        body = json_or_none(resp)
        if isinstance(body, dict) and "errors" in body:
            problems = contract.validate("errors", body)
            expect(not problems, denial_rules(cell),
                   f"{cell.id}{where}: the denial's errors object is malformed; {problems}", resp)
    if row.denied_status == (401,):
        problems = expert_401_form_problems(resp, contract)
        form_rules = [r for r in cell.rules if r in row.deny_rules] or denial_rules(cell)  # EXPERTS-401
        expect(not problems, form_rules, f"{cell.id}{where}: {'; '.join(problems)}", resp)
    if attempt.no_effect is not None:
        attempt.no_effect()


def assert_allowed(cell: Cell, resp: ApiResponse, precondition: bool) -> None:
    rules = allowed_rules(cell)
    expect(resp.status not in (401, 403), rules,
           f"{cell.id}: the table allows this; got {resp.status}, a permission refusal", resp)
    if precondition:
        expect(resp.status < 500, rules, f"{cell.id}: allowed, but the target failed with {resp.status}", resp)
    else:
        expect(200 <= resp.status < 300, rules,
               f"{cell.id}: allowed and without a state precondition, so a 2xx is expected", resp)
