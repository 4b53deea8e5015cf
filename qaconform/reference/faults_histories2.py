"""Planted faults of the histories and read orders (issue 44, Build items 5 and 6; histories2): each breaks one stated
rule only at one depth of a thread under one kind of parent, only after one state change, or only in one order of
reads of one URL (an anonymous read right after a privileged one). Part of the registry (:mod:`faults`); each is
wired through :mod:`histories2_faults` at the one place it bites (comments.py, node_lists.py, dispatch.py).

Depth is counted as the privacy model counts it: 0 for a comment on the question or the answer, 1 for a reply to
it, 2 for a reply to a reply.
"""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
HISTORIES2: tuple[Fault, ...] = (
    # --- a thread under the question, at depth 2 (comments.py, node_lists.py, dispatch.py)
    _F("h2-question-depth2-reply-public", "COMMENT-3",
       "\"A reply to a private comment without privacy fields, or with the same ones, inherits the parent's "
       "settings: 201.\" A reply to a reply under a comment on a question (depth 2) is stored with full visibility "
       "and no recipients; at depth 1, and at every depth under an answer, it inherits"),
    _F("h2-question-depth3-rule4-skipped", "COMMENT-4",
       "\"A reply to a private comment with different visibility gives 400.\" Under a comment on a question, a reply "
       "to a depth-2 reply that asks another visibility is taken as inheriting (201); at depths 1 and 2, and under "
       "an answer, it is refused"),
    _F("h2-question-depth2-content-leak", "COMMENT-PRIVACY-CONTENT",
       "\"When visibility is recipients and recipients lists ids, the comment is private to those recipients\": a "
       "user's content list shows the author's private replies at depth 2 under a comment on a question to every "
       "reader (the content query filters depths 0 and 1 of a question's threads only)"),
    _F("h2-question-depth2-recipients-not-returned", "COMMENT-VISIBILITY-RETURNED",
       "\"Both visibility and recipients are returned when a comment is retrieved\": a comment at depth 2 under a "
       "comment on a question is read back at its Location without recipients (visibility kept)"),
    # --- one URL read by several accounts back to back: anonymous right after a privileged read (dispatch.py)
    _F("h2-locked-comments-anonymous-after-staff", "COMMENT-PRIVACY-LIST",
       "\"... the comment is private to those recipients\": once an answer is locked, its comment list is kept by "
       "URL for two seconds after a read by an account with a Moderation Roles permission, and an anonymous read "
       "of the same URL right after it is served that copy (any other read in between refreshes it)"),
    _F("h2-locked-deep-answer-ids-anonymous-after-staff", "COMMENT-PRIVACY-IDS",
       "\"... the comment is private to those recipients\": a user's answer list that holds a locked answer with a "
       "reply at depth 2 under it is kept by URL for two seconds after a read by an account with a Moderation Roles "
       "permission, and an anonymous read of the same URL right after it is served that copy, private comment ids "
       "in commentIds included"),
    _F("h2-deep-question-ids-anonymous-after-staff", "COMMENT-PRIVACY-IDS",
       "\"... the comment is private to those recipients\": the question list, when a question of the page holds a "
       "reply at depth 2 under one of its comments, is kept by URL for two seconds after a read by an account with "
       "a Moderation Roles permission, and an anonymous read of the same URL right after it is served that copy, "
       "private comment ids in commentIds included"),
    _F("h2-question-depth2-same-fields-refused", "COMMENT-3",
       "\"A reply to a private comment without privacy fields, or with the same ones, inherits the parent's "
       "settings: 201.\" A reply with the same visibility and recipients to a reply under a comment on a question "
       "(depth 2) is refused 400 as another visibility (the recipients compared with the thread's first comment's "
       "stored rows); without fields, at depth 1, or under an answer it inherits"),
)
"""Histories and read orders (issue 44, histories2): each missed by the suites before the privacy model read the
thread under the question at depth 2 and every URL in both orders."""
