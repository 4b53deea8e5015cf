"""Planted faults of the kind accept23 closes (issue 44: a rule after a lock): a stated effect of the unwikify broken
only on a LOCKED wiki node, which no run unwikified before accept23 (the drawn unwikifier now locks the node right
before its unwikify: suites/one_shot_calls.py ``wiki_locked_first``). Each quotes the sentence it breaks, was missed
before (``qaconform selftest --fault NAME --no-clean --jobs 1`` without the lock) and is caught after. Part of the
registry (fault_list18.py); wired through :mod:`accept23_paths` (one entry of request_hooks.HOOKS).
"""

from __future__ import annotations

from .fault_model import Fault

ACCEPT23: tuple[Fault, ...] = (
    Fault("accept23-kind-cancelwiki-locked-node-stays-wiki", "ACTION-CANCELWIKI-NOT-WIKI",
          "'Wikified node (wiki true) | PUT cancelwiki | ... | Not wiki (closed for editing)': unwikifying a LOCKED "
          "node returns the wiki action with canceled true but leaves the node wiki (the locked node's row is "
          "written back as read before the cancel); unlocked nodes as before"),
    Fault("accept23-kind-comment-mod-option-child-space-stored-full", "COMMENT-8",
          "'Private comments exist from 2.16.0; the private-comment rules apply only to targets at 2.16.0 or later.': "
          "a comment with the to-moderators option (visibility mod) on a node of a CHILD space (a space with a parent) "
          "is created 201 but stored with full visibility (the child space's own empty privacy settings are applied "
          "instead of its parent's); root spaces as before"),
)
