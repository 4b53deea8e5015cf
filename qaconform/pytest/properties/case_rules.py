"""What the description says of one generated request, apart from its schema: whether it uses a value the
description leaves open (then a 4xx is no refusal of valid data), whether the description requires refusing it,
and how a generated data-protection job is made harmless before it is sent.

Apart from :mod:`qaconform.pytest.properties.oas` because these are the description's rules for a case, read by
the sender and tested on their own (tests/properties/test_schemathesis_checks.py); ``oas`` re-exports them.
"""

from __future__ import annotations

from typing import Any

from qaconform.pytest.schemathesis_checks import int_value
from qaconform.target.profile import Profile

GDPR_OPERATIONS = {"suspend", "anonymize", "delete", "anon-delete"}

OPEN_VALUE_PARAMS = frozenset({"q", "type", "lang", "topics", "unanswered", "wrap", "v1"})
"""'Meaning and value format of q, type, lang, topics and unanswered: not shown'; 'Values and effect of wrap and v1:
not shown'."""
FALLBACK_SORT_OPERATIONS = frozenset({"listSpaces", "listTopics", "listGroups", "listActiveExperts",
                                      "listEarnedExperts"})
"""Lists whose sort values the description settles (fall back to the default, or the six expert sorts)."""


def leaves_open(operation_id: str, case: Any) -> bool:
    """Whether a schema-valid request uses a value the description does not say is accepted: then a 4xx is no
    refusal of valid data (positive_data_acceptance) and its status no undocumented one (status_code_conformance).

    'Accepted sort values for lists other than the expert lists: not shown'; the format of q, type, lang, topics,
    unanswered, wrap and v1 is not shown; pages are numbered from 1 (page 0 only on the follower list).
    """
    query = case.query if isinstance(case.query, dict) else {}
    if OPEN_VALUE_PARAMS & set(query):
        return True
    if "sort" in query and operation_id not in FALLBACK_SORT_OPERATIONS:
        return True
    for name in ("page", "pageSize"):
        value = query.get(name)
        if isinstance(value, int) and value < 1:
            return True
    return False


def must_reject(operation_id: str, case: Any) -> bool:
    """Whether the description requires refusing this (schema-violating) request.

    Accepting data outside the schema is not forbidden in general (a lenient server conforms: an invalid expert
    sort, for one, is an observed rule), so negative_data_rejection applies only where the description lists the
    refusal: a comment without body (COMMENT-BODY-REQUIRED), a job outside the Errors table's conditions, a user
    content query with a user id that is no id (GDPR-CONTENT-422).

    A comment whose body is there but of another type (``{"body": false}``, a number, null) is not "without body":
    the description states the field's type but no refusal of another one, so accepting it is an observation, never
    a failure of COMMENT-BODY-REQUIRED (issue 46: a server that took ``false`` as the text was blamed for it).
    """
    body = case.body if isinstance(case.body, dict) else None
    query = case.query if isinstance(case.query, dict) else {}
    if operation_id == "postComment":
        if case.body is not None and body is None:
            return False  # a JSON value that is no object: which field it stands for is not stated
        return "body" not in (body or {}) and "body" not in query
    if operation_id == "scheduleGdprJob":
        if body is None:
            return True
        ops = body.get("operations")
        kind = body.get("type")
        return (kind not in ("bulk", "individual") or not isinstance(ops, list) or not 1 <= len(ops) <= 4
                or any(not isinstance(o, str) or o not in GDPR_OPERATIONS for o in ops)
                or (kind == "individual" and not isinstance(body.get("user"), dict))
                or (kind == "bulk" and "csvFileId" not in body))
    if operation_id == "listUserContent":
        return int_value((case.path_parameters or {}).get("userId")) is None
    return False


def constrain_gdpr_job(body: dict[str, Any], profile: Profile) -> None:
    """A generated job may only ever name the profile's gdpr_user (or nobody), and is always dated in the past.

    A successful job cannot be undone, and a run schedules at most three on purpose, all in
    suites/scenarios/test_gdpr_jobs.py: a conforming server refuses every generated job (the past-date row of the
    Errors table), and a broken one that schedules it anyway acts only on gdpr_user (with [safety] destructive, as
    an individual job, content reassigned to admin, never a CSV) or on nobody.
    """
    safety = profile.safety
    if "user" in body:
        body["user"] = safety.user_spec() if safety.gdpr_user else {"username": "qaconform-nobody"}
    if "csvFileId" in body:
        body["csvFileId"] = -1
    if safety.destructive and safety.gdpr_user:
        body.pop("csvFileId", None)
        body["type"] = "individual"
        body["user"] = safety.user_spec()
        if "reassignUser" in body:
            body["reassignUser"] = {"username": profile.accounts["admin"].username}
    for key in ("scheduleDate", "scheduleTime"):
        body.pop(key, None)
    body["scheduleDate"] = {"formatted": "01/01/2001 00:00"}
