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

import random
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.time_frames import Frames, retry_once_in_a_fresh_frame
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.gdpr]

SCHEDULE = "jobs/gdpr/schedule.json"

NO_USER_PREFIX = "The individual type was selected, but the request is missing the user"
BULK_NO_CSV = "The bulk type was selected, but the request is missing the csvFileId field."
CSV_MISSING = "The requested file does not exist"
TIME_FRAME = "There is a job already scheduled for that time frame."
PAST_DATE = "The desired date is in the past and is it not eligible."
OPERATIONS_INVALID = "The provided 'operations' is/are invalid"
REASSIGN_AMBIGUOUS = "The request contains more than one reassignUser eligible configuration"
REASSIGN_INVALID = "The provided 'reassignUser' is/are invalid"
INVALID_USER_ID = "Invalid User Id"

_rng = random.SystemRandom()

Rules = str | tuple[str, ...]
"""One rule id, or several."""
RuleOf = Rules | Callable[[str | None], Rules]
"""The rule id(s) a wrong answer breaks: fixed, or chosen from the error text the target sent (None: no JSON error)."""


def rules_of(rule: RuleOf | None, error: str | None = None) -> tuple[str, ...]:
    """The rules a failure charges (the report blames only the rules a failure names): ``rule``, or those it picks
    from ``error``; none without a rule, so that a failure of a helper called without one is charged to the calling
    test's rules."""
    if rule is None:
        return ()
    chosen = rule(error) if callable(rule) else rule
    return (chosen,) if isinstance(chosen, str) else chosen


def future_minute() -> datetime:
    """A random minute of a year 2030-2099: far enough ahead that a job never runs during a test and reruns on a
    target that keeps its jobs do not meet their own earlier jobs' time frames."""
    return datetime(_rng.randint(2030, 2099), _rng.randint(1, 12), _rng.randint(1, 28), _rng.randint(0, 23),
                    _rng.randint(0, 59), tzinfo=UTC)


def formatted(moment: datetime) -> str:
    """scheduleDate.formatted: month/day/year hour:minute, 24-hour, two-digit fields, four-digit year."""
    return moment.strftime("%m/%d/%Y %H:%M")


def nobody() -> str:
    """A username that exists nowhere (random), for requests that must not touch a real account."""
    return f"qc-nobody-{uuid.uuid4().hex[:12]}"


def missing_csv_id(profile: Profile) -> int:
    value = 2_147_000_000 + _rng.randint(0, 400_000)
    return value + 1 if value == profile.fixtures.gdpr_csv_file_id else value


