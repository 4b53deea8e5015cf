"""The user lists' extra rows of test_list_responses.py: every account's list (blind9) and, since close2, the lists of
the accounts the profile names in a relation under every seen sort name. Moved out of list_responses.py at the module
limit (close2).

close2 (issue 44, round86-user-questions-favoritecount-sort-adds-favorited's kind: a sort served by another query):
a user list read under every seen sort name (list_responses.every_sort_name) was read for the matrices' path user
only, who holds no relation the profile states; a server whose query for one sort joins a relation table (the
user's favorites, the nodes it follows) on the wrong column lists the related nodes of another account as the
user's own on that sort only. :func:`every_sort_of_holders` reads the lists of the accounts holding a stated relation
(:data:`HOLDERS`) under every seen name: reads only, admin's, in JSON.
"""

from __future__ import annotations

from covering import Combination
from list_responses import JSON_FORM, SWEEP_READER, Row

from qaconform.contract import Contract, envelope

USER_LISTS = ("listUserQuestions", "listUserAnswers")
"""The lists whose path names a user ("Path parameter: userId")."""
OWNERS = "writer"
"""The dimension whose values are the profile's accounts (every one of them has questions or answers to list)."""


def every_owner(op: str, contract: Contract) -> list[Row]:
    """blind9 (issue 44): one more row per account of the profile as the path's user of a user list, read by admin
    with no parameter. The covering array reads one user's list (the fixture question's author, member); the nodes in
    a state only the interface's fixtures put them in (community wiki, a favorite, a lock) are other accounts' posts,
    so every response rule of the list was never judged on them (a wiki question typed otherwise passed). Added
    beside the covering array, which keeps its rows and ids."""
    if op not in USER_LISTS:
        return []
    return [Row(Combination(op, SWEEP_READER, ()), JSON_FORM, owner)
            for owner in contract.dimensions.values[OWNERS]]


HOLDERS = ("member", "admin")
"""The accounts the profile's relations name: favorite_node_id's holder ("member marked it as favorite") and admin,
its second holder where ``favorite_also_held_by`` says so (a holder of none gives plain reads)."""


def every_sort_of_holders(op: str, contract: Contract, drawn: list[Row]) -> list[Row]:
    """close2 (the module's docstring): one row per seen sort name and account of :data:`HOLDERS` on each user list,
    read by admin with only that sort, but those ``drawn`` (the covering array's rows) has. Added beside the
    covering array, which keeps its rows and ids."""
    if op not in USER_LISTS or "sort" not in contract.dimensions.of_list(op):
        return []
    have = {row.label for row in drawn}
    rows = [Row(Combination(op, SWEEP_READER, (("sort", f"sort={name}"),)), JSON_FORM, owner)
            for owner in HOLDERS for name in envelope().sorts_seen]
    return [row for row in rows if row.label not in have]
