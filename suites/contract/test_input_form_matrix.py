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

The job's stated forms that must be taken (crossing3, issue 44: GDPR-USER-FORMS, GDPR-REASSIGN-FORMS and
GDPR-OPERATIONS-RANGE, each row a job whose one error is its past date) are test_job_form_matrix.py's, on the same
rows (closea: split out at the module limit); job_requests.py builds the job requests and holds their messages.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from cells import cell_marks
from covering import parametrize_by_rule, thorough
from form_sends import form_not_taken, send, where
from input_forms import (
    INHERITED_MESSAGE,
    JOB_RESPONSE_RULES,
    PARAM_WINS,
    QUERY,
    STATED,
    Case,
    array,
    body_texts,
)
from job_requests import (
    LATER_REFUSALS,
    NO_STATED_ERROR,
    NO_USER_PREFIX,
    PAST_DATE,
    TAKEN,
    build_job,
    error_of,
    job_guards,
    timestamp_job,
    typeless_job,
)

from qaconform import contract
from qaconform.contract import Dimensions
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.refusals import shown, why_not_refused
from qaconform.pytest.support import register_wrongly_created
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.contract, pytest.mark.writes, pytest.mark.refused_writes]  # refusals only


def _cases(rule: str, dims: Dimensions, seed: int, config: pytest.Config) -> tuple[Case, ...]:
    return array(rule, dims, seed, thorough(config))


def _job_rows(config: pytest.Config) -> list[Any]:
    """Every (response rule, job row) of input_forms.JOB_RESPONSE_RULES: each on every row of every job refusal's
    array (the same requests), the rule as the row's marker."""
    from qaconform.pytest.properties.plugin import STATE

    dims, seed = contract.load_contract().dimensions, config.stash[STATE].seed
    # the refusals _send_job sends; job_requests.TAKEN's rows send one job per stated form and judge their bodies
    rules = [r for r, d in dims.rules.items()
             if "scheduleGdprJob" in d.validations and r not in TAKEN and r not in NO_STATED_ERROR]
    return [pytest.param(c, id=f"{rule}-{c.rule}-{c.label}", marks=[pytest.mark.rule(rule), *cell_marks(c)])
            for rule in JOB_RESPONSE_RULES for job in rules for c in _cases(job, dims, seed, config)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``case``: every row of the covering array of the test's rule (input_forms.py); ``job_row``: every job row for
    each of input_forms.JOB_RESPONSE_RULES."""
    if "job_row" in metafunc.fixturenames:
        metafunc.parametrize("job_row", _job_rows(metafunc.config))
        return
    own = metafunc.definition.get_closest_marker("rule")
    rule = str(own.args[0]) if own is not None and own.args else ""
    also = JOB_ALSO if rule.startswith("GDPR-") else COMMENT_4_ALSO if rule == "COMMENT-4" else ()
    parametrize_by_rule(metafunc, "case", _cases, "an input form matrix", also=tuple(r for r in also if r != rule),
                        also_of=lambda c: JOB_FORM_ALSO if rule.startswith("GDPR-") and (
                            c.form == PARAM_WINS or (c.form == QUERY and rule == "GDPR-USER-FORMS")) else ())


JOB_ALSO = ("GDPR-ERROR-BODY", "GDPR-PAST-DATE")
"""cross17 (issue 44 item 7): the rules a job row's checks name beside its own (a 400 without its error body, a
taken form's past date: _judge_job, _judge_taken); COMMENT-4's rows name PERM-COMMENT-PRIVATE when the private parent
a reply needs was not posted. JOB_FORM_ALSO: on a param_wins row (the body's value won), and on GDPR-USER-FORMS's
query rows (round88: the job's other objects as query parameters, test_job_form_matrix.py)."""
JOB_FORM_ALSO = ("CONV-PARAM-AS-BODY-FIELD-GDPR",)
COMMENT_4_ALSO = ("PERM-COMMENT-PRIVATE", "COMMENT-400-MESSAGE")  # round56: the 400's message in every form too


# --- helpers (sending one combination: form_sends.py) -------------------------------------------------------------

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
                          f"{where(case)}: a comment without body is refused with a 4xx, {why}", resp)


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
        form_not_taken(case, resp, "400")
        fail([case.rule], f"{case.label}: a reply to a private comment (visibility {own!r}) with visibility "
                          f"{other!r} {where(case, losing)} must be refused with 400 (\"A reply to a private "
                          f"comment with different visibility gives 400\"); {why}", resp)
    if INHERITED_MESSAGE not in (texts := body_texts(resp)):
        fail(["COMMENT-400-MESSAGE"], f"{case.label}: the 400 to a reply changing a private parent's visibility, given "
                                      f"{where(case, losing)}, must carry the message {INHERITED_MESSAGE!r}; the "
                                      f"body's strings are {texts[:10]}", resp)


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
        form_not_taken(case, resp, shown(allowed))
        fail([case.rule], f"{case.label}: recipients given while visibility is {fields['visibility']!r} (given "
                          f"{where(case, losing)}) must be refused with {shown(allowed)}; {why}", resp)


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
        form_not_taken(case, resp, "403")
        fail([case.rule], f"{case.label}: {case.writer} lacks Use Private Comments; visibility {private!r} given "
                          f"{where(case, losing)} must be refused with 403; {why}", resp)


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
        form_not_taken(case, resp, "403")
        fail([case.rule], f"{case.label}: {case.writer} holds Use Private Comments but not the option to own "
                          f"groups; visibility {lacked!r} given {where(case, losing)} must be refused with 403 "
                          f"(\"or lacks the permission for that option, gives 403\"); {why}", resp)


# --- the job rules (their requests: job_requests.py) ---------------------------------------------------------------

_JOBS = pytest.StashKey[dict[str, Any]]()
"""The job requests sent, by row: the refusal's test and the response rules judge one request per row."""


def _send_job(case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int],
              request: pytest.FixtureRequest) -> tuple[Any, ...]:
    """The row's job request, sent once per process: (response, fields, rest, losing, expected, won, guards)."""
    sent: dict[str, Any] = request.session.stash.setdefault(_JOBS, {})
    key = f"{case.rule} {case.label}"
    if key not in sent:
        who = (admin.username or "admin", user_ids.get("admin") or 1)  # an ambiguous reassignUser's two ways
        fields, rest, losing, expected, won = build_job(case, profile, who)
        guards = job_guards(case, profile, admin, user_ids.get("admin"), rest)
        resp = send(admin, contract.path("scheduleGdprJob"), "scheduleGdprJob", case.form, fields, rest, losing)
        sent[key] = (resp, fields, rest, losing, expected, won, guards)
    return tuple(sent[key])


def _judge_job(case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int],
               request: pytest.FixtureRequest) -> None:
    resp, fields, rest, losing, expected, won, guards = _send_job(case, admin, profile, user_ids, request)
    error = error_of(resp)
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
        form_not_taken(case, resp, f"400 {expected!r}")
    given = ", ".join(f"{k}={v!r}" for k, v in fields.items())
    fail([rule], f"{case.label}: a job with {given} given {where(case, losing)}, {sorted(rest)} in the JSON body: "
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


@pytest.mark.rule("GDPR-BULK-NO-TYPE")
@pytest.mark.gdpr
def test_a_job_request_without_type_is_refused_in_every_input_form(
        case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int]) -> None:
    """jobs4 (issue 44): no type, csvFileId in the row's form; beside it (stated) a user: a server that infers the
    kind from the fields it finds, on one input form only, schedules a request the description calls incorrect."""
    fields, rest = typeless_job(case, profile)
    guards = job_guards(case, profile, admin, user_ids.get("admin"), rest)
    resp = send(admin, contract.path("scheduleGdprJob"), "scheduleGdprJob", case.form, fields, rest, {},
                objects_as_text=True)  # round80 (issue 44): every reading of a type-less form is a refusal
    if resp.status == 400 and error_of(resp) in guards:
        skip(SkipKind.OTHER, f"inconclusive: {case.label}: the target reported the guard ({error_of(resp)!r}) "
                             "before the missing type ([safety] destructive = false)")
    if (why := why_not_refused(resp)) is not None:
        fail([case.rule], f"{case.label}: a job without type, csvFileId {where(case)}, {sorted(rest)} beside it: "
                          f"'Required: a bulk request without type is shown as incorrect' (a 4xx); {why}", resp)


