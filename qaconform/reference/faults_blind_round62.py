"""Blind round 62 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261219, the 21 must-rules no fault of rounds 48-59 broke, seven a round); eight break rules of the kinds the
outside rounds catch us on (a permission with an optional parameter, ownership on the wrong relation, an input form
on an operation rarely written that way, an effect on one node state, a sort whose echo is right, a
data-protection form of the user, a reply deeper in a thread, a list a cache keeps by its URL). Each bites on one
path only; the hooks are in :mod:`blind_round62`.

Registered: the faults the self-test catches (``BLIND_round62``); the others stay wired but out of the registry
(``BLIND_round62_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS``
(docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round62-gdpr-timestamp-job-200", "SHAPE-SCHEDULE-GDPR-JOB",
        "A job whose scheduleDate is given in its timeStamp form (no formatted) is scheduled with 200, not 201 (the "
        "timeStamp branch answers through the update controller's ok()): breaks 'Success: 201 with {jobId}.' for "
        "that form of the date only.",
    ),
    Fault(
        "round62-content-enveloped-pending-job", "LIST-ARRAY-CONTENT",
        "The content list of a user named by an individual data-protection job already scheduled comes in the paged "
        "envelope (served from the job's snapshot, which the paged serializer writes): breaks 'Not wrapped in the "
        "paged envelope.' after a job was scheduled for that user only.",
    ),
    Fault(
        "round62-own-lock-actiondate-iso", "SHAPE-ACTIONDATE",
        "The lock action of a node locked by its own author carries actionDate in ISO 8601 (2026-12-01T14:15:00.123Z: "
        "the own-posts lock path formats the date itself): breaks 'Either YYYY-MM-DD HH:MM:SS.S or a textual form "
        "like weekday month day time zone year.' on an own node's lock only.",
    ),
    Fault(
        "round62-topics-invalid-sort-anonymous-by-name", "SORT-FALLBACK-TOPICS",
        "The topic list read WITHOUT credentials with an unknown sort name is ordered by name (the public "
        "controller's own fallback), not by the default sort: breaks 'On the space, topic and group lists an invalid "
        "sort name makes the request fall back to the default sort.' for anonymous callers only.",
    ),
    Fault(
        "round62-comment-group-visibility-200", "SHAPE-POST-COMMENT",
        "A comment posted with visibility group (send to own groups) is created but answered 200, not 201 (the "
        "group-notification path returns its own status): breaks 'Success: 201. The Location response header holds "
        "the URL of the new comment.' for that visibility option only.",
    ),
    Fault(
        "round62-earned-experts-badges-null-no-badge", "SHAPE-LIST-EARNED-EXPERTS",
        "On the earned expert list, a user who holds no badge at all has gold, silver and bronze null (the badge "
        "counts come from an outer join): breaks 'Response: 200, paged list of User items.' (gold, silver, bronze "
        "integer) on those items of that list only.",
    ),
    Fault(
        "round62-sendtomod-answer-with-comments-actions-list", "SHAPE-SEND-TO-MODERATION",
        "Sending to moderation an ANSWER that has comments answers result.sendToModActions, a list (the cascade's "
        "records), without sendToModAction: breaks 'Response: 200 with {success: boolean, result: {sendToModAction: "
        "<Action record>}}.' for answers with comments only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round62-answer-wrap-publishes-unpublished", "PERM-ANSWER-PUBLISH",
        "An answer posted with the wrap option by a caller without Publish answer is published directly (the wrap "
        "path saves through the legacy publisher): breaks 'Publish answer (Standard Roles) to publish directly; "
        "otherwise the answer goes to moderation.' with wrap only.",
    ),
    Fault(
        "round62-unfavorite-author-takes-newest-favorite", "ACTION-UNFAVORITE-PER-USER",
        "The AUTHOR of a node who holds no favorite on it unfavorites the node's newest favorite, another user's "
        "(the author's request is resolved through the node's favorite list): breaks 'Favorites are per user; the "
        "user is taken from the credentials.' for the node's author only.",
    ),
    Fault(
        "round62-answer-form-param-loses", "CONV-PARAM-WINS-ANSWER",
        "An answer posted with a form-encoded body holding body and the parameter body too is stored with the "
        "form's text (form fields are read before the query): breaks 'When both are given, the parameter wins.' for "
        "the form-encoded body of an answer only.",
    ),
    Fault(
        "round62-sendtomod-private-comment-not-private", "ACTION-SENDTOMOD-PRIVATE",
        "Sending a PRIVATE comment (visibility other than full) to moderation records and returns the action with "
        "private false (the private-comment path copies the comment's own flag): breaks 'Returns an action record "
        "with verb sent and private true.' for private comments only.",
    ),
    Fault(
        "round62-active-experts-recent-sized-by-reputation", "SORT-EXPERTS-ORDER",
        "The active expert list asked with sort=recent and a pageSize echoes recent but is ordered by reputation (the "
        "sized query builder drops that sort): breaks 'sort must be one of reputation, username, realname, recent, "
        "oldest, default' (the list in that order) for recent with pageSize on that list only.",
    ),
    Fault(
        "round62-gdpr-reassign-integer-id-refused", "GDPR-REASSIGN-FORMS",
        "A job whose reassignUser names an existing user by id as a JSON number is refused 400 \"The provided "
        "'reassignUser' is/are invalid\" (the lookup takes string ids only; the username form and a string id are "
        "right): breaks 'Identifies the user to whom content is reassigned, by exactly one of username or id.' for "
        "an integer id only.",
    ),
    Fault(
        "round62-reply-to-private-reply-inherits-thread-root", "COMMENT-3",
        "A reply without privacy fields to a private comment that is itself a reply to a PUBLIC comment inherits the "
        "thread's first comment (full visibility, no recipients), not its parent: breaks 'A reply to a private "
        "comment without privacy fields, or with the same ones, inherits the parent's settings: 201.' at that depth "
        "only.",
    ),
    Fault(
        "round62-spaces-kept-by-url", "PERM-SPACES-PER-SPACE",
        "The space list is kept 2 s by its URL whoever reads it: a read within 2 s of another account's read of the "
        "same URL gets that account's spaces (a hidden space after a privileged read): breaks 'Only spaces for which "
        "the caller has View the questions list appear.' on that read order only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_KINDS: tuple[Fault, ...] = (
    Fault(
        "round62-kind-unfavorite-author-answers-holders-action", "ACTION-UNFAVORITE-PER-USER",
        "The AUTHOR of a node who holds no favorite on it is answered 200 with the node's newest favorite action, "
        "another user's, uncanceled (the favorite is looked up by the node, the delete keyed by caller and node "
        "removes nothing): breaks 'Favorites are per user; the user is taken from the credentials.' for the node's "
        "author only.",
    ),
    Fault(
        "round62-kind-gdpr-timestamp-job-id-renamed", "GDPR-201-JOBID",
        "A job whose scheduleDate is given in its timeStamp form is scheduled 201 with {id} instead of {jobId} (the "
        "timeStamp branch serializes the job entity): breaks 'Success: 201 with {jobId}.' for that form of the date "
        "only.",
    ),
    Fault(
        "round62-kind-comment-op-visibility-param-200", "SHAPE-POST-COMMENT",
        "A comment whose visibility op (to the original poster) is given as a request parameter is created but "
        "answered 200, not 201 (the parameter-bound private path returns its own status): breaks 'Success: 201. The "
        "Location response header holds the URL of the new comment.' for that option given that way only.",
    ),
    Fault(
        "round62-kind-content-actiondate-iso-after-job", "SHAPE-CONTENT-ACTIONDATE",
        "The content list of a user named by an individual data-protection job already scheduled gives each entry's "
        "actionDate in ISO 8601 (2019-01-01T02:41:48.4Z: the job's snapshot formats the dates): breaks 'Pattern "
        "YYYY-MM-DD HH:MM:SS.S.' after a job was scheduled for that user only.",
    ),
    Fault(
        "round62-kind-answer-wrap-unpublished-refused", "ANSWER-MODERATION",
        "An answer posted with the wrap option by a caller without Publish answer is refused 403 (the wrap path checks "
        "Publish answer instead of Answer questions): breaks 'Caller has Answer questions but not Publish answer | "
        "In the moderation queue | Answer is created.' with wrap only.",
    ),
)
"""The proofs of the closed kinds: one more fault of each kind on another path or rule, missed before the fix and
caught after."""

_MISSED_REASONS: dict[str, str] = {
    "round62-gdpr-timestamp-job-200":
        "the one job dated by timeStamp is the observation's (test_gdpr_timestamp_job.py), the observations' share of "
        "a default budget plans no write, and judging it as a must-rule (tried: caught, with its kind's proof) made it "
        "the suites' write: 98 accepted writes, suites 82 of 82 at seed 20260801, one more than before. accept22 "
        "(twentieth session): the timeStamp form is not shown, so one job finds the taken form by trying them in "
        "order (a 200 under this fault is an accepted job per form tried); dating the second job by timeStamp "
        "would charge a refused unknown form to GDPR-USER-FORMS: examined, not tried",
    "round62-kind-gdpr-timestamp-job-id-renamed":
        "the proof of the timeStamp job's kind, left out with it (the same one write more)",
    "round62-kind-answer-wrap-unpublished-refused":
        "the proof tried for the closed kind (novice's query-form answer now carries wrap): its 403 is charged to "
        "CONV-PARAM-AS-BODY-FIELD, the form's rule (test_answer_form_matrix.py: a refused form is the form's "
        "failure); telling an option's refusal from a form's is left for another round",
}

BLIND_round62, BLIND_round62_MISSED = split_missed(_ALL + _KINDS, _MISSED_REASONS)
