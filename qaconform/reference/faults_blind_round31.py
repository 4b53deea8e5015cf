"""Blind round 31 (issue 44): fifteen planted faults written from the interface description and spec/rules.yaml
alone, without reading the suites. Eight break must-rules drawn at random (seed 20261201); seven break must-rules
chosen for the kinds of path issue 44 says outside rounds catch the kit on (ownership on the wrong relation, an
input form on a rarely tried operation, an effect on one node kind, a parameter's effect against its echo, a
data-protection form of the user, a history after a state change, read order and a cache).

Each breaks one stated rule on one path only and quotes the rule's sentence; where they bite is
:mod:`blind_round31`. ``_ALL`` holds all fifteen; ``BLIND_round31`` the nine the self-test caught on the session's
start suites and the two fix31 closed (registered in faults.py); ``BLIND_round31_MISSED`` the four still missed
(kept here with their reasons, not registered, so that an integrator can register them on a trial branch). The
measure is in docs/blind-rounds.md.
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the eight drawn rules
    Fault("round31-reply-public-question-thread-private-refused", "COMMENT-5",
          "'A reply to a public comment may set its own visibility and recipients: 201.' -> a reply to a public"
          " comment of a question's own thread (a comment posted on the question, not under an answer) that sets"
          " a private visibility is refused with 400 and the inherited-visibility message (the thread's"
          " inheritance check looks at the question, not at the parent comment); under answers it is taken"),
    Fault("round31-content-id-beyond-int32-400", "GDPR-CONTENT-422",
          "'Error: 422 with {error: Invalid User Id}.' -> a user id beyond a 32-bit integer (2147483648 up to 18"
          " digits) on the user content list is a 400 from the path converter instead of the 422; unknown ids"
          " that fit in 32 bits, 0, negative ids and words still get the 422"),
    Fault("round31-gdpr-formatted-hour-00-refused", "GDPR-DATE-FORMATTED",
          "'Either formatted (string, pattern month/day/year hour:minute in 24-hour form, two-digit month, day,"
          " hour and minute, four-digit year) or timeStamp.' -> a formatted date at hour 00 (midnight to 00:59)"
          " is refused as an invalid scheduleDate: the parser reads hours 1 to 24 (Java's kk); every other hour"
          " is taken"),
    Fault("round31-earned-experts-recent-echo-newest", "PAGING-SORT-ECHO",
          "'Sort criterion in effect' -> the earned expert list asked for sort=recent orders by recency but"
          " reports sort \"newest\" (the site's internal name for it) in the envelope; every other sort and the"
          " active expert list echo the name asked for"),
    Fault("round31-answer-child-space-moderated", "PERM-ANSWER-PUBLISH",
          "'Publish answer (Standard Roles) to publish directly; otherwise the answer goes to moderation.' -> an"
          " answer by a caller holding Publish answer to a question in a child space (a space with a parent"
          " space) goes to moderation: the publish permission is looked up on the parent space's role"
          " configuration, which the site keeps empty; answers in top-level spaces are published"),
    Fault("round31-lock-moderator-admin-node-refused", "PERM-LOCK",
          "'| 13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts"
          " (Moderation Roles). |' -> a caller holding Lock comments on posts but not Edit users and groups"
          " (moderator) is refused (403) locking a node an administrator wrote: a rank check the description does"
          " not state; its locks of every other author's nodes are taken"),
    Fault("round31-user-questions-staff-anonymous-401", "PERM-USER-QUESTIONS",
          "'| 15 User's questions | View the questions list (Anonymous Roles). |' -> an anonymous caller is"
          " refused (401) the question list of a staff user (administrator or moderator): the handler guards"
          " staff profiles; the lists of other users, and signed-in callers, are served"),
    Fault("round31-moderated-comment-date-string", "SHAPE-DATES-MILLIS",  # was SHAPE-LIST-ANSWER-COMMENTS (below)
          "'Epoch time in milliseconds.' (Node creationDate; the comment list's 'paged list of Node items of type"
          " comment') -> in an answer's"
          " comment list a comment that was sent to moderation (shown to its author and to moderators) carries"
          " creationDate as an ISO date string, not epoch milliseconds: it is rendered from the moderation"
          " queue's record; published comments are rendered right"),
    # --- seven of the kinds issue 44 names
    Fault("round31-lock-own-last-active-user", "PERM-LOCK-OWN",
          "'| 13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation"
          " Roles). |' -> ownership on the wrong relation: a caller with Lock comments on own posts only (member)"
          " may lock a question another user wrote once the caller is the question's last active user (it was"
          " the last to answer or comment under it): \"own\" is read from lastActiveUserId"),
    Fault("round31-gdpr-reassign-param-unchecked", "GDPR-REASSIGN-INVALID",
          "'{error: The provided 'reassignUser' is/are invalid}' -> an input form on a rarely tried operation: a"
          " reassignUser given as a request parameter (JSON text in the query) is not looked up, so one that"
          " names no user is taken (201); in the JSON body it is refused as stated"),
    Fault("round31-lock-answer-node-id-question", "ACTION-NODE-ID",
          "'| node | object | id (integer), type (string). |' -> an effect on one node kind: the lock action of an"
          " answer names the answer's question in node.id (the lock is stored on the thread); locks of questions"
          " and comments name the node locked"),
    Fault("round31-active-experts-oldest-by-username", "SORT-EXPERTS-ORDER",
          "'sort must be one of reputation, username, realname, recent, oldest, default' -> a parameter's effect"
          " against its echo: the active expert list asked for sort=oldest echoes oldest but lists in username"
          " order (the case of the sort switch falls through); every other sort, and oldest on the earned list,"
          " order by their key"),
    Fault("round31-gdpr-email-user-empty-operations", "GDPR-OPERATIONS-INVALID",
          "'{error: The provided 'operations' is/are invalid}' with 'At least one and at most 4 elements' -> a"
          " data-protection rule through one stated form of the user: an individual job naming its user by email"
          " with an empty operations list (or none) is scheduled (suspend assumed); by username or id it is"
          " refused as stated"),
    Fault("round31-moderated-answer-commentids-unfiltered", "COMMENT-PRIVACY-IDS",
          "'the comment is private to those recipients' -> a history after a state change: once an answer was"
          " sent to moderation, its commentIds in the user answer list (as its author and moderators read it)"
          " list every comment under it, private ones the reader may not see included"),
    Fault("round31-followers-cache-ignores-active", "FOLLOWERS-ACTIVE-DEFAULT",
          "'When active is true only active relations are returned; when false all relations, including inactive"
          " ones.' -> read order and a cache: a node's follower list is kept for 2 s under a key built without"
          " active, so a read right after one with another active value gets that read's page (a default read"
          " after active=false counts the inactive relations)"),
)

_MISSED_REASONS: dict[str, str] = {
    "round31-gdpr-formatted-hour-00-refused":
        "missed on the session's start suites and after fix32 (no test naming GDPR-DATE-FORMATTED failed): the date"
        " is checked last, so only an accepted job (or a refusal of its taken frame) meets it, and a default run"
        " accepts two formatted jobs: the main job's far frame, whose afternoon hour and day above 12 are what catch"
        " a 12-hour or day-first parser (blindc, round16), and the second job's, which on a profile with"
        " gdpr_near_edge (the reference server's) is the earliest minute ahead in every zone, its hour set by the"
        " clock; one job more at hour 00 would be a 99th accepted write (suites at 81 of 81)",
}
"""Missed on the day's suites, measured with ``qaconform selftest --fault NAME --no-clean`` before any suite was
read (docs/blind-rounds.md). None is an allowed reading, and each can be tried within the default write budget."""

# BLIND_round31: Caught on the day's suites, or after fix31's widenings (an id past 32 bits, a job's array and object
# fields as request parameters), fix32's, or renamed: round31-moderated-comment-date-string was written for SHAPE-
# LIST-ANSWER-COMMENTS and is charged SHAPE-DATES-MILLIS, whose sentence ("Epoch time in milliseconds") it breaks
# (session 11, as round29-user-questions-later-page-date-string was): registered in faults.py.
# BLIND_round31_MISSED: Missed on the day's suites, not registered (still wired in :mod:`blind_round31`): the
# integrator measures them again on the session's final suites, on a trial branch that registers them.
BLIND_round31, BLIND_round31_MISSED = split_missed(_ALL, _MISSED_REASONS)
