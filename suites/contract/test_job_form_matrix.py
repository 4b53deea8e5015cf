"""A data-protection job's stated forms, taken in every input form of its scalar fields (crossing2, crossing3, issue
44): the rows of the input form matrix's GDPR-USER-FORMS, GDPR-REASSIGN-FORMS and GDPR-OPERATIONS-RANGE arrays (the
same covering arrays, the same ids: test_input_form_matrix.py's ``pytest_generate_tests``), each a job whose one error
is its past date, so that the past date's 400 is the form taken and any other answer is the form refused. Split out of
test_input_form_matrix.py at the module limit (closea).

closea (issue 44, round78-gdpr-user-email-as-parameter-refused's kind: "each body field may also be given as a request
or query parameter of the same name", a job's user object one of those fields): on the query rows the object under
test (user, reassignUser) also goes as a query parameter of its name, JSON text, once in each stated form. How an
object is written as a parameter is not shown, so a target may refuse every form there; what is judged is that a form
taken for one stated form of the object is taken for the others too ("Exactly one of username, email, id"; "by exactly
one of username or id"). Refusals only: every request is dated in the past.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from form_sends import form_not_taken, send, where
from input_forms import FORM, NO_OTHER, PARAM_WINS, QUERY, STATED, Case
from job_requests import (
    BULK_NO_CSV,
    CSV_MISSING,
    LATER_REFUSALS,
    NO_USER_PREFIX,
    OPERATIONS,
    OPERATIONS_INVALID,
    PAST_DATE,
    REASSIGN_FORMS,
    USER_FORMS,
    error_of,
    future,
    missing_csv,
    past,
    past_bulk_job,
    reassign_of,
    stated_operations,
    user_of,
)
from listops import Fetch
from test_input_form_matrix import pytest_generate_tests  # noqa: F401 - the matrix's rows, the same ids

from qaconform import contract
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.refusals import off_the_interface
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.contract, pytest.mark.writes, pytest.mark.refused_writes]  # refusals only


def _object_as_parameter(case: Case, admin: ApiClient, name: str, fields: dict[str, Any], rest: dict[str, Any],
                         forms: dict[str, dict[str, Any]], stated: str) -> list[str]:
    """closea: on a query row, the job with its object ``name`` given as a query parameter of that name (JSON text),
    once per stated form (``forms``: label -> the object), the rest as the row sends it. A form taken (the past
    date's 400) for one label must be taken for every label; none taken is the parameter form of an object not read
    at all, which the description does not show: not judged. Returns the labels taken."""
    if case.form != QUERY:
        return []
    answers = {label: send(admin, contract.path("scheduleGdprJob"), "scheduleGdprJob", QUERY,
                           {**fields, name: json.dumps(obj)}, {k: v for k, v in rest.items() if k != name}, {})
               for label, obj in forms.items()}
    taken = [label for label, r in answers.items() if r.status == 400 and error_of(r) == PAST_DATE]
    for label, resp in answers.items():
        if taken and label not in taken:
            fail([case.rule], f"{case.label}: a job dated in the past with {name} as a query parameter (JSON text) "
                              f"naming its user by {label} ({forms[label]}) got {resp.status} {error_of(resp)!r}, "
                              f"while by {', '.join(taken)} the same parameter was taken (400 {PAST_DATE!r}): each "
                              f"body field may also be given as a request or query parameter, and {stated}", resp)
    return taken


def _form_encoded(case: Case, admin: ApiClient, sent: dict[str, tuple[dict[str, Any], dict[str, Any]]],
                  stated: str) -> None:
    """round98 (issue 44, round98-gdpr-form-encoded-operations-split's kind: an object or array field of a job read
    from a form-encoded body for one stated value and not another): on the query row without other fields, each
    ``sent`` job (label -> its scalar fields, its objects and arrays) wholly form-encoded, the objects and arrays as
    JSON text (as closea sends an object as a query parameter). How an object or an array is written as a form field
    is not shown, so a target may refuse every label; a label taken (the past date's 400) for one must be taken for
    every label: "each body field may also be given as a request or query parameter of the same name". Refusals
    only: every job is dated in the past."""
    if case.form != QUERY or case.other != NO_OTHER:
        return
    answers = {label: send(admin, contract.path("scheduleGdprJob"), "scheduleGdprJob", FORM, fields, rest, {},
                           objects_as_text=True) for label, (fields, rest) in sent.items()}
    taken = [label for label, r in answers.items() if r.status == 400 and error_of(r) == PAST_DATE]
    for label, resp in answers.items():
        if taken and label not in taken:
            fail([case.rule], f"{case.label}: a job dated in the past sent form-encoded (its objects and arrays as "
                              f"JSON text) with {label} got {resp.status} {error_of(resp)!r}, while with "
                              f"{', '.join(taken)} the same form was taken (400 {PAST_DATE!r}): each body field may "
                              f"also be given as a request or query parameter, and {stated}", resp)


TIME_FRAME = "There is a job already scheduled for that time frame."
OTHER_OBJECTS = {"scheduleDate": OPERATIONS_INVALID, "operations": PAST_DATE}
"""round88 (issue 44, round88-gdpr-scheduledate-param-past's kind): a job's other object and array fields -> the one
error of the request that carries that field as a query parameter (a date years ahead beside invalid operations; stated
operations beside a past date), so that the field not read shows as another answer."""


def _other_objects_as_parameters(case: Case, admin: ApiClient, profile: Profile, fields: dict[str, Any],
                                 user_taken: bool = True) -> list[str]:
    """round88: once a target took the user object as a query parameter (JSON text, :func:`_object_as_parameter`),
    it reads objects there: each other object or array field of the job (scheduleDate, operations) is sent as a query
    parameter in its turn, the rest in the JSON body, on a request whose one error is another field. A field not read
    from its parameter answers another refusal (the date years ahead taken for the past, the stated operations for
    invalid ones): "each body field may also be given as a request or query parameter of the same name". Refusals
    only; the time frame's 400 is not judged (a drawn date may meet a frame another job holds, and which check comes
    first is not stated). Without [safety] destructive only scheduleDate is sent (its operations are the guard).

    round93 (issue 44, round93-gdpr-user-param-beside-json-ignored's kind: one object field not read from its
    parameter while the others are): with ``user_taken`` False (no stated form of the user object was taken as a
    parameter) nothing is judged here; the fields whose parameter was read (their one stated refusal answered) are
    returned, for the caller to judge the user object against them. Returns those names either way."""
    body = {"user": user_of(profile, USER_FORMS[-1]), "scheduleDate": {"formatted": future()},
            "operations": ["qc-not-an-operation"]}
    read: list[str] = []
    for name, expected in OTHER_OBJECTS.items():
        if name == "operations" and not profile.safety.destructive:
            continue
        rest = dict(body)
        if name == "operations":
            rest.update(scheduleDate={"formatted": past()}, operations=["suspend"])
        resp = send(admin, contract.path("scheduleGdprJob"), "scheduleGdprJob", QUERY,
                    {**fields, name: json.dumps(rest.pop(name))}, rest, {})
        error = error_of(resp)
        if resp.status == 400 and error == expected:
            read.append(name)
        if not user_taken or (resp.status == 400 and error in (expected, TIME_FRAME)) or off_the_interface(resp):
            continue
        fail(["CONV-PARAM-AS-BODY-FIELD-GDPR"], f"{case.label}: a job with {name} as a query parameter (JSON text) and "
                                                 f"the rest in the JSON body, whose one error is another field, got "
                                                 f"{resp.status} {error!r}, not 400 {expected!r}, though the target "
                                                 "took the user object as a query parameter: each body field may also "
                                                 "be given as a request or query parameter of the same name", resp)
    return read


@pytest.fixture(scope="module")
def without_realname(run_fetch: Fetch) -> tuple[str, int] | None:
    """closea (round78-reassign-id-no-realname-refused's kind: a job's user form decided by what the user's profile
    holds): (username, id) of the first user of admin's active expert list (its first 50) without a real name
    ("realname | string | Optional."), or None when every listed user has one. A read shared by the run."""
    resp = run_fetch("admin", contract.path("listActiveExperts"), pageSize=50)
    body = resp.json() if resp.status == 200 and resp.content.strip() else None
    users = body.get("list") if isinstance(body, dict) else None
    return next(((u["username"], u["id"]) for u in users or [] if isinstance(u, dict) and not u.get("realname")
                 and isinstance(u.get("username"), str) and isinstance(u.get("id"), int)), None)


# crossing2 (issue 44): an individual job's user in every stated form, whichever form the job's scalar fields take


@pytest.mark.rule("GDPR-USER-FORMS")
@pytest.mark.gdpr
def test_an_individual_jobs_user_in_every_stated_form_is_taken_in_every_input_form(
        case: Case, admin: ApiClient, profile: Profile, without_realname: tuple[str, int] | None) -> None:
    """gdpr_user by email and by id on an individual job dated in the past, type in the row's form (a param_wins body
    says bulk), beside it (stated) a csvFileId naming no file: the past date's 400 is the one stated answer, so a user
    form not taken shows as another answer. Without [safety] destructive an invalid operations list is the guard.
    round73 (issue 44): each form with one operation and with all four ("at most 4 elements"): refusals, no write.
    closea: on a query row the user object also as a query parameter, by email and by id (the module's docstring);
    beside gdpr_user, by id, a listed user without a real name (:func:`without_realname`), where the site lists one."""
    answers: dict[tuple[str, int], ApiResponse] = {}
    guards = set() if profile.safety.destructive else {OPERATIONS_INVALID}
    losing = {"type": "bulk"} if case.form == PARAM_WINS else {}
    users = {f: user_of(profile, f) for f in USER_FORMS}
    if without_realname is not None:
        users["id, a user without a real name"] = {"id": without_realname[1]}
    for form, ops in [(f, o) for f in users for o in ([["qc-not-an-operation"]] if guards
                                                      else [["suspend"], list(OPERATIONS)])]:
        fields: dict[str, Any] = {"type": "individual"}
        if case.other == STATED:
            fields["csvFileId"] = missing_csv(profile)
        rest = {"user": users[form], "scheduleDate": {"formatted": past()}, "operations": ops}
        answers[form, len(ops)] = send(admin, contract.path("scheduleGdprJob"), "scheduleGdprJob", case.form, fields,
                                       rest, losing)
    taken = [f for f, r in answers.items() if r.status == 400 and error_of(r) == PAST_DATE]
    for (form, count), resp in answers.items():
        error = error_of(resp)
        if (form, count) in taken:
            continue
        if resp.status == 400 and error is None:
            fail(["GDPR-ERROR-BODY"], f"{case.label}: \"Errors: 400 with {{error: <message>}}\": the 400 to a job "
                                      f"naming its user by {form} carries no string error: {resp.text[:200]!r}", resp)
        if resp.status == 400 and error in guards:
            skip(SkipKind.OTHER, f"inconclusive: {case.label}: the target reported the guard ({error!r}) before the "
                                 "past date ([safety] destructive = false)")
        if case.form == PARAM_WINS and error in (BULK_NO_CSV, CSV_MISSING):
            fail(["CONV-PARAM-AS-BODY-FIELD-GDPR"], f"{case.label}: type individual as a query parameter, bulk in "
                                                     f"the body: the body won ({error!r}); the parameter wins", resp)
        if not taken:  # no form taken in this input form: perhaps the form itself is not, CONV's to judge
            form_not_taken(case, resp, f"400 {PAST_DATE!r}")
        fail([case.rule], f"{case.label}: an individual job naming its user by {form} ({users[form]}), "
                          f"{count} operation(s), type {where(case, losing)}, dated in the past: its one error is the "
                          "date, expected 400 "
                          f"{{error: {PAST_DATE!r}}}, got {resp.status} {error!r} (taken by {taken or 'no form'}; "
                          f"\"Exactly one of username, email, id\")", resp)
    rest = {"scheduleDate": {"formatted": past()}, "operations": ["qc-not-an-operation"] if guards else ["suspend"]}
    forms = {f: user_of(profile, f) for f in USER_FORMS}
    as_param = _object_as_parameter(case, admin, "user", fields, rest,  # closea: the object as a query parameter
                                    forms, "\"Exactly one of username, email, id\"")
    _form_encoded(case, admin, {f"user by {f}": ({"type": "individual"}, {**rest, "user": u})  # round98: form-encoded
                                for f, u in forms.items()}, "\"Exactly one of username, email, id\"")
    # round88: the job's other objects as query parameters too, where the user object was taken there; round93: and
    # where it was not, the user object judged against those the target did read from their parameter
    read = _other_objects_as_parameters(case, admin, profile, fields, bool(as_param)) if case.form == QUERY else []
    if read and not as_param:
        fail(["CONV-PARAM-AS-BODY-FIELD-GDPR"], f"{case.label}: the target read {', '.join(read)} from a query "
                                                 "parameter (JSON text) beside a JSON body, yet a job with its user "
                                                 f"object there, by {' or by '.join(forms)}, was not taken (no form "
                                                 f"answered 400 {PAST_DATE!r}): each body field may also be given as "
                                                 "a request or query parameter of the same name; user is one")


# crossing3 (issue 44): a reassignUser and an operations list in the stated forms, taken in every form of the job's
# scalar fields: each row a bulk job on the profile's file whose one error is its past date

def _judge_taken(case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int],
                 sent: dict[str, dict[str, Any]], stated: str) -> None:
    """Send one past-dated bulk job per ``sent`` label (the field under test in one stated form, always in the JSON
    body: no parameter form shown) and judge each: 400 with the past date's message is the form taken."""
    who = (admin.username, user_ids.get("admin"))
    answers: dict[str, tuple[ApiResponse, dict[str, Any]]] = {}
    guards: set[str] = set()
    for label, field in sent.items():
        fields, rest, losing, guards = past_bulk_job(case, profile, field, who)
        answers[label] = (send(admin, contract.path("scheduleGdprJob"), "scheduleGdprJob", case.form, fields, rest,
                               losing), losing)
    taken = [label for label, (r, _) in answers.items() if r.status == 400 and error_of(r) == PAST_DATE]
    for label, (resp, losing) in answers.items():
        error = error_of(resp)
        if label in taken:
            continue
        if resp.status == 400 and error is None:
            fail(["GDPR-ERROR-BODY"], f"{case.label}: \"Errors: 400 with {{error: <message>}}\": the 400 to a job with "
                                      f"{label} carries no string error: {resp.text[:200]!r}", resp)
        if resp.status == 400 and error in guards:
            skip(SkipKind.OTHER, f"inconclusive: {case.label}: the target reported the guard ({error!r}) before the "
                                 "past date ([safety] destructive = false)")
        if 200 <= resp.status < 300:
            fail(["GDPR-PAST-DATE"], f"{case.label}: a bulk job with {label}, dated in the past, was scheduled "
                                     f"({resp.status}): \"Date in the past\" is refused with 400", resp)
        if case.form == PARAM_WINS and error is not None and error.startswith(NO_USER_PREFIX):
            fail(["CONV-PARAM-AS-BODY-FIELD-GDPR"], f"{case.label}: type bulk as a query parameter, individual in "
                                                     f"the body: the body won ({error!r}); the parameter wins", resp)
        if not taken and error not in LATER_REFUSALS.values():  # neither taken nor refused past the scalar fields
            form_not_taken(case, resp, f"400 {PAST_DATE!r}")
        fail([case.rule], f"{case.label}: a bulk job on the profile's file with {label} in the JSON body, type "
                          f"{where(case, losing)}, dated in the past: its one error is the date, expected 400 "
                          f"{{error: {PAST_DATE!r}}}, got {resp.status} {error!r} (taken: {taken or 'none'}; "
                          f"{stated})", resp)


@pytest.mark.rule("GDPR-REASSIGN-FORMS")
@pytest.mark.gdpr
def test_a_reassign_user_in_every_stated_form_is_taken_in_every_input_form(
        case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int],
        without_realname: tuple[str, int] | None) -> None:
    """reassignUser naming admin (the scheduling account) by username and by id, each on a past-dated bulk job: a
    form not taken shows as another answer than the past date's ("by exactly one of username or id"); round73: each
    form with one operation and with all four. closea: a listed user without a real name by username and by id too
    (:func:`without_realname`, where the site lists one)."""
    who = (admin.username, user_ids.get("admin"))
    sent = {f"reassignUser by {form}{label}": {"reassignUser": reassign_of(who, form), **ops} for form in REASSIGN_FORMS
            for label, ops in (("", {}), (", all four operations", {"operations": list(OPERATIONS)}))}
    if without_realname is not None:
        sent.update({f"reassignUser by {form}, {without_realname[0]} (no real name)": {"reassignUser": reassign_of(
            without_realname, form)} for form in REASSIGN_FORMS})
    _judge_taken(case, admin, profile, user_ids, sent, "\"by exactly one of username or id\"")
    if case.form == QUERY:  # closea: the object itself as a query parameter, in each stated form
        fields, rest, _, _ = past_bulk_job(case, profile, {}, who)
        _object_as_parameter(case, admin, "reassignUser", fields, rest,
                             {form: reassign_of(who, form) for form in REASSIGN_FORMS},
                             "\"by exactly one of username or id\"")
    _form_encoded(case, admin, {f"reassignUser by {form}": past_bulk_job(  # round98: the job form-encoded
        case, profile, {"reassignUser": reassign_of(who, form)}, who)[:2] for form in REASSIGN_FORMS},
                  "\"by exactly one of username or id\"")


@pytest.mark.rule("GDPR-OPERATIONS-RANGE")
@pytest.mark.gdpr
def test_a_list_of_stated_operations_is_taken_in_every_input_form(
        case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int]) -> None:
    """2 to 4 distinct stated operation names in a drawn order on a past-dated bulk job (one name alone is what the
    other job rows send): the list refused shows as another answer than the past date's."""
    operations = stated_operations()
    stated = "\"At least one and at most 4 elements, from suspend, anonymize, delete, anon-delete\""
    _judge_taken(case, admin, profile, user_ids, {f"operations {operations}": {"operations": operations}}, stated)
    who = (admin.username, user_ids.get("admin"))  # round98: the job form-encoded, one name and the drawn list
    _form_encoded(case, admin, {f"operations {ops}": past_bulk_job(case, profile, {"operations": ops}, who)[:2]
                                for ops in ([operations[0]], operations)}, stated)
