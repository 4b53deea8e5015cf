"""Every list read in every shape its paging gives it (issue 44, lists): the rows test_list_shapes.py reads, derived
from the contract, with spec/ listing only the exclusions.

Why: ten blind rounds kept finding a rule broken only where the page has a shape the run never read: an empty list
(a user with no questions, a node no one follows, an answer with no comments, a search that matches nothing), one
page shorter than pageSize, exactly one full page, a list longer than a page (its last page short), a page past the
end. The covering arrays of list_responses.py send ``pageSize=1`` and ``page=2&pageSize=2``, which give one shape
or another by accident of the target's counts. Here the shape is the dimension (spec/dimensions.yaml
``list_shapes.dimension``) and the page size is chosen against the totalCount the row's reader reads first, so each
shape is reached on purpose, with reads only (nothing here writes).

Derived: every list whose ``lists:`` entry takes ``paging`` is read in every shape; a list that takes no paging
parameter (18. "Options wrap, v1") only empty, as read plainly. ``list_shapes.exclude`` names the (list, shape)
pairs left out, each with its reason. The rules judged on a row are the response rules list_responses.py derives,
on the row as the :class:`list_responses.Row` it is (:func:`as_row`): the same checks, on the shapes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from urllib.parse import parse_qsl

from covering import Combination, expand
from list_responses import JSON_FORM, Row, own_dimensions, raw_all, readers, response_rules, rules_of
from list_responses import load as load_responses
from listops import LIST_OPS

from qaconform.contract import NONE, Contract, ContractError, load_contract

SECTION = "list_shapes"
EMPTY, SHORT, EXACT, LONG, PAST_END = "empty", "short", "exact", "long", "past_end"
SHAPES = (EMPTY, SHORT, EXACT, LONG, PAST_END)
"""The values of the shape dimension, in the order a row's reads are planned (the dimension in spec/ must hold these:
each has its plan here)."""
ECHOED = 10
"""The largest page size PAGING-PAGESIZE-ECHO judges (rules.yaml: "a small pageSize (1 to 10)"): a shape's size is
chosen at most this where the list's count allows, so that the echo is judged on it too."""
NO_MATCH = "zqxjvkwpf"
"""The search that finds nothing on the question and topic lists (q's meaning is not shown: a target that ignores q
shows items, and the row says the empty shape was not reached)."""
SEARCHED = ("listQuestions", "listTopics")
"""The lists whose empty shape is a search ("Search parameters on question and topic lists: q, type, lang")."""
PAGING = ("page", "pageSize")


@dataclass(frozen=True)
class Section:
    """spec/dimensions.yaml ``list_shapes``: the dimension's name and the ``list shape`` pairs left out (-> why)."""

    dimension: str
    exclude: Mapping[str, str]


def load(contract: Contract | None = None) -> Section:
    """The section, its dimension, lists and shapes checked against the contract (a misspelt one is a ContractError
    naming file and key, never a silently smaller crossing)."""
    contract = contract or load_contract()
    path = contract.dimensions_path
    raw = raw_all(contract).get(SECTION) or {}
    name = str(raw.get("dimension") or "")
    values = contract.dimensions.values.get(name)
    if values is None or tuple(values) != SHAPES:
        raise ContractError(f"{path}: {SECTION}.dimension names {name!r}, which must be a dimension with the values "
                            f"{list(SHAPES)} (each has its plan in suites/contract/list_shapes.py)")
    exclude = {str(k): str(v) for k, v in (raw.get("exclude") or {}).items()}
    for key in exclude:
        op, _, shape = key.partition(" ")
        if op not in LIST_OPS or shape not in SHAPES:
            raise ContractError(f"{path}: {SECTION}.exclude names {key!r}; expected 'listOperation shape'")
    return Section(name, exclude)


def paged(op: str, contract: Contract) -> bool:
    """Whether the list takes page and pageSize: its section states them (its ``lists:`` entry takes ``paging``), or
    it answers the paged list envelope, whose page the Conventions' "Paging parameters: page (integer, default 1),
    pageSize ..." choose on every list: every list of LIST_OPS (blind12, issue 44: 18 states only its options, "a
    paged list of Node items of type comment", and a server's later pages of it were never read)."""
    return "paging" in contract.dimensions.of_list(op) or op in LIST_OPS


