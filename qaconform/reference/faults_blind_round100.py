"""Blind round 100 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261215, the sixth draw of the cycle, dealt to rounds 100 to 102); eight break rules of the kinds the outside
rounds catch us on (a permission with an optional parameter, ownership on the wrong relation, an input form, an effect
on one node kind, a parameter whose effect is ignored, a rule after a state change, a list a cache keeps by its URL).
Each bites on one path only; the hooks are in :mod:`blind_round100`.

Measured blind (all 15 in one self-test run at seed 20260801, 106 s): 12 caught, the caught failing median 1, max 3
rules. Missed, by the tests naming the rule and by ``--whole-suite`` alike (88 s, 200 s, 260 s): the refused lock of
a comment that stays locked (PERM-DENIED-NO-EFFECT), the group list's type 'GROUP' with include (SHAPE-LIST-GROUPS:
only LIST-ITEM-TYPE failed) and the reply with its own visibility to a locked public comment refused 400 (COMMENT-5).
One fault was rewritten before the counted run: the v1 answer of novice published repeated round 99's left-out path,
now the user's question list with wrap refused to member.

Phase 2 closed none: the refused comment lock is not observable through the interface (no read shows a lock), the
group type is caught under LIST-ITEM-TYPE by the suites' attribution, and the reply after a lock needs a placement
change of hist26's reply not made in this round (``_MISSED_REASONS``). Registered: the 12 caught
(``BLIND_round100``); the 3 misses in ``BLIND_round100_MISSED``.
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round100-issuetypes-moderator-enveloped", "LIST-ARRAY-ISSUETYPES",
        "A MODERATOR reading the issue types gets them in the paged envelope {name, sort, page, pageSize, pageCount, "
        "listCount, totalCount, list} (the moderation console's tracker widget serves the list through the paged "
        "renderer); administrators, members, novices and anonymous callers get the bare array: breaks 'Response: "
        "200, a JSON array of objects with name (string).' for moderators only.",
    ),
    Fault(
        "round100-comment-group-option-on-locked-node", "COMMENT-7-NO-OPTION-PERMISSION",
        "A comment with visibility group (to own groups) by a caller with Use Private Comments but without Send "
        "private comments to own groups (member) on a node that is LOCKED is created 201 (the locked thread's "
        "comment path checks Use Private Comments only, not the option's own permission); on unlocked nodes the 403 "
        "holds: breaks 'used by a caller who lacks the permission to use private comments, or lacks the permission "
        "for that option, gives 403.' on locked nodes only.",
    ),
    Fault(
        "round100-groups-denied-v1-error-key", "PERM-DENIED-BODY",
        "A group list refused (401 or 403) when asked with the v1 option has the body {error: {message: <text>}} "
        "(the v1 error mapper writes the singular key); without v1 the body is {errors: {message}}: breaks 'JSON "
        "{errors: {message: <same permission text>}}.' with v1 only.",
    ),
    Fault(
        "round100-gdpr-formatted-with-reassign-invalid", "GDPR-DATE-FORMATTED",
        "A job dated by scheduleDate.formatted (a valid future date) that ALSO names a reassignUser is refused 400 "
        "'The provided 'scheduleDate' is invalid' (the reassigning scheduler parses the date with the ISO pattern "
        "only); formatted dates without reassignUser, and timeStamp dates with it, are taken: breaks 'Either "
        "formatted (string, pattern month/day/year hour:minute in 24-hour form, two-digit month, day, hour and "
        "minute, four-digit year) or timeStamp.' beside reassignUser only.",
    ),
    Fault(
        "round100-refused-lock-of-comment-still-locked", "PERM-DENIED-NO-EFFECT",
        "A lock of a COMMENT refused by the own check (a caller holding Lock comments on own posts only, locking "
        "another's comment) is answered 403, but the comment lock service has set the comment's lock flag before "
        "the controller's check: the comment stays locked; refused locks of questions and answers change nothing: "
        "breaks 'Every operation requires the permissions below.' (a denied write changes nothing) on comments only.",
    ),
    Fault(
        "round100-sendtomod-comment-refused-200", "PERM-DENIED-STATUS",
        "A send to moderation of a COMMENT by a signed-in caller without Send already published question to "
        "moderation is answered 200 {success: false, result: {}} (the comment moderation controller reports the "
        "refusal in the body); questions and answers get the 403: breaks 'Every operation requires the permissions "
        "below.' (a denial is a 4xx) on comments only.",
    ),
    Fault(
        "round100-groups-include-type-uppercase", "SHAPE-LIST-GROUPS",
        "The group list asked with the include projection gives each group's type as 'GROUP' (the projector writes "
        "the enum's name, not its wire value); without include the type is 'group': breaks 'Response: 200, paged "
        "list of Group items.' (| type | string | Always group. |) with include only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round100-user-questions-wrap-member-403", "PERM-USER-QUESTIONS",
        "(a permission with an optional parameter) A user's question list asked with the wrap option refuses member "
        "403 (the wrapping profile controller checks a Moderation Roles permission for signed-in callers without "
        "Site Administration); without wrap, and for other accounts, it is served: breaks '| 15 User's questions | "
        "View the questions list (Anonymous Roles). |' with wrap for member only.",
        (Override(("listUserQuestions",), "member", Effect.DENY, when=("wrap",)),),
    ),
    Fault(
        "round100-user-answers-sized-adds-followed", "LIST-USER-ANSWERS-OWNER",
        "(ownership on the wrong relation) A user's answer list asked with pageSize also lists, on its first page, "
        "the published answers OTHER authors wrote to questions that user FOLLOWS (the sized query is served by the "
        "activity feed, joined on the followed threads); without pageSize only the user's own answers are listed: "
        "breaks '| 4 | GET | /services/v2/user/{userId}/answer.json | List answers posted by a user |' on the "
        "follower relation with pageSize only.",
    ),
    Fault(
        "round100-answer-json-charset-415", "ANSWER-201",
        "(an input form) An answer whose JSON body comes with 'Content-Type: application/json; charset=UTF-8' is "
        "refused 415 (the answer controller's consumes list compares the whole header); plain application/json, "
        "parameters and form-encoded bodies are taken, and comments take the charset: breaks '(new answer) | POST "
        "answer | ... | Answer is created with 201.' for that header only.",
    ),
    Fault(
        "round100-answer-to-wiki-question-moderated", "ANSWER-PUBLISHED",
        "(a stated effect on one node state) An answer by a caller holding Publish answer to a COMMUNITY-WIKI "
        "question is answered 201 as usual but stored in the moderation queue (the wiki thread's answers are "
        "reviewed before they show): others do not see it; answers to questions that are not wiki are published: "
        "breaks 'Caller has Answer questions and Publish answer | Published' as an effect on wiki questions only.",
    ),
    Fault(
        "round100-active-experts-paged-sort-ignored", "SORT-EXPERTS-ORDER",
        "(a parameter whose effect is ignored) The active expert list asked with sort=username or sort=realname AND "
        "the page parameter echoes the sort but orders by reputation (the paged query keeps the index's order and "
        "copies the sort name into the envelope); without page the sort orders: breaks 'sort must be one of "
        "reputation, username, realname, recent, oldest, default' as an effect beside page only.",
    ),
    Fault(
        "round100-reply-to-locked-public-comment-inherited-400", "COMMENT-5",
        "(a rule after a state change) A reply with its own visibility to a PUBLIC comment that was LOCKED is "
        "refused 400 'Visibility on comment can't be defined since it's inherited' (the locked comment's thread "
        "takes the lock for a privacy root); replies to unlocked public comments are taken: breaks 'A reply to a "
        "public comment may set its own visibility and recipients: 201.' after a lock only.",
    ),
    Fault(
        "round100-user-questions-kept-by-url", "COMMENT-PRIVACY-IDS",
        "(a response kept by URL) A user's question list is kept 3 s by its URL whoever reads it (the profile "
        "page's feed is cached by the front proxy): a reader right after another account gets that account's items, "
        "commentIds and childrenIds naming comments private to that account included; the other lists are built per "
        "reader: breaks 'the comment is private to those recipients' in that read order on a user's question list "
        "only.",
    ),
    Fault(
        "round100-lock-extra-dropped-after-unwikify", "ACTION-LOCK-EXTRA",
        "(a rule after a state change) Locking a node that was a community wiki and has been UNWIKIFIED returns and "
        "records the lock action with extra null (the closed-for-editing node is locked through the revision "
        "service, which keeps no prompt); nodes never wikified, and wiki nodes, keep the prompt: breaks 'The prompt "
        "is stored as extra of the returned lock action.' after an unwikify only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_MISSED_REASONS: dict[str, str] = {
    "round100-refused-lock-of-comment-still-locked":
        "missed when measured blind (no test naming the rule failed; --whole-suite: missed too, no rule failed): "
        "not observable through the interface: no Node field shows a lock ('the lock and moderation status' carry "
        "state, but no field is listed), its effect is on edits ('Only the user who locked it can edit it'), which "
        "the interface has no operation for, and a later lock of a locked node is a repeat whose answer is not shown "
        "('Reverse moves ...: not shown'; the reference answers it as a first lock). A closing would need a read "
        "that shows the lock (a profile-declared edit or a lock field), which the description does not give",
    "round100-groups-include-type-uppercase":
        "caught under another rule by design: the suites attribute an item whose type is not the list's to "
        "LIST-ITEM-TYPE alone ('Item type fits the list: ... group', test_list_responses.py _item_type_alone: one "
        "broken statement turns one rule red), and LIST-ITEM-TYPE failed on the group list with include in the "
        "measure; the fault's rule (SHAPE-LIST-GROUPS) is the one the suites leave that statement out of",
    "round100-reply-to-locked-public-comment-inherited-400":
        "missed when measured blind (no test naming the rule failed; --whole-suite: missed too): no reply with its "
        "own visibility is posted under a public comment after that comment was locked. Not closed in this round "
        "(time): the closing is the history 'after a lock' that comment_after_state.HISTORIES names as the next one "
        "(a reply with a private option by member under the public comment locks25 locks, posted after the lock), "
        "which at no accepted write more means moving hist26's private reply to a public comment under the locked "
        "comment, a placement change of the unwikify history that must be re-measured with its registered draws",
}
"""Left out, with where a closing would go (docs/blind-rounds.md, left-out section, round100)."""

BLIND_round100, BLIND_round100_MISSED = split_missed(_ALL, _MISSED_REASONS)
