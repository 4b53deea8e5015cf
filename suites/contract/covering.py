"""The combinations test_matrix.py sends: per list, a covering array over the reader and the optional parameters
the description states for it (spec/dimensions.yaml), drawn by a kept library (allpairspy) so that every pair of
values of two dimensions is tried at least once, seeded by the run's ``--seed``.

allpairspy's greedy construction is deterministic for the order of the values it is given; the seed shuffles that
order per list, so another seed draws another array with the same guarantee, and the same seed the same requests.
Tokens a value cannot know before the run (``$word``) stay in the combination (and its test id) and are filled at
test time from reads; ``$sort`` and ``$field`` come from the contract and listops.py here.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from itertools import combinations, product
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import parse_qsl

from allpairspy import AllPairs
from cells import Judged, cell_marks, dims_of
from listops import LIST_OPS

from qaconform.contract import NONE, READER, Dimensions, envelope, load_contract
from qaconform.kit import cache_dir

if TYPE_CHECKING:
    import pytest

EXPERT_LISTS = ("listActiveExperts", "listEarnedExperts")
NAMED_NODE_SORTS = 2
"""How many of the sort names the description has seen a list draws (the seed chooses which): every pair with the
other dimensions is covered for each, so more names would grow every list's array for little."""
NOT_ANONYMOUS = (*EXPERT_LISTS, "listGroups")
"""Lists whose section gives anonymous no read (experts: "Errors: 401"; groups: admin only, listops.py)."""


@dataclass(frozen=True)
class Combination:
    """One drawn request: the list, the reader, and the value of each parameter dimension (``none``: left out)."""

    op: str
    reader: str
    values: tuple[tuple[str, str], ...]
    """(dimension, value) in the list's dimension order."""

    @property
    def query(self) -> str:
        """The parameters as a query string, tokens unfilled (``q=$word``)."""
        return "&".join(v for _, v in self.values if v != NONE)

    @property
    def label(self) -> str:
        """The test id: names the whole combination, so a failure says which one broke the rule."""
        return f"{self.op}-{self.reader}-{self.query or 'no-parameters'}"

    def params(self, tokens: Mapping[str, str]) -> dict[str, str]:
        """The query parameters with ``tokens`` filled (``{"$word": "lorem"}``). A token given for this list
        (``{"$word@listTopics": "install"}``, :func:`search_words.per_list`) wins over the one for every list: a
        search word of question titles finds no topic, and the rules judged on a topic search's items would
        judge an empty list (blinde, issue 44). A token given for the parameter (``{"$word@topics=": "api"}``)
        wins over both: round43 (issue 44), a title word sent as ``topics`` selected no question, so every rule
        judged on the items of the topics filter judged an empty list."""
        out: dict[str, str] = {}
        for key, value in _query_pairs(self.query):
            for token, filled in tokens.items():
                if "@" not in token:
                    value = value.replace(token, tokens.get(f"{token}@{key}=", tokens.get(f"{token}@{self.op}",
                                                                                           filled)))
            out[key] = value
        return out

    def value(self, dimension: str) -> str:
        for name, value in reversed(self.values):  # dict(self.values)'s answer, no dict built (asked ~80,000 times
            if name == dimension:  # a worker's collection: speed19)
                return value
        return NONE


@functools.lru_cache(maxsize=4096)
def _query_pairs(query: str) -> tuple[tuple[str, str], ...]:
    """The pairs of a query string, parsed once per process (speed13, issue 44): a list row's parameters are asked
    for by each response rule's check while the rows are collected, ~28 times a row on every worker (3 % of a
    worker's collection under cProfile, most of it ``parse_qsl``)."""
    return tuple(parse_qsl(query, keep_blank_values=True))


def readers(op: str, dims: Dimensions) -> tuple[str, ...]:
    """The reader values a list is crossed with: the accounts its section lets read it, anonymous where it may."""
    allowed = set(LIST_OPS[op].roles) | (set() if op in NOT_ANONYMOUS else {"anonymous"})
    return tuple(r for r in dims.values[READER] if r in allowed)


