"""The job requests of the input form matrix (test_input_form_matrix.py, issue 44): the stated messages of the
data-protection job's refusals, and per row of a job rule's covering array the request whose one error is the rule's
(its scalar fields, type and csvFileId, in the row's input form; the fields with no parameter form shown,
scheduleDate, operations, reassignUser, user, in the JSON body), the guards such a request carries, and the users a
row names. A module of its own so that the matrix module keeps to its tests (crossing3: moved unchanged from
test_input_form_matrix.py; test ids unchanged).

Every request built here names no real user and no real file unless the row needs the profile's (a bulk job whose
only error is the one under test, on ``gdpr_csv_file_id``; an individual job's ``[safety] gdpr_user``), and then
carries the guards of test_gdpr_jobs.py without ``[safety] destructive`` (:func:`job_guards`).
"""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime
from typing import Any

from input_forms import PARAM_WINS, STATED, Case

from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

NO_USER_PREFIX = "The individual type was selected, but the request is missing the user"
OPERATIONS_INVALID = "The provided 'operations' is/are invalid"
BULK_NO_CSV = "The bulk type was selected, but the request is missing the csvFileId field."
CSV_MISSING = "The requested file does not exist"
PAST_DATE = "The desired date is in the past and is it not eligible."
REASSIGN_AMBIGUOUS = "The request contains more than one reassignUser eligible configuration"
REASSIGN_INVALID = "The provided 'reassignUser' is/are invalid"


def future() -> str:
    rnd = random.SystemRandom()
    return f"{rnd.randint(1, 12):02d}/{rnd.randint(1, 28):02d}/{rnd.randint(2031, 2099)} " \
           f"{rnd.randint(0, 23):02d}:{rnd.randint(0, 59):02d}"


def nobody() -> dict[str, str]:
    """A user that exists nowhere: a job request of the matrix never names a real one."""
    return {"username": f"qc-nobody-{uuid.uuid4().hex[:12]}"}


def missing_csv(profile: Profile) -> int:
    value = 2_147_000_000 + random.SystemRandom().randint(0, 400_000)
    return value + 1 if value == profile.fixtures.gdpr_csv_file_id else value


def error_of(resp: ApiResponse) -> str | None:
    try:
        body = resp.json()
    except AssertionError:
        return None
    return body.get("error") if isinstance(body, dict) and isinstance(body.get("error"), str) else None


LATER_REFUSALS = {"GDPR-PAST-DATE": PAST_DATE, "GDPR-OPERATIONS-INVALID": OPERATIONS_INVALID,
                  "GDPR-REASSIGN-AMBIGUOUS": REASSIGN_AMBIGUOUS, "GDPR-REASSIGN-INVALID": REASSIGN_INVALID}
"""crossing2 (issue 44): the job's refusals of a field that is not a scalar (scheduleDate, operations, reassignUser:
no parameter form shown, so always in the JSON body) -> their stated message. Each is sent on a bulk job naming the
profile's file, whose scalar fields (type, csvFileId) take every input form the description states: in the JSON
body, as query parameters, or type as a parameter winning over a body that says individual (a body that won is an
individual job without user)."""


def past() -> str:
    """A moment of the years 2005 to 2024 (in the past wherever the run is), formatted as the description shows."""
    rnd = random.SystemRandom()
    return f"{rnd.randint(1, 12):02d}/{rnd.randint(1, 28):02d}/{rnd.randint(2005, 2024)} " \
           f"{rnd.randint(0, 23):02d}:{rnd.randint(0, 59):02d}"


