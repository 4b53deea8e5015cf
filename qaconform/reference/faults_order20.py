"""Planted faults of the kind order20 closes (issue 44 item 6): a list that reuses the visibility worked out for the
request before it, when that came a few seconds earlier, caught only by a read pair that no scheduling can pull
apart (suites/contract/test_list_access.py, the projected list read right after admin's plain read of the same list).
Missed by the suites before order20 (``qaconform selftest --fault NAME --no-clean --jobs 1`` at base c383e7d) and
caught after. Part of the registry (fault_list.py); wired through :mod:`order20_paths` (one entry of
request_hooks.HOOKS).
"""

from __future__ import annotations

from .fault_model import Fault

ORDER20: tuple[Fault, ...] = (
    Fault("order20-kind-user-answers-projected-visibility-of-plain-read-before", "PROJ-ONLY-VISIBLE",
          "'Only items the caller may see are returned.' (read order): a user's answer list asked with a projection "
          "(includeOnly, include or exclude) reuses the space visibility of the request before it when that was a "
          "plain read of the same list by a caller who sees every space, less than three seconds earlier, so "
          "novice's projected answer list of member right after admin's plain one shows the answers in the space "
          "hidden from novice; after a projected read, another list, or a pause it is right"),
)
