"""Eleventh blind round (issue 44, round11): faults written from the interface description alone, on the
kinds the outside round found (a permission checked only without an optional parameter, ownership or permission
read from the wrong node, a write's input form on one operation, a stated effect on one node kind, a parameter
echoed without its effect, a data-protection rule through one stated form, privacy after a state change or down a
thread, reads in an order a cache gets wrong). Each breaks the one rule it names on one path only; the code is
in :mod:`blind_round11`, called from the handler each breaks. Eight of the fifteen written are registered: the seven
the suites could not be made to catch without an accepted write, or whose path the description does not state (a
form-encoded array, an object as a query parameter), are kept with their code and reason in the round's notes
(docs of issue 44: notes/s5/blind-round11.md).

The sentence of interface-v2.md each one breaks:

- r11-lock-wrap-unchecked: "Lock comments on posts; for the caller's own node, Lock comments on own posts" (a
  caller with neither, only with ``wrap``).
- r11-comment-private-v1-unchecked: "A private visibility option ... used by a caller who lacks the permission to
  use private comments ... gives 403." (only with ``v1``).
- r11-reply-option-permission-of-parent-author: "A private visibility option ... used by a caller who ... lacks the
  permission for that option, gives 403." (a reply to a public comment: the parent author's permission decides).
- r11-gdpr-reassign-username-by-user-key: "reassignUser ... Identifies the user to whom content is reassigned, by
  exactly one of username or id." (a username refused when the job's user is given by email).
- r11-reply-to-public-default-recipient: "Without visibility and recipients the comment has full visibility and no
  recipients, and a later GET returns exactly that." (a reply to a public comment).
- r11-followers-details-active-false-inverted: "when false all relations, including inactive ones." (details=true).
- r11-topics-includeonly-page-ignored: "page | integer | Current page." (the projected topic list).
- r11-user-answers-projected-cached: "Only items the caller may see are returned." (a projected page of a user's
  answers right after a caller who may see the hidden space).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override

_F = Fault
BLIND_ROUND11: tuple[Fault, ...] = (
    # --- a permission checked only without an optional parameter
    _F("r11-lock-wrap-unchecked", "PERM-LOCK",
       "with wrap, lock admits a caller with neither lock permission (novice) on any node",
       (Override(("lockNode",), "novice", Effect.ALLOW, when=("wrap",)),)),
    _F("r11-comment-private-v1-unchecked", "COMMENT-7-NO-PRIVATE-PERMISSION",
       "with v1, a caller without Use Private Comments may post a private comment (the v1 branch predates them)"),
    # --- ownership or permission read from the wrong node
    _F("r11-reply-option-permission-of-parent-author", "COMMENT-7-NO-OPTION-PERMISSION",
       "on a reply to a public comment the private option's permission is the parent author's, not the caller's"),
    # --- a data-protection rule through one stated form
    _F("r11-gdpr-reassign-username-by-user-key", "GDPR-REASSIGN-FORMS",
       "a reassignUser by username is looked up by email when the job's user is given by email: an existing "
       "username is refused as invalid"),
    # --- a stated effect on one node kind
    _F("r11-reply-to-public-default-recipient", "COMMENT-1",
       "a reply to a public comment posted without privacy fields is made private to its parent's author"),
    # --- a parameter echoed but without its effect
    _F("r11-followers-details-active-false-inverted", "FOLLOWERS-ACTIVE-DEFAULT",
       "with details=true, active=false lists the inactive relations only, not all relations"),
    _F("r11-topics-includeonly-page-ignored", "PAGING-TOTALCOUNT-UNION",
       "the topic list with includeOnly echoes page but always serves the first page's items"),
    # --- reads in an order a cache gets wrong
    _F("r11-user-answers-projected-cached", "PROJ-ONLY-VISIBLE",
       "a projected (includeOnly) page of a user's answers is kept 2 s keyed by its URL: the previous caller's "
       "view (with the hidden space's answers) goes to the next caller"),
)