@dataclass
class Jobs:
    """Sends job requests as admin (the role the target profile says may schedule) and judges error answers."""

    admin: ApiClient
    profile: Profile
    admin_id: int | None

    @property
    def user(self) -> str:
        """The only user an error-path request names: gdpr_user when the profile sets one, else a nobody."""
        return self.profile.safety.gdpr_user or nobody()

    def individual(self, **extra: Any) -> dict[str, Any]:
        """A complete individual job for self.user on a future minute (valid unless ``extra`` breaks it)."""
        user = self.profile.safety.user_spec() if self.profile.safety.gdpr_user else {"username": self.user}
        body: dict[str, Any] = {"type": "individual", "user": user,
                                "scheduleDate": {"formatted": formatted(future_minute())}, "operations": ["suspend"]}
        body.update(extra)
        return {k: v for k, v in body.items() if v is not None}

    def refusable(self, **extra: Any) -> dict[str, Any]:
        """A complete job whose only possible error is the one ``extra`` plants, without a destructive profile.

        With the profile's gdpr_csv_file_id it is a bulk job on that file (it names no user, so no unknown user can
        be refused first and every documented message is checked exactly); without it, an individual job for
        gdpr_user or for a user that does not exist (whose refusal message the description does not give, so a
        test meeting it first cannot judge the message and says which fixture it needs)."""
        csv = self.profile.fixtures.gdpr_csv_file_id
        if csv is None:
            return self.individual(**extra)
        body: dict[str, Any] = {"type": "bulk", "csvFileId": csv,
                                "scheduleDate": {"formatted": formatted(future_minute())}, "operations": ["suspend"]}
        body.update(extra)
        return {k: v for k, v in body.items() if v is not None}

    def guards(self, *names: str) -> dict[str, tuple[str, Any, set[str | None]]]:
        """Guards by name: (field, value, the messages that mean the target stopped at the guard).

        ``nobody`` is not an error but makes success harmless: the job names a user that does not exist. Its
        message is not documented, so any other 400 message counts as "stopped at the guard" (None = any).
        """
        table: dict[str, tuple[str, Any, set[str | None]]] = {
            "past": ("scheduleDate", {"formatted": "01/01/2001 00:00"}, {PAST_DATE}),
            "operations": ("operations", ["qc-not-an-operation"], {OPERATIONS_INVALID}),
            "reassign": ("reassignUser", {"username": self.admin.username, "id": self.admin_id or 1},
                         {REASSIGN_AMBIGUOUS, REASSIGN_INVALID}),
            "nobody": ("user", {"username": nobody()}, {None}),
        }
        return {n: table[n] for n in names}

    def send(self, body: dict[str, Any], guards: tuple[str, ...] = (),
             params: dict[str, Any] | None = None) -> tuple[ApiResponse, set[str | None]]:
        """POST the job; with destructive = false, add the guards first. Returns the response and guard messages."""
        guard_messages: set[str | None] = set()
        if not self.profile.safety.destructive:
            body = dict(body)
            for field, value, messages in self.guards(*guards).values():
                body[field] = value
                guard_messages |= messages
        user = body.get("user")
        if isinstance(user, dict) and str(user.get("username", "")).startswith("qc-nobody-"):
            guard_messages.add(None)  # a target may refuse the unknown user first (its message is not documented)
        return self.admin.post(SCHEDULE, json=body, params=params, operation="scheduleGdprJob"), guard_messages

    def expect_error(self, body: dict[str, Any], message: str, guards: tuple[str, ...] = (), *,
                     prefix: bool = False, params: dict[str, Any] | None = None,
                     rule: RuleOf | None = None) -> ApiResponse:
        """Send and require 400 {error: message} (or a message starting with it); see the module docstring.

        ``rule``: the rule the error row states; the status and message failures name it, the body-shape failure
        names GDPR-ERROR-BODY (without ``rule`` the messages name no rule)."""
        resp, guard_messages = self.send(body, guards, params)
        error = _error_text(resp)
        matches = error is not None and (error.startswith(message) if prefix else error == message)
        if resp.status == 400 and not matches and _stopped_at_guard(error, guard_messages):
            if error not in guard_messages:
                skip(SkipKind.MISSING_FIXTURE,
                     f"not checked: needs fixture gdpr_csv_file_id (or [safety] gdpr_user): the request names "
                     f"a user that does not exist, and the target refused it with {error!r}, a message the "
                     f"description does not give, before the error under test", fixtures=["gdpr_csv_file_id"])
            skip(SkipKind.OTHER,
                 f"inconclusive: the target reported the guard ({error!r}) before the error under test; "
                 f"[safety] destructive = false forbids sending this request without a guard")
        expect(resp.status == 400, rules_of(rule, error), f"expected 400 with {{error: {message!r}}}", resp)
        assert_error_body(resp, None if rule is None else "GDPR-ERROR-BODY")
        expectation = f"start with {message!r}" if prefix else f"be exactly {message!r}"
        expect(matches, rules_of(rule, error), f"the error message must {expectation}; got {error!r}", resp)
        return resp


def _stopped_at_guard(error: str | None, guard_messages: set[str | None]) -> bool:
    return error is not None and (error in guard_messages or None in guard_messages)


def _error_text(resp: ApiResponse) -> str | None:
    try:
        body = resp.json()
    except AssertionError:
        return None
    return body.get("error") if isinstance(body, dict) and isinstance(body.get("error"), str) else None


def assert_error_body(resp: ApiResponse, rule: str | None = None) -> None:
    """GDPR-ERROR-BODY: a 400 of the job endpoint (and the 422 of the content list) is a JSON {error: <string>}.
    ``rule``: the id the failure names (none by default: the calling test's rules are charged)."""
    body = resp.json()
    expect(isinstance(body, dict) and isinstance(body.get("error"), str), rules_of(rule),
           "the error body must be a JSON object {error: <string>}", resp)


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


def _unknown_id(_: str) -> dict[str, Any]:
    return {"id": 2_147_000_000 + _rng.randint(0, 400_000)}


@pytest.mark.rule("GDPR-REASSIGN-INVALID", "GDPR-ERROR-BODY")
@pytest.mark.writes
@pytest.mark.parametrize("form", [pytest.param(lambda name: {"username": name}, id="by-username"),
                                  pytest.param(_unknown_id, id="by-id")])
def test_a_reassign_user_that_does_not_exist_is_refused(jobs: Jobs, form: Callable[[str], dict[str, Any]]) -> None:
    """Both ways the description gives to identify reassignUser (exactly one of username or id)."""
    jobs.expect_error(jobs.refusable(reassignUser=form(nobody())), REASSIGN_INVALID, ("past",),
                      rule="GDPR-REASSIGN-INVALID")


