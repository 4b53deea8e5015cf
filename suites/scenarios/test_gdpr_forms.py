"""Every stated alternative of a data-protection field, every combination the description forbids, and every id at
its edges where the Errors table states the answer (issue 44: "a data-protection rule through one stated form of the
user").

test_gdpr_jobs.py sends each stated form once, each on its own path; a server whose check of one field depends on the
form of another (a lookup form carried over from reassignUser to user), or on the order of a forbidden pair, passes
it. Here the forms come from the contract, not from a list kept by hand:

- ``user``: "Exactly one of username, email, id", and ``reassignUser``: "by exactly one of username or id": the
  ``oneOf`` alternatives of spec/schemas/gdpr-job-request.json. Every user form is crossed with every reassignUser
  form (and with none), on a job dated in the past: its date is its only error, so the answer must be the past-date
  400, and a refusal naming the user or reassignUser refused a stated form. Excluded, with its reason: a user by
  username alone (a sample calls such a request incorrect, why is not shown: OBS-GDPR-USERNAME-ONLY records it).
- "reassignUser identified in more than one way" (400, its message): every pair of the stated ways (every subset of
  two or more), in every order of the JSON object's keys.
- Every other error row a job naming a user can meet (operations empty, unknown or five; reassignUser two ways or
  nobody) with the user in every stated form: test_gdpr_jobs.py sends them as bulk jobs on the profile's file, which
  name no user, so a check made for one form of the user only was never met. round98: and by the id as text (a
  request parameter's form, job_forms.py), judged where the target takes the text.
- "operations: At least one and at most 4 elements, from suspend, anonymize, delete, anon-delete": a list is a set
  of names; the four in reverse order and in an order the run's tag draws are taken like the stated order.
- Ids at their edges (spec/dimensions.yaml ``id_edge``: zero, negative, unknown, not a number, too large for a
  64-bit integer) where the Errors table states the answer for an id that names nothing: the content list's userId
  (422 {error: Invalid User Id}), a bulk job's csvFileId ("The requested file does not exist"), reassignUser's id
  ("The provided 'reassignUser' is/are invalid"). For a job field that is not a number, or too large, the table's row
  may not be the target's reading (the field is an integer): a 2xx or a 5xx is judged, another refusal than the
  stated one is not (a skip saying so). Each edge whose id is a number is sent again as the text of its digits in
  every field of a job naming a user by id (fix22): an unknown user is refused in any form.

Writes: every request here is one a conforming target refuses (a past date, a missing file, an unknown user, a
forbidden pair): no accepted write. Without [safety] destructive every job request carries a guard as in
test_gdpr_jobs.py (invalid operations where reassignUser is the subject, else a past date or reassignUser given two
ways); a target that answers the guard first cannot be judged and says so.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from itertools import combinations, permutations
from typing import Any

import pytest
from gdpr_jobs import (
    CSV_MISSING,
    INVALID_USER_ID,
    OPERATIONS,
    OPERATIONS_INVALID,
    PAST_DATE,
    REASSIGN_AMBIGUOUS,
    REASSIGN_INVALID,
    Jobs,
    assert_error_body,
    blame_form,
    error_text,
    future_minute,
    missing_csv_id,
    nobody,
    past_formatted,
    rng,
    stopped_at_guard,
    user_form,
)
from job_forms import (
    DATE_FIELDS,
    DATE_FORMS,
    ID_TEXT,
    USER_FORMS,
    judge_row_by_id_text,
    rows,
    send_dated,
    user_value,
)

from qaconform import contract as qc_contract
from qaconform.contract import load_contract
from qaconform.pytest.id_edges import past_32_bits
from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.refusals import refused, why_not_refused
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.gdpr, pytest.mark.refused_writes]  # every job here is dated in the past

JOB_SCHEMA = "gdpr-job-request"
USER_FORMS_EXCLUDED = {"username": "a sample calls an individual job whose user object holds only a username "
                                   "incorrect (why: not shown); OBS-GDPR-USERNAME-ONLY records it"}
"""User forms not judged, each with its reason."""
NO_REASSIGN = "none"


# round15 (issue 44): the date rules are crossed with every stated user form, the one a sample calls incorrect too (a
# server whose username branch validates the date's format only schedules a job dated in the past): a refusal naming
# the user is an allowed answer to that form, any other answer but the past-date 400 is judged as for the others.
def dated_user_forms() -> tuple[str, ...]:
    """Every stated user form, USER_FORMS_EXCLUDED's too: the forms the past-date crossings send."""
    return stated_forms("user")


