"""reads16 (issue 44 items 1, 2 and 6): faults a filter value that selects nothing hid, and one a write's read-back
by only some of the accounts it names hid. Each breaks one stated rule on
the rows of a filtered read only, so a suite that fills the filter with a value no item carries judges an empty
list and cannot see it; wired in :mod:`reads16_paths`.
"""

from __future__ import annotations

from .fault_model import Fault

READS16: tuple[Fault, ...] = (
    Fault(
        "reads16-spaceid-with-search-lists-nothing", "FILTER-SPACEID",
        "'spaceId (integer; restricts to one space)': the question list asked with spaceId and a search q answers "
        "an empty page (totalCount 0) although the space holds questions the search finds (the search runs on the "
        "filtered ids as text and matches none); spaceId alone, or q alone, is right",
    ),
    Fault(
        "reads16-topics-filter-shows-hidden-space", "PROJ-ONLY-VISIBLE",
        "'Only items the caller may see are returned': the question list asked with a topics filter forgets the "
        "caller's spaces (the topic's questions are taken from the topic index, which holds every space): a "
        "reader shown the topic's questions sees those of a space it may not see; without topics the list is right",
    ),
    Fault(
        "reads16-reply-fields-first-recipient-unlisted", "COMMENT-3",
        "'A reply to a private comment without privacy fields, or with the same ones, inherits the parent's "
        "settings': a reply to a private comment that gives its recipients is stored with them (every reader reads "
        "them back as given) but its audience is built from the list after its first item: the account named "
        "first does not find it in the answer's comment list; its author and the others do",
    ),
)
"""Registered: each missed on main at 9d4b908 (the topics filter of the access rows sent a title word, and the
spaceId of the matrix's searched rows a space the search finds nothing in) and caught after."""