@pytest.mark.rule("GDPR-BULK-NO-TYPE")
@pytest.mark.writes
def test_a_job_request_without_type_is_refused(jobs: Jobs) -> None:
    resp, guard_messages = jobs.send(jobs.individual(type=None), ("past", "reassign"))
    error = _error_text(resp)
    if resp.status == 400 and _stopped_at_guard(error, guard_messages):
        skip(SkipKind.OTHER, f"inconclusive: the target reported the guard ({error!r}) before the missing type")
    assert 400 <= resp.status < 500, f"type is required: a job request without it must be refused (4xx)\n" \
                                     f"{resp.describe()}"


def _param_or_bulk_rule(error: str | None) -> str:
    """A wrong answer to ?type=bulk without csvFileId: an error about the bulk job (it names csvFileId or bulk) shows
    the parameter counted and only the bulk-without-file row is wrong; any other answer ignored the parameter."""
    if error is not None and ("csvfileid" in error.lower() or "bulk" in error.lower()):
        return "GDPR-BULK-NO-CSV"
    return "CONV-PARAM-AS-BODY-FIELD-GDPR"


@pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD-GDPR", "GDPR-BULK-NO-CSV")
@pytest.mark.writes
def test_a_job_field_given_as_a_query_parameter_counts(jobs: Jobs) -> None:
    """?type=bulk with a body that has no type and no csvFileId: the parameter makes it a bulk job without file."""
    jobs.expect_error(jobs.individual(type=None, user=None), BULK_NO_CSV, ("past", "reassign"),
                      params={"type": "bulk"}, rule=_param_or_bulk_rule)


@pytest.mark.observation
@pytest.mark.rule("GDPR-USER-EXACTLY-ONE")
@pytest.mark.writes
def test_a_user_named_in_more_than_one_way_is_recorded(jobs: Jobs, observe: Any) -> None:
    email = f"{nobody()}@example.invalid"
    resp, guard_messages = jobs.send(jobs.individual(user={"username": jobs.user, "email": email}),
                                     ("past", "reassign"))
    observe("GDPR-USER-EXACTLY-ONE", status=resp.status, error=_error_text(resp), body=resp.text[:300],
            guarded=bool(guard_messages), stopped_at_guard=_stopped_at_guard(_error_text(resp), guard_messages))


# ------------------------------------------------------------------------------------------------ successful jobs
# A job that succeeds cannot be undone, so a run schedules at most three on purpose (report.json ``created``, kind
# gdpr-job), each carrying several stated forms at once, on time frames chosen from the run tag:
#
# - the main job (far frame 0): the user by email, reassignUser by username, all four operations, the date
#   formatted; a type-less request on the same frame goes first (it must schedule nothing), the same job again
#   after it (the frame is now taken);
# - the second job (far frame 1, or a minute ahead in every time zone with [safety] gdpr_near_edge): the user by id,
#   reassignUser by id;
# - the observed job (far frame 2): timeStamp forms until one is taken (observations only).
#
# A frame the target calls taken ("There is a job already scheduled for that time frame.": another run's job, or
# an earlier run's) is replaced once by a random fresh frame before anything is judged.

MAIN_USER_FORM = "email"


@dataclass
class Scheduled:
    """One successful-path job as sent: the body, the answer, the type-less request sent before it on the same
    frame (main job only), and the answer of a first frame the target called taken (then retried in a fresh one)."""

    body: dict[str, Any]
    resp: ApiResponse
    typeless: ApiResponse | None = None
    taken_first: ApiResponse | None = None

    @property
    def moment(self) -> str:
        return str(self.body["scheduleDate"]["formatted"])


def schedule_in_a_free_frame(jobs: Jobs, body_at: Callable[[datetime], dict[str, Any]], frame: datetime,
                             fresh: Callable[[], datetime], typeless_first: bool = False) -> Scheduled:
    """Send ``body_at(frame)`` (after a type-less copy of it with ``typeless_first``); when the target answers that
    the frame is taken, once more in a ``fresh()`` frame (qaconform.pytest.time_frames), before any test judges it.

    On a target that keeps its jobs another run (at once, or an earlier one) may hold the frame: that is no fault of
    the target. A frame taken twice in a row (two independent frames) is judged by the tests."""

    def attempt(moment: datetime) -> Scheduled:
        body = body_at(moment)
        typeless = jobs.send({k: v for k, v in body.items() if k != "type"})[0] if typeless_first else None
        return Scheduled(body, jobs.send(body)[0], typeless)

    def taken(job: Scheduled) -> bool:
        return job.resp.status == 400 and _error_text(job.resp) == TIME_FRAME

    job, first = retry_once_in_a_fresh_frame(attempt, taken, frame, fresh)
    job.taken_first = first.resp if first is not None else None
    return job


