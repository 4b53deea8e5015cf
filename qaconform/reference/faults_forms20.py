"""Planted faults of the kind forms20 closes (issue 44 item 3): a stated input form of an accepted write taken wrong
on one option only, where the run's one shared write of that option always went in another form (blind round 54:
round54-comment-form-charset-privacy-dropped, left out because the shared comments with a private option that needs
no recipients were JSON only). Each quotes the sentence it breaks and was missed by the suites before forms20
(``qaconform selftest --fault NAME --no-clean --jobs 1`` at base 0ebe0f7) and caught after, at the seed its
``draws`` name. Part of the registry (fault_list.py); wired through :mod:`forms20_paths` (one entry of
request_hooks.HOOKS).
"""

from __future__ import annotations

from .fault_model import Fault

FORMS20: tuple[Fault, ...] = (
    Fault("forms20-comment-form-moderators-stored-public", "CONV-PARAM-AS-BODY-FIELD",
          "\"each body field may also be given as a request or query parameter of the same name\": a comment sent "
          "as a form-encoded body with visibility to moderators is stored at full visibility (the form reader drops "
          "that option); the JSON body, query parameters and the other options form-encoded are read",
          draws=("option comment form=form",)),
    Fault("forms20-answer-form-option-body-dropped", "CONV-PARAM-AS-BODY-FIELD",
          "\"each body field may also be given as a request or query parameter of the same name\": an answer sent "
          "as a form-encoded body while a stated option (wrap) comes as a query parameter is read from its query "
          "alone, so its form-encoded body is dropped (refused 400 for want of a body); a form-encoded answer without "
          "an option, and an option beside a JSON body or query parameters, are read",
          draws=("options answer writer=moderator",)),
)
