"""Every job field and the content list's userId at their value edges inside the stated type (edges, issue 44; the
edges: suites/contract/value_edges.py, derived from spec/schemas/gdpr-job-request.json), on refusal paths only (no
accepted write).

Where the Errors table states the answer for a field (value_edges.STATED), each edge of it goes on a job whose only
error is that edge, crossed with every kind of job that may carry it (a bulk job on the profile's file, an individual
job naming [safety] gdpr_user by id, by username, by email): a server whose lookup reads an edge as absent, as a
default or as another form on one kind of job only (round89: an email as reassignUser.username on jobs naming their
user by username or id) is met without knowing which. A conforming target refuses every one; without [safety]
destructive each also carries a guard (:meth:`Jobs.send`), and the guard's answer leaves the cell inconclusive.

- type "" or blank on a bulk job: refused (a 4xx: "a bulk request without type is shown as incorrect");
- operations [""], ["  "], [another field's value]: 400 {error: The provided 'operations' is/are invalid};
- reassignUser named by "", "  ", gdpr_user's email or its id's digits as username, or the nearest unknown id:
  400 {error: The provided 'reassignUser' is/are invalid} ("reassignUser does not exist");
- scheduleDate.formatted the latest minute past in every zone: 400 {error: The desired date is in the past ...}.

The edges no row answers (the user's forms: "Exactly one of username, email, id" with no row for a user that does
not exist; type as another enum's value) go on a job dated in the past, so only a 2xx (the past date missed) or a
5xx is judged (and a 400's body, by :meth:`Jobs.send`). The username-only user form is one the description leaves
open ("Why a sample with only a username user object and type individual is labeled incorrect: not shown"): a
refusal naming no stated message on that kind is not judged.
"""

from __future__ import annotations

from typing import Any

import pytest
from gdpr_jobs import (
    INVALID_USER_ID,
    TIME_FRAME,
    Jobs,
    assert_error_body,
    error_text,
    formatted,
    future_minute,
    past_formatted,
    past_in_every_zone,
    user_form,
)
from value_edges import BLANK, Edge, job_edges, nearest_unknown_user, other_enum_value

from qaconform import contract
from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.refusals import refused, why_not_refused
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.gdpr, pytest.mark.refused_writes]

KINDS = ("bulk", "user_by_id", "user_by_username", "user_by_email")
"""The kinds of job a field at its edge rides on: a bulk job, an individual one naming gdpr_user by each form."""
ONE_KIND = {"type": ("bulk",)}
"""Fields that decide the job's kind themselves: a blank type beside the bulk job's csvFileId."""


def _stated_cases() -> list[Any]:
    return [pytest.param(e, kind, id=f"{e.label}-on-{kind}") for e in job_edges() if e.row is not None
            for kind in ONE_KIND.get(e.top, KINDS)]


def _observed_cases() -> list[Any]:
    return [pytest.param(e, id=e.label) for e in job_edges() if e.row is None]


@pytest.fixture(scope="module")
def jobs(admin: ApiClient, profile: Profile, user_ids: dict[str, int]) -> Jobs:
    return Jobs(admin, profile, user_ids.get("admin"))


@pytest.fixture(scope="module")
def unknown_user(admin: ApiClient, profile: Profile, user_ids: dict[str, int]) -> tuple[int | None, str]:
    """The nearest unknown user id (value_edges.nearest_unknown_user) above the accounts and gdpr_user."""
    known = [*user_ids.values(), *([profile.safety.gdpr_user_id] if profile.safety.gdpr_user_id else [])]
    return nearest_unknown_user(admin, known)


def edge_value(edge: Edge, jobs: Jobs, unknown: tuple[int | None, str]) -> Any:
    """The value the edge sends, or a skip naming what the run does not know."""
    if edge.edge in ("empty", "blank"):
        return "" if edge.edge == "empty" else BLANK
    if edge.edge == "other_enum":
        return other_enum_value(edge)
    if edge.edge == "past_nearest":
        return formatted(past_in_every_zone())
    if edge.edge == "nearest_unknown":
        if unknown[0] is None:
            skip(SkipKind.OTHER, f"not judged: no unknown user id near the known ones ({unknown[1]})")
        return unknown[0]
    form = edge.edge.removeprefix("as_")
    value = user_form(jobs, form)[form]  # gdpr_user by that form, or a skip naming the [safety] key
    return str(value)


def _job(jobs: Jobs, kind: str) -> dict[str, Any]:
    """A job of ``kind`` dated on a free future minute, valid but for what the caller sets."""
    body: dict[str, Any] = {"scheduleDate": {"formatted": formatted(future_minute())}, "operations": ["suspend"]}
    if kind == "bulk":
        csv = jobs.profile.fixtures.gdpr_csv_file_id
        if csv is None:
            skip(SkipKind.MISSING_FIXTURE, "not checked: a bulk job whose only error is the edge needs fixture "
                                           "gdpr_csv_file_id", fixtures=["gdpr_csv_file_id"])
        return {"type": "bulk", "csvFileId": csv, **body}
    return {"type": "individual", "user": user_form(jobs, kind.removeprefix("user_by_")), **body}


