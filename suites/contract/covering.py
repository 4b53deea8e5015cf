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
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import parse_qsl

from allpairspy import AllPairs
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
        """The query parameters with ``tokens`` filled (``{"$word": "lorem"}``)."""
        out: dict[str, str] = {}
        for key, value in parse_qsl(self.query, keep_blank_values=True):
            for token, filled in tokens.items():
                value = value.replace(token, filled)
            out[key] = value
        return out

    def value(self, dimension: str) -> str:
        return dict(self.values).get(dimension, NONE)


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


def pairwise(columns: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """allpairspy's covering array (strength 2) of ``columns`` in the order given (kept in the cache:
    :func:`all_pairs`); one column is its values."""
    if len(columns) == 1:
        return [(v,) for v in columns[0]]
    return [tuple(row) for row in all_pairs(columns)]


def array(op: str, dims: Dimensions, seed: int) -> Matrix:
    """The covering array of list ``op`` (strength 2) for the run's seed."""
    rng = random.Random(f"{seed}|{op}")
    names = dims.of_list(op)
    columns = [expand(op, d, dims, rng) for d in names]
    rows: Iterable[Sequence[str]] = pairwise(columns)
    out = []
    for row in rows:
        values = tuple(zip(names, row, strict=True))
        out.append(Combination(op, values[0][1], values[1:]))
    return Matrix(op, names, tuple(tuple(c) for c in columns), tuple(out))


def all_pairs(columns: Sequence[Sequence[str]]) -> list[list[str]]:
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
    return [[columns[i][j] for i, j in enumerate(row)] for row in _rows_of_shape(tuple(shape))]


@functools.cache
def _rows_of_shape(shape: tuple[int, ...]) -> list[list[int]]:
    """allpairspy's rows over the positions 0..n-1 of columns of these lengths (from the cache folder, or drawn)."""
    def usable(kept: Any) -> bool:
        return isinstance(kept, list) and all(
            isinstance(r, list) and len(r) == len(shape)
            and all(isinstance(j, int) and 0 <= j < n for j, n in zip(r, shape, strict=True)) for r in kept)

    return kept_rows(["positions", list(shape)], lambda: [list(r) for r in AllPairs([list(range(n)) for n in shape])],
                     usable)


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


def parametrize_by_rule(metafunc: pytest.Metafunc, argname: str, draw: Draw, what: str) -> None:
    """``argname``: every combination ``draw`` gives for the one rule the test's ``rule`` marker names, each a test
    whose id is its label (test_matrix.py ``combination``, test_action_matrix.py ``case``,
    test_input_form_matrix.py ``case``). The seed is the run's ``--seed`` (qaconform's properties plugin)."""
    if argname not in metafunc.fixturenames:
        return
    import pytest

    from qaconform.pytest.properties.plugin import STATE

    marker = metafunc.definition.get_closest_marker("rule")
    assert marker is not None and len(marker.args) == 1, f"{what} test names exactly one rule"
    dims = load_contract().dimensions
    seed = metafunc.config.stash[STATE].seed
    params: list[Any] = [pytest.param(c, id=c.label) for c in draw(marker.args[0], dims, seed, metafunc.config)]
    metafunc.parametrize(argname, params)
