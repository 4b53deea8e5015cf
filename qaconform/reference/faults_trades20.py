"""Planted faults of the kind trades20 closes (issue 44 items 2 and 7): a refusal broken only where an own-node
permission cell's refused half acts (member, who holds the own-posts right only, on another's node: the matrix's
shared answer of an administrator's). A whole ``qaconform run`` held those cells back as "write budget spent" once
the suites' share was spent, though the call is one a conforming target refuses; the self-test (each rule's tests
alone) sent them. Each quotes the sentence it breaks, was missed by a whole run before trades20 (``qaconform selftest
--whole-suite --until-caught --fault NAME --no-clean --jobs 1`` at base c383e7d) and is caught after. Part of the
registry (fault_list.py); wired through :mod:`trades20_paths` (one entry of request_hooks.HOOKS).
"""

from __future__ import annotations

from .fault_model import Fault

TRADES20: tuple[Fault, ...] = (
    Fault("trades20-member-cancelwiki-admins-node-200", "PERM-CANCELWIKI-OWN",
          "'| 11 Unwikify | Mark as community wiki; for the caller's own node, Convert own posts to community wiki. "
          "|': member's refused unwikify of a published answer an administrator wrote (not wiki, not locked, not in "
          "moderation) is answered 200 (the no-op of a node already not wiki taken before the permission); its "
          "other refusals as before"),
)
