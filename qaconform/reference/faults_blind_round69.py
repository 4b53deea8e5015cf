"""Blind round 69 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn for the
round (seed 20261202, 21 must-rules dealt to rounds 67 to 69); eight break rules of the kinds the outside rounds
catch us on (a permission with an optional parameter, ownership on the wrong relation, an input form with a charset,
an effect on one node kind, a sort whose echo is right, a data-protection form of the user, a history, a list a cache
keeps by its URL). Each bites on one path only; the hooks are in :mod:`blind_round69`.

Registered: the faults the self-test catches (``BLIND_round69``); the others stay wired but out of the registry
(``BLIND_round69_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS``
(docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round69-sendtomod-answer-node-question", "ACTION-NODE-ID",
        "Sending an ANSWER to moderation returns a record whose node.id is the answer's question (the moderation "
        "queue keys its entries by thread): breaks '| node | object | id (integer), type (string). |' (node.id is "
        "the nodeId of the path) for answers only.",
    ),
    Fault(
        "round69-cancelwiki-own-node-wiki-action-key", "SHAPE-CANCEL-WIKI",
        "A caller who unwikifies their OWN node through Convert own posts to community wiki (without Mark as "
        "community wiki) gets {success, result: {wikiAction: ...}} (the convert-own controller names its key after "
        "itself): breaks 'Response: 200 with {success: boolean, result: {wikifyAction: <Action record>}}.' on that "
        "permission path only.",
    ),
    Fault(
        "round69-comment-op-visibility-read-as-recipients", "COMMENT-VISIBILITY-RETURNED",
        "On an answer's comment list, a comment private to the original poster (visibility op) is returned as "
        "visibility recipients with the question's author as its one recipient (the option is materialized when "
        "read): breaks 'Both visibility and recipients are returned when a comment is retrieved' (as they were set) "
        "for the op option only.",
    ),
    Fault(
        "round69-answer-comments-empty-page-no-sorts", "PAGING-SORTS-COMMENTS",
        "An answer's comment list whose page holds no item (an answer without comments, a page past the last) lacks "
        "sorts (the sort names are collected from the page's items): breaks 'Response: 200, paged list of Node items "
        "of type comment, with the sorts array.' on empty pages only.",
    ),
    Fault(
        "round69-answer-form-plug-empty-string", "ANSWER-PLUG-NULL",
        "An answer posted form-encoded (application/x-www-form-urlencoded) carries plug \"\" (the form binder fills "
        "every unset string field with an empty string): breaks '| plug | null | Present on a newly posted answer; "
        "it is null there. |' for the form input only.",
    ),
    Fault(
        "round69-unfavorite-returns-other-holders-action", "ACTION-UNFAVORITE-CANCELED",
        "Unfavoriting a node ANOTHER account also holds as a favorite returns that account's favorite action, still "
        "active (canceled false): the record is reloaded by node, not by node and user: breaks 'Returns the favorite "
        "action with canceled true and the updated favoriteCount.' on nodes with a second holder only.",
    ),
    Fault(
        "round69-sendtomod-locked-node-verb-locked", "ACTION-SENDTOMOD-VERB",
        "Sending a LOCKED node to moderation returns a record with verb locked (the verb is derived from the node's "
        "state flags, lock tested first): breaks 'Returns an action record with verb sent and private true.' on "
        "locked nodes only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round69-groups-includeonly-any-account", "PERM-GROUPS",
        "With includeOnly given, the group list is served to any signed-in account (the projection fast path checks "
        "only Use site): breaks '| 17 Groups | Edit users and groups (Site Administration Roles). |' with includeOnly "
        "only.",
        overrides=(Override(("listGroups",), "signed-in", Effect.ALLOW, when=("includeOnly",)),),
    ),
    Fault(
        "round69-lock-comment-parent-author-owns", "PERM-LOCK-OWN",
        "A caller holding Lock comments on own posts (not on every post) locks another's COMMENT on their own answer "
        "(ownership read from the comment's parent): breaks 'Lock comments on posts; for the caller's own node, Lock "
        "comments on own posts' for the parent's author only.",
    ),
    Fault(
        "round69-comment-json-charset-recipients-lost", "COMMENT-2",
        "A comment sent as JSON with Content-Type application/json; charset=UTF-8 loses its recipients array (the "
        "charset body goes through the flat-field reader, which keeps strings only): breaks 'When visibility is "
        "recipients and recipients lists ids, the comment is private to those recipients and a GET returns the given "
        "settings.' for that Content-Type only.",
    ),
    Fault(
        "round69-cancelwiki-answer-stays-wiki", "ACTION-CANCELWIKI-NOT-WIKI",
        "Unwikifying an ANSWER returns the canceled wiki action but the answer stays wiki (the answer's cached row "
        "is written back): breaks 'Wikified node (wiki true) | PUT cancelwiki | ... | Not wiki (closed for "
        "editing)' for answers only.",
        draws=("wiki node kind=an answer",),  # wiki20 (issue 44): the seed draws an unwikified answer
    ),
    Fault(
        "round69-active-experts-oldest-as-recent", "SORT-EXPERTS-ORDER",
        "The active expert list asked for sort=oldest is ordered as recent (newest first; the sort table maps both "
        "names to the one creation-date comparator) while the envelope echoes oldest: breaks 'sort must be one of "
        "reputation, username, realname, recent, oldest, default' (each orders by its key) for that sort on that "
        "list only.",
    ),
    Fault(
        "round69-gdpr-reassign-id-string-refused", "GDPR-REASSIGN-FORMS",
        "A job whose reassignUser names the user by id given as a STRING (\"6\") is refused 400 \"The provided "
        "'reassignUser' is/are invalid\" (the lookup compares the id with its type): breaks 'Identifies the user to "
        "whom content is reassigned, by exactly one of username or id.' for the string id only.",
    ),
    Fault(
        "round69-lock-moderated-node-extra-lost", "ACTION-LOCK-EXTRA",
        "Locking a node that was sent to moderation before returns a lock action with extra null (the moderation "
        "queue's lock path drops the prompt): breaks 'The prompt is stored as extra of the returned lock action.' "
        "after a send to moderation only.",
    ),
    Fault(
        "round69-projected-questions-kept-by-url", "PROJ-ONLY-VISIBLE",
        "A question list read with includeOnly is kept 2 s by its URL whoever reads it: a read within 2 s of "
        "another account's read of the same URL gets that account's items (hidden-space questions after an admin's "
        "read): breaks 'Only items the caller may see are returned.' on that read order only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_MISSED_REASONS: dict[str, str] = {
    "round69-gdpr-reassign-id-string-refused":
        "a reading the description allows (round64-gdpr-user-id-string-refused's): reassignUser identifies the user "
        "'by exactly one of username or id' with no type for the id; a user's id is an integer wherever the "
        "description types it, and where a string is allowed it says so (recipients: 'id (integer or string)'); the "
        "contract's schema reads it as an integer, so a refusal of the id as text breaks no stated rule",
}

BLIND_round69, BLIND_round69_MISSED = split_missed(_ALL, _MISSED_REASONS)
