"""Blind round 79 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261206, 21 must-rules no round of the last two sessions drew, seven a round); eight break rules of the kinds
the outside rounds catch us on (a permission with an optional parameter, ownership on the wrong relation, an input
form with a charset, an effect on one node state, a sort whose echo is right, a data-protection form of the user, a
history, a count a cache keeps by its path). Each bites on one path only; the hooks are in :mod:`blind_round79`.

Registered: the faults the self-test catches (``BLIND_round79``); the others stay wired but out of the registry
(``BLIND_round79_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS``
(docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round79-topics-later-page-author-id", "SHAPE-LIST-TOPICS",
        "The topic list's pages after the first (page 2 and later) give each topic's author as the author's id, an "
        "integer, instead of the object (the continuation query joins no user row): breaks 'Response: 200, paged "
        "list of Topic items.' (author: id, username, reputation) on later pages only.",
    ),
    Fault(
        "round79-answer-comments-v1-colon-password-refused", "AUTH-BASIC",
        "An answer's comment list asked with the v1 option (the legacy filter splits the Basic credentials at the "
        "FIRST colon) refuses with 401 an account whose password holds a colon: breaks 'Requests are authenticated "
        "with HTTP Basic authentication (username and password, sent as <USERNAME>:<PASSWORD>).' with v1 on that "
        "list only.",
    ),
    Fault(
        "round79-questions-spaceid-v1-ignored", "FILTER-SPACEID",
        "The question list asked with the v1 option ignores spaceId (the legacy v1 controller has no space "
        "parameter) and lists the questions of every space: breaks 'spaceId (integer; restricts to one space)' "
        "with v1 given only.",
    ),
    Fault(
        "round79-gdpr-csv-id-past-32-bits-unchecked", "GDPR-CSV-MISSING",
        "A bulk job whose csvFileId does not fit a 32-bit integer (2147483648 or more) is scheduled 201 without "
        "the file being looked up (the lookup's int conversion overflows and the check is skipped): breaks "
        "'{error: The requested file does not exist}' for such ids only.",
    ),
    Fault(
        "round79-lock-moderator-accepted-answer-refused", "PERM-LOCK",
        "A caller holding Lock comments on posts but no site administration role (moderator) is refused 403 "
        "locking another's ACCEPTED answer (marked true: the accepted-answer guard asks for the question "
        "author's own permission); other nodes are locked: breaks '| 13 Lock | Lock comments on posts; for the "
        "caller's own node, Lock comments on own posts (Moderation Roles). |' on accepted answers only.",
    ),
    Fault(
        "round79-gdpr-operations-ordinals-taken", "GDPR-OPERATIONS-INVALID",
        "A job whose JSON operations array holds integers 0 to 3 is scheduled 201, the numbers read as the "
        "operations' ordinals (the enum reader accepts ordinals): breaks '{error: The provided 'operations' is/are "
        "invalid}' with 'At least one and at most 4 elements, from suspend, anonymize, delete, anon-delete.' for "
        "integer elements only.",
    ),
    Fault(
        "round79-gdpr-time-frame-replica-lag", "GDPR-TIME-FRAME",
        "The time-frame check reads a replica that lags 2 s behind: a second job for a frame taken by a job "
        "scheduled less than 2 s before is scheduled 201, replacing it; a frame taken earlier is refused: breaks "
        "'{error: There is a job already scheduled for that time frame.}' in that read order only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round79-topics-type-member-refused", "PERM-TOPICS",
        "The topic list asked with the search parameter type refuses member 403 (the typed search checks a "
        "moderation permission): breaks '| 14 Topics | View users list (Anonymous Roles). |' with type given and "
        "member only.",
        overrides=(Override(("listTopics",), "member", Effect.DENY, when=("type",)),),
    ),
    Fault(
        "round79-lock-own-after-own-unfavorite", "PERM-LOCK-OWN",
        "A caller with Lock comments on own posts only (member) may lock another's node it UNFAVORITED earlier "
        "(its canceled favorite action on the node is read as authorship by the own-content query): breaks '| 13 "
        "Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation Roles). "
        "|' for a former favorite holder only.",
    ),
    Fault(
        "round79-answer-form-charset-author-no-reputation", "SHAPE-POST-ANSWER",
        "An answer sent form-encoded under a Content-Type with a charset parameter "
        "(application/x-www-form-urlencoded; charset=UTF-8) is answered 201 with an author lacking reputation (the "
        "charset form's binder builds the answer from the session user): breaks 'Success: 201 with the new Node "
        "(type answer).' (author: id, username, reputation) for that input form only.",
    ),
    Fault(
        "round79-sendtomod-accepted-answer-not-private", "ACTION-SENDTOMOD-PRIVATE",
        "Sending an ACCEPTED answer (marked true) to moderation returns the action record with private false (the "
        "accepted answer's record is built by the question's resolution path); other nodes are right: breaks "
        "'Returns an action record with verb sent and private true.' for accepted answers only.",
    ),
    Fault(
        "round79-active-experts-username-v1-by-id", "SORT-EXPERTS-ORDER",
        "The active expert list asked with sort=username and the v1 option echoes username but is ordered by id "
        "(the v1 query has no username column): breaks 'sort must be one of reputation, username, realname, "
        "recent, oldest, default' (username ordered by username) with v1 given only.",
    ),
    Fault(
        "round79-gdpr-username-user-id-key", "GDPR-201-JOBID",
        "An individual job whose user is given by USERNAME is answered 201 with {id: N} instead of {jobId: N} (the "
        "username path resolves through the directory service, which returns its own record): breaks 'Success: "
        "201 with {jobId}.' for that form of the user only.",
    ),
    Fault(
        "round79-lock-after-unfavorite-extra-null", "ACTION-LOCK-EXTRA",
        "Locking a node another account unfavorited earlier (a canceled favorite action on it by someone else) "
        "returns the lock action with extra null (the record is rebuilt from the node's latest canceled action): "
        "breaks 'The prompt is stored as extra of the returned lock action.' after that history only.",
    ),
    Fault(
        "round79-followers-totalcount-kept-by-path", "PAGING-TOTALCOUNT-UNION",
        "A node's follower list keeps its totalCount and pageCount 3 s by its path, whatever its parameters: a read "
        "with active=false within 3 s of a read without it reports the active relations' count (and the reverse); "
        "the items are right: breaks '| totalCount | integer | Total number of items. |' in that read order only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_KIND: tuple[Fault, ...] = (
    Fault(
        "round79-kind-gdpr-operations-ordinals-email-user", "GDPR-OPERATIONS-INVALID",
        "round79-gdpr-operations-ordinals-taken's kind on another path (written after the measure, to prove the "
        "closing): an individual job naming its user by EMAIL alone whose JSON operations array holds integers 0 "
        "to 3 is scheduled, the numbers read as ordinals (the e-mail path's reader); bulk jobs and the other forms "
        "of the user are refused: breaks '{error: The provided 'operations' is/are invalid}' with 'At least one and "
        "at most 4 elements, from suspend, anonymize, delete, anon-delete.' there only.",
    ),
)
"""Written after the measure: one more fault of a closed miss's kind, missed before the closing and caught after."""

