"""Planted faults of the kinds accept23 closes (issue 44: a history, a setting of the space tree). A stated effect of
the lock broken only on a WIKI node, which no run locked before accept23 (the drawn unwikifier now locks the node it
unwikifies right before: suites/one_shot_calls.py ``wiki_locked_first``); a private option in a CHILD space, where no
private comment of a run went before accept23 (member's shared to_moderators comment now goes under admin's
child-space answer: suites/own_question_private.py). Each quotes the sentence it breaks, was missed before
(``qaconform selftest --fault NAME --no-clean --jobs 1`` without the suites' change) and is caught after. Part of the
registry (fault_list18.py); wired through :mod:`accept23_paths` (one entry of request_hooks.HOOKS).
"""

from __future__ import annotations

from .fault_model import Fault

ACCEPT23: tuple[Fault, ...] = (
    Fault("accept23-kind-lock-wiki-node-extra-null", "ACTION-LOCK-EXTRA",
          "'Unlocked node | PUT lock with prompt | ... | Locked | The prompt is stored as extra of the returned lock "
          "action.': the lock of a WIKI node (wiki true) stores and returns extra null (the wiki node's lock path "
          "drops the prompt); nodes that are not wiki as before"),
    Fault("accept23-kind-comment-mod-option-child-space-stored-full", "COMMENT-8",
          "'Private comments exist from 2.16.0; the private-comment rules apply only to targets at 2.16.0 or later.': "
          "a comment with the to-moderators option (visibility mod) on a node of a CHILD space (a space with a parent) "
          "is created 201 but stored with full visibility (the child space's own empty privacy settings are applied "
          "instead of its parent's); root spaces as before"),
)
