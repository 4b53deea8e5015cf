"""Planted faults of a blind round on the write paths (issue 44, blind5): answers, comments, node actions and
data-protection jobs, and what lists show after them. Written from the interface description and the reference
server's code alone, before reading the suites, the way an outside team plants faults in an independently written
server. Each breaks ONE stated rule on ONE path (one account or relation, one node kind or state, one input form,
one option, one order of operations, one field of a returned record) and is wired with ``faults.is_on("name")``
where it bites (comments.py, answers.py, actions.py, gdpr_jobs.py, bodies.py). Part of the registry (:mod:`faults`).

Every entry quotes, in its comment, the sentence of interface-v2.md it breaks: the rule is stated there, so a server
doing this is wrong whatever the suites check. Seven more were written and measured in that round and left out of
the registry because the description states no rule they break on a path a run can take (the effect of wrap and
v1 is "not shown", a lock has no readable effect, recipients have no stated parameter form, ...) or because no run
writes where they bite: their code and reasons are in the round's notes (session s4, blind-blind5.md).
"""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
BLIND_BLIND5: tuple[Fault, ...] = (
    # --- comments (1)
    # "Success: 201. The Location response header holds the URL of the new comment.": the reply path builds the
    # URL from the node it was posted to (the path's nodeId), not from the new row.
    _F("blind5-reply-location-names-parent", "COMMENT-201-LOCATION",
       "the Location of a reply to a comment names the parent comment, not the new one (on questions and answers "
       "it is right)"),
    # "The acting user is taken from the credentials.": the form-body parser fills the author from the parent
    # node's author field it read along with the parent.
    _F("blind5-comment-form-author-is-parent-author", "AUTH-ACTING-USER",
       "a comment posted with a form-encoded body is stored with the parent node's author as its author (JSON "
       "bodies and parameters are right)"),
    # "A reply to a public comment may set its own visibility and recipients: 201.": the reply path seeds the
    # recipients with the parent comment's author (meant as 'reply to sender') and drops the ones given.
    _F("blind5-reply-public-recipients-to-parent-author", "COMMENT-5",
       "a reply to a public comment with visibility recipients is stored with the parent comment's author as its "
       "only recipient, not the recipients given"),
    # "18. List comments of an answer ... Response: 200, paged list of Node items of type comment" and "a later GET
    # returns exactly that": the link to the answer is skipped when the comment's author is the answer's author
    # (treated as an edit note on one's own answer).
    _F("blind5-own-answer-comment-unlisted", "COMMENT-LISTED",
       "a comment posted on an answer by that answer's own author is not linked to the answer: it is missing from "
       "the answer's comment list (others' comments are listed)"),
    # "recipients given while visibility is not recipients gives 400.": the check compares with None only, so an
    # explicit full visibility with recipients passes and the recipients are dropped.
    _F("blind5-recipients-with-explicit-full-accepted", "COMMENT-6",
       "recipients given with an explicit visibility full are accepted (201, recipients dropped); with visibility "
       "absent, op or group they give 400"),
    # --- node actions (10-13)
    # "The prompt is stored as extra of the returned lock action.": the answer path stores the prompt as a
    # one-word reason code.
    _F("blind5-lock-extra-first-word-answers", "ACTION-LOCK-EXTRA",
       "locking an answer stores only the first word of the prompt as extra (questions and comments keep it)"),
    # "Returns an action record with verb sent and private true.": private is taken from the node's public flag,
    # which the lock path clears.
    _F("blind5-sendtomod-locked-not-private", "ACTION-SENDTOMOD-PRIVATE",
       "sending a locked node to moderation returns a record with private false (unlocked nodes: true)"),
    # "node | object | id (integer), type (string).": the cancel-wiki record built for a caller who is not the
    # node's author takes the id of the wikify action it cancels.
    _F("blind5-cancelwiki-node-id-action-id", "ACTION-NODE-ID",
       "the wiki action returned when a caller unwikifies another's node names the action's own id as node.id "
       "(on one's own node it is right)"),
    # "Favorites are per user; the user is taken from the credentials.": the canceller is taken from the node's
    # owner when the caller is not the node's author.
    _F("blind5-unfavorite-canceledby-node-author", "ACTION-UNFAVORITE-PER-USER",
       "unfavoriting another's node records the node's author as canceledByUser (on one's own node: the caller)"),
    # --- data-protection jobs (2)
    # "400 | Schedule job | Another job already exists for that time frame": the lookup of the frame filters by
    # the new job's type, so a bulk job and an individual job may share a frame.
    _F("blind5-gdpr-time-frame-per-type", "GDPR-TIME-FRAME",
       "a job for a time frame taken by a job of the other type (bulk vs individual) is accepted"),
    # "operations | array of string | At least one and at most 4 elements, from suspend, anonymize, delete,
    # anon-delete.": the name check loops over the first three elements only (off by one).
    _F("blind5-gdpr-fourth-operation-unchecked", "GDPR-OPERATIONS-INVALID",
       "an unknown operation name in the fourth place of operations is accepted (in places 1-3 it gives 400)"),
    # "400 | Schedule job | reassignUser does not exist": the existence check lives in the individual branch; a bulk
    # job's reassignUser is only checked for its form.
    _F("blind5-gdpr-bulk-reassign-unchecked", "GDPR-REASSIGN-INVALID",
       "a bulk job's reassignUser naming no user is accepted (an individual job's gives 400)"),
)
