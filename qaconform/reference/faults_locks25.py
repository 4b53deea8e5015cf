"""Planted faults of the kind locks25 closes (issue 44: a lock, or a later action on the locked node, on a relation
the run's locks never took). The run's one lock of a comment was admin's of member's reply under MEMBER's own comment,
so a lock, a send to moderation or an unwikify by a moderation holder of another account's comment whose PARENT the
caller wrote was never tried (round92-lock-moderator-comment-under-own-node-refused). Each quotes the sentence it
breaks, was measured missed on the base (``qaconform selftest --fault NAME --no-clean --jobs 1``) and is caught at the
seeds drawing the placement "locked comment parent=the locker's own comment" (qaconform/pytest/seed_draws.py).
Part of the registry (fault_list18.py); wired through :mod:`locks25_hooks`.
"""

from __future__ import annotations

from .fault_model import Fault

_UNDER_LOCKER = ("locked comment parent=the locker's own comment",)

LOCKS25: tuple[Fault, ...] = (
    Fault("locks25-lock-comment-under-own-node-names-parent", "ACTION-NODE-ID",
          "'| node | object | id (integer), type (string). |' (the node acted on): the lockAction of a lock of ANOTHER "
          "account's COMMENT whose PARENT the caller wrote names the parent ({id: <parent id>, type: <parent's "
          "type>}: the own-thread lock path records the lock against the caller's node); other locks name the node "
          "locked",
          draws=_UNDER_LOCKER),
    Fault("locks25-lock-comment-under-own-node-extra-null", "ACTION-LOCK-EXTRA",
          "'Unlocked node | PUT lock with prompt | ... | Locked | The prompt is stored as extra of the returned lock "
          "action.': a lock of ANOTHER account's COMMENT whose PARENT the caller wrote stores and returns extra null "
          "(the own-thread lock path drops the prompt); other locks keep it",
          draws=_UNDER_LOCKER),
    Fault("locks25-sendtomod-comment-under-own-node-refused", "PERM-SENDTOMOD",
          "'| 12 Send to moderation | Send already published question to moderation (Moderation Roles). |': a send "
          "to moderation by a caller holding it of ANOTHER account's COMMENT whose PARENT the caller wrote is refused "
          "403 (the own-thread branch asks for an own-post permission the table does not have); other comments, "
          "answers and questions are sent",
          draws=_UNDER_LOCKER),
    Fault("locks25-cancelwiki-locked-comment-under-own-node-refused", "PERM-CANCELWIKI",
          "'| 11 Unwikify | Mark as community wiki; for the caller's own node, Convert own posts to community wiki. "
          "|': an unwikify by a caller holding Mark as community wiki of ANOTHER account's LOCKED COMMENT whose PARENT "
          "the caller wrote is refused 403 (the own-thread branch asks for the own-post permission on a locked "
          "node); on other nodes the caller's unwikify is decided by the node's state",
          draws=_UNDER_LOCKER),
)
