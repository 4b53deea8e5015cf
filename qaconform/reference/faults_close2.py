"""Planted faults of the kinds close2 closes (issue 44: a stated form, a carrier or a relation the run's shared writes
and reads meet on some paths only). A reply private to recipients named by STRING ids under a public comment that is
itself a reply (the run's shared private reply names moderator in the form the seed draws: seed_draws
``PUBLIC_REPLY_RECIPIENT_FORMS``); a job's type as a parameter beside a form-encoded body (suites/scenarios/
test_gdpr_param_fields.py sends each scalar field so); a user's question list on another sort joining the user's
favorites (suites/contract/owner_rows.py reads the holders' lists under every seen sort). Each quotes the sentence it
breaks, was missed before (``qaconform selftest --fault NAME --no-clean --jobs 1`` without the suites' change) and is
caught after. Part of the registry (fault_list18.py); wired through :mod:`close2_paths` (one entry of
request_hooks.HOOKS).
"""

from __future__ import annotations

from .fault_model import Fault

CLOSE2: tuple[Fault, ...] = (
    Fault("close2-kind-deep-reply-string-recipients-dropped", "COMMENT-5",
          "'A reply to a public comment may set its own visibility and recipients: 201.': a reply whose PUBLIC parent "
          "is itself a reply (depth 3) with recipients named by string ids ('Each item has id (integer or string)') "
          "is stored with full visibility and no recipients (the thread validator resolves integer ids only below "
          "depth 2); integer ids, and replies to top-level comments, as before",
          draws=("public reply recipient form=string", "private reply parent=a public reply")),
    Fault("close2-kind-gdpr-form-body-type-param-ignored", "CONV-PARAM-AS-BODY-FIELD-GDPR",
          "'each body field may also be given as a request or query parameter of the same name.': a job sent as a "
          "FORM-ENCODED body whose type comes as a query parameter (not in the form) is refused 400 'The individual "
          "type was selected, but the request is missing the user field.' (the form binder reads type from the form "
          "only and defaults it to individual); in a JSON body, or all as parameters, it counts"),
    Fault("close2-kind-user-questions-hottest-sort-adds-favorited", "LIST-USER-QUESTIONS-OWNER",
          "'List questions posted by a user': a user's question list sorted by hottest also lists the questions that "
          "user marked FAVORITE (the hot-questions query joins the favorites table on the holder), appended after "
          "the user's own; other sorts list the user's questions only"),
)
