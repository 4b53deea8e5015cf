"""Every job rule for each kind of job in every stated form of its date, its input and its identifiers (fix2jobs,
issue 44: three blind rounds found rules checked for one kind, one date form or one input form only).

- Kind x date: "type | bulk or individual", "scheduleDate | Either formatted (... month/day/year ...) or timeStamp.
  A sample shape names the field scheduleTime for the individual case." Every error row that applies to both kinds
  (and each kind's own missing field, and a bulk job's file that does not exist) is sent for each kind in every
  stated name and form of its date: the sample's scheduleTime for individual jobs only, a formatted date always with
  a day above 12 (a day-first reading, the CSV's locale of a bulk branch, cannot take it as a month), a timeStamp as
  job_forms.send_dated sends it. A refusal about the date itself is the formatted form not read
  (GDPR-DATE-FORMATTED); so is the past-date 400 to a row's job dated 10 to 55 years ahead (round64: a server
  comparing formatted dates as text refuses every later year's January to November); for a timeStamp (format not
  shown) neither is judged.
- Row x optional fields (fix22, issue 44: a bulk job with a reassignUser was never sent a missing file): every row,
  for each kind it applies to, again on a job carrying each optional field a valid job may carry (reassignUser by
  username and by id, naming admin; the four operations), other than the row's own field, with a formatted date.
- Input form: "each body field may also be given as a request or query parameter of the same name": type as a
  request parameter of an ``application/x-www-form-urlencoded`` body (test_input_form_matrix.py sends the JSON body,
  the query and a winning parameter). A job's other fields are objects and an array with no parameter form shown,
  so the form carries type alone: the kind's missing-field message (or the operations' row: the list is absent) is
  the stated answer; a refusal naming type did not read the parameter; another refusal (the date, whose parameter
  form is not shown) is not judged.
- Identifiers: "reassignUser ... by exactly one of username or id" with the id in each stated form (a JSON number
  and the id as text, as a request parameter carries it) inside the combination the Errors table refuses ("more
  than one reassignUser eligible configuration"); test_gdpr_forms.py sends the number.

Writes: every request here is one a conforming target refuses (a missing field, a past date, an invalid list, a
reassignUser naming nobody or given two ways): no accepted write. Without [safety] destructive each carries a guard
as in test_gdpr_jobs.py that is not the field under test; a target stopped at it cannot be judged and says so.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from gdpr_jobs import (
    BULK_NO_CSV,
    CSV_MISSING,
    NO_USER_PREFIX,
    OPERATIONS,
    OPERATIONS_INVALID,
    PAST_DATE,
    REASSIGN_AMBIGUOUS,
    REASSIGN_INVALID,
    SCHEDULE,
    TIME_FRAME,
    Jobs,
    error_text,
    every_400_has_error_body,
    formatted,
    missing_csv_id,
    nobody,
    stopped_at_guard,
)
from job_forms import DATE_FIELDS, DATE_FORMS, send_dated

from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.gdpr, pytest.mark.refused_writes]  # every job here is one a conforming target refuses

KINDS = ("individual", "bulk")
"""type's stated values."""
KIND_DATE_FIELDS = {"individual": DATE_FIELDS, "bulk": ("scheduleDate",)}
"""The date's stated names per kind: the sample's scheduleTime is stated "for the individual case" only."""
STATED_MESSAGES = (NO_USER_PREFIX, BULK_NO_CSV, CSV_MISSING, TIME_FRAME, PAST_DATE, OPERATIONS_INVALID,
                   REASSIGN_AMBIGUOUS, REASSIGN_INVALID)
"""The Errors table's messages for the job endpoint: a refusal with one of them is not about the date's form."""
DATE_WORDS = ("date", "schedule", "stamp", "format")

ROWS: dict[str, tuple[tuple[str, ...], dict[str, Any], str, tuple[str, ...]]] = {
    "GDPR-PAST-DATE": (KINDS, {}, PAST_DATE, ("reassign",)),
    "GDPR-OPERATIONS-INVALID": (KINDS, {"operations": []}, OPERATIONS_INVALID, ("reassign",)),
    "GDPR-REASSIGN-INVALID": (KINDS, {"reassignUser": "nobody"}, REASSIGN_INVALID, ("operations",)),
    "GDPR-REASSIGN-AMBIGUOUS": (KINDS, {"reassignUser": "both"}, REASSIGN_AMBIGUOUS, ("operations",)),
    "GDPR-BULK-NO-CSV": (("bulk",), {"csvFileId": None}, BULK_NO_CSV, ("reassign", "operations")),
    "GDPR-CSV-MISSING": (("bulk",), {"csvFileId": "missing"}, CSV_MISSING, ("reassign", "operations")),
    "GDPR-INDIVIDUAL-NO-USER": (("individual",), {"user": None}, NO_USER_PREFIX, ("reassign", "operations")),
}
"""rule -> (the kinds it applies to, the fields that make its row, its message, the guards without [safety]
destructive: never the field under test nor the date). GDPR-PAST-DATE's row is its date (a timeStamp not refused
as past is GDPR-DATE-TIMESTAMP's, as test_gdpr_forms.py judges it); the others are dated years ahead."""