def _with_edge(body: dict[str, Any], edge: Edge, value: Any) -> dict[str, Any]:
    field, _, key = edge.field.partition(".")
    if field.endswith("[]"):
        return {**body, field[:-2]: [value]}
    if key:
        return {**body, field: {key: value}}
    return {**body, field: value}


@pytest.mark.rule("GDPR-BULK-NO-TYPE", "GDPR-OPERATIONS-INVALID", "GDPR-REASSIGN-INVALID", "GDPR-PAST-DATE",
                  "GDPR-ERROR-BODY")
@pytest.mark.writes
@pytest.mark.parametrize(("edge", "kind"), _stated_cases())
def test_a_job_field_at_an_edge_of_its_type_gets_its_stated_refusal(
        jobs: Jobs, unknown_user: tuple[int | None, str], edge: Edge, kind: str) -> None:
    row = edge.row
    assert row is not None
    value = edge_value(edge, jobs, unknown_user)
    body = _with_edge(_job(jobs, kind), edge, value)
    resp, guards = jobs.send(body, ("operations",) if edge.top == "scheduleDate" else ("past",))
    error = error_text(resp)
    what = f"a {kind.replace('_', ' ')} job whose {edge.field} is {value!r} ({edge.edge.replace('_', ' ')})"
    if row.message is None and why_not_refused(resp) is None:
        return
    if row.message is not None and resp.status == 400 and error == row.message:
        return
    if resp.status == 400 and (error in guards or error == TIME_FRAME):
        skip(SkipKind.OTHER, f"inconclusive: the target answered {error!r} (a guard or another job's time frame) "
                             f"before {edge.field} at its edge ({edge.edge})", detail=f"sent {what}")
    if kind == "user_by_username" and refused(resp) and error not in (row.message, None):
        skip(SkipKind.OTHER, f"not judged: the job names its user by username alone, a form the description leaves "
                             f"open ('labeled incorrect: not shown'), and the target refused it with {error!r}",
             detail=f"sent {what}")
    expected = f"400 {{error: {row.message!r}}}" if row.message else "a refusal (a 4xx)"
    fail([row.rule], f"{what}: the Errors table's row for {edge.top} answers it; expected {expected}, got "
                     f"{resp.status} {error!r}", resp)


@pytest.mark.rule("GDPR-PAST-DATE", "CONV-NO-SERVER-ERROR", "GDPR-ERROR-BODY")
@pytest.mark.writes
@pytest.mark.parametrize("edge", _observed_cases())
def test_a_job_field_at_an_edge_no_row_answers_is_refused_for_its_past_date(
        jobs: Jobs, unknown_user: tuple[int | None, str], edge: Edge) -> None:
    """No row of the Errors table answers these edges (a user that does not exist, a type that is another enum's
    value): the job is dated in the past, so a conforming target refuses it whatever it makes of the edge."""
    value = edge_value(edge, jobs, unknown_user)
    kind = "bulk" if edge.top == "type" else "user_by_id"
    body = {**_with_edge(_job(jobs, kind) if kind == "bulk" else _individual(), edge, value),
            "scheduleDate": past_formatted()}
    resp, _ = jobs.send(body)
    what = f"a job dated in the past whose {edge.field} is {value!r} ({edge.edge.replace('_', ' ')})"
    if resp.status >= 500:
        fail(["CONV-NO-SERVER-ERROR"], f"{what}: a client's value is the client's matter, never a 5xx; got "
                                       f"{resp.status}", resp)
    if 200 <= resp.status < 300:
        fail(["GDPR-PAST-DATE"], f"{what}: a job in the past is refused; got {resp.status}", resp)


def _individual() -> dict[str, Any]:
    return {"type": "individual", "operations": ["suspend"]}


@pytest.mark.rule("GDPR-CONTENT-422")
@pytest.mark.parametrize("edge", ["blank", "nearest_unknown"])
def test_the_content_list_of_a_user_id_at_an_edge_of_its_text_is_422(
        admin: ApiClient, unknown_user: tuple[int | None, str], edge: str) -> None:
    """"8. ... Path parameter: userId (integer). ... Error: 422 with {error: Invalid User Id}.": a blank id, and the
    nearest id no user holds (the target's own user question list says so: value_edges.nearest_unknown_user), are
    invalid user ids. Reads only."""
    if edge == "nearest_unknown" and unknown_user[0] is None:
        skip(SkipKind.OTHER, f"not judged: no unknown user id near the known ones ({unknown_user[1]})")
    user: int | str = BLANK if edge == "blank" else int(unknown_user[0] or 0)
    r = admin.get(contract.path("listUserContent", userId=user), operation="listUserContent")
    _expect_422(r, f"user id {user!r} ({edge.replace('_', ' ')}{', ' + unknown_user[1] if edge != 'blank' else ''})")


def _expect_422(r: ApiResponse, what: str) -> None:
    expect(r.status == 422, "GDPR-CONTENT-422", f"{what} names no user: expected 422 {{error: {INVALID_USER_ID}}}, "
                                                f"got {r.status}", r)
    assert_error_body(r, "GDPR-CONTENT-422")
    expect(error_text(r) == INVALID_USER_ID, "GDPR-CONTENT-422", f"the error must be exactly {INVALID_USER_ID!r}", r)