def shapes_of(op: str, contract: Contract, section: Section) -> tuple[str, ...]:
    """The shapes list ``op`` is read in: every one where it takes paging (else only empty), less the exclusions."""
    drawn = SHAPES if paged(op, contract) else (EMPTY,)
    return tuple(s for s in drawn if f"{op} {s}" not in section.exclude)


@dataclass(frozen=True)
class ShapeRow:
    """One planned read: the list, the shape it is to show, and the reader (drawn per list by the run's seed)."""

    op: str
    shape: str
    reader: str
    adds: tuple[tuple[str, str], ...] = ()
    """crossing13: (dimension, value) of a stated parameter the row sends beside its paging (:func:`added`)."""

    @property
    def label(self) -> str:
        return "-".join((self.op, self.shape, self.reader, *(v for _, v in self.adds)))

    def added_params(self, tokens: Mapping[str, str]) -> dict[str, str]:
        """The added parameters, their tokens filled (``$space``)."""
        return Combination(self.op, self.reader, self.adds).params(tokens)


def rows(seed: int, contract: Contract | None = None) -> list[ShapeRow]:
    """Every (list, shape) row, the readers of each list taking its shapes in turn from a seeded order: the signed-in
    accounts the list's section lets read it (anonymous' answers are the permission suites'; a site that does not
    serve anonymous would leave a shape unread)."""
    contract = contract or load_contract()
    section = load(contract)
    out = []
    for op in LIST_OPS:
        signed_in = [r for r in readers(op, contract) if r != "anonymous"]
        random.Random(f"{seed}|{op}|shapes").shuffle(signed_in)
        for i, shape in enumerate(shapes_of(op, contract, section)):
            out.append(ShapeRow(op, shape, signed_in[i % len(signed_in)]))
    return out


SHAPE_DECIDES = ("paging",)
"""The dimension the shape chooses the values of (page and pageSize): never added to a shape row."""
NOT_NARROWING = ("projection", "sort")
"""The dimensions whose parameter chooses the items' fields or their order, not which items ("includeOnly ... limits
the returned items to those fields"; "Sort criterion"): a row adding one is sized by its plain row's read (the same
URL, read once per run: no request more); a row adding another (spaceId: "restricts to one space") reads its own."""


def added(seed: int, contract: Contract | None = None) -> list[tuple[ShapeRow, tuple[str, ...]]]:
    """crossing13 (issue 44 item 1): for each shape row, the rows that add one stated parameter of the list, with the
    response rules judged only where that parameter is sent (PROJ-INCLUDEONLY's includeOnly, FILTER-SPACEID's
    spaceId, SORT-EXPERTS-VALUES' sort), which the plain shape row therefore does not judge. Derived: a rule of the
    list that the plain row leaves out, and a value of the list's dimensions (not paging, which the shape decides)
    whose row judges it; the values of a dimension rotate over the list's shapes in the seed's order (each expert
    sort name on another shape). Each such row is one read more (two for a parameter that narrows the list)."""
    contract = contract or load_contract()
    section = load_responses(contract)
    rules = response_rules(contract, section)
    dims = contract.dimensions
    out = []
    for row in rows(seed, contract):
        plain = set(rules_of(stand_in(row, contract), rules, section))
        names = [d for d in (*dims.of_list(row.op), *own_dimensions(contract).get(row.op, ()))
                 if d not in SHAPE_DECIDES]
        by_value: dict[tuple[str, str], list[str]] = {}
        for rule in (r for r, ops in rules.items() if row.op in ops and r not in plain):
            rng = random.Random(f"{seed}|{row.op}|shape adds")  # one order per list: shapes rotate over it
            found = [(d, v) for d in names for v in expand(row.op, d, dims, rng) if v != NONE and rule in rules_of(
                stand_in(replace(row, adds=((d, v),)), contract), rules, section)]
            if found:
                by_value.setdefault(found[SHAPES.index(row.shape) % len(found)], []).append(rule)
        out += [(replace(row, adds=(pair,)), tuple(sorted(judged))) for pair, judged in by_value.items()]
    return out


def asks(op: str, shape: str, contract: Contract) -> tuple[str, ...]:
    """The paging parameters the row sends: none where the list takes none; pageSize alone where the page is the
    first (empty, short: the default page is judged there too); page and pageSize where the page is chosen."""
    if not paged(op, contract):
        return ()
    return ("pageSize",) if shape in (EMPTY, SHORT) else PAGING