def _require_destructive(profile: Profile) -> str:
    """gdpr_user, when the profile consents to jobs that succeed; else a skip saying which [safety] key is missing
    (checked here too, not only by the destructive marker: a module fixture must never schedule without consent)."""
    if not profile.safety.destructive:
        skip(SkipKind.SAFETY, "not allowed by safety: [safety] destructive is false, so no job may succeed")
    if not profile.safety.gdpr_user:
        skip(SkipKind.SAFETY, "not allowed by safety: [safety] gdpr_user is not set: the kit names no other user in "
                              "a job that succeeds")
    return profile.safety.gdpr_user


@pytest.fixture(scope="module")
def frames(run_tag: str) -> Frames:
    return Frames.of(run_tag)


@pytest.fixture(scope="module")
def main_job(jobs: Jobs, frames: Frames) -> Scheduled:
    """Successful job 1: gdpr_user by email (by id or username without [safety] gdpr_user_email), reassignUser by
    username (admin), all four operations, formatted date years ahead; a type-less copy goes first on its frame."""
    _require_destructive(jobs.profile)
    safety = jobs.profile.safety
    user = {MAIN_USER_FORM: safety.gdpr_user_email} if safety.gdpr_user_email else safety.user_spec()

    def body_at(moment: datetime) -> dict[str, Any]:
        return {"type": "individual", "user": user, "scheduleDate": {"formatted": formatted(moment)},
                "operations": list(OPERATIONS), "reassignUser": {"username": jobs.admin.username}}

    return schedule_in_a_free_frame(jobs, body_at, frames.far(0), frames.fresh_far, typeless_first=True)


@pytest.fixture(scope="module")
def second_job(jobs: Jobs, frames: Frames) -> Scheduled:
    """Successful job 2: gdpr_user by id, reassignUser by id (admin's, when known), one operation; dated a minute
    ahead in every time zone with [safety] gdpr_near_edge (it then runs within a day), else years ahead."""
    _require_destructive(jobs.profile)
    user = {"id": jobs.profile.safety.gdpr_user_id} if jobs.profile.safety.gdpr_user_id is not None \
        else jobs.profile.safety.user_spec()
    near = jobs.profile.safety.gdpr_near_edge

    def body_at(moment: datetime) -> dict[str, Any]:
        body: dict[str, Any] = {"type": "individual", "user": user, "scheduleDate": {"formatted": formatted(moment)},
                                "operations": ["suspend"]}
        if jobs.admin_id is not None:
            body["reassignUser"] = {"id": jobs.admin_id}
        return body

    if near:
        return schedule_in_a_free_frame(jobs, body_at, frames.near(ahead_in_every_zone()),
                                        lambda: Frames.fresh_near(ahead_in_every_zone()))
    return schedule_in_a_free_frame(jobs, body_at, frames.far(1), frames.fresh_far)


def _skip_when_near_frames_are_held(jobs: Jobs, job: Scheduled) -> None:
    """The near-edge window holds only a few frames of an hour (22 h - 14 h): on a target that keeps its jobs, the runs
    of the last hours may hold both the run's frame and the fresh one. That is what earlier runs did, not a fault
    (a server that called every frame taken fails the main job, dated at random years ahead), so it is not judged."""
    if jobs.profile.safety.gdpr_near_edge and job.taken_first is not None and _error_text(job.resp) == TIME_FRAME:
        skip(SkipKind.FIXTURE_STATE, f"not checked: the target refused the run's near-edge frame and a fresh one as "
                                     f"taken ({job.moment}: {TIME_FRAME!r}): other jobs (of earlier runs, or of a run "
                                     f"at the same time) hold them; the next run draws other frames")


def _job_refusal_rules(error: str | None, forms: dict[str, Rules]) -> Rules:
    """The rules a refusal of a complete job breaks: the one stated form its message names (``forms``: a word of the
    message -> rule, checked in order), else the date, else the job as a whole."""
    lowered = (error or "").lower()
    for word, rule in forms.items():
        if word in lowered:
            return rule
    if "date" in lowered:
        return "GDPR-DATE-FORMATTED"
    return ("GDPR-201-JOBID", "GDPR-DATE-FORMATTED", "SHAPE-SCHEDULE-GDPR-JOB")


_MAIN_FORMS: dict[str, Rules] = {
    "reassign": "GDPR-REASSIGN-FORMS", "operation": "GDPR-OPERATIONS-RANGE", "user": "GDPR-USER-FORMS",
    MAIN_USER_FORM: "GDPR-USER-FORMS", "time frame": ("GDPR-BULK-NO-TYPE", "GDPR-201-JOBID")}


def _frame_note(job: Scheduled) -> str:
    if job.taken_first is None:
        return ""
    return (f" (its first frame was refused as taken, {_error_text(job.taken_first)!r}: retried once in a fresh "
            f"frame)")


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.rule("GDPR-201-JOBID", "GDPR-DATE-FORMATTED", "SHAPE-SCHEDULE-GDPR-JOB", "GDPR-USER-FORMS",
                  "GDPR-REASSIGN-FORMS", "GDPR-OPERATIONS-RANGE")
