"""Blind round 28 (issue 44): fifteen faults written from the interface description and spec/rules.yaml alone,
without reading the suites. One on each of eight must-rules drawn at random (ACTION-RECORD-SHAPE, AUTH-ACTING-USER,
GDPR-PAST-DATE, MARKED-ACCEPTED-QUESTION, PERM-DENIED-BODY, PERM-LIST-QUESTIONS, SHAPE-POST-ANSWER,
SHAPE-SCHEDULE-GDPR-JOB) and seven on must-rules of the writer's choice, one of each kind issue 44 names: a
permission with an optional parameter, ownership on the wrong relation, an input form on a rarely tried operation,
an effect on one node kind, a parameter's effect against its echo, a data-protection form of the user, a history at
depth 3.

Each breaks one stated rule on one path and quotes the rule's sentence. Their hooks are in :mod:`blind_round28`
(one ``Hook`` of request_hooks.HOOKS). The measure (``qaconform selftest --fault NAME --no-clean`` on the suites of
the session's start) split them into ``BLIND_round28`` (caught: registered in faults.py) and
``BLIND_round28_MISSED`` (missed: kept here, not registered, so that the integrator can register them on a trial
branch and measure them again); docs/blind-rounds.md has the row.
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the eight drawn rules
    Fault("round28-lock-own-record-no-avatar", "ACTION-RECORD-SHAPE",
          "a lock made through 'Lock comments on own posts' (a caller without 'Lock comments on posts' locking its "
          "own node) returns a lockAction whose user lacks avatarUrl; the record is 'Returned by the "
          "state-changing node operations.' with user 'id, username, avatarUrl'"),
    Fault("round28-comment-author-kept-per-node", "AUTH-ACTING-USER",
          "the acting user of a comment is kept for 3 s per commented node: a second account commenting on the same "
          "node within 3 s posts as the first ('The acting user is taken from the credentials.')"),
    Fault("round28-gdpr-past-formatted-compared-as-text", "GDPR-PAST-DATE",
          "a scheduleDate.formatted is compared with now as text (MM/DD/YYYY HH:MM), so a past date whose text sorts "
          "after today's (December of an earlier year) is scheduled; stated: '{error: The desired date is in the "
          "past and is it not eligible.}'"),
    Fault("round28-search-questions-unmarked", "MARKED-ACCEPTED-QUESTION",
          "a question list searched with q comes from an index without the accepted state: every question carries "
          "marked false although its accepted answer is marked ('true on an accepted answer and on the question "
          "that has it.')"),
    Fault("round28-groups-denied-moderator-errors-list", "PERM-DENIED-BODY",
          "the group list refused to a moderator has the body {errors: [{message}]} (a list), to the other roles "
          "{errors: {message}} as stated: 'JSON {errors: {message: <same permission text>}}.'"),
    Fault("round28-questions-search-refused-novice", "PERM-LIST-QUESTIONS",
          "the question list searched with a non-empty q is refused (403) to the novice, who holds View the "
          "questions list: '| 3 List questions | View the questions list (Anonymous Roles). |'"),
    Fault("round28-moderated-answer-author-no-reputation", "SHAPE-POST-ANSWER",
          "an answer that goes to the moderation queue (caller without Publish answer) is returned with an author "
          "lacking reputation, the Node's author being 'id (integer), username (string), reputation (integer)': "
          "'Success: 201 with the new Node (type answer).'"),
    Fault("round28-gdpr-anon-delete-jobid-renamed", "SHAPE-SCHEDULE-GDPR-JOB",
          "a job whose operations hold anon-delete answers 201 with {jobID} instead of {jobId}: 'Success: 201 with "
          "{jobId}.'"),
    # --- seven of the writer's choice, one kind each
    Fault("round28-groups-v1-lists-for-signed-in", "PERM-GROUPS",
          "(a permission with an optional parameter) with v1 given, the group list is served to every signed-in "
          "caller, though it needs 'Edit users and groups (Site Administration Roles).'",
          (Override(("listGroups",), "signed-in", Effect.ALLOW, when=("v1",)),)),
    Fault("round28-cancelwiki-contributor-owns-question", "PERM-CANCELWIKI-OWN",
          "(ownership on the wrong relation) 'for the caller's own node, Convert own posts to community wiki' is "
          "granted to a contributor: a member that answered or commented under another's wiki question unwikifies it"),
    Fault("round28-gdpr-operations-query-lenient", "GDPR-OPERATIONS-INVALID",
          "(an input form on a rarely tried operation) operations given as a request parameter keep only their "
          "known names, at most 4, and the job is scheduled: unknown names or a fifth one are not refused as "
          "'{error: The provided 'operations' is/are invalid}'"),
    Fault("round28-sendtomod-comment-verb", "ACTION-SENDTOMOD-VERB",
          "(an effect on one node kind) sending a comment to moderation records verb commentSent; answers and "
          "questions get sent: 'Returns an action record with verb sent and private true.'"),
    Fault("round28-user-answers-sorted-page-ignored", "PAGING-TOTALCOUNT-UNION",
          "(a parameter's effect against its echo) a user's answer list asked with sort serves the first page "
          "whatever page is asked, echoing the page asked: walking the pages repeats the first ('page (integer, "
          "default 1)', 'totalCount | integer | Total number of items.')"),
    Fault("round28-gdpr-email-user-with-timestamp-refused", "GDPR-USER-FORMS",
          "(a data-protection form of the user) an individual job naming its user by email is refused as an invalid "
          "user when its scheduleDate is a timeStamp; stated: user 'Exactly one of username, email, id.'"),
    Fault("round28-reply-to-reply-not-inherited", "COMMENT-3",
          "(a history at depth 3) a reply without privacy fields to a private comment that is itself a reply gets "
          "full visibility: 'A reply to a private comment without privacy fields, or with the same ones, inherits "
          "the parent's settings: 201.'"),
)

_MISSED_NAMES: frozenset[str] = frozenset()
"""Missed on the session's start suites (``qaconform selftest --fault NAME --no-clean``, 2026-11-30 06:24 UTC: 12 of
15 caught). fix28 closed the third, round28-search-questions-unmarked (test_list_semantics.py reads the question of
an accepted answer under each stated parameter of the question list: q with a word of its title, type,
includeOnly), and registered it. budget9 (issue 44) closed round28-cancelwiki-contributor-owns-question (member's
comment on the wiki question before its refused unwikify, suites/one_shot_calls.py ``contributed_before_refusal``,
paid by a write the permission matrix now shares) and registered it. fix33 (session 11) registered
round28-gdpr-operations-query-lenient, left out as "the parameter form of an array is unstated": fix31's
test_gdpr_param_fields.py sends operations as a query parameter of JSON text and fails only a 2xx, which no reading
of the form allows (the parameter read and not checked, or not read and the job scheduled without it); another
refusal is not judged. The fault reads the JSON text and schedules five names: caught on GDPR-OPERATIONS-INVALID."""

_MISSED_REASONS: dict[str, str] = {}

# BLIND_round28: Caught on the session's start suites: registered in faults.py.
# BLIND_round28_MISSED: Missed on the session's start suites, kept (not registered) for a trial branch's measure.
BLIND_round28, BLIND_round28_MISSED = split_missed(_ALL, _MISSED_NAMES)
