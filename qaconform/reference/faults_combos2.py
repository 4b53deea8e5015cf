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
    # --- rule 7 skipped at one combination of role, relation, parent kind and option (comment refusal matrix)
    _F("combos2-member-own-groups-on-own-question-allowed", "COMMENT-7-NO-OPTION-PERMISSION",
       "member's comment private to its own groups on a QUESTION member WROTE is accepted (the option check "
       "skipped for the question's author); on answers, comments and others' questions it gets 403; 'or lacks "
       "the permission for that option, gives 403.'"),
    _F("combos2-novice-to-moderators-on-own-comment-allowed", "COMMENT-7-NO-PRIVATE-PERMISSION",
       "novice's comment private to moderators as a reply to a COMMENT novice WROTE is accepted (a reply to one's own "
       "comment taken for a note to oneself); elsewhere, and with the other options, it gets 403; 'used by a caller "
       "who lacks the permission to use private comments ... gives 403.'"),
)
"""The redirected refusals (combos2): each breaks one rule at one combination, caught where the refusal is judged."""