def test_a_valid_individual_job_is_scheduled_with_201_and_a_job_id(main_job: Scheduled, contract: Any) -> None:
    """A complete job carrying a stated form of each field: user by email ("Exactly one of username, email, id"),
    reassignUser by username ("by exactly one of username or id"), four operations ("at most 4 elements"), the date
    formatted MM/DD/YYYY HH:MM."""
    resp, body = main_job.resp, main_job.body
    if resp.status != 201:
        fail(_job_refusal_rules(_error_text(resp), _MAIN_FORMS),
             f"a complete individual job (user {body['user']}, reassignUser {body['reassignUser']}, operations "
             f"{body['operations']}) dated {main_job.moment} (MM/DD/YYYY HH:MM, 24-hour, in the future) must be "
             f"scheduled with 201{_frame_note(main_job)}", resp)
    errors = contract.validate("gdpr-job-response", resp.json())
    expect(not errors, ("GDPR-201-JOBID", "SHAPE-SCHEDULE-GDPR-JOB"),
           f"the 201 body does not match gdpr-job-response.json ({len(errors)} error(s)):\n  "
           + "\n  ".join(errors[:20]))


def _time_frame_or_job_rule(error: str | None) -> str:
    """The valid job after the type-less one refused: its time frame taken means the type-less request was
    scheduled after all (GDPR-BULK-NO-TYPE); any other refusal is the valid job's own (GDPR-201-JOBID)."""
    return "GDPR-BULK-NO-TYPE" if error == TIME_FRAME else "GDPR-201-JOBID"


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.rule("GDPR-BULK-NO-TYPE", "GDPR-201-JOBID")
def test_a_job_request_without_type_schedules_nothing(main_job: Scheduled) -> None:
    """If the type-less request had been scheduled, the valid job on the same minute would meet its time frame
    (twice: a frame found taken is retried once, type-less request first again)."""
    refused, valid = main_job.typeless, main_job.resp
    assert refused is not None
    expect(400 <= refused.status < 500, "GDPR-BULK-NO-TYPE",
           "a job request without type must be refused (4xx)", refused)
    if valid.status != 201:
        fail(_time_frame_or_job_rule(_error_text(valid)),
             "the same job with type individual on the same minute must now be scheduled (201): the refused request "
             f"must have scheduled nothing{_frame_note(main_job)}", valid)


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
    expect(_error_text(second) == TIME_FRAME, "GDPR-TIME-FRAME", f"the error must be exactly {TIME_FRAME!r}", second)


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.rule("GDPR-USER-FORMS", "GDPR-REASSIGN-FORMS", "GDPR-201-JOBID")
def test_a_job_naming_its_user_and_reassign_user_by_id_is_scheduled(jobs: Jobs, second_job: Scheduled) -> None:
    if jobs.profile.safety.gdpr_user_id is None:
        skip(SkipKind.MISSING_FIXTURE, "not checked: [safety] gdpr_user_id is not set, so the kit cannot name "
                                       "gdpr_user by id", fixtures=["gdpr_user_id"])
    _skip_when_near_frames_are_held(jobs, second_job)
    resp, body = second_job.resp, second_job.body
    forms: dict[str, Rules] = {"reassign": "GDPR-REASSIGN-FORMS", "user": "GDPR-USER-FORMS", " id": "GDPR-USER-FORMS"}
    if resp.status != 201:
        fail(_job_refusal_rules(_error_text(resp), forms),
             f"a complete individual job naming gdpr_user by id ({body['user']}; reassignUser "
             f"{body.get('reassignUser')}) dated {second_job.moment} must be scheduled (201): the user is 'Exactly one "
             f"of username, email, id'{_frame_note(second_job)}", resp)


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.rule("GDPR-PAST-DATE", "GDPR-201-JOBID")
def test_a_job_a_minute_ahead_in_every_time_zone_is_scheduled(jobs: Jobs, second_job: Scheduled) -> None:
    """The far side of the past-date edge: 14 h and two minutes (plus the run's spread) ahead of UTC is ahead for any
    server zone, so not "in the past". This job runs within a day: only with [safety] gdpr_near_edge."""
    if not jobs.profile.safety.gdpr_near_edge:
        skip(SkipKind.SAFETY, "not allowed by safety: [safety] gdpr_near_edge is false, so jobs are dated years "
                              "ahead (the near side of the past-date edge is checked by refusals only)")
    _skip_when_near_frames_are_held(jobs, second_job)
    resp = second_job.resp
    error = _error_text(resp)
    rule = "GDPR-PAST-DATE" if error == PAST_DATE else "GDPR-201-JOBID"
    expect(resp.status == 201, rule,
           f"a job dated {second_job.moment} (ahead of now in every time zone) is not in the past: it must be "
           f"scheduled (201){_frame_note(second_job)}", resp)