def refused_as_incorrect(user: str, resp: ApiResponse, error: str | None) -> bool:
    """Whether ``resp`` is the refusal a sample shows for ``user``'s form (USER_FORMS_EXCLUDED: a 400 naming the
    user, not reassignUser), which a crossing of the date accepts without judging it."""
    lowered = (error or "").lower().replace("reassignuser", "")
    return user in USER_FORMS_EXCLUDED and resp.status == 400 and "user" in lowered


def stated_forms(field: str) -> tuple[str, ...]:
    """The alternatives the contract states for an object field of a job ("Exactly one of ..."): the ``required``
    name of each ``oneOf`` branch of gdpr-job-request.json."""
    schema = load_contract().schema(JOB_SCHEMA)["properties"][field]
    return tuple(name for branch in schema["oneOf"] for name in branch["required"])


def id_edges() -> tuple[str, ...]:
    return load_contract().dimensions.values["id_edge"]


def edge_value(edge: str, unknown: int, alias: int | None = None) -> int | str:
    """The id an edge sends: ``unknown`` is an id no one holds (a random one near the top of a 32-bit id);
    ``past_32_bits`` one from 2^31 up to 18 digits (fix31: a 32-bit parser's edge); ``too_large`` one past the
    largest 64-bit integer; ``alias``: an id the target holds, which past_32_bits's low 32 bits repeat (round56: a
    server that cuts the id to 32 bits finds that user)."""
    return {"zero": 0, "negative": -1 - rng.randint(0, 1000), "unknown": unknown, "not_a_number": "qc-not-a-number",
            "past_32_bits": past_32_bits(rng, alias), "too_large": TOO_LARGE}[edge]


TOO_LARGE = 2**63
"""An id no 64-bit integer holds (blindc, issue 44): a number, yet one that names nothing whatever the server's
integer type; as a JSON number a parser may refuse it before the Errors table's check (like not_a_number)."""
UNREADABLE_EDGES = ("not_a_number", "too_large")
"""Edges a job field's parser may refuse before the Errors table's row is reached: another refusal is not judged."""


def _user_cases() -> list[Any]:
    users = dated_user_forms()  # round15 (issue 44)
    reassigns = (NO_REASSIGN, *stated_forms("reassignUser"))
    return [pytest.param(u, r, id=f"user-by-{u}-reassign-{'by-' + r if r != NO_REASSIGN else 'absent'}")
            for u in users for r in reassigns]


def _ambiguous_orders() -> list[Any]:
    ways = stated_forms("reassignUser")
    return [pytest.param(order, id="-then-".join(order)) for size in range(2, len(ways) + 1)
            for chosen in combinations(ways, size) for order in permutations(chosen)]


@pytest.fixture(scope="module")
def jobs(admin: ApiClient, profile: Profile, user_ids: dict[str, int]) -> Jobs:
    return Jobs(admin, profile, user_ids.get("admin"))


def _reassign_value(jobs: Jobs, form: str) -> Any:
    """admin (it exists) by one stated form, or a skip when its id is unknown."""
    if form == "username":
        return jobs.admin.username
    if jobs.admin_id is None:
        skip(SkipKind.MISSING_FIXTURE, "not checked: admin's user id is unknown ([accounts.admin] id)",
             fixtures=["accounts.admin.id"])
    return jobs.admin_id


def _send_past(jobs: Jobs, body: dict[str, Any], user: str,
               reassign: str) -> tuple[ApiResponse, str | None, str] | None:
    """Send a past-dated job naming gdpr_user by ``user`` (reassignUser, admin, by ``reassign`` or absent) with the
    invalid-operations guard: None when its answer is the past-date 400 or the refusal a sample shows for the
    username form (round15), a skip when the target stopped at the guard, else (answer, error, error lowered) to
    judge (jobs4: one copy for the two crossings below)."""
    if reassign != NO_REASSIGN:
        body["reassignUser"] = {reassign: _reassign_value(jobs, reassign)}
    resp, guards = jobs.send(body, ("operations",))
    error = error_text(resp)
    if resp.status == 400 and error == PAST_DATE:
        return None
    if resp.status == 400 and error in guards:
        skip(SkipKind.OTHER, f"inconclusive: the target reported the guard ({error!r}) before the date")
    if refused_as_incorrect(user, resp, error):  # round15 (issue 44)
        return None
    return resp, error, (error or "").lower()


# ------------------------------------------------------------------------------------------------ stated forms


