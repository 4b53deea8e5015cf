"""paths14 (issue 44 item 1): three faults of one shape, "rule R broken only when parameter P is the whole query (or
the query is empty in one request form), for one reader", on rules the table-driven list suites own:
test_list_access.py (a list's permission), test_list_responses.py (an item field rule) and test_subtree_rows.py (the
comment list's privacy). Where they bite: :mod:`paths14_paths` and one override of the route table
(``Override.alone``). The alone rows that catch them: suites/contract/alone_rows.py.
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_F = Fault

_ALL: tuple[Fault, ...] = (
    _F("paths14-groups-projection-alone-moderator-served", "PERM-GROUPS",
       "'| 17 Groups | Edit users and groups (Site Administration Roles). |': the group list asked with one "
       "projection parameter (include, exclude or includeOnly) and no other parameter lets a moderator in (200: "
       "the projected fast path skips the check); with any other parameter beside, or none, the moderator is "
       "refused",
       (Override(("listGroups",), "moderator", Effect.ALLOW, when=("include", "exclude", "includeOnly"),
                 alone=True),)),
    _F("paths14-user-answers-sort-alone-moderator-title", "NODE-TITLE-ANSWERS-COMMENTS",
       "'Absent or null for answers and comments.': moderator's user-answer list asked with sort and no other "
       "parameter gives each answer its question's title; with any other parameter beside, or for any other "
       "reader, answers carry no title"),
    _F("paths14-comments-plain-browser-novice-private-shown", "COMMENT-PRIVACY-LIST",
       "'the comment is private to those recipients': novice's comment list asked with no parameter by a browser "
       "(an Accept that names text/html) lists the private comments novice is no recipient of; with any "
       "parameter, with the JSON Accept, or for any other reader, they are left out"),
    # --- item 2: a record right after another account's call on the node
    _F("paths14-lock-user-last-caller", "AUTH-ACTING-USER",
       "'The acting user is taken from the credentials.': a lock's record names as its user the account whose node "
       "action on the node came last, a refused one included (an audit column written at the door and read back "
       "for the record); a lock right after the caller's own call, or the node's first, names the caller"),
)

_MISSED_REASONS: dict[str, str] = {}
"""Missed after paths14's change (``qaconform selftest --fault NAME --no-clean``), with why it stays out."""

# PATHS14: Missed on main before paths14's change and caught after it: registered in faults.py.
# PATHS14_MISSED: Not registered, still wired, reasons in :data:`_MISSED_REASONS`.
PATHS14, PATHS14_MISSED = split_missed(_ALL, _MISSED_REASONS)
