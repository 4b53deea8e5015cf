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
    moderation wins over locked, as the action matrix names a node locked and then sent)."""

    action: str
    role: str
    relation: str
    kind: str
    state: str


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
}
"""fault name -> the combination at which the permission table's answer is refused with 403."""

_F = Fault
COMBOS: tuple[Fault, ...] = (
    _F("combos-cancelwiki-member-own-comment-refused", "PERM-CANCELWIKI-OWN",
       "member's unwikify of its OWN published COMMENT is refused with 403 (Convert own posts to community wiki "
       "holds on every kind of node; its own answers and questions, and others' comments, are judged right)"),
    _F("combos-cancelwiki-admin-others-moderated-comment-refused", "PERM-CANCELWIKI",
       "admin's unwikify of ANOTHER's COMMENT IN MODERATION is refused with 403 (Mark as community wiki holds on "
       "every node; answers in moderation and published comments are judged right)"),
    _F("combos-unfavorite-moderator-others-moderated-answer-refused", "PERM-UNFAVORITE",
       "moderator's unfavorite of ANOTHER's ANSWER IN MODERATION is refused with 403 (Mark as favorite holds on "
       "every node the caller sees; its own, comments in moderation and published answers are judged right)"),
    _F("combos-unfavorite-admin-others-locked-answer-refused", "PERM-UNFAVORITE",
       "admin's unfavorite of ANOTHER's LOCKED ANSWER is refused with 403 (a lock says nothing of favorites; "
       "locked comments, its own answers and published answers are judged right)"),
)
"""The combination faults (combos): each breaks one rule at one cell of :data:`COMBINATIONS`."""