@pytest.mark.rule("GDPR-ERROR-BODY", "GDPR-USER-FORMS", "GDPR-REASSIGN-FORMS", "GDPR-PAST-DATE")
@pytest.mark.writes
@pytest.mark.parametrize(("user", "reassign"), _user_cases())
def test_every_user_form_with_every_reassign_user_form_is_taken_so_only_its_past_date_refuses_it(
        jobs: Jobs, user: str, reassign: str) -> None:
    """gdpr_user by one stated form, reassignUser (admin) by another or absent, dated three days ago: the past-date
    400 is the only stated answer. The guard without [safety] destructive is invalid operations (reassignUser is a
    subject here, so it cannot be the guard)."""
    body = jobs.individual(user=user_form(jobs, user), scheduleDate=past_formatted())
    if (sent := _send_past(jobs, body, user, reassign)) is None:
        return
    resp, error, lowered = sent
    if error is not None and "reassign" in lowered:
        rule = "GDPR-REASSIGN-FORMS"
    elif error is not None and error != PAST_DATE and ("user" in lowered or user in lowered):
        rule = "GDPR-USER-FORMS"
    else:
        rule = "GDPR-PAST-DATE"
    fail([rule], f"a job naming gdpr_user by {user} ({body['user']}) with reassignUser "
                 f"{body.get('reassignUser', 'absent')} dated {body['scheduleDate']['formatted']} has one error, its "
                 f"past date: expected 400 {{error: {PAST_DATE!r}}}, got {resp.status} {error!r} (each form is "
                 f"stated: 'Exactly one of username, email, id', 'by exactly one of username or id')", resp)


# round13 (issue 44): the date's stated forms are a dimension of the same crossing. "scheduleDate: Either formatted
# ... or timeStamp" (the oneOf of gdpr-job-request.json): a server whose date parser decides how the user is looked
# up (the timeStamp branch written apart from the formatted one) passes every job dated by formatted.
def _dated_cases() -> list[Any]:
    """Every user form with every reassignUser form (the test above) dated by each stated date form but formatted,
    which the test above sends."""
    users = dated_user_forms()  # round15 (issue 44)
    reassigns = (NO_REASSIGN, *stated_forms("reassignUser"))
    dates = [d for d in stated_forms("scheduleDate") if d != "formatted"]
    return [pytest.param(u, r, d, id=f"user-by-{u}-reassign-{'by-' + r if r != NO_REASSIGN else 'absent'}-by-{d}")
            for d in dates for u in users for r in reassigns]


def past_in(form: str) -> Any:
    """A moment in the past in a stated date form other than formatted: for timeStamp (its format is not shown) the
    epoch seconds of a minute ago, in the past read as seconds and as milliseconds (1970)."""
    assert form == "timeStamp", f"no past value for the date form {form!r}: add one here"
    return int(datetime.now(UTC).timestamp()) - 60


@pytest.mark.rule("GDPR-USER-FORMS", "GDPR-REASSIGN-FORMS", "GDPR-DATE-TIMESTAMP")
@pytest.mark.writes
@pytest.mark.parametrize(("user", "reassign", "date"), _dated_cases())
def test_every_user_and_reassign_user_form_dated_by_each_other_date_form_is_refused_only_as_past(
        jobs: Jobs, user: str, reassign: str, date: str) -> None:
    """As the test above, the past date given in another stated form. A refusal about the date itself (a timeStamp
    format that is not the site's: not shown) is not judged; one naming the user or reassignUser refused a stated
    form; a scheduled job, or another refusal, did not take the timeStamp as the moment it names."""
    body = jobs.individual(user=user_form(jobs, user), scheduleDate={date: past_in(date)})
    if (sent := _send_past(jobs, body, user, reassign)) is None:
        return
    resp, error, lowered = sent
    if error is not None and "reassign" in lowered:
        rule = "GDPR-REASSIGN-FORMS"
    elif error is not None and ("user" in lowered or user in lowered):
        rule = "GDPR-USER-FORMS"
    elif 400 <= resp.status < 500 and any(w in lowered for w in ("date", "schedule", "stamp", "time")):
        skip(SkipKind.OTHER, f"not judged: the target refused scheduleDate {body['scheduleDate']} with {resp.status} "
                             f"{error!r}; the format of {date} is not shown, so another may be the site's")
    else:
        rule = "GDPR-DATE-TIMESTAMP"
    fail([rule], f"a job naming gdpr_user by {user} ({body['user']}) with reassignUser "
                 f"{body.get('reassignUser', 'absent')} dated {body['scheduleDate']} (a minute ago) has one error, "
                 f"its past date: expected 400 {{error: {PAST_DATE!r}}}, got {resp.status} {error!r} (each form is "
                 f"stated: 'Exactly one of username, email, id', 'by exactly one of username or id', 'Either "
                 f"formatted ... or timeStamp')", resp)


# round40 (issue 44): the account a reassignUser names is a dimension too. "by exactly one of username or id" names no
# kind of user: a server that looks a username up in its staff directory (or refuses a user who could not publish)
# passes every job reassigning to admin. Each other account of the profile by each stated form, the job's user form
# in every stated form (paths15: every triple, not the pairs drawn before): refusals of past-dated jobs, no accepted
# write.
REASSIGN_ACCOUNTS = ("moderator", "member", "novice")
"""The accounts a reassignUser names besides admin (the crossings above name admin)."""


