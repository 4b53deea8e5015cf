"""Blind round 38 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code, without reading the suites. Seven break one must-rule each of the round's random draw
(seed 20261208); eight break must-rules of the writer's choice, one of each kind outside rounds catch us on (a
permission with an optional parameter, ownership on the wrong relation, an input form on a rarely tried operation,
one node kind, a parameter's effect, a data-protection form of the user, a history after a state change, read order
and caches). Each breaks its rule on one path only and behaves correctly everywhere else; their code is
blind_round38.py (and the small hooks it names in the server modules).
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_F = Fault

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    _F("round38-own-questions-no-sorts", "PAGING-SORTS-QUESTIONS",
       "A user's question list read by that user itself (the 'my questions' view, served by its own serializer) "
       "carries no sorts array; read by anyone else it does. Breaks: sorts is 'Present on question and comment "
       "lists.'"),
    _F("round38-recipients-trimmed-to-reader", "COMMENT-VISIBILITY-RETURNED",
       "In an answer's comment list, a private comment with two or more recipients, read by one of its recipients "
       "who is not its author, lists only that reader as recipient (the others 'protected'). Breaks: 'Both "
       "visibility and recipients are returned when a comment is retrieved'."),
    _F("round38-cancelwiki-actiondate-no-zone", "SHAPE-ACTIONDATE",
       "The wiki action returned by cancelwiki when the caller is not the node's author (a moderator's cancel) "
       "has actionDate in a textual form without its time zone (Mon Nov 30 21:50:00 2026). Breaks: actionDate is "
       "'Either YYYY-MM-DD HH:MM:SS.S or a textual form like weekday month day time zone year.'"),
    _F("round38-unfavorite-newest-holder", "ACTION-UNFAVORITE-PER-USER",
       "Unfavoriting a node several users hold as favorite removes the NEWEST favorite of the node (and cancels "
       "that action), not the caller's, when the caller's is not the newest; the caller whose favorite is the "
       "newest is served right. Breaks: 'Favorites are per user; the user is taken from the credentials.'",
       draws=("unfavorite order=admin first",)),
    _F("round38-topics-invalid-sort-v1-oldest", "SORT-FALLBACK-TOPICS",
       "The topic list asked with an invalid sort name and the v1 option lists oldest first (the legacy branch's "
       "own fallback); without v1, or v1 without a sort, the default order. Breaks: 'On the space, topic and "
       "group lists an invalid sort name makes the request fall back to the default sort.'"),
    _F("round38-issuetypes-enveloped-from-cache", "LIST-ARRAY-ISSUETYPES",
       "A read of the issue types within 3 seconds of an earlier one is served from the tracker cache, which keeps "
       "the list in the paged envelope; the first read is the bare array. Breaks: 'Response: 200, a JSON array of "
       "objects with name (string).'"),
    _F("round38-novice-explicit-full-refused", "PERM-COMMENT",
       "A comment sent with the full visibility named explicitly by a caller without Use Private Comments (novice) "
       "is refused 403: the privacy permission is checked when the field is present, whatever its value. Breaks: "
       "'| 1 Post comment | Comment (Other Standard Roles); View answers in the question page and View the "
       "question page (Anonymous Roles).'"),
    # --- eight of the writer's choice, one of each kind
    _F("round38-topics-search-anonymous-refused", "PERM-TOPICS",
       "A permission with an optional parameter: the topic list searched (q given) refuses anonymous with 401 "
       "(the search needs a session); the list without q is served. Breaks: '| 14 Topics | View users list "
       "(Anonymous Roles). |'"),
    _F("round38-lock-own-reply-by-thread-root", "PERM-LOCK-OWN",
       "Ownership on the wrong relation: for a reply (a comment under a comment) 'own' is decided by the author "
       "of the thread's first comment, so member may lock another's reply under member's comment and is refused "
       "its own reply under another's comment. Breaks: '| 13 Lock | Lock comments on posts; for the caller's own "
       "node, Lock comments on own posts (Moderation Roles). |'"),
    _F("round38-reply-recipient-string-id-dropped", "COMMENT-RECIPIENT-ID-FORMS",
       "An input form on a rarely tried write: on a reply to a PUBLIC comment (comment rule 5), recipients whose "
       "id is a string are dropped (only integer ids kept), so the reply is refused for want of recipients or "
       "misses them; on an answer or a question both forms are taken. Breaks: 'Each item has id (integer or "
       "string).'"),
    _F("round38-gdpr-email-user-timestamp-refused", "GDPR-USER-FORMS",
       "A data-protection form of the user: an individual job whose user is given by email and whose scheduleDate "
       "is given as timeStamp is refused as missing the user (the time-stamp branch re-reads the user by username "
       "only); with the formatted date, or a user by id or username, it is taken. Breaks: user is 'Exactly one of "
       "username, email, id.'"),
    _F("round38-sendtomod-comment-node-is-parent", "ACTION-NODE-ID",
       "One node kind: the record of a comment sent to moderation names the comment's parent as its node "
       "(node.id is the parent's id); questions and answers are named right. Breaks: the record's 'node | object "
       "| id (integer), type (string).' is the node acted on."),
    _F("round38-followers-active-false-inactive-only", "FOLLOWERS-ACTIVE-DEFAULT",
       "A parameter's effect: the follower list with details=true and active=false lists only INACTIVE relations "
       "(false read as 'inactive'), so it can count fewer than active=true; without details active=false is "
       "right. Breaks: 'When active is true only active relations are returned; when false all relations, "
       "including inactive ones.'"),
    _F("round38-reply-to-moderated-private-public", "COMMENT-3",
       "A history after a state change: a reply to a private comment that has been sent to moderation is stored "
       "with full visibility (the inheritance reads the parent from the published view, which no longer has it). "
       "Breaks: 'A reply to a private comment without privacy fields, or with the same ones, inherits the "
       "parent's settings: 201.'"),
    _F("round38-earned-experts-cached-for-anonymous", "EXPERTS-401",
       "Read order and caches: the earned expert list is kept by URL for a second after a signed-in read, and an "
       "anonymous read of the same URL within that second is served the kept list with 200 instead of 401. "
       "Breaks: missing credentials give 401 with 'Either JSON {errors: {message: <text saying the caller lacks "
       "permission and should log in as another user>}} or an HTML error page titled HTTP Status 401 - Bad "
       "credentials'."),
)

_ALL += (
    # --- closed by kind after reading the suites: one more fault of each closed kind, caught by the same change
    _F("round38-kind-reply-recipients-first-only", "COMMENT-VISIBILITY-RETURNED",
       "The kind of round38-recipients-trimmed-to-reader on another path: in an answer's comment list, a REPLY "
       "private to two or more recipients, read by a recipient who is not its author, lists only the first of its "
       "recipients; a first-level comment is listed right. Breaks: 'Both visibility and recipients are returned "
       "when a comment is retrieved'."),
    _F("round38-kind-explicit-full-on-reply-400", "SHAPE-POST-COMMENT",
       "The kind of round38-novice-explicit-full-refused on another rule and path: a comment on a comment (a reply, "
       "public parent) that names the full visibility explicitly is refused 400 'Visibility on comment can't be "
       "defined since it's inherited', whoever sends it; without the field, or on an answer or a question, it is "
       "created. Breaks: 'Success: 201. The Location response header holds the URL of the new comment.'"),
)

_MISSED_REASONS: dict[str, str] = {
    "round38-reply-to-moderated-private-public": "missed blind and not closed: it needs an accepted reply under a "
    "private comment once that comment is in moderation; the privacy model's send (subtree_moderation.py) moves a "
    "leaf and tries only rule 4's refusal under it. One accepted write more (whether a node in moderation takes "
    "comments is not stated, so a refusal would skip): a trade not made this session. paths15 judged it again: no "
    "read or refusal reaches it (the fault changes what an ACCEPTED inheriting reply is stored with; a refused reply "
    "stores nothing, and a seeded reply never goes through the post), so it needs the suites' share at 82 or "
    "another accepted reply given up for it. paths16 looked again: the privacy model's send could move before an "
    "existing reply under the moved comment, but whether a node in moderation takes comments is not stated "
    "(a target may refuse it): a refused reply ends that chain, and its own checks (rules 3 and 4 at "
    "depth, the Location) would be lost on such targets for a rule tried only where the reply is taken."
    " accept24 (twenty-second session): not reached; the suites' share is full (83 of 83 at seed 20260801, "
    "after moderator's lock of the unwikified node)",
}
"""Faults of the round missed on the day's suites and left out of the registry, each with its reason. Blind measure
(``qaconform selftest --fault NAME --no-clean --jobs 1``, the 15 in one run): 10 of 15 caught. After the fixes 12 of
15: round38-recipients-trimmed-to-reader (every read-back of a comment's recipients in comment privacy names
COMMENT-VISIBILITY-RETURNED too) and round38-novice-explicit-full-refused (the shared plain comment of the account
without Use Private Comments names the full visibility) caught and registered (docs/blind-rounds.md). seed15: 13 of 15,
round38-unfavorite-newest-holder registered: caught in admin-first order of favorite_node_id's two unfavorites, which
it names (``draws``); the self-test runs it at the first seed from its own that draws that order. paths15: 14 of 15,
round38-lock-own-reply-by-thread-root registered (the found-relations walk reads the public replies in the comment lists
it reads, found_relations.REPLY, and the reference seed holds novice's public reply under member's seeded
comment: member's refused lock of it fails PERM-LOCK-OWN)."""

# BLIND_round38: the faults of the round that stay in the registry: caught. BLIND_round38_MISSED: left out of the
# registry, each with its reason in _MISSED_REASONS; their code stays in blind_round38.py (switched on by no name the
# registry knows).
BLIND_round38, BLIND_round38_MISSED = split_missed(_ALL, _MISSED_REASONS)
