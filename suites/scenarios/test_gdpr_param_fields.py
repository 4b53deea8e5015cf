"""Every error row of a job's array and object fields with the field given as a request parameter (fix31, issue 44:
blind round 31's reassignUser, looked up in the JSON body only).

"On POST endpoints that take a body, each body field may also be given as a request or query parameter of the same
name": test_input_form_matrix.py sends the scalar fields (type, csvFileId) in every input form and keeps the arrays
and objects in the JSON body, whose parameter form is not shown. A server that reads them from a parameter (as JSON
text, the one form a parameter can carry them in) but checks them only in the body schedules a job the Errors table
refuses. Here each row whose field is an array or an object (operations empty, unknown or five; reassignUser naming
nobody or given two ways; scheduleDate in the past) sends that field alone as a query parameter of JSON text on a
bulk job on the profile's file (Jobs.refusable), the rest in the JSON body:

- the row's 400 and message: the parameter was read and checked;
- a 2xx: the row's refusal did not hold for the parameter, read and not checked, or not read at all (the job
  scheduled without it): the row's rule and CONV-PARAM-AS-BODY-FIELD-GDPR, which the failure cannot tell apart;
- a 5xx: CONV-NO-SERVER-ERROR;
- another refusal: not judged (the text form of an array or an object as a parameter is not shown).

Writes: every request is one a conforming target refuses: no accepted write. Without [safety] destructive each
carries a guard in the JSON body as in test_gdpr_jobs.py, never the field under test.

close2 (issue 44, round86-gdpr-form-body-csv-param-ignored's kind: one field of a job in another carrier than the
rest): the scalar fields (type, csvFileId) each as a query parameter beside a FORM-ENCODED body holding the others
(the objects as JSON text, as GDPR-BULK-NO-TYPE's form row sends them), the carrier split the comment's types rows
try (suites/contract/stated_forms.py ``send``'s "split"). Every reading of such a request has type bulk and the file
id, so the one thing judged is that it is not refused for a missing field the request holds (the bulk type's missing
csvFileId, the individual type's missing user: type not read). Every reading is a refusal: dated in the past, its
operations invalid (in the form, or not read at all).

round97 (issue 44, round97-gdpr-form-operations-param-invalid's kind: an array or object field of a job as a parameter
beside a form-encoded body): the same split for operations and scheduleDate, the field as a query parameter (JSON text)
and the rest form-encoded (JSON text for the others), judged against the same job sent all form-encoded: a target that
took the field as JSON text in the form (the past date's 400, the job's one error) reads a request parameter of it, so
the split must answer the same 400. Refusals only (dated in the past); without [safety] destructive not sent (the
operations are stated ones, so the date is the only refusal).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from gdpr_jobs import (
    BULK_NO_CSV,
    NO_USER_PREFIX,
    OPERATIONS,
    OPERATIONS_INVALID,
    PAST_DATE,
    REASSIGN_AMBIGUOUS,
    REASSIGN_INVALID,
    Jobs,
    error_text,
    nobody,
    past_formatted,
    stopped_at_guard,
)

from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.gdpr, pytest.mark.refused_writes]

PARAM_ROWS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    # row: (the field sent as a parameter, its message, its rule, the guards without [safety] destructive)
    "operations-empty": ("operations", OPERATIONS_INVALID, "GDPR-OPERATIONS-INVALID", ("past", "reassign")),
    "operations-unknown": ("operations", OPERATIONS_INVALID, "GDPR-OPERATIONS-INVALID", ("past", "reassign")),
    "operations-five": ("operations", OPERATIONS_INVALID, "GDPR-OPERATIONS-INVALID", ("past", "reassign")),
    "reassign-nobody": ("reassignUser", REASSIGN_INVALID, "GDPR-REASSIGN-INVALID", ("past",)),
    "reassign-both-ways": ("reassignUser", REASSIGN_AMBIGUOUS, "GDPR-REASSIGN-AMBIGUOUS", ("past",)),
    "date-past": ("scheduleDate", PAST_DATE, "GDPR-PAST-DATE", ("reassign",)),
}
"""The Errors table's rows whose field is an array or an object ("operations | array | At least one and at most 4
elements", "reassignUser | object", "scheduleDate | object")."""


