"""Blind round 68 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261202, 21 must-rules not drawn the session before, seven a round); eight break rules of the kinds the outside
rounds catch us on (a permission with an optional parameter, ownership on the wrong relation, an input form on an
operation rarely written that way, an effect on one node kind, a sort whose echo is right, a data-protection form of
the user, a history of another account, a list a cache keeps by its URL). Each bites on one path only; the hooks are
in :mod:`blind_round68`.

Registered: the faults the self-test catches (``BLIND_round68``); the others stay wired but out of the registry
(``BLIND_round68_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS``
(docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round68-issuetypes-epic-name-object", "SHAPE-LIST-ISSUE-TYPES",
        "The issue type Epic (a hierarchy type of the tracker) is served with name as an object {value, level} (the "
        "tracker's translated-name structure is copied as it comes for hierarchy types): breaks 'Response: 200, a "
        "JSON array of objects with name (string).' on that one item only.",
    ),
    Fault(
        "round68-issuetypes-cached-enveloped", "LIST-ARRAY-ISSUETYPES",
        "A read of the issue types within 3 s of an earlier read of the same URL is served from the list cache, "
        "which stores it through the paged-list serializer (the envelope): breaks 'Response: 200, a JSON array of "
        "objects with name (string).' on a repeated read only.",
    ),
    Fault(
        "round68-gdpr-reassign-unknown-email-user-accepted", "GDPR-REASSIGN-INVALID",
        "An individual job whose user is named by email schedules with a reassignUser that names no user (the email "
        "branch builds the job from a DTO that copies reassignUser after the validation ran): breaks '{error: The "
        "provided 'reassignUser' is/are invalid}' for a user by email only.",
    ),
    Fault(
        "round68-reply-visibility-param-message", "COMMENT-400-MESSAGE",
        "A reply to a private comment whose different visibility comes as a request parameter is refused 400 with "
        "{error: Invalid parameter: visibility} (the parameter binder refuses it before the comment rules run): "
        "breaks 'message: Visibility on comment can't be defined since it's inherited' for the parameter form only.",
    ),
    Fault(
        "round68-content-private-answer-replies-listed", "COMMENT-PRIVACY-CONTENT",
        "A user's content list shows that user's private REPLIES under answers (comments on a comment of an answer) "
        "to every reader (the reply rows come from the thread table, which the privacy filter does not join): "
        "breaks 'the comment is private to those recipients' for replies under answers only.",
    ),
    Fault(
        "round68-gdpr-anonymize-with-anon-delete-refused", "GDPR-OPERATIONS-RANGE",
        "A job whose operations hold both anonymize and anon-delete is refused 400 \"The provided 'operations' "
        "is/are invalid\" (the pair is taken as redundant): breaks 'At least one and at most 4 elements, from "
        "suspend, anonymize, delete, anon-delete.' for that pair only.",
    ),
    Fault(
        "round68-user-answers-accepted-on-own-questions", "LIST-USER-ANSWERS-OWNER",
        "A user's answer list (first page) also holds the answers ACCEPTED on that user's questions, written by "
        "others (the query unions the 'accepted by me' join): breaks 'List answers posted by a user' for users "
        "whose question has an accepted answer by someone else only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round68-comment-group-option-v1-accepted", "COMMENT-7-NO-OPTION-PERMISSION",
        "With the v1 option, a private comment with the to-own-groups option (visibility group) by a caller who "
        "holds Use Private Comments but not Send private comments to own groups is posted 201 (the v1 controller "
        "checks Use Private Comments alone): breaks 'A private visibility option ... used by a caller who ... lacks "
        "the permission for that option, gives 403.' with v1 only.",
    ),
    Fault(
        "round68-lock-follower-owns", "PERM-LOCK-OWN",
        "A caller holding Lock comments on own posts (not on every post) locks another's node they FOLLOW (the "
        "own-content query reads the user's node relations, follows included): breaks 'Lock comments on posts; for "
        "the caller's own node, Lock comments on own posts' for a follower only.",
    ),
    Fault(
        # written blind for ANSWER-201 (the effect); the measure failed CONV-PARAM-AS-BODY-FIELD on it, the rule whose
        # sentence covers a form-encoded body field (a request parameter): relabelled, as round52 and round64 did
        "round68-answer-form-charset-body-lost", "CONV-PARAM-AS-BODY-FIELD",
        "An answer whose body field comes form-encoded (a request parameter) with Content-Type "
        "application/x-www-form-urlencoded; charset=UTF-8 loses it (the form reader matches the media type exactly) "
        "and is refused 400 'body' is required: breaks 'each body field may also be given as a request or query "
        "parameter of the same name' for that Content-Type only.",
    ),
    Fault(
        "round68-sendtomod-answer-not-private", "ACTION-SENDTOMOD-PRIVATE",
        "Sending an ANSWER to moderation returns the action record with private false (answers go through the "
        "review-queue action, recorded public): breaks 'Returns an action record with verb sent and private true.' "
        "for answers only.",
    ),
    Fault(
        "round68-earned-experts-realname-by-username", "SORT-EXPERTS-ORDER",
        "The earned-expert list asked for sort=realname echoes realname but orders by username (the earned "
        "expertise query maps realname to the login column): breaks 'sort must be one of reputation, username, "
        "realname, recent, oldest, default' (each sort orders by its key) on that list and sort only.",
    ),
    Fault(
        "round68-gdpr-user-id-reassign-username-refused", "GDPR-USER-FORMS",
        "An individual job naming its user by id together with a reassignUser by username is refused 400 \"The "
        "provided 'user' is invalid\" (the user lookup reuses the reassignUser's lookup key): breaks 'Required when "
        "type is individual. Exactly one of username, email, id.' for the id form beside a username reassignUser "
        "only.",
    ),
    Fault(
        "round68-unfavorite-canceledby-earlier-canceler", "ACTION-UNFAVORITE-PER-USER",
        "Unfavoriting a node whose favorite ANOTHER account unfavorited before returns canceledByUser naming that "
        "earlier account (the canceler is read from the node's first canceled favorite action): breaks 'Favorites "
        "are per user; the user is taken from the credentials.' after another account's unfavorite only.",
    ),
    Fault(
        "round68-groups-kept-by-url", "PERM-GROUPS",
        "The group list is kept 2 s by its URL in front of the permission check: a denied caller's read within 2 s "
        "of a permitted read of the same URL gets the list 200: breaks '| 17 Groups | Edit users and groups (Site "
        "Administration Roles). |' on that read order only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_KINDS: tuple[Fault, ...] = ()
"""The proofs of the closed kinds: one more fault of each kind on another path or rule, missed before the fix and
caught after. None: no miss of the round was a path the suites did not take."""

_MISSED_REASONS: dict[str, str] = {}

BLIND_round68, BLIND_round68_MISSED = split_missed(_ALL + _KINDS, _MISSED_REASONS)