def _later_refusal(case: Case, profile: Profile, rest: dict[str, Any], param_wins: bool,
                   admin: tuple[str, int]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], str, str | None]:
    """A bulk job on the profile's file whose one error is the rule's (an ambiguous reassignUser names ``admin``,
    the scheduling account, by username and id); beside it (stated) a user who exists nowhere. Without the file no
    job of the kind can be made whose only error is the rule's: not checked, said so."""
    csv = profile.fixtures.gdpr_csv_file_id
    if csv is None:
        skip(SkipKind.MISSING_FIXTURE, f"not checked: {case.rule} {case.label} needs fixture gdpr_csv_file_id (a bulk "
                                       "job whose only error is the one under test)", fixtures=["gdpr_csv_file_id"])
    if case.other == STATED:
        rest["user"] = nobody()
    if case.rule == "GDPR-PAST-DATE":
        rest["scheduleDate"] = {"formatted": past()}
    elif case.rule == "GDPR-OPERATIONS-INVALID":
        rest["operations"] = random.SystemRandom().choice([[], ["qc-not-an-operation"]])
    elif case.rule == "GDPR-REASSIGN-AMBIGUOUS":
        rest["reassignUser"] = {"username": admin[0], "id": admin[1]}
    else:
        rest["reassignUser"] = nobody()
    # a body that won makes an individual job without user; with a user beside, one naming a user who exists
    # nowhere, whose message the description does not give, so it names no other rule
    won = None if case.other == STATED else NO_USER_PREFIX
    return {"type": "bulk", "csvFileId": csv}, rest, {"type": "individual"} if param_wins else {}, \
        LATER_REFUSALS[case.rule], won


def build_job(case: Case, profile: Profile,
         admin: tuple[str, int]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], str, str | None]:
    """(fields, rest, losing, expected message, the message a request whose body won would get instead)."""
    rest: dict[str, Any] = {"scheduleDate": {"formatted": future()}, "operations": ["suspend"]}
    param_wins = case.form == PARAM_WINS
    if case.rule == "GDPR-INDIVIDUAL-NO-USER":
        fields: dict[str, Any] = {"type": "individual"}
        if case.other == STATED:
            fields["csvFileId"] = missing_csv(profile)
            # round13 (issue 44): the stated field shaped like the missing user, beside it: a server that takes
            # ``user or reassignUser`` finds a user there (one that exists nowhere: never a real user's job)
            rest["reassignUser"] = nobody()
        # a body that won makes a bulk job without file; with a csvFileId beside, a bulk job naming no file: the
        # answer a server that took the extra field for the job's kind gives too, so it names no other rule
        won = None if case.other == STATED else BULK_NO_CSV
        return fields, rest, {"type": "bulk"} if param_wins else {}, NO_USER_PREFIX, won
    if case.rule == "GDPR-BULK-NO-CSV":
        if case.other == STATED:
            rest["user"] = nobody()
        return {"type": "bulk"}, rest, {"type": "individual"} if param_wins else {}, BULK_NO_CSV, \
            None if case.other == STATED else NO_USER_PREFIX
    if case.rule in LATER_REFUSALS:
        return _later_refusal(case, profile, rest, param_wins, admin)
    assert case.rule == "GDPR-CSV-MISSING"
    if case.other == STATED:
        rest["user"] = nobody()
    losing: dict[str, Any] = {}
    if param_wins:
        real = profile.fixtures.gdpr_csv_file_id
        if real is None:
            skip(SkipKind.MISSING_FIXTURE, f"not checked: {case.label} needs fixture gdpr_csv_file_id (the body names "
                                           "a file that exists, the winning parameter one that does not)",
                 fixtures=["gdpr_csv_file_id"])
        losing = {"csvFileId": real}
    return {"type": "bulk", "csvFileId": missing_csv(profile)}, rest, losing, CSV_MISSING, None