TIMESTAMP_FORMS = ("epoch_millis", "epoch_seconds", "epoch_millis_string", "iso_text")


@pytest.mark.accepted_writes(1)
@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.observation
@pytest.mark.rule("OBS-GDPR-TIMESTAMP-FORMAT")
def test_the_accepted_form_of_schedule_date_time_stamp_is_recorded(jobs: Jobs, frames: Frames,
                                                                   observe: Any) -> None:
    """Successful job 3 at most: the forms are tried in order on the run's third frame until one is taken (the rest
    are not tried: each taken form would be one more job)."""
    _require_destructive(jobs.profile)
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
        facts[form] = {"sent": value, "status": resp.status, "error": _error_text(resp)}
        if _error_text(resp) == TIME_FRAME:
            moment = frames.fresh_far()
        if resp.status == 201:
            break
    facts["not_tried"] = [f for f in TIMESTAMP_FORMS if f not in facts]
    observe("OBS-GDPR-TIMESTAMP-FORMAT", **facts)


@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.observation
@pytest.mark.rule("OBS-GDPR-JOB-STATES")
def test_the_fields_of_a_scheduled_job_are_recorded(main_job: Scheduled, observe: Any) -> None:
    body = _json_or_text(main_job.resp)
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
    resp, guard_messages = jobs.send(jobs.individual(user={"username": name}, scheduleDate=_past_formatted()),
                                     ("reassign",))
    observe("OBS-GDPR-USERNAME-ONLY", status=resp.status, body=_json_or_text(resp), dated_in_the_past=True,
            refused_for_its_date=_error_text(resp) == PAST_DATE,
            stopped_at_guard=_stopped_at_guard(_error_text(resp), guard_messages) and _error_text(resp) != PAST_DATE)


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
    body["scheduleTime"] = _past_formatted()
    resp, _ = jobs.send(body)
    observe("OBS-GDPR-SCHEDULETIME", status=resp.status, body=_json_or_text(resp), schedule_time_in_the_past=True,
            read_as_the_date=_error_text(resp) == PAST_DATE)


def _json_or_text(resp: ApiResponse) -> Any:
    try:
        return resp.json()
    except AssertionError:
        return resp.text[:300]


# ------------------------------------------------------------------------------------------------ stated forms, limits
# "Exactly one of username, email, id", "by exactly one of username or id", "Either formatted ... or timeStamp", "At
# least one and at most 4 elements", "Date in the past": each stated form is taken and each side of each edge holds.
# A form is judged on an error path the description gives (a date in the past): a job whose only error is its date
# must be refused for its date, so a refusal naming the form under test is the form refused. A guard makes the
# request harmless without [safety] destructive, as above.

OPERATIONS = ("suspend", "anonymize", "delete", "anon-delete")
ZONE_BEHIND, ZONE_AHEAD = timedelta(hours=12), timedelta(hours=14)
"""formatted carries no time zone: a wall-clock time is in the past (or ahead) on every server only beyond the widest
offsets, UTC-12 and UTC+14. The edges below are a minute past those."""


def _minute(moment: datetime) -> datetime:
    return moment.replace(second=0, microsecond=0)


def past_in_every_zone() -> datetime:
    """The latest wall-clock minute that is in the past whatever the server's time zone (now - 12 h - 1 min)."""
    return _minute(datetime.now(UTC) - ZONE_BEHIND - timedelta(minutes=1))


def ahead_in_every_zone() -> datetime:
    """The earliest wall-clock minute ahead whatever the server's time zone, with a minute for the request itself."""
    return _minute(datetime.now(UTC) + ZONE_AHEAD + timedelta(minutes=2))


def blame_form(rule: str, words: tuple[str, ...]) -> Callable[[str | None], str]:
    """The rule a wrong answer to a past-dated job that carries one stated form breaks: a refusal whose message is
    about the form (it names one of ``words``) refused the form; anything else (no error: the job was scheduled)
    missed the past date."""

    def rule_of(error: str | None) -> str:
        if error is not None and error != PAST_DATE and any(w in error.lower() for w in words):
            return rule
        return "GDPR-PAST-DATE"

    return rule_of


def _past_formatted() -> dict[str, str]:
    return {"formatted": formatted(datetime.now(UTC) - timedelta(days=3))}