def sort_names(op: str, rng: random.Random) -> tuple[str, ...]:
    """``$sort``: the expert lists' documented sorts (openapi enum), else names the description has seen."""
    if op in EXPERT_LISTS:
        return tuple(load_contract().operation(op).parameter("sort").values)
    seen = list(envelope().sorts_seen)
    return tuple(rng.sample(seen, min(NAMED_NODE_SORTS, len(seen))))


def expand(op: str, dimension: str, dims: Dimensions, rng: random.Random) -> list[str]:
    """A dimension's values for one list, ``$sort`` and ``$field`` filled, in the seed's order."""
    if dimension == READER:
        values = list(readers(op, dims))
    else:
        values = []
        for v in dims.values[dimension]:
            if v == "$sort":
                values += [f"sort={name}" for name in sort_names(op, rng)]
            else:
                values.append(v.replace("$field", LIST_OPS[op].include_only[1]))
    rng.shuffle(values)
    return values


@dataclass(frozen=True)
class Matrix:
    """One list's covering array: its dimensions, the values of each (expanded for the seed), the drawn rows."""

    op: str
    names: tuple[str, ...]
    columns: tuple[tuple[str, ...], ...]
    rows: tuple[Combination, ...]


PAIRS, TRIPLES = 2, 3
"""The strengths a covering array is drawn with: every pair of values of two dimensions (a run with a write budget),
every triple of three (``--thorough``: a list's full product is thousands of rows, issue 46)."""


def thorough(config: pytest.Config | None) -> bool:
    """Whether the run is a ``--thorough`` one (release QA): then the matrices are crossed deeper (every combination
    where the product is small, strength 3 for the lists). ``--write-budget unlimited`` alone does not deepen them:
    the draw follows the option that says what the run is for, not the budget."""
    return config is not None and bool(config.getoption("qc_thorough", False))


