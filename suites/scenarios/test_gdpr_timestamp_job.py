"""The observed job of test_gdpr_jobs.py (far frame 2): scheduleDate in its timeStamp form, recorded and judged.

"Either formatted (...) or timeStamp": the format of timeStamp is not shown, so its forms are tried in order on the
run's third frame until one is accepted (the rest are not tried: each accepted form would be one more job), and
which one was taken is an observation (OBS-GDPR-TIMESTAMP-FORMAT). The accepted one is a job like any other:
"Success: 201 with {jobId}." holds for it whatever form dated it (round62, issue 44: a job dated by timeStamp
answered 200 was recorded, never judged; jobs4 judges the 201 body of the other accepted jobs).

The job is made by a fixture (whichever test asks first), so it is the suites' write, not the observation's.

After it, admin reads the job's user's content list (round62, issue 44: a list read after a write on its subject):
"Not wrapped in the paged envelope." holds for a user a job names as for any other, and the entries keep their shape.
The content lists the run read before were all of the profile's accounts, none named by a job (one read, no write).
"""

from __future__ import annotations

from typing import Any

import pytest
from gdpr_jobs import TIME_FRAME, TIMESTAMP_FORMS, Jobs, content_schema_rules, error_text, require_destructive

from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.time_frames import Frames
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.gdpr]


@pytest.fixture(scope="module")
def jobs(admin: ApiClient, profile: Profile, user_ids: dict[str, int]) -> Jobs:
    return Jobs(admin, profile, user_ids.get("admin"))


@pytest.fixture(scope="module")
def timestamp_job(jobs: Jobs, run_tag: str) -> tuple[dict[str, Any], ApiResponse | None]:
    """Successful job 3 at most: (what each form tried got, the accepted response or None)."""
    require_destructive(jobs.profile)
    frames = Frames.of(run_tag)  # the frames of test_gdpr_jobs.py: far(2) is this job's
    facts: dict[str, Any] = {}
    moment = frames.far(2)
    for form in TIMESTAMP_FORMS:
        value: Any = {
            "epoch_millis": int(moment.timestamp() * 1000),
            "epoch_seconds": int(moment.timestamp()),
            "epoch_millis_string": str(int(moment.timestamp() * 1000)),
            "iso_text": moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        }[form]
        resp, _ = jobs.send(jobs.individual(user=jobs.profile.safety.user_spec(), scheduleDate={"timeStamp": value}))
        facts[form] = {"sent": value, "status": resp.status, "error": error_text(resp)}
        if error_text(resp) == TIME_FRAME:
            moment = frames.fresh_far()
        if 200 <= resp.status < 300:  # accepted (201 or not: judged below): a job was scheduled, try no other form
            return {**facts, "not_tried": [f for f in TIMESTAMP_FORMS if f not in facts]}, resp
    return {**facts, "not_tried": []}, None


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.observation
@pytest.mark.rule("OBS-GDPR-TIMESTAMP-FORMAT")
def test_the_accepted_form_of_schedule_date_time_stamp_is_recorded(
        timestamp_job: tuple[dict[str, Any], ApiResponse | None], observe: Any) -> None:
    observe("OBS-GDPR-TIMESTAMP-FORMAT", **timestamp_job[0])


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.rule("SHAPE-SCHEDULE-GDPR-JOB", "GDPR-201-JOBID")
def test_a_job_dated_by_time_stamp_is_answered_201_with_a_job_id(
        timestamp_job: tuple[dict[str, Any], ApiResponse | None], contract: Any) -> None:
    facts, resp = timestamp_job
    if resp is None:
        skip(SkipKind.OTHER, f"not judged: the target took none of the timeStamp forms tried "
                             f"({', '.join(f for f in TIMESTAMP_FORMS if f in facts)}); its format is not shown")
    form = [f for f in TIMESTAMP_FORMS if f in facts][-1]  # the last one tried is the one taken
    expect(resp.status == 201, ("SHAPE-SCHEDULE-GDPR-JOB", "GDPR-201-JOBID"),
           f"the target scheduled the job dated by timeStamp ({form}: {facts[form]['sent']!r}) with {resp.status}: "
           f"'Success: 201 with {{jobId}}.' whichever stated form dates the job", resp)
    errors = contract.validate("gdpr-job-response", resp.json())
    expect(not errors, ("SHAPE-SCHEDULE-GDPR-JOB", "GDPR-201-JOBID"),
           f"the body to the job dated by timeStamp ({form}) does not match gdpr-job-response.json ({len(errors)} "
           f"error(s)):\n  " + "\n  ".join(errors[:20]), resp)


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.rule("LIST-ARRAY-CONTENT", "SHAPE-LIST-USER-CONTENT", "SHAPE-CONTENT-ACTIONDATE")
def test_the_content_list_of_the_user_a_job_names_is_a_bare_array(
        timestamp_job: tuple[dict[str, Any], ApiResponse | None], admin: ApiClient, profile: Profile,
        contract: Any) -> None:
    user = profile.safety.gdpr_user_id
    if user is None:
        skip(SkipKind.MISSING_FIXTURE, "not checked: [safety] gdpr_user_id is not set, so the content list of the "
                                       "user the jobs name cannot be read", fixtures=["gdpr_user_id"])
    if timestamp_job[1] is None:
        skip(SkipKind.OTHER, "not judged: no job dated by timeStamp was scheduled for gdpr_user (its format is not "
                             "shown), so this read follows no job of this module")
    r = admin.get(f"users/gdpr/{user}/content.json", operation="listUserContent")
    if r.status in (401, 403):
        skip(SkipKind.OTHER, f"not judged: admin may not read gdpr_user's content ({r.status}); the permissions of "
                             "operation 8 are not shown")
    expect(r.status == 200, "SHAPE-LIST-USER-CONTENT",
           f"admin reads the content list of gdpr_user (id {user}) after a job named it: expected 200", r)
    body = r.json()
    expect(isinstance(body, list), "LIST-ARRAY-CONTENT",
           f"the content list of gdpr_user, read after a job named it, is a bare JSON array, not the paged envelope; "
           f"got {type(body).__name__}", r)
    errors = contract.schema_errors("content-list", body)
    if errors:
        shown = "\n  ".join(e.line for e in errors[:15])
        fail(content_schema_rules(errors), "the content list of gdpr_user after a job named it does not match "
             f"content-list.json (actionDate is YYYY-MM-DD HH:MM:SS.S):\n  {shown}", r)
