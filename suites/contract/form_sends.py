"""Sending one combination of the input form matrices (test_input_form_matrix.py: the refusals; test_job_form_matrix.py:
a job's stated forms taken), and saying how its fields travelled: one place for both (round80 and closea, issue 44,
split out of test_input_form_matrix.py when it reached the module limit).

The fields a rule is about are scalars and travel in the row's form; ``rest`` (arrays and objects, which have no
parameter form shown) travels in the JSON body. One refusal takes a form-encoded body all the same
(``objects_as_text``): a job request without type (GDPR-BULK-NO-TYPE), whose every reading is a refusal. Its
objects go as JSON text in the form: a server that cannot read them refuses, one that can finds no type and refuses;
only a server that infers the type from the form's fields schedules it (round80-gdpr-no-type-form-csv-bulk: a form
binder that defaults type to bulk when a file id is posted).
"""

from __future__ import annotations

import json
from typing import Any

from input_forms import FORM, JSON, PARAM_WINS, QUERY, Case

from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.pytest.refusals import off_the_interface
from qaconform.target.client import ApiClient, ApiResponse

FORM_TYPE = "application/x-www-form-urlencoded"


def send(client: ApiClient, path: str, op: str, form: str, fields: dict[str, Any], rest: dict[str, Any],
         losing: dict[str, Any], *, objects_as_text: bool = False) -> ApiResponse:
    """POST ``fields`` (scalars) in ``form``; ``rest`` (arrays and objects, which have no parameter form shown)
    always in a JSON body, or with ``objects_as_text`` as JSON text beside ``fields`` in a form-encoded body; under
    param_wins the keys of ``losing`` go as query parameters with ``fields``' values and in the JSON body with
    ``losing``'s."""
    if form == JSON:
        return client.post(path, json={**rest, **fields}, operation=op)
    if form == QUERY:
        return client.post(path, params=fields, json=rest or None, operation=op)
    if form == FORM:
        assert objects_as_text or not rest, "a form-encoded request carries no arrays or objects (input_forms.ALLOWED)"
        text = {k: json.dumps(v) for k, v in rest.items()}
        if not fields and not text:
            return client.post(path, data=b"", headers={"Content-Type": FORM_TYPE}, operation=op)
        return client.post(path, data={**text, **{k: str(v) for k, v in fields.items()}}, operation=op)
    assert form == PARAM_WINS and losing
    return client.post(path, params={k: fields[k] for k in losing}, json={**rest, **fields, **losing}, operation=op)


def where(case: Case, losing: dict[str, Any] | None = None) -> str:
    """How the fields travelled, for a failure message."""
    if case.form == PARAM_WINS:
        said = f" (the body says {losing})" if losing else ""
        return f"in the JSON body, {sorted(losing or ['visibility'])} also as query parameters, which win{said}"
    return {JSON: "in the JSON body", QUERY: "as query parameters", FORM: "as form-encoded request parameters"}[
        case.form]


def form_not_taken(case: Case, resp: ApiResponse, expected: str) -> None:
    """A parameter form answered with another refusal than the stated one: the target may not take the fields in
    that form at all (a 415, or the fields not seen), which is CONV-PARAM-AS-BODY-FIELD's (-GDPR's) to judge
    (test_stated_forms.py, test_request_conventions.py), never this rule's: not judged, said so. A 2xx or a 5xx is
    judged: the target took the request, or failed on it."""
    if case.form in (QUERY, FORM) and 400 <= resp.status < 500 and not off_the_interface(resp):
        conv = "CONV-PARAM-AS-BODY-FIELD-GDPR" if case.op == "scheduleGdprJob" else "CONV-PARAM-AS-BODY-FIELD"
        skip(SkipKind.OTHER, f"not judged: {case.label} was refused with {resp.status} {resp.text[:120]!r}, not "
                             f"{expected}; whether the target takes the fields {where(case)} is {conv}'s to judge")
