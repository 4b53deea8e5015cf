"""Blind round 90 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261211, the second draw of a new cycle: seven of the fourteen drawn from the must-rules rounds 86 to 88 did
not take); eight break rules of the kinds the outside rounds catch us on (a permission with an optional parameter,
ownership on the wrong relation, an input form, an effect on one node state, a sort whose echo is right, a
data-protection form of the user, a rule after a state change, a list a cache keeps by its URL). Each bites on one path
only; the hooks are in :mod:`blind_round90`.

Registered: the faults the self-test catches (``BLIND_round90``); the others stay wired but out of the registry
(``BLIND_round90_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS`` (docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round90-content-next-user-id-empty", "GDPR-CONTENT-422",
        "A user's content list asked with the id one above the highest user id (the id the users sequence hands out "
        "next) answers 200 with an empty array (the id validator compares with the sequence's next value, <= "
        "instead of <); ids further out, and every other unknown id, give 422 {error: Invalid User Id}: breaks "
        "'Error: 422 with {error: Invalid User Id}.' for that one id only.",
    ),
    Fault(
        "round90-novice-answer-child-space-500", "ANSWER-MODERATION",
        "An answer by a caller with Answer questions but without Publish answer (novice) to a question in a CHILD "
        "space (Product Help, under Products) fails 500 (the moderation queue is looked up by the question's own "
        "space, and only top-level spaces have one); under questions of top-level spaces it is created, and "
        "published answers are created everywhere: breaks 'Caller has Answer questions but not Publish answer | In "
        "the moderation queue | Answer is created.' in a child space only.",
    ),
    Fault(
        "round90-active-recent-badges-string", "SHAPE-LIST-ACTIVE-EXPERTS",
        "The active expert list sorted by recent gives each user's gold, silver and bronze badge counts as strings "
        "(the recent sort's native query reads the badge columns through a string aggregate); other sorts, and the "
        "earned list, give integers: breaks 'Response: 200, paged list of User items.' (gold, silver, bronze | "
        "integer) with sort=recent only.",
    ),
    Fault(
        "round90-cancelwiki-moderator-locked-wiki-refused", "PERM-CANCELWIKI",
        "A caller with Mark as community wiki (moderator, admin) is refused 403 when unwikifying ANOTHER account's "
        "wiki node that is LOCKED (the lock plugin's edit guard runs before the wiki permission: only the locker may "
        "edit); unlocked wiki nodes, and the caller's own, are served: breaks '| 11 Unwikify | Mark as community "
        "wiki; for the caller's own node, Convert own posts to community wiki. |' after a lock only.",
    ),
    Fault(
        "round90-form-reply-to-private-not-inherited", "COMMENT-3",
        "A reply to a PRIVATE comment whose fields come form-encoded (application/x-www-form-urlencoded) without "
        "privacy fields is stored with full visibility and no recipients (the form binder builds the comment "
        "without the inheritance step); a JSON reply, or one given as parameters, inherits: breaks 'A reply to a "
        "private comment without privacy fields, or with the same ones, inherits the parent's settings: 201.' for a "
        "form-encoded reply only.",
    ),
    Fault(
        "round90-gdpr-past-timestamp-suspend-only-accepted", "GDPR-DATE-TIMESTAMP",
        "An individual job whose operations are ['suspend'] alone and whose scheduleDate is a timeStamp in the past "
        "is scheduled 201 (a suspension is taken as immediate, so its timeStamp skips the past check); other "
        "operation lists, and a past formatted date, are refused as past: breaks 'Either formatted (...) or "
        "timeStamp.' (a past moment given as timeStamp refused as past) for a suspend-only job only.",
    ),
    Fault(
        "round90-answer-comments-sorted-sorts-string", "PAGING-SORTS-COMMENTS",
        "An answer's comment list asked WITH the sort parameter carries sorts as one comma-separated string (the "
        "sorted controller copies the sort menu's label); without sort it is an array: breaks 'Response: 200, paged "
        "list of Node items of type comment, with the sorts array.' when sort is given only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round90-sendtomod-moderator-v1-refused", "PERM-SENDTOMOD",
        "Send to moderation asked with the v1 option refuses moderator 403 (the v1 controller checks Site "
        "Administration's Edit users and groups on top of the stated permission); without v1, and for admin, it is "
        "served: breaks '| 12 Send to moderation | Send already published question to moderation (Moderation "
        "Roles). |' with v1 for moderator only.",
        overrides=(Override(("sendToModeration",), "moderator", Effect.DENY, when=("v1",)),),
        draws=("shared call options=moderator's send, admin's and member's locks",),  # place25: its send's options
    ),
    Fault(
        "round90-cancelwiki-own-by-comment-recipient", "PERM-CANCELWIKI-OWN",
        "A caller with Convert own posts to community wiki only (member) may unwikify ANOTHER account's wiki node "
        "when one of the node's comments is private to the caller (own read from the node's participants, "
        "recipients included); other nodes of others are refused: breaks '| 11 Unwikify | Mark as community wiki; "
        "for the caller's own node, Convert own posts to community wiki. |' for a recipient of a comment on the node "
        "only.",
    ),
    Fault(
        "round90-reply-body-param-beside-json-ignored", "CONV-PARAM-AS-BODY-FIELD",
        "A REPLY (a comment on a comment) whose JSON body has no body field and whose body comes as a request "
        "parameter is refused 400 for a missing body (the reply controller binds the JSON body alone); on questions "
        "and answers, and for a reply sent all as parameters, the parameter counts: breaks 'each body field may "
        "also be given as a request or query parameter of the same name' for a reply with a JSON body only.",
        draws=("private reply form=query",),  # placements (issue 44): the shared private reply's form is drawn
    ),
    Fault(
        "round90-cancelwiki-accepted-question-node-names-answer", "ACTION-NODE-ID",
        "Unwikifying a wiki QUESTION that has an accepted answer (nodeStates accepted, marked) returns the wiki "
        "action whose node names the accepted answer (id and type answer: the marked question's action is written "
        "against the thread's node in focus); questions without an accepted answer, and answers, name themselves: "
        "breaks '| node | object | id (integer), type (string). |' of the action record on accepted questions only.",
        draws=("wiki node kind=an accepted question",),  # seed_draws.WIKI_NODE_KINDS: the unwikify's drawn node
    ),
    Fault(
        "round90-earned-recent-wrap-oldest-first", "SORT-EXPERTS-ORDER",
        "The earned expert list asked with sort=recent AND the wrap option lists each page oldest first (the "
        "wrapped query's ORDER BY loses its DESC) while echoing sort recent; without wrap the newest come first: "
        "breaks 'sort must be one of reputation, username, realname, recent, oldest, default' (recent ordered newest "
        "first) with wrap only.",
    ),
    Fault(
        "round90-gdpr-reassign-unknown-string-id-accepted", "GDPR-REASSIGN-INVALID",
        "A job whose reassignUser names a user by an id given as a STRING of digits that names no user is scheduled "
        "201 without the reassignment (the string id is never looked up); an unknown integer id, or an unknown "
        "username, is refused: breaks '| 400 | Schedule job | reassignUser does not exist | {error: The provided "
        "'reassignUser' is/are invalid} |' for a string id only.",
    ),
    Fault(
        "round90-moderated-answer-comment-recipients-unchecked", "COMMENT-6",
        "A comment on an answer that was SENT TO MODERATION, giving recipients while visibility is not recipients, "
        "is accepted 201 with the recipients dropped (the moderation queue's comment path skips the privacy "
        "validator); on published nodes it is 400: breaks 'recipients given while visibility is not recipients "
        "gives 400.' under an answer in moderation only.",
    ),
    Fault(
        "round90-questions-exclude-later-page-kept-by-url", "PROJ-SAME-ITEMS",
        "The question list asked with exclude on page 2 or later is kept 3 s by its URL, whoever reads it (the "
        "projection cache covers later pages only): a reader of that URL right after an administrator gets the "
        "administrator's page, whose items are not the reader's page of the plain list (and may hold hidden-space "
        "questions): breaks the projection convention (a projection limits fields, not items; 'Only items the caller "
        "may see are returned.') in that read order only. Written under PROJ-ONLY-VISIBLE; relabelled after the "
        "measure to the should-rule the kit blamed (test_list_relations.py, the projected walk lacks the plain "
        "walk's items).",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_MISSED_REASONS: dict[str, str] = {}

BLIND_round90, BLIND_round90_MISSED = split_missed(_ALL, _MISSED_REASONS)
