"""The stated forms of a data-protection job's fields, as dimensions a job rule is crossed with (issue 44, jobs4).

"scheduleDate | object | Either formatted (...) or timeStamp. A sample shape names the field scheduleTime for the
individual case.", "user | ... Exactly one of username, email, id" (an id as a JSON number or as text: a request
parameter is text), and "each body field may also be given as a request or query parameter of the same name. When
both are given, the parameter wins." (type, the job's scalar field; the others are objects and arrays, which have no
parameter form shown, so they stay in the JSON body and no form-encoded request is built). A server that checks a
rule for one form only (the time frame looked up from scheduleDate, not from the sample's scheduleTime: blind round
16) passes every test that sends the other. So a rule's requests are drawn from a covering array of these dimensions
(every pair of values at least once; allpairspy, as suites/contract/covering.py draws the matrices), not from one
form chosen by hand: :func:`rows`, :func:`restate`.

A timeStamp's format is not shown (seconds or milliseconds): :func:`send_dated` sends a moment's epoch seconds first
(read as milliseconds it is 1970, in the past: refused whatever the reading) and its milliseconds only when the
target refused the seconds as past (it reads milliseconds), so no reading turns a probe into a job years away.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from allpairspy import AllPairs
from gdpr_jobs import (
    BULK_NO_CSV,
    CSV_MISSING,
    NO_USER_PREFIX,
    OPERATIONS_INVALID,
    PAST_DATE,
    REASSIGN_AMBIGUOUS,
    REASSIGN_INVALID,
    TIME_FRAME,
    Jobs,
    error_text,
    formatted,
    stopped_at_guard,
)

from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.target.client import ApiResponse

DATE_FIELDS = ("scheduleDate", "scheduleTime")
"""The stated names of the job's date: the field table's, and the sample's for the individual case."""
DATE_FORMS = ("formatted", "timeStamp")
"""scheduleDate's ``oneOf`` (spec/schemas/gdpr-job-request.json): "Either formatted ... or timeStamp"."""
USER_FORMS = ("username", "email", "id", "id_text")
"""The user's stated identifiers; ``id_text`` is the id as a string of digits (as a request parameter carries it)."""
INPUT_FORMS = ("json", "query", "param_wins")
"""Where type travels: in the JSON body, as a query parameter (the body without it), or as a query parameter that
wins over a body saying bulk (a body that won is a bulk job without file: refused)."""

Row = tuple[str, ...]


def rows(*columns: Sequence[str]) -> list[Row]:
    """A covering array (every pair of values of two columns at least once) of ``columns``, in a fixed order."""
    if len(columns) == 1:
        return [(v,) for v in columns[0]]
    return [tuple(row) for row in AllPairs([list(c) for c in columns])]


def user_value(jobs: Jobs, form: str) -> dict[str, Any] | None:
    """[safety] gdpr_user by one stated form, or None when the profile does not give that form."""
    safety = jobs.profile.safety
    value: Any = {"username": safety.gdpr_user, "email": safety.gdpr_user_email, "id": safety.gdpr_user_id,
                  "id_text": safety.gdpr_user_id}[form]
    if value is None:
        return None
    return {"id": str(value)} if form == "id_text" else {form: value}


def dated(body: dict[str, Any], field: str, value: dict[str, Any]) -> dict[str, Any]:
    """``body`` with its date (whichever name it had) under ``field`` only."""
    out = {k: v for k, v in body.items() if k not in DATE_FIELDS}
    out[field] = value
    return out


def date_of(body: dict[str, Any]) -> dict[str, Any]:
    """The date object of a job body, under whichever stated name it has."""
    return next(body[f] for f in DATE_FIELDS if isinstance(body.get(f), dict))


def restate(body: dict[str, Any], input_form: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(JSON body, query parameters) that send ``body``'s type in ``input_form``."""
    if input_form == "json":
        return body, None
    rest = {k: v for k, v in body.items() if k != "type"}
    if input_form == "query":
        return rest, {"type": body["type"]}
    assert input_form == "param_wins", input_form
    return {**rest, "type": "bulk" if body["type"] != "bulk" else "individual"}, {"type": body["type"]}


def send_dated(jobs: Jobs, body: dict[str, Any], field: str, form: str, moment: datetime,
               input_form: str = "json",
               guards: tuple[str, ...] = ()) -> tuple[ApiResponse, dict[str, Any], set[str | None]]:
    """Send ``body`` dated ``moment`` under ``field`` in ``form`` (see the module docstring for timeStamp), type in
    ``input_form``, with ``guards`` (Jobs.send). Returns the answer, the body as last sent (a failure message shows
    it) and the guards' messages."""
    values: list[Any] = [formatted(moment)] if form == "formatted" else [
        int(moment.timestamp()), int(moment.timestamp()) * 1000]
    resp: ApiResponse | None = None
    sent, messages = body, set()
    for value in values:
        sent = dated(body, field, {form: value})
        json_body, params = restate(sent, input_form)
        resp, messages = jobs.send(json_body, guards, params)
        if not (resp.status == 400 and error_text(resp) == PAST_DATE):
            break
    assert resp is not None
    return resp, sent, messages


ID_TEXT = "id_text"
STATED_MESSAGES = (NO_USER_PREFIX, BULK_NO_CSV, CSV_MISSING, TIME_FRAME, PAST_DATE, OPERATIONS_INVALID,
                   REASSIGN_AMBIGUOUS, REASSIGN_INVALID)
"""The Errors table's messages for the job endpoint."""


def judge_row_by_id_text(jobs: Jobs, extra: dict[str, Any], message: str, rule: str, guards: tuple[str, ...]) -> None:
    """round98 (issue 44, round98-gdpr-id-text-user-reassign-unchecked's kind: an error row checked for some forms of
    the user only): an individual job naming gdpr_user by its id as text (``{"id": "<digits>"}``, as a request
    parameter carries it) whose one error is the row's (``extra``), judged as the time frame judges that form
    (taken_frames.py): the row's 400 and ``message`` is right; a job scheduled, another row's message, or a server
    error is ``rule`` broken; a refusal with a message the table does not give is the text id not taken (the id's
    type is not stated), not judged. A conforming target refuses every such request: no accepted write."""
    user = user_value(jobs, ID_TEXT)
    if user is None:
        skip(SkipKind.MISSING_FIXTURE, "not checked: a job naming gdpr_user by its id as text needs [safety] "
                                       "gdpr_user_id", fixtures=["gdpr_user_id"])
    body = jobs.individual(user=user, **extra)
    resp, guard_messages = jobs.send(body, guards)
    error = error_text(resp)
    if resp.status == 400 and error == message:
        return
    if resp.status == 400 and stopped_at_guard(error, guard_messages):
        skip(SkipKind.OTHER, f"inconclusive: the target reported the guard ({error!r}) before the error under test")
    if 400 <= resp.status < 500 and error not in STATED_MESSAGES:
        skip(SkipKind.OTHER, f"not judged: a job naming gdpr_user by its id as text ({user}) was refused with "
                             f"{resp.status} {error!r}: the id's type is not stated, so a target may not take the text")
    fail([rule], f"an individual job naming gdpr_user by its id as text ({user}) whose one error is the row's "
                 f"({ {k: body.get(k) for k in extra} }): expected 400 {{error: {message!r}}}, got {resp.status} "
                 f"{error!r} (the row holds whatever stated form names the user)", resp)