def _user_form(jobs: Jobs, form: str) -> dict[str, Any]:
    """gdpr_user by one stated form, or a skip naming the [safety] key the form needs."""
    safety = jobs.profile.safety
    if not safety.gdpr_user:
        skip(SkipKind.MISSING_FIXTURE, "not checked: [safety] gdpr_user is not set: a job names no other user",
             fixtures=["gdpr_user"])
    value = {"username": safety.gdpr_user, "email": safety.gdpr_user_email, "id": safety.gdpr_user_id}[form]
    if value is None:
        key = f"gdpr_user_{form}"
        skip(SkipKind.MISSING_FIXTURE, f"not checked: [safety] {key} is not set, so the kit cannot name gdpr_user by "
             f"{form}", fixtures=[key])
    return {form: value}


@pytest.mark.rule("GDPR-USER-FORMS", "GDPR-PAST-DATE", "GDPR-ERROR-BODY")
@pytest.mark.writes
@pytest.mark.parametrize("form", ["email", "id"])
def test_a_jobs_user_in_each_stated_form_is_taken_so_only_its_past_date_refuses_it(jobs: Jobs, form: str) -> None:
    """username is the third stated form, but a sample calls a username-only user object incorrect (why: not shown),
    so it is recorded (OBS-GDPR-USERNAME-ONLY), not judged."""
    body = jobs.individual(user=_user_form(jobs, form), scheduleDate=_past_formatted())
    jobs.expect_error(body, PAST_DATE, ("reassign",), rule=blame_form("GDPR-USER-FORMS", ("user", form)))


@pytest.mark.rule("GDPR-REASSIGN-FORMS", "GDPR-PAST-DATE", "GDPR-ERROR-BODY")
@pytest.mark.writes
@pytest.mark.parametrize("form", ["username", "id"])
def test_a_reassign_user_in_each_stated_form_is_taken_so_only_its_past_date_refuses_it(jobs: Jobs,
                                                                                        form: str) -> None:
    """reassignUser names admin (it exists) by one form; the job is dated in the past and so never runs."""
    value = jobs.admin.username if form == "username" else jobs.admin_id
    if value is None:
        skip(SkipKind.MISSING_FIXTURE, "not checked: admin's user id is unknown ([accounts.admin] id)",
             fixtures=["accounts.admin.id"])
    body = jobs.refusable(reassignUser={form: value}, scheduleDate=_past_formatted())
    jobs.expect_error(body, PAST_DATE, ("operations",), rule=blame_form("GDPR-REASSIGN-FORMS", ("reassign",)))


def _subsets() -> list[Any]:
    """Each operation alone (4) and all four together: every name, and both edges of 'at least one and at most 4'
    (the main successful job carries all four too). Lists of two and three lie between the edges: not sent."""
    lists = [[op] for op in OPERATIONS] + [list(OPERATIONS)]
    return [pytest.param(chosen, id=f"{len(chosen)}-" + "+".join(chosen)) for chosen in lists]


@pytest.mark.rule("GDPR-OPERATIONS-RANGE", "GDPR-PAST-DATE", "GDPR-ERROR-BODY")
@pytest.mark.writes
@pytest.mark.parametrize("operations", _subsets())
def test_every_list_of_one_to_four_operations_is_taken_so_only_its_past_date_refuses_it(
        jobs: Jobs, operations: list[str]) -> None:
    body = jobs.refusable(operations=operations, scheduleDate=_past_formatted())
    jobs.expect_error(body, PAST_DATE, ("reassign",), rule=blame_form("GDPR-OPERATIONS-RANGE", ("operation",)))


@pytest.mark.rule("GDPR-PAST-DATE", "GDPR-ERROR-BODY")
@pytest.mark.writes
def test_a_job_a_minute_in_the_past_in_every_time_zone_is_refused(jobs: Jobs) -> None:
    """The near side of the past-date edge: 12 h and a minute behind UTC is in the past for any server zone."""
    moment = past_in_every_zone()
    jobs.expect_error(jobs.refusable(scheduleDate={"formatted": formatted(moment)}), PAST_DATE, ("reassign",),
                      rule="GDPR-PAST-DATE")


@pytest.mark.rule("GDPR-DATE-TIMESTAMP", "GDPR-PAST-DATE")
@pytest.mark.writes
def test_a_moment_in_the_past_given_as_time_stamp_is_refused_as_past(jobs: Jobs) -> None:
    """The timeStamp form. Its format is not shown; the value sent is the epoch *seconds* of a minute ago, which is
    in the past read as seconds or as milliseconds (1970), so a server that reads timeStamp either way refuses it as
    past. The same job dated by formatted three days ago is the control: a server that refuses that one but
    schedules this one ignored the timeStamp."""
    stamp = int(datetime.now(UTC).timestamp()) - 60
    resp, guard_messages = jobs.send(jobs.refusable(scheduleDate={"timeStamp": stamp}), ("reassign",))
    error = _error_text(resp)
    if resp.status == 400 and error == PAST_DATE:
        return
    if 400 <= resp.status < 500:
        if _stopped_at_guard(error, guard_messages):
            skip(SkipKind.OTHER, f"inconclusive: the target reported the guard ({error!r}) before the date")
        skip(SkipKind.OTHER, f"not judged: the target refused timeStamp {stamp} (epoch seconds) with {resp.status} "
                             f"{error!r}; the format of timeStamp is not shown, so another may be the site's")
    control, _ = jobs.send(jobs.refusable(scheduleDate=_past_formatted()), ("reassign",))
    rule = "GDPR-DATE-TIMESTAMP" if _error_text(control) == PAST_DATE else "GDPR-PAST-DATE"
    fail([rule], f"scheduleDate {{timeStamp: {stamp}}} is a minute ago (epoch seconds; 1970 read as milliseconds): "
                 f"the job is in the past and must be refused with {PAST_DATE!r}, yet it got {resp.status} (the same "
                 f"job dated by formatted got {control.status} {_error_text(control)!r})", resp)


