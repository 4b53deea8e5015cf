"""Planted faults of the data-protection job's refusals in one input form or beside one other field (issue 44,
crossing2): each breaks ONE refusal of the Errors table (a past date, an invalid operations list, reassignUser given
two ways or naming nobody), or takes an individual job's user in one stated form (by email, by id) for invalid, in
ONE cell of the job's validation dimensions: the scalar fields given as request parameters (input_form query), the
job's type given as a parameter over a body that says another (param_wins), or another stated field beside (a user
beside a bulk job's file, a csvFileId beside an individual job's user: other_fields stated). Everywhere else the
rule holds, so a suite that sends each job in the JSON form only passes. "On POST endpoints that take a body, each
body field may also be given as a request or query parameter of the same name. When both are given, the parameter
wins."

Wired in :mod:`crossing2_paths` (called by :mod:`gdpr_jobs`); part of the registry (:mod:`faults`)."""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
CROSSING2: tuple[Fault, ...] = (
    _F("crossing2-gdpr-past-date-unchecked-type-param-wins", "GDPR-PAST-DATE",
       "a job whose TYPE ALONE comes as a request parameter (the parameter winning over the body's type) is not "
       "checked for a past date and is scheduled; with every field in the JSON body, or every scalar field as a "
       "parameter, the past date gets its 400; 'The desired date is in the past and is it not eligible.'"),
    _F("crossing2-gdpr-past-date-unchecked-user-beside-bulk", "GDPR-PAST-DATE",
       "a BULK job that carries a user beside its csvFileId is not checked for a past date (the date check runs on "
       "the individual branch's copy of the request); without a user beside, the past date gets its 400"),
    _F("crossing2-gdpr-reassign-both-ways-unnoticed-fields-in-query", "GDPR-REASSIGN-AMBIGUOUS",
       "reassignUser given by username AND id is not refused as ambiguous when the job's type and csvFileId come "
       "as query parameters (the id is looked up alone and named invalid); in the JSON form it gets 'The request "
       "contains more than one reassignUser eligible configuration'"),
    _F("crossing2-gdpr-reassign-both-ways-unnoticed-user-beside-bulk", "GDPR-REASSIGN-AMBIGUOUS",
       "reassignUser given by username AND id is not refused as ambiguous on a BULK job carrying a user beside its "
       "file; without a user beside it gets 'The request contains more than one reassignUser eligible "
       "configuration'"),
    _F("crossing2-gdpr-reassign-unknown-accepted-type-param-wins", "GDPR-REASSIGN-INVALID",
       "a reassignUser that does not exist is not looked up when the job's TYPE ALONE comes as a request parameter "
       "(winning over the body's): the job is scheduled; elsewhere 'The provided 'reassignUser' is/are invalid'"),
    _F("crossing2-gdpr-reassign-unknown-accepted-fields-in-query", "GDPR-REASSIGN-INVALID",
       "a reassignUser that does not exist is not looked up when the job's type and csvFileId come as query "
       "parameters: the job is scheduled; in the JSON form 'The provided 'reassignUser' is/are invalid'"),
    _F("crossing2-gdpr-operations-unchecked-fields-in-query", "GDPR-OPERATIONS-INVALID",
       "the operations list is not checked when the job's type and csvFileId come as query parameters (an empty or "
       "unknown list is scheduled); in the JSON form 'The provided 'operations' is/are invalid'"),
    _F("crossing2-gdpr-operations-unchecked-user-beside-bulk", "GDPR-OPERATIONS-INVALID",
       "the operations list is not checked on a BULK job carrying a user beside its file (the individual branch's "
       "check is skipped for bulk, the bulk branch's for a request with a user); without a user beside, an invalid "
       "list gets its 400"),
    # an individual job's user in one stated form refused in one cell
    _F("crossing2-gdpr-user-by-id-refused-type-param", "GDPR-USER-FORMS",
       "an INDIVIDUAL job whose type comes as a request parameter is refused when its user is given by ID ('The "
       "provided 'user' is invalid': the id looked up among usernames); with type in the JSON body, or the user by "
       "email, the user is taken; 'Exactly one of username, email, id.'"),
    _F("crossing2-gdpr-user-by-email-refused-csv-beside", "GDPR-USER-FORMS",
       "an INDIVIDUAL job carrying a csvFileId beside its user is refused when the user is given by EMAIL (the email "
       "looked up in the file's columns); without a csvFileId beside, or the user by id, the user is taken"),
)
"""The job refusals broken in one cell of input form or other fields (crossing2): caught by
suites/contract/test_input_form_matrix.py, which crosses those refusals with both dimensions."""