def job_guards(case: Case, profile: Profile, admin: ApiClient, admin_id: int | None,
            rest: dict[str, Any]) -> set[str]:
    """The guards a job request carries, and their messages: without [safety] destructive a past date and
    reassignUser given two ways (test_gdpr_jobs.py); a param_wins request of GDPR-CSV-MISSING always the second."""
    messages: set[str] = set()
    own = {"GDPR-PAST-DATE": "scheduleDate", "GDPR-DATE-TIMESTAMP": "scheduleDate",  # jobs4 (issue 44)
           "GDPR-REASSIGN-AMBIGUOUS": "reassignUser",
           "GDPR-REASSIGN-INVALID": "reassignUser"}.get(case.rule)  # a guard never replaces the field under test
    if "reassignUser" in rest and own != "reassignUser":  # round13: one beside (stated) names nobody; checked first?
        messages.add(REASSIGN_INVALID)
    if not profile.safety.destructive and own != "scheduleDate":
        rest["scheduleDate"] = {"formatted": "01/01/2001 00:00"}
        messages.add(PAST_DATE)
    if own != "reassignUser" and (not profile.safety.destructive or (
            case.rule == "GDPR-CSV-MISSING" and case.form == PARAM_WINS)):
        rest["reassignUser"] = {"username": admin.username, "id": admin_id or 1}
        messages |= {REASSIGN_AMBIGUOUS, REASSIGN_INVALID}
    return messages


USER_FORMS = ("email", "id")
"""The stated forms of an individual job's user ("Exactly one of username, email, id"; id an integer in the
contract's schema) each row sends; username alone is not judged (test_gdpr_forms.py USER_FORMS_EXCLUDED says why)."""


def user_of(profile: Profile, form: str) -> dict[str, Any]:
    """[safety] gdpr_user by one stated form, or a skip naming the key it needs."""
    safety = profile.safety
    value = safety.gdpr_user_email if form == "email" else safety.gdpr_user_id
    if not safety.gdpr_user or value is None:
        key = "gdpr_user_email" if form == "email" else "gdpr_user_id"
        skip(SkipKind.MISSING_FIXTURE, f"not checked: a job naming its user by {form} needs [safety] gdpr_user and "
                                       f"{key}", fixtures=[key])
    return {form: value}


# crossing3 (issue 44): the job's stated forms that must be taken, in every form of its scalar fields

TAKEN = ("GDPR-USER-FORMS", "GDPR-REASSIGN-FORMS", "GDPR-OPERATIONS-RANGE")
"""The job rules whose rows send a stated form that must be taken (a job whose one error is its past date): each row
judges its own answers and their bodies, so none is among the refusals judged per row for GDPR-ERROR-BODY."""

REASSIGN_FORMS = ("username", "id")
"""The stated forms of reassignUser ("by exactly one of username or id"), each row sends both."""

OPERATIONS = ("suspend", "anonymize", "delete", "anon-delete")


def stated_operations() -> list[str]:
    """2 to 4 distinct stated names in a drawn order ("At least one and at most 4 elements, from suspend, anonymize,
    delete, anon-delete"): a list of one name is what every other job row of the matrix sends, so taken there."""
    rnd = random.SystemRandom()
    return rnd.sample(OPERATIONS, rnd.randint(2, len(OPERATIONS)))


def reassign_of(who: tuple[str | None, int | None], form: str) -> dict[str, Any]:
    """The scheduling account (admin: it exists wherever the run does) named by one stated form, or a skip."""
    value = who[0] if form == "username" else who[1]
    if value is None:
        skip(SkipKind.OTHER, f"not judged: the {form} of the scheduling account (admin) is not known to name it as "
                             "a job's reassignUser")
    return {form: value}


Body = dict[str, Any]


