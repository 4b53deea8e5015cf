"""Blind round 74 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261204, 21 must-rules not drawn in rounds 63-72, seven a round); eight break rules of the kinds the outside
rounds catch us on. Each bites on one path only, none on a path a registered fault of its rule already plants; the
hooks are in :mod:`blind_round74`.

Registered: the faults the self-test catches (``BLIND_round74``); the others stay wired but out of the registry
(``BLIND_round74_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS`` (docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round74-topics-sized-anonymous-401", "PERM-TOPICS",
        "The topic list asked with pageSize refuses the anonymous caller 401 (the sized topic query runs through the "
        "session-bound pager): breaks '| 14 Topics | View users list (Anonymous Roles). |' with pageSize only.",
    ),
    Fault(
        "round74-sendtomod-answer-actiondate-iso-t", "SHAPE-ACTIONDATE",
        "The send-to-moderation record of an ANSWER gives actionDate in ISO form with a T (2026-12-01T21:50:00.0: the "
        "answer service formats its own record): breaks 'Either YYYY-MM-DD HH:MM:SS.S or a textual form like weekday "
        "month day time zone year.' on answers sent to moderation only.",
    ),
    Fault(
        "round74-active-experts-reputation-later-pages-ascending", "SORT-EXPERTS-ORDER",
        "The active expert list with sort=reputation orders page 2 and later by reputation ASCENDING (the keyset "
        "query of a later page flips the direction; page 1 is right): breaks 'sort must be one of reputation, "
        "username, realname, recent, oldest, default' ordering by its key across pages, on that list and sort only.",
    ),
    Fault(
        "round74-questions-later-page-unmarked", "MARKED-ACCEPTED-QUESTION",
        "The question list's pages after the first (page >= 2) carry marked false on every question (the later "
        "pages come from a bookmark query that does not select the accepted state): breaks '| marked | boolean | true "
        "on an accepted answer and on the question that has it. |' on later pages only.",
    ),
    Fault(
        "round74-unfavorite-others-hold-count-string", "SHAPE-UNMARK-FAVORITE",
        "Unfavoriting a node another account still holds a favorite on gives favoriteCount as a string (the count of "
        "the remaining holders comes from a grouped query that yields text): breaks 'Response: 200 with {success: "
        "boolean, result: {favoriteAction: <Action record>, favoriteCount: integer}}.' while others hold one only.",
    ),
    Fault(
        "round74-user-questions-projected-sorted-hidden-shown", "PROJ-ONLY-VISIBLE",
        "A user's question list asked with includeOnly AND sort by a caller with hidden spaces lists the questions in "
        "those spaces too (the sorted projection query is built without the per-space filter): breaks 'Only items "
        "the caller may see are returned.' for that parameter combination only.",
    ),
    Fault(
        "round74-gdpr-reassign-id-suspend-only-invalid", "GDPR-REASSIGN-FORMS",
        "A job whose operations are only suspend refuses a reassignUser given by id as invalid (the suspend-only "
        "validator looks the reassign target up among content owners): breaks 'Identifies the user to whom content is "
        "reassigned, by exactly one of username or id.' for suspend-only jobs with reassignUser by id only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round74-followers-sorted-novice-403", "PERM-FOLLOWERS",
        "A permission with an optional parameter: novice's follower list asked with sort is refused 403 (the sorted "
        "follower query checks Edit users and groups): breaks '| 16 Followers | View users list (Anonymous Roles). |' "
        "with sort only.",
    ),
    Fault(
        "round74-cancelwiki-answer-question-author-owns", "PERM-CANCELWIKI-OWN",
        "Ownership on the wrong relation: a caller holding Convert own posts to community wiki (not Mark as community "
        "wiki) unwikifies another's wiki ANSWER under a question the caller wrote (the question's author taken as the "
        "answer's owner): breaks 'Mark as community wiki; for the caller's own node, Convert own posts to community "
        "wiki.' on answers under the caller's question only.",
    ),
    Fault(
        "round74-comment-form-body-wins", "CONV-PARAM-WINS-COMMENT",
        "An input form: a comment whose field comes both in a FORM-ENCODED body and as a request parameter keeps the "
        "form's value (JSON bodies still lose to the parameter): breaks 'When both are given, the parameter wins.' "
        "on the form-encoded comment only.",
    ),
    Fault(
        "round74-lock-marked-question-extra-null", "ACTION-LOCK-EXTRA",
        "An effect on one node state: locking a question that has an accepted answer (marked) returns the lock action "
        "with extra null (the accepted-question branch builds its record without the prompt): breaks 'The prompt is "
        "stored as extra of the returned lock action.' on marked questions only.",
    ),
    Fault(
        "round74-followers-active-false-sorted-active-only", "FOLLOWERS-ACTIVE-DEFAULT",
        "A parameter whose effect is lost: the follower list asked with active=false AND sort lists the active "
        "relations only (the sorted query keeps the default active filter): breaks 'When active is true only active "
        "relations are returned; when false all relations, including inactive ones.' with sort only.",
    ),
    Fault(
        "round74-gdpr-user-id-anonymize-refused", "GDPR-USER-FORMS",
        "A data-protection form of the user: an individual job naming its user by id whose operations hold anonymize "
        "is refused 400 'The provided 'user' is/are invalid' (the anonymizer resolves its user by username): breaks "
        "'Exactly one of username, email, id.' for that form and operation only.",
    ),
    Fault(
        "round74-sendtomod-after-lock-realuser-locker", "ACTION-SENDTOMOD-REALUSER",
        "A history: sending to moderation a node another account locked before gives realUser naming that locker (the "
        "record copies the real user of the node's last action): breaks 'Some state-changing operations record both "
        "the effective user (user) and the real authenticated user (realUser).' after a lock by another only.",
    ),
    Fault(
        "round74-user-answers-count-kept-by-url", "PAGING-TOTALCOUNT-UNION",
        "A count cached for a few seconds: a user's answer list keeps its totalCount 3 s by URL, so the next caller of "
        "that URL (who may see fewer answers) is given the previous caller's count: breaks that walking every page "
        "yields totalCount items (the paged list envelope's totalCount: 'Total number of items.') on that read order.",
    ),
)

_KINDS: tuple[Fault, ...] = (
    Fault(
        "round74-kind-user-questions-later-page-unmarked", "MARKED-ACCEPTED-QUESTION",
        "Kind of round74-questions-later-page-unmarked (a field right on a list's first page only): a user's question "
        "list's pages after the first carry marked false on every question: breaks '| marked | boolean | true on an "
        "accepted answer and on the question that has it. |' on later pages of that list only.",
    ),
)
"""The proof of the closed kind: one more fault of it on another path, missed before the fix and caught after."""

_MISSED_REASONS: dict[str, str] = {
    "round74-lock-marked-question-extra-null":
        "no run may lock a marked question: a question is marked only by an accepted answer, and accepting is not an "
        "operation of the interface ('Transitions of nodeStates into closed or accepted: not shown'), so the run "
        "cannot make one, and it writes only under the profile's fixtures and what it created "
        "(tests/hostile/test_safety.py), never on the site's own accepted questions; the run locks no question at "
        "all (its locks are answers and a comment), and a question's lock is an accepted write more (97 of 100, "
        "suites 81 of 82)",
}

BLIND_round74, BLIND_round74_MISSED = split_missed(_ALL + _KINDS, _MISSED_REASONS)
