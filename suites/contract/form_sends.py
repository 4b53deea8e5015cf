"""How test_input_form_matrix.py sends one row's request in its input form, and how a failure message says so (moved
out of that module, at its line limit, by round80, issue 44).

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
