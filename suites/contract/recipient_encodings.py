"""recipients (an array of objects) as request parameters: the encoding the target shows it reads, then the same
encoding in every other parameter form (forms25, issue 44). Pure: no request (test_request_conventions.py sends them).

"On POST endpoints that take a body, each body field may also be given as a request or query parameter of the same
name. When both are given, the parameter wins." The description shows no parameter encoding of an array of objects,
so the kit asserts none: it LEARNS one. member's private comment of test_request_conventions.py (a write the run
makes anyway) goes form-encoded, every field a request parameter, its recipients in each encoding of
:data:`ENCODINGS` in turn until the target takes one (each 4xx before it is a refusal: no accepted write); a target
that takes none gets the comment as before (visibility a parameter, recipients in the JSON body) and is not judged
here (said so). The encoding it took must then be read the same wherever the description says a body field may be
a parameter (:data:`ROWS`): in the query string alone, as a query parameter beside a JSON body, and beside a
form-encoded body, on an answer and on a question. Each row is a refusal the description states (comment rule 6:
"recipients given while visibility is not recipients gives 400"), so a target that reads the parameter costs no
write; one that drops it creates a comment without recipients (CONV-PARAM-AS-BODY-FIELD), one that reads it and
takes the comment breaks rule 6 (COMMENT-6): a failure names both, the created comment registered as the run's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

ENCODINGS = ("json_text", "id_list", "indexed")
"""The encodings tried, in order: JSON text (``[{"id": 7}]``, the one test_gdpr_param_fields.py takes for a job's
arrays), a comma-separated id list (``7,8``), indexed keys (``recipients[0].id=7``)."""

ROWS = ("query", "beside_json", "beside_form")
"""Where the learned encoding is judged: every field a query parameter (no body); body and visibility in a JSON body,
recipients a query parameter; body and visibility in a form-encoded body, recipients a query parameter."""

PARENTS = ("answer", "question")
"""The parent kinds each row is sent under: the run's shared answer and the profile's fixture question."""


def encoded(encoding: str, ids: Sequence[int]) -> list[tuple[str, str]]:
    """The parameter pairs that give ``ids`` as recipients in ``encoding``."""
    if encoding == "json_text":
        return [("recipients", json.dumps([{"id": i} for i in ids]))]
    if encoding == "id_list":
        return [("recipients", ",".join(str(i) for i in ids))]
    assert encoding == "indexed", f"unknown recipients encoding {encoding!r}"
    return [(f"recipients[{n}].id", str(i)) for n, i in enumerate(ids)]


def described(encoding: str) -> str:
    """How ``encoding`` reads in a message."""
    return {"json_text": "JSON text ([{\"id\": N}])", "id_list": "a comma-separated id list (N,M)",
            "indexed": "indexed keys (recipients[0].id=N)"}[encoding]
