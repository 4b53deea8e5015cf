"""Where the faults of :mod:`faults_crossing2` bite (issue 44, crossing2): which checks of the data-protection job's
handler (gdpr_jobs._schedule) a fault switches off for one request, by the cell of input form or other fields the
request stands in. Nothing is switched off while no such fault is on."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from . import faults

PAST, OPERATIONS, REASSIGN_BOTH, REASSIGN_LOOKUP = "past", "operations", "reassign_both", "reassign_lookup"
"""The checks of gdpr_jobs._schedule a fault can skip."""
USER_BY_ID, USER_BY_EMAIL = "user_by_id_refused", "user_by_email_refused"
"""What a fault breaks in gdpr_jobs._check_user: an individual job's user in that form refused."""

_SKIPS: dict[str, tuple[str, str]] = {
    "crossing2-gdpr-past-date-unchecked-type-param-wins": ("type_param", PAST),
    "crossing2-gdpr-past-date-unchecked-user-beside-bulk": ("user_beside", PAST),
    "crossing2-gdpr-reassign-both-ways-unnoticed-fields-in-query": ("fields_in_query", REASSIGN_BOTH),
    "crossing2-gdpr-reassign-both-ways-unnoticed-user-beside-bulk": ("user_beside", REASSIGN_BOTH),
    "crossing2-gdpr-reassign-unknown-accepted-type-param-wins": ("type_param", REASSIGN_LOOKUP),
    "crossing2-gdpr-reassign-unknown-accepted-fields-in-query": ("fields_in_query", REASSIGN_LOOKUP),
    "crossing2-gdpr-operations-unchecked-fields-in-query": ("fields_in_query", OPERATIONS),
    "crossing2-gdpr-operations-unchecked-user-beside-bulk": ("user_beside", OPERATIONS),
    "crossing2-gdpr-user-by-id-refused-type-param": ("individual_type_param", USER_BY_ID),
    "crossing2-gdpr-user-by-email-refused-csv-beside": ("csv_beside_individual", USER_BY_EMAIL),
}
"""fault -> (the cell it bites in, the check it skips there)."""


def cells(query: Iterable[str], fields: Mapping[str, Any]) -> set[str]:
    """The cells a job request stands in: ``type_param`` (type, not csvFileId, a request parameter: the matrix's
    param_wins rows), ``fields_in_query`` (type and csvFileId both parameters: its query rows), ``user_beside`` (a
    bulk job with a user: its other_fields stated rows), ``individual_type_param`` (an individual job whose type is a
    request parameter), ``csv_beside_individual`` (an individual job with a csvFileId)."""
    keys = set(query)
    out = set()
    if "type" in keys and "csvFileId" not in keys:
        out.add("type_param")
    if {"type", "csvFileId"} <= keys:
        out.add("fields_in_query")
    if fields.get("type") == "bulk" and fields.get("user") not in (None, ""):
        out.add("user_beside")
    if fields.get("type") == "individual" and "type" in keys:
        out.add("individual_type_param")
    if fields.get("type") == "individual" and fields.get("csvFileId") not in (None, ""):
        out.add("csv_beside_individual")
    return out


def skipped_checks(query: Iterable[str], fields: Mapping[str, Any]) -> frozenset[str]:
    """The checks of the job handler a fault of this module switches off for this request (none when none is on)."""
    on = [(cell, check) for name, (cell, check) in _SKIPS.items() if faults.is_on(name)]
    if not on:
        return frozenset()
    found = cells(query, fields)
    return frozenset(check for cell, check in on if cell in found)
