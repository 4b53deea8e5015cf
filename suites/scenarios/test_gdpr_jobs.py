"""Data-protection jobs (operation 2) and a user's content list (operation 8).

Every error row of the description's Errors table for the job endpoint is a test with its exact message (the
individual-without-user message is given only as a prefix). A successful job cannot be undone, so:

- tests that must schedule a job are marked ``destructive`` (they run only when the profile's [safety] destructive
  is true), name only [safety] gdpr_user, and share at most three jobs per run (see "successful jobs"), dated years
  ahead (one within a day with [safety] gdpr_near_edge) on time frames drawn from the run tag, so that runs one
  after the other or at once do not meet each other's frames;
- every error-path request is built so that it cannot harm anyone: it names no user (or only gdpr_user, or a user
  that does not exist) and, when the profile forbids destructive operations, it also carries a *guard*: a second
  documented error (a date in the past, a reassignUser given two ways) so that even a server that ignored the error
  under test could not schedule it. When the target reports the guard instead of the error under test, the test
  cannot judge the rule and says so (skip with the reason); with destructive = true no guard is added.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from gdpr_jobs import (
    BULK_NO_CSV,
    CSV_MISSING,
    INVALID_USER_ID,
    MAIN_FORMS,
    MAIN_USER_FORM,
    NO_USER_PREFIX,
    OPERATIONS,
    OPERATIONS_INVALID,
    PAST_DATE,
    REASSIGN_AMBIGUOUS,
    REASSIGN_INVALID,
    TIME_FRAME,
    Jobs,
    Rules,
    Scheduled,
    ahead_in_every_zone,
    assert_error_body,
    blame_form,
    content_schema_rules,
    csv_param_rule,
    error_text,
    formatted,
    frame_note,
    job_refusal_rules,
    json_or_text,
    missing_csv_id,
    nobody,
    param_or_bulk_rule,
    past_formatted,
    past_in_every_zone,
    refused_job,
    require_destructive,
    rng,
    schedule_in_a_free_frame,
    stopped_at_guard,
    subsets,
    time_frame_or_job_rule,
    unknown_id,
    user_form,
)
from taken_frames import (
    frame_is_taken_in_every_stated_form,
    frame_is_taken_whatever_form_names_the_user,
    skip_when_near_frames_are_held,
)

from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.refusals import refused as refused_by_service
from qaconform.pytest.refusals import why_not_refused
from qaconform.pytest.time_frames import Frames
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.gdpr]


@pytest.fixture(scope="module")
def jobs(admin: ApiClient, profile: Profile, user_ids: dict[str, int]) -> Jobs:
    return Jobs(admin, profile, user_ids.get("admin"))


# ------------------------------------------------------------------------------------------------ error rows
# The refusals below are writes too (marked so): a server that does not refuse one of these POSTs schedules a job.


@pytest.mark.rule("GDPR-INDIVIDUAL-NO-USER", "GDPR-ERROR-BODY")
@pytest.mark.writes
def test_an_individual_job_without_user_is_refused_with_the_missing_user_message(jobs: Jobs) -> None:
    jobs.expect_error(jobs.individual(user=None), NO_USER_PREFIX, ("past", "reassign"), prefix=True,
                      rule="GDPR-INDIVIDUAL-NO-USER")


@pytest.mark.rule("GDPR-BULK-NO-CSV", "GDPR-ERROR-BODY")
@pytest.mark.writes
def test_a_bulk_job_without_csv_file_id_is_refused_with_the_missing_csv_message(jobs: Jobs) -> None:
    jobs.expect_error(jobs.individual(type="bulk", user=None), BULK_NO_CSV, ("past", "reassign"),
                      rule="GDPR-BULK-NO-CSV")


@pytest.mark.rule("GDPR-CSV-MISSING", "GDPR-ERROR-BODY")
@pytest.mark.writes
def test_a_bulk_job_naming_a_file_that_does_not_exist_is_refused(jobs: Jobs, profile: Profile) -> None:
    body = jobs.individual(type="bulk", user=None, csvFileId=missing_csv_id(profile))
    jobs.expect_error(body, CSV_MISSING, ("past", "reassign"), rule="GDPR-CSV-MISSING")


@pytest.mark.rule("GDPR-PAST-DATE", "GDPR-ERROR-BODY")
@pytest.mark.parametrize("days_ago", [3, 3650], ids=["three-days-ago", "ten-years-ago"])
@pytest.mark.writes
def test_a_job_dated_in_the_past_is_refused(jobs: Jobs, days_ago: int) -> None:
    past = datetime.now(UTC) - timedelta(days=days_ago)
    # A bulk job on the profile's file (or, without it, a job for a user that does not exist) with reassignUser
    # given two ways as the guard: a server that missed the date would still refuse the request.
    jobs.expect_error(jobs.refusable(scheduleDate={"formatted": formatted(past)}), PAST_DATE, ("reassign",),
                      rule="GDPR-PAST-DATE")


@pytest.mark.rule("GDPR-OPERATIONS-INVALID", "GDPR-ERROR-BODY")
@pytest.mark.parametrize("operations", [
    pytest.param([], id="empty"),
    pytest.param(["suspend", "anonymize", "delete", "anon-delete", "suspend"], id="five-elements"),
    pytest.param(["qc-not-an-operation"], id="unknown-value"),
    # blind5 (issue 44): "at most 4 elements, from suspend, anonymize, delete, anon-delete" holds for every element,
    # so an unknown name is tried at each place of a full list (a check that loops over fewer places lets it in)
    *[pytest.param([*OPERATIONS[:place], "qc-not-an-operation", *OPERATIONS[place + 1:]],
                   id=f"unknown-value-at-place-{place + 1}-of-4") for place in range(4)],
    # round79 (issue 44): "array of string": elements of another JSON type (an enum reader takes numbers as ordinals)
    pytest.param([0, 1], id="numbers-not-names"),
])
@pytest.mark.writes
def test_an_empty_or_invalid_operations_list_is_refused(jobs: Jobs, operations: list[str]) -> None:
    jobs.expect_error(jobs.refusable(operations=operations), OPERATIONS_INVALID, ("past", "reassign"),
                      rule="GDPR-OPERATIONS-INVALID")


@pytest.mark.rule("GDPR-REASSIGN-AMBIGUOUS", "GDPR-ERROR-BODY")
@pytest.mark.writes
def test_a_reassign_user_identified_in_more_than_one_way_is_refused(jobs: Jobs) -> None:
    body = jobs.refusable(reassignUser={"username": jobs.admin.username, "id": jobs.admin_id or 1})
    jobs.expect_error(body, REASSIGN_AMBIGUOUS, ("past",), rule="GDPR-REASSIGN-AMBIGUOUS")


@pytest.mark.rule("GDPR-REASSIGN-INVALID", "GDPR-ERROR-BODY")
@pytest.mark.writes
@pytest.mark.parametrize("form", [pytest.param(lambda name: {"username": name}, id="by-username"),
                                  pytest.param(unknown_id, id="by-id")])
def test_a_reassign_user_that_does_not_exist_is_refused(jobs: Jobs, form: Callable[[str], dict[str, Any]]) -> None:
    """Both ways the description gives to identify reassignUser (exactly one of username or id)."""
    jobs.expect_error(jobs.refusable(reassignUser=form(nobody())), REASSIGN_INVALID, ("past",),
                      rule="GDPR-REASSIGN-INVALID")


@pytest.mark.rule("GDPR-ERROR-BODY", "GDPR-BULK-NO-TYPE")
@pytest.mark.writes
def test_a_job_request_without_type_is_refused(jobs: Jobs) -> None:
    resp, guard_messages = jobs.send(jobs.individual(type=None), ("past", "reassign"))
    error = error_text(resp)
    if resp.status == 400 and stopped_at_guard(error, guard_messages):
        skip(SkipKind.OTHER, f"inconclusive: the target reported the guard ({error!r}) before the missing type")
    # "Required: a bulk request without type is shown as incorrect": a refusal (no status given), the service's own
    # (refusals.py: a redirect to a login page ends in that page's 4xx, which is no refusal of the job request)
    if (why := why_not_refused(resp)) is not None:
        fail(["GDPR-BULK-NO-TYPE"], f"type is required: a job request without it must be refused (4xx); {why}", resp)


@pytest.mark.rule("GDPR-ERROR-BODY", "CONV-PARAM-AS-BODY-FIELD-GDPR", "GDPR-BULK-NO-CSV")
@pytest.mark.writes
def test_a_job_field_given_as_a_query_parameter_counts(jobs: Jobs) -> None:
    """?type=bulk with a body that has no type and no csvFileId: the parameter makes it a bulk job without file."""
    jobs.expect_error(jobs.individual(type=None, user=None), BULK_NO_CSV, ("past", "reassign"),
                      params={"type": "bulk"}, rule=param_or_bulk_rule)


@pytest.mark.observation
@pytest.mark.rule("GDPR-USER-EXACTLY-ONE")
@pytest.mark.writes
def test_a_user_named_in_more_than_one_way_is_recorded(jobs: Jobs, observe: Any) -> None:
    email = f"{nobody()}@example.invalid"
    resp, guard_messages = jobs.send(jobs.individual(user={"username": jobs.user, "email": email}),
                                     ("past", "reassign"))
    observe("GDPR-USER-EXACTLY-ONE", status=resp.status, error=error_text(resp), body=resp.text[:300],
            guarded=bool(guard_messages), stopped_at_guard=stopped_at_guard(error_text(resp), guard_messages))


# ------------------------------------------------------------------------------------------------ successful jobs
# A job that succeeds cannot be undone, so a run schedules at most three on purpose (report.json ``created``, kind
# gdpr-job), each carrying several stated forms at once, on time frames chosen from the run tag:
#
# - the main job (far frame 0): the user by email, reassignUser by username, all four operations, the date
#   formatted; a type-less request on the same frame goes first (it must schedule nothing), the same job again
#   after it (the frame is now taken);
# - the second job (far frame 1, or a minute ahead in every time zone with [safety] gdpr_near_edge): the user by id,
#   reassignUser by id, the date under the sample's name scheduleTime (jobs4: the forms rotate across the accepted
#   jobs, so each stated name of the date holds a frame the other name's job is then refused for);
# - the observed job (far frame 2): timeStamp forms until one is taken (observations only;
#   test_gdpr_timestamp_job.py since round62).
#
# A frame the target calls taken ("There is a job already scheduled for that time frame.": another run's job, or
# an earlier run's) is replaced once by a random fresh frame before anything is judged.


@pytest.fixture(scope="module")
def frames(run_tag: str) -> Frames:
    return Frames.of(run_tag)


@pytest.fixture(scope="module")
def main_job(jobs: Jobs, frames: Frames) -> Scheduled:
    """Successful job 1: gdpr_user by email (by id or username without [safety] gdpr_user_email), reassignUser by
    username (admin), all four operations, formatted date years ahead; a type-less copy goes first on its frame."""
    require_destructive(jobs.profile)
    safety = jobs.profile.safety
    user = {MAIN_USER_FORM: safety.gdpr_user_email} if safety.gdpr_user_email else safety.user_spec()

    def body_at(moment: datetime) -> dict[str, Any]:
        return {"type": "individual", "user": user, "scheduleDate": {"formatted": formatted(moment)},
                "operations": list(OPERATIONS), "reassignUser": {"username": jobs.admin.username}}

    return schedule_in_a_free_frame(jobs, body_at, frames.far(0), frames.fresh_far, typeless_first=True)


@pytest.fixture(scope="module")
def second_job(jobs: Jobs, frames: Frames) -> Scheduled:
    """Successful job 2: gdpr_user by id, reassignUser by id (admin's, when known), one operation, the date as
    scheduleTime ("A sample shape names the field scheduleTime for the individual case"), or as scheduleDate where
    the site refuses that name; dated a minute ahead in
    every time zone with [safety] gdpr_near_edge (it then runs within a day), else years ahead."""
    require_destructive(jobs.profile)
    user = {"id": jobs.profile.safety.gdpr_user_id} if jobs.profile.safety.gdpr_user_id is not None \
        else jobs.profile.safety.user_spec()
    near = jobs.profile.safety.gdpr_near_edge

    def dated_by(name: str) -> Callable[[datetime], dict[str, Any]]:
        def body_at(moment: datetime) -> dict[str, Any]:
            body: dict[str, Any] = {"type": "individual", "user": user, name: {"formatted": formatted(moment)},
                                    "operations": ["suspend"]}
            if jobs.admin_id is not None:
                body["reassignUser"] = {"id": jobs.admin_id}
            return body
        return body_at

    def schedule(name: str) -> Scheduled:
        if near:
            return schedule_in_a_free_frame(jobs, dated_by(name), frames.near(ahead_in_every_zone()),
                                            lambda: Frames.fresh_near(ahead_in_every_zone()), other_charset=True)
        return schedule_in_a_free_frame(jobs, dated_by(name), frames.far(1), frames.fresh_far, other_charset=True)

    job = schedule("scheduleTime")
    if job.resp.status == 400 and error_text(job.resp) != TIME_FRAME:
        # Whether a site reads the sample's name at all is an observation (OBS-GDPR-SCHEDULETIME): the field table
        # names scheduleDate. A refusal of the scheduleTime job is a reading, not a fault: the same job is sent
        # again dated by scheduleDate (a refused request costs no write) and judged as that.
        job = schedule("scheduleDate")
    return job


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.rule("GDPR-ERROR-BODY", "GDPR-201-JOBID", "GDPR-DATE-FORMATTED", "SHAPE-SCHEDULE-GDPR-JOB",
                  "GDPR-USER-FORMS", "GDPR-REASSIGN-FORMS", "GDPR-OPERATIONS-RANGE")
@pytest.mark.rule("GDPR-BULK-NO-TYPE")  # cross17: its checks name them (tests/test_blame_in_marks.py)
def test_a_valid_individual_job_is_scheduled_with_201_and_a_job_id(main_job: Scheduled, contract: Any) -> None:
    """A complete job carrying a stated form of each field: user by email ("Exactly one of username, email, id"),
    reassignUser by username ("by exactly one of username or id"), four operations ("at most 4 elements"), the date
    formatted MM/DD/YYYY HH:MM."""
    resp, body = main_job.resp, main_job.body
    if resp.status != 201:
        fail(job_refusal_rules(error_text(resp), MAIN_FORMS),
             f"a complete individual job (user {body['user']}, reassignUser {body['reassignUser']}, operations "
             f"{body['operations']}) dated {main_job.moment} (MM/DD/YYYY HH:MM, 24-hour, in the future) must be "
             f"scheduled with 201{frame_note(main_job)}", resp)
    errors = contract.validate("gdpr-job-response", resp.json())
    expect(not errors, ("GDPR-201-JOBID", "SHAPE-SCHEDULE-GDPR-JOB"),
           f"the 201 body does not match gdpr-job-response.json ({len(errors)} error(s)):\n  "
           + "\n  ".join(errors[:20]))


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.rule("GDPR-ERROR-BODY", "GDPR-BULK-NO-TYPE", "GDPR-201-JOBID")
def test_a_job_request_without_type_schedules_nothing(main_job: Scheduled) -> None:
    """If the type-less request had been scheduled, the valid job on the same minute would meet its time frame
    (twice: a frame found taken is retried once, type-less request first again)."""
    refused, valid = main_job.typeless, main_job.resp
    assert refused is not None
    expect(refused_by_service(refused), "GDPR-BULK-NO-TYPE",
           f"a job request without type must be refused (4xx); {why_not_refused(refused)}", refused)
    if valid.status != 201:
        fail(time_frame_or_job_rule(error_text(valid)),
             "the same job with type individual on the same minute must now be scheduled (201): the refused request "
             f"must have scheduled nothing{frame_note(main_job)}", valid)


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.rule("GDPR-TIME-FRAME", "GDPR-ERROR-BODY")
def test_a_second_job_for_a_time_frame_already_taken_is_refused(jobs: Jobs, main_job: Scheduled) -> None:
    """The run's own frame, twice: the main job holds it, the same job again must be refused."""
    if main_job.resp.status != 201:
        skip(SkipKind.FIXTURE_STATE, f"not checked: the run's first job of its frame was not scheduled "
                                     f"({main_job.resp.status}; test_a_valid_individual_job_is_scheduled_with_201_"
                                     f"and_a_job_id judges it), so no frame of this run is taken")
    second, _ = jobs.send(main_job.body)
    expect(second.status == 400, "GDPR-TIME-FRAME",
           f"a second job for the same minute ({main_job.moment}) must be refused with 400", second)
    assert_error_body(second, "GDPR-ERROR-BODY")
    expect(error_text(second) == TIME_FRAME, "GDPR-TIME-FRAME", f"the error must be exactly {TIME_FRAME!r}", second)
    frame_is_taken_whatever_form_names_the_user(jobs, main_job)


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.rule("GDPR-ERROR-BODY", "GDPR-USER-FORMS", "GDPR-REASSIGN-FORMS", "GDPR-201-JOBID", "GDPR-DATE-FORMATTED",
                  "SHAPE-SCHEDULE-GDPR-JOB")
def test_a_job_naming_its_user_and_reassign_user_by_id_is_scheduled(jobs: Jobs, second_job: Scheduled,
                                                                    contract: Any) -> None:
    """User and reassignUser by id, the date as scheduleTime.formatted (scheduleDate where the site refuses the sample's
    name): scheduled with 201 {jobId} (jobs4: the 201 body is judged on every accepted job, whichever forms it
    carries)."""
    if jobs.profile.safety.gdpr_user_id is None:
        skip(SkipKind.MISSING_FIXTURE, "not checked: [safety] gdpr_user_id is not set, so the kit cannot name "
                                       "gdpr_user by id", fixtures=["gdpr_user_id"])
    skip_when_near_frames_are_held(jobs, second_job)
    resp, body = second_job.resp, second_job.body
    forms: dict[str, Rules] = {"reassign": "GDPR-REASSIGN-FORMS", "user": "GDPR-USER-FORMS", " id": "GDPR-USER-FORMS"}
    if resp.status != 201:
        fail(job_refusal_rules(error_text(resp), forms),
             f"a complete individual job naming gdpr_user by id ({body['user']}; reassignUser "
             f"{body.get('reassignUser')}) dated {second_job.moment} must be scheduled (201): the user is 'Exactly one "
             f"of username, email, id'{frame_note(second_job)}", resp)
    errors = contract.validate("gdpr-job-response", resp.json())
    date_name = "scheduleTime" if "scheduleTime" in body else "scheduleDate"
    expect(not errors, ("GDPR-201-JOBID", "SHAPE-SCHEDULE-GDPR-JOB"),
           f"the 201 body to a job dated by {date_name}, its user by id, does not match gdpr-job-response.json "
           f"({len(errors)} error(s)):\n  " + "\n  ".join(errors[:20]), resp)


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.rule("GDPR-TIME-FRAME")
def test_a_job_for_the_frame_the_second_job_holds_is_refused_in_every_stated_form(jobs: Jobs,
                                                                                  second_job: Scheduled) -> None:
    """jobs4 (issue 44): the mixed pair the other way round: the second job holds its frame by scheduleTime, the
    same job restated in every row of job_forms' covering array (scheduleDate among them) must be refused."""
    if second_job.resp.status != 201:
        skip(SkipKind.FIXTURE_STATE, f"not checked: the run's second job was not scheduled ({second_job.resp.status}; "
                                     "test_a_job_naming_its_user_and_reassign_user_by_id_is_scheduled judges it), so "
                                     "it holds no frame")
    frame_is_taken_in_every_stated_form(jobs, second_job)


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.rule("GDPR-ERROR-BODY", "GDPR-PAST-DATE", "GDPR-201-JOBID")
def test_a_job_a_minute_ahead_in_every_time_zone_is_scheduled(jobs: Jobs, second_job: Scheduled) -> None:
    """The far side of the past-date edge: 14 h and two minutes (plus the run's spread) ahead of UTC is ahead for any
    server zone, so not "in the past". This job runs within a day: only with [safety] gdpr_near_edge."""
    if not jobs.profile.safety.gdpr_near_edge:
        skip(SkipKind.SAFETY, "not allowed by safety: [safety] gdpr_near_edge is false, so jobs are dated years "
                              "ahead (the near side of the past-date edge is checked by refusals only)")
    skip_when_near_frames_are_held(jobs, second_job)
    resp = second_job.resp
    error = error_text(resp)
    rule = "GDPR-PAST-DATE" if error == PAST_DATE else "GDPR-201-JOBID"
    expect(resp.status == 201, rule,
           f"a job dated {second_job.moment} (ahead of now in every time zone) is not in the past: it must be "
           f"scheduled (201){frame_note(second_job)}", resp)


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.observation
@pytest.mark.rule("OBS-GDPR-JOB-STATES")
def test_the_fields_of_a_scheduled_job_are_recorded(main_job: Scheduled, observe: Any) -> None:
    body = json_or_text(main_job.resp)
    observe("OBS-GDPR-JOB-STATES", status=main_job.resp.status,
            fields_beyond_job_id=sorted(set(body) - {"jobId"}) if isinstance(body, dict) else None,
            job_id_type=type(body.get("jobId")).__name__ if isinstance(body, dict) else None,
            location=main_job.resp.headers.get("location"))


@pytest.mark.writes
@pytest.mark.observation
@pytest.mark.rule("OBS-GDPR-USERNAME-ONLY")
def test_a_past_dated_job_naming_the_user_by_username_only_is_recorded(jobs: Jobs, observe: Any) -> None:
    """Recorded on a job dated in the past (it schedules nothing on a server that refuses past dates): a refusal for
    its date shows the username-only user object passed; another message shows what the site says of it."""
    name = jobs.profile.safety.gdpr_user or nobody()
    resp, guard_messages = jobs.send(jobs.individual(user={"username": name}, scheduleDate=past_formatted()),
                                     ("reassign",))
    observe("OBS-GDPR-USERNAME-ONLY", status=resp.status, body=json_or_text(resp), dated_in_the_past=True,
            refused_for_its_date=error_text(resp) == PAST_DATE,
            stopped_at_guard=stopped_at_guard(error_text(resp), guard_messages) and error_text(resp) != PAST_DATE)


@pytest.mark.writes
@pytest.mark.observation
@pytest.mark.rule("OBS-GDPR-SCHEDULETIME")
def test_whether_schedule_time_is_read_in_place_of_schedule_date_is_recorded(jobs: Jobs, observe: Any) -> None:
    """scheduleTime dated in the past and no scheduleDate: refused for its date, the site reads scheduleTime. The
    job names gdpr_user only with [safety] destructive (a site that ignored scheduleTime and took the job as dated
    now would schedule it: a fourth job, on such a site only), else a user that does not exist (the site may then
    refuse the user before it reads any date, and the record says so)."""
    safety = jobs.profile.safety
    body = jobs.individual(user=safety.user_spec() if safety.destructive and safety.gdpr_user
                           else {"username": nobody()})
    body.pop("scheduleDate")
    body["scheduleTime"] = past_formatted()
    resp, _ = jobs.send(body)
    observe("OBS-GDPR-SCHEDULETIME", status=resp.status, body=json_or_text(resp), schedule_time_in_the_past=True,
            read_as_the_date=error_text(resp) == PAST_DATE)


# ------------------------------------------------------------------------------------------------ stated forms, limits
# "Exactly one of username, email, id", "by exactly one of username or id", "Either formatted ... or timeStamp", "At
# least one and at most 4 elements", "Date in the past": each stated form is taken and each side of each edge holds.
# A form is judged on an error path the description gives (a date in the past): a job whose only error is its date
# must be refused for its date, so a refusal naming the form under test is the form refused. A guard makes the
# request harmless without [safety] destructive, as above.


@pytest.mark.rule("GDPR-USER-FORMS", "GDPR-PAST-DATE", "GDPR-ERROR-BODY")
@refused_job  # trades20: every job here is dated in the past (a refusal)
@pytest.mark.parametrize("form", ["email", "id"])
def test_a_jobs_user_in_each_stated_form_is_taken_so_only_its_past_date_refuses_it(jobs: Jobs, form: str) -> None:
    """username is the third stated form, but a sample calls a username-only user object incorrect (why: not shown),
    so it is recorded (OBS-GDPR-USERNAME-ONLY), not judged."""
    body = jobs.individual(user=user_form(jobs, form), scheduleDate=past_formatted())
    jobs.expect_error(body, PAST_DATE, ("reassign",), rule=blame_form("GDPR-USER-FORMS", ("user", form)))


@pytest.mark.rule("GDPR-REASSIGN-FORMS", "GDPR-PAST-DATE", "GDPR-ERROR-BODY")
@refused_job  # trades20: every job here is dated in the past (a refusal)
@pytest.mark.parametrize("form", ["username", "id"])
def test_a_reassign_user_in_each_stated_form_is_taken_so_only_its_past_date_refuses_it(jobs: Jobs,
                                                                                        form: str) -> None:
    """reassignUser names admin (it exists) by one form; the job is dated in the past and so never runs."""
    value = jobs.admin.username if form == "username" else jobs.admin_id
    if value is None:
        skip(SkipKind.MISSING_FIXTURE, "not checked: admin's user id is unknown ([accounts.admin] id)",
             fixtures=["accounts.admin.id"])
    body = jobs.refusable(reassignUser={form: value}, scheduleDate=past_formatted())
    jobs.expect_error(body, PAST_DATE, ("operations",), rule=blame_form("GDPR-REASSIGN-FORMS", ("reassign",)))


@pytest.mark.rule("GDPR-OPERATIONS-RANGE", "GDPR-PAST-DATE", "GDPR-ERROR-BODY")
@refused_job  # trades20: every job here is dated in the past (a refusal)
@pytest.mark.parametrize("operations", subsets())
def test_every_list_of_one_to_four_operations_is_taken_so_only_its_past_date_refuses_it(
        jobs: Jobs, operations: list[str]) -> None:
    body = jobs.refusable(operations=operations, scheduleDate=past_formatted())
    jobs.expect_error(body, PAST_DATE, ("reassign",), rule=blame_form("GDPR-OPERATIONS-RANGE", ("operation",)))


@pytest.mark.rule("GDPR-PAST-DATE", "GDPR-ERROR-BODY")
@refused_job  # trades20: every job here is dated in the past (a refusal)
def test_a_job_a_minute_in_the_past_in_every_time_zone_is_refused(jobs: Jobs) -> None:
    """The near side of the past-date edge: 12 h and a minute behind UTC is in the past for any server zone."""
    moment = past_in_every_zone()
    jobs.expect_error(jobs.refusable(scheduleDate={"formatted": formatted(moment)}), PAST_DATE, ("reassign",),
                      rule="GDPR-PAST-DATE")


@pytest.mark.rule("GDPR-ERROR-BODY", "GDPR-DATE-TIMESTAMP", "GDPR-PAST-DATE")
@refused_job  # trades20: every job here is dated in the past (a refusal)
def test_a_moment_in_the_past_given_as_time_stamp_is_refused_as_past(jobs: Jobs) -> None:
    """The timeStamp form. Its format is not shown; the value sent is the epoch *seconds* of a minute ago, which is
    in the past read as seconds or as milliseconds (1970), so a server that reads timeStamp either way refuses it as
    past. The same job dated by formatted three days ago is the control: a server that refuses that one but
    schedules this one ignored the timeStamp."""
    stamp = int(datetime.now(UTC).timestamp()) - 60
    resp, guard_messages = jobs.send(jobs.refusable(scheduleDate={"timeStamp": stamp}), ("reassign",))
    error = error_text(resp)
    if resp.status == 400 and error == PAST_DATE:
        return
    if refused_by_service(resp):  # a redirect off the interface is no refusal to leave unjudged (refusals.py)
        if stopped_at_guard(error, guard_messages):
            skip(SkipKind.OTHER, f"inconclusive: the target reported the guard ({error!r}) before the date")
        skip(SkipKind.OTHER, f"not judged: the target refused timeStamp {stamp} (epoch seconds) with {resp.status} "
                             f"{error!r}; the format of timeStamp is not shown, so another may be the site's")
    control, _ = jobs.send(jobs.refusable(scheduleDate=past_formatted()), ("reassign",))
    rule = "GDPR-DATE-TIMESTAMP" if error_text(control) == PAST_DATE else "GDPR-PAST-DATE"
    fail([rule], f"scheduleDate {{timeStamp: {stamp}}} is a minute ago (epoch seconds; 1970 read as milliseconds): "
                 f"the job is in the past and must be refused with {PAST_DATE!r}, yet it got {resp.status} (the same "
                 f"job dated by formatted got {control.status} {error_text(control)!r})", resp)


@pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD-GDPR", "GDPR-PAST-DATE", "GDPR-ERROR-BODY")
@refused_job  # trades20: every job here is dated in the past (a refusal)
@pytest.mark.parametrize("in_body", [None, "missing-file"], ids=["only-as-parameter", "parameter-wins-over-body"])
def test_a_jobs_csv_file_id_given_as_a_parameter_counts(jobs: Jobs, profile: Profile, in_body: str | None) -> None:
    """csvFileId (the other scalar field of a job; type is tested above) as a query parameter, with the body lacking
    it or naming a file that does not exist: the parameter names the profile's file and wins, so the job's only
    error is its past date."""
    csv = profile.fixtures.gdpr_csv_file_id
    if csv is None:
        skip(SkipKind.MISSING_FIXTURE, "not checked: needs fixture gdpr_csv_file_id", fixtures=["gdpr_csv_file_id"])
    body = jobs.refusable(scheduleDate=past_formatted(), csvFileId=None)
    if in_body:
        body["csvFileId"] = missing_csv_id(profile)
    jobs.expect_error(body, PAST_DATE, ("reassign",), params={"csvFileId": csv}, rule=csv_param_rule)


# ------------------------------------------------------------------------------------------------ user content list


@pytest.fixture(scope="module")
def member_content(admin: ApiClient, user_ids: dict[str, int], shared_answer: int) -> ApiResponse:
    """admin reads member's content list after member has posted an answer in this run (so it is not empty)."""
    member_id = user_ids.get("member")
    assert member_id is not None, "member's user id is unknown: set [accounts.member] id in the profile"
    return admin.get(f"users/gdpr/{member_id}/content.json", operation="listUserContent")


@pytest.mark.writes
@pytest.mark.rule("LIST-ARRAY-CONTENT", "SHAPE-LIST-USER-CONTENT", "SHAPE-CONTENT-ACTIONDATE")
def test_a_users_content_list_is_a_bare_array_of_content_entries(member_content: ApiResponse,
                                                                  contract: Any) -> None:
    r = member_content
    expect(r.status == 200, "SHAPE-LIST-USER-CONTENT", "admin must be able to list member's content (200)", r)
    body = r.json()
    expect(isinstance(body, list), "LIST-ARRAY-CONTENT",
           f"the content list is a bare JSON array, not the paged envelope; got {type(body).__name__}", r)
    expect(body, "SHAPE-LIST-USER-CONTENT", "member posted an answer in this run, yet its content list is empty", r)
    errors = contract.schema_errors("content-list", body)
    if errors:
        shown = "\n  ".join(e.line for e in errors[:15])
        fail(content_schema_rules(errors),
             f"the content list does not match content-list.json (actionDate is YYYY-MM-DD HH:MM:SS.S):\n  {shown}", r)


@pytest.mark.writes
@pytest.mark.observation
@pytest.mark.rule("CONTENT-NEWEST-FIRST")
def test_whether_content_entries_come_newest_first_is_recorded(member_content: ApiResponse, observe: Any) -> None:
    body = json_or_text(member_content)
    dates = [e.get("actionDate") for e in body if isinstance(e, dict)] if isinstance(body, list) else []
    comparable = [d for d in dates if isinstance(d, str)]
    observe("CONTENT-NEWEST-FIRST", status=member_content.status, entries=len(dates),
            newest_first=comparable == sorted(comparable, reverse=True),
            oldest_first=comparable == sorted(comparable), first=comparable[:3], last=comparable[-3:])


@pytest.mark.rule("GDPR-CONTENT-422")
def test_the_content_list_of_an_invalid_user_id_is_422_invalid_user_id(admin: ApiClient) -> None:
    unknown = 2_147_000_000 + rng.randint(0, 400_000)
    r = admin.get(f"users/gdpr/{unknown}/content.json", operation="listUserContent")
    assert r.status == 422, f"user {unknown} does not exist: expected 422 {{error: Invalid User Id}}\n{r.describe()}"
    assert_error_body(r)
    assert r.json()["error"] == INVALID_USER_ID, f"the error must be exactly {INVALID_USER_ID!r}\n{r.describe()}"


@pytest.mark.observation
@pytest.mark.rule("OBS-GDPR-PERMISSIONS")
def test_who_may_list_own_and_other_users_content_is_recorded(api: dict[str, ApiClient], user_ids: dict[str, int],
                                                              observe: Any) -> None:
    facts: dict[str, Any] = {}
    for role in ("admin", "moderator", "member", "novice", "anonymous"):
        client = api[role]
        other = "member" if role == "admin" else "admin"
        seen: dict[str, Any] = {}
        if role in user_ids:
            seen["own"] = client.get(f"users/gdpr/{user_ids[role]}/content.json", operation="listUserContent").status
        if other in user_ids:
            seen[f"of_{other}"] = client.get(f"users/gdpr/{user_ids[other]}/content.json",
                                             operation="listUserContent").status
        facts[role] = seen
    observe("OBS-GDPR-PERMISSIONS", **facts)


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.rule("LIST-ARRAY-CONTENT", "SHAPE-LIST-USER-CONTENT", "SHAPE-CONTENT-ACTIONDATE")
def test_the_content_list_of_the_user_the_main_job_names_is_a_bare_array(main_job: Scheduled, jobs: Jobs,
                                                                          admin: ApiClient, contract: Any) -> None:
    """round62 (issue 44, a list read after a write on its subject): the run read the content lists of the profile's
    accounts only, none named by a job; gdpr_user's, read by admin after the main job named it, is judged like them
    ("Not wrapped in the paged envelope.", content-list.json). One read, no write."""
    user = jobs.profile.safety.gdpr_user_id
    if main_job.resp.status != 201 or user is None:
        skip(SkipKind.FIXTURE_STATE, f"not checked: the main job was not scheduled ({main_job.resp.status}) or "
                                     "[safety] gdpr_user_id is not set, so no content list of a job's user is read")
    r = admin.get(f"users/gdpr/{user}/content.json", operation="listUserContent")
    if r.status in (401, 403):
        skip(SkipKind.OTHER, f"not judged: admin may not read gdpr_user's content ({r.status}; not shown)")
    expect(r.status == 200, "SHAPE-LIST-USER-CONTENT", "admin reads gdpr_user's content after its job: 200", r)
    body = r.json()
    expect(isinstance(body, list), "LIST-ARRAY-CONTENT", "gdpr_user's content list, read after a job named it, is a "
           f"bare JSON array, not the paged envelope; got {type(body).__name__}", r)
    errors = contract.schema_errors("content-list", body)
    if errors:
        fail(content_schema_rules(errors), "gdpr_user's content list after its job does not match content-list.json:"
             "\n  " + "\n  ".join(e.line for e in errors[:15]), r)