def past_bulk_job(case: Case, profile: Profile, field: Body,
                  admin: tuple[str | None, int | None]) -> tuple[Body, Body, Body, set[str]]:
    """(fields, rest, losing, guards) of a bulk job on the profile's file dated in the past whose ``field`` (a
    reassignUser or an operations list in a stated form) must be taken: the past date's 400 is then the one stated
    answer. Beside it (stated) a user who exists nowhere; a param_wins body says individual (a body that won is an
    individual job without user). Without [safety] destructive a second guard that is not the field under test: an
    invalid operations list, or reassignUser given two ways (test_gdpr_jobs.py)."""
    csv = profile.fixtures.gdpr_csv_file_id
    if csv is None:
        skip(SkipKind.MISSING_FIXTURE, f"not checked: {case.rule} {case.label} needs fixture gdpr_csv_file_id (a bulk "
                                       "job whose only error is its past date)", fixtures=["gdpr_csv_file_id"])
    rest: dict[str, Any] = {"scheduleDate": {"formatted": past()}, "operations": ["suspend"], **field}
    if case.other == STATED:
        rest["user"] = nobody()
    guards: set[str] = set()
    if not profile.safety.destructive and "reassignUser" in field:
        rest["operations"], guards = ["qc-not-an-operation"], {OPERATIONS_INVALID}
    elif not profile.safety.destructive and admin[0] is not None and admin[1] is not None:
        rest["reassignUser"], guards = {"username": admin[0], "id": admin[1]}, {REASSIGN_AMBIGUOUS, REASSIGN_INVALID}
    elif not profile.safety.destructive:
        rest["operations"], guards = ["qc-not-an-operation"], {OPERATIONS_INVALID}  # no other guard: not judged
    losing = {"type": "individual"} if case.form == PARAM_WINS else {}
    return {"type": "bulk", "csvFileId": csv}, rest, losing, guards


# jobs4 (issue 44): the missing type in every form of the job's scalar field

NO_STATED_ERROR = ("GDPR-BULK-NO-TYPE", "GDPR-DATE-TIMESTAMP")
"""Job refusals the description states no status or message for ("shown as incorrect": a 4xx is judged), so their
rows are not among those GDPR-ERROR-BODY judges per row (every 400 of the job endpoint is judged in the scenarios);
nor the timeStamp's, whose format is not shown (a refusal of its format is not judged)."""


def typeless_job(case: Case, profile: Profile) -> tuple[Body, Body]:
    """(fields, rest) of a job without type: csvFileId (the profile's file, else one naming none) as the row's
    scalar field; beside it (stated) the profile's gdpr_user, else a user who exists nowhere. Dated years ahead:
    without [safety] destructive :func:`job_guards` adds its guards."""
    csv = profile.fixtures.gdpr_csv_file_id
    rest: Body = {"scheduleDate": {"formatted": future()}, "operations": ["suspend"]}
    if case.other == STATED:
        rest["user"] = profile.safety.user_spec() if profile.safety.gdpr_user else nobody()
    return {"csvFileId": csv if csv is not None else missing_csv(profile)}, rest


def past_stamp() -> int:
    """The epoch seconds of a minute ago: in the past read as seconds and as milliseconds (1970), whichever reading
    of the timeStamp (its format: not shown) the target has."""
    return int(datetime.now(UTC).timestamp()) - 60


def timestamp_job(case: Case, profile: Profile) -> tuple[Body, Body, Body]:
    """(fields, rest, losing) of a bulk job on the profile's file dated a minute ago by timeStamp, type and
    csvFileId in the row's form (a param_wins body says individual: a body that won is an individual job without
    user); beside it (stated) a user who exists nowhere. Without the file no such job has its date as its only error:
    a skip naming the fixture."""
    csv = profile.fixtures.gdpr_csv_file_id
    if csv is None:
        skip(SkipKind.MISSING_FIXTURE, f"not checked: {case.rule} {case.label} needs fixture gdpr_csv_file_id (a bulk "
                                       "job whose only error is its past date)", fixtures=["gdpr_csv_file_id"])
    rest: Body = {"scheduleDate": {"timeStamp": past_stamp()}, "operations": ["suspend"]}
    if case.other == STATED:
        rest["user"] = nobody()
    return {"type": "bulk", "csvFileId": csv}, rest, {"type": "individual"} if case.form == PARAM_WINS else {}
