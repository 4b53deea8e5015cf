"""content25 (issue 44, twenty-fifth session): three faults of round95-content-group-comments-listed's kind, a user's
content list (operation 8) showing the user's comments of a private option (not recipients) to a reader outside the
option's audience, each on one path. Written before the closing (the content list judged for every private option,
suites/scenarios/option_content.py) and measured missed before it, caught after. Hooks: :mod:`content25_hooks`.
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    Fault(
        "content25-op-comment-on-question-listed", "COMMENT-PRIVACY-CONTENT",
        "A user's content list shows the user's comments private to the ORIGINAL POSTER (visibility op) that hang "
        "directly on a QUESTION to every reader (the content query's op filter joins through the answer to find the "
        "thread's question, so a comment whose parent is the question matches no filter row); op comments under "
        "answers, and the other options, are filtered: breaks 'the comment is private to those recipients' (its "
        "author's content list as seen by a caller outside its audience) for op comments on questions only.",
    ),
    Fault(
        "content25-op-comment-by-question-author-listed", "COMMENT-PRIVACY-CONTENT",
        "A user's content list shows the user's comments private to the ORIGINAL POSTER (visibility op) to every "
        "reader when the user IS the thread's original poster (a note to oneself taken as unrestricted by the "
        "content query); op comments of others, and the other options, are filtered: breaks 'the comment is "
        "private to those recipients' (its author's content list as seen by a caller outside its audience) for the "
        "original poster's own op comments only.",
    ),
    Fault(
        "content25-group-comment-parent-author-groups", "COMMENT-PRIVACY-CONTENT",
        "A user's content list shows the user's comments private to its OWN GROUPS (visibility group) to a reader "
        "who shares a group with the author of the comment's PARENT (the content query's group filter joins the "
        "wrong author: ownership on the wrong relation), whether or not the reader shares one with the comment's "
        "author; the thread view and the other options are right: breaks 'the comment is private to those "
        "recipients' (its author's content list as seen by a caller outside its audience) for group comments "
        "under a group peer's node only.",
    ),
)
"""The three faults, as written before the closing. Measured: all 3 missed before it; after it the two op faults are
caught (test_comment_privacy.py's content-list test of every private option), the group one stays out."""

_MISSED_REASONS: dict[str, str] = {
    "content25-group-comment-parent-author-groups":
        "the run's one group comment judged (moderator's, the shared option comment) hangs under member's shared "
        "answer, and member shares a group with moderator, so a reader sharing a group with the parent's author "
        "shares one with the author too; the only account the reference lets read a content list (admin, Manage "
        "data protection) is in no group of theirs. Closing: a group comment of the run under a node whose author "
        "shares a group with a content-list reader and none with the comment's author (moderator's shared group "
        "comment placed under an answer of admin's on some seeds): a placement of a shared write, no write more",
}

CONTENT25, CONTENT25_MISSED = split_missed(_ALL, _MISSED_REASONS)
