"""Blind round 25 (issue 44): fifteen faults of the kinds outside rounds catch us on, written from the interface
description alone, each breaking one stated rule on one path (where they bite: :mod:`blind_round25`, and two
overrides of the route table). Measured on the day's suites: :data:`BLIND_round25` were caught,
:data:`BLIND_round25_MISSED` were missed and stay planted for the integrator's measure on the session's final suites.
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_F = Fault

_ALL: tuple[Fault, ...] = (
    # --- a permission decided differently once an optional parameter is given
    _F("round25-topics-search-refused-novice", "PERM-TOPICS",
       "'14 Topics | View users list (Anonymous Roles)': novice's topic list is refused once q is given (the search "
       "branch asks for a permission of its own); without q it is served",
       (Override(("listTopics",), "novice", Effect.DENY, when=("q",)),)),
    _F("round25-question-list-sort-colon-password", "AUTH-BASIC",
       "'HTTP Basic authentication (username and password, sent as <USERNAME>:<PASSWORD>)': the question list asked "
       "with sort reads the credentials with split(':'), so an account whose password holds a colon is refused 401 "
       "there (without sort, and on every other list, it is let in)"),
    # --- ownership taken from the wrong relation
    _F("round25-user-questions-last-active", "LIST-USER-QUESTIONS-OWNER",
       "'15 List questions posted by a user': the list also holds the questions the user was last active on "
       "(answered or commented last), by someone else"),
    _F("round25-group-option-on-own-question", "COMMENT-7-NO-OPTION-PERMISSION",
       "'lacks the permission for that option, gives 403': member's comment to own groups is let through on a "
       "question member wrote (Send private comments to own groups read as a permission on one's own posts)"),
    _F("round25-sendtomod-realuser-last-active", "ACTION-SENDTOMOD-REALUSER",
       "'the real authenticated user (realUser)': a question's send-to-moderation record names the question's last "
       "active user as realUser when that is not the caller (answers and comments are right)"),
    # --- a write's input form on an operation that form is rarely tried on
    _F("round25-form-comment-body-beats-param", "CONV-PARAM-WINS-COMMENT",
       "'When both are given, the parameter wins': a form-encoded comment whose field is also a query parameter "
       "keeps the form's value (JSON bodies are right)"),
    _F("round25-answer-node-field-param-refused", "ANSWER-OTHER-NODE-FIELDS",
       "'other Node fields may be supplied' / 'each body field may also be given as a request or query parameter': "
       "an answer with a JSON body and another Node field (title, topics ...) as a query parameter is a 400"),
    _F("round25-form-reply-parent-not-found", "COMMENT-PARENT-KINDS",
       "'nodeId (integer): the question, answer or comment being commented on': a form-encoded comment on a comment "
       "is a 404 (the form controller looks among questions and answers); JSON replies are right"),
    # --- a stated effect on one account only
    _F("round25-admin-unfavorite-count-before-write", "ACTION-UNFAVORITE-COUNT",
       "'Returns the favorite action with canceled true and the updated favoriteCount': admin's unfavorite answers "
       "the count read before its delete (one more than the node's); other accounts get the updated count"),
    # --- a parameter's effect, not its echo
    _F("round25-question-list-type-param-filters-kind", "LIST-ITEM-TYPE",
       "'Response: 200, paged list envelope with Node items of type question': the search parameter type is put in "
       "the node-type condition, so the question list asked with type=answer or type=comment lists answers or "
       "comments"),
    # --- a data-protection rule through one stated form of the user
    _F("round25-gdpr-null-user-looked-up", "GDPR-INDIVIDUAL-NO-USER",
       "'type individual without user': an individual job whose JSON user is null is looked up and refused as "
       "\"The provided 'user' is invalid\", not as the missing user (an absent user is right)"),
    # --- histories: a rule after a state change, an account's action changing another's state
    _F("round25-private-comment-refused-after-sendtomod", "PERM-COMMENT-PRIVATE",
       "'For visibility and recipients: Use Private Comments plus one of ...': once another account sent one of "
       "member's nodes to moderation, member's private comments are a 403 (taken for a restricted user)"),
    _F("round25-sendtomod-verb-of-lock", "ACTION-SENDTOMOD-VERB",
       "'Returns an action record with verb sent': on a node that was locked the record carries verb locked (the "
       "record read back by node id finds the lock's row); unlocked nodes are right"),
    # --- read order: a list read right after a write
    _F("round25-fresh-comment-author-from-session", "SHAPE-LIST-ANSWER-COMMENTS",
       "'author | object | id (integer), username (string), reputation (integer)': the first read of an answer's "
       "comment list right after a comment was posted on it serves that comment from the write-through cache, its "
       "author without reputation (as the write path built it from the session); later reads are right"),
    # --- content of the posted text
    _F("round25-answer-mention-200", "ANSWER-201",
       "'Answer is created with 201': an answer whose text mentions a user (@name) is answered 200 by the mention "
       "branch; other texts get 201"),
)

_MISSED_NAMES: frozenset[str] = frozenset({
    "round25-gdpr-null-user-looked-up",
})
"""Missed on the day's suites (measured with ``qaconform selftest --fault NAME --no-clean``). fix25 (issue 44) closed
four: the two form-encoded comments (a losing body form-encoded on the reply), the answer's Node field as a query
parameter beside a JSON body, and the question list asked with type naming another node kind. recip closed
round25-fresh-comment-author-from-session (the privacy model judges each item's author on every read). budget9 (issue
44) checked the two left: round25-sendtomod-realuser-last-active needs a QUESTION sent to moderation by an account that
is not its last active user; the interface creates no question and undoes no moderation, so the send would take a
site's question out of its lists for good: out until the profile offers a one-shot pool for it (ARCHITECTURE.md
"Writes shared to pay for the relations the run did not make": ``moderation_question_id``), not for want of budget.
round25-gdpr-null-user-looked-up is an allowed reading (a JSON null read as a user that is given and invalid;
docs/blind-rounds.md), no matter of writes. fix33 (session 11) measured round25-sendtomod-realuser-last-active caught
on its own rule since fix30's send of the unwikified question (admin sends member's one-shot wiki question once
member unwikified it; test_action_matrix.py ``sendToModeration-admin-question-unwikified``) and registered it."""

# BLIND_round25: Caught on the day's suites.
# BLIND_round25_MISSED: Missed on the day's suites, still planted: the integrator measures them again on the session's
# final suites.
BLIND_round25, BLIND_round25_MISSED = split_missed(_ALL, _MISSED_NAMES)
