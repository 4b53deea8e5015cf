"""Planted faults of the seventh blind round (issue 44, blind7): written from the interface description alone, on
the must-rules that held one planted fault each. Each breaks one stated rule on one path only (one parameter, one
account relation, one node kind, one input form); the code that bites is in :mod:`blind7_paths`, called with one
line from the handler it breaks. Part of the registry (:mod:`faults`)."""

from __future__ import annotations

from .fault_model import Effect, Fault, Override

_F = Fault
BLIND_ROUND7: tuple[Fault, ...] = (
    # "On the space, topic and group lists an invalid sort name makes the request fall back to the default sort."
    _F("blind7-space-question-sort-name-newest", "SORT-FALLBACK-SPACES",
       "an invalid sort on the space list that is a question-list sort name (votes, active, hottest ...) is looked "
       "up in a sort table shared with the question list and orders the spaces newest first (the envelope still "
       "reports the default sort); any other invalid name falls back right"),
    # "Response: 200, paged list of Topic items." (Topic: getImmediateChildren array, getParents array)
    _F("blind7-topics-search-no-tree", "SHAPE-LIST-TOPICS",
       "the topic list served from the search branch (q given) lacks getImmediateChildren and getParents on its "
       "items: the search index's documents carry no tree fields"),
    # "Response: 200, paged list of Group items." (Group: id integer)
    _F("blind7-groups-sorted-id-string", "SHAPE-LIST-GROUPS",
       "a group list asked with an explicit, valid sort is rendered by the sorted query's serializer, the one of a "
       "user's groups, which gives id as a string (the default order is right)"),
    # "Response: 200, a JSON array of User content entries ... Not wrapped in the paged envelope."
    _F("blind7-own-content-enveloped", "LIST-ARRAY-CONTENT",
       "a user's content list read by that same user (userId is the caller) is served by the 'my activity' path, "
       "which wraps it in the paged envelope; anybody else's content is a bare array"),
    # "Success: 201 with {jobId}."
    _F("blind7-gdpr-anon-delete-202", "GDPR-201-JOBID",
       "an individual job whose operations hold anon-delete is answered 202 (the deletion queue's 'accepted'), "
       "not 201; other operations get 201"),
    # "{error: The bulk type was selected, but the request is missing the csvFileId field.}"
    _F("blind7-gdpr-bulk-user-no-csv-individual", "GDPR-BULK-NO-CSV",
       "type bulk without csvFileId but with a user object is scheduled as an individual job for that user (201): "
       "the field beside the missing one decides the kind"),
    # "Either formatted (...) or timeStamp." (a past moment: "The desired date is in the past ...")
    _F("blind7-gdpr-bulk-timestamp-past-accepted", "GDPR-DATE-TIMESTAMP",
       "a bulk job dated by a timeStamp in the past is accepted (201): the past check of the bulk branch reads the "
       "formatted form only; individual jobs and formatted dates are judged right"),
    # "A reply to a private comment with different visibility gives 400 (message: Visibility on comment can't be
    # defined since it's inherited)."
    _F("blind7-reply-recipients-visibility-message", "COMMENT-400-MESSAGE",
       "a reply to an op/mod/group private comment that asks for visibility recipients is refused 400 with the "
       "recipients validator's own message, not the inherited-visibility message"),
    # "nodeId (integer): the question, answer or comment being commented on."
    _F("blind7-comment-on-question-comment-404", "COMMENT-PARENT-KINDS",
       "a comment on a comment that sits directly under a question (not under an answer) is a 404: the thread is "
       "looked up through the comment's answer, which it has none of"),
    # "recipients ... Each item has id (integer or string)."
    _F("blind7-recipients-typed-by-first", "COMMENT-RECIPIENT-ID-FORMS",
       "a recipients list is typed by its first item: when the first id is an integer, later ids given as strings "
       "are dropped (the comment is stored without them); lists of one form are taken right"),
    # "Answer is created with 201." (POST answer, caller has Answer questions and Publish answer)
    _F("blind7-first-answer-200", "ANSWER-201",
       "the first published answer to a question without answers is answered 200 (the thread is created by an "
       "upsert that reports 'updated'); later answers get 201"),
    # sample node-lock.json: lockAction verb locked
    _F("blind7-lock-own-verb", "ACTION-VERBS",
       "a lock made through Lock comments on own posts (caller without Lock comments on posts) records the verb "
       "selflocked; a lock by a moderator records locked"),
    # "Returns the wiki action with canceled true."
    _F("blind7-cancelwiki-own-record-stale", "ACTION-CANCELWIKI-CANCELED",
       "cancelwiki through Convert own posts to community wiki (the author, without Mark as community wiki) returns "
       "the wiki action as read before the cancel: canceled false, no canceledByUser/canceledDate"),
    # "For visibility and recipients: Use Private Comments plus one of ... Send private comments to moderators ..."
    _F("blind7-mod-option-on-question-403", "PERM-COMMENT-PRIVATE",
       "the moderators option on a comment posted directly on a question is refused 403 to a caller who is no "
       "moderator (the option checked against Send to moderation on questions); on answers and comments it is "
       "judged right"),
    # "Every operation requires the permissions below." (12 Send to moderation: Moderation Roles)
    _F("blind7-anonymous-sendtomod-v1", "AUTH-ANONYMOUS-WRITES",
       "send to moderation with the v1 option is let in without credentials (the v1 compatibility route skips the "
       "authentication filter); without v1 anonymous is refused",
       (Override(("sendToModeration",), "anonymous", Effect.ALLOW, when=("v1",)),)),
)
