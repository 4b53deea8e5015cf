"""What a time frame the run's jobs hold means for the data-protection job suite (test_gdpr_jobs.py holds its tests).

The main job holds its frame ("There is a job already scheduled for that time frame."): the same job again is refused
whatever stated form names its user and whatever type it has, each tried here, and so is another job (other
operations, with or without reassignUser: round26, issue 44); and on the near-edge window, where
earlier runs may hold every frame, a frame found taken twice is the kit's state, not the target's fault.
"""

from __future__ import annotations

from typing import Any

from gdpr_jobs import TIME_FRAME, Jobs, Scheduled, error_text
from job_forms import DATE_FIELDS, DATE_FORMS, INPUT_FORMS, USER_FORMS, date_of, rows, send_dated, user_value

from qaconform.pytest.outcomes import SkipKind, expect, skip


def skip_when_near_frames_are_held(jobs: Jobs, job: Scheduled) -> None:
    """The near-edge window holds only a few frames of an hour (22 h - 14 h): on a target that keeps its jobs, the runs
    of the last hours may hold both the run's frame and the fresh one. That is what earlier runs did, not a fault
    (a server that called every frame taken fails the main job, dated at random years ahead), so it is not judged."""
    if jobs.profile.safety.gdpr_near_edge and job.taken_first is not None and error_text(job.resp) == TIME_FRAME:
        skip(SkipKind.FIXTURE_STATE, f"not checked: the target refused the run's near-edge frame and a fresh one as "
                                     f"taken ({job.moment}: {TIME_FRAME!r}): other jobs (of earlier runs, or of a run "
                                     f"at the same time) hold them; the next run draws other frames")


def frame_is_taken_whatever_form_names_the_user(jobs: Jobs, main_job: Scheduled) -> None:
    """The same job again for the minute the main job holds, restated in the rows of a covering array of the job's
    stated forms (job_forms.py: the date's name, scheduleDate or the sample's scheduleTime, and its form, formatted
    or timeStamp; the user by username, email, id or id as text; type in the JSON body, as a query parameter, or as
    a parameter winning over the body), then as a bulk job. A server whose taken check reads one form only (blind
    rounds of issue 44: a user looked up by id on a path that skips the frame check; blind round 16: the date read
    from scheduleDate only) schedules one of them. A conforming target refuses each (no accepted write). Judged:
    scheduled (2xx) though the frame is taken; a refusal with another error is not this rule's (which check comes
    first is not stated: a user by username alone may be refused as such)."""
    frame_is_taken_in_every_stated_form(jobs, main_job)
    frame_is_taken_whatever_type_the_job_has(jobs, main_job)


def frame_is_taken_in_every_stated_form(jobs: Jobs, job: Scheduled) -> None:
    """jobs4 (issue 44): the job held by ``job`` restated in every row of job_forms' covering array but its own; each
    row also another job (:func:`another_job`: other operations, with or without reassignUser)."""
    own = (next(f for f in DATE_FIELDS if f in job.body), "formatted", job.body["user"], "json")
    index = 0
    for field, form, user_form, input_form in rows(DATE_FIELDS, DATE_FORMS, USER_FORMS, INPUT_FORMS):
        user = user_value(jobs, user_form)
        if user is None or (field, form, user, input_form) == own:
            continue
        body = another_job({**job.body, "user": user}, index)
        index += 1
        again, sent, _ = send_dated(jobs, body, field, form, job.when, input_form)
        expect(not 200 <= again.status < 300, "GDPR-TIME-FRAME",
               f"another job (operations {body['operations']}, {_reassign_words(body)}) with its date as "
               f"{field}.{form} ({date_of(sent)}), its user {user} and type {INPUT_WORDS[input_form]}, for the minute "
               f"a job holds ({job.moment}; operations {job.body.get('operations')}, {_reassign_words(job.body)}), "
               f"must be refused with 400 {TIME_FRAME!r}: \"Another job already exists for that time frame\" names "
               f"any job, whatever its fields and whichever stated form each takes", again)


OTHER_OPERATIONS: tuple[tuple[str, ...], ...] = (
    ("anonymize",), ("delete", "suspend"), ("anon-delete",), ("suspend",), ("delete",), ("anonymize", "anon-delete"))
"""Valid operations lists ("At least one and at most 4 elements") the restated jobs rotate through."""


def another_job(body: dict[str, Any], index: int) -> dict[str, Any]:
    """round26 (issue 44): ``body`` as another job for the same frame: "Another job already exists for that time frame"
    names any job, so the restated rows differ from the holder in the job's other stated values too, not only in
    the forms of its fields. A server whose taken check is a duplicate check (the same operations, the same
    reassignUser: blind round 26) refuses only the holder's twin. Row ``index`` takes an operations list of
    :data:`OTHER_OPERATIONS` other than the holder's (those sharing no operation with it first), and every other row
    leaves reassignUser out (optional: "Optional. Identifies the user to whom content is reassigned")."""
    held = set(body.get("operations") or ())
    others = [list(o) for o in OTHER_OPERATIONS if set(o) != held]
    others.sort(key=lambda o: bool(set(o) & held))
    out = {**body, "operations": others[index % len(others)]}
    if index % 2 == 1 or "reassignUser" not in body:
        out.pop("reassignUser", None)
    return out


def _reassign_words(body: dict[str, Any]) -> str:
    return f"reassignUser {body['reassignUser']}" if "reassignUser" in body else "no reassignUser"


INPUT_WORDS = {"json": "in the JSON body", "query": "as a query parameter",
               "param_wins": "as a query parameter winning over a body saying bulk"}


def frame_is_taken_whatever_type_the_job_has(jobs: Jobs, main_job: Scheduled) -> None:
    """A bulk job on the profile's file for the minute the (individual) main job holds: "Another job already exists
    for that time frame" names any job, whatever its type (blind round blind5 of issue 44: a server that looks the
    frame up among jobs of the new job's type only). A conforming target refuses it (no accepted write); without the
    profile's gdpr_csv_file_id no bulk job can be valid, so none is sent. Judged as above: scheduled (2xx) is the
    rule broken, a refusal with another error is not this rule's."""
    csv = jobs.profile.fixtures.gdpr_csv_file_id
    if csv is None or main_job.body.get("type") != "individual":
        return
    bulk = {k: v for k, v in main_job.body.items() if k != "user"}
    again, _ = jobs.send({**bulk, "type": "bulk", "csvFileId": csv})
    expect(not 200 <= again.status < 300, "GDPR-TIME-FRAME",
           f"a bulk job on file {csv} for the minute the individual main job holds ({main_job.moment}) must be "
           f"refused with 400 {TIME_FRAME!r}: the frame is taken whatever type the job has", again)
