"""Blind round 73 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261204, 21 must-rules not drawn in rounds 63-72, seven a round); eight break rules of the kinds the outside
rounds catch us on (a permission with an optional parameter, ownership on the wrong relation, an input form, an
effect on one node kind, a sort whose echo is right, a data-protection form of the user, a history, a list a cache
keeps by its URL). Each bites on one path only; the hooks are in :mod:`blind_round73`.

Registered: the faults the self-test catches (``BLIND_round73``); the others stay wired but out of the registry
(``BLIND_round73_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS``
(docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round73-groups-include-member-let-in", "PERM-GROUPS",
        "A member (no Edit users and groups) who lists groups with the include projection parameter is served the "
        "list 200 (the projection branch checks only that the caller is signed in): breaks '| 17 Groups | Edit "
        "users and groups (Site Administration Roles). |' for member with include only.",
        overrides=(Override(("listGroups",), "member", Effect.ALLOW, when=("include",)),),
    ),
    Fault(
        "round73-cancelwiki-wrap-stays-wiki", "ACTION-CANCELWIKI-NOT-WIKI",
        "Unwikifying with the wrap option records the canceled wiki action but leaves the node's wiki flag set (the "
        "wrapped controller writes the action only): breaks 'Not wiki (closed for editing)' with wrap only.",
    ),
    Fault(
        "round73-content-enveloped-mod-comment-author", "LIST-ARRAY-CONTENT",
        "The content list of a user who wrote a private comment to moderators (visibility mod) comes in the paged "
        "envelope (the privacy-filtered query is the paged one): breaks 'Not wrapped in the paged envelope.' for "
        "those subjects only.",
    ),
    Fault(
        "round73-novice-answer-accepted-question-refused", "ANSWER-MODERATION",
        "An answer by a caller with Answer questions but not Publish answer to a question that already has an "
        "accepted answer is refused 403 (the moderation queue rejects resolved threads): breaks 'Caller has Answer "
        "questions but not Publish answer | In the moderation queue | Answer is created.' on accepted questions only.",
    ),
    Fault(
        "round73-followers-inactive-trailing-comma", "CONV-JSON-EXTENSION",
        "A follower list read with active=false is written by the hand-built template of the inactive branch, which "
        "leaves a trailing comma before the closing brace: breaks 'Each path ends in .json, which selects the JSON "
        "format.' with active=false only.",
    ),
    Fault(
        "round73-comment-on-accepted-answer-unlisted", "COMMENT-LISTED",
        "A comment posted on an ACCEPTED answer is missing from that answer's comment list (the accepted answer's "
        "thread is served from the copy made when it was accepted): breaks 'and a later GET returns exactly that' "
        "on accepted answers only.",
    ),
    Fault(
        "round73-anonymous-lock-locked-node-200", "AUTH-ANONYMOUS-WRITES",
        "A lock without credentials of a node that is already locked is answered 200 with the existing lock action "
        "(the already-locked shortcut runs before the permission check): breaks 'Every operation requires the "
        "permissions below.' on locked nodes only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round73-followers-sorted-novice-403", "PERM-FOLLOWERS",
        "A novice who lists a node's followers with the sort parameter is refused 403 (the sorted query is checked "
        "against the staff-only follower report): breaks '| 16 Followers | View users list (Anonymous Roles). |' "
        "for novice with sort only.",
        overrides=(Override(("listNodeFollowers",), "novice", Effect.DENY, when=("sort",)),),
    ),
    Fault(
        "round73-cancelwiki-group-peer-owns", "PERM-CANCELWIKI-OWN",
        "A caller holding Convert own posts to community wiki (not Mark as community wiki) unwikifies another's wiki "
        "node whose author shares a group with them (own content is read as the caller's groups' content): breaks "
        "'Mark as community wiki; for the caller's own node, Convert own posts to community wiki.' for group peers.",
    ),
    Fault(
        "round73-comment-params-json-empty-body-400", "CONV-PARAM-AS-BODY-FIELD",
        "A comment whose fields are all given as query parameters, sent with Content-Type application/json and an "
        "empty body, is refused 400 (the JSON reader fails on the empty body before the parameters are read): "
        "breaks 'each body field may also be given as a request or query parameter of the same name' in that form.",
    ),
    Fault(
        "round73-cancelwiki-answer-not-canceled", "ACTION-CANCELWIKI-CANCELED",
        "Unwikifying an ANSWER returns its wiki action with canceled false and without canceledByUser and "
        "canceledDate (the answer's record is read before the cancel is written): breaks 'Returns the wiki action "
        "with canceled true.' on answers only.",
        draws=("wiki node kind=an answer",),  # seed_draws: the run unwikifies an answer on the seeds that draw one
    ),
    Fault(
        "round73-topics-name-later-pages-by-popularity", "PAGING-TOTALCOUNT-UNION",
        "A topic list sorted by name serves pages 2 and later in the default popularity order while echoing sort "
        "name (the later-page query drops the sort): walking the pages repeats some topics and misses others; "
        "breaks '| totalCount | integer | Total number of items. |' for sort=name past page 1.",
    ),
    Fault(
        "round73-gdpr-user-id-four-operations-refused", "GDPR-USER-FORMS",
        "An individual job whose user is given by id and which asks for all four operations is refused 400 'The "
        "provided 'user' is invalid' (the id form is resolved by a validator that allows three operations): breaks "
        "'Exactly one of username, email, id.' for the id form with four operations only.",
    ),
    Fault(
        "round73-unfavorite-in-moderation-not-canceled", "ACTION-UNFAVORITE-CANCELED",
        "Unfavoriting a node that was sent to moderation returns the favorite action with canceled false (the "
        "moderated node's actions are read from the moderation copy): breaks 'Returns the favorite action with "
        "canceled true and the updated favoriteCount.' after a send to moderation only.",
    ),
    Fault(
        "round73-active-experts-kept-by-url", "EXPERTS-401",
        "The active expert list is kept 2 s by its URL after a signed-in read, and a read without credentials of "
        "the same URL within that time is served the kept list 200: breaks 'Either JSON {errors: {message: <text "
        "saying the caller lacks permission and should log in as another user>}} or an HTML error page titled "
        "HTTP Status 401 - Bad credentials' right after a signed-in read only.",
    ),
)

_KINDS: tuple[Fault, ...] = (
    Fault(
        "round73-kind-gdpr-reassign-id-four-operations-refused", "GDPR-REASSIGN-FORMS",
        "A job whose reassignUser is given by id and which asks for all four operations is refused 400 'The "
        "provided 'reassignUser' is/are invalid' (the id form is resolved by a validator that allows three "
        "operations): breaks 'Identifies the user to whom content is reassigned, by exactly one of username or id.' "
        "for the id form with four operations only.",
    ),
)
"""The proofs of the closed kinds: one more fault of each kind on another path or rule, missed before the fix and
caught after."""

_MISSED_REASONS: dict[str, str] = {
    "round73-comment-on-accepted-answer-unlisted":
        "no budgeted write comments on an accepted answer: the run's plain comments go under its own shared answer "
        "(moderator's on a locked one, novice's as a reply); the fix of this kind is one account's shared plain "
        "comment moved onto the fixture question's accepted answer, as suites/conftest.py COMMENT_ON_LOCKED did for "
        "a lock (no write more), left for a session that can first move a piece out of suites/conftest.py (595 of "
        "600 lines) and re-check the readers of that comment. closeb (twenty-second session) moved SharedWrite out of "
        "conftest.py (570 lines now) and examined the trade, not tried: admin's plain comment (and novice's reply to "
        "it, COMMENT_AS_REPLY, which follows it) onto the fixture question's accepted answer when member wrote it (so "
        "the action matrix's comment_of:admin keeps member as its parent's author); comment_responses.py and "
        "public_threads.py follow SharedWrite.node already, but test_write_forms.py (_parent: top.node != "
        "shared_answer skips) and test_stated_forms.py (the string recipients case replies only when shared.node == "
        "forms_answer, read back in forms_answer's list) would lose their reply paths unless they follow the node, "
        "and the accepted answer needs a read (member's answer list, marked, under the fixture question)",
    "round73-comment-params-json-empty-body-400":
        "a reading the description allows: 'A body sent with a request must have the format that matches the URL "
        "extension or the request's Content-Type header'; a request that declares application/json and sends an "
        "empty body sends no JSON document, and refusing it 400 is what strict JSON readers do; the fields as "
        "parameters without that declaration stay judged (CONV-PARAM-AS-BODY-FIELD)",
    "round73-unfavorite-in-moderation-not-canceled":
        "a history the run does not make: favorite_node_id is never sent to moderation (the sends go to member's wiki "
        "question and the run's own nodes); sending it first would hide it from member, whose one-shot unfavorite is "
        "the rule's main path (a node in moderation is not visible to member on the reference data), and a second "
        "favorite node cannot be made through the interface: an accepted write more (97 of 100) for a path only "
        "admin's unfavorite could take"
        ". accept24 (twenty-second session): unchanged, and no write is left for it (suites 83 of 83 at seed "
        "20260801)",
}

BLIND_round73, BLIND_round73_MISSED = split_missed(_ALL + _KINDS, _MISSED_REASONS)
