"""A field given as JSON null where its absence is a stated refusal (fix24, issue 44).

The description states three refusals of a job request by a missing field: "Required: a bulk request without type
is shown as incorrect", "type individual without user" and "type bulk without csvFileId" (400 with their messages).
test_input_form_matrix.py leaves the field out in every input form; a null-coalescing reader that reads
``"type": null`` as "infer the kind from the other fields" (blind round 24: a job scheduled, 201) passed every row.
Here each of those fields is sent once as an explicit JSON null beside the fields its row of the input form matrix
sends (JSON body, the stated field beside it), and must be refused (a 4xx: null is no value of a string, an object
or an integer, and read as absent it is the stated refusal; which message is not judged, since null may read as
either). One refused request per field, admin's; no accepted write on a conforming target (a target that schedules
the job fails the field's rule). A target that answers a guard of [safety] destructive = false first is not judged
(a skip naming it), as in the matrix.
"""

from __future__ import annotations

from typing import Any

import pytest
from input_forms import JSON, STATED, Case
from job_requests import build_job, error_of, job_guards, typeless_job

from qaconform import contract
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.refusals import why_not_refused
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.contract, pytest.mark.writes, pytest.mark.refused_writes, pytest.mark.gdpr]

ABSENT_REFUSALS = {"GDPR-BULK-NO-TYPE": "type", "GDPR-INDIVIDUAL-NO-USER": "user", "GDPR-BULK-NO-CSV": "csvFileId"}
"""The rules whose stated refusal is a missing job field -> that field."""


def _job(case: Case, profile: Profile, admin: ApiClient, admin_id: int | None) -> tuple[dict[str, Any], set[str]]:
    """The JSON body of the rule's row (JSON form, the stated field beside) with the field null, and the guards'
    messages."""
    if case.rule == "GDPR-BULK-NO-TYPE":
        fields, rest = typeless_job(case, profile)
    else:
        fields, rest, _, _, _ = build_job(case, profile, (admin.username or "admin", admin_id or 1))
    guards = job_guards(case, profile, admin, admin_id, rest)
    return {**rest, **fields, ABSENT_REFUSALS[case.rule]: None}, guards


@pytest.mark.parametrize("rule", [pytest.param(r, id=r, marks=pytest.mark.rule(r)) for r in ABSENT_REFUSALS])
def test_a_job_field_whose_absence_is_refused_is_refused_as_null(
        rule: str, admin: ApiClient, profile: Profile, user_ids: dict[str, int]) -> None:
    """The field JSON null, the rest as the input form matrix's JSON row: refused (a 4xx), nothing scheduled."""
    case = Case(rule, "scheduleGdprJob", JSON, STATED, "admin", ())
    body, guards = _job(case, profile, admin, user_ids.get("admin"))
    resp = admin.post(contract.path("scheduleGdprJob"), json=body, operation="scheduleGdprJob")
    if resp.status == 400 and error_of(resp) in guards:
        skip(SkipKind.OTHER, f"inconclusive: {rule}: the target reported the guard ({error_of(resp)!r}) before the "
                             f"null {ABSENT_REFUSALS[rule]} ([safety] destructive = false)")
    if (why := why_not_refused(resp)) is not None:
        fail([rule], f"{rule}: a job with {ABSENT_REFUSALS[rule]} null (JSON body, {sorted(body)}): the field is "
                     f"required, and null is no value of it, so the request is refused (a 4xx); {why}", resp)