def _reassign_account_cases() -> list[Any]:
    """Every stated form of the job's own user x every stated reassignUser form x every other account (paths15, issue
    44: round40 drew each (reassignUser form, account) pair with one user form in turn, so an account was never named
    beside a user given by email unless the turn fell there: paths15-reassign-moderator-emailed-user-refused). One
    refused request each (past-dated): no accepted write."""
    return [pytest.param(u, r, a, id=f"user-by-{u}-reassign-{a}-by-{r}")
            for u in dated_user_forms() for r in stated_forms("reassignUser") for a in REASSIGN_ACCOUNTS]


@pytest.mark.rule("GDPR-REASSIGN-FORMS", "GDPR-USER-FORMS", "GDPR-PAST-DATE")
@pytest.mark.writes
@pytest.mark.parametrize(("user", "reassign", "account"), _reassign_account_cases())
def test_a_reassign_user_naming_each_account_by_each_stated_form_is_refused_only_as_past(
        jobs: Jobs, profile: Profile, user_ids: dict[str, int], user: str, reassign: str, account: str) -> None:
    """reassignUser names another account of the profile (it exists) by one stated form on a job dated three days
    ago: the past-date 400 is the only stated answer; a refusal naming reassignUser refused that account's form."""
    value = profile.accounts[account].username if reassign == "username" else user_ids.get(account)
    if value is None:
        skip(SkipKind.MISSING_FIXTURE, f"not checked: {account}'s user id is unknown ([accounts.{account}] id)",
             fixtures=[f"accounts.{account}.id"])
    body = jobs.individual(user=user_form(jobs, user), scheduleDate=past_formatted(), reassignUser={reassign: value})
    if (sent := _send_past(jobs, body, user, NO_REASSIGN)) is None:
        return
    resp, error, lowered = sent
    rule = "GDPR-REASSIGN-FORMS" if error is not None and "reassign" in lowered else (
        "GDPR-USER-FORMS" if error is not None and "user" in lowered else "GDPR-PAST-DATE")
    fail([rule], f"a job naming gdpr_user by {user} with reassignUser {body['reassignUser']} ({account}, an "
                 f"existing user, by {reassign}) dated {body['scheduleDate']['formatted']} has one error, its past "
                 f"date: expected 400 {{error: {PAST_DATE!r}}}, got {resp.status} {error!r} ('Identifies the user "
                 f"to whom content is reassigned, by exactly one of username or id': any existing user)", resp)


# round15 (issue 44): the missing type beside each kind's own field. "Required: a bulk request without type is shown as
# incorrect": test_gdpr_jobs.py sends an individual job without type; a server that infers the kind from the field it
# finds (a csvFileId: bulk) schedules the bulk request the description calls incorrect.
BESIDE_NO_TYPE = ("csvFileId", "csvFileId-and-user")
"""What a type-less request carries besides the job's other fields: the bulk kind's file, and the file with a user."""


@pytest.mark.rule("GDPR-ERROR-BODY", "GDPR-BULK-NO-TYPE")
@pytest.mark.writes
@pytest.mark.parametrize("beside", BESIDE_NO_TYPE)
def test_a_job_request_without_type_is_refused_whatever_kinds_field_is_beside(jobs: Jobs, beside: str) -> None:
    csv = jobs.profile.fixtures.gdpr_csv_file_id
    if csv is None:
        skip(SkipKind.MISSING_FIXTURE, "not checked: the profile names no uploaded CSV file (gdpr_csv_file_id), so a "
             "bulk request cannot be sent", fixtures=["gdpr_csv_file_id"])
    body = jobs.refusable(type=None, csvFileId=csv)
    if beside == "csvFileId-and-user":
        body["user"] = jobs.individual()["user"]
    resp, guard_messages = jobs.send(body, ("past", "reassign"))
    _judge_typeless(resp, guard_messages, f"a bulk request without it (with {beside} beside)")


def _judge_typeless(resp: ApiResponse, guards: set[str | None], what: str) -> None:
    """"type ... Required": a type-less request is refused (4xx); one stopped at its guard cannot be judged."""
    error = error_text(resp)
    if resp.status == 400 and stopped_at_guard(error, guards):
        skip(SkipKind.OTHER, f"inconclusive: the target reported the guard ({error!r}) before the missing type")
    if (why := why_not_refused(resp)) is not None:
        fail(["GDPR-BULK-NO-TYPE"], f"type is required: {what} must be refused (4xx); {why}", resp)


