"""What a list read answered, judged before its items are: the status a served list gives, and the envelope.

The matrices that read lists (test_matrix.py through matrix_reads.py, test_list_responses.py, test_list_access.py)
meet the same answers that leave a row nothing to judge, and say so in the same words: a 5xx blocks on
CONV-NO-SERVER-ERROR; a refused signed-in reader fails the list's permission rule, a refused anonymous one is the
site's choice (a skip); another status is a value the description does not state the list accepts (a skip); an
answer that is not the paged envelope fails PAGING-ENVELOPE, except under wrap or v1, whose effect is not shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from qaconform.contract import NONE
from qaconform.invariants import envelope_type_problems
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.target.client import ApiResponse


def served(label: str, op: str, reader: str, resp: ApiResponse, permission_rule: str) -> None:
    """Return when the row was answered 200; else the failure or skip that says why it cannot be judged."""
    if resp.status >= 500:
        fail(["CONV-NO-SERVER-ERROR"], f"{label}: the list failed with {resp.status}", resp)
    if resp.status in (401, 403):
        if reader == "anonymous":
            skip(SkipKind.OTHER, f"this site does not serve {op} to anonymous callers ({resp.status})")
        fail([permission_rule], f"{label}: {reader} may read {op}, yet it is refused", resp)
    if resp.status != 200:
        skip(SkipKind.OTHER, f"not judged: the target refused {label} with {resp.status}; the description does "
             f"not state that {op} accepts these values")


def envelope(label: str, value: Callable[[str], str], resp: ApiResponse, body: Any) -> dict[str, Any]:
    """The 200's body as the paged envelope; ``value(dimension)`` is the row's value of wrap and v1."""
    problems = envelope_type_problems(body)
    if problems:
        if value("wrap") != NONE or value("v1") != NONE:
            skip(SkipKind.OTHER, f"not judged: {label} answers another shape ({problems[0]}); the effect of wrap "
                 "and v1 is not shown")
        fail(["PAGING-ENVELOPE"], f"{label}: {'; '.join(problems)}", resp)
    return dict(body)