_MISSED_REASONS: dict[str, str] = {
    "round79-lock-moderator-accepted-answer-refused":
        "no lock of the run goes to an accepted (marked) answer: the action dimension node_state "
        "(spec/dimensions.yaml) has no accepted value, and moderator's shared lock (suites/conftest.py LOCKS) is of "
        "the answer admin posts in the run, the relation round31-lock-moderator-admin-node-refused needs. A closing "
        "is one accepted write (moderator's lock of the profile's accepted answer; the suites' share has 1 left: 82 "
        "of 83) or a seed draw of the shared lock's target",
    "round79-sendtomod-accepted-answer-not-private":
        "no send to moderation of the run goes to an accepted (marked) answer (node_state has no accepted value). A "
        "closing is one accepted write (a send of the profile's accepted answer) or a seed draw of one shared "
        "send's node",
    "round79-active-experts-username-v1-by-id":
        "a reading the description allows: 5 and 6's query is page, pageSize and sort, v1 is among the Conventions' "
        "options whose 'Values and effect ... not shown', and spec/dimensions.yaml conventions_exclude leaves the "
        "expert lists' item rules out under projection, wrap and v1 (judged there for permissions only); a v1 "
        "that selects the legacy behaviour, its order included, is not a stated sort",
    "round79-gdpr-username-user-id-key":
        "no accepted job of the run names its user by username alone: the description labels such a sample "
        "incorrect without saying why (suites/scenarios/test_gdpr_forms.py USER_FORMS_EXCLUDED, variant "
        "gdpr-user-by-username-refused), so no such job may be required to be taken, and one taken job more is an "
        "accepted write over the suites' share",
    "round79-lock-after-unfavorite-extra-null":
        "no accepted lock of the run goes to a node after someone's unfavorite of it: favorite_node_id is locked by "
        "member only (refused, before and since round79 after member's unfavorite), and the shared locks "
        "(suites/conftest.py LOCKS) are of answers the run posts, which no one favorites. A closing is one accepted "
        "write (moderator's lock of favorite_node_id after the unfavorites; the suites' share has 1 left)",
}

BLIND_round79, BLIND_round79_MISSED = split_missed(_ALL + _KIND, _MISSED_REASONS)
