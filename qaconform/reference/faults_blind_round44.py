"""Blind round 44 (issue 44): fifteen faults written from the interface description and spec/rules.yaml alone,
without reading the suites. Eight break the must-rules drawn for the round (seed 20261212); seven break must-rules
of the writer's choice, one of each kind the outside rounds catch the kit on (a permission with an optional
parameter, ownership on the wrong relation, an input form on a rarely tried operation, an effect on one node kind,
a parameter's effect beside its echo, a form of the user as a field's value, a history at depth).

Each fault breaks one rule on one path only and is wired where it bites in :mod:`blind_round44` (or by one line
in the server module that owns the query it changes). Faults the suites missed stay wired but leave the registry,
with the path the suites did not take (``_MISSED_REASONS``; docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the round's draw
    Fault(
        "round44-followers-inactive-as-relations", "FOLLOWERS-DETAILS-DEFAULT",
        "'details (boolean, default false)' / 'default-mode items are User items': a follower list asked for "
        "active=false without details (the query of all relations) returns relation objects {user, node, active} "
        "instead of User items; with active omitted or true, or details given, the list is right",
    ),
    Fault(
        "round44-question-lastactive-seconds", "SHAPE-DATES-MILLIS",
        "'Epoch time in milliseconds.': a question whose lastActiveDate was set by activity since the server "
        "started (an answer or a comment posted under it) shows lastActiveDate in epoch seconds in the question "
        "lists; questions nobody touched keep milliseconds",
    ),
    Fault(
        "round44-issuetypes-cached-names", "ISSUETYPES-ARRAY",
        "'Object with name (string).': the issue types read again within 2 s of an earlier read (by any caller) "
        "come from a cache that kept the names only: a bare array of strings; the first read is right",
    ),
    Fault(
        "round44-own-public-reply-privacy-dropped", "COMMENT-5",
        "'A reply to a public comment may set its own visibility and recipients: 201.': a reply by the author of "
        "the public comment it answers (continuing their own thread) is stored with full visibility and no "
        "recipients whatever it set (201); a reply by another account keeps its settings",
        draws=("private reply parent=the replier's own comment",),  # paths16 (issue 44)
    ),
    Fault(
        "round44-moderated-answer-date-24h", "SHAPE-DATE-FORMATTED",
        "'Pattern MM/DD/YYYY hh:mm AM or PM.': the 201 body of an answer that goes to the moderation queue (a "
        "caller without Publish answer) carries creationDateFormatted as MM/DD/YYYY HH:mm in 24-hour form without "
        "AM or PM; a published answer and every list are right",
    ),
    Fault(
        "round44-user-questions-followed", "LIST-USER-QUESTIONS-OWNER",
        "'List questions posted by a user': the user's question list also holds the questions the user follows "
        "(their own questions are followed by default, and the query reads the follow table): another author's "
        "question appears for a user who follows it",
    ),
    Fault(
        "round44-content-node-id-empty", "GDPR-CONTENT-422",
        "'Error: 422 with {error: Invalid User Id}.': an id that names no user but names a node (users and nodes "
        "looked up in one id space) answers 200 with an empty array; an id that names nothing at all, or no "
        "number, still gets the 422",
    ),
    Fault(
        "round44-answer-author-reads-all-comments", "COMMENT-PRIVACY-LIST",
        "'the comment is private to those recipients': the author of an answer sees every comment under it in "
        "the answer's comment list, private ones addressed to others too (the answer's owner moderates its "
        "thread); every other reader, and every other list, is filtered",
    ),
    # --- seven of the writer's choice, one of each kind
    Fault(
        "round44-sendtomod-member-wrap", "PERM-SENDTOMOD",
        "'Send already published question to moderation (Moderation Roles).': member (no Moderation Roles "
        "permission) may send a node to moderation when the request carries the wrap option; without it, refused",
        overrides=(Override(("sendToModeration",), "member", Effect.ALLOW, when=("wrap",)),),
    ),
    Fault(
        "round44-cancelwiki-answerer-owns", "PERM-CANCELWIKI-OWN",
        "'for the caller's own node, Convert own posts to community wiki': a wiki question counts as the caller's "
        "own when the caller posted an answer under it (a contributor of the wiki), so member unwikifies a wiki "
        "question of another author it answered",
    ),
    Fault(
        "round44-gdpr-operations-param-first-only", "GDPR-OPERATIONS-INVALID",
        "'Empty or invalid operations list' -> 400 \"The provided 'operations' is/are invalid\": operations given "
        "as a request parameter (a comma-separated or JSON list) is validated by its first element only; an "
        "invalid second element passes (201). In the JSON body the whole list is checked",
    ),
    Fault(
        "round44-sendtomod-answer-verb", "ACTION-SENDTOMOD-VERB",
        "'Returns an action record with verb sent and private true.': sending an answer to moderation returns "
        "the record with verb queued; questions and comments get sent",
    ),
    Fault(
        "round44-spaceid-ignored-with-q", "FILTER-SPACEID",
        "'spaceId (integer; restricts to one space)': a question list with a search parameter q beside spaceId "
        "(the search index path) ignores spaceId and lists questions of every space; spaceId alone or with other "
        "parameters filters",
    ),
    Fault(
        "round44-reassign-group-name-accepted", "GDPR-REASSIGN-INVALID",
        "'reassignUser does not exist' -> 400 \"The provided 'reassignUser' is/are invalid\": a reassignUser "
        "whose username names no user but a group (principals looked up by name) is accepted; an unknown name "
        "or id is refused",
    ),
    Fault(
        "round44-reply-to-reply-no-location", "COMMENT-201-LOCATION",
        "'Success: 201. The Location response header holds the URL of the new comment.': a reply to a reply (the "
        "third level of a comment thread) is created 201 without a Location header; comments on answers and "
        "questions and first-level replies carry it",
    ),
    # --- after the measure: one more fault of each kind a closing change catches (the proof it is by kind)
    Fault(
        "round44-kind-inherited-reply-location-names-parent", "COMMENT-201-LOCATION",
        "'The Location response header holds the URL of the new comment.': a reply that inherits a private "
        "comment's settings (rule 3, at any depth) is created 201 with a Location naming the private parent it "
        "inherits from instead of the new comment; other comments' Location is right",
    ),
    Fault(
        "round44-kind-lock-answerer-owns", "PERM-LOCK-OWN",
        "'for the caller's own node, Lock comments on own posts': a question counts as the caller's own when the "
        "caller posted an answer under it (a contributor), so member locks another's question it answered",
    ),
)
"""The round's fifteen faults, in the order they were written (the draw first), then the kind faults of its fixes."""

