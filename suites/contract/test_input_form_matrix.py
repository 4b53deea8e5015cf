"""The refusals of the two writes crossed with the form their fields arrive in, the other fields beside them and who
sends them, pairwise (issue 33: "a validation skipped for one input form").

"On POST endpoints that take a body, each body field may also be given as a request or query parameter of the same
name. When both are given, the parameter wins." A refusal the description states (a comment without body, a reply
that changes a private parent's visibility, recipients without visibility recipients, a private option without Use
Private Comments, an individual job without user, a bulk job without csvFileId or with a file that does not exist)
therefore holds whether the fields arrive in the JSON body, as query parameters, as form-encoded request parameters,
or both ways with the parameter deciding; and whatever other stated field stands beside them. A server that checks
the JSON body only, or takes the extra field for the missing one, passes every test that sends one form. Each rule
declares the dimensions it must hold across in spec/dimensions.yaml (``validations``); input_forms.py draws, per
rule, a covering array of them (allpairspy, seeded by the run's ``--seed``) within the forms the description states
for those fields, so every pair of values is tried at least once.

Each combination is one POST and a test whose id names it (``postComment-form-stated-novice``); a failure names the
rule and the combination. Writes: every combination is one a conforming target refuses, so the module spends no
accepted write of the budget (a refused write is reserved from the suites' share and given back); a target that
accepts one fails the rule, and what it created is registered as the run's. The private parent of COMMENT-4 is the
run's shared private comment (suites/conftest.py ``private_comment_of``), the other comments' node the shared answer.
A job request names no real user and no real file, except a param_wins request of GDPR-CSV-MISSING, whose losing
body names the profile's file and so always carries a guard (reassignUser given two ways): a server that let the
body win still schedules nothing. Without [safety] destructive every job request carries the guards of
test_gdpr_jobs.py (a past date, reassignUser given two ways); a target that answers a guard's error first cannot be
judged (a skip naming it).

What is not judged (a skip saying why): a target before 2.16.0 (no privacy fields), a wire value the profile does
not give (full visibility: "its wire value is not shown"), a combination that needs the profile's gdpr_csv_file_id,
and a query or form combination refused with another 4xx than the stated one (a target that does not take the
fields in that form at all fails CONV-PARAM-AS-BODY-FIELD in test_stated_forms.py, not the rule here; a 2xx or a 5xx
there is judged).
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from covering import parametrize_by_rule, thorough
from input_forms import FORM, JOB_RESPONSE_RULES, JSON, PARAM_WINS, QUERY, STATED, Case, array

from qaconform import contract
from qaconform.contract import Dimensions
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.refusals import off_the_interface, shown, why_not_refused
from qaconform.pytest.support import register_wrongly_created
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.contract, pytest.mark.writes, pytest.mark.refused_writes]  # refusals only

NO_USER_PREFIX = "The individual type was selected, but the request is missing the user"
OPERATIONS_INVALID = "The provided 'operations' is/are invalid"
BULK_NO_CSV = "The bulk type was selected, but the request is missing the csvFileId field."
CSV_MISSING = "The requested file does not exist"
PAST_DATE = "The desired date is in the past and is it not eligible."
REASSIGN_AMBIGUOUS = "The request contains more than one reassignUser eligible configuration"
REASSIGN_INVALID = "The provided 'reassignUser' is/are invalid"
FORM_TYPE = "application/x-www-form-urlencoded"


def _cases(rule: str, dims: Dimensions, seed: int, config: pytest.Config) -> tuple[Case, ...]:
    return array(rule, dims, seed, thorough(config))


def _job_rows(config: pytest.Config) -> list[Any]:
    """Every (response rule, job row) of input_forms.JOB_RESPONSE_RULES: each on every row of every job refusal's
    array (the same requests), the rule as the row's marker."""
    from qaconform.pytest.properties.plugin import STATE

    dims, seed = contract.load_contract().dimensions, config.stash[STATE].seed
    # the refusals _send_job sends; GDPR-USER-FORMS' rows send one job per user form and judge their body themselves
    rules = [r for r, d in dims.rules.items() if "scheduleGdprJob" in d.validations and r != "GDPR-USER-FORMS"]
    return [pytest.param(c, id=f"{rule}-{c.rule}-{c.label}", marks=pytest.mark.rule(rule))
            for rule in JOB_RESPONSE_RULES for job in rules for c in _cases(job, dims, seed, config)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``case``: every row of the covering array of the test's rule (input_forms.py); ``job_row``: every job row for
    each of input_forms.JOB_RESPONSE_RULES."""
    if "job_row" in metafunc.fixturenames:
        metafunc.parametrize("job_row", _job_rows(metafunc.config))
        return
    parametrize_by_rule(metafunc, "case", _cases, "an input form matrix")


# --- sending one combination ------------------------------------------------------------------------------------

def send(client: ApiClient, path: str, op: str, form: str, fields: dict[str, Any], rest: dict[str, Any],
         losing: dict[str, Any]) -> ApiResponse:
    """POST ``fields`` (scalars) in ``form``; ``rest`` (arrays and objects, which have no parameter form shown)
    always in a JSON body; under param_wins the keys of ``losing`` go as query parameters with ``fields``' values
    and in the JSON body with ``losing``'s."""
    if form == JSON:
        return client.post(path, json={**rest, **fields}, operation=op)
    if form == QUERY:
        return client.post(path, params=fields, json=rest or None, operation=op)
    if form == FORM:
        assert not rest, "a form-encoded request cannot carry arrays or objects (input_forms.ALLOWED)"
        if not fields:
            return client.post(path, data=b"", headers={"Content-Type": FORM_TYPE}, operation=op)
        return client.post(path, data={k: str(v) for k, v in fields.items()}, operation=op)
    assert form == PARAM_WINS and losing
    return client.post(path, params={k: fields[k] for k in losing}, json={**rest, **fields, **losing}, operation=op)


def _where(case: Case, losing: dict[str, Any] | None = None) -> str:
    """How the fields travelled, for a failure message."""
    if case.form == PARAM_WINS:
        said = f" (the body says {losing})" if losing else ""
        return f"in the JSON body, {sorted(losing or ['visibility'])} also as query parameters, which win{said}"
    return {JSON: "in the JSON body", QUERY: "as query parameters", FORM: "as form-encoded request parameters"}[
        case.form]


def _form_not_taken(case: Case, resp: ApiResponse, expected: str) -> None:
    """A parameter form answered with another refusal than the stated one: the target may not take the fields in
    that form at all (a 415, or the fields not seen), which is CONV-PARAM-AS-BODY-FIELD's (-GDPR's) to judge
    (test_stated_forms.py, test_request_conventions.py), never this rule's: not judged, said so. A 2xx or a 5xx is
    judged: the target took the request, or failed on it."""
    if case.form in (QUERY, FORM) and 400 <= resp.status < 500 and not off_the_interface(resp):
        conv = "CONV-PARAM-AS-BODY-FIELD-GDPR" if case.op == "scheduleGdprJob" else "CONV-PARAM-AS-BODY-FIELD"
        skip(SkipKind.OTHER, f"not judged: {case.label} was refused with {resp.status} {resp.text[:120]!r}, not "
                             f"{expected}; whether the target takes the fields {_where(case)} is {conv}'s to judge")


def _text(case: Case, run_tag: str) -> str:
    return f"input form matrix {case.label} [{run_tag}] {uuid.uuid4().hex[:8]}"


def _require_privacy(profile: Profile) -> None:
    if not profile.supports("2.16.0"):
        skip(SkipKind.CONFIGURATION, f"disabled by configuration: visibility and recipients were added in 2.16.0, "
                                     f"the target runs {profile.service_version}")


def _full(profile: Profile, case: Case) -> str:
    """The wire value of full visibility ("Default is full visibility"; its value is not shown): the profile's."""
    value = profile.visibility.full
    if value is None:
        skip(SkipKind.OTHER, f"not judged: {case.label} sends full visibility, whose wire value the description does "
                             "not show and the profile's [visibility] full does not give")
    return value


# --- the comment rules -------------------------------------------------------------------------------------------

@pytest.mark.rule("COMMENT-BODY-REQUIRED")
@pytest.mark.comments
def test_a_comment_without_body_is_refused_in_every_input_form(
        case: Case, api: dict[str, ApiClient], shared_answer: int, profile: Profile, created: Any) -> None:
    """"body (string, the comment text, required)": missing whichever way the other fields arrive."""
    fields = {"visibility": _full(profile, case)} if case.other == STATED else {}
    resp = send(api[case.writer], contract.path("postComment", nodeId=shared_answer), "postComment", case.form,
                fields, {}, {})
    register_wrongly_created(resp, created, case.writer)
    if (why := why_not_refused(resp)) is not None:
        beside = f" with visibility {fields['visibility']!r}" if fields else ""
        fail([case.rule], f"{case.label}: {case.writer} posts a comment without body{beside}, the fields "
                          f"{_where(case)}: a comment without body is refused with a 4xx, {why}", resp)


@pytest.mark.rule("COMMENT-4")
@pytest.mark.comments
def test_a_reply_changing_a_private_parents_visibility_is_400_in_every_input_form(
        case: Case, api: dict[str, ApiClient], profile: Profile, created: Any, run_tag: str,
        private_comment_of: Callable[[str, str], Any]) -> None:
    """member replies to its own comment private to the original poster (the run's shared one) with another
    visibility (full, else to_moderators: member holds both); under param_wins the body repeats the parent's."""
    _require_privacy(profile)
    parent = private_comment_of(case.writer, "to_original_poster")
    if parent.resp.status != 201 or parent.id is None:
        fail(["PERM-COMMENT-PRIVATE"], f"{case.writer} (Use Private Comments, the original-poster option) could not "
                                       f"post the private comment {case.label} replies to", parent.resp)
    own = profile.visibility.to_original_poster
    other = profile.visibility.full or profile.visibility.to_moderators
    if other is None:
        skip(SkipKind.OTHER, "not judged: the profile's [visibility] gives no wire value of full visibility or of "
                             "to_moderators, so no other visibility can be sent")
    fields = {"body": _text(case, run_tag), "visibility": other}
    losing = {"visibility": own} if case.form == PARAM_WINS else {}
    resp = send(api[case.writer], contract.path("postComment", nodeId=parent.id), "postComment", case.form, fields,
                {}, losing)
    register_wrongly_created(resp, created, case.writer)
    if (why := why_not_refused(resp, (400,))) is not None:
        _form_not_taken(case, resp, "400")
        fail([case.rule], f"{case.label}: a reply to a private comment (visibility {own!r}) with visibility "
                          f"{other!r} {_where(case, losing)} must be refused with 400 (\"A reply to a private "
                          f"comment with different visibility gives 400\"); {why}", resp)


OWN_OPTION = {"member": "to_original_poster", "admin": "to_moderators", "moderator": "to_own_groups",
              "novice": "to_original_poster"}
"""A private option each writer holds (docs/profile.md's permission table; novice holds none and may be refused with
403): COMMENT-6's visibility that is not recipients where the profile gives no wire value of full visibility."""


@pytest.mark.rule("COMMENT-6")
@pytest.mark.comments
def test_recipients_while_visibility_is_not_recipients_is_400_in_every_input_form(
        case: Case, api: dict[str, ApiClient], shared_answer: int, profile: Profile, created: Any, run_tag: str,
        user_ids: dict[str, int]) -> None:
    """visibility full with recipients (always JSON); under param_wins the body says recipients. Where the profile
    gives no wire value of full visibility, a private option the writer holds (:data:`OWN_OPTION`) is the visibility
    that is not recipients. novice, who lacks Use Private Comments ("For visibility and recipients: Use Private
    Comments ..."), may be refused with 403."""
    _require_privacy(profile)
    if "moderator" not in user_ids:
        skip(SkipKind.OTHER, "not judged: no id of moderator is known to name as a recipient")
    other = profile.visibility.full or getattr(profile.visibility, OWN_OPTION[case.writer])
    fields = {"body": _text(case, run_tag), "visibility": other or _full(profile, case)}
    rest = {"recipients": [{"id": user_ids["moderator"]}]}
    losing = {"visibility": profile.visibility.recipients} if case.form == PARAM_WINS else {}
    resp = send(api[case.writer], contract.path("postComment", nodeId=shared_answer), "postComment", case.form,
                fields, rest, losing)
    register_wrongly_created(resp, created, case.writer)
    allowed = (400, 403) if case.writer == "novice" else (400,)
    if (why := why_not_refused(resp, allowed)) is not None:
        _form_not_taken(case, resp, shown(allowed))
        fail([case.rule], f"{case.label}: recipients given while visibility is {fields['visibility']!r} (given "
                          f"{_where(case, losing)}) must be refused with {shown(allowed)}; {why}", resp)


@pytest.mark.rule("COMMENT-7-NO-PRIVATE-PERMISSION")
@pytest.mark.comments
def test_a_private_option_without_use_private_comments_is_403_in_every_input_form(
        case: Case, api: dict[str, ApiClient], shared_answer: int, profile: Profile, created: Any,
        run_tag: str) -> None:
    """novice's comment private to the original poster; under param_wins the body says full visibility."""
    _require_privacy(profile)
    private = profile.visibility.to_original_poster
    losing = {"visibility": _full(profile, case)} if case.form == PARAM_WINS else {}
    fields = {"body": _text(case, run_tag), "visibility": private}
    resp = send(api[case.writer], contract.path("postComment", nodeId=shared_answer), "postComment", case.form,
                fields, {}, losing)
    register_wrongly_created(resp, created, case.writer)
    if (why := why_not_refused(resp, (403,))) is not None:
        _form_not_taken(case, resp, "403")
        fail([case.rule], f"{case.label}: {case.writer} lacks Use Private Comments; visibility {private!r} given "
                          f"{_where(case, losing)} must be refused with 403; {why}", resp)


@pytest.mark.rule("COMMENT-7-NO-OPTION-PERMISSION")
@pytest.mark.comments
def test_a_private_option_the_caller_lacks_is_403_in_every_input_form(
        case: Case, api: dict[str, ApiClient], shared_answer: int, profile: Profile, created: Any,
        run_tag: str) -> None:
    """member's comment to own groups, the one option member lacks (docs/profile.md's permission table: it holds Use
    Private Comments and the other two); under param_wins the body says an option member holds (to the original
    poster), so only the winning parameter makes the request one the description refuses (blind8, issue 44)."""
    _require_privacy(profile)
    lacked, held = profile.visibility.to_own_groups, profile.visibility.to_original_poster
    if lacked is None or (case.form == PARAM_WINS and held is None):
        skip(SkipKind.OTHER, f"not judged: {case.label} needs the wire values of to_own_groups (and, for param_wins, "
                             "to_original_poster), which the profile's [visibility] does not give")
    losing = {"visibility": held} if case.form == PARAM_WINS else {}
    fields = {"body": _text(case, run_tag), "visibility": lacked}
    resp = send(api[case.writer], contract.path("postComment", nodeId=shared_answer), "postComment", case.form,
                fields, {}, losing)
    register_wrongly_created(resp, created, case.writer)
    if (why := why_not_refused(resp, (403,))) is not None:
        _form_not_taken(case, resp, "403")
        fail([case.rule], f"{case.label}: {case.writer} holds Use Private Comments but not the option to own "
                          f"groups; visibility {lacked!r} given {_where(case, losing)} must be refused with 403 "
                          f"(\"or lacks the permission for that option, gives 403\"); {why}", resp)


# --- the job rules -----------------------------------------------------------------------------------------------

def _future() -> str:
    rnd = random.SystemRandom()
    return f"{rnd.randint(1, 12):02d}/{rnd.randint(1, 28):02d}/{rnd.randint(2031, 2099)} " \
           f"{rnd.randint(0, 23):02d}:{rnd.randint(0, 59):02d}"


def _nobody() -> dict[str, str]:
    """A user that exists nowhere: a job request of the matrix never names a real one."""
    return {"username": f"qc-nobody-{uuid.uuid4().hex[:12]}"}


def _missing_csv(profile: Profile) -> int:
    value = 2_147_000_000 + random.SystemRandom().randint(0, 400_000)
    return value + 1 if value == profile.fixtures.gdpr_csv_file_id else value


def _error(resp: ApiResponse) -> str | None:
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


def _past() -> str:
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
        rest["user"] = _nobody()
    if case.rule == "GDPR-PAST-DATE":
        rest["scheduleDate"] = {"formatted": _past()}
    elif case.rule == "GDPR-OPERATIONS-INVALID":
        rest["operations"] = random.SystemRandom().choice([[], ["qc-not-an-operation"]])
    elif case.rule == "GDPR-REASSIGN-AMBIGUOUS":
        rest["reassignUser"] = {"username": admin[0], "id": admin[1]}
    else:
        rest["reassignUser"] = _nobody()
    # a body that won makes an individual job without user; with a user beside, one naming a user who exists
    # nowhere, whose message the description does not give, so it names no other rule
    won = None if case.other == STATED else NO_USER_PREFIX
    return {"type": "bulk", "csvFileId": csv}, rest, {"type": "individual"} if param_wins else {}, \
        LATER_REFUSALS[case.rule], won


def _job(case: Case, profile: Profile,
         admin: tuple[str, int]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], str, str | None]:
    """(fields, rest, losing, expected message, the message a request whose body won would get instead)."""
    rest: dict[str, Any] = {"scheduleDate": {"formatted": _future()}, "operations": ["suspend"]}
    param_wins = case.form == PARAM_WINS
    if case.rule == "GDPR-INDIVIDUAL-NO-USER":
        fields: dict[str, Any] = {"type": "individual"}
        if case.other == STATED:
            fields["csvFileId"] = _missing_csv(profile)
            # round13 (issue 44): the stated field shaped like the missing user, beside it: a server that takes
            # ``user or reassignUser`` finds a user there (one that exists nowhere: never a real user's job)
            rest["reassignUser"] = _nobody()
        # a body that won makes a bulk job without file; with a csvFileId beside, a bulk job naming no file: the
        # answer a server that took the extra field for the job's kind gives too, so it names no other rule
        won = None if case.other == STATED else BULK_NO_CSV
        return fields, rest, {"type": "bulk"} if param_wins else {}, NO_USER_PREFIX, won
    if case.rule == "GDPR-BULK-NO-CSV":
        if case.other == STATED:
            rest["user"] = _nobody()
        return {"type": "bulk"}, rest, {"type": "individual"} if param_wins else {}, BULK_NO_CSV, \
            None if case.other == STATED else NO_USER_PREFIX
    if case.rule in LATER_REFUSALS:
        return _later_refusal(case, profile, rest, param_wins, admin)
    assert case.rule == "GDPR-CSV-MISSING"
    if case.other == STATED:
        rest["user"] = _nobody()
    losing: dict[str, Any] = {}
    if param_wins:
        real = profile.fixtures.gdpr_csv_file_id
        if real is None:
            skip(SkipKind.MISSING_FIXTURE, f"not checked: {case.label} needs fixture gdpr_csv_file_id (the body names "
                                           "a file that exists, the winning parameter one that does not)",
                 fixtures=["gdpr_csv_file_id"])
        losing = {"csvFileId": real}
    return {"type": "bulk", "csvFileId": _missing_csv(profile)}, rest, losing, CSV_MISSING, None


