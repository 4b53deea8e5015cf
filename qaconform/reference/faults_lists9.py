"""lists9 (issue 44 items 1 and 4): faults of the kind blind rounds keep finding, an item field judged on one
parameter set of its list only: each breaks one stated item rule on one list, only when that list is read with one
stated parameter set (a projection naming a date, a sort of the comment list, a page past the second, a page
above 10 items, one user's list under a sort). Each was missed by main's suites and is caught by the response
array's deeper rows (suites/contract/response_params.py). Wired in :mod:`lists9_paths`.
"""

from __future__ import annotations

from .fault_model import Fault

LISTS9: tuple[Fault, ...] = (
    Fault("lists9-user-answers-includeonly-date-seconds", "SHAPE-DATES-MILLIS",
          "a user's answer list asked with includeOnly naming creationDate gives it in seconds, though creationDate "
          "is 'Epoch time in milliseconds.'"),
    Fault("lists9-comments-sorted-parent-text", "NODE-ORIGINAL-PARENT-ID",
          "an answer's comment list asked with a sort gives originalParentId as a string, though originalParentId "
          "is an integer 'Present on answers and comments.'"),
    Fault("lists9-user-questions-page3-typed-answer", "LIST-ITEM-TYPE",
          "a user's question list read at page 3 or later types its items answer, though it is a 'paged list of "
          "question Nodes.'"),
    Fault("lists9-spaces-large-page-no-prefix", "SHAPE-LIST-SPACES",
          "the space list asked with a pageSize above 10 drops each space's prefix, though it is a 'paged list of "
          "Space items' and a Space has prefix (string)"),
    Fault("lists9-moderator-questions-exclude-last-active-seconds", "SHAPE-DATES-MILLIS",
          "the question list of one user (moderator's, user 2) asked with exclude gives lastActiveDate in seconds (a "
          "per-user projected query of its own), though lastActiveDate is 'Epoch time in milliseconds.'"),
)
