"""Blind round 57 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Eight break one each of the must-rules drawn at random
(seed 20261217); seven break rules of the kinds the outside rounds catch us on (a permission with an optional
parameter, ownership on the wrong relation, an input form on a rarely tried operation, an effect on one node kind,
a filter's effect under one sort, a data-protection form of the user, a list a cache keeps by its URL). Each bites on
one path only; the hooks are in :mod:`blind_round57` (one is an override of the route table).

Registered: the faults the self-test catches (``BLIND_round57``); the others stay wired but out of the registry
(``BLIND_round57_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS``
(docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the eight drawn must-rules
    Fault(
        "round57-lock-answer-node-id-question", "ACTION-NODE-ID",
        "Locking an ANSWER returns a lock action whose node.id is the answer's question (the lock is recorded on the "
        "thread): breaks '| node | object | id (integer), type (string). |' (the node of the path) on answers only.",
    ),
    Fault(
        "round57-gdpr-bulk-no-csv-with-user-scheduled", "GDPR-BULK-NO-CSV",
        "A bulk job without csvFileId whose body carries a user object too is scheduled 201 as an individual job for "
        "that user (the user field decides the kind): breaks '{error: The bulk type was selected, but the request is "
        "missing the csvFileId field.}' when a user is given only.",
    ),
    Fault(
        "round57-user-questions-accepted-nodestates-string", "SHAPE-LIST-USER-QUESTIONS",
        "A user's question list gives the nodeStates of a question with an accepted answer as the string 'accepted' "
        "(the states joined by the list's template) instead of an array: breaks 'Response: 200, paged list of "
        "question Nodes.' for accepted questions only.",
    ),
    Fault(
        "round57-sendtomod-answer-verb", "ACTION-SENDTOMOD-VERB",
        "Sending an ANSWER to moderation records verb 'moderated' (the answer controller's verb); questions are "
        "right: breaks 'Returns an action record with verb sent and private true.' on answers only.",
    ),
    Fault(
        "round57-gdpr-bulk-four-operations-refused", "GDPR-OPERATIONS-RANGE",
        "A bulk job whose operations list holds 4 elements is refused 400 'operations is/are invalid' (the bulk "
        "validator counts below 4); individual jobs take 4: breaks 'At least one and at most 4 elements, from "
        "suspend, anonymize, delete, anon-delete.' for bulk jobs with four operations only.",
    ),
    Fault(
        "round57-followers-inactive-listcount-active-only", "PAGING-LISTCOUNT",
        "A node's follower list asked with active=false holds every relation but gives listCount as the number of "
        "active ones on the page: breaks '| listCount | integer | Number of items in this page. |' with active=false "
        "on a node with an inactive follower only.",
    ),
    Fault(
        "round57-moderated-answer-no-reportcount", "SHAPE-POST-ANSWER",
        "An answer posted by a caller without Publish answer (it goes to the moderation queue) is answered 201 "
        "without reportCount (the queue entry's render): breaks 'Success: 201 with the new Node (type answer).' "
        "(with reportCount, present on a newly posted answer) for unpublished answers only.",
    ),
    Fault(
        "round57-user-answers-pagecount-exact-plus-one", "PAGING-PAGECOUNT",
        "A user's answer list gives pageCount one too many when totalCount is an exact multiple of pageSize "
        "(total // size + 1): breaks '| pageCount | integer | Total number of pages. |' on that list for those "
        "page sizes only.",
    ),
    # --- seven of the outside kinds
    Fault(
        "round57-groups-member-includeonly-allowed", "PERM-GROUPS",
        "With includeOnly given, the group list is served to member (the projection path checks View users list "
        "only): breaks '| 17 Groups | Edit users and groups (Site Administration Roles). |' with includeOnly only.",
        overrides=(Override(("listGroups",), "member", Effect.ALLOW, when=("includeOnly",)),),
    ),
    Fault(
        "round57-lock-answer-question-author-owns", "PERM-LOCK-OWN",
        "A caller with only Lock comments on own posts may lock another's ANSWER to a question it asked (own decided "
        "on the question's author): breaks '| 13 Lock | Lock comments on posts; for the caller's own node, Lock "
        "comments on own posts (Moderation Roles). |' on that relation only.",
    ),
    Fault(
        "round57-answer-form-latin1", "TEXT-NON-ASCII",
        "An answer posted as a form-encoded body has its text decoded as Latin-1 (the form decoder's default "
        "charset): non-ASCII text reads back garbled; JSON bodies and parameters are right: breaks 'body (string, "
        "the answer text)' for the form-encoded input form only.",
    ),
    Fault(
        "round57-lock-comment-extra-null", "ACTION-LOCK-EXTRA",
        "Locking a COMMENT returns a lock action with extra null (the comment lock keeps no reason); questions and "
        "answers are right: breaks 'The prompt is stored as extra of the returned lock action.' on comments only.",
    ),
    Fault(
        "round57-questions-spaceid-newest-unfiltered", "FILTER-SPACEID",
        "The question list asked with spaceId and sort=newest gives the questions of every space (the newest index "
        "has no space column): breaks 'spaceId (integer; restricts to one space)' under sort=newest only.",
    ),
    Fault(
        "round57-gdpr-reassign-username-with-user-id-refused", "GDPR-REASSIGN-FORMS",
        "An individual job whose user is given by id and whose reassignUser is given by username is refused 400 "
        "'reassignUser is/are invalid' (the reassign lookup reuses the user's key): breaks 'Identifies the user to "
        "whom content is reassigned, by exactly one of username or id.' for that pair of forms only.",
    ),
    Fault(
        "round57-spaces-cached-by-url", "PERM-SPACES-PER-SPACE",
        "The space list is kept 3 s by its URL, whoever asks: a read within 3 s of another account's read of the "
        "same URL gets that account's spaces (a hidden space after a privileged read): breaks 'Only spaces for which "
        "the caller has View the questions list appear.' on that read order only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_MISSED_REASONS: dict[str, str] = {}
"""Faults the suites did not catch on the blind measure (on 75329c9): none, all fifteen were caught (each failing its
own rule alone)."""

BLIND_round57, BLIND_round57_MISSED = split_missed(_ALL, _MISSED_REASONS)
