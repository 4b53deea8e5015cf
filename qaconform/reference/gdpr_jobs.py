"""Write handler of a data-protection job (2): its fields checked in the order of the description's messages."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import (
    blind7_paths,
    blind8_paths,
    blind_round9,
    blind_round11,
    blind_round12,
    blind_round13,
    blind_round15,
    blind_round20,
    blind_round26,
    blind_round30,
    blind_round31,
    blind_round32,
    blind_round33,
    blind_round35,
    blind_round38,
    blind_round40,
    blind_round41,
    blind_round43,
    blind_round44,
    blind_round45,
    crossing2_paths,
    crossing3_paths,
    faults,
    fix26_paths,
    fix31_paths,
    jobs4_paths,
    paths15_paths,
    refusals2_paths,
    variants,
)
from .auth import Caller
from .bodies import read_fields, structured
from .db import as_id
from .errors import ApiError, bad_request
from .http_io import json_response
from .service import Service, now_ms

GDPR_OPERATIONS = frozenset({"suspend", "anonymize", "delete", "anon-delete"})
_DAY_MS = 86_400_000
_FORMATTED_DATE = re.compile(r"^\d{2}/\d{2}/\d{4} \d{2}:\d{2}$")


async def schedule_gdpr_job(svc: Service, request: Request, caller: Caller) -> Response:
    fields = await read_fields(request)
    refusals2_paths.body_fields("scheduleGdprJob", request, fields)  # refusals2 (issue 44)
    blind_round20.gdpr_operations_over_limit(fields)  # round20 (issue 44): the limit's refusal body
    if faults.is_on("gdpr-params-ignored"):
        fields = {k: v for k, v in fields.items() if k not in request.query_params}
    if faults.is_on("gdpr-csv-param-ignored") and "csvFileId" in request.query_params:
        fields.pop("csvFileId", None)
    in_query = "type" in request.query_params  # writecross (issue 44): the error body broken in one form only
    if faults.is_on("gdpr-error-body-message") or (in_query and faults.is_on("gdpr-error-body-message-query")):
        try:
            return _schedule(svc, caller, fields)
        except ApiError as exc:
            raise ApiError(exc.status, {"message": exc.body.get("error")}) from None
    skipped = crossing2_paths.skipped_checks(request.query_params.keys(), fields)  # crossing2 (issue 44)
    skipped |= crossing3_paths.refused_forms(request.query_params.keys(), fields)  # crossing3 (issue 44)
    skipped |= jobs4_paths.skipped(svc, request.query_params.keys(), fields, _schedule_ms)  # jobs4 (issue 44)
    skipped |= blind_round31.skipped(request.query_params.keys())  # round31 (issue 44)
    skipped |= fix31_paths.skipped(request.query_params.keys())  # fix31 (issue 44): operations as a parameter
    fix31_paths.job_fields(fields)  # fix31 (issue 44): a reassignUser id past 32 bits
    blind_round43.job_fields(request.query_params.keys(), fields)  # round43 (issue 44): a parameter's pair
    return _schedule(svc, caller, fields, skipped)


def _schedule(svc: Service, caller: Caller, fields: dict[str, Any], skipped: frozenset[str] = frozenset()) -> Response:
    kind = fields.get("type")
    if kind is None and faults.is_on("gdpr-no-type-is-individual"):
        kind = "individual"
    kind = blind7_paths.gdpr_kind(kind, fields)  # blind7 (issue 44)
    kind = blind_round15.gdpr_kind(kind, fields)  # round15 (issue 44)
    kind = jobs4_paths.job_kind(kind, fields, skipped)  # jobs4 (issue 44)
    kind = blind_round41.job_kind(kind, fields)  # round41 (issue 44): no type, dated by scheduleTime
    if kind not in ("bulk", "individual"):
        blind_round32.type_refusal(kind)  # round32 (issue 44): an unknown type value's refusal body
        raise bad_request("The provided 'type' is invalid")
    if kind == "individual" and faults.is_on("gdpr-individual-with-csv-taken-as-bulk") and fields.get("user") in (
            None, "") and fields.get("csvFileId") not in (None, ""):
        kind = "bulk"  # the field beside the missing one decides the job's kind
    fields = blind_round13.gdpr_fields(kind, fields)  # round13 (issue 44)
    if kind == "individual":
        _check_user(svc, fields, skipped)
    elif blind_round15.gdpr_csv_needed(fields):  # round15 (issue 44)
        _check_csv_file(svc, fields)
    user = structured(fields, "user")
    if not (kind == "individual" and isinstance(user, dict) and _present(user, "id")
            and faults.is_on("gdpr-operations-unchecked-for-user-id")) and crossing2_paths.OPERATIONS not in skipped \
            and not blind_round31.operations_unchecked(fields):  # round31 (issue 44): a user by email
        _check_operations(fields)
    crossing3_paths.check_operations(fields, skipped)  # crossing3 (issue 44): a stated form refused in one cell
    blind_round45.reassign_self_refused(caller, structured(fields, "reassignUser"))  # round45 (issue 44)
    _check_reassign_user(svc, fields, skipped)
    by_id = kind == "individual" and isinstance(user, dict) and _present(user, "id")  # blindw (issue 44)
    unchecked = by_id and faults.is_on("blind-gdpr-user-id-time-frame-unchecked")  # the new job replaces the old
    unchecked = unchecked or jobs4_paths.FRAME_UNCHECKED in skipped  # jobs4 (issue 44): one stated form only
    replace = unchecked or faults.is_on("blind5-gdpr-time-frame-per-type")  # blind5: a frame per type, one row
    replace = replace or faults.is_on("blind9-time-frame-keyed-by-user-form")  # blind9 (issue 44): one row a frame
    replace = replace or blind_round26.frame_replaces() or fix26_paths.frame_replaces()  # round26, fix26: one row
    _blind_delete_needs_reassign(fields)
    minute = _free_time_frame(svc, fields, not unchecked, crossing2_paths.PAST not in skipped)
    with svc.tx("job") as conn:
        cur = conn.execute(
            ("INSERT OR REPLACE" if replace else "INSERT")
            + " INTO jobs(type, schedule_minute, request, created_by, creation_date) VALUES (?, ?, ?, ?, ?)",
            (kind, minute, json.dumps(fields, default=str)[:100_000], caller.id, now_ms()),
        )
    key = "id" if faults.is_on("gdpr-jobid-missing") else "jobId"
    status = blind7_paths.gdpr_status(kind, fields, 200 if faults.is_on("gdpr-created-200") else 201)  # blind7
    body = blind_round12.job_body(user, {key: int(cur.lastrowid or 0)})  # round12 (issue 44)
    body = jobs4_paths.job_body(fields, body)  # jobs4 (issue 44)
    return json_response(body, status)


def _check_user(svc: Service, fields: dict[str, Any], skipped: frozenset[str] = frozenset()) -> None:
    """An individual job names exactly one existing user, by username, email or id."""
    user = structured(fields, "user")
    if user is None or user == "":
        if faults.is_on("gdpr-individual-no-user-message"):
            raise bad_request("'user' is required")
        raise bad_request("The individual type was selected, but the request is missing the user field.")
    by_name_only = isinstance(user, dict) and [k for k in user if _present(user, k)] == ["username"]
    if by_name_only and variants.is_on("gdpr-user-by-username-refused"):
        raise bad_request("The provided 'user' is invalid")
    by_email = isinstance(user, dict) and _present(user, "email")
    reassign = structured(fields, "reassignUser")
    email_looked_up_by_id = by_email and faults.is_on("gdpr-user-email-refused") and isinstance(
        reassign, dict) and _present(reassign, "id")
    if by_email:
        blind_round33.email_user_refused(structured(fields, "operations"))  # round33 (issue 44)
    blind_round38.email_user_refused(fields, by_email)  # round38 (issue 44): an email user, a time stamp
    by_id = isinstance(user, dict) and _present(user, "id")  # crossing2 (issue 44): a form refused in one cell
    crossed = (by_id and crossing2_paths.USER_BY_ID in skipped) or (
        by_email and crossing2_paths.USER_BY_EMAIL in skipped)
    if not _find_user(svc, user, ("username", "email", "id")) or (
            by_email and faults.is_on("gdpr-user-by-email-refused")) or email_looked_up_by_id or crossed or (
            blind_round40.user_refused(fields, user)):  # round40 (issue 44): by id on a job dated by timeStamp
        raise bad_request("The provided 'user' is invalid")


def _check_csv_file(svc: Service, fields: dict[str, Any]) -> None:
    """A bulk job names an uploaded CSV file."""
    blind_round41.csv_null(fields)  # round41 (issue 44): a csvFileId given as null
    csv = fields.get("csvFileId")
    if csv is None or csv == "" or (str(csv).strip() == "0" and faults.is_on("blinde-gdpr-csv-zero-read-as-missing")):
        if faults.is_on("gdpr-bulk-no-csv-message"):
            raise bad_request("'csvFileId' is required")
        raise bad_request("The bulk type was selected, but the request is missing the csvFileId field.")
    csv_id = as_id(csv)
    missing = csv_id is None or svc.db.one("SELECT 1 FROM csv_files WHERE id = ?", (csv_id,)) is None
    missing = missing and not blind8_paths.csv_lookup_skipped(csv)  # blind8 (issue 44)
    missing = missing and not blind_round30.csv_lookup_skipped(fields)  # round30 (issue 44)
    if missing and not faults.is_on("gdpr-csv-missing-accepted"):
        raise bad_request("The requested file does not exist")


def _check_operations(fields: dict[str, Any]) -> None:
    operations = structured(fields, "operations")
    if isinstance(operations, str):
        operations = [o.strip() for o in operations.split(",") if o.strip()]
    if isinstance(operations, list) and faults.is_on("blindc-gdpr-operations-deduped-before-count"):
        operations = list(dict.fromkeys(o for o in operations if isinstance(o, str)))  # blindc (issue 44)
    most = 5 if faults.is_on("gdpr-five-operations-accepted") else 4
    if faults.is_on("gdpr-four-operations-refused"):
        most = 3
    known = GDPR_OPERATIONS - {"anon-delete"} if faults.is_on("gdpr-anon-delete-refused") else GDPR_OPERATIONS
    if isinstance(operations, list) and faults.is_on("blinde-gdpr-operations-order-checked"):
        order = ["suspend", "anonymize", "delete", "anon-delete"]  # blinde: compared with the documented order
        if all(o in order for o in operations) and operations != sorted(operations, key=order.index):
            raise bad_request("The provided 'operations' is/are invalid")
    named = operations[:3] if isinstance(operations, list) and faults.is_on(
        "blind5-gdpr-fourth-operation-unchecked") else operations  # blind5 (issue 44): off by one
    if (
        not isinstance(operations, list)
        or not 1 <= len(operations) <= most
        or not all(isinstance(o, str) and o in known for o in named)
    ):
        raise bad_request("The provided 'operations' is/are invalid")


def _blind_delete_needs_reassign(fields: dict[str, Any]) -> None:
    """blinda (issue 44): operations holding delete without a reassignUser refused as invalid."""
    if not faults.is_on("blind-gdpr-delete-needs-reassign"):
        return
    operations = structured(fields, "operations")
    if isinstance(operations, str):
        operations = [o.strip() for o in operations.split(",")]
    reassign = structured(fields, "reassignUser")
    if isinstance(operations, list) and "delete" in operations and reassign in (None, "", {}):
        raise bad_request("The provided 'operations' is/are invalid")


def _check_reassign_user(svc: Service, fields: dict[str, Any], skipped: frozenset[str] = frozenset()) -> None:
    """An optional reassignUser names exactly one existing user, by username or id."""
    reassign = structured(fields, "reassignUser")
    if reassign is None or reassign == "" or crossing2_paths.REASSIGN_LOOKUP in skipped:
        return
    if faults.is_on("blind-gdpr-reassign-id-zero-ignored") and isinstance(reassign, dict) and str(
            reassign.get("id")).strip() == "0" and not _present(reassign, "username"):
        return  # blinda (issue 44): a falsy id taken as no reassignUser
    both = isinstance(reassign, dict) and _present(reassign, "username") and _present(reassign, "id")
    reassign, both = blind_round20.reassign_form(reassign, both)  # round20 (issue 44): an id as text not counted
    reassign, both = blind_round26.reassign_pair(fields, reassign, both)  # round26 (issue 44)
    reassign, both = blind_round41.reassign_pair(structured(fields, "user"), reassign, both)  # round41 (issue 44)
    if both and faults.is_on("gdpr-reassign-both-ways-by-id-email") and next(iter(reassign)) == "id":
        reassign = {"id": reassign["id"]}  # the first key found decides; the username after it is never read
        both = False
    if both and faults.is_on("blinde-gdpr-reassign-agreeing-pair-taken") and svc.db.one(
            "SELECT 1 FROM users WHERE username = ? AND id = ?", (str(reassign["username"]), as_id(reassign["id"]))):
        reassign, both = {"id": reassign["id"]}, False  # blinde: two ways naming one user taken as one
    if both and not faults.is_on("gdpr-reassign-ambiguous-unnoticed") and crossing2_paths.REASSIGN_BOTH not in skipped:
        raise bad_request("The request contains more than one reassignUser eligible configuration")
    lenient = faults.is_on("gdpr-reassign-invalid-accepted") or (  # blind5 (issue 44): bulk jobs below
        fields.get("type") == "bulk" and faults.is_on("blind5-gdpr-bulk-reassign-unchecked")) or (
        faults.is_on("gdpr-reassign-invalid-id-accepted") and isinstance(reassign, dict) and _present(reassign, "id")
    ) or not blind_round9.reassign_checked(structured(fields, "operations")) or (  # blind9: looked up only with delete
        blind_round31.REASSIGN_PARAM in skipped)  # round31 (issue 44): a reassignUser given as a request parameter
    lenient = lenient or blind_round44.reassign_names_group(svc.db, reassign)  # round44 (issue 44): a group's name
    refused_form = isinstance(reassign, dict) and (
        (faults.is_on("gdpr-reassign-by-id-refused") and _present(reassign, "id"))
        or (faults.is_on("gdpr-reassign-by-username-refused") and _present(reassign, "username")))
    looked_up = blind_round11.reassign_lookup_key(structured(fields, "user"), reassign)  # round11 (issue 44)
    refused_form = refused_form or blind_round12.reassign_refused(fields, reassign)  # round12 (issue 44)
    refused_form = refused_form or crossing3_paths.reassign_refused(reassign, skipped)  # crossing3 (issue 44)
    refused_form = refused_form or blind_round32.reassign_refused(structured(fields, "user"), reassign)  # round32
    refused_form = refused_form or blind_round40.reassign_refused(svc, fields, reassign)  # round40 (issue 44)
    refused_form = refused_form or paths15_paths.reassign_refused(svc.db, fields, reassign)  # paths15 (issue 44)
    blind_round35.bulk_reassign_refused(fields, reassign)  # round35 (issue 44): a bulk job's reassignUser by id only
    if (not _find_user(svc, looked_up, ("username", "id")) and not lenient) or refused_form:
        raise bad_request("The provided 'reassignUser' is/are invalid")


def _free_time_frame(svc: Service, fields: dict[str, Any], check_taken: bool = True, check_past: bool = True) -> int:
    """The job's time frame (a minute, or an hour under a variant): in the future and not taken by another job."""
    when = _schedule_ms(fields)
    now = now_ms()
    past = when < now
    if faults.is_on("gdpr-past-within-a-day-accepted"):
        past = when < now - _DAY_MS
    if faults.is_on("gdpr-next-day-refused-as-past"):
        past = when < now + _DAY_MS
    if past and blind7_paths.gdpr_past_unchecked(fields, structured(fields, "scheduleDate")):  # blind7
        past = False
    if past and blind_round15.gdpr_past_unchecked(fields, structured(fields, "scheduleDate"),
                                                  structured(fields, "user")):  # round15 (issue 44)
        past = False
    if past and blind_round33.bulk_timestamp_future(fields, structured(fields, "scheduleDate")):  # round33
        past = False
    if past and blind_round43.past_unchecked(fields):  # round43 (issue 44): a user by email
        past = False
    if past and check_past and not faults.is_on("gdpr-past-date-accepted"):
        blind_round12.past_date_refusal(structured(fields, "scheduleDate"))  # round12 (issue 44)
        raise bad_request("The desired date is in the past and is it not eligible.")
    minute = when // (3_600_000 if variants.is_on("gdpr-time-frame-hour") else 60_000)
    taken = svc.db.one("SELECT 1 FROM jobs WHERE schedule_minute = ?", (minute,)) is not None
    taken = blind_round9.frame_taken(svc, fields, structured(fields, "user"), minute, taken)  # blind9 (issue 44)
    taken = blind_round26.frame_taken(svc.db, fields, minute, taken)  # round26 (issue 44)
    taken = fix26_paths.frame_taken(svc.db, fields, minute, taken)  # fix26 (issue 44)
    if taken and faults.is_on("blind5-gdpr-time-frame-per-type"):  # blind5 (issue 44): the frame looked up per type
        taken = svc.db.one("SELECT 1 FROM jobs WHERE schedule_minute = ? AND type = ?",
                           (minute, fields.get("type"))) is not None
    if taken and faults.is_on("blind-gdpr-timeframe-error-key"):  # blinda (issue 44)
        raise ApiError(400, {"message": "There is a job already scheduled for that time frame."})
    if taken and check_taken and not faults.is_on("gdpr-time-frame-ignored"):
        raise bad_request("There is a job already scheduled for that time frame.")
    return minute


