"""A wrong password on every combination of the lists whose refusal of it is stated (issue 44, commentcross): the
rows test_wrong_password_rows.py sends, derived from the contract.

Why: a wrong password was tried on each list with one request (test_stated_forms.py: pageSize=1); a server that
checks the password on one code path and lets a sorted, projected or wrapped request through on the username alone
passes. So every must-rule of area ``auth`` that ``list_responses.not_response`` names (judged on credentials, not on
a response a valid account gets) is judged on every row of a covering array over each of its lists: whose username
the credentials name (every account the profile has) and the list's stated parameters (spec/dimensions.yaml
``lists:``), the run's seed shuffling each column. One request per row, with a password that is not the account's
(its forms rotate over the rows: empty, the right one with a colon part added, the right one cut short).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from covering import PAIRS, Combination, covering, expand
from list_responses import load as load_responses

from qaconform.contract import READER, Contract, load_contract

SIGNED_IN = ("admin", "moderator", "member", "novice")
"""Whose username the wrong credentials name: every account of the profile (anonymous names none)."""
FORMS = ("empty", "colon-part-added", "cut-short")
UNKNOWN = "unknown-user"
"""blind10 (issue 44): the reader of the rows whose credentials name a username no account has. "Missing or bad
credentials" are bad whichever part is wrong; a server that looks the user up before it verifies answers an unknown
name another way (404, no such user) than a known name with a wrong password."""
ALONE = "username-alone"
"""round81 (issue 44): the form of the rows whose Basic credentials carry the username alone, no colon and no password
(base64 of the name): credentials the server cannot split are "bad credentials" too, and a server whose header parser
fails on them answers another way (a 400 "malformed") than it answers a wrong password."""
EMAILED = "gdpr-user-email"
"""round91 (issue 44): the reader of the rows whose credentials give, as the user part, the email address of a user the
profile names ([safety] gdpr_user_email), with a password that is not that user's: "Missing or bad credentials" are bad
whatever names the user, and a server with a second login branch (by email) that checks the account but not the
password lets them in. Skipped where the profile names no email."""
STATUS_RULES = ("EXPERTS-401",)
"""blind10 (issue 44): must-rules that state the status of bad credentials on their lists ("401 | Expert lists |
Missing or bad credentials"), judged on every row of those lists here (list_responses judges them on the rows without
credentials): each row must be refused with 401 in a documented form, not merely with a 4xx."""


@dataclass(frozen=True)
class Row:
    """One request: the combination (whose username, the parameters) and the form of the wrong password."""

    CELL_FORM: ClassVar[str | None] = None
    """``form`` is the wrong password's, no dimension's value (cells.form_dimension)."""
    combination: Combination
    form: str

    @property
    def op(self) -> str:
        return self.combination.op

    @property
    def label(self) -> str:
        return f"{self.combination.label}-{self.form}-password"

    def wrong(self, password: str) -> str:
        """A password that is not ``password``, in this row's form."""
        if self.form == "empty":
            return ""
        if self.form == "colon-part-added":
            return f"{password}:qc"
        return password[:-1] if len(password) > 1 else f"{password}qc"


def credential_rules(contract: Contract | None = None) -> dict[str, tuple[str, ...]]:
    """rule -> the lists it is judged on: each must-rule of area auth in ``list_responses.not_response``, over those
    of its operations that are lists."""
    contract = contract or load_contract()
    out: dict[str, tuple[str, ...]] = {}
    for rule in load_responses(contract).not_response:
        r = contract.rules[rule]
        ops = tuple(op for op in r.operations if op in contract.dimensions.lists)
        if r.level == "must" and r.area == "auth" and ops:
            out[rule] = ops
    for rule in STATUS_RULES:  # blind10 (issue 44): bad credentials' stated status, on every row of its lists
        ops = tuple(op for op in contract.rules[rule].operations if op in contract.dimensions.lists)
        if ops:
            out[rule] = ops
    return out


def array(op: str, seed: int, strength: int = PAIRS, contract: Contract | None = None) -> list[Row]:
    """List ``op``'s covering array over whose username and its stated parameters."""
    contract = contract or load_contract()
    dims = contract.dimensions
    rng = random.Random(f"{seed}|{op}|credentials")
    names = list(dims.of_list(op))
    columns = []
    for name in names:
        if name == READER:
            values = list(SIGNED_IN)
            rng.shuffle(values)
        else:
            values = expand(op, name, dims, rng)
        columns.append(values)
    rows = []
    for n, drawn in enumerate(covering(columns, strength)):
        pairs = tuple(zip(names, drawn, strict=True))
        reader = dict(pairs)[READER]
        rows.append(Row(Combination(op, reader, tuple(p for p in pairs if p[0] != READER)), FORMS[n % len(FORMS)]))
    # blind10 (issue 44): the parameters of every third row again, under a username no account has
    # (each set of parameters once: two rows of the array may share them under two readers)
    unknown = {r.combination.values: Row(Combination(op, UNKNOWN, r.combination.values), "any")
               for r in rows[::len(FORMS)]}
    # round81 (issue 44): the parameters of every third row from the second again, under the username alone
    alone = {r.combination.values: Row(r.combination, ALONE) for r in rows[1::len(FORMS)]}
    # round91 (issue 44): the parameters of every third row from the third again, under a user's email address
    emailed = {r.combination.values: Row(Combination(op, EMAILED, r.combination.values), "any")
               for r in rows[2::len(FORMS)]}
    return rows + list(unknown.values()) + list(alone.values()) + list(emailed.values())