def _cases() -> list[Any]:
    return [pytest.param(rule, kind, field, form, id=f"{rule}-{kind}-{field}-{form}")
            for rule, (kinds, _, _, _) in ROWS.items() for kind in kinds
            for field in KIND_DATE_FIELDS[kind] for form in DATE_FORMS]


@pytest.fixture(scope="module")
def jobs(admin: ApiClient, profile: Profile, user_ids: dict[str, int]) -> Jobs:
    return Jobs(admin, profile, user_ids.get("admin"))


def day_above_12(moment: datetime) -> datetime:
    """``moment`` moved to a day of its month above 12 (13 to 28), so that month and day cannot be swapped."""
    return moment.replace(day=random.SystemRandom().randint(13, 28))


def _job(jobs: Jobs, kind: str, fields: dict[str, Any]) -> dict[str, Any]:
    """A job of ``kind`` whose one error is the row's: a bulk job on the profile's file, an individual job for
    [safety] gdpr_user (a skip naming the fixture it lacks)."""
    if kind == "bulk":
        csv = jobs.profile.fixtures.gdpr_csv_file_id
        if csv is None:
            skip(SkipKind.MISSING_FIXTURE, "not checked: a bulk job whose one error is the row's needs fixture "
                                           "gdpr_csv_file_id", fixtures=["gdpr_csv_file_id"])
        body: dict[str, Any] = {"type": "bulk", "csvFileId": csv, "operations": ["suspend"]}
    else:
        if not jobs.profile.safety.gdpr_user:
            skip(SkipKind.MISSING_FIXTURE, "not checked: an individual job whose one error is the row's needs "
                                           "[safety] gdpr_user", fixtures=["gdpr_user"])
        body = {"type": "individual", "user": jobs.profile.safety.user_spec(), "operations": ["suspend"]}
    extra = dict(fields)
    if extra.get("reassignUser") == "both":
        extra["reassignUser"] = {"username": jobs.admin.username, "id": jobs.admin_id or 1}
    elif extra.get("reassignUser") == "nobody":
        extra["reassignUser"] = {"username": nobody()}
    if extra.get("csvFileId") == "missing":
        extra["csvFileId"] = missing_csv_id(jobs.profile)
    body.update(extra)
    return {k: v for k, v in body.items() if v is not None}


def _send_past(jobs: Jobs, body: dict[str, Any], field: str, form: str,
               guards: tuple[str, ...]) -> tuple[ApiResponse, dict[str, Any], set[str | None]]:
    """The job dated in the past under ``field`` in ``form``: a formatted moment of the years 2005 to 2024 on a day
    above 12; the epoch seconds of a minute ago (in the past read as seconds and as milliseconds)."""
    rnd = random.SystemRandom()
    if form == "formatted":
        moment = datetime(rnd.randint(2005, 2024), rnd.randint(1, 12), rnd.randint(13, 28), rnd.randint(0, 23),
                          rnd.randint(0, 59), tzinfo=UTC)
        value: dict[str, Any] = {"formatted": formatted(moment)}
    else:
        value = {"timeStamp": int(datetime.now(UTC).timestamp()) - 60}
    sent = {k: v for k, v in body.items() if k not in DATE_FIELDS}
    sent[field] = value
    resp, messages = jobs.send(sent, guards)
    return resp, sent, messages


@pytest.mark.rule("GDPR-PAST-DATE", "GDPR-OPERATIONS-INVALID", "GDPR-REASSIGN-INVALID", "GDPR-REASSIGN-AMBIGUOUS",
                  "GDPR-BULK-NO-CSV", "GDPR-CSV-MISSING", "GDPR-INDIVIDUAL-NO-USER", "GDPR-DATE-FORMATTED",
                  "GDPR-DATE-TIMESTAMP")
@pytest.mark.writes
@pytest.mark.parametrize(("rule", "kind", "field", "form"), _cases())
def test_every_job_refusal_holds_for_each_kind_in_every_stated_name_and_form_of_its_date(
        jobs: Jobs, rule: str, kind: str, field: str, form: str) -> None:
    """A check made on one kind's branch, or for one form of the date (a bulk branch reading the date day first, a
    timeStamp branch that fills a missing file in), lets the other combinations through."""
    _, fields, _, _ = ROWS[rule]
    _send_and_judge(jobs, rule, kind, field, form, _job(jobs, kind, fields))


