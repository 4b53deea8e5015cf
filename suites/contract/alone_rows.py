"""Each parameter value alone, for every reader, in the table-driven list suites that do not go through
``covering.rule_rows`` (paths14, issue 44 item 1): test_list_responses.py, test_subtree_rows.py and
test_list_access.py (whose rows list_access.alone_rows derives with :func:`alone`).

Why: a pairwise array gives each value of a parameter beside some other parameter in nearly every row, so a server
path taken only when that parameter is the whole query (a fast path for a plain projected, paged or sorted list, or
for the plain list itself) for one reader is never read. alone13 closed it for test_matrix.py's rules
(``covering.each_reader_alone``); these three suites draw their rows from arrays of their own (the request form, the
lists' own parameters, the read order), so here, derived from the rows each array drew:

- every reader of the array reads the list with no parameter at all in every request form the array crosses (the
  form alone), and with each value of each dimension the array drew alone, in the JSON form (the samples' own);
- a value drawn only with an owner (a user list's ``@account`` paging: that account's list) keeps its owner;
- a row the suite already holds (by label) is not added again, and the rows depend only on the list, the reader and
  the value, so every rule the suite judges on a response shares the row and its one read.

The values come from the drawn rows themselves (a pairwise array holds every value of every column), so a suite's
sweeps beside its array (every sort name by admin, every owner) are not multiplied by the readers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from covering import Combination

from qaconform.contract import NONE

R = TypeVar("R")

Atom = tuple[str, str, "str | None"]
"""(dimension, value, owner): one value a row of the array gave, with the account whose list it read when the value
chose it (``Row.owner``; None: the suite's default path)."""


def drawn_values(rows: Iterable[tuple[Combination, str | None]]) -> list[Atom]:
    """Every (dimension, value, owner) the rows give a parameter, in the order first drawn; ``owner`` is kept only
    when the row has one (only a paging value chooses it)."""
    seen: dict[Atom, None] = {}
    for combination, owner in rows:
        for dimension, value in combination.values:
            if value != NONE:
                seen.setdefault((dimension, value, owner if dimension == "paging" else None), None)
    return list(seen)


def alone(op: str, readers: Sequence[str], names: Sequence[str], atoms: Sequence[Atom],
          make: Callable[[Combination, str | None], R], label: Callable[[R], str], have: set[str]) -> list[R]:
    """Every reader's row with no parameter, and with each atom's value alone (the other ``names`` left out), built
    by ``make(combination, owner)``; the labels in ``have`` (the suite's rows) are skipped and the new ones added."""
    out: list[R] = []
    for reader in readers:
        combinations: list[tuple[Combination, str | None]] = [
            (Combination(op, reader, tuple((n, NONE) for n in names)), None)]
        combinations += [(Combination(op, reader, tuple((n, value if n == dimension else NONE) for n in names)),
                          owner) for dimension, value, owner in atoms if dimension in names]
        for combination, owner in combinations:
            row = make(combination, owner)
            if label(row) not in have:
                have.add(label(row))
                out.append(row)
    return out


def response_rows(drawn: Sequence[Any], json_form: str, have: set[str]) -> list[Any]:
    """test_list_responses.py, test_subtree_rows.py: the alone rows of one list's response array ``drawn`` (the
    array's own ``list_responses.Row`` rows, not the sweeps beside it): every reader with no parameter in each request
    form the array crosses, and with each drawn value alone in ``json_form``; labels in ``have`` skipped. The rows
    are of the drawn rows' own class (this module imports no suite module: list_access.py imports it)."""
    if not drawn:
        return []
    make, op = type(drawn[0]), drawn[0].op
    names = [d for d, _ in drawn[0].combination.values]
    readers = list(dict.fromkeys(r.reader for r in drawn))
    atoms = drawn_values((r.combination, r.owner) for r in drawn)
    out = alone(op, readers, names, atoms, lambda c, owner: make(c, json_form, owner), lambda r: r.label, have)
    for form in dict.fromkeys(r.form for r in drawn):
        out += alone(op, readers, names, (), functools.partial(_in_form, make, form), lambda r: r.label, have)
    return out


def _in_form(make: Callable[..., Any], form: str, combination: Combination, _owner: str | None) -> Any:
    """A row of ``make``'s class reading ``combination`` in ``form`` at the suite's default path."""
    return make(combination, form)


def own_in_every_form(drawn: Sequence[Any], own: Sequence[str], have: set[str]) -> list[Any]:
    """reads16 (issue 44 items 1 and 3): each value of the list's own parameters (``own``: list_access.own, the
    filters and the follower options the list's section states) alone in every request form the array crosses, read
    by the array's first reader. A pairwise array met spaceId and the browser's Accept only in rows under wrap or v1,
    where no item rule is judged, so FILTER-SPACEID was planned across the request form and never judged in one
    (crossing: 22 planned but not judged). One read a (value, form) pair; labels in ``have`` skipped."""
    if not drawn or not own:
        return []
    make, op = type(drawn[0]), drawn[0].op
    names = [d for d, _ in drawn[0].combination.values]
    atoms = [a for a in drawn_values((r.combination, None) for r in drawn) if a[0] in own]
    out: list[Any] = []
    for form in dict.fromkeys(r.form for r in drawn):
        out += [row for row in alone(op, [drawn[0].reader], names, atoms, functools.partial(_in_form, make, form),
                                     lambda r: r.label, have) if any(v != NONE for _, v in row.combination.values)]
    return out
