"""Blind round 63 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261201, the 21 must-rules with the fewest registered faults, seven a round); eight break rules of the kinds
the outside rounds catch us on (a permission with an optional parameter, ownership on the wrong relation, an input
form on an operation rarely written that way, an effect on one node kind, a filter with another parameter, a
data-protection form of the user, a count after another account's unfavorite, a list a cache keeps by its URL).
Each bites on one path only; the hooks are in :mod:`blind_round63`.

Registered: the faults the self-test catches (``BLIND_round63``); the others stay wired but out of the registry
(``BLIND_round63_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS``
(docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round63-user-answers-sorted-commentids-objects", "SHAPE-LIST-USER-ANSWERS",
        "A user's answer list read with a sort gives each answer that has comments its commentIds as objects "
        "({id, type}: the sorted query loads the comments as entities): breaks 'Response: 200, paged list of Node "
        "items of type answer.' (commentIds array of integer) on commented answers of a sorted list only.",
    ),
    Fault(
        "round63-content-wiki-question-body-null", "SHAPE-LIST-USER-CONTENT",
        "On a user's content list, the entry of a community-wiki question the user asked has node.body null (a "
        "wiki's body lives in its revision, which the entry does not load): breaks 'Response: 200, a JSON array of "
        "User content entries' (node.body string) on wiki questions' entries only.",
    ),
    Fault(
        "round63-gdpr-bulk-several-operations-202", "SHAPE-SCHEDULE-GDPR-JOB",
        "A bulk job (csvFileId) with more than one operation is scheduled but answered 202 (the batch queue's "
        "accepted), not 201: breaks 'Success: 201 with {jobId}.' for bulk jobs of several operations only.",
    ),
    Fault(
        "round63-active-experts-realname-sort-flags-int", "SHAPE-LIST-ACTIVE-EXPERTS",
        "The active expert list sorted by realname gives moderator and superuser as 0/1 integers (the realname "
        "sort's native query returns the columns as stored): breaks 'Response: 200, paged list of User items.' "
        "(moderator, superuser boolean) for that sort only.",
    ),
    Fault(
        "round63-answer-comments-mod-recipients-null", "SHAPE-LIST-ANSWER-COMMENTS",
        "On an answer's comment list, a comment private to moderators (visibility mod) has recipients null (no "
        "recipient rows are stored for it): breaks 'Response: 200, paged list of Node items of type comment, with "
        "the sorts array.' (recipients array) on those comments only.",
    ),
    Fault(
        "round63-followers-author-short-form", "SHAPE-LIST-NODE-FOLLOWERS",
        "On a node's follower list (default mode), the node's own author, when following it, comes in the short "
        "author form (id, username, realname, reputation, avatar: the author is taken from the node already "
        "loaded): breaks 'Response: 200, paged list (default-mode items are User items).' on that item only.",
    ),
    Fault(
        "round63-spaces-invalid-sort-projected-by-id", "SORT-FALLBACK-SPACES",
        "The space list asked with an unknown sort name and includeOnly is ordered by id, newest first (the "
        "projected query's own fallback), not by the default sort: breaks 'On the space, topic and group lists an "
        "invalid sort name makes the request fall back to the default sort.' when projected only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round63-comment-wrap-private-without-permission", "COMMENT-7-NO-PRIVATE-PERMISSION",
        "A private comment (visibility op, mod, group or recipients) posted with the wrap option by a caller "
        "without Use Private Comments is created 201 (the wrap path checks Comment only): breaks 'used by a caller "
        "who lacks the permission to use private comments, or lacks the permission for that option, gives 403.' "
        "with wrap only.",
    ),
    Fault(
        "round63-lock-own-by-favorite", "PERM-LOCK-OWN",
        "A caller with Lock comments on own posts but not Lock comments on posts locks a node of another's that "
        "they hold a favorite on (their own nodes are looked up through the user-node relations, favorites "
        "included): breaks 'Lock comments on posts; for the caller's own node, Lock comments on own posts' for a "
        "favorite holder only.",
    ),
    Fault(
        "round63-comment-form-charset-recipients-dropped", "COMMENT-2",
        "A comment posted form-encoded with a charset parameter in its Content-Type (application/x-www-form-"
        "urlencoded; charset=UTF-8) and visibility recipients is stored with full visibility and no recipients "
        "(the charset-aware form reader skips the privacy fields): breaks 'When visibility is recipients and "
        "recipients lists ids, the comment is private to those recipients and a GET returns the given settings.' "
        "for that form only.",
    ),
    Fault(
        "round63-lock-answer-extra-null", "ACTION-LOCK-EXTRA",
        "Locking an ANSWER stores and returns its lock action with extra null (the answer's lock path does not pass "
        "the prompt on): breaks 'The prompt is stored as extra of the returned lock action.' for answers only.",
    ),
    Fault(
        "round63-questions-spaceid-dropped-with-topics", "FILTER-SPACEID",
        "The question list asked with spaceId and topics together lists the questions of every space with those "
        "topics (the topic filter's query has no space condition): breaks 'spaceId (integer; restricts to one "
        "space)' when topics is given too only.",
    ),
    Fault(
        "round63-gdpr-user-integer-id-refused", "GDPR-USER-FORMS",
        "An individual job whose user names an existing user by id as a JSON number is refused 400 \"The individual "
        "type was selected, but the request is missing the user field.\" (the lookup reads string ids only; "
        "username, email and a string id are right): breaks 'Exactly one of username, email, id.' for an integer "
        "id only.",
    ),
    Fault(
        "round63-unfavorite-count-after-other-unfavorite", "ACTION-UNFAVORITE-COUNT",
        "Unfavoriting a node another account already unfavorited answers favoriteCount one too high (the count is "
        "decremented from the value the other's unfavorite cached): breaks 'Returns the favorite action with "
        "canceled true and the updated favoriteCount.' after another account's unfavorite of that node only.",
    ),
    Fault(
        "round63-user-answers-kept-by-url", "PROJ-ONLY-VISIBLE",
        "A user's answer list is kept 2 s by its URL whoever reads it: a read within 2 s of another account's read "
        "of the same URL gets that account's items (an answer in a space the caller may not list, after a "
        "privileged read): breaks 'Only items the caller may see are returned.' on that read order only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_KINDS: tuple[Fault, ...] = (
    Fault(
        "round63-kind-followers-author-not-counted", "PAGING-LISTCOUNT",
        "On a node's follower list (default mode) that holds the node's own author, listCount counts the other "
        "followers only (the count query leaves out an author's follow of their own node): breaks '| listCount | "
        "integer | Number of items in this page. |' on such lists only.",
    ),
)
"""The proofs of the closed kinds: one more fault of each kind on another path or rule, missed before the fix and
caught after."""

_MISSED_REASONS: dict[str, str] = {
    "round63-gdpr-bulk-several-operations-202":
        "no bulk job of the run is accepted: every bulk job the suites send is built to be refused (a past date, a "
        "missing or unknown file, a guard: test_gdpr_kinds.py, job_requests.py, taken_frames.py), and the accepted "
        "jobs are individual ones; a bulk job scheduled is an accepted write more (97 of 100, suites 81 of 82 at "
        "seed 20260801), which no trade pays for here",
}

BLIND_round63, BLIND_round63_MISSED = split_missed(_ALL + _KINDS, _MISSED_REASONS)
