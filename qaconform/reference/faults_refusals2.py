"""Planted faults of stated refusals judged by their stated answer, and of ids at their edges (issue 44,
refusals2). Each answers ONE refusal, on ONE path (one id edge of one operation, one form, one caller), with a 5xx
or with a redirect off the interface (a 302 to a login page, which the kit's client follows to that page's own 4xx).
Every one passed the suites that took "any 4xx" (or no answer at all) for a refusal; the suites now judge them
through qaconform/pytest/refusals.py and suites/contract/test_id_edges.py. Wired in :mod:`refusals2_paths`; part of
the registry (:mod:`faults`).

The edges are those of spec/dimensions.yaml ``id_edge`` (zero, negative, unknown, not_a_number, too_large).
Where the Errors table states no answer for an id that names nothing, the rule broken is "never a 5xx"
(CONV-NO-SERVER-ERROR: a client's bad id is a client matter)."""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
REFUSALS2: tuple[Fault, ...] = (
    # --- one id edge of one path answered with a 500 (the Errors table states no status there: never a 5xx)
    _F("refusals2-comment-node-zero-500", "CONV-NO-SERVER-ERROR",
       "a comment posted to node 0 fails with 500 (an id check written as 'if not node_id' falls through to a "
       "lookup of None); other ids that name nothing get a 4xx"),
    _F("refusals2-answer-question-negative-500", "CONV-NO-SERVER-ERROR",
       "an answer posted to a NEGATIVE question id fails with 500; zero, unknown and non-numeric ids get a 4xx"),
    _F("refusals2-lock-node-not-a-number-500", "CONV-NO-SERVER-ERROR",
       "a lock of a node id that is NOT A NUMBER fails with 500 (the id parsed after the route matched); numeric "
       "ids that name nothing get a 4xx"),
    _F("refusals2-user-questions-too-large-500", "CONV-NO-SERVER-ERROR",
       "a user's question list asked with a user id TOO LARGE for a 64-bit integer fails with 500 (an overflow); "
       "the user's answer list and smaller ids get a 4xx"),
    _F("refusals2-followers-node-negative-500", "CONV-NO-SERVER-ERROR",
       "the follower list of a NEGATIVE node id fails with 500; other ids that name nothing get a 4xx"),
    _F("refusals2-answer-comments-zero-500", "CONV-NO-SERVER-ERROR",
       "the comment list of answer 0 fails with 500; other answer ids that name nothing get a 4xx"),
    # --- one id edge of one body field
    _F("refusals2-comment-recipient-not-a-number-500", "CONV-NO-SERVER-ERROR",
       "a comment private to recipients whose recipient id is NOT A NUMBER fails with 500 (int() of the id "
       "uncaught); unknown, zero and negative recipient ids are refused with a 4xx"),
    _F("refusals2-gdpr-user-id-negative-500", "CONV-NO-SERVER-ERROR",
       "an individual job whose user is given by a NEGATIVE id fails with 500; the user's other edges are refused "
       "with a 4xx"),
    # --- a stated refusal answered by a redirect off the interface, on one form
    _F("refusals2-comment-without-body-redirected", "COMMENT-BODY-REQUIRED",
       "a comment request to a QUESTION that gives no body field at all (in no form) is answered with 302 to "
       "/users/login.html instead of the service's own refusal ('body (string, the comment text, required)'); "
       "to answers and comments, and with an empty body, it gets the 400"),
    _F("refusals2-gdpr-no-type-redirected", "GDPR-BULK-NO-TYPE",
       "a job request without type is answered with 302 to /users/login.html instead of the service's own "
       "refusal ('Required: a bulk request without type is shown as incorrect')"),
    # --- a wrong password in one form answered by a redirect off the interface on one operation
    _F("refusals2-comment-colon-added-password-redirected", "AUTH-BAD-CREDENTIALS",
       "a comment posted with the right password and a ':<more>' part added (a wrong password) is answered with "
       "302 to /users/login.html instead of the service's own refusal; other wrong passwords, and the lists, get "
       "the 401 ('Requests are authenticated with HTTP Basic authentication (username and password ...)')"),
    _F("refusals2-wrong-password-comment-on-moderated-answer-redirected", "AUTH-BAD-CREDENTIALS",
       "a comment posted with a wrong password to an answer IN MODERATION is answered with 302 to "
       "/users/login.html (the moderation filter runs before the service's own 401); on published nodes, and for "
       "anonymous callers, it gets the service's refusal"),
    # --- a permission refusal answered by a redirect off the interface on nodes in one state
    _F("refusals2-wrong-password-unwikify-of-wiki-node-redirected", "PERM-CANCELWIKI",
       "an unwikify with a WRONG PASSWORD of a node that IS WIKI is answered with 302 to /users/login.html instead "
       "of the service's 401; on nodes that are not wiki, and for anonymous callers, it gets the 401 ('Every "
       "operation requires the permissions below': 11 Unwikify | Mark as community wiki)"),
)
"""The stated refusals and id edges of refusals2, each on one path."""
