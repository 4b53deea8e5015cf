"""Blind round 17 (issue 44): thirteen faults written from interface-v2.md alone (fifteen were written; the two
the suites missed are in /work/notes/s6/blind-round17.md), each breaking one stated rule on one path only, of the
kinds outsiders caught the suites on: a permission decided differently once an optional parameter is given, ownership
checked on the wrong node, a write's less-tried input form, an effect skipped on one node kind, a parameter's effect
lost in one branch, a data-protection rule through one form of the user, histories (a reply to a reply, a lock after
a send to moderation) and caches that a comment or a caller change does not clear. The code is :mod:`blind_round17`
(hooked through request_hooks.HOOKS).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override

BLIND_ROUND17: tuple[Fault, ...] = (
    # "12 Send to moderation | Send already published question to moderation (Moderation Roles)."
    Fault("round17-sendtomod-member-let-in-v1", "PERM-SENDTOMOD",
          "a member (no Moderation Roles) let in to send a node to moderation when the request carries v1",
          (Override(("sendToModeration",), "member", Effect.ALLOW, when=("v1",)),)),
    # "13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts"
    Fault("round17-lock-own-refused-under-others-question", "PERM-LOCK-OWN",
          "a caller with Lock comments on own posts refused (403) on its own answer or comment when the question"
          " above it is another user's: ownership checked on the question"),
    # "On POST endpoints that take a body, each body field may also be given as a request or query parameter of the
    # same name. When both are given, the parameter wins."
    Fault("round17-answer-form-param-loses", "CONV-PARAM-WINS-ANSWER",
          "posting an answer with a form-encoded body and a body query parameter keeps the form's body (JSON"
          " bodies still lose to the parameter)"),
    Fault("round17-gdpr-params-ignored-with-body", "CONV-PARAM-AS-BODY-FIELD-GDPR",
          "scheduling a data-protection job reads query parameters only when no body is sent: a field given as a"
          " parameter next to a body is ignored"),
    # "Published node | PUT sendToMod | ... | Returns an action record with verb sent and private true."
    Fault("round17-sendtomod-verb-answers", "ACTION-SENDTOMOD-VERB",
          "sending an answer to moderation returns the action with verb moderated (questions and comments: sent)"),
    # "spaceId (integer; restricts to one space)"
    Fault("round17-questions-spaceid-dropped-past-page1", "FILTER-SPACEID",
          "the question list drops the spaceId filter from page 2 on (page 1 and no page: filtered)"),
    # "active (boolean, default true) ... When active is true only active relations are returned"
    Fault("round17-followers-details-shows-inactive", "FOLLOWERS-ACTIVE-DEFAULT",
          "the follower list with details=true and no active parameter includes inactive relations (default"
          " taken as false in the details branch only)"),
    # "reassignUser identified in more than one way | {error: The request contains more than one reassignUser
    # eligible configuration}"
    Fault("round17-gdpr-reassign-ambiguous-email-user", "GDPR-REASSIGN-AMBIGUOUS",
          "a reassignUser given by both username and id is accepted (by id) when the job's user is given by email;"
          " refused with 400 when the user is given by username or id"),
    # "reassignUser does not exist | {error: The provided 'reassignUser' is/are invalid}"
    Fault("round17-gdpr-reassign-invalid-suspend-only", "GDPR-REASSIGN-INVALID",
          "a reassignUser by an id no user has is accepted (201) when operations is [suspend] only: the"
          " reassignUser is looked up only for operations that move content"),
    # "3. A reply to a private comment without privacy fields, or with the same ones, inherits the parent's
    # settings: 201."
    Fault("round17-reply-to-reply-not-inherited", "COMMENT-3",
          "a reply to a private comment that is itself a reply (depth 3) gets full visibility and no recipients"
          " when it gives no privacy fields; a reply to a top-level private comment inherits"),
    # "The prompt is stored as extra of the returned lock action."
    Fault("round17-lock-extra-dropped-in-moderation", "ACTION-LOCK-EXTRA",
          "locking a node that was sent to moderation returns the lock action with extra null instead of the"
          " prompt"),
    # "Without visibility and recipients the comment has full visibility ..., and a later GET returns exactly that."
    Fault("round17-answer-comments-cached", "COMMENT-LISTED",
          "an answer's comment list is cached per caller and URL at its first read; every write but a comment"
          " clears the cache, so a comment posted after a read does not appear"),
    # "includeOnly ... limits the returned items to those fields (for example id and name). Only items the caller
    # may see are returned."
    Fault("round17-projected-questions-cached-by-url", "PROJ-ONLY-VISIBLE",
          "a projected question list (includeOnly) is cached by URL alone: a privileged caller's page, read first,"
          " is served to a caller who may see fewer items (hidden-space questions shown to a novice)"),
)
"""Blind round 17's faults (issue 44), registered in faults.py in one block."""