def _guards(case: Case, profile: Profile, admin: ApiClient, admin_id: int | None,
            rest: dict[str, Any]) -> set[str]:
    """The guards a job request carries, and their messages: without [safety] destructive a past date and
    reassignUser given two ways (test_gdpr_jobs.py); a param_wins request of GDPR-CSV-MISSING always the second."""
    messages: set[str] = set()
    own = {"GDPR-PAST-DATE": "scheduleDate", "GDPR-REASSIGN-AMBIGUOUS": "reassignUser",
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


_JOBS = pytest.StashKey[dict[str, Any]]()
"""The job requests sent, by row: the refusal's test and the response rules judge one request per row."""


def _send_job(case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int],
              request: pytest.FixtureRequest) -> tuple[Any, ...]:
    """The row's job request, sent once per process: (response, fields, rest, losing, expected, won, guards)."""
    sent: dict[str, Any] = request.session.stash.setdefault(_JOBS, {})
    key = f"{case.rule} {case.label}"
    if key not in sent:
        who = (admin.username or "admin", user_ids.get("admin") or 1)  # an ambiguous reassignUser's two ways
        fields, rest, losing, expected, won = _job(case, profile, who)
        guards = _guards(case, profile, admin, user_ids.get("admin"), rest)
        resp = send(admin, contract.path("scheduleGdprJob"), "scheduleGdprJob", case.form, fields, rest, losing)
        sent[key] = (resp, fields, rest, losing, expected, won, guards)
    return tuple(sent[key])


