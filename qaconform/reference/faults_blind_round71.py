"""Blind round 71 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261203, 21 must-rules not drawn in rounds 63-69, seven to each of rounds 70-72); eight break rules of the kinds
the outside rounds catch us on (a permission with an optional parameter, ownership on the wrong relation, an input
form on an operation rarely written that way, an effect on one node state, a sort whose echo is right, a
data-protection form of the user, a rule after a lock, a list a cache keeps by its URL). Each bites on one path only;
the hooks are in :mod:`blind_round71`.

Registered: the faults the self-test catches (``BLIND_round71``); the others stay wired but out of the registry
(``BLIND_round71_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS``
(docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round71-gdpr-timestamp-past-hour-accepted", "GDPR-DATE-TIMESTAMP",
        "A job dated by scheduleDate.timeStamp less than an hour in the past is scheduled 201 (the timeStamp branch "
        "reads the moment as local time, UTC+1, before comparing it with the clock): breaks 'Either formatted (...) "
        "or timeStamp.' (a moment in the past given as timeStamp is refused as past) for the last hour only.",
    ),
    Fault(
        "round71-answer-long-body-cut-255", "ANSWER-BODY-KEPT",
        "An answer whose text is longer than 255 characters is stored cut to its first 255 (the answers table's "
        "second storage path keeps the text in a VARCHAR(255) column): breaks 'body (string, the answer text)' for "
        "long answers only.",
    ),
    Fault(
        "round71-sendtomod-own-answer-let-in", "PERM-SENDTOMOD",
        "A caller without Send already published question to moderation (member, novice) may send their OWN answer "
        "to moderation (the answer's author is treated as its moderator, as for retracting a post): breaks '| 12 "
        "Send to moderation | Send already published question to moderation (Moderation Roles). |' on one's own "
        "answers only.",
        overrides=(Override(("sendToModeration",), "signed-in", Effect.ALLOW),),
    ),
    Fault(
        "round71-earned-experts-username-page-overlap", "PAGING-TOTALCOUNT-UNION",
        "The earned-experts list sorted by username serves pages after the first one item early (the offset of the "
        "username sort is computed from a 0-based page): each later page repeats the previous page's last user and "
        "the list's last user is never served: breaks '| totalCount | integer | Total number of items. |' under "
        "sort=username past page 1 only.",
    ),
    Fault(
        "round71-issuetypes-repeated-name-bare-string", "ISSUETYPES-ARRAY",
        "An issue type whose name repeats an earlier one in the list is served as the bare string (the tracker "
        "client's de-duplicating branch keeps the name, not the object): breaks 'Object with name (string).' for "
        "the repeated item only.",
    ),
    Fault(
        "round71-followers-inactive-type-follow", "LIST-ITEM-TYPE",
        "With active=false, the follower list serves the INACTIVE followers with type \"follow\" (those rows come "
        "from the relation table's serializer, not the user's): breaks 'type | string | Always user.' (default-mode "
        "items are User items) for inactive followers only.",
    ),
    Fault(
        "round71-topics-includeonly-keeps-usedcount", "PROJ-INCLUDEONLY",
        "On the topic list, includeOnly is applied before usedCount is added (the count is joined in after the "
        "projection), so every projected topic also carries usedCount: breaks 'includeOnly takes a comma-separated "
        "list of field names and limits the returned items to those fields' on the topic list only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round71-groups-sort-member-let-in", "PERM-GROUPS",
        "A group list read with the sort parameter is answered to any signed-in caller (the sort fallback branch "
        "answers before the permission check): breaks '| 17 Groups | Edit users and groups (Site Administration "
        "Roles). |' when sort is given only.",
        overrides=(Override(("listGroups",), "signed-in", Effect.ALLOW, when=("sort",)),),
    ),
    Fault(
        "round71-lock-answer-sibling-answerer-owns", "PERM-LOCK-OWN",
        "A caller holding Lock comments on own posts (not on every post) locks another's ANSWER to a question they "
        "answered too (ownership is read as 'has a post in this thread': the caller's own answer under the same "
        "question): breaks 'Lock comments on posts; for the caller's own node, Lock comments on own posts' for a "
        "fellow answerer only.",
    ),
    Fault(
        "round71-gdpr-operations-param-refused", "CONV-PARAM-AS-BODY-FIELD-GDPR",
        "A job whose operations are given as a request parameter (the other fields in the body) is refused 400 "
        "\"The provided 'operations' is/are invalid\" (the parameter's comma-separated text is not split into the "
        "array): breaks 'On POST endpoints that take a body, each body field may also be given as a request or query "
        "parameter of the same name.' for operations only.",
    ),
    Fault(
        "round71-sendtomod-wiki-node-not-private", "ACTION-SENDTOMOD-PRIVATE",
        "Sending a COMMUNITY-WIKI node to moderation returns its action with private false (the wiki node's actions "
        "are recorded as community actions, public): breaks '| Published node | PUT sendToMod | ... | In moderation "
        "| Returns an action record with verb sent and private true. |' on wiki nodes only.",
        draws=("member wiki send=before its unwikify",),  # wiki20 (issue 44): the seed sends the wiki node first
    ),
    Fault(
        "round71-earned-experts-recent-pagesize-oldest", "SORT-EXPERTS-ORDER",
        "The earned-experts list with sort=recent AND pageSize given is ordered oldest first (the sized query takes "
        "the sort's column but not its direction); sort is echoed recent: breaks 'sort must be one of reputation, "
        "username, realname, recent, oldest, default' when pageSize is given only.",
    ),
    Fault(
        "round71-gdpr-email-reassign-username-refused", "GDPR-USER-FORMS",
        "An individual job whose user is given by email and whose reassignUser is given by username is refused 400 "
        "\"The provided 'user' is/are invalid\" (both are resolved by one lookup keyed on the reassignUser's form): "
        "breaks 'Required when type is individual. Exactly one of username, email, id.' for that combination only.",
    ),
    Fault(
        "round71-answer-locked-question-moderated", "ANSWER-PUBLISHED",
        "An answer by a caller holding Publish answer to a LOCKED question goes to the moderation queue (the lock "
        "is read as a hold on new posts): breaks '| (new answer) | POST answer | Caller has Answer questions and "
        "Publish answer | Published |' after a lock only.",
    ),
    Fault(
        "round71-user-questions-kept-by-url", "COMMENT-PRIVACY-IDS",
        "A user's question list is kept 2 s by its URL whoever reads it: a read within 2 s of another account's "
        "read of the same URL gets that account's commentIds and childrenIds (a private comment's id after its "
        "recipient's read): breaks 'the comment is private to those recipients' on that read order only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_KINDS: tuple[Fault, ...] = ()
"""The proofs of the closed kinds: none (no miss closed a kind: one was a seed draw's path, two are left out)."""

_MISSED_REASONS: dict[str, str] = {
    "round71-gdpr-operations-param-refused":
        "a reading the description allows: the text form of an array given as a request parameter is not shown "
        "(test_gdpr_param_fields.py judges the operations rows' refusals in that form and leaves another refusal "
        "unjudged), so a server refusing every operations parameter it cannot read conforms as far as the "
        "description says; a valid operations parameter taken would be an accepted write more besides",
    "round71-gdpr-timestamp-past-hour-accepted":
        "the path is a moment minutes ago in epoch milliseconds, and the format of timeStamp is not shown: on a "
        "target reading seconds (variant gdpr-timestamp-seconds) that value is a date past the year 30000, which a "
        "conforming target schedules (an accepted write); a guard cannot stop it afterwards, the date being the "
        "last check on the reference server (every guard stops the job first), and the observation that tells the "
        "form (OBS-GDPR-TIMESTAMP-FORMAT) is a write no default budget plans; the run's probe, epoch seconds of a "
        "minute ago, is past under either reading and so never meets a shifted past check",
}

BLIND_round71, BLIND_round71_MISSED = split_missed(_ALL + _KINDS, _MISSED_REASONS)
