"""Where the faults of :mod:`faults_crossing3` bite (issue 44, crossing3): which stated form of a data-protection
job's field (gdpr_jobs._schedule) a fault refuses for one request, by the cell of input form or other fields the
request stands in. Nothing is refused while no such fault is on."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from . import faults
from .bodies import structured
from .crossing2_paths import cells
from .errors import bad_request

REASSIGN_BY_ID, REASSIGN_BY_USERNAME, SEVERAL_OPERATIONS = "reassign_by_id", "reassign_by_username", "operations"
"""The stated forms a fault refuses: a reassignUser by id, by username, an operations list of more than one name."""

_REFUSES: dict[str, tuple[str, str]] = {
    "crossing3-gdpr-reassign-by-id-refused-fields-in-query": ("fields_in_query", REASSIGN_BY_ID),
    "crossing3-gdpr-reassign-by-username-refused-user-beside": ("user_beside", REASSIGN_BY_USERNAME),
    "crossing3-gdpr-reassign-by-id-refused-type-param-wins": ("type_param", REASSIGN_BY_ID),
    "crossing3-gdpr-operations-several-refused-fields-in-query": ("fields_in_query", SEVERAL_OPERATIONS),
    "crossing3-gdpr-operations-several-refused-user-beside": ("user_beside", SEVERAL_OPERATIONS),
    "crossing3-gdpr-operations-several-refused-type-param-wins": ("type_param", SEVERAL_OPERATIONS),
}
"""fault -> (the cell it bites in, the form it refuses there)."""


def refused_forms(query: Iterable[str], fields: Mapping[str, Any]) -> frozenset[str]:
    """The stated forms a fault of this module refuses for this request (none when none is on)."""
    on = [(cell, form) for name, (cell, form) in _REFUSES.items() if faults.is_on(name)]
    if not on:
        return frozenset()
    found = cells(query, fields)  # jobs4 (issue 44): crossing2's cells, a superset of the three named here
    return frozenset(form for cell, form in on if cell in found)


def check_operations(fields: Mapping[str, Any], refused: frozenset[str]) -> None:
    """A list of more than one operation refused as invalid where a fault says so."""
    operations = structured(dict(fields), "operations")
    if SEVERAL_OPERATIONS in refused and isinstance(operations, list) and len(operations) > 1:
        raise bad_request("The provided 'operations' is/are invalid")


def reassign_refused(reassign: Any, refused: frozenset[str]) -> bool:
    """A reassignUser by id alone or by username alone refused where a fault says so."""
    if not isinstance(reassign, dict) or not refused:
        return False
    keys = {k for k, v in reassign.items() if v not in (None, "")}
    return (keys == {"id"} and REASSIGN_BY_ID in refused) or (keys == {"username"} and REASSIGN_BY_USERNAME in refused)
