"""Blind round 86 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261210, a new cycle over all 147 must-rules, dealt to rounds 86 to 88); eight break rules of the kinds the
outside rounds catch us on (a permission with an optional parameter, an input form, an effect on one node state, a
sort whose echo is right, a data-protection form of the user, a history, a count a cache keeps by its path, an
accepted action with its stated options). Each bites on one path only; the hooks are in :mod:`blind_round86`.

Registered: the faults the self-test catches (``BLIND_round86``); the others stay wired but out of the registry
(``BLIND_round86_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS`` (docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round86-groups-empty-sort-by-id", "SORT-FALLBACK-GROUPS",
        "The group list asked with an EMPTY sort value (sort=) lists the groups in id order (the sort resolver's "
        "falsy check skips the fallback and the query runs without ORDER BY) while echoing the default sort; a "
        "named invalid sort falls back: breaks 'Invalid sort falls back to the default.' for an empty sort only.",
    ),
    Fault(
        "round86-user-questions-favoritecount-sort-adds-favorited", "LIST-USER-QUESTIONS-OWNER",
        "A user's question list sorted by favoriteCount also lists the questions that user marked FAVORITE (the "
        "sort's join on the favorites table is written with OR on the favorite's holder), ranked among the user's "
        "own; other sorts list the user's questions only: breaks 'List questions posted by a user' with "
        "sort=favoriteCount for a user holding a favorite of another's question only.",
    ),
    Fault(
        "round86-earned-default-sort-no-userfollowcount", "SHAPE-LIST-EARNED-EXPERTS",
        "The earned expert list asked with the explicit sort=default leaves userFollowCount out of every user (the "
        "configurable default sort runs the legacy expert query, which has no user-follow column); without sort, or "
        "with a named sort, it is there: breaks 'Response: 200, paged list of User items.' (User: '| postCount, "
        "followerCount, followCount, userFollowCount | integer |') with sort=default only.",
    ),
    Fault(
        "round86-system-group-modified-seconds", "SHAPE-DATES-MILLIS",
        "A group without a description (the installer's system group, Admins) gives modificationDate in epoch "
        "SECONDS (the installer wrote the row with a seconds clock); groups created later are in milliseconds: breaks "
        "'| creationDate, modificationDate | integer | Epoch milliseconds. |' (Group) on that one item of the group "
        "list only.",
    ),
    Fault(
        "round86-gdpr-charset-no-user-wrong-message", "GDPR-INDIVIDUAL-NO-USER",
        "An individual job WITHOUT user sent as JSON under a Content-Type with a charset parameter (application/json; "
        "charset=UTF-8) is refused 400 \"The provided 'user' is/are invalid\" (the charset path binds the body "
        "through the generic mapper, which defaults user to an empty object); plain application/json gets the stated "
        "message: breaks 'The individual type was selected, but the request is missing the user' in that form only.",
        draws=("charset senders=admin, novice and anonymous",),
    ),
    Fault(
        "round86-staff-room-private-comment-stored-full", "COMMENT-8",
        "A private comment (visibility other than full) posted on a node of the Staff Room space (space 3, created "
        "before the upgrade to 2.16.0, whose private-comments flag was never set) is created 201 but stored with full "
        "visibility and no recipients; in every other space it is kept: breaks 'Private comments were introduced in "
        "version 2.16.0.' (a 2.16 server keeps them) on the Staff Room's nodes only.",
    ),
    Fault(
        "round86-lock-own-marked-answer-refused", "PERM-LOCK-OWN",
        "A caller with Lock comments on own posts only (member) is refused 403 locking its OWN answer when that "
        "answer is the ACCEPTED one (marked: the own check reads the owner of a marked answer from the acceptance, "
        "i.e. the question's author); member's other own answers lock: breaks '| 13 Lock | Lock comments on posts; "
        "for the caller's own node, Lock comments on own posts (Moderation Roles). |' on an own accepted answer only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round86-spaces-page-novice-refused", "PERM-SPACES",
        "The space list asked with the page parameter refuses novice 403 (the paged space browser checks Publish "
        "answer, which novice lacks); without page, or for other accounts, it is served: breaks '| 9 Spaces | Use "
        "site (Anonymous Roles);' with page for novice only.",
        overrides=(Override(("listSpaces",), "novice", Effect.DENY, when=("page",)),),
    ),
    Fault(
        "round86-gdpr-form-body-csv-param-ignored", "CONV-PARAM-AS-BODY-FIELD-GDPR",
        "A bulk job sent as a FORM-ENCODED body whose csvFileId comes as a request parameter (not in the form) is "
        "refused 400 'The bulk type was selected, but the request is missing the csvFileId field.' (the form binder "
        "reads the fields from the form only); in a JSON body, or all as parameters, it counts: breaks 'each body "
        "field may also be given as a request or query parameter of the same name.' for that mix only.",
    ),
    Fault(
        "round86-lock-followed-node-extra-null", "ACTION-LOCK-EXTRA",
        "Locking a node that has an active FOLLOWER returns (and records) the lock action with extra null (the "
        "follower notification path writes the record without the prompt); unfollowed nodes keep it: breaks 'The "
        "prompt is stored as extra of the returned lock action.' on followed nodes only.",
    ),
    Fault(
        "round86-active-realname-projected-by-username", "SORT-EXPERTS-ORDER",
        "The active expert list asked with sort=realname AND a projection (include, exclude or includeOnly) is "
        "ordered by username while echoing realname (the projected query's sort map names the username column for "
        "realname); without projection the order is by realname: breaks 'sort must be one of reputation, username, "
        "realname, recent, oldest, default' (realname order) with a projection only.",
    ),
    Fault(
        "round86-gdpr-user-id-refused-with-reassign-id", "GDPR-USER-FORMS",
        "An individual job whose user is given by id is refused 400 \"The provided 'user' is/are invalid\" when its "
        "reassignUser is given by id too (the lookup resolves both ids through one cache slot and finds the user "
        "equal to the reassignee); by id with reassignUser by username, or no reassignUser, it is taken: breaks "
        "'Exactly one of username, email, id.' for a user by id beside a reassignUser by id only.",
    ),
    Fault(
        "round86-sendtomod-after-unwikify-refused", "PERM-SENDTOMOD",
        "A history: once a node was UNWIKIFIED (its wiki action canceled), a send to moderation by a caller who holds "
        "Send already published question to moderation but is not the node's author is refused 403 (the 'closed for "
        "editing, only the author' rule of the unwikified node is applied to moderation moves too); other nodes are "
        "sent: breaks '| 12 Send to moderation | Send already published question to moderation (Moderation "
        "Roles). |' after an unwikify only.",
    ),
    Fault(
        "round86-answer-comments-totalcount-kept-by-path", "PAGING-TOTALCOUNT-UNION",
        "An answer's comment list keeps its totalCount and pageCount 3 s by its path, whoever reads it: a read within "
        "3 s of another account's read reports that account's count (novice after admin: the private comments "
        "counted); the items are right: breaks '| totalCount | integer | Total number of items. |' in that read "
        "order only.",
    ),
    Fault(
        "round86-sendtomod-v1-no-realuser", "ACTION-SENDTOMOD-REALUSER",
        "Send to moderation called with the v1 option returns the action record without realUser (the v1 "
        "serializer predates the real-user field); without v1 it is there: breaks 'Some state-changing operations "
        "record both the effective user (user) and the real authenticated user (realUser).' (realUser 'Present on "
        "send-to-moderation') with v1 only.",
    ),
    # --- the kind proofs (after the measure): one more fault of each closed kind, on another path or rule
    Fault(
        "round86-kind-topics-empty-sort-reversed", "SORT-FALLBACK-TOPICS",
        "The kind of round86-groups-empty-sort-by-id (an invalid sort of another shape): the topic list asked with "
        "an EMPTY sort value (sort=) lists the default order reversed (the empty name maps to the descending "
        "default) while echoing the default sort; a named invalid sort falls back: breaks 'On the space, topic and "
        "group lists an invalid sort name makes the request fall back to the default sort.' for an empty sort only.",
    ),
    Fault(
        "round86-kind-earned-oldest-exclude-newest-first", "SORT-EXPERTS-ORDER",
        "The kind of round86-active-realname-projected-by-username (an expert sort's effect beside a projection): the "
        "earned expert list asked with sort=oldest AND exclude lists the users newest first (the projected query's "
        "ORDER BY takes the recent direction) while echoing oldest; without exclude the order is oldest first: "
        "breaks 'sort must be one of reputation, username, realname, recent, oldest, default' (oldest first) with "
        "exclude only.",
    ),
)
"""The round's fifteen faults, as written (before the measure), and the kind proofs added with the fixes."""

_MISSED_REASONS: dict[str, str] = {
    "round86-staff-room-private-comment-stored-full":
        "a space the run posts no private comment in: every private comment of the run (the privacy model's, the "
        "option and placed forms') is under the fixture question, the shared answers and the run's own threads, all "
        "in the fixture question's space; the Staff Room (a space novice may not see) holds only the accounts' "
        "nodes. Closing: one private comment posted under a node of each space admin lists (one accepted write per "
        "space, the suites' share is full), or the privacy model's member-to-moderator comment placed under a "
        "Staff Room answer on half the seeds (a seed draw: its readers stay moderator and member)",
    "round86-lock-own-marked-answer-refused":
        "a state the run cannot give its own nodes: an accepted answer (marked) exists only in the accounts' data "
        "(\"Transitions of nodeStates into closed or accepted: not shown\"), and member's own lock acts on a node the "
        "run posted; an ALLOWED lock on an accounts' node (member's accepted answer) would change the site, which "
        "found_relations never does (refused calls only). Only a profile naming a marked answer of member's as a "
        "one-shot would reach it",
}

BLIND_round86, BLIND_round86_MISSED = split_missed(_ALL, _MISSED_REASONS)