# jobs4 (issue 44): the missing type crossed with the stated forms of the job's other fields (job_forms.py: the date's
# name, scheduleDate or the sample's scheduleTime for the individual case, and its form; the user's identifier). A
# server that infers the kind from the fields it finds on one path only (a scheduleTime job naming a user taken as
# individual) schedules a request the description calls incorrect.
def _typeless_rows() -> list[Any]:
    return [pytest.param(field, form, user, id=f"{field}-{form}-user-by-{user}")
            for field, form, user in rows(DATE_FIELDS, DATE_FORMS, USER_FORMS)]


@pytest.mark.rule("GDPR-ERROR-BODY", "GDPR-BULK-NO-TYPE")
@pytest.mark.writes
@pytest.mark.parametrize(("field", "form", "user"), _typeless_rows())
def test_a_job_request_without_type_is_refused_in_every_stated_form_of_its_other_fields(
        jobs: Jobs, field: str, form: str, user: str) -> None:
    """An individual job's fields without type, dated years ahead (a timeStamp as job_forms.send_dated sends it):
    refused (4xx), whatever name and form its date and its user take. Without [safety] destructive it carries the
    guards reassignUser given two ways and invalid operations; a target stopped at one cannot be judged."""
    named = user_value(jobs, user)
    if named is None:
        skip(SkipKind.MISSING_FIXTURE, f"not checked: the profile does not name gdpr_user by {user} ([safety] "
             "gdpr_user, gdpr_user_email, gdpr_user_id)", fixtures=["gdpr_user"])
    resp, sent, guards = send_dated(jobs, jobs.individual(type=None, user=named), field, form, future_minute(),
                                    guards=("reassign", "operations"))
    _judge_typeless(resp, guards, f"a job request without it (date {field} {sent[field]}, user {named})")


@pytest.mark.rule("GDPR-REASSIGN-AMBIGUOUS", "GDPR-ERROR-BODY")
@pytest.mark.writes
@pytest.mark.parametrize("order", _ambiguous_orders())
def test_a_reassign_user_identified_in_more_than_one_way_is_refused_in_every_order(
        jobs: Jobs, order: tuple[str, ...]) -> None:
    """Every pair of the stated ways, the keys of the JSON object in every order: a server that takes the first key it
    knows and never reads the next one schedules the job."""
    values = {"username": jobs.admin.username, "id": jobs.admin_id or 1}
    reassign = {way: values[way] for way in order}
    jobs.expect_error(jobs.refusable(reassignUser=reassign), REASSIGN_AMBIGUOUS, ("past",),
                      rule="GDPR-REASSIGN-AMBIGUOUS")


ERROR_ROWS: dict[str, tuple[dict[str, Any], str, str, tuple[str, ...]]] = {
    "operations-empty": ({"operations": []}, OPERATIONS_INVALID, "GDPR-OPERATIONS-INVALID", ("past", "reassign")),
    "operations-unknown": ({"operations": ["qc-not-an-operation"]}, OPERATIONS_INVALID, "GDPR-OPERATIONS-INVALID",
                           ("past", "reassign")),
    "operations-five": ({"operations": [*OPERATIONS, OPERATIONS[0]]}, OPERATIONS_INVALID, "GDPR-OPERATIONS-INVALID",
                        ("past", "reassign")),
    # round97 (issue 44): "from suspend, anonymize, delete, anon-delete" holds for each element: an unknown name beside
    # a stated one, for every form of the user, the username too (round99) (a branch that filters the names it
    # knows, rather than refusing, takes it)
    "operations-unknown-beside-stated": ({"operations": [OPERATIONS[0], "qc-not-an-operation"]}, OPERATIONS_INVALID,
                                         "GDPR-OPERATIONS-INVALID", ("past", "reassign")),
    # round79 (issue 44): "array of string": numbers (an enum reader takes them as ordinals) are none of the names
    "operations-numbers": ({"operations": [0, 1]}, OPERATIONS_INVALID, "GDPR-OPERATIONS-INVALID", ("past", "reassign")),
    # round102 (issue 44): a scalar where the list or object goes (a lenient binder wraps or drops it; SCALAR_ROWS)
    "operations-scalar": ({"operations": "qc-not-an-operation"}, OPERATIONS_INVALID, "GDPR-OPERATIONS-INVALID",
                          ("past", "reassign")),
    "reassign-scalar": ({"reassignUser": "nobody-scalar"}, REASSIGN_INVALID, "GDPR-REASSIGN-INVALID", ("past",)),
    "reassign-both-ways": ({"reassignUser": "both"}, REASSIGN_AMBIGUOUS, "GDPR-REASSIGN-AMBIGUOUS", ("past",)),
    "reassign-nobody": ({"reassignUser": "nobody"}, REASSIGN_INVALID, "GDPR-REASSIGN-INVALID", ("past",)),
}
"""The Errors table's rows a job naming a user can meet, besides its date (crossed above) and its time frame (the
run's own frames are test_gdpr_jobs.py's): the fields that make the row, its message, its rule, the guards that keep
it harmless without [safety] destructive. test_gdpr_jobs.py sends each as a bulk job on the profile's file (no user);
here each is an individual job naming gdpr_user in every stated form.

round99 (issue 44): the username form too, as the past-date crossings send it (round15): a refusal naming the user is
the answer a sample shows for it and is taken without judging the row (``refused_as_incorrect``); a job scheduled
with an invalid list or reassignUser fails the row, as for the other forms (a username branch that filters the
operations, or never looks the reassignUser up, was met by no row before)."""