def _judge_job(case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int],
               request: pytest.FixtureRequest) -> None:
    resp, fields, rest, losing, expected, won, guards = _send_job(case, admin, profile, user_ids, request)
    error = _error(resp)
    if resp.status == 400 and error is None:
        fail(["GDPR-ERROR-BODY"], f"{case.label}: \"Errors: 400 with {{error: <message>}}\": the 400 carries no "
                                  f"string error, whichever form the fields came in: {resp.text[:200]!r}", resp)
    matches = error is not None and (error.startswith(expected) if expected == NO_USER_PREFIX else error == expected)
    if resp.status == 400 and matches:
        return
    if resp.status == 400 and error in guards:
        skip(SkipKind.OTHER, f"inconclusive: {case.label}: the target reported the guard ({error!r}) before the "
                             "error under test; the guard stays ([safety] destructive = false, or a losing body that "
                             "names a real file)")
    rule = case.rule
    if case.form == PARAM_WINS and won is not None and error is not None and error.startswith(won):
        rule = "CONV-PARAM-AS-BODY-FIELD-GDPR"  # the body's value won: the validation itself held
    if rule == case.rule and not (case.rule in LATER_REFUSALS and error in LATER_REFUSALS.values()):
        # crossing2: another refusal of a field past the file check shows the target took the scalar fields
        _form_not_taken(case, resp, f"400 {expected!r}")
    given = ", ".join(f"{k}={v!r}" for k, v in fields.items())
    fail([rule], f"{case.label}: a job with {given} given {_where(case, losing)}, {sorted(rest)} in the JSON body: "
                 f"expected 400 with {{error: {expected!r}{'...' if expected == NO_USER_PREFIX else ''}}}, got "
                 f"{resp.status} {error!r}", resp)