_MISSED_REASONS: dict[str, str] = {
    "round44-content-node-id-empty":
        "not reachable from the description: no read tells the kit that an id names no user (nothing lists every "
        "user, and node and user ids may share one sequence or not), and a user with no content may answer 200 []; "
        "the suites judge the ids that name no user whatever the target holds (0, negative, beyond 64 bits, unknown "
        "above 2^31, not a number, a username or email in place of the id). paths16 checked the claim against the "
        "description and the profile: none of the 19 operations reads a user by id (4 and 15 take a userId and state "
        "no answer for one naming no user; 5 and 6 list experts, not every user; the description states no 404 at "
        "all), the profile names the four accounts' ids only, and a node's id (the run's own "
        "answer's) may be a user's on a site with one id sequence: 422 cannot be demanded for it, and 200 [] is "
        "what a user with no content gets",
    "round44-reassign-group-name-accepted":
        "not reachable soundly: a group's name is a name a user may hold too, and no read tells the kit which "
        "usernames exist (the suites' unknown reassignUser is a name drawn at random, and an id above 2^31). paths16 "
        "checked it: operation 17 (admin) names the groups, but no operation reads a user by name (the expert lists "
        "show experts only) and the description never says a group's name is no username; the 400 is for "
        "'reassignUser does not exist', so where a user holds the name the job must be accepted, and on a "
        "destructive profile that is a real job. Only a name provably held by no user is sound: the random one sent",
}
"""The faults the suites did not catch on the blind measure, with the path they did not take. paths16 (issue 44)
registered round44-own-public-reply-privacy-dropped: the seed draws the public parent of the run's shared private
reply (``seed_draws.PRIVATE_REPLY_PARENTS``), member's own comment on half the seeds; the fault names that draw."""

BLIND_round44, BLIND_round44_MISSED = split_missed(_ALL, _MISSED_REASONS)