SCALAR_ROWS = {"operations-scalar": "operations", "reassign-scalar": "reassignUser"}  # a refusal may name the field


def _row_cases() -> list[Any]:
    users = [*dated_user_forms(), ID_TEXT]  # round99: the username form too; round98: the id as text
    return [pytest.param(row, u, id=f"{row}-user-by-{u}") for row in ERROR_ROWS for u in users]


@pytest.mark.rule("GDPR-OPERATIONS-INVALID", "GDPR-REASSIGN-AMBIGUOUS", "GDPR-REASSIGN-INVALID", "GDPR-USER-FORMS",
                  "GDPR-ERROR-BODY")
@pytest.mark.writes
@pytest.mark.parametrize(("row", "user"), _row_cases())
def test_every_error_row_holds_for_a_job_naming_its_user_in_every_stated_form(jobs: Jobs, row: str,
                                                                                user: str) -> None:
    """An error row checked only for one form of the user (or only for bulk jobs) lets the other forms through."""
    fields, message, rule, guards = ERROR_ROWS[row]
    extra = dict(fields)
    if extra.get("reassignUser") == "both":
        extra["reassignUser"] = {"username": jobs.admin.username, "id": jobs.admin_id or 1}
    elif extra.get("reassignUser") == "nobody":
        extra["reassignUser"] = {"username": nobody()}
    elif extra.get("reassignUser") == "nobody-scalar":
        extra["reassignUser"] = nobody()
    if user == ID_TEXT:  # round98 (issue 44): judged where the target takes the text (job_forms.py)
        judge_row_by_id_text(jobs, extra, message, rule, guards)
        return
    body = jobs.individual(user=user_form(jobs, user), **extra)

    def rule_of(error: str | None) -> str:
        lowered = (error or "").lower()
        named_user = error is not None and error != message and "reassign" not in lowered and "user" in lowered
        return "GDPR-USER-FORMS" if named_user else rule

    field = SCALAR_ROWS.get(row, "")
    jobs.expect_error(body, message, guards, rule=rule_of,
                      allowed=lambda resp, error: refused_as_incorrect(user, resp, error) or bool(
                          field and resp.status == 400 and field.lower() in (error or "").lower()))


def _drawn_order(run_tag: str) -> list[str]:
    drawn = list(OPERATIONS)
    random.Random(run_tag).shuffle(drawn)
    return drawn


@pytest.mark.rule("GDPR-OPERATIONS-RANGE", "GDPR-PAST-DATE", "GDPR-ERROR-BODY")
@pytest.mark.writes
@pytest.mark.parametrize("order", ["reversed", "drawn"])
def test_the_four_operations_in_any_order_are_taken_so_only_its_past_date_refuses_it(
        jobs: Jobs, order: str, run_tag: str) -> None:
    operations = list(reversed(OPERATIONS)) if order == "reversed" else _drawn_order(run_tag)
    body = jobs.refusable(operations=operations, scheduleDate=past_formatted())
    jobs.expect_error(body, PAST_DATE, ("reassign",), rule=blame_form("GDPR-OPERATIONS-RANGE", ("operation",)))


# ------------------------------------------------------------------------------------------------ ids at their edges


@pytest.mark.rule("GDPR-CONTENT-422")
@pytest.mark.parametrize("edge", id_edges())
def test_the_content_list_of_a_user_id_at_each_edge_is_422_invalid_user_id(admin: ApiClient, edge: str) -> None:
    """"Error: 422 with {error: Invalid User Id}": zero, a negative id, an id no one holds, one that is not a
    number and one too large for a 64-bit integer name no user."""
    user = edge_value(edge, 2_147_000_000 + rng.randint(0, 400_000), admin.user_id)
    r = admin.get(qc_contract.path("listUserContent", userId=user), operation="listUserContent")
    expect(r.status == 422, "GDPR-CONTENT-422",
           f"user id {user!r} ({edge.replace('_', ' ')}) names no user: expected 422 {{error: {INVALID_USER_ID}}}", r)
    assert_error_body(r, "GDPR-CONTENT-422")
    expect(error_text(r) == INVALID_USER_ID, "GDPR-CONTENT-422", f"the error must be exactly {INVALID_USER_ID!r}", r)