@pytest.mark.rule("GDPR-INDIVIDUAL-NO-USER")
@pytest.mark.gdpr
def test_an_individual_job_without_user_is_refused_in_every_input_form(
        case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int],
        request: pytest.FixtureRequest) -> None:
    """type individual, no user; beside it (stated) a csvFileId naming no file and a reassignUser naming nobody: a
    server that takes the job for a bulk one says the file does not exist, one that takes the reassignUser for the
    user says the user is invalid."""
    _judge_job(case, admin, profile, user_ids, request)


@pytest.mark.rule("GDPR-BULK-NO-CSV")
@pytest.mark.gdpr
def test_a_bulk_job_without_csv_file_id_is_refused_in_every_input_form(
        case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int],
        request: pytest.FixtureRequest) -> None:
    """type bulk, no csvFileId; beside it (stated) a user who exists nowhere."""
    _judge_job(case, admin, profile, user_ids, request)


@pytest.mark.rule("GDPR-CSV-MISSING")
@pytest.mark.gdpr
def test_a_bulk_job_naming_a_file_that_does_not_exist_is_refused_in_every_input_form(
        case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int],
        request: pytest.FixtureRequest) -> None:
    """type bulk, a csvFileId naming no file; beside it (stated) a user who exists nowhere."""
    _judge_job(case, admin, profile, user_ids, request)


