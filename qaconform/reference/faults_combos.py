"""Planted faults of the three-value combinations (issue 44, combos): each breaks one permission rule of the node
actions only at ONE combination of the caller's role, its relation to the node (the node's author, its parent's, its
question's, none) and the node's kind and state, the way a permission decided by a lookup keyed on all three goes
wrong in one cell. A pairwise array meets every pair of those values and still need not meet the cell; the action
matrix draws every admissible combination that writes nothing (suites/contract/action_cases.py), so each is caught
there. Wired in :mod:`combos_perms` (the entry's combination, read from :data:`COMBINATIONS`); part of the registry
(:mod:`faults`)."""

from __future__ import annotations

from typing import NamedTuple

from .fault_model import Fault


class Cell(NamedTuple):
    """The one combination a fault bites at: the action (operationId), the caller's role, its relation to the node
    (author, parent_author, question_author, none), the node's type and its state (created, locked, moderated: in
    moderation wins over locked, as the action matrix names a node locked and then sent; question_locked: an answer
    neither locked nor in moderation whose question is locked)."""

    action: str
    role: str
    relation: str
    kind: str
    state: str
    allow: bool = False
    """Let the caller in though the permission table refuses it (else: refuse an allowed caller with 403)."""

    @property
    def where(self) -> tuple[str, str, str, str, str]:
        return self.action, self.role, self.relation, self.kind, self.state


COMBINATIONS: dict[str, Cell] = {
    # "11 Unwikify | Mark as community wiki; for the caller's own node, Convert own posts to community wiki"
    "combos-cancelwiki-member-own-comment-refused": Cell("cancelWiki", "member", "author", "comment", "created"),
    "combos-cancelwiki-admin-others-moderated-comment-refused": Cell("cancelWiki", "admin", "none", "comment",
                                                                     "moderated"),
    # "10 Unfavorite | Mark as favorite (Standard Roles) and View the question page (Anonymous Roles)"
    "combos-unfavorite-moderator-others-moderated-answer-refused": Cell("unmarkFavorite", "moderator", "none",
                                                                        "answer", "moderated"),
    "combos-unfavorite-admin-others-locked-answer-refused": Cell("unmarkFavorite", "admin", "none", "answer",
                                                                 "locked"),
    # states after two transitions: an answer whose question is locked (the profile's locked_question_id)
    # "13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts"
    "combos-lock-member-others-answer-under-locked-question-allowed": Cell("lockNode", "member", "none", "answer",
                                                                          "question_locked", allow=True),
    # "11 Unwikify | Mark as community wiki; ..."
    "combos-cancelwiki-moderator-own-answer-under-locked-question-refused": Cell("cancelWiki", "moderator", "author",
                                                                                 "answer", "question_locked"),
}
"""fault name -> the combination at which the permission table's answer is turned round (an allowed caller refused
with 403, or a refused one let in)."""

_F = Fault
COMBOS: tuple[Fault, ...] = (
    _F("combos-cancelwiki-member-own-comment-refused", "PERM-CANCELWIKI-OWN",
       "member's unwikify of its OWN published COMMENT is refused with 403 (Convert own posts to community wiki "
       "holds on every kind of node; its own answers and questions, and others' comments, are judged right)"),
    _F("combos-cancelwiki-admin-others-moderated-comment-refused", "PERM-CANCELWIKI",
       "admin's unwikify of ANOTHER's COMMENT IN MODERATION is refused with 403 (Mark as community wiki holds on "
       "every node; answers in moderation and published comments are judged right)",
       # locks25: the one moderated comment where admin stands in no relation is the locked reply under member's own
       # comment; on the seeds placing it under admin's, admin is its parent's author (measured missed at 20260805)
       draws=("locked comment parent=the writer's own comment",)),
    _F("combos-unfavorite-moderator-others-moderated-answer-refused", "PERM-UNFAVORITE",
       "moderator's unfavorite of ANOTHER's ANSWER IN MODERATION is refused with 403 (Mark as favorite holds on "
       "every node the caller sees; its own, comments in moderation and published answers are judged right)"),
    _F("combos-unfavorite-admin-others-locked-answer-refused", "PERM-UNFAVORITE",
       "admin's unfavorite of ANOTHER's LOCKED ANSWER is refused with 403 (a lock says nothing of favorites; "
       "locked comments, its own answers and published answers are judged right)"),
    _F("combos-lock-member-others-answer-under-locked-question-allowed", "PERM-LOCK-OWN",
       "member may lock ANOTHER's ANSWER whose QUESTION IS LOCKED (the question's lock taken for a lock right on its "
       "answers); member's locks of others' answers under unlocked questions are refused as they should be"),
    _F("combos-cancelwiki-moderator-own-answer-under-locked-question-refused", "PERM-CANCELWIKI",
       "moderator's unwikify of its OWN ANSWER whose QUESTION IS LOCKED is refused with 403 (Mark as community wiki "
       "holds on every node; its answers under unlocked questions and others' answers are judged right)"),
)
"""The combination faults (combos): each breaks one rule at one cell of :data:`COMBINATIONS`."""
