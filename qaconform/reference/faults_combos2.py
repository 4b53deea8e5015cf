"""Planted faults of the refusals judged the same everywhere (issue 44, combos2): each answers ONE refusal the
description states, at ONE combination of caller, operation and node state, with a redirect off the interface (a
302 to a login page, as a web framework's login filter does) instead of the service's own 4xx. The kit's client
follows same-origin redirects, so the call ends as the login page's 4xx and passed every check that took "any 4xx"
for a refusal; the one judge of refusals (qaconform/pytest/refusals.py) also asks that the answer came from
/services/v2. Wired in :mod:`combos2_paths`; part of the registry (:mod:`faults`)."""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
COMBOS2: tuple[Fault, ...] = (
    _F("combos2-anonymous-lock-of-locked-node-redirected", "PERM-DENIED-STATUS",
       "an anonymous lock of a node that is ALREADY LOCKED is answered with 302 to /users/login.html (the login "
       "filter runs only once the state check has failed); anonymous locks of unlocked nodes get the 401 of the "
       "service; 'Every operation requires the permissions below.'"),
    _F("combos2-novice-private-comment-on-locked-node-redirected", "COMMENT-7-NO-PRIVATE-PERMISSION",
       "novice's comment with a visibility option on a LOCKED node is answered with 302 to /users/login.html "
       "instead of the service's refusal; on published nodes it gets the 403 of rule 7; 'Comment visibility "
       "... lacks the permission for that option, gives 403.'"),
)
"""The redirected refusals (combos2): each breaks one rule at one combination, caught where the refusal is judged."""