# crossing2 (issue 44): the refusals of the job's other fields, past its file check, in every form of its scalar fields

@pytest.mark.rule("GDPR-PAST-DATE")
@pytest.mark.gdpr
def test_a_job_dated_in_the_past_is_refused_in_every_input_form(
        case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int],
        request: pytest.FixtureRequest) -> None:
    """a bulk job on the profile's file dated in the past; beside it (stated) a user who exists nowhere."""
    _judge_job(case, admin, profile, user_ids, request)


@pytest.mark.rule("GDPR-OPERATIONS-INVALID")
@pytest.mark.gdpr
def test_an_empty_or_invalid_operations_list_is_refused_in_every_input_form(
        case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int],
        request: pytest.FixtureRequest) -> None:
    """a bulk job on the profile's file with no operation or an unknown one; beside it (stated) a user."""
    _judge_job(case, admin, profile, user_ids, request)


@pytest.mark.rule("GDPR-REASSIGN-AMBIGUOUS")
@pytest.mark.gdpr
def test_a_reassign_user_given_two_ways_is_refused_in_every_input_form(
        case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int],
        request: pytest.FixtureRequest) -> None:
    """a bulk job on the profile's file, reassignUser by admin's username and id; beside it (stated) a user."""
    _judge_job(case, admin, profile, user_ids, request)