def _send_and_judge(jobs: Jobs, rule: str, kind: str, field: str, form: str, body: dict[str, Any],
                    beside: str = "") -> None:
    """``body`` (a job whose one error is ``rule``'s row) dated under ``field`` in ``form``, and its answer judged:
    the row's 400 and message, else the rule the refusal shows broken (``beside``: the optional fields it carries,
    named in the failure)."""
    _, fields, message, guards = ROWS[rule]
    if rule == "GDPR-PAST-DATE":
        resp, sent, messages = _send_past(jobs, body, field, form, guards)
    else:
        moment = datetime.now(UTC) + timedelta(days=random.SystemRandom().randint(3650, 20000))
        resp, sent, messages = send_dated(jobs, body, field, form, day_above_12(moment), guards=guards)
    error = error_text(resp)
    if resp.status == 400 and error is not None and error.startswith(message):
        return
    if resp.status == 400 and stopped_at_guard(error, messages):
        skip(SkipKind.OTHER, f"inconclusive: the target reported the guard ({error!r}) before the error under test; "
                             "[safety] destructive = false forbids sending this request without a guard")
    about_date = 400 <= resp.status < 500 and error not in STATED_MESSAGES and any(
        w in (error or "").lower() for w in DATE_WORDS)
    # round64 (issue 44): a date 10 to 55 years ahead refused as in the past is the date's reading, not the row's
    about_date = about_date or (resp.status == 400 and error == PAST_DATE and rule != "GDPR-PAST-DATE")
    if about_date and form != "formatted":
        skip(SkipKind.OTHER, f"not judged: the target refused {field} {sent[field]} with {resp.status} {error!r}; the "
                             f"format of {form} is not shown, so another may be the site's")
    blamed = "GDPR-DATE-FORMATTED" if about_date else rule
    if rule == "GDPR-PAST-DATE" and form == "timeStamp" and not about_date:
        blamed = "GDPR-DATE-TIMESTAMP"
    carrying = f", carrying {beside}" if beside else ""
    fail([blamed], f"a {kind} job whose one error is {rule}'s ({ {k: sent.get(k) for k in fields} or 'its date'})"
                   f"{carrying}, dated {field} {sent[field]} (a formatted date is month/day/year): expected 400 "
                   f"{{error: {message!r}}}, got {resp.status} {error!r}", resp)


# ------------------------------------------------------------ each row with the optional fields of a valid job


OPTIONAL_FIELDS: dict[str, tuple[str, Callable[[Jobs], Any]]] = {
    "reassign-by-username": ("reassignUser", lambda jobs: {"username": jobs.admin.username}),
    "reassign-by-id": ("reassignUser", lambda jobs: {"id": jobs.admin_id}),
    "four-operations": ("operations", lambda jobs: list(OPERATIONS)),
}
"""What a valid job of either kind may carry beyond the minimal one the rows above send (fix22, issue 44: a bulk job
with a reassignUser was never sent a missing file): "reassignUser | object | Optional ... by exactly one of username
or id", in each stated form, naming a user who exists (admin); "operations | At least one and at most 4 elements" at
its upper edge (the minimal job carries one). Each is valid, so the row's error stays the job's only one."""


def _optional_cases() -> list[Any]:
    """Every row x each kind it applies to x each optional field that is not the row's own (a row about reassignUser
    or operations already sets that field)."""
    return [pytest.param(rule, kind, name, id=f"{rule}-{kind}-with-{name}")
            for rule, (kinds, fields, _, _) in ROWS.items() for kind in kinds
            for name, (field, _) in OPTIONAL_FIELDS.items() if field not in fields]


@pytest.mark.rule("GDPR-PAST-DATE", "GDPR-OPERATIONS-INVALID", "GDPR-REASSIGN-INVALID", "GDPR-REASSIGN-AMBIGUOUS",
                  "GDPR-BULK-NO-CSV", "GDPR-CSV-MISSING", "GDPR-INDIVIDUAL-NO-USER", "GDPR-DATE-FORMATTED")
@pytest.mark.writes
@pytest.mark.parametrize(("rule", "kind", "optional"), _optional_cases())
def test_every_job_refusal_holds_for_each_kind_carrying_each_optional_field_of_a_valid_job(
        jobs: Jobs, rule: str, kind: str, optional: str) -> None:
    """A check made only on the minimal body of a kind (a bulk branch with a reassignUser that validates the user and
    forgets the file, a reassign branch that fills an empty operations list in) lets the fuller job through. The date
    is the formatted scheduleDate (the date's names and forms are crossed above, on the minimal job)."""
    _, fields, _, _ = ROWS[rule]
    if jobs.admin_id is None and optional == "reassign-by-id":
        skip(SkipKind.MISSING_FIXTURE, "not checked: admin's user id is unknown ([accounts.admin] id), so no "
                                       "reassignUser by id naming a user who exists can be sent",
             fixtures=["accounts.admin.id"])
    field, value = OPTIONAL_FIELDS[optional]
    body = {**_job(jobs, kind, fields), field: value(jobs)}
    _send_and_judge(jobs, rule, kind, "scheduleDate", "formatted", body, f"{field} {body[field]}")


