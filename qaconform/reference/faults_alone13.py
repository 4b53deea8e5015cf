"""alone13 (issue 44 item 1): four faults of one shape, "rule R broken only when parameter P is the only parameter,
for one reader" (where they bite: :mod:`alone13_paths`). A vendor's code path taken only when P is the whole query
(a fast path for a plain projected, paged or filtered list) is hidden from a pairwise covering array, which gives
each value of P beside some other parameter in nearly every row; ``covering.each_reader_alone`` reads every value of
every parameter alone for every reader.
"""

from __future__ import annotations

from .fault_model import Fault

_F = Fault

ALONE13: tuple[Fault, ...] = (
    _F("alone13-spaces-exclude-alone-hidden-shown", "PROJ-ONLY-VISIBLE",
       "'Only items the caller may see are returned': novice's space list asked with exclude and no other parameter "
       "(the projected fast path) lists the spaces hidden from novice too; with any other parameter beside, or for "
       "any other reader, they are left out"),
    _F("alone13-questions-pagesize-alone-listcount-total", "PAGING-LISTCOUNT",
       "'| listCount | integer | Number of items in this page. |': member's question list asked with pageSize and "
       "no other parameter gives the total count as listCount; with any other parameter beside it counts the page"),
    _F("alone13-topics-includeonly-alone-ignored", "PROJ-INCLUDEONLY",
       "'includeOnly ... limits the returned items to those fields': moderator's topic list asked with includeOnly "
       "and no other parameter returns every field; with any other parameter beside, or for any other reader, the "
       "items are limited"),
    _F("alone13-questions-spaceid-alone-ignored", "FILTER-SPACEID",
       "'spaceId (integer; restricts to one space)': member's question list asked with spaceId and no other "
       "parameter lists the questions of every space; with any other parameter beside it is restricted"),
)
"""Planted to prove the alone rows (issue 44 item 1); the measure before and after is in ARCHITECTURE.md."""
