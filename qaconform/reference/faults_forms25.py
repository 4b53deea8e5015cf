"""Planted faults of the kind forms25 closes (issue 44: recipients, an array of objects, given as a request or query
parameter or in a form-encoded body). The run sent a private comment's recipients in its JSON body alone, so a server
that reads them in one parameter form and drops them in another was never met. Each quotes the sentence it breaks,
was measured missed on the base (``qaconform selftest --fault NAME --no-clean --jobs 1``) and is caught after the
recipients' encoding is learned from a write the run makes anyway and judged in every other parameter form
(suites/contract/recipient_encodings.py). Part of the registry (fault_list18.py); wired through :mod:`forms25_hooks`.
"""

from __future__ import annotations

from .fault_model import Fault

FORMS25: tuple[Fault, ...] = (
    Fault("forms25-recipients-param-beside-form-body-dropped", "CONV-PARAM-AS-BODY-FIELD",
          "'each body field may also be given as a request or query parameter of the same name': a comment whose "
          "FORM-ENCODED body holds body and visibility but whose recipients come as a query parameter is handled "
          "without them (the form binder, once it has a body, reads the query for scalars only); recipients in the "
          "form, in the JSON body, or every field in the query count"),
    Fault("forms25-question-comment-query-recipients-ignored", "CONV-PARAM-AS-BODY-FIELD",
          "'each body field may also be given as a request or query parameter of the same name': a comment on a "
          "QUESTION sent without a body, every field a query parameter, is handled without its recipients (the "
          "question's comment binder takes arrays from a body only); on answers and comments, and with a body, "
          "they count"),
    Fault("forms25-form-recipients-stored-public", "COMMENT-2",
          "'When visibility is recipients and recipients lists ids, the comment is private to those recipients and "
          "a GET returns the given settings.': a comment sent as a FORM-ENCODED body with visibility recipients and "
          "its recipients in the form is stored with full visibility and no recipients (the form binder falls back "
          "to the default privacy pair when it meets an array field); JSON bodies and query parameters keep them"),
)