# ------------------------------------------------------------------------------------- type as a request parameter


FORM_ROWS = {"bulk": BULK_NO_CSV, "individual": NO_USER_PREFIX}
"""A form body carrying type alone: the kind's missing-field row (the Errors table's message)."""


@pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD-GDPR", "GDPR-BULK-NO-CSV", "GDPR-INDIVIDUAL-NO-USER")
@pytest.mark.writes
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.rule("GDPR-ERROR-BODY")  # cross17: its checks name them (tests/test_blame_in_marks.py)
def test_type_given_as_a_request_parameter_of_a_form_encoded_body_is_read(admin: ApiClient, kind: str) -> None:
    """``type=<kind>`` in an application/x-www-form-urlencoded body and nothing else: no job of either kind can be
    made without its file or its user, so the request is harmless on any target."""
    resp = admin.post(SCHEDULE, data={"type": kind}, operation="scheduleGdprJob")
    if resp.status == 400:
        every_400_has_error_body(resp)
    error = error_text(resp)
    if resp.status == 400 and error is not None and (error.startswith(FORM_ROWS[kind]) or error == OPERATIONS_INVALID):
        return
    what = (f"a form-encoded job body type={kind} (a request parameter: 'each body field may also be given as a "
            "request or query parameter of the same name')")
    if 200 <= resp.status < 300:
        fail(["GDPR-BULK-NO-CSV" if kind == "bulk" else "GDPR-INDIVIDUAL-NO-USER"],
             f"{what} names no {'file' if kind == 'bulk' else 'user'}: expected 400 {{error: {FORM_ROWS[kind]!r}}}, "
             f"got {resp.status}", resp)
    if resp.status == 415 or "type" in (error or "").lower():
        fail(["CONV-PARAM-AS-BODY-FIELD-GDPR"], f"{what} was not read: got {resp.status} {error!r}, expected the "
                                                f"{kind} kind's row 400 {{error: {FORM_ROWS[kind]!r}}}", resp)
    skip(SkipKind.OTHER, f"not judged: {what} was refused with {resp.status} {error!r}, about another field (the "
                         "date's and the operations' parameter form is not shown)")


# ------------------------------------------------------------------------- reassignUser's id in each stated form


ID_FORMS = ("number", "text")
"""The id's stated forms: a JSON number, and text (as a request parameter carries it)."""


def _ambiguous_cases() -> list[Any]:
    return [pytest.param(order, id_form, id=f"{'-then-'.join(order)}-id-as-{id_form}")
            for order in (("username", "id"), ("id", "username")) for id_form in ID_FORMS]


@pytest.mark.rule("GDPR-REASSIGN-AMBIGUOUS", "GDPR-ERROR-BODY")
@pytest.mark.writes
@pytest.mark.parametrize(("order", "id_form"), _ambiguous_cases())
def test_a_reassign_user_by_username_and_by_id_in_each_stated_form_is_refused(
        jobs: Jobs, order: tuple[str, ...], id_form: str) -> None:
    """A server that counts an id as a way only when it is a JSON number looks the username up and schedules it.

    The description gives reassignUser's id no type, so a server may refuse an id as text as an invalid reassignUser
    rather than as a second way (docs/blind-rounds.md, blind9): the text form must be refused, with either message;
    only the number form is held to the ambiguity message."""
    ident = jobs.admin_id or 1
    values = {"username": jobs.admin.username, "id": ident if id_form == "number" else str(ident)}
    body = jobs.refusable(reassignUser={way: values[way] for way in order})
    if id_form == "number":
        jobs.expect_error(body, REASSIGN_AMBIGUOUS, ("past",), rule="GDPR-REASSIGN-AMBIGUOUS")
        return
    resp, guard_messages = jobs.send(body, ("past",))
    error = error_text(resp)
    if resp.status == 400 and error != REASSIGN_AMBIGUOUS and stopped_at_guard(error, guard_messages):
        skip(SkipKind.OTHER, f"inconclusive: the target reported the guard ({error!r}) before the reassignUser "
                             "under test; [safety] destructive = false forbids sending this request without a guard")
    expect(resp.status == 400, "GDPR-REASSIGN-AMBIGUOUS",
           f"reassignUser {body['reassignUser']} names a user by username and by an id given as text: it is "
           f"either two ways (\"more than one way\") or an invalid reassignUser, never a job to schedule", resp)
