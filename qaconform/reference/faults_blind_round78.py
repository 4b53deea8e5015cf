"""Blind round 78 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261205, 21 must-rules not drawn in rounds 63-75, seven a round); eight break rules of the kinds the outside
rounds catch us on (a permission with an optional parameter, ownership on the wrong relation, an input form with a
charset, an effect on one node kind, a sort whose echo is right, a data-protection form of the user, a history, a
count a cache keeps by its path). Each bites on one path only; the hooks are in :mod:`blind_round78`.

Registered: the faults the self-test catches (``BLIND_round78``); the others stay wired but out of the registry
(``BLIND_round78_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS``
(docs/blind-rounds.md). Found after the measure: round78-groups-member-includeonly-let-in repeats round69's path
(includeOnly, any signed-in caller) and round78-comment-json-charset-visibility-dropped round70's (a charset JSON
comment posted public); both are caught and kept, as measured.
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round78-gdpr-user-email-as-parameter-refused", "GDPR-USER-FORMS",
        "An individual job whose user object comes as a request PARAMETER (user={\"email\": ...}) rather than in "
        "the JSON body is refused 400 with the missing-user message (the parameter binder maps user.username and "
        "user.id only): breaks 'Exactly one of username, email, id.' for the email form given as a parameter "
        "only.",
    ),
    Fault(
        "round78-questions-spaceid-pagecount-unfiltered", "PAGING-PAGECOUNT",
        "The question list asked with spaceId and pageSize reports pageCount counted over every space's questions "
        "(the page count comes from the unfiltered count query); totalCount and the items are of the space: "
        "breaks '| pageCount | integer | Total number of pages. |' with the space filter only.",
    ),
    Fault(
        "round78-earned-realname-echo-username", "PAGING-SORT-ECHO",
        "The earned expert list asked with sort=realname is ordered by realname but reports sort username in the "
        "envelope (the realname sort is a username sort with a realname key, and the echo names the comparator): "
        "breaks 'Sort criterion in effect' for realname on the earned list only.",
    ),
    Fault(
        "round78-unfavorite-wrap-canceledby-first-holder", "ACTION-UNFAVORITE-PER-USER",
        "An unfavorite asked with the wrap option names in canceledByUser the node's earliest remaining favorite "
        "holder, another account, when there is one (the wrapping serializer reads the canceler from the node's "
        "favorite list): breaks 'Favorites are per user; the user is taken from the credentials.' with wrap given "
        "and another holder only.",
        draws=("unfavorite order=admin first",),  # admin's call carries the options while member still holds one
    ),
    Fault(
        "round78-earned-recent-moderator-int", "SHAPE-LIST-EARNED-EXPERTS",
        "The earned expert list sorted by recent gives a MODERATOR's moderator and superuser flags as integers "
        "1/0 (the recency query reads the role flags from the audit table's int columns); other users and sorts "
        "are right: breaks 'Response: 200, paged list of User items.' (moderator, superuser boolean) on those "
        "items only.",
    ),
    Fault(
        "round78-groups-invalid-sort-exclude-by-id-desc", "SORT-FALLBACK-GROUPS",
        "The group list asked with an invalid sort AND the exclude projection is ordered by id descending (the "
        "projection's own query falls back to its primary key, newest first) while echoing the default sort: "
        "breaks 'Invalid sort falls back to the default.' with exclude given only.",
    ),
    Fault(
        "round78-reply-no-body-created", "COMMENT-BODY-REQUIRED",
        "A comment without body posted on a COMMENT (a reply) is created 201 with the body <p></p> (the reply "
        "editor's empty paragraph is put in before the required-field check); on questions and answers it is "
        "refused: breaks 'body (string, the comment text, required)' for replies only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round78-groups-member-includeonly-let-in", "PERM-GROUPS",
        "The group list asked with includeOnly lets member in (the projection route checks View users list, not "
        "Edit users and groups): breaks '| 17 Groups | Edit users and groups (Site Administration Roles). |' with "
        "includeOnly given only.",
        overrides=(Override(("listGroups",), "member", Effect.ALLOW, when=("includeOnly",)),),
    ),
    Fault(
        "round78-lock-question-by-answerer", "PERM-LOCK-OWN",
        "A caller with Lock comments on own posts only (member) may lock a QUESTION another account asked when "
        "the caller wrote an answer to it (own taken from the thread's participants): breaks '| 13 Lock | Lock "
        "comments on posts; for the caller's own node, Lock comments on own posts (Moderation Roles). |' for an "
        "answerer of the question only.",
    ),
    Fault(
        "round78-comment-json-charset-visibility-dropped", "COMMENT-2",
        "A comment with visibility recipients sent as JSON whose Content-Type carries a charset parameter "
        "(application/json; charset=UTF-8) is stored with full visibility and no recipients (the charset form "
        "goes through the plain-text binder, which drops the privacy fields): breaks 'When visibility is "
        "recipients and recipients lists ids, the comment is private to those recipients and a GET returns the "
        "given settings.' for that input form only.",
    ),
    Fault(
        "round78-sendtomod-comment-not-private", "ACTION-SENDTOMOD-PRIVATE",
        "Sending a COMMENT to moderation returns the action record with private false (the comment's record is "
        "built by the comment flag path); questions and answers are right: breaks 'Returns an action record with "
        "verb sent and private true.' for comments only.",
    ),
    Fault(
        "round78-earned-oldest-by-recent", "SORT-EXPERTS-ORDER",
        "The earned expert list asked with sort=oldest lists newest first (oldest is mapped to the recent "
        "comparator on the earned list) while echoing oldest: breaks 'sort must be one of reputation, username, "
        "realname, recent, oldest, default' (oldest ordered oldest first) on the earned list only.",
    ),
    Fault(
        "round78-reassign-id-no-realname-refused", "GDPR-REASSIGN-FORMS",
        "A job whose reassignUser is given by id naming a user WITHOUT a real name is refused 400 'The provided "
        "'reassignUser' is/are invalid' (the reassign lookup joins the profile's display name); by username, or a "
        "user with a real name, it is taken: breaks 'Identifies the user to whom content is reassigned, by "
        "exactly one of username or id.' for those users only.",
    ),
    Fault(
        "round78-lock-after-unwikify-extra-null", "ACTION-LOCK-EXTRA",
        "Locking a node that was unwikified earlier (a canceled wikify action on it) returns the lock action with "
        "extra null (the former wiki node's lock goes through the revision path, which records no reason): breaks "
        "'The prompt is stored as extra of the returned lock action.' after an unwikify only.",
    ),
    Fault(
        "round78-user-questions-totalcount-kept-by-path", "PAGING-TOTALCOUNT-UNION",
        "A user's question list keeps its totalCount and pageCount 3 s by its path, whoever reads it: a read "
        "within 3 s of another account's read reports that account's count (novice after admin: the hidden "
        "space's questions counted); the items are right: breaks '| totalCount | integer | Total number of items. "
        "|' on that read order only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_MISSED_REASONS: dict[str, str] = {
}

BLIND_round78, BLIND_round78_MISSED = split_missed(_ALL, _MISSED_REASONS)