def _other_forms(admin: ApiClient, profile: Profile) -> list[tuple[str, str]]:
    """(form, value) of existing users by the forms the description gives a user besides the id (a job's user:
    username, email): the admin's username and [safety] gdpr_user_email when the profile gives it."""
    forms = [("username", admin.username)] if admin.username else []
    if profile.safety.gdpr_user_email:
        forms.append(("email", profile.safety.gdpr_user_email))
    return forms


@pytest.mark.rule("GDPR-CONTENT-422")
def test_the_content_list_asked_by_a_users_other_form_is_422_invalid_user_id(admin: ApiClient,
                                                                               profile: Profile) -> None:
    """fix41 (issue 44, round41): "Path parameter: userId (integer)" and "Error: 422 with {error: Invalid User
    Id}": an existing user's username or email in place of the userId is no user id (not an integer), so it is
    refused 422 like any other; a server that looks the user up by that form and lists its content (200) breaks
    the row. Reads only, one per form."""
    forms = _other_forms(admin, profile)
    if not forms:
        skip(SkipKind.MISSING_FIXTURE, "not checked: needs the admin's username or [safety] gdpr_user_email",
             fixtures=["gdpr_user_email"])
    for form, value in forms:
        r = admin.get(qc_contract.path("listUserContent", userId=value), operation="listUserContent")
        expect(r.status == 422, "GDPR-CONTENT-422", f"an existing user's {form} in place of the userId (an "
               f"integer) is no user id: expected 422 {{error: {INVALID_USER_ID}}}, got {r.status}", r)
        expect(error_text(r) == INVALID_USER_ID, "GDPR-CONTENT-422",
               f"{form} in place of the userId: the error must be exactly {INVALID_USER_ID!r}", r)


def _judge_edge(resp: ApiResponse, guards: set[str | None], edge: str, expected: str, rule: str, what: str,
                as_text: bool = False, label: str = "") -> None:
    """``as_text``: the id was sent as the text of its digits, a form the description does not give the field (an
    integer), so another refusal than the row's is not judged, as for an unreadable edge; a 2xx or a 5xx is.
    ``label``: ``what`` without the id drawn at random, for the skip reasons CI compares between builds (the id goes
    to the skip's detail)."""
    error = error_text(resp)
    if resp.status == 400 and error == expected:
        return
    stable = f"{label or what} ({edge.replace('_', ' ')})"
    if resp.status == 400 and error in guards:
        skip(SkipKind.OTHER, f"inconclusive: the target reported the guard ({error!r}) before {stable}",
             detail=f"sent {what}")
    if resp.status == 400 and stopped_at_guard(error, guards):  # the job names a user that does not exist
        skip(SkipKind.MISSING_FIXTURE, f"not checked: needs [safety] gdpr_user: the job names a user that does not "
             f"exist, and the target refused it with {error!r}, a message the description does not give, before "
             f"{stable} (the Errors table does not order its checks)", fixtures=["gdpr_user"], detail=f"sent {what}")
    if resp.status == 400 and error is None:
        fail(["GDPR-ERROR-BODY"], f"{what} ({edge.replace('_', ' ')}) was refused with 400, but not with a JSON "
                                  "{error: <string>} ('Errors: 400 with {error: <message>}')", resp)
    if (edge in UNREADABLE_EDGES or as_text) and refused(resp):  # a redirect off the interface is judged (refusals.py)
        skip(SkipKind.OTHER, f"not judged: {label or what} ({edge.replace('_', ' ')}: not an integer a server need "
                             f"hold) was refused with {resp.status} {error!r}; the field is an integer, so the Errors "
                             f"table's row ({expected!r}) may not be the target's reading of it (a 2xx or a 5xx is "
                             "judged)", detail=f"sent {what}")
    fail([rule], f"{what} ({edge.replace('_', ' ')}) names nothing: expected 400 {{error: {expected!r}}}, got "
                 f"{resp.status} {error!r}", resp)


@pytest.mark.rule("GDPR-CSV-MISSING", "GDPR-ERROR-BODY")
@pytest.mark.writes
@pytest.mark.parametrize("edge", id_edges())
def test_a_bulk_job_naming_a_csv_file_id_at_each_edge_is_refused(jobs: Jobs, profile: Profile, edge: str) -> None:
    csv = edge_value(edge, missing_csv_id(profile))
    resp, guards = jobs.send(jobs.individual(type="bulk", user=None, csvFileId=csv), ("past", "reassign"))
    _judge_edge(resp, guards, edge, CSV_MISSING, "GDPR-CSV-MISSING", f"csvFileId {csv!r}", label="csvFileId")


