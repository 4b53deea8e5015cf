"""Planted faults of the data-protection job's stated forms in one input form or beside one other field (issue 44,
crossing3): each takes ONE stated form of a job field for invalid in ONE cell of the job's validation dimensions, so
a job that is otherwise refused only for its past date gets another refusal: a reassignUser naming an existing user
by username or by id ("Identifies the user to whom content is reassigned, by exactly one of username or id":
GDPR-REASSIGN-FORMS), or an operations list of more than one stated name ("At least one and at most 4 elements,
from suspend, anonymize, delete, anon-delete": GDPR-OPERATIONS-RANGE). The cells: the job's scalar fields given as
request parameters (input_form query), its type given as a parameter over a body that says another (param_wins),
a user beside a bulk job's file (other_fields stated). Everywhere else the form is taken, so a suite that sends
each form in the JSON body only, and alone, passes. "On POST endpoints that take a body, each body field may also
be given as a request or query parameter of the same name. When both are given, the parameter wins."

Wired in :mod:`crossing3_paths` (called by :mod:`gdpr_jobs`); part of the registry (:mod:`faults`)."""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
CROSSING3: tuple[Fault, ...] = (
    _F("crossing3-gdpr-reassign-by-id-refused-fields-in-query", "GDPR-REASSIGN-FORMS",
       "a reassignUser naming an existing user by ID is refused ('The provided 'reassignUser' is/are invalid') when "
       "the job's type and csvFileId come as query parameters; in the JSON form, or by username, it is taken"),
    _F("crossing3-gdpr-reassign-by-username-refused-user-beside", "GDPR-REASSIGN-FORMS",
       "a reassignUser naming an existing user by USERNAME is refused on a BULK job carrying a user beside its file "
       "(the username looked up among the file's rows); without a user beside, or by id, it is taken"),
    _F("crossing3-gdpr-reassign-by-id-refused-type-param-wins", "GDPR-REASSIGN-FORMS",
       "a reassignUser naming an existing user by ID is refused when the job's TYPE ALONE comes as a request "
       "parameter (winning over the body's type); with type in the JSON body, or by username, it is taken"),
    _F("crossing3-gdpr-operations-several-refused-fields-in-query", "GDPR-OPERATIONS-RANGE",
       "an operations list of MORE THAN ONE stated name is refused as invalid when the job's type and csvFileId come "
       "as query parameters (the list read as one comma-joined name); one name alone, or the JSON form, is taken"),
    _F("crossing3-gdpr-operations-several-refused-user-beside", "GDPR-OPERATIONS-RANGE",
       "an operations list of MORE THAN ONE stated name is refused as invalid on a BULK job carrying a user beside "
       "its file (the individual branch's one-operation limit applied); without a user beside it is taken"),
    _F("crossing3-gdpr-operations-several-refused-type-param-wins", "GDPR-OPERATIONS-RANGE",
       "an operations list of MORE THAN ONE stated name is refused as invalid when the job's TYPE ALONE comes as a "
       "request parameter (winning over the body's); with type in the JSON body it is taken"),
)
"""The job's stated forms refused in one cell of input form or other fields (crossing3): caught by
suites/contract/test_input_form_matrix.py, which crosses GDPR-REASSIGN-FORMS and GDPR-OPERATIONS-RANGE with both
dimensions."""
