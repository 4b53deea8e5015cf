"""fix28 (issue 44): faults of the kind blind round 28's round28-search-questions-unmarked is (a field's stated meaning
judged on the question list without its optional parameters only), on neighbouring parameters: the question list
asked with type, or with includeOnly, shows every question marked false. Each breaks "marked: true on an accepted
answer and on the question that has it." on one parameter of the question list only. Missed before the suites read
the question of an accepted answer under each stated parameter of the list (test_list_semantics.py) and caught
after. Wired in :mod:`fix28_paths`.
"""

from __future__ import annotations

from .fault_model import Fault

FIX28: tuple[Fault, ...] = (
    Fault("fix28-questions-type-unmarked", "MARKED-ACCEPTED-QUESTION",
          "the question list asked with type (a stated search parameter) shows every question marked false, though "
          "'marked: true on an accepted answer and on the question that has it.'"),
    Fault("fix28-questions-includeonly-unmarked", "MARKED-ACCEPTED-QUESTION",
          "the question list asked with includeOnly naming marked shows every question marked false (a projected "
          "query without the accepted state), though 'marked: true on an accepted answer and on the question that "
          "has it.'"),
)