@pytest.mark.rule("GDPR-REASSIGN-INVALID", "GDPR-ERROR-BODY")
@pytest.mark.writes
@pytest.mark.parametrize("edge", id_edges())
def test_a_reassign_user_id_at_each_edge_is_refused(jobs: Jobs, admin: ApiClient, edge: str) -> None:
    ident = edge_value(edge, 2_147_000_000 + rng.randint(0, 400_000), admin.user_id)
    resp, guards = jobs.send(jobs.refusable(reassignUser={"id": ident}), ("past",))
    _judge_edge(resp, guards, edge, REASSIGN_INVALID, "GDPR-REASSIGN-INVALID", f"reassignUser id {ident!r}",
                label="reassignUser id")


@pytest.mark.rule("CONV-NO-SERVER-ERROR", "GDPR-PAST-DATE")
@pytest.mark.writes
@pytest.mark.parametrize("edge", id_edges())
def test_an_individual_job_naming_its_user_by_an_id_at_each_edge_never_gives_a_server_error(
        jobs: Jobs, edge: str) -> None:
    """"user | object | Required when type is individual. Exactly one of username, email, id": the Errors table
    states no answer for a user id that names nobody (only "type individual without user"), so no status is judged
    here (refusals2, issue 44): a client's bad id is a client matter, never a 5xx. The job is dated in the past, so a
    conforming target refuses it whatever it makes of the id (no accepted write); a 2xx broke the past date."""
    ident = edge_value(edge, 2_147_000_000 + rng.randint(0, 400_000))
    _judge_user_id(jobs, ident, edge.replace("_", " "))


def _judge_user_id(jobs: Jobs, ident: int | str, how: str) -> None:
    """An individual job whose user is id ``ident`` (``how``: the edge, and its form), dated in the past: never a 5xx
    (a client's bad id is a client matter), never a 2xx (a job in the past is refused)."""
    resp, _ = jobs.send(jobs.individual(user={"id": ident}, scheduleDate=past_formatted()))
    what = f"an individual job whose user is id {ident!r} ({how}), dated in the past"
    if resp.status >= 500:
        fail(["CONV-NO-SERVER-ERROR"], f"{what}: a user id that names nobody is the client's matter (a 4xx), never a "
                                       f"5xx; got {resp.status}", resp)
    if 200 <= resp.status < 300:
        fail(["GDPR-PAST-DATE"], f"{what}: a job in the past is refused ({PAST_DATE!r}); got {resp.status}", resp)


TEXT_ID_EDGES = tuple(e for e in id_edges() if e != "not_a_number")
"""The id edges (spec/dimensions.yaml ``id_edge``) whose id is a number, each sent again as the text of its digits
(fix22, issue 44): the description gives a job's user and reassignUser ids no type, and a client may send the digits
of an id as a JSON string (as a request parameter carries them). not_a_number is text already."""
USER_FIELDS = ("reassignUser", "user")
"""Every field of a job that names a user by id: "user | ... Exactly one of username, email, id", "reassignUser |
... by exactly one of username or id"."""


def _text_id_cases() -> list[Any]:
    return [pytest.param(field, edge, id=f"{field}-{edge}-as-text") for field in USER_FIELDS for edge in TEXT_ID_EDGES]


@pytest.mark.rule("GDPR-REASSIGN-INVALID", "GDPR-ERROR-BODY", "CONV-NO-SERVER-ERROR", "GDPR-PAST-DATE")
@pytest.mark.writes
@pytest.mark.parametrize(("field", "edge"), _text_id_cases())
def test_every_user_field_of_a_job_naming_an_id_at_each_edge_as_text_is_refused(
        jobs: Jobs, field: str, edge: str) -> None:
    """An id that names nobody names nobody in any form: a server that looks an id up only when it is a JSON number
    (and takes the job without the user it cannot parse) passes the edges above, which send numbers. For
    reassignUser the Errors table's row is the stated answer ("reassignUser does not exist"; another refusal is not
    judged: the text form is not stated); for user no answer is stated, so the job is dated in the past and only a
    5xx or a 2xx is judged, as above."""
    ident = str(edge_value(edge, 2_147_000_000 + rng.randint(0, 400_000)))
    if field == "user":
        _judge_user_id(jobs, ident, f"{edge.replace('_', ' ')}, as text")
        return
    resp, guards = jobs.send(jobs.refusable(reassignUser={"id": ident}), ("past",))
    _judge_edge(resp, guards, edge, REASSIGN_INVALID, "GDPR-REASSIGN-INVALID", f"reassignUser id {ident!r} (as text)",
                as_text=True, label="reassignUser id as text")