@pytest.mark.rule("GDPR-REASSIGN-INVALID")
@pytest.mark.gdpr
def test_a_reassign_user_that_does_not_exist_is_refused_in_every_input_form(
        case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int],
        request: pytest.FixtureRequest) -> None:
    """a bulk job on the profile's file, reassignUser a username no one holds; beside it (stated) a user."""
    _judge_job(case, admin, profile, user_ids, request)


# crossing2 (issue 44): an individual job's user in every stated form, whichever form the job's scalar fields take

USER_FORMS = ("email", "id")
"""The stated forms of an individual job's user ("Exactly one of username, email, id"; id an integer in the
contract's schema) each row sends; username alone is not judged (test_gdpr_forms.py USER_FORMS_EXCLUDED says why)."""


def _user_of(profile: Profile, form: str) -> dict[str, Any]:
    """[safety] gdpr_user by one stated form, or a skip naming the key it needs."""
    safety = profile.safety
    value = safety.gdpr_user_email if form == "email" else safety.gdpr_user_id
    if not safety.gdpr_user or value is None:
        key = "gdpr_user_email" if form == "email" else "gdpr_user_id"
        skip(SkipKind.MISSING_FIXTURE, f"not checked: a job naming its user by {form} needs [safety] gdpr_user and "
                                       f"{key}", fixtures=[key])
    return {form: value}


