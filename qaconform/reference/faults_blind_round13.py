"""Thirteenth blind round (issue 44, round13): faults written from the interface description alone, on the kinds
the outside rounds found (a permission checked only with an optional parameter, a refusal answered by a redirect, a
list read by one account, ownership read from the question's author, a write's input form on an operation, a
data-protection rule through one stated form of the user, a stated effect on one node kind or depth, a state edge,
a value form on one parent kind), on must-rules with one or two planted faults each. Each breaks the one rule it
names on one path only; the code is in :mod:`blind_round13`, called from the handler each breaks.

The sentence of interface-v2.md each one breaks:

- r13-user-answers-sort-anonymous-refused: "| 4 User's answers | View the questions list and View answers in the
  question page (Anonymous Roles). |" (anonymous, only with ``sort``).
- r13-questions-unanswered-anonymous-redirect: "| 3 List questions | View the questions list (Anonymous Roles). |"
  (anonymous, only with ``unanswered``: a 302 to the login page).
- r13-user-questions-novice-own-only: "| 15 User's questions | View the questions list (Anonymous Roles). |"
  (novice reading another user's list).
- r13-answer-member-own-question-refused: "| 7 Post answer | Answer questions (Standard Roles)." (member answering
  a question it wrote).
- r13-answer-own-question-no-location: "The Location header holds the new item's URL." (an answer to the caller's
  own question).
- r13-answer-form-id-integer: "A string in the response to posting an answer." (form-encoded body).
- r13-gdpr-individual-user-from-reassign: "type individual without user ... The individual type was selected, but
  the request is missing the user" (a reassignUser given beside).
- r13-gdpr-user-email-refused-with-timestamp: "Exactly one of username, email, id." (email, with a timeStamp date).
- r13-unfavorite-last-success-false: "Response: 200 with {success: boolean, result: {favoriteAction: <Action
  record>, favoriteCount: integer}}." (the node's last favorite removed: success false).
- r13-cancelwiki-other-canceledby-missing: "canceledByUser ... Present when canceled is true." (cancelled by
  someone other than the user who wikified the node).
- r13-lock-reply-result-key: "Response: 200 with {success: boolean, result: {lockAction: <Action record>}}." (a
  reply: a comment under a comment).
- r13-comment-on-question-body-optional: "body (string, the comment text, required)" (a comment on a question).
- r13-reply-private-option-wrong-permission: "For visibility and recipients: Use Private Comments plus one of Send
  private comments to original poster, Send private comments to moderators, Send private comments to own groups."
  (a reply to a public comment by a member).
- r13-inherited-message-deep-reply: "A reply to a private comment with different visibility gives 400 (message:
  Visibility on comment can't be defined since it's inherited)." (a reply to a reply in a private thread).
- r13-reply-string-recipients-dropped: "Each item has id (integer or string)." (a reply to a public comment).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override

_F = Fault
BLIND_ROUND13: tuple[Fault, ...] = (
    # --- a permission decided on one branch, one account, one relation
    _F("r13-user-answers-sort-anonymous-refused", "PERM-USER-ANSWERS",
       "a user's answer list refuses anonymous (401) when sort is given (the sorted query needs a session)",
       (Override(("listUserAnswers",), "anonymous", Effect.DENY, when=("sort",)),)),
    _F("r13-questions-unanswered-anonymous-redirect", "PERM-LIST-QUESTIONS",
       "the question list with unanswered answers anonymous with a 302 to the login page"),
    _F("r13-user-questions-novice-own-only", "PERM-USER-QUESTIONS",
       "a novice may list only its own questions: another user's question list is refused with 403"),
    _F("r13-answer-member-own-question-refused", "PERM-ANSWER",
       "a member answering a question it wrote is refused with 403"),
    # --- the response to a posted answer on one path
    _F("r13-answer-own-question-no-location", "ANSWER-LOCATION",
       "the 201 to an answer to the caller's own question lacks the Location header"),
    _F("r13-answer-form-id-integer", "ANSWER-ID-STRING",
       "the answer posted as a form-encoded body is answered with an integer id"),
    # --- data-protection jobs through one form
    _F("r13-gdpr-individual-user-from-reassign", "GDPR-INDIVIDUAL-NO-USER",
       "an individual job without user but with reassignUser takes the reassignUser as its user (201)"),
    _F("r13-gdpr-user-email-refused-with-timestamp", "GDPR-USER-FORMS",
       "an individual job's user given by email is refused when scheduleDate is given as timeStamp"),
    # --- node actions on one state, relation or depth
    _F("r13-unfavorite-last-success-false", "ACTION-WRAPPERS",
       "unfavoriting the node's last favorite answers success false"),
    _F("r13-cancelwiki-other-canceledby-missing", "ACTION-CANCELED-FIELDS",
       "the cancelled wiki action lacks canceledByUser when someone other than the wikifying user cancels it"),
    _F("r13-lock-reply-result-key", "SHAPE-LOCK-NODE",
       "locking a reply (comment under a comment) answers result.lockCommentAction instead of lockAction"),
    # --- comments on one parent kind or depth
    _F("r13-comment-on-question-body-optional", "COMMENT-BODY-REQUIRED",
       "a comment without body on a question is created (answers and comments refuse it)"),
    _F("r13-reply-private-option-wrong-permission", "PERM-COMMENT-PRIVATE",
       "a private option on a reply to a public comment needs Send private comments to own groups: member gets 403"),
    _F("r13-inherited-message-deep-reply", "COMMENT-400-MESSAGE",
       "a reply to a reply in a private thread with another visibility gets 400 with another message"),
    _F("r13-reply-string-recipients-dropped", "COMMENT-RECIPIENT-ID-FORMS",
       "on a reply to a public comment, recipient ids given as strings are dropped"),
)
