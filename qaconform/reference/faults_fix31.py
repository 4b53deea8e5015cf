"""fix31 (issue 44): faults of the kinds blind round 31 found, planted on neighbouring paths to prove each widening
closes its kind, not its one fault (docs/blind-rounds.md, round 31). Hooks in :mod:`fix31_paths`.

- an id at its edges where the error table states the answer (round31: a content list's userId past 32 bits; here a
  job's reassignUser id and a node's follower list, an id a 64-bit server holds but a 32-bit parser does not);
- a field's refusal in one input form only (round31: reassignUser as a request parameter; here operations);
"""

from __future__ import annotations

from .fault_model import Fault

FIX31: tuple[Fault, ...] = (
    Fault("fix31-reassign-id-beyond-int32-wrong-error", "GDPR-REASSIGN-INVALID",
          "a reassignUser id from 2^31 up to 18 digits is refused with 'reassignUser id must be an integer' (a"
          " 32-bit parser) instead of the stated row; '| 400 | Schedule job | reassignUser does not exist | {error:"
          " The provided 'reassignUser' is/are invalid} |'"),
    Fault("fix31-followers-id-beyond-int32-500", "CONV-NO-SERVER-ERROR",
          "a node's follower list for a node id from 2^31 up to 18 digits is a 500 (the id overflows a 32-bit"
          " column); 'Path parameter: nodeId (integer)': a bad id is the client's matter, never a 5xx"),
    Fault("fix31-gdpr-operations-param-unchecked", "GDPR-OPERATIONS-INVALID",
          "operations given as a request parameter (JSON text in the query) is not checked, so an empty or unknown"
          " list is scheduled; in the JSON body it is refused as stated; '{error: The provided 'operations' is/are"
          " invalid}' with 'At least one and at most 4 elements'"),
)
