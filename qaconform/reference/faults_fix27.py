"""fix27 (issue 44): faults of the kind blind round 27 found, on paths next to its miss: a reply posted under a private
comment that was locked on its own (a rule after a state change). Each was missed by the suites before the privacy
model's lock moved into its opening (a reply posted under the locked comment) and is caught after it. Wired in
:mod:`fix27_paths`.
"""

from __future__ import annotations

from .fault_model import Fault

FIX27: tuple[Fault, ...] = (
    Fault("fix27-reply-under-locked-recipients-dropped", "COMMENT-VISIBILITY-RETURNED",
          "Both visibility and recipients are returned when a comment is retrieved: but a reply posted under a private"
          " comment after its lock is returned without recipients (stored right, read back wrong)"),
    Fault("fix27-reply-under-locked-stored-op", "COMMENT-3",
          "A reply to a private comment without privacy fields ... inherits the parent's settings: but under a"
          " locked private comment such a reply is stored 'to the original poster' (the lock's owner rule mixed into"
          " its privacy)"),
)