def as_row(row: ShapeRow, params: Mapping[str, str], contract: Contract | None = None) -> Row:
    """The list_responses row the shape row is, for its checks and the rules judged on it: the paging parameters
    sent (``params``; at collection any small value stands in) in the paging dimension, the search in the search
    dimension (so a rule left out across a search is left out here too), an added parameter in its own."""
    contract = contract or load_contract()
    added_keys = {k for _, v in row.adds for k, _ in parse_qsl(v)}
    paging = "&".join(f"{k}={params[k]}" for k in PAGING if k in params)
    search = "&".join(f"{k}={v}" for k, v in params.items() if k not in PAGING and k not in added_keys)
    values = (("paging", paging or NONE), ("search", search or NONE), *row.adds)
    return Row(Combination(row.op, row.reader, values), JSON_FORM)


def stand_in(row: ShapeRow, contract: Contract | None = None) -> Row:
    """The row at collection, before its page size is known: 2 stands in for page and pageSize."""
    contract = contract or load_contract()
    params = {k: "2" for k in asks(row.op, row.shape, contract)}
    if row.shape == EMPTY and row.op in SEARCHED:
        params["q"] = NO_MATCH
    return as_row(row, params, contract)


def largest_page(profile: object) -> int:
    """The largest page size a row asks for: the profile's max_page_size, else :data:`ECHOED`. Why not more when
    the profile is silent: "maximum pageSize: not shown", and a page a target cuts at its own cap would read as a
    short page holding less than the list."""
    cap = getattr(profile, "max_page_size", None)
    return cap if isinstance(cap, int) and cap >= 1 else ECHOED


def plan(shape: str, total: int, cap: int) -> dict[str, str] | str:
    """page and pageSize that give the shape for a list of ``total`` items (the reader's count) with pages of at
    most ``cap`` items; or why the count does not allow the shape. Sizes are at most :data:`ECHOED` where the shape
    allows, so that the pageSize echo is judged too."""
    small = max(1, min(cap, ECHOED))
    if shape == EMPTY:
        return {"pageSize": str(small)}
    if shape == PAST_END:
        return {"page": str(max(1, math.ceil(total / small)) + 1), "pageSize": str(small)}
    if total < 1:
        return f"the list is empty as the reader reads it: no page of it is {shape.replace('_', ' ')}"
    if shape == SHORT:
        if total + 1 > cap:
            # its size stays out of the reason (the skip's detail holds it): it grows with every build's writes
            return f"the list holds at least {cap} items, and no page the target serves (at most {cap}: the " \
                "profile's max_page_size, 10 where it gives none) is longer"
        return {"pageSize": str(total + 1)}
    if shape == EXACT:
        size = total if total <= cap else max(d for d in range(1, cap + 1) if total % d == 0)
        return {"page": str(total // size), "pageSize": str(size)}
    if total < 2:
        return "the list holds one item: no page size gives it more than one page"
    uneven = [s for s in range(2, min(cap, total - 1, ECHOED) + 1) if total % s]
    size = uneven[-1] if uneven else max(1, min(cap, total - 1))
    return {"page": str(math.ceil(total / size)), "pageSize": str(size)}


def reached(shape: str, asked: Mapping[str, str], total: object, held: int) -> str | None:
    """None when the page read has the shape; else what it has instead (the list changed between the reads, the
    target ignored the search, or pages differently)."""
    if not isinstance(total, int) or isinstance(total, bool):
        return f"totalCount {total!r} is no count"
    size = int(asked.get("pageSize") or 0)
    page = int(asked.get("page") or 1)
    pages = math.ceil(total / size) if size > 0 else 1
    have = {EMPTY: total == 0 and held == 0,
            SHORT: 0 < total < size,
            EXACT: total > 0 and size > 0 and page * size == total,
            LONG: total > size > 0 and page == pages,
            PAST_END: size > 0 and page > pages}
    return None if have[shape] else f"page {page} of size {size or 'default'} of {total} items ({held} on it) is not " \
        f"the {shape.replace('_', ' ')} shape"


def oldest_first(ids: list[object], busy: set[str]) -> list[object]:
    """Node ids in the order an empty list is looked for: those not in ``busy`` (under the question every build
    writes under) before those in it, each part by ascending id, the site's oldest nodes first. A build's own nodes
    are the newest on the site, and another build running at once removes its nodes at its end (its cleanup) or
    comments under them, while this run reads them as empty."""
    known = [i for i in ids if str(i).isdecimal()]
    return sorted(dict.fromkeys(known), key=lambda i: (str(i) in busy, int(str(i))))
