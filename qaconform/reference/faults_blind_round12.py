"""Twelfth blind round (issue 44, round12): one fault on each of fifteen must-rules drawn at random (seed
202611292040), written from the interface description alone. Each breaks the one rule it names on one path only
(one account, one input form, one option, one page, one node in the tree); the code is in :mod:`blind_round12`,
called from the place each breaks. Fourteen of the fifteen written are registered: r12-answer-wrap-200 (ANSWER-201,
an answer posted with the option wrap answered 200) is kept with its code and reason in the round's notes
(notes/s6/blind-round12.md): no answer of a default run carries wrap, and catching it costs an accepted write.
The sentence of interface-v2.md each one breaks:

- r12-gdpr-past-timestamp-errors-list (GDPR-ERROR-BODY): "Errors: 400 with {error: <message>}" (a past date in
  the timeStamp form).
- r12-answer-plug-empty-for-admin (ANSWER-PLUG-NULL): "plug ... Present on a newly posted answer; it is null
  there." (an answer by an administrator).
- r12-gdpr-bulk-reassign-username-refused (GDPR-REASSIGN-FORMS): "reassignUser ... by exactly one of username or
  id" (a bulk job's reassignUser by username).
- r12-issuetypes-names-for-novice (SHAPE-LIST-ISSUE-TYPES): "Response: 200, a JSON array of objects with name
  (string)." (read by a novice).
- r12-follower-relations-includeonly-ignored (PROJ-INCLUDEONLY): "includeOnly ... limits the returned items to
  those fields" (the follower list with details=true).
- r12-spaces-sorted-page-echo-one (PAGING-PAGE-ECHO): "page | integer | Current page." (the space list, sorted).
- r12-earned-experts-oldest-trailing-comma (CONV-JSON-EXTENSION): "Each path ends in .json, which selects the
  JSON format." (the earned experts sorted oldest).
- r12-unfavorite-admin-action-id (SHAPE-UNMARK-FAVORITE): "200 with {success: boolean, result: {favoriteAction:
  <Action record>, favoriteCount: integer}}" (unfavorited by an administrator).
- r12-child-space-answer-moderated (ANSWER-PUBLISHED): "Caller has Answer questions and Publish answer |
  Published" (an answer to a question in a child space).
- r12-denied-groups-projected-body (PERM-DENIED-BODY): "JSON {errors: {message: <same permission text>}}" (a
  denied group list asked with includeOnly).
- r12-comment-sorts-joined-after-page-1 (PAGING-SORTS-COMMENTS): "paged list of Node items of type comment, with
  the sorts array." (page 2 and later).
- r12-reply-to-own-comment-refused (COMMENT-PARENT-KINDS): "nodeId (integer): the question, answer or comment
  being commented on." (a reply to the caller's own comment).
- r12-gdpr-email-job-ids-list (SHAPE-SCHEDULE-GDPR-JOB): "Success: 201 with {jobId}." (an individual job whose
  user is named by email).
- r12-recipient-of-sibling-sees-all (COMMENT-PRIVACY-LIST): "the comment is private to those recipients" (a
  reader who is a recipient of another private comment under the same answer).
"""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
BLIND_ROUND12: tuple[Fault, ...] = (
    _F("r12-gdpr-past-timestamp-errors-list", "GDPR-ERROR-BODY",
       "a job dated in the past by timeStamp is refused with a list of errors, not {error: <string>}"),
    _F("r12-answer-plug-empty-for-admin", "ANSWER-PLUG-NULL", "an administrator's new answer carries plug \"\""),
    _F("r12-gdpr-bulk-reassign-username-refused", "GDPR-REASSIGN-FORMS",
       "a bulk job's reassignUser named by an existing username is refused as invalid"),
    _F("r12-issuetypes-names-for-novice", "SHAPE-LIST-ISSUE-TYPES",
       "a novice reads the issue types as an array of plain strings"),
    _F("r12-follower-relations-includeonly-ignored", "PROJ-INCLUDEONLY",
       "the follower list with details=true ignores includeOnly"),
    _F("r12-spaces-sorted-page-echo-one", "PAGING-PAGE-ECHO", "the space list asked with sort and page reports page 1"),
    _F("r12-earned-experts-oldest-trailing-comma", "CONV-JSON-EXTENSION",
       "the earned experts sorted oldest end their list with a trailing comma (not JSON)"),
    _F("r12-unfavorite-admin-action-id", "SHAPE-UNMARK-FAVORITE",
       "an administrator's unfavorite returns favoriteAction as the action's id, not an Action record"),
    _F("r12-child-space-answer-moderated", "ANSWER-PUBLISHED",
       "a publishing caller's answer to a question in a child space goes to moderation"),
    _F("r12-denied-groups-projected-body", "PERM-DENIED-BODY",
       "a denied group list asked with includeOnly answers {errors: {}} (the message projected away)"),
    _F("r12-comment-sorts-joined-after-page-1", "PAGING-SORTS-COMMENTS",
       "an answer's comments from page 2 on carry sorts as one comma-separated string"),
    _F("r12-reply-to-own-comment-refused", "COMMENT-PARENT-KINDS",
       "a reply to the caller's own comment is refused 409"),
    _F("r12-gdpr-email-job-ids-list", "SHAPE-SCHEDULE-GDPR-JOB",
       "a job for a user named by email answers {jobIds: [N]} instead of {jobId}"),
    _F("r12-recipient-of-sibling-sees-all", "COMMENT-PRIVACY-LIST",
       "a recipient of one private comment of an answer sees every recipients-private comment of that answer"),
)
