"""Where the faults of :mod:`faults_jobs4` bite (issue 44, jobs4): a data-protection job rule broken in one stated
form of the job's fields only (the date's field name, scheduleDate or the sample's scheduleTime; its form, formatted
or timeStamp; the user's id as text; type as a request parameter), each hooked by one line into gdpr_jobs.py. Also
the re-planted blind round 16 fault on the time frame (/work/notes/s6/blind-round16.md). Nothing changes while no
such fault is on."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from . import faults, variants
from .bodies import structured
from .crossing2_paths import PAST, cells
from .service import Service

SCHEDULE_TIME = "round16-gdpr-time-frame-scheduletime"
TIMESTAMP = "jobs4-time-frame-timestamp-unchecked"
USER_ID_TEXT = "jobs4-time-frame-user-id-text"
TYPE_PARAM = "jobs4-time-frame-type-param"
HELD_BY_DATE = "jobs4-time-frame-held-by-schedule-date-only"
FRAME_UNCHECKED = "jobs4_frame_unchecked"
"""The mark :func:`skipped` adds to the handler's skipped checks: the time frame is not looked up."""
TYPELESS_BULK = "jobs4_typeless_bulk"
"""The mark of a type-less request whose csvFileId came as a request parameter (jobs4-typeless-csv-param-bulk)."""


def _present(fields: Mapping[str, Any], name: str) -> bool:
    return fields.get(name) not in (None, "")


def _date(fields: Mapping[str, Any]) -> Any:
    """The job's date object as the handler reads it: scheduleDate, else scheduleTime."""
    spec = structured(dict(fields), "scheduleDate")
    return spec if spec not in (None, "") else structured(dict(fields), "scheduleTime")


def frame_unchecked(svc: Service, query: Iterable[str], fields: Mapping[str, Any],
                    when_ms: Callable[[dict[str, Any]], int]) -> bool:
    """Whether a fault of this module lets this job into a taken time frame (the new job then replaces the old)."""
    if faults.is_on(SCHEDULE_TIME) and not _present(fields, "scheduleDate") and _present(fields, "scheduleTime"):
        return True  # round16 (issue 44): the taken check reads scheduleDate only
    date = _date(fields)
    if faults.is_on(TIMESTAMP) and isinstance(date, dict) and date.get("timeStamp") not in (None, "") \
            and date.get("formatted") in (None, ""):
        return True
    user = structured(dict(fields), "user")
    if faults.is_on(USER_ID_TEXT) and isinstance(user, dict) and isinstance(user.get("id"), str):
        return True
    if faults.is_on(TYPE_PARAM) and "individual_type_param" in cells(query, fields):
        return True
    if faults.is_on(HELD_BY_DATE) and _present(fields, "scheduleDate"):
        return _held_by_schedule_time_only(svc, when_ms(dict(fields)))
    return False


def skipped(svc: Service, query: Iterable[str], fields: Mapping[str, Any],
            when_ms: Callable[[dict[str, Any]], int]) -> frozenset[str]:
    """The handler's checks a fault of this module switches off for this request: the time frame, the type (a
    type-less request with csvFileId as a parameter taken as bulk), or none."""
    out = {FRAME_UNCHECKED} if frame_unchecked(svc, query, fields, when_ms) else set()
    if faults.is_on("jobs4-typeless-csv-param-bulk") and "csvFileId" in set(query) and not _present(fields, "type"):
        out.add(TYPELESS_BULK)
    date = _date(fields)
    if faults.is_on("jobs4-timestamp-past-unchecked-type-param") and "type" in set(query) and isinstance(
            date, dict) and date.get("timeStamp") not in (None, "") and date.get("formatted") in (None, ""):
        out.add(PAST)  # crossing2's mark: the past-date check skipped
    return frozenset(out)


def _held_by_schedule_time_only(svc: Service, when: int) -> bool:
    """Every job in the frame of ``when`` was dated with scheduleTime (none with scheduleDate): the faulty lookup
    reads the stored scheduleDate only, so such a frame looks free."""
    minute = when // (3_600_000 if variants.is_on("gdpr-time-frame-hour") else 60_000)
    rows = svc.db.all("SELECT request FROM jobs WHERE schedule_minute = ?", (minute,))
    if not rows:
        return False
    stored = [json.loads(row[0]) if isinstance(row[0], str) else {} for row in rows]
    return all(isinstance(s, dict) and not _present(s, "scheduleDate") for s in stored)


def job_kind(kind: Any, fields: Mapping[str, Any], skipped: frozenset[str]) -> Any:
    """jobs4-typeless-scheduletime-individual: a request without type, dated by scheduleTime and naming a user, is
    taken as an individual job; jobs4-typeless-csv-param-bulk: one whose csvFileId is a parameter, as a bulk job."""
    if kind in (None, "") and TYPELESS_BULK in skipped:
        return "bulk"
    if kind in (None, "") and faults.is_on("jobs4-typeless-scheduletime-individual") and _present(
            fields, "scheduleTime") and _present(fields, "user"):
        return "individual"
    return kind


def job_body(fields: Mapping[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    """The 201 body where a fault rewrites it: ``{id}`` for a job dated by scheduleTime, ``{job: {jobId}}`` for a
    job naming its user by id."""
    if faults.is_on("jobs4-jobid-missing-scheduletime") and not _present(fields, "scheduleDate") and _present(
            fields, "scheduleTime") and "jobId" in body:
        return {"id": body["jobId"]}
    user = structured(dict(fields), "user")
    if faults.is_on("jobs4-job-wrapped-user-by-id") and isinstance(user, dict) and _present(user, "id"):
        return {"job": body}
    return body