def _csv_param_rule(error: str | None) -> str:
    """csvFileId as a parameter: the bulk-without-file or no-such-file message shows the parameter not counted."""
    return "CONV-PARAM-AS-BODY-FIELD-GDPR" if error in (BULK_NO_CSV, CSV_MISSING) else "GDPR-PAST-DATE"


@pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD-GDPR", "GDPR-PAST-DATE", "GDPR-ERROR-BODY")
@pytest.mark.writes
@pytest.mark.parametrize("in_body", [None, "missing-file"], ids=["only-as-parameter", "parameter-wins-over-body"])
def test_a_jobs_csv_file_id_given_as_a_parameter_counts(jobs: Jobs, profile: Profile, in_body: str | None) -> None:
    """csvFileId (the other scalar field of a job; type is tested above) as a query parameter, with the body lacking
    it or naming a file that does not exist: the parameter names the profile's file and wins, so the job's only
    error is its past date."""
    csv = profile.fixtures.gdpr_csv_file_id
    if csv is None:
        skip(SkipKind.MISSING_FIXTURE, "not checked: needs fixture gdpr_csv_file_id", fixtures=["gdpr_csv_file_id"])
    body = jobs.refusable(scheduleDate=_past_formatted(), csvFileId=None)
    if in_body:
        body["csvFileId"] = missing_csv_id(profile)
    jobs.expect_error(body, PAST_DATE, ("reassign",), params={"csvFileId": csv}, rule=_csv_param_rule)


# ------------------------------------------------------------------------------------------------ user content list


@pytest.fixture(scope="module")
def member_content(admin: ApiClient, user_ids: dict[str, int], shared_answer: int) -> ApiResponse:
    """admin reads member's content list after member has posted an answer in this run (so it is not empty)."""
    member_id = user_ids.get("member")
    assert member_id is not None, "member's user id is unknown: set [accounts.member] id in the profile"
    return admin.get(f"users/gdpr/{member_id}/content.json", operation="listUserContent")


def content_schema_rules(errors: list[str]) -> list[str]:
    """The rules content-list.json violations (``$[0].actionDate: ...``) break: an entry's actionDate value its
    format rule, the top level not being an array the bare-array rule, anything else the entry shape rule."""
    rules: list[str] = []
    for e in errors:
        path = e.split(": ", 1)[0]
        if re.fullmatch(r"\$\[\d+\]\.actionDate", path):
            rules.append("SHAPE-CONTENT-ACTIONDATE")
        elif path == "$":
            rules.append("LIST-ARRAY-CONTENT")
        else:
            rules.append("SHAPE-LIST-USER-CONTENT")
    return list(dict.fromkeys(rules))


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
    errors = contract.validate("content-list", body)
    if errors:
        shown = "\n  ".join(errors[:15])
        fail(content_schema_rules(errors),
             f"the content list does not match content-list.json (actionDate is YYYY-MM-DD HH:MM:SS.S):\n  {shown}", r)


@pytest.mark.writes
@pytest.mark.observation
@pytest.mark.rule("CONTENT-NEWEST-FIRST")
def test_whether_content_entries_come_newest_first_is_recorded(member_content: ApiResponse, observe: Any) -> None:
    body = _json_or_text(member_content)
    dates = [e.get("actionDate") for e in body if isinstance(e, dict)] if isinstance(body, list) else []
    comparable = [d for d in dates if isinstance(d, str)]
    observe("CONTENT-NEWEST-FIRST", status=member_content.status, entries=len(dates),
            newest_first=comparable == sorted(comparable, reverse=True),
            oldest_first=comparable == sorted(comparable), first=comparable[:3], last=comparable[-3:])


@pytest.mark.rule("GDPR-CONTENT-422")
def test_the_content_list_of_an_invalid_user_id_is_422_invalid_user_id(admin: ApiClient) -> None:
    unknown = 2_147_000_000 + _rng.randint(0, 400_000)
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
