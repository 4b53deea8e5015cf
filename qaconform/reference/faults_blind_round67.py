"""Blind round 67 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261202, 21 must-rules not drawn the session before, seven a round); eight break rules of the kinds the outside
rounds catch us on (a permission with an optional parameter, ownership on the wrong relation, an input form on an
operation rarely written that way, an effect on one node kind and state, a filter with a projection, a
data-protection form of the user, a history (a send to moderation before), a count a cache keeps). Each bites on one
path only; the hooks are in :mod:`blind_round67`.

Registered: the faults the self-test catches (``BLIND_round67``); the others stay wired but out of the registry
(``BLIND_round67_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS``
(docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round67-lock-in-moderation-user-is-sender", "AUTH-ACTING-USER",
        "Locking a node that is in moderation (sent there earlier) returns a lock action whose user is the account "
        "that sent it to moderation (the moderation queue's lock path copies the queue entry's user): breaks 'The "
        "acting user is taken from the credentials.' on nodes in moderation only.",
    ),
    Fault(
        "round67-topics-search-listcount-total", "PAGING-LISTCOUNT",
        "The topic list searched with q reports listCount equal to totalCount (the search path fills it from the hit "
        "count): breaks '| listCount | integer | Number of items in this page. |' when q is given and the hits fill "
        "more than one page only.",
    ),
    Fault(
        "round67-questions-commentcount-sort-ids-unfiltered", "COMMENT-PRIVACY-IDS",
        "The question list sorted by commentCount serves commentIds and childrenIds from the denormalized child "
        "columns, private comments included for every reader (the count sort joins the child table without the "
        "privacy filter): breaks 'the comment is private to those recipients' with sort=commentCount only.",
    ),
    Fault(
        "round67-cancelwiki-followed-node-not-canceled", "ACTION-CANCELWIKI-CANCELED",
        "Unwikifying a node that has active followers returns the wiki action as read before the cancel (canceled "
        "false, no canceledByUser) (the follower notification serializes the row it loaded first): breaks 'Returns "
        "the wiki action with canceled true.' on followed nodes only.",
    ),
    Fault(
        "round67-active-experts-recent-sort-moderator-refused", "PERM-EXPERTS",
        "The active expert list sorted by recent refuses a moderator 403 (the recent-activity query checks a "
        "site-administration permission): breaks '| 5, 6 Experts | USE API role and View User's Profile (Anonymous "
        "Roles). |' for the moderator with sort=recent only.",
    ),
    Fault(
        "round67-followers-inactive-user-dates-seconds", "SHAPE-DATES-MILLIS",
        "The follower list with active=false serves the users of INACTIVE relations with creationDate and "
        "modificationDate in epoch seconds (they are loaded from the archive table, which stores seconds): breaks "
        "'| creationDate, modificationDate | integer | Epoch milliseconds. |' for inactive followers only.",
    ),
    Fault(
        "round67-answer-second-by-account-id-integer", "ANSWER-ID-STRING",
        "An account's SECOND answer to the same question is answered with an integer id (the merge-with-earlier-"
        "answer path serializes the stored row): breaks '| id | integer | A string in the response to posting an "
        "answer. |' for an account that already answered the question only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round67-answer-comments-moderator-refused-v1", "PERM-ANSWER-COMMENTS",
        "With the v1 option, an answer's comment list refuses a moderator 403 (the v1 controller checks View the "
        "moderation queue as a denial list for moderators' own private comments): breaks '| 18 Answer's comments | "
        "View answers in the question page and View the question page (Anonymous Roles). |' with v1 only.",
        (Override(("listAnswerComments",), "moderator", Effect.DENY, when=("v1",)),),
    ),
    Fault(
        "round67-cancelwiki-question-commenter-owns", "PERM-CANCELWIKI-OWN",
        "A caller holding Convert own posts to community wiki (not Mark as community wiki) unwikifies another's wiki "
        "QUESTION it has commented on (the own-content check reads the thread's contributors): breaks 'Mark as "
        "community wiki; for the caller's own node, Convert own posts to community wiki.' for a commenter only.",
    ),
    Fault(
        "round67-comment-charset-json-param-body-ignored", "CONV-PARAM-AS-BODY-FIELD",
        "A comment whose body is given as a request parameter beside a JSON body (without body) sent with "
        "Content-Type application/json; charset=UTF-8 is refused 400 'body is required' (the charset request is "
        "read from the JSON body alone): breaks 'On POST endpoints that take a body, each body field may also be "
        "given as a request or query parameter of the same name.' under that Content-Type only.",
    ),
    Fault(
        "round67-sendtomod-accepted-answer-not-private", "ACTION-SENDTOMOD-PRIVATE",
        "Sending an ACCEPTED answer (marked) to moderation returns the action with private false (the accepted answer "
        "is sent through the public review queue): breaks 'Returns an action record with verb sent and private "
        "true.' for accepted answers only.",
    ),
    Fault(
        "round67-questions-spaceid-ignored-projected", "FILTER-SPACEID",
        "The question list filtered by spaceId and projected with includeOnly serves every space's questions (the "
        "projection query is built by its own builder, which knows no spaceId): breaks 'spaceId (integer; restricts "
        "to one space)' when includeOnly is given only.",
    ),
    Fault(
        "round67-gdpr-user-email-with-reassign-refused", "GDPR-USER-FORMS",
        "An individual job naming its user by email alone AND carrying a reassignUser is refused 400 \"The provided "
        "'user' is invalid\" (the reassignment check resolves the user by username): breaks 'Required when type is "
        "individual. Exactly one of username, email, id.' for the email form with reassignUser only.",
    ),
    Fault(
        "round67-cancelwiki-in-moderation-stays-wiki", "ACTION-CANCELWIKI-NOT-WIKI",
        "Unwikifying a node that is in moderation (sent there earlier) returns the canceled wiki action but the node "
        "stays wiki (the moderation copy, taken when it was sent, is written back over the node): breaks 'Wikified "
        "node (wiki true) | PUT cancelwiki | ... | Not wiki (closed for editing)' after a send to moderation only.",
        draws=("member wiki send=before its unwikify",),  # wiki20 (issue 44): admin's send before member's unwikify
    ),
    Fault(
        "round67-answer-comments-totalcount-kept", "PAGING-TOTALCOUNT-UNION",
        "An answer's comment list keeps its totalCount (and pageCount) 3 s per answer whoever reads it: a read within "
        "3 s of another account's read of the same answer's comments reports that account's count (a recipient's "
        "count counts private comments the next reader does not get): breaks '| totalCount | integer | Total number "
        "of items. |' on that read order only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_KINDS: tuple[Fault, ...] = (
    Fault(
        "round67-kind-user-questions-votes-sort-ids-unfiltered", "COMMENT-PRIVACY-IDS",
        "A user's question list sorted by votes serves commentIds and childrenIds from the denormalized child "
        "columns, private comments included for every reader (the score sort joins the child table without the "
        "privacy filter): breaks 'the comment is private to those recipients' with sort=votes only.",
    ),
)
"""The proofs of the closed kinds: one more fault of each kind on another path or rule, missed before the fix and
caught after."""

_MISSED_REASONS: dict[str, str] = {
    "round67-sendtomod-accepted-answer-not-private":
        "no send to moderation of the run acts on an accepted answer: the interface accepts no answer, so every answer "
        "the run writes stays unmarked, and the accepted answers a site holds are its own content (the fixture "
        "question's is every suite's; accepted_wiki_question_id's is under a one-shot the wiki draw unwikifies): "
        "a send of one is a write on content neither the run's nor a profile fixture, or a new optional fixture",
}

BLIND_round67, BLIND_round67_MISSED = split_missed(_ALL + _KINDS, _MISSED_REASONS)
