"""The body of every 400 of the job endpoint, for input the Errors table does not list (round32, issue 44: a type
that is neither bulk nor individual was refused with {errors: {message}} and no test sent one).

"Errors: 400 with {error: <message>}; see Errors." names no condition: it holds for a refusal the table words as for
one it does not. test_gdpr_jobs.py sends each row of the table, and :meth:`Jobs.send` judges every 400 it meets
(blind12); here each field of a job gets a value outside what its row of the field table states (type not one of
bulk or individual, or not a string; scheduleDate neither form, or not an object; operations not an array; user and
reassignUser not objects), the one kind of input a second validator (an enum binding, a date parser, a schema
check) refuses in a body of its own. types (issue 44): every field is also sent once in each JSON type its schema
does not state (other_types.py, derived from spec/schemas/gdpr-job-request.json: 30 requests), since one
hand-picked number per field let a converter's body for a string (round83: operations) through.

Each request also carries one error the table states, so that no server that follows the description can schedule
it (the guard: reassignUser given two ways, or a date in the past where reassignUser is the field under test),
whatever [safety] destructive says: the unlisted value's refusal is not stated (its status, its order among the
checks), the guard's is.

- a 400: its body must be {error: <string>} (GDPR-ERROR-BODY, judged by :meth:`Jobs.send`);
- a 2xx: the guard's stated 400 did not hold (its rule);
- another 4xx: a refusal whose status the description does not give (not judged further).
"""

from __future__ import annotations

from typing import Any

import pytest
from gdpr_jobs import Jobs, past_formatted
from other_types import other_types, value_of

from qaconform.pytest.outcomes import fail
from qaconform.pytest.refusals import why_not_refused
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.gdpr, pytest.mark.refused_writes]

UNLISTED: dict[str, tuple[str, Any, str]] = {
    # case: (the field, its unlisted value, the guard)
    "type-unknown-name": ("type", "qc-not-a-type", "reassign"),
    "date-neither-form": ("scheduleDate", {"qcWhen": "tomorrow"}, "reassign"),
    "date-formatted-unreadable": ("scheduleDate", {"formatted": "2031-12-01T10:00"}, "reassign"),
    "date-not-an-object": ("scheduleDate", "12/01/2031 10:00", "reassign"),
    **{f"{field}-as-{kind}": (field, value_of(kind, field), "past" if field == "reassignUser" else "reassign")
       for field, kind in other_types("gdpr-job-request.json", skip_fields=("scheduleTime",))},
}
"""Values outside each field's stated values (the field table of operation 2), and each field in every other JSON
type (scheduleTime, the sample shape's alias, has no type of its own in the description)."""

GUARD_RULE = {"reassign": "GDPR-REASSIGN-AMBIGUOUS", "past": "GDPR-PAST-DATE"}


@pytest.fixture(scope="module")
def jobs(admin: ApiClient, profile: Profile, user_ids: dict[str, int]) -> Jobs:
    return Jobs(admin, profile, user_ids.get("admin"))


@pytest.mark.rule("GDPR-ERROR-BODY", "GDPR-REASSIGN-AMBIGUOUS", "GDPR-PAST-DATE")
@pytest.mark.writes
@pytest.mark.parametrize("case", list(UNLISTED))
def test_a_job_refused_for_a_value_the_errors_table_does_not_list_has_the_error_body(jobs: Jobs, case: str) -> None:
    field, value, guard = UNLISTED[case]
    base = jobs.individual() if field == "user" else jobs.refusable()
    body = {**base, field: value}
    if guard == "reassign":
        body["reassignUser"] = {"username": jobs.admin.username, "id": jobs.admin_id or 1}
    else:
        body["scheduleDate"] = past_formatted()
    resp, _ = jobs.send(body)  # a 400: its body judged there (GDPR-ERROR-BODY)
    if (why := why_not_refused(resp)) is not None:
        fail([GUARD_RULE[guard]], f"a job with {field} {value!r} and, as a guard, "
             f"{'reassignUser given two ways' if guard == 'reassign' else 'a date in the past'} must be refused "
             f"(the Errors table's 400 for the guard); {why}", resp)
