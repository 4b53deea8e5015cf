"""Blind round 76 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261205, the 63 must-rules not drawn in rounds 63-75, seven a round); eight break rules of the kinds the outside
rounds catch us on (a permission with an optional parameter, ownership on the wrong relation, an input form, an
effect on one node state, a sort whose echo is right, a data-protection form of the user, an account's own earlier
write, a count a cache keeps by its URL). Each bites on one path only; the hooks are in :mod:`blind_round76`.

Registered: the faults the self-test catches (``BLIND_round76``); the others stay wired but out of the registry
(``BLIND_round76_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS``
(docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round76-cancelwiki-marked-question-canceleddate-epoch", "ACTION-CANCELED-FIELDS",
        "Unwikifying a question that has an accepted answer (marked true) returns a wikifyAction whose canceledDate "
        "is an integer of epoch milliseconds (the accepted-question serializer writes the raw column): breaks "
        "'| canceledDate | string | Textual date. Present when canceled is true. |' on marked questions only.",
        draws=("wiki node kind=an accepted question",),  # round59: the seed draws an accepted wiki question
    ),
    Fault(
        "round76-comment-novice-param-body-refused", "PERM-COMMENT",
        "A full-visibility comment by a caller holding Comment but not Use Private Comments (novice) whose body comes "
        "as a request parameter, with no request body, is refused 403 (the parameter form's controller checks Use "
        "Private Comments for every comment): breaks '| 1 Post comment | Comment (Other Standard Roles); ...' for "
        "that input form only.",
        draws=("novice comment form=query",),  # closea: novice's comment form, a seed draw since closea
    ),
    Fault(
        "round76-gdpr-bulk-reassign-no-csv-scheduled", "GDPR-BULK-NO-CSV",
        "A bulk job without csvFileId that carries a reassignUser is scheduled 201 (the reassignment branch checks "
        "the reassigned user and skips the csv check): breaks '| 400 | Schedule job | type bulk without csvFileId | "
        "{error: The bulk type was selected, but the request is missing the csvFileId field.} |' with reassignUser "
        "only.",
    ),
    Fault(
        "round76-topics-includeonly-sort-null", "PAGING-ENVELOPE",
        "The topic list asked with includeOnly and no sort reports sort null in its envelope (the projected path "
        "copies the requested sort, not the one in effect): breaks '| sort | string | Sort criterion in effect ...' "
        "for projected topic reads without sort only.",
    ),
    Fault(
        "round76-cancelwiki-own-record-no-ip", "ACTION-RECORD-SHAPE",
        "A caller unwikifying its OWN node through Convert own posts to community wiki (it lacks Mark as community "
        "wiki) gets a wikifyAction without ip (the own-posts branch builds the action outside the request context): "
        "breaks '| ip | string | Address of the caller. |' on that permission path only.",
    ),
    Fault(
        "round76-lock-child-space-no-success", "SHAPE-LOCK-NODE",
        "Locking a node of a CHILD space (a space with a parent) answers 200 {result: {lockAction}} without success "
        "(the child space's controller returns the bare result): breaks 'Response: 200 with {success: boolean, "
        "result: {lockAction: <Action record>}}.' in child spaces only.",
    ),
    Fault(
        "round76-user-answers-sized-page-echo-offset", "PAGING-PAGE-ECHO",
        "A user's answer list asked with page N >= 2 and a pageSize other than the system default reports the page "
        "the offset would be at the DEFAULT page size ((N-1)*pageSize // default + 1); the items are right: breaks "
        "'| page | integer | Current page. ...' for sized later pages of that list only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round76-answer-comments-exclude-anonymous-401", "PERM-ANSWER-COMMENTS",
        "An anonymous read of an answer's comment list with the exclude parameter is refused 401 (the projection "
        "filter asks for a signed-in session): breaks '| 18 Answer's comments | View answers in the question page "
        "and View the question page (Anonymous Roles). |' with exclude only.",
    ),
    Fault(
        "round76-lock-answer-question-follower-owns", "PERM-LOCK-OWN",
        "A caller holding Lock comments on own posts (not on every post) locks another's ANSWER under a question it "
        "FOLLOWS (the own-content check reads the caller's followed threads): breaks '| 13 Lock | Lock comments on "
        "posts; for the caller's own node, Lock comments on own posts (Moderation Roles). |' for the follower of the "
        "answer's question only.",
    ),
    Fault(
        "round76-comment-json-charset-latin1", "TEXT-NON-ASCII",
        "A comment sent as JSON whose Content-Type carries a charset parameter (application/json; charset=...) is "
        "stored with its body decoded as Latin-1 (the charset branch of the body reader): breaks 'A body sent with a "
        "request must have the format that matches the URL extension or the request's Content-Type header.' "
        "(non-ASCII text reads back changed) for that Content-Type only.",
    ),
    Fault(
        "round76-sendtomod-child-space-verb-moved", "ACTION-SENDTOMOD-VERB",
        "Sending a node of a CHILD space to moderation returns a sendToModAction with verb moved (the child space's "
        "queue is the parent's, reached by a move): breaks '| Published node | PUT sendToMod | ... | In moderation | "
        "Returns an action record with verb sent and private true. |' in child spaces only.",
    ),
    Fault(
        "round76-active-experts-reputation-later-pages-reversed", "SORT-EXPERTS-ORDER",
        "The active expert list asked with sort=reputation orders pages 2 and later ascending (the echo stays "
        "reputation; page 1 is right): breaks 'sort must be one of reputation, username, realname, recent, oldest, "
        "default' (the sort asked is the order served) on later pages of that sort only.",
    ),
    Fault(
        "round76-gdpr-user-id-string-past-accepted", "GDPR-PAST-DATE",
        "An individual job whose user is given by id as a STRING of digits and whose date is in the past is "
        "scheduled 201 (the string-id branch converts the user and skips the date check): breaks '| 400 | Schedule "
        "job | Date in the past | {error: The desired date is in the past and is it not eligible.} |' for that form "
        "of the user only.",
    ),
    Fault(
        "round76-reply-own-private-other-visibility-accepted", "COMMENT-4",
        "A reply to a private comment by that comment's OWN author with a different visibility is accepted 201 and "
        "inherits the parent's settings (the author is trusted to re-scope their own thread): breaks 'A reply to a "
        "private comment with different visibility gives 400 (message: Visibility on comment can't be defined since "
        "it's inherited).' after the caller's own earlier private comment only.",
    ),
    Fault(
        "round76-user-questions-totalcount-kept-by-path", "PAGING-TOTALCOUNT-UNION",
        "A user's question list keeps its totalCount and pageCount 2 s by its path, whoever reads it: a read within "
        "2 s of another account's read of the same user reports that account's count (novice after admin: the "
        "hidden-space question counted); the items are right: breaks '| totalCount | integer | Total number of "
        "items. |' on that read order only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_MISSED_REASONS: dict[str, str] = {
}

BLIND_round76, BLIND_round76_MISSED = split_missed(_ALL, _MISSED_REASONS)
