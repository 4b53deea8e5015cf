"""Blind round 89 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261211, the second draw of a new cycle: 14 drawn from the 126 must-rules rounds 86-88 did not draw, seven
dealt to each of rounds 89, 90); eight break rules of the kinds the outside rounds catch us on (a permission with an
optional parameter, ownership on the wrong relation, an input form with a charset, an effect on one node state, a
parameter whose echo is right, a data-protection form of the user, a history, a count a cache keeps by its path).
Each bites on one path only; the hooks are in :mod:`blind_round89`.

Registered: the faults the self-test catches (``BLIND_round89``); the others stay wired but out of the registry
(``BLIND_round89_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS`` (docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round89-gdpr-reassign-username-is-email", "GDPR-REASSIGN-INVALID",
        "A job whose reassignUser gives as username the EMAIL of an existing user (no user has that username) is "
        "scheduled 201 (the reassign lookup goes through the login-name finder, which matches a username or an "
        "email) when the job's user is given by username or id; an unknown name is refused: breaks '{error: The "
        "provided 'reassignUser' is/are invalid}' (reassignUser does not exist) for that value only.",
    ),
    Fault(
        "round89-answer-parent-author-not-signed-in", "ANSWER-PARENT-FIELDS",
        "The 201 of an answer to a question whose author has not signed in since the server started carries "
        "parentAuthor with username null (parentAuthor is read from the session's user cache, which holds only "
        "users seen since start); questions of the demo accounts are right: breaks '| parentAuthor | object | "
        "username, realname (string or null). Present on a newly posted answer. |' for such authors only.",
    ),
    Fault(
        "round89-sendtomod-comment-result-bare", "ACTION-WRAPPERS",
        "Sending a COMMENT to moderation answers {success: true, result: <the action record>} without the "
        "sendToModAction key (the comment controller returns the record as the result); questions and answers are "
        "right: breaks 'Response: 200 with {success: boolean, result: {sendToModAction: <Action record>}}.' for "
        "comments only.",
    ),
    Fault(
        "round89-answer-comments-later-page-private-shown", "COMMENT-PRIVACY-LIST",
        "An answer's comment list asked for page 2 or later lists every comment of the answer, private ones "
        "included, whoever reads it (the next-page query is built without the privacy clause); page 1 is "
        "filtered: breaks 'the comment is private to those recipients' on later pages only.",
    ),
    Fault(
        "round89-lock-child-space-moderator-refused", "PERM-LOCK",
        "A moderator (Lock comments on posts, no site administration role) is refused 403 locking a node of a "
        "CHILD space (a space with a parent: the moderation permission is looked up on the child space's own "
        "role table, which inherits nothing); nodes of top spaces are locked: breaks '| 13 Lock | Lock comments "
        "on posts; for the caller's own node, Lock comments on own posts (Moderation Roles). |' in child spaces.",
    ),
    Fault(
        "round89-gdpr-type-empty-string-bulk", "GDPR-BULK-NO-TYPE",
        "A job whose type is the EMPTY STRING and which carries a csvFileId is scheduled 201 as a bulk job (the "
        "binder treats a blank type as absent and infers it from csvFileId); a job with no type key is refused: "
        "breaks 'Required: a bulk request without type is shown as incorrect.' for a blank type only.",
    ),
    Fault(
        "round89-answer-body-param-no-publish-refused", "PERM-ANSWER",
        "A caller holding Answer questions but not Publish answer (novice) is refused 403 when the answer's body "
        "comes as a request parameter (the parameter-bound path checks Publish answer instead of Answer "
        "questions); in a body it is taken: breaks '| 7 Post answer | Answer questions (Standard Roles).' for that "
        "input form and account only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round89-followers-includeonly-member-refused", "PERM-FOLLOWERS",
        "A node's follower list asked with includeOnly refuses member 403 (the projected path asks for Edit users "
        "and groups); without includeOnly, or for other accounts, it is served: breaks '| 16 Followers | View "
        "users list (Anonymous Roles). |' with includeOnly for member only.",
        overrides=(Override(("listNodeFollowers",), "member", Effect.DENY, when=("includeOnly",)),),
    ),
    Fault(
        "round89-lock-own-favorite-holder", "PERM-LOCK-OWN",
        "A caller holding Lock comments on own posts but not Lock comments on posts (member) may lock another's "
        "node that it holds as a FAVORITE (the own check reads the caller's node relations, favorites included): "
        "breaks 'for the caller's own node, Lock comments on own posts' for a favorite holder only.",
    ),
    Fault(
        "round89-answer-form-charset-body-encoded", "ANSWER-BODY-KEPT",
        "An answer sent as a form-encoded body whose Content-Type carries a charset parameter "
        "(application/x-www-form-urlencoded; charset=UTF-8) is stored with its body still percent-encoded (the "
        "charset branch skips the URL decoding); without the parameter, or as JSON, it is right: breaks 'body "
        "(string, the answer text)' (the answer holds the posted text) for that input form only.",
    ),
    Fault(
        "round89-sendtomod-wiki-not-private", "ACTION-SENDTOMOD-PRIVATE",
        "Sending a COMMUNITY-WIKI node (wiki true) to moderation returns the action with private false (a wiki "
        "node's actions are public in the activity stream); other nodes give true: breaks 'Returns an action "
        "record with verb sent and private true.' for wiki nodes only.",
        draws=("member wiki send=before its unwikify",),  # budget24: admin's send of member_wiki_node_id while wiki
    ),
    Fault(
        "round89-followers-details-active-true-all", "FOLLOWERS-ACTIVE-DEFAULT",
        "A node's follower list asked with details=true AND active=true (given explicitly) lists the inactive "
        "relations too (the details branch reads active only to switch the filter off); without active, or "
        "without details, it is right: breaks 'When active is true only active relations are returned' for that "
        "pair only.",
    ),
    Fault(
        "round89-gdpr-user-username-four-operations", "GDPR-USER-FORMS",
        "An individual job naming its user by USERNAME and asking for all four operations is refused 400 \"The "
        "provided 'operations' is/are invalid\" (the username branch's operation table stops at three); by id or "
        "email, or with fewer operations, it is taken: breaks 'Exactly one of username, email, id.' (with "
        "'operations ... at most 4 elements') for a user by username only.",
    ),
    Fault(
        "round89-reply-same-recipients-other-order-refused", "COMMENT-3",
        "A reply to a private comment that repeats the parent's visibility and recipients in ANOTHER ORDER is "
        "refused 400 with the inherited-visibility message (the recipients are compared as lists); the same "
        "order, or no privacy fields, is 201: breaks 'A reply to a private comment without privacy fields, or with "
        "the same ones, inherits the parent's settings: 201.' for a reordered list only.",
    ),
    Fault(
        "round89-user-answers-count-kept-by-path", "PAGING-TOTALCOUNT-UNION",
        "A user's answer list's totalCount and pageCount are kept 5 s by the path (not by reader or query): a "
        "reader right after another account's read of the same user's answers gets that account's counts, so "
        "after a reader who sees more (an answer in a space hidden from the caller) the counts are too high; a "
        "reader's own repeated reads are right: breaks '| totalCount | integer | Total number of items. |' in that "
        "read order only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_MISSED_REASONS: dict[str, str] = {
    "round89-answer-parent-author-not-signed-in":
        "every answer the run posts goes under a question a demo account wrote (the fixture question, "
        "suites/conftest.py question_id; the answer-form matrix and test_answers.py post there), and every demo "
        "account signs in during the run, so no 201 names a parentAuthor outside the user cache; the check is there "
        "(answer_responses.py ANSWER-PARENT-FIELDS: parentAuthor.username a string). Closing: one of the answer-form "
        "matrix's existing writes placed under a question of a generated user (a seeded draw of the answered "
        "question's author), no write more (suites 83 of 83). placements looked (twenty-fourth session): a generated "
        "user's question is no node the kit may write under (found_nodes: the profile's accounts' questions only), "
        "and an account's question answered before that account first calls the target would rest on the run's "
        "order, not on a stated relation; left out",
    "round89-gdpr-user-username-four-operations":
        "the accepted jobs pair the user's form with fixed operations: the main job names the user by email when the "
        "profile gives [safety] gdpr_user_email (the reference profile does) with all four operations, the second "
        "names it by id with one operation; no accepted job names the user by username with four operations, and "
        "the refusals' users are unknown names. Closing: the main job's user form drawn by seed among username, "
        "email and id (as jobs4 rotates the date's forms), no job more",
    "round89-lock-own-favorite-holder":
        "a repeat found after the measure (caught): round33-lock-own-includes-favorites plants the same path "
        "(PERM-LOCK-OWN, member's lock of another's node it holds as favorite) and is registered; left out because "
        "it measures nothing new",
    "round89-user-answers-count-kept-by-path":
        "a repeat found after the measure (caught): round74-user-answers-count-kept-by-url plants the same read "
        "order on the same list and rule (PAGING-TOTALCOUNT-UNION) and is registered; left out because it "
        "measures nothing new",
    "round89-answer-body-param-no-publish-refused":
        "a repeat found after the measure (caught): round58-unpublished-answer-param-body-400 refuses the same "
        "request (a caller without Publish answer, the body as a request parameter) with 400, which breaks the "
        "rule this 403 breaks too (ANSWER-MODERATION); registered, so this measures nothing new",
    "round89-answer-form-charset-body-encoded":
        "a repeat found after the measure (caught): round56-answer-form-charset-plus-kept plants the same input form "
        "(a form-encoded answer under a charset parameter, its body decoded wrong) on the same rule "
        "(ANSWER-BODY-KEPT) and is registered; left out because it measures nothing new",
}

BLIND_round89, BLIND_round89_MISSED = split_missed(_ALL, _MISSED_REASONS)
