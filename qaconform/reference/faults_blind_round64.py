"""Blind round 64 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261201, the 21 must-rules with five registered faults or fewer, seven a round); eight break rules of the
kinds the outside rounds catch us on (a permission with an optional parameter, ownership on the wrong relation, an
input form with a charset parameter, an effect on one node kind, a data-protection form of the user, an account's
own earlier write, a list a cache keeps by its URL, an accepted action with its stated option). Each bites on one
path only; the hooks are in :mod:`blind_round64`.

Registered: the faults the self-test catches (``BLIND_round64``); the others stay wired but out of the registry
(``BLIND_round64_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS``
(docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round64-questions-later-page-viewcount-string", "SHAPE-LIST-QUESTIONS",
        "The question list's pages after the first give each item's viewCount as a string (the later pages are read "
        "through the keyset query, whose view counter comes from the string-valued counter cache): breaks "
        "'Response: 200, paged list envelope with Node items of type question.' (viewCount integer) on page 2 and "
        "later only.",
    ),
    Fault(
        "round64-sendtomod-own-node-user-no-avatar", "SHAPE-SEND-TO-MODERATION",
        "Sending one's OWN node to moderation answers a sendToModAction whose user has no avatarUrl (the own-node "
        "path builds the user from the session, which holds id and username only): breaks 'Response: 200 with "
        "{success: boolean, result: {sendToModAction: <Action record>}}.' (user: id, username, avatarUrl) for the "
        "node's author only.",
    ),
    Fault(
        "round64-answer-boolean-node-field-refused", "ANSWER-OTHER-NODE-FIELDS",
        "An answer whose JSON body carries another Node field with a boolean value (wiki, marked ...) is refused 400 "
        "(the binder takes the extra fields as strings and fails on a JSON true/false): breaks 'other Node fields "
        "may be supplied' for boolean-valued fields only.",
    ),
    Fault(
        "round64-answer-under-marked-question-marked-null", "SHAPE-POST-ANSWER",
        "An answer posted under a question that already has an accepted answer comes back with marked null (the new "
        "node's flag is copied from the question's accepted-answer join, empty for a new answer): breaks 'Success: "
        "201 with the new Node (type answer).' (marked boolean) under marked questions only.",
    ),
    Fault(
        "round64-question-comment-group-stored-full", "COMMENT-8",
        "A comment posted on a QUESTION with the visibility send to own groups is stored with full visibility (the "
        "question's comment path predates the group option, 2.16.0's, and drops it): breaks 'Private comments were "
        "introduced in version 2.16.0.' (a 2.16.0 server keeps the setting) for that option on questions only.",
        draws=("question option=to_own_groups",),
    ),
    Fault(
        "round64-gdpr-formatted-next-year-past", "GDPR-DATE-FORMATTED",
        "A job whose scheduleDate.formatted lies in a later year but whose month/day sort before today's (01/15/2027 "
        "on 12/01/2026) is refused as in the past (the formatted strings are compared as text): breaks 'Either "
        "formatted (string, pattern month/day/year hour:minute in 24-hour form, two-digit month, day, hour and "
        "minute, four-digit year) or timeStamp.' for dates in a later year only.",
    ),
    Fault(
        "round64-user-questions-wiki-integer", "SHAPE-LIST-USER-QUESTIONS",
        "A user's question list gives wiki as the integer 1 on community-wiki questions (the user list's query reads "
        "the column as stored): breaks 'Response: 200, paged list of question Nodes.' (wiki boolean) on wiki "
        "questions of that list only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round64-groups-includeonly-member-allowed", "PERM-GROUPS",
        "The group list asked with includeOnly by member (no Edit users and groups) answers 200 with the groups (the "
        "projection path checks the permission of the fields, not of the list): breaks '| 17 Groups | Edit users "
        "and groups (Site Administration Roles). |' with includeOnly only.",
        overrides=(Override(("listGroups",), "member", Effect.ALLOW, when=("includeOnly",)),),
    ),
    Fault(
        "round64-lock-own-by-last-active", "PERM-LOCK-OWN",
        "A caller with Lock comments on own posts only may lock a node of another's on which they were the last "
        "active user (own decided by lastActiveUserId, as the activity feed records it, not by the author): breaks "
        "'| 13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation "
        "Roles). |' for that relation only.",
    ),
    Fault(
        "round64-comment-json-charset-recipients-dropped", "COMMENT-2",
        "A comment posted with Content-Type application/json; charset=UTF-8 and visibility recipients is stored with "
        "full visibility and no recipients (a Content-Type with a parameter is bound by the generic map binder, "
        "which drops the recipients array): breaks 'When visibility is recipients and recipients lists ids, the "
        "comment is private to those recipients and a GET returns the given settings.' for that header only.",
    ),
    Fault(
        "round64-lock-answer-extra-null", "ACTION-LOCK-EXTRA",
        "Locking an ANSWER stores and returns the lock action with extra null (the answer's lock path does not pass "
        "the prompt on): breaks 'The prompt is stored as extra of the returned lock action.' for answers only.",
    ),
    Fault(
        "round64-gdpr-user-id-string-refused", "GDPR-USER-FORMS",
        "An individual job whose user is given by id as a JSON string (\"5\") is refused 400 'The individual type "
        "was selected, but the request is missing the user field.' (the lookup takes integer ids only; username, "
        "email and an integer id are right): breaks 'Exactly one of username, email, id.' for a string id only.",
    ),
    Fault(
        "round64-reply-own-public-comment-visibility-refused", "COMMENT-5",
        "A reply with its own visibility to a PUBLIC comment the caller wrote is refused 400 'Visibility on comment "
        "can't be defined since it's inherited' (the own-thread path treats one's own comment as the thread's "
        "settings): breaks 'A reply to a public comment may set its own visibility and recipients: 201.' under "
        "one's own comments only.",
        draws=("private reply parent=the replier's own comment",),
    ),
    Fault(
        "round64-answer-comments-kept-by-url", "COMMENT-PRIVACY-LIST",
        "An answer's comment list is kept 2 s by its URL whoever reads it: a read within 2 s of another account's "
        "read of the same URL gets that account's comments (private ones after a privileged read): breaks 'the "
        "comment is private to those recipients' on that read order only.",
    ),
    Fault(
        "round64-unfavorite-wrap-count-stale", "ACTION-UNFAVORITE-COUNT",
        "Unfavoriting with the wrap option answers the favoriteCount read before the favorite was removed (one too "
        "many; the wrapped answer is built before the delete commits): breaks 'Returns the favorite action with "
        "canceled true and the updated favoriteCount.' with wrap only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_KINDS: tuple[Fault, ...] = (
    Fault(
        "round64-kind-question-comment-group-read-as-mod", "COMMENT-VISIBILITY-RETURNED",
        "A comment posted on a QUESTION with the visibility send to own groups is stored and returned as to "
        "moderators (the question's comment path maps the options it knows and takes the group option for the "
        "moderators one): breaks 'Both visibility and recipients are returned when a comment is retrieved and are "
        "accepted when a comment is posted.' for that option on questions only.",
        draws=("question option=to_own_groups",),
    ),
)
"""The proofs of the closed kinds: one more fault of each kind on another path or rule, missed before the fix and
caught after."""

_MISSED_REASONS: dict[str, str] = {
    "round64-gdpr-user-id-string-refused":
        "a reading the description allows: the job's user is 'Exactly one of username, email, id' with no type for "
        "the id, a user's id is an integer everywhere the description types it (User: id integer), and where a "
        "string is allowed it says so (recipients: 'id (integer or string)'); the contract's schema reads it as an "
        "integer, so a string id refused is no broken must-rule",
}

BLIND_round64, BLIND_round64_MISSED = split_missed(_ALL + _KINDS, _MISSED_REASONS)
