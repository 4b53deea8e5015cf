"""Blind round 36 (issue 44): fifteen faults written from the interface description alone, each breaking one stated
rule on one path: one on each of the eight must-rules drawn for the round (seed 20261206), and seven on rules of the
writer's choice, one of each kind outside rounds catch us on. Where they bite: :mod:`blind_round36` (its hooks in
request_hooks.HOOKS) and one line of actions.lock. Measured on the day's suites: :data:`BLIND_round36` were caught,
:data:`BLIND_round36_MISSED` were missed and stay planted for the integrator's measure on the session's final suites.
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_F = Fault

_ALL: tuple[Fault, ...] = (
    # --- the eight drawn must-rules
    _F("round36-lock-novice-answer-denied-200", "PERM-DENIED-STATUS",
       "'Every operation requires the permissions below.': novice's refused lock of an ANSWER is answered 200 "
       "{success: false, result: {}} (the answer branch's catch-all turns the refusal into a failed action); on "
       "questions and comments, and for every other caller, the refusal stays a 4xx"),
    _F("round36-user-questions-marked-string", "SHAPE-LIST-USER-QUESTIONS",
       "'Response: 200, paged list of question Nodes.': on a user's question list a question that has an accepted "
       "answer carries marked as the string \"true\" (the user list's serializer copies the index's text column); "
       "unmarked questions, and the question list, are right"),
    _F("round36-comment-location-private-missing", "COMMENT-201-LOCATION",
       "'The Location response header holds the URL of the new comment.': a comment created private (visibility "
       "other than full, given or inherited) gets its 201 without Location (the private branch builds its own "
       "response); full-visibility comments carry it"),
    _F("round36-issuetypes-refetch-203", "SHAPE-LIST-ISSUE-TYPES",
       "'Response: 200, a JSON array of objects with name (string).': a read of the issue types within 3 s of an "
       "earlier one is served from the tracker client's cache with status 203 (Non-Authoritative Information); the "
       "first read, and any read after a pause, is a 200"),
    _F("round36-earned-experts-unknown-user-404", "EXPERTS-401",
       "'| 401 | Expert lists | Missing or bad credentials |': on the earned expert list, credentials naming a "
       "username the site does not know are answered 404 {error: user not found} (the lookup's miss leaks out); a "
       "wrong password of a known account, missing credentials and the active expert list stay 401"),
    _F("round36-active-experts-novice-page2-403", "PERM-EXPERTS",
       "'| 5, 6 Experts | USE API role and View User's Profile (Anonymous Roles). |': novice is refused 403 on the "
       "active expert list from page 2 on (browsing past the first page asks for Publish answer, a reputation "
       "gate); page 1, the earned list and every other account are served"),
    _F("round36-issuetypes-localized-name-non-admin", "ISSUETYPES-ARRAY",
       "'Object with name (string).': to a caller who is not an administrator the issue types come from the "
       "tracker's user-facing endpoint, each name an object {value: <name>}; administrators get strings"),
    _F("round36-cancelwiki-moderator-refused-other-space", "PERM-CANCELWIKI",
       "'| 11 Unwikify | Mark as community wiki; ...': Mark as community wiki is read from the site's default space "
       "only, so the moderator is refused 403 on wiki nodes of any other space; in the default space, and for "
       "administrators and authors, unwikify works"),
    # --- a permission decided differently once an optional parameter is given
    _F("round36-user-questions-novice-include-403", "PERM-USER-QUESTIONS",
       "'| 15 User's questions | View the questions list (Anonymous Roles). |': novice is refused 403 on a user's "
       "question list once include is given (the include branch checks a staff permission); with includeOnly, "
       "exclude or no projection it is served"),
    # --- ownership decided on the wrong relation
    _F("round36-lock-own-from-child-author", "PERM-LOCK-OWN",
       "'| 13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts': a caller with "
       "Lock comments on own posts may lock any node under which it wrote a direct child (an answer to the "
       "question, a comment on the node): 'own' read from the thread it took part in"),
    # --- a write's input form on a rarely tried operation
    _F("round36-answer-form-nonascii-latin1", "TEXT-NON-ASCII",
       "'body (string, the answer text)': an answer whose body comes form-encoded (application/x-www-form-urlencoded) "
       "has its percent-escapes decoded as Latin-1, so non-ASCII text reads back mangled (é as Ã©); a JSON body and "
       "a query parameter keep it, and comments are right in every form"),
    # --- a stated effect checked on some node kinds only
    _F("round36-lock-answer-actiondate-iso-t", "SHAPE-ACTIONDATE",
       "'Either YYYY-MM-DD HH:MM:SS.S or a textual form like weekday month day time zone year.': the lock record of "
       "an ANSWER carries actionDate in ISO form with a T (2026-11-30T18:00:00.0); the lock of a question or a "
       "comment, and every other action, is right"),
    # --- a parameter echoed without its effect
    _F("round36-answer-comments-sorted-pagesize-echo-only", "PAGING-LISTCOUNT",
       "'| listCount | integer | Number of items in this page. |', '| pageSize | integer | Items per page. |': an "
       "answer's comment list asked with sort AND pageSize echoes the pageSize but serves a page of the default "
       "size (the sorted query takes its own limit); pageSize alone is obeyed"),
    # --- a history: a privacy rule after a later write under the node
    _F("round36-private-comment-listed-once-replied", "COMMENT-PRIVACY-LIST",
       "'the comment is private to those recipients': once a reply has been posted under a private comment, the "
       "private comment shows in its answer's comment list to every caller (the thread is listed from its newest "
       "reply up); before the reply, and private comments whose replies were there from the start, are hidden"),
    # --- read order and caches: a list kept after a write
    _F("round36-user-answers-kept-after-read", "ANSWER-PUBLISHED",
       "'Caller has Answer questions and Publish answer | Published': a user's answer list is kept for 5 s per URL "
       "and caller after it was read, and posting an answer does not drop it, so an answer posted right after a "
       "read of its author's list is missing from the next read; a list read for the first time is right"),
)

_MISSED_REASONS: dict[str, str] = {}
"""Missed on the day's suites (measured with ``qaconform selftest --fault NAME --no-clean``), by name, with why: none.
All fifteen were caught blind on ``b6a3f37`` (docs/blind-rounds.md), so every one is registered."""

# BLIND_round36: Caught on the day's suites.
# BLIND_round36_MISSED: Missed on the day's suites, still planted: the integrator measures them again on the session's
# final suites.
BLIND_round36, BLIND_round36_MISSED = split_missed(_ALL, _MISSED_REASONS)
