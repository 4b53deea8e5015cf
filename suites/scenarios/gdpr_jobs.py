"""The data-protection job suite's requests, messages and rule choices (test_gdpr_jobs.py holds its tests).

The description's error messages, the ``Jobs`` sender that adds a guard to every error-path request (see
test_gdpr_jobs.py's docstring), the successful jobs' frames and forms, the past and future moments on every time
zone's clock, and the functions that choose which rule a wrong answer breaks from the error text it carried.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from qaconform.contract import SchemaError
from qaconform.pytest.outcomes import SkipKind, expect, skip
from qaconform.pytest.time_frames import retry_once_in_a_fresh_frame
from qaconform.target.client import CHARSET, ApiClient, ApiResponse
from qaconform.target.profile import Profile

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

rng = random.SystemRandom()

Rules = str | tuple[str, ...]
"""One rule id, or several."""
RuleOf = Rules | Callable[[str | None], Rules]
"""The rule id(s) a wrong answer breaks: fixed, or chosen from the error text the target sent (None: no JSON error)."""


def refused_job(test: Any) -> Any:
    """trades20 (issue 44 items 2, 7): a test whose every job is dated in the past (a conforming target refuses each):
    marked ``writes`` and ``refused_writes``, so once the suites' share is spent its jobs go as probes into the
    refusals' share (refused, given back) instead of being held as "write budget spent" (13 such tests at seed
    20260802 before)."""
    return pytest.mark.writes(pytest.mark.refused_writes(test))


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
    return datetime(rng.randint(2030, 2099), rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23),
                    rng.randint(0, 59), tzinfo=UTC)


def formatted(moment: datetime) -> str:
    """scheduleDate.formatted: month/day/year hour:minute, 24-hour, two-digit fields, four-digit year."""
    return moment.strftime("%m/%d/%Y %H:%M")


def nobody() -> str:
    """A username that exists nowhere (random), for requests that must not touch a real account."""
    return f"qc-nobody-{uuid.uuid4().hex[:12]}"


def missing_csv_id(profile: Profile) -> int:
    value = 2_147_000_000 + rng.randint(0, 400_000)
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

    def other_typing(self) -> dict[str, str]:
        """seeds23 (issue 44): the Content-Type of admin's second accepted job, the other one than the run's seed
        draw gives admin's bodies (``seed_draws.CHARSET_SENDERS``): ``application/json; charset=UTF-8`` when admin
        sends the bare type, the bare type when admin's carry the charset. The main job keeps the draw's, so every
        run schedules a job of each typing ("A body sent with a request must have the format that matches ... the
        request's Content-Type header"), no write more: a server losing a charset job's fields (paths17,
        round65) was met only on the seeds that drew admin."""
        drawn = self.admin.role in ApiClient.charset_roles
        return {"Content-Type": "application/json" + ("" if drawn else CHARSET)}

    def send(self, body: dict[str, Any], guards: tuple[str, ...] = (), params: dict[str, Any] | None = None,
             headers: dict[str, str] | None = None) -> tuple[ApiResponse, set[str | None]]:
        """POST the job (``headers``: its own Content-Type, else the client's); with destructive = false, add the
        guards first. Returns the response and guard messages."""
        guard_messages: set[str | None] = set()
        if not self.profile.safety.destructive:
            body = dict(body)
            for field, value, messages in self.guards(*guards).values():
                body[field] = value
                guard_messages |= messages
        user = body.get("user")
        if isinstance(user, dict) and str(user.get("username", "")).startswith("qc-nobody-"):
            guard_messages.add(None)  # a target may refuse the unknown user first (its message is not documented)
        resp = self.admin.post(SCHEDULE, json=body, params=params, headers=headers, operation="scheduleGdprJob")
        if resp.status == 400:  # blind12 (issue 44): every 400 the scenarios meet, whatever refused the job
            every_400_has_error_body(resp)
        return resp, guard_messages

    def expect_error(self, body: dict[str, Any], message: str, guards: tuple[str, ...] = (), *,
                     prefix: bool = False, params: dict[str, Any] | None = None,
                     rule: RuleOf | None = None,
                     allowed: Callable[[ApiResponse, str | None], bool] | None = None) -> ApiResponse:
        """Send and require 400 {error: message} (or a message starting with it); see the module docstring.

        ``rule``: the rule the error row states; the status and message failures name it, the body-shape failure
        names GDPR-ERROR-BODY (without ``rule`` the messages name no rule). ``allowed``: another answer the
        description allows for this request (round99: the refusal a sample shows for a user named by username
        alone), taken without judging the row."""
        resp, guard_messages = self.send(body, guards, params)
        error = error_text(resp)
        matches = error is not None and (error.startswith(message) if prefix else error == message)
        if not matches and allowed is not None and allowed(resp, error):
            return resp
        if resp.status == 400 and not matches and stopped_at_guard(error, guard_messages):
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


def stopped_at_guard(error: str | None, guard_messages: set[str | None]) -> bool:
    return error is not None and (error in guard_messages or None in guard_messages)


def error_text(resp: ApiResponse) -> str | None:
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


def every_400_has_error_body(resp: ApiResponse) -> None:
    """GDPR-ERROR-BODY on any 400 of the job endpoint: "Errors: 400 with {error: <message>}" names no condition, so
    it holds for a refusal the description words (a past date in the formatted form) as for one it does not (the
    timeStamp form, whose format is not shown: a server validating it in a second validator answers that one's body,
    blind12). Judged on every job request the scenarios send (:meth:`Jobs.send`); the modules that send them carry
    the rule's marker."""
    try:
        body = resp.json()
    except AssertionError:  # TargetError: not JSON at all
        body = None
    expect(isinstance(body, dict) and isinstance(body.get("error"), str), "GDPR-ERROR-BODY",
           "\"Errors: 400 with {error: <message>}\" holds for every 400 of the job endpoint, whichever field was "
           f"refused; got {resp.text[:200]!r}", resp)


def unknown_id(_: str) -> dict[str, Any]:
    return {"id": 2_147_000_000 + rng.randint(0, 400_000)}


def param_or_bulk_rule(error: str | None) -> str:
    """A wrong answer to ?type=bulk without csvFileId: an error about the bulk job (it names csvFileId or bulk) shows
    the parameter counted and only the bulk-without-file row is wrong; any other answer ignored the parameter."""
    if error is not None and ("csvfileid" in error.lower() or "bulk" in error.lower()):
        return "GDPR-BULK-NO-CSV"
    return "CONV-PARAM-AS-BODY-FIELD-GDPR"


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
        """The formatted date the job was sent with, under either stated name (jobs4: the second job's is the
        sample's scheduleTime)."""
        date: dict[str, Any] = self.body.get("scheduleDate") or self.body["scheduleTime"]
        return str(date["formatted"])

    @property
    def when(self) -> datetime:
        """:attr:`moment` as a UTC datetime (formatted carries no zone: the kit writes UTC wall-clock times)."""
        return datetime.strptime(self.moment, "%m/%d/%Y %H:%M").replace(tzinfo=UTC)


def schedule_in_a_free_frame(jobs: Jobs, body_at: Callable[[datetime], dict[str, Any]], frame: datetime,
                             fresh: Callable[[], datetime], typeless_first: bool = False,
                             other_charset: bool = False) -> Scheduled:
    """Send ``body_at(frame)`` (after a type-less copy of it with ``typeless_first``; under
    :meth:`Jobs.other_typing` with ``other_charset``); when the target answers that the frame is taken, once more in
    a ``fresh()`` frame (qaconform.pytest.time_frames), before any test judges it.

    On a target that keeps its jobs another run (at once, or an earlier one) may hold the frame: that is no fault of
    the target. A frame taken twice in a row (two independent frames) is judged by the tests."""

    def attempt(moment: datetime) -> Scheduled:
        body = body_at(moment)
        typeless = jobs.send({k: v for k, v in body.items() if k != "type"})[0] if typeless_first else None
        return Scheduled(body, jobs.send(body, headers=jobs.other_typing() if other_charset else None)[0], typeless)

    def taken(job: Scheduled) -> bool:
        return job.resp.status == 400 and error_text(job.resp) == TIME_FRAME

    job, first = retry_once_in_a_fresh_frame(attempt, taken, frame, fresh)
    job.taken_first = first.resp if first is not None else None
    return job


def require_destructive(profile: Profile) -> str:
    """gdpr_user, when the profile consents to jobs that succeed; else a skip saying which [safety] key is missing
    (checked here too, not only by the destructive marker: a module fixture must never schedule without consent)."""
    if not profile.safety.destructive:
        skip(SkipKind.SAFETY, "not allowed by safety: [safety] destructive is false, so no job may succeed")
    if not profile.safety.gdpr_user:
        skip(SkipKind.SAFETY, "not allowed by safety: [safety] gdpr_user is not set: the kit names no other user in "
                              "a job that succeeds")
    return profile.safety.gdpr_user


def job_refusal_rules(error: str | None, forms: dict[str, Rules]) -> Rules:
    """The rules a refusal of a complete job breaks: the one stated form its message names (``forms``: a word of the
    message -> rule, checked in order), else the date, else the job as a whole."""
    lowered = (error or "").lower()
    for word, rule in forms.items():
        if word in lowered:
            return rule
    if "date" in lowered:
        return "GDPR-DATE-FORMATTED"
    return ("GDPR-201-JOBID", "GDPR-DATE-FORMATTED", "SHAPE-SCHEDULE-GDPR-JOB")


MAIN_FORMS: dict[str, Rules] = {
    "reassign": "GDPR-REASSIGN-FORMS", "operation": "GDPR-OPERATIONS-RANGE", "user": "GDPR-USER-FORMS",
    MAIN_USER_FORM: "GDPR-USER-FORMS", "time frame": ("GDPR-BULK-NO-TYPE", "GDPR-201-JOBID")}


def frame_note(job: Scheduled) -> str:
    if job.taken_first is None:
        return ""
    return (f" (its first frame was refused as taken, {error_text(job.taken_first)!r}: retried once in a fresh "
            f"frame)")


def time_frame_or_job_rule(error: str | None) -> str:
    """The valid job after the type-less one refused: its time frame taken means the type-less request was
    scheduled after all (GDPR-BULK-NO-TYPE); any other refusal is the valid job's own (GDPR-201-JOBID)."""
    return "GDPR-BULK-NO-TYPE" if error == TIME_FRAME else "GDPR-201-JOBID"


TIMESTAMP_FORMS = ("epoch_millis", "epoch_seconds", "epoch_millis_string", "iso_text")


def json_or_text(resp: ApiResponse) -> Any:
    try:
        return resp.json()
    except AssertionError:
        return resp.text[:300]


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


def past_formatted() -> dict[str, str]:
    return {"formatted": formatted(datetime.now(UTC) - timedelta(days=3))}


def user_form(jobs: Jobs, form: str) -> dict[str, Any]:
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


def subsets() -> list[Any]:
    """Each operation alone (4) and all four together: every name, and both edges of 'at least one and at most 4'
    (the main successful job carries all four too). Lists of two and three lie between the edges: not sent."""
    lists = [[op] for op in OPERATIONS] + [list(OPERATIONS)]
    return [pytest.param(chosen, id=f"{len(chosen)}-" + "+".join(chosen)) for chosen in lists]


def csv_param_rule(error: str | None) -> str:
    """csvFileId as a parameter: the bulk-without-file or no-such-file message shows the parameter not counted."""
    return "CONV-PARAM-AS-BODY-FIELD-GDPR" if error in (BULK_NO_CSV, CSV_MISSING) else "GDPR-PAST-DATE"


def content_schema_rules(errors: list[SchemaError]) -> list[str]:
    """The rules content-list.json violations (``$[0].actionDate: ...``) break: an entry's actionDate value its
    format rule, the top level not being an array the bare-array rule, anything else the entry shape rule."""
    rules: list[str] = []
    for e in errors:
        if len(e.path) == 2 and isinstance(e.path[0], int) and e.path[1] == "actionDate":
            rules.append("SHAPE-CONTENT-ACTIONDATE")
        elif e.path == ():
            rules.append("LIST-ARRAY-CONTENT")
        else:
            rules.append("SHAPE-LIST-USER-CONTENT")
    return list(dict.fromkeys(rules))