def _find_user(svc: Service, spec: Any, keys: tuple[str, ...]) -> bool:
    """Exactly one of ``keys`` is given and names an existing user."""
    if not isinstance(spec, dict):
        return False
    given = [k for k in keys if _present(spec, k)]
    if len(given) != 1:
        return False
    key = given[0]
    value = spec[key]
    if key == "id":
        ident = as_id(value)
        if ident is None:
            return False
        return svc.db.one("SELECT 1 FROM users WHERE id = ?", (ident,)) is not None
    if not isinstance(value, str):
        return False
    return svc.db.one(f"SELECT 1 FROM users WHERE {key} = ?", (value,)) is not None


def _schedule_ms(fields: dict[str, Any]) -> int:
    invalid = bad_request("The provided 'scheduleDate' is invalid")
    spec = structured(fields, "scheduleDate")
    if spec is None or spec == "":
        spec = structured(fields, "scheduleTime")
    if not isinstance(spec, dict):
        raise invalid
    formatted = spec.get("formatted")
    stamp = spec.get("timeStamp")
    if formatted is not None:
        if not isinstance(formatted, str) or not _FORMATTED_DATE.match(formatted):
            raise invalid
        if faults.is_on("gdpr-formatted-date-refused") or blind_round31.formatted_refused(formatted):  # round31
            raise invalid
        pattern = "%m/%d/%Y %I:%M" if faults.is_on("blindc-gdpr-formatted-hour-12h") else "%m/%d/%Y %H:%M"
        try:
            dt = datetime.strptime(formatted, pattern).replace(tzinfo=UTC)
        except ValueError:
            raise invalid from None
        return int(dt.timestamp() * 1000)
    if faults.is_on("gdpr-timestamp-ignored"):
        return now_ms() + 1_000  # dated now (a second ahead, so that it is not refused as past)
    if isinstance(stamp, str) and stamp.strip().isdecimal():
        stamp = int(stamp.strip())
    if isinstance(stamp, bool) or not isinstance(stamp, int) or not 0 <= stamp < 10**14:
        raise invalid
    return stamp * 1000 if variants.is_on("gdpr-timestamp-seconds") else stamp


def _present(spec: dict[str, Any], key: str) -> bool:
    return spec.get(key) not in (None, "")