def pairwise(columns: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """allpairspy's covering array (strength 2) of ``columns`` in the order given (kept in the cache:
    :func:`all_pairs`); one column is its values."""
    return covering(columns, PAIRS)


def covering(columns: Sequence[Sequence[str]], strength: int) -> list[tuple[str, ...]]:
    """allpairspy's covering array of ``columns`` of that strength (kept in the cache: :func:`all_pairs`); one column
    is its values, and columns no more than a strength above 2 their full product (what such an array must be;
    allpairspy asks for more columns than its strength)."""
    if len(columns) == 1:
        return [(v,) for v in columns[0]]
    if strength > PAIRS and len(columns) <= strength:
        return every(columns)
    return [tuple(row) for row in all_pairs(columns, strength)]


def every(columns: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """Every combination of ``columns`` (their product, in the order given): the ``--thorough`` draw of a matrix whose
    product is small."""
    return [tuple(row) for row in product(*columns)]


def array(op: str, dims: Dimensions, seed: int, strength: int = PAIRS) -> Matrix:
    """The covering array of list ``op`` (strength 2, or 3 under ``--thorough``) for the run's seed."""
    rng = random.Random(f"{seed}|{op}")
    names = dims.of_list(op)
    columns = [expand(op, d, dims, rng) for d in names]
    rows: Iterable[Sequence[str]] = covering(columns, strength)
    out = []
    for row in rows:
        values = tuple(zip(names, row, strict=True))
        out.append(Combination(op, values[0][1], values[1:]))
    return Matrix(op, names, tuple(tuple(c) for c in columns), tuple(out))


FILTERS = "filters"
"""The question list's own filters (spec/dimensions.yaml ``values.filters``, ``list_access.own``: "3. Query:
topics, unanswered, spaceId")."""


def with_other_filters(op: str, dims: Dimensions, kept: str) -> list[Combination]:
    """fix2nodes (issue 44): a filter's effect beside every combination of the list's OTHER filters, one row each
    (the readers in turn), beside the covering array (whose rows and ids stay as they are).

    Why: the array's ``filters`` column holds one filter per row (none, spaceId, unanswered or topics), so spaceId
    never met unanswered: a server that ignored spaceId beside unanswered passed (blind20-spaceid-dropped-with-
    unanswered). ``kept``: the filter the rule adds to each row itself (test_matrix.py adds spaceId)."""
    others = [v for v in dims.values.get(FILTERS, ()) if v != NONE and not v.startswith(f"{kept}=")]
    subsets = [s for n in range(1, len(others) + 1) for s in combinations(others, n)]
    who = readers(op, dims)
    return [Combination(op, who[i % len(who)], ((FILTERS, "&".join(s)),)) for i, s in enumerate(subsets)]


FILTERED_BESIDE = {"FILTER-SPACEID": "spaceId"}
"""fix2nodes (issue 44): a filter rule -> its filter, judged also beside every combination of the list's other
filters (:func:`with_other_filters`: spaceId with unanswered, topics, and both)."""

ALONE_ONLY: dict[str, tuple[tuple[str, ...], str]] = {
    "FILTER-SPACEID": ((), "the test adds spaceId to every row, so the row without parameters is spaceId alone; "
                           "another parameter alone would be that parameter beside spaceId, a pair the array tries"),
    "FOLLOWERS-ACTIVE-DEFAULT": ((), "the test reads every row with active left out, false and each stated default "
                                     "(four reads a row), so the row without parameters is active alone; another "
                                     "parameter alone would be a pair beside active the array tries"),
    "FOLLOWERS-DETAILS-DEFAULT": ((), "the rule's parameter (details, left out) is judged on every row, so the row "
                                      "without parameters is it alone; another parameter alone would be a pair "
                                      "the array tries"),
    **{rule: (("sort",), "the test puts an invalid name in place of every row's sort, so a row's sort alone is the "
                         "invalid name alone; another parameter alone would be it beside the invalid name, a pair "
                         "the array tries") for rule in ("SORT-FALLBACK-SPACES", "SORT-FALLBACK-TOPICS",
                                                         "SORT-FALLBACK-GROUPS")},
}
"""alone13 (issue 44 item 1): the exclusions from the default of :func:`alone_dimensions`, each with its reason: a
rule whose test adds its own parameter to every row reads that parameter alone on the rows without parameters, and
only those dimensions here (none: the rows without parameters alone) get alone rows. Every other rule test_matrix.py
crosses judges a response one parameter alone gives as well as one of many."""


def alone_dimensions(rule: str, op: str, dims: Dimensions) -> tuple[str, ...]:
    """The parameter dimensions of list ``op`` whose every value each reader reads alone for ``rule`` (beside the
    reader's row without parameters, always read): by default (alone13, issue 44 item 1) every dimension the rule is
    crossed with (``across``) that the list takes, only those :data:`ALONE_ONLY` names for a rule there. A dimension
    the rule is not crossed with (LIST-ITEM-TYPE's wrap and v1, whose effect is not shown) gets no alone rows: the
    rule names why."""
    across = dims.rules[rule].across if rule in dims.rules else ()
    only = ALONE_ONLY[rule][0] if rule in ALONE_ONLY else across
    return tuple(d for d in dims.of_list(op)[1:] if d in across and d in only)


def rule_rows(rule: str, op: str, dims: Dimensions, seed: int, strength: int = PAIRS) -> list[Combination]:
    """The rows ``rule`` is judged on for list ``op``: the covering array's, then those :data:`FILTERED_BESIDE` and
    :func:`alone_dimensions` add for the rule (the array's rows and ids stay as they are)."""
    matrix = array(op, dims, seed, strength)
    beside = FILTERED_BESIDE.get(rule)
    return [*matrix.rows, *(with_other_filters(op, dims, beside) if beside else ()),
            *(each_reader_alone(matrix, *alone_dimensions(rule, op, dims)) if rule in dims.rules else ())]


def each_reader_alone(matrix: Matrix, *dimensions: str) -> list[Combination]:
    """round35, alone13 (issue 44): every reader of the list with no parameter, and with each value of each of
    ``dimensions`` alone, the other parameters left out: one row each, unless the array already holds it. The rows
    depend only on the list, reader and value, so every rule of a list shares them (and test_matrix.py's reads).

    Why: a pairwise array gives each value of a parameter beside some other parameter in nearly every row, so a
    code path taken only when that parameter is the whole query (a fast path for a plain projected, paged or
    filtered list) is never read. A rule judged against the reader's own list without the parameter (an invalid
    sort falls back to "the default sort") met novice, whose space list withholds one, only in rows with a
    projection, wrap or paging beside (round35-spaces-invalid-sort-novice-by-id); the faults of
    faults_alone13.py break a projection's visibility, a page's count, includeOnly and spaceId that way, one
    reader each. Reads are cheap: the values of a list's parameters per reader (about 400 a run)."""
    names = [d for d in dimensions if d in matrix.names[1:]]
    have = {row.label for row in matrix.rows}
    out: list[Combination] = []
    for reader in matrix.columns[0]:
        rows = [Combination(matrix.op, reader, tuple((n, NONE) for n in matrix.names[1:]))]
        for dimension in names:
            rows += [Combination(matrix.op, reader, tuple((n, value if n == dimension else NONE)
                                                          for n in matrix.names[1:]))
                     for value in matrix.columns[matrix.names.index(dimension)] if value != NONE]
        for row in rows:
            if row.label not in have:
                have.add(row.label)
                out.append(row)
    return out


def all_pairs(columns: Sequence[Sequence[str]], strength: int = PAIRS) -> list[list[str]]:
    """allpairspy's rows for ``columns``, kept in the user's cache folder by the columns' lengths.

    The construction is deterministic, and every worker of a parallel run collects the same tests, so each drew the
    same arrays again: about 0.5 s of CPU per process, 2.5 s on a small machine's five workers before the first
    test. It depends only on where each value stands in its column, not on the value (the rows over the positions,
    mapped to the values, are the rows over the values: tests/test_dimensions.py checks it for many seeds), so one
    kept array serves every seed: a run with a new seed reads it instead of drawing it again. The first process to
    draw an array keeps it (an atomic rename: workers race for it); a cache that cannot be written or read is only
    slower.
    """
    shape = [len(c) for c in columns]
    return [[columns[i][j] for i, j in enumerate(row)] for row in _rows_of_shape(tuple(shape), strength)]


@functools.cache
def _rows_of_shape(shape: tuple[int, ...], strength: int = PAIRS) -> list[list[int]]:
    """allpairspy's rows over the positions 0..n-1 of columns of these lengths (from the cache folder, or drawn); a
    strength other than 2 is part of the key, so a ``--thorough`` draw never reads a pairwise one."""
    def usable(kept: Any) -> bool:
        return isinstance(kept, list) and all(
            isinstance(r, list) and len(r) == len(shape)
            and all(isinstance(j, int) and 0 <= j < n for j, n in zip(r, shape, strict=True)) for r in kept)

    if strength == PAIRS:
        return kept_rows(["positions", list(shape)],
                         lambda: [list(r) for r in AllPairs([list(range(n)) for n in shape])], usable)
    return kept_rows(["positions", list(shape), strength, "completed"],
                     lambda: completed([list(r) for r in AllPairs([list(range(n)) for n in shape], n=strength)],
                                       shape, strength), usable)


def completed(rows: list[list[int]], shape: Sequence[int], strength: int) -> list[list[int]]:
    """``rows`` (over positions) with a row added for each ``strength``-tuple of values they leave untried.

    allpairspy's ``n=3`` does not keep its promise: on a list's seven columns its 30 rows leave 465 of the 1,181
    triples untried (measured), so the thorough draw would be a strength-3 array in name only. Each untried tuple,
    in order, gets a row that holds it; the row's other columns take, one after the other, the value that tries the
    most tuples still untried among the columns already set (ties: the first value), a greedy completion that is
    deterministic and depends only on the positions, like the kept array."""
    width = len(shape)
    index_sets = list(combinations(range(width), strength))

    def tuples(row: Sequence[int]) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
        return {(idx, tuple(row[i] for i in idx)) for idx in index_sets}

    tried = set().union(*(tuples(r) for r in rows)) if rows else set()
    out = [list(r) for r in rows]
    for idx in index_sets:
        for values in product(*(range(shape[i]) for i in idx)):
            if (idx, values) in tried:
                continue
            row: list[int | None] = [None] * width
            for i, v in zip(idx, values, strict=True):
                row[i] = v
            for col in range(width):
                if row[col] is not None:
                    continue
                row[col] = _best(row, col, shape[col], index_sets, tried)
            full = [int(v) for v in row if v is not None]
            out.append(full)
            tried |= tuples(full)
    return out


def _best(row: Sequence[int | None], col: int, size: int, index_sets: Sequence[tuple[int, ...]],
          tried: set[tuple[tuple[int, ...], tuple[int, ...]]]) -> int:
    """The value of ``row[col]`` (of ``size``) that tries the most tuples still untried (ties: the first value)."""
    return max(range(size), key=lambda v: (_gain(row, col, v, index_sets, tried), -v))


def _gain(row: Sequence[int | None], col: int, value: int, index_sets: Sequence[tuple[int, ...]],
          tried: set[tuple[tuple[int, ...], tuple[int, ...]]]) -> int:
    """Untried tuples that setting ``row[col]`` to ``value`` would try among the columns already set."""
    gain = 0
    for idx in index_sets:
        if col in idx and all(i == col or row[i] is not None for i in idx):
            if (idx, tuple(value if i == col else row[i] for i in idx)) not in tried:
                gain += 1
    return gain


def kept_rows(key: list[Any], draw: Callable[[], list[list[Any]]], usable: Callable[[Any], bool]) -> list[list[Any]]:
    """The rows ``draw`` gives for ``key`` (JSON), kept in the user's cache folder with allpairspy's version: the rows
    a kept file holds when ``usable`` takes them, else drawn and kept. The first process to draw them keeps them (an
    atomic rename: workers race for it); a cache that cannot be written or read is only slower."""
    name = json.dumps([version("allpairspy"), *key])
    path = _cache_dir() / f"{hashlib.sha256(name.encode()).hexdigest()[:32]}.json"
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        if usable(kept):
            return list(kept)
    except (OSError, ValueError):
        pass
    rows = draw()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_suffix(f".{os.getpid()}.part")
        part.write_text(json.dumps(rows), encoding="utf-8")
        os.replace(part, path)
    except OSError:
        pass
    return rows


def _cache_dir() -> Path:
    return cache_dir() / "pairs"


@dataclass(frozen=True)
class Coverage:
    """Pairs of values the array tries, against the pairs there are (the library's guarantee, counted)."""

    covered: int
    possible: int


def coverage(matrix: Matrix, dimensions: Sequence[str] | None = None) -> Coverage:
    """Distinct value pairs of two dimensions (``dimensions``: those a rule declares, else all) the rows try, and
    how many pairs the dimensions' values make."""
    chosen = [(n, c) for n, c in zip(matrix.names, matrix.columns, strict=True)
              if dimensions is None or n in dimensions]
    covered = possible = 0
    for (a, values_a), (b, values_b) in combinations(chosen, 2):
        covered += len({(_get(r, a), _get(r, b)) for r in matrix.rows})
        possible += len(values_a) * len(values_b)
    return Coverage(covered, possible)


def _get(row: Combination, dimension: str) -> str:
    return row.reader if dimension == READER else row.value(dimension)


# --- the plumbing the matrix suites share: one parametrized test per drawn combination of the test's rule --------

class Labelled(Protocol):
    """A drawn combination: its ``label`` is the test id, naming the whole combination."""

    @property
    def label(self) -> str: ...


Draw = Callable[[str, Dimensions, int, "pytest.Config"], Iterable[Labelled]]
"""(rule, dimensions, the run's seed, the pytest config) -> the combinations a test of that rule is run on."""


def parametrize_by_rule(metafunc: pytest.Metafunc, argname: str, draw: Draw, what: str,
                        also: tuple[str, ...] = (), beside: Mapping[str, Judged] | None = None,
                        also_of: Callable[[Any], tuple[str, ...]] | None = None) -> None:
    """``argname``: every combination ``draw`` gives for the one rule the test's ``rule`` marker names, each a test
    whose id is its label (test_matrix.py ``combination``, test_action_matrix.py ``case``,
    test_input_form_matrix.py ``case``). The seed is the run's ``--seed`` (qaconform's properties plugin).
    ``also``: the other rules the test's failures name on every combination (round15, issue 44), marked on each
    combination so that a run selecting one of them by its marker (``--rule``, the self-test) runs them too; the
    combinations are still drawn for the test's own rule. ``beside``: rule -> the dimension values its test's own
    reads judge beside each combination's (crossing13: cells.cell_marks), marked in every combination's cell.
    ``also_of(combination)``: the rules its failures name on that combination only (cross17, issue 44 item 7: a
    rule judged on some rows is marked there, so the run's crossing counts it only where it is judged)."""
    if argname not in metafunc.fixturenames:
        return
    import pytest

    from qaconform.pytest.properties.plugin import STATE

    marker = metafunc.definition.get_closest_marker("rule")
    assert marker is not None and len(marker.args) == 1, f"{what} test names exactly one rule"
    dims = load_contract().dimensions
    seed = metafunc.config.stash[STATE].seed
    marks = [pytest.mark.rule(*also)] if also else []
    judged = (beside or {}).get(marker.args[0])
    params: list[Any] = [pytest.param(c, id=c.label,
                                      marks=[*marks, *_also_of(also_of, c), *cell_marks(c, beside=judged)])
                         for c in draw(marker.args[0], dims, seed, metafunc.config)]
    metafunc.parametrize(argname, params)


def _also_of(also_of: Callable[[Any], tuple[str, ...]] | None, combination: Any) -> list[Any]:
    import pytest

    rules = also_of(combination) if also_of is not None else ()
    return [pytest.mark.rule(*rules)] if rules else []


RuleRows = Callable[[int, int], Sequence[tuple[Labelled, tuple[str, ...]]]]
"""(the run's seed, the strength) -> every row of a crossing suite with the rules judged on it."""


def parametrize_rows(metafunc: pytest.Metafunc, argname: str, rows: RuleRows, family: str | None = None) -> None:
    """``argname``: every row ``rows`` draws at the run's seed, pairwise (every triple under --thorough), each a test
    whose id is its label, marked with the rules judged on it (test_list_responses.py ``row``, test_subtree_rows.py
    ``subtree_row``, test_wrong_password_rows.py ``credential_row``); with ``family``, also with the row's cell (its
    list, reader, request form, owner and parameter values: qaconform.report.run_cells counts what was judged)."""
    if argname not in metafunc.fixturenames:
        return
    import pytest

    from qaconform.pytest.properties.plugin import STATE

    seed = metafunc.config.stash[STATE].seed
    strength = TRIPLES if thorough(metafunc.config) else PAIRS
    metafunc.parametrize(argname, [pytest.param(row, id=row.label, marks=[pytest.mark.rule(*rules),
                                                                          *_cell(family, row)])
                                   for row, rules in rows(seed, strength)])


def _cell(family: str | None, row: Any) -> list[Any]:
    """The ``cell`` mark of a list row (crossing10, issue 44); without ``family``, the row's dimension values alone
    (crossing11: cells.cell_marks)."""
    if family is None:
        return cell_marks(row)
    import pytest

    combination = row.combination
    values = {str(d): str(v) for d, v in combination.values}
    found = dims_of(row)
    return [pytest.mark.cell(family, list=combination.op, reader=combination.reader, form=str(row.form),
                             owner=row.owner, values=values, operation=combination.op,
                             dims=found[1] if found else {})]