@pytest.mark.rule("GDPR-USER-FORMS")
@pytest.mark.gdpr
def test_an_individual_jobs_user_in_every_stated_form_is_taken_in_every_input_form(
        case: Case, admin: ApiClient, profile: Profile) -> None:
    """gdpr_user by email and by id on an individual job dated in the past, type in the row's form (a param_wins body
    says bulk), beside it (stated) a csvFileId naming no file: the past date's 400 is the one stated answer, so a user
    form not taken shows as another answer. Without [safety] destructive an invalid operations list is the guard."""
    answers: dict[str, ApiResponse] = {}
    guards = set() if profile.safety.destructive else {OPERATIONS_INVALID}
    losing = {"type": "bulk"} if case.form == PARAM_WINS else {}
    for form in USER_FORMS:
        fields: dict[str, Any] = {"type": "individual"}
        if case.other == STATED:
            fields["csvFileId"] = _missing_csv(profile)
        rest = {"user": _user_of(profile, form), "scheduleDate": {"formatted": _past()},
                "operations": ["qc-not-an-operation"] if guards else ["suspend"]}
        answers[form] = send(admin, contract.path("scheduleGdprJob"), "scheduleGdprJob", case.form, fields, rest,
                             losing)
    taken = [f for f, r in answers.items() if r.status == 400 and _error(r) == PAST_DATE]
    for form, resp in answers.items():
        error = _error(resp)
        if form in taken:
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
            _form_not_taken(case, resp, f"400 {PAST_DATE!r}")
        fail([case.rule], f"{case.label}: an individual job naming gdpr_user by {form} ({_user_of(profile, form)}), "
                          f"type {_where(case, losing)}, dated in the past: its one error is the date, expected 400 "
                          f"{{error: {PAST_DATE!r}}}, got {resp.status} {error!r} (taken by {taken or 'no form'}; "
                          f"\"Exactly one of username, email, id\")", resp)


@pytest.mark.gdpr
def test_every_job_refusal_in_every_input_form_has_the_stated_error_body(
        job_row: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int],
        request: pytest.FixtureRequest) -> None:
    """"Errors: 400 with {error: <message>}" (GDPR-ERROR-BODY) on every row of every job refusal's array, whichever
    form the fields came in and whatever stood beside them: the refusal's own request, judged for its body."""
    resp = _send_job(job_row, admin, profile, user_ids, request)[0]
    if resp.status != 400:
        fail([job_row.rule], f"{job_row.label}: the job is refused with 400 ({job_row.rule}), got {resp.status}", resp)
    if _error(resp) is None:
        fail(["GDPR-ERROR-BODY"], f"{job_row.label}: \"Errors: 400 with {{error: <message>}}\": the 400 carries no "
                                  f"string error: {resp.text[:200]!r}", resp)