@pytest.mark.rule("GDPR-DATE-TIMESTAMP")
@pytest.mark.gdpr
def test_a_job_dated_in_the_past_by_time_stamp_is_refused_in_every_input_form(
        case: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int]) -> None:
    """jobs4 (issue 44): "Either formatted ... or timeStamp": a bulk job on the profile's file dated a minute ago by
    timeStamp (epoch seconds: past in either reading) is refused as past whichever form type and csvFileId take. A
    refusal of the timeStamp itself (its format is not shown) is not judged; a scheduled job, a 5xx or another
    refusal did not take the timeStamp as the moment it names."""
    fields, rest, losing = timestamp_job(case, profile)
    guards = job_guards(case, profile, admin, user_ids.get("admin"), rest)
    resp = send(admin, contract.path("scheduleGdprJob"), "scheduleGdprJob", case.form, fields, rest, losing)
    error = error_of(resp)
    lowered = (error or "").lower()
    if resp.status == 400 and error == PAST_DATE:
        return
    if resp.status == 400 and error in guards:
        skip(SkipKind.OTHER, f"inconclusive: {case.label}: the target reported the guard ({error!r}) before the date")
    rule = case.rule
    if case.form == PARAM_WINS and error is not None and error.startswith(NO_USER_PREFIX):
        rule = "CONV-PARAM-AS-BODY-FIELD-GDPR"  # the body's value won: the date itself was not reached
    elif 400 <= resp.status < 500 and any(w in lowered for w in ("date", "schedule", "stamp", "time")):
        skip(SkipKind.OTHER, f"not judged: {case.label}: the target refused scheduleDate {rest['scheduleDate']} with "
                             f"{resp.status} {error!r}; the format of timeStamp is not shown")
    else:
        form_not_taken(case, resp, f"400 {PAST_DATE!r}")
    fail([rule], f"{case.label}: a bulk job with {fields} given {where(case, losing)}, dated "
                 f"{rest['scheduleDate']} (a minute ago, epoch seconds) is in the past: expected 400 {{error: "
                 f"{PAST_DATE!r}}}, got {resp.status} {error!r}", resp)


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


@pytest.mark.gdpr
def test_every_job_refusal_in_every_input_form_has_the_stated_error_body(
        job_row: Case, admin: ApiClient, profile: Profile, user_ids: dict[str, int],
        request: pytest.FixtureRequest) -> None:
    """"Errors: 400 with {error: <message>}" (GDPR-ERROR-BODY) on every row of every job refusal's array, whichever
    form the fields came in and whatever stood beside them: the refusal's own request, judged for its body."""
    resp = _send_job(job_row, admin, profile, user_ids, request)[0]
    if resp.status != 400:
        fail([job_row.rule], f"{job_row.label}: the job is refused with 400 ({job_row.rule}), got {resp.status}", resp)
    if error_of(resp) is None:
        fail(["GDPR-ERROR-BODY"], f"{job_row.label}: \"Errors: 400 with {{error: <message>}}\": the 400 carries no "
                                  f"string error: {resp.text[:200]!r}", resp)