def _value(jobs: Jobs, row: str) -> Any:
    """The row's value of its field (the value the JSON-body tests of test_gdpr_forms.py send)."""
    return {
        "operations-empty": [], "operations-unknown": ["qc-not-an-operation"],
        "operations-five": [*OPERATIONS, OPERATIONS[0]], "reassign-nobody": {"username": nobody()},
        "reassign-both-ways": {"username": jobs.admin.username, "id": jobs.admin_id or 1},
        "date-past": past_formatted(),
    }[row]


@pytest.fixture(scope="module")
def jobs(admin: ApiClient, profile: Profile, user_ids: dict[str, int]) -> Jobs:
    return Jobs(admin, profile, user_ids.get("admin"))


@pytest.mark.rule("GDPR-OPERATIONS-INVALID", "GDPR-REASSIGN-INVALID", "GDPR-REASSIGN-AMBIGUOUS", "GDPR-PAST-DATE",
                  "CONV-PARAM-AS-BODY-FIELD-GDPR", "CONV-NO-SERVER-ERROR", "GDPR-ERROR-BODY")
@pytest.mark.writes
@pytest.mark.parametrize("row", list(PARAM_ROWS))
def test_every_error_row_of_an_array_or_object_field_holds_with_the_field_as_a_request_parameter(
        jobs: Jobs, row: str) -> None:
    """A refusal checked in the JSON body only lets the same field through as a parameter."""
    field, message, rule, guards = PARAM_ROWS[row]
    value = _value(jobs, row)
    body = {k: v for k, v in jobs.refusable().items() if k != field}
    resp, messages = jobs.send(body, guards, params={field: json.dumps(value)})
    error = error_text(resp)
    if resp.status == 400 and error == message:
        return
    what = f"a job whose {field} {value!r} came as a request parameter (JSON text), the rest in the JSON body"
    # the skips name the row, not its value (a username or a date drawn at random): CI compares their reasons
    # between builds; the value is the skip's detail
    stable = f"a job whose {field} (row {row}) came as a request parameter (JSON text), the rest in the JSON body"
    if resp.status == 400 and stopped_at_guard(error, messages):
        skip(SkipKind.OTHER, f"inconclusive: the target reported the guard ({error!r}) before {stable} was judged; "
                             "[safety] destructive = false forbids sending it without a guard", detail=f"sent {what}")
    if 200 <= resp.status < 300:
        fail([rule, "CONV-PARAM-AS-BODY-FIELD-GDPR"],
             f"{what} was taken ({resp.status}): 'each body field may also be given as a request or query parameter "
             f"of the same name', and in the body this job is refused with 400 {{error: {message!r}}}", resp)
    if resp.status >= 500:
        fail(["CONV-NO-SERVER-ERROR"], f"{what}: a field the target cannot read is the client's matter (a 4xx), "
                                       f"never a 5xx; got {resp.status}", resp)
    skip(SkipKind.OTHER, f"not judged: {stable} was refused with {resp.status} {error!r}, not the row's "
                         f"{message!r}; the text form of an array or an object as a parameter is not shown",
         detail=f"sent {what}")


SPLIT_SCALARS = ("type", "csvFileId")
"""close2: the job's scalar fields, each sent as a query parameter beside a form-encoded body of the rest."""


@pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD-GDPR")
@pytest.mark.writes
@pytest.mark.parametrize("name", SPLIT_SCALARS)
def test_a_scalar_job_field_as_a_parameter_beside_a_form_encoded_body_counts(
        jobs: Jobs, profile: Profile, name: str) -> None:
    """close2 (the module's docstring): ``name`` as a query parameter, the rest form-encoded; refusals only."""
    csv = profile.fixtures.gdpr_csv_file_id
    if csv is None:
        skip(SkipKind.MISSING_FIXTURE, "not checked: a bulk job split over a parameter and a form-encoded body needs "
                                       "fixture gdpr_csv_file_id", fixtures=["gdpr_csv_file_id"])
    job: dict[str, Any] = {"type": "bulk", "csvFileId": csv, "scheduleDate": past_formatted(),
                           "operations": ["qc-not-an-operation"]}
    form = {k: v if isinstance(v, str) else json.dumps(v) for k, v in job.items() if k != name}
    resp = jobs.admin.post("jobs/gdpr/schedule.json", params={name: str(job[name])}, data=form,
                           operation="scheduleGdprJob")
    error = error_text(resp)
    if resp.status == 400 and error is not None and (error == BULK_NO_CSV or error.startswith(NO_USER_PREFIX)):
        fail(["CONV-PARAM-AS-BODY-FIELD-GDPR"],
             f"a bulk job with {name} as a query parameter and the rest ({sorted(form)}) in a form-encoded body was "
             f"refused {error!r}, a field it holds taken for missing: 'each body field may also be given as a "
             "request or query parameter of the same name'", resp)


SPLIT_OBJECTS = ("operations", "scheduleDate")
"""round97: the job's array and object fields, each sent as a query parameter beside a form-encoded body of the rest."""


@pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD-GDPR", "CONV-NO-SERVER-ERROR")
@pytest.mark.writes
@pytest.mark.parametrize("name", SPLIT_OBJECTS)
def test_an_array_or_object_job_field_as_a_parameter_beside_a_form_encoded_body_counts(
        jobs: Jobs, profile: Profile, name: str) -> None:
    """round97 (the module's docstring): ``name`` as a query parameter, the rest form-encoded, against the job sent
    all form-encoded; both dated in the past, stated operations: refusals only."""
    csv = profile.fixtures.gdpr_csv_file_id
    if csv is None:
        skip(SkipKind.MISSING_FIXTURE, "not checked: a bulk job split over a parameter and a form-encoded body needs "
                                       "fixture gdpr_csv_file_id", fixtures=["gdpr_csv_file_id"])
    if not profile.safety.destructive:
        skip(SkipKind.OTHER, "not checked: the split job's one error must be its past date, so its operations are "
                             "stated ones, which [safety] destructive = false forbids sending")
    job: dict[str, Any] = {"type": "bulk", "csvFileId": csv, "scheduleDate": past_formatted(),
                           "operations": [OPERATIONS[0]]}
    text = {k: v if isinstance(v, str) else json.dumps(v) for k, v in job.items()}
    whole = jobs.admin.post("jobs/gdpr/schedule.json", data=text, operation="scheduleGdprJob")
    if whole.status != 400 or error_text(whole) != PAST_DATE:
        skip(SkipKind.OTHER, f"not judged: the job all form-encoded (its arrays and objects as JSON text) was answered "
                             f"{whole.status} {error_text(whole)!r}, not 400 {PAST_DATE!r}: the target does not show "
                             "that it reads JSON text from a request parameter")
    resp = jobs.admin.post("jobs/gdpr/schedule.json", params={name: text[name]},
                           data={k: v for k, v in text.items() if k != name}, operation="scheduleGdprJob")
    error = error_text(resp)
    if resp.status >= 500:
        fail(["CONV-NO-SERVER-ERROR"], f"a bulk job with {name} as a query parameter beside a form-encoded body: a "
                                       f"field the target cannot read is the client's matter, never a 5xx", resp)
    if resp.status != 400 or error != PAST_DATE:
        fail(["CONV-PARAM-AS-BODY-FIELD-GDPR"],
             f"a bulk job with {name} as a query parameter ({text[name]}) and the rest in a form-encoded body got "
             f"{resp.status} {error!r}, while the same job all form-encoded got 400 {PAST_DATE!r} (its one error, "
             "the past date): 'each body field may also be given as a request or query parameter of the same name'",
             resp)
