"""Blind round 32 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's handlers alone, without reading the suites. One on each of eight must-rules drawn at random
(seed 20261202, among the 83 that rounds 24-31 did not take) and seven on rules of the writer's choice, one of each
kind the outside rounds catch us on: ownership on the wrong relation, an input form on a rarely tried operation,
an effect on one node kind, a sort's effect against its echo, a data-protection form of the user, a history after
a state change, and read order against a cache. Each breaks one stated rule on one path only, quoting its
sentence; where it bites: blind_round32.py. Measured with ``qaconform selftest --fault NAME --no-clean``
(docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the eight drawn rules
    Fault("round32-wiki-flag-cached-5s", "ACTION-CANCELWIKI-NOT-WIKI",
          "'Not wiki (closed for editing)': the question lists keep each question's wiki flag for 5 s "
          "from the first read; a node read right before it is unwikified still reads wiki true right after"),
    Fault("round32-experts-password-case-insensitive", "AUTH-BAD-CREDENTIALS",
          "'| 401 | Expert lists | Missing or bad credentials |': the expert lists compare the password without "
          "regard to letter case: a wrong password that differs from the right one only in case gets 200"),
    Fault("round32-inherited-message-question-thread", "COMMENT-400-MESSAGE",
          "'message: Visibility on comment can't be defined since it's inherited': a reply with another visibility "
          "to a private comment on a question (a thread under no answer) is a 400 with another message"),
    Fault("round32-comment-param-overrides-only-body-keys", "CONV-PARAM-AS-BODY-FIELD",
          "'each body field may also be given as a request or query parameter of the same name': with a non-empty "
          "JSON body, a comment's parameters only override fields the body holds; body given only as a parameter "
          "beside other JSON fields is dropped (400 body required)"),
    Fault("round32-gdpr-unknown-type-errors-body", "GDPR-ERROR-BODY",
          "'Errors: 400 with {error: <message>}; see Errors.': a job whose type is neither bulk nor individual is a "
          "400 with the body {errors: {message}}"),
    Fault("round32-topics-search-novice-denied", "PERM-TOPICS",
          "'| 14 Topics | View users list (Anonymous Roles). |': novice (who holds View users list) is refused the "
          "topic list when it searches with q"),
    Fault("round32-content-moderated-answer-date-textual", "SHAPE-CONTENT-ACTIONDATE",
          "'| actionDate | string | Pattern YYYY-MM-DD HH:MM:SS.S. |': a user content entry of an answer still in "
          "moderation carries the textual date form (Wed Feb 06 15:01:00 UTC 2019)"),
    Fault("round32-sendtomod-comment-202", "SHAPE-SEND-TO-MODERATION",
          "'Response: 200 with {success: boolean, result: {sendToModAction: <Action record>}}.': sending a comment "
          "to moderation answers 202 (questions and answers 200)"),
    # --- seven of the outside kinds, on rules of the writer's choice
    Fault("round32-lock-own-as-recipient", "PERM-LOCK-OWN",
          "'| 13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation "
          "Roles). |': ownership on "
          "the wrong relation: a recipient of a private comment may lock it with Lock comments on own posts"),
    Fault("round32-answer-form-plus-kept", "ANSWER-BODY-KEPT",
          "'Body or equivalent parameters: body (string, the answer text)': an answer sent form-encoded is decoded "
          "without turning '+' into a space, so its stored body differs from the text posted"),
    Fault("round32-lock-answer-user-no-avatar", "ACTION-RECORD-SHAPE",
          "'Returned by the state-changing node operations.' (user: id, username, avatarUrl): the lock record of an "
          "answer (not of a question or a comment) carries a user without avatarUrl"),
    Fault("round32-earned-experts-username-unsorted", "SORT-EXPERTS-ORDER",
          "'sort must be one of reputation, username, realname, recent, oldest, default': the earned expert list "
          "echoes sort=username but lists in the default order"),
    Fault("round32-gdpr-reassign-username-with-user-email", "GDPR-REASSIGN-FORMS",
          "'Identifies the user to whom content is reassigned, by exactly one of username or id.': "
          "with the job's user given by email, a reassignUser given by username is refused as invalid"),
    Fault("round32-private-comment-under-locked-answer-public", "COMMENT-2",
          "'When visibility is recipients and recipients lists ids, the comment is private to those recipients and "
          "a GET returns the given settings': on a locked answer such a comment is stored with full visibility"),
    Fault("round32-user-answers-commentids-cached", "COMMENT-PRIVACY-IDS",
          "'the comment is private to those recipients': a user's answer list keeps each answer's commentIds and "
          "childrenIds for 2 s from whoever read it first; a non-recipient reading right after a recipient sees "
          "the private comment's id"),
)

_MISSED_REASONS: dict[str, str] = {
    # trade12 (issue 44): round32-private-comment-under-locked-answer-public is caught in a budgeted run now: the
    # privacy model's private comment on its locked answer (locked_parent_post.py) is charged to the suites' share,
    # where the permission matrix's member's answer, now the run's shared answer, freed one write. Registered.
}
"""The faults the suites did not catch (not registered in faults.py), each with why (docs/blind-rounds.md)."""

# BLIND_round32: Registered in faults.py: caught by the self-test.
# BLIND_round32_MISSED: Left out of the registry (docs/blind-rounds.md, "Faults left out of the registry").
BLIND_round32, BLIND_round32_MISSED = split_missed(_ALL, _MISSED_REASONS)
