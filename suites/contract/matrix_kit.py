"""What a test of test_matrix.py reads, in one object per module, and the reads it makes ahead (speed22, issue 44).

Why one object: a matrix item is a small check of one response (3,211 of them at seed 20260801), and pytest
resolves every fixture of an item's closure for every item, cached or not: with the reads, paths, search words,
withheld items, the profile and the read-ahead each a fixture, 22 a matrix item, a third of a matrix worker's time in
its tests (speed21's profile). :class:`MatrixKit` holds them, built once per module from the session fixtures it asks
for by name (so they are not in the items' closures: 6 fixtures an item), and makes a list's reads ahead the first time
one of its tests asks (:meth:`MatrixKit.at`), as the autouse fixture it replaces did in that test's setup: the same
requests, the same answers judged by each test, each logged again under the test that judges it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import matrix_reads
import pytest
from covering import FILTERED_BESIDE, Combination
from listops import Fetch
from matrix_reads import EARLIER_PAGES, Withheld, explicit_default_forms, relations_read

from qaconform.invariants import envelope_type_problems
from qaconform.pytest.exchange_log import outside_tests
from qaconform.target import fanout
from qaconform.target.profile import Profile

SORT_PAGES = 3
"""Pages an expert sort's order is followed across (a pageSize=1 row: its first items one page each)."""

INVALID_SORT = "qcNoSuchSort"
"""A sort name no list has (test_projection_and_sorting.py sends the same)."""

_NO_CALLSPEC = type("_NoCallspec", (), {"params": {}})()


@dataclass
class MatrixKit:
    """The module's reads (``fetch``: published_fetch), the lists' paths, the search words, the items withheld from
    each reader and the profile, with the lists already read ahead in this process."""

    fetch: Fetch
    paths: dict[str, str]
    question_word: str
    list_words: dict[str, str]
    withheld: Callable[[str], Withheld | None]
    profile: Profile
    session: pytest.Session
    module: Any
    read_ahead: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, request: pytest.FixtureRequest) -> MatrixKit:
        """Built in the module's first test's setup, from the session fixtures the per-item fixtures were."""
        value = request.getfixturevalue
        return cls(value("published_fetch"), value("matrix_paths"), value("question_word"), value("list_words"),
                   value("withheld"), value("profile"), request.session, request.module)

    def word(self, combination: Combination) -> str:
        """``$word`` of the combination's list: a word of a topic name on the topic list (its search rows then have
        items to judge: blinde, issue 44), else the question word. Each list's tests (and its read-ahead) are one
        list's."""
        return self.list_words.get(f"$word@{combination.op}", self.question_word)

    def at(self, combination: Combination) -> tuple[Fetch, dict[str, str], str]:
        """(fetch, paths, ``$word``) for a test of ``combination``, its list read ahead first if it was not."""
        if combination.op not in self.read_ahead:
            self.read_ahead.add(combination.op)
            self._ahead(combination.op)
        return self.fetch, self.paths, self.word(combination)

    def _ahead(self, op: str) -> None:
        """The reads this module's tests of one list will make, made before the first of them, a few at once, into
        the ``fetch`` cache the tests then read from.

        Why: each list's combinations run on one worker (they share their reads; parallel.GROUPS "matrix", a unit
        per list), one read after another: against a target 50 ms away the module's 236 reads alone took 12 s, the
        run's longest chain. What is read is what the tests read, no more: a combination's read where its test gets
        as far as reading (its list has a path, and for the visibility rule something is withheld from the reader),
        and the earlier pages of a later page only where that page came back a 200 envelope. The answers are judged
        by each test as before (each a property of one response, whenever it was read)."""
        at_once = fanout.width(self.profile)
        if at_once <= 1:
            return
        try:
            with outside_tests():  # each answer is logged again under the test that judges it (its HAR cassette)
                _read_ahead(self, at_once, str(self.profile.fixtures.space_id), op)
        except (Exception, pytest.fail.Exception, pytest.skip.Exception):  # noqa: BLE001 - a head start only
            pass  # each test reads what it still needs itself, and meets the same answer there (its own verdict)


def _effect_reads(rule: str, params: dict[str, str], space: str) -> list[dict[str, str]]:
    """The reads an effect rule's test makes beside the combination's own (its parameter added, follower relations)."""
    if rule == "FILTER-SPACEID":
        return [params | {"spaceId": space}]
    if rule == "FOLLOWERS-ACTIVE-DEFAULT":  # fix23: each stated default left out also given at it
        return [*(params | f for e in ({}, {"active": "false"}) for f in explicit_default_forms(
            "listNodeFollowers", params, e) if f), *map(relations_read, ("true", "false")), matrix_reads.DEFAULTED]
    if rule.startswith("SORT-FALLBACK-"):  # the combination's own sort too: judged as a fallback (blind7)
        return [{k: v for k, v in params.items() if k != "sort"}, params | {"sort": INVALID_SORT}, params]
    return []


Key = tuple[str, str, tuple[tuple[str, str], ...]]


def _read_ahead(kit: MatrixKit, at_once: int, space: str, op: str) -> None:
    items = [item for item in kit.session.items
             if getattr(item, "module", None) is kit.module
             and getattr(getattr(item, "callspec", _NO_CALLSPEC).params.get("combination"), "op", None) == op]
    search_word, fetch, paths = kit.list_words.get(f"$word@{op}", kit.question_word), kit.fetch, kit.paths
    first: dict[Key, dict[str, str]] = {}
    later: list[tuple[Combination, dict[str, str]]] = []
    sorted_pages: list[tuple[Combination, dict[str, str]]] = []
    for item in items:
        combination: Combination = item.callspec.params["combination"]  # type: ignore[attr-defined]
        if combination.op not in paths:
            continue
        rule = item.get_closest_marker("rule").args[0]  # type: ignore[union-attr]
        words = {"$word": search_word, **kit.list_words} if rule == "FILTER-SPACEID" else {"$word": search_word}
        for extra in _effect_reads(rule, combination.params(words), space):  # the words its test fills (reads16)
            first[(combination.reader, paths[combination.op], tuple(sorted(extra.items())))] = extra
        if rule == "SORT-EXPERTS-ORDER" and "pageSize" in combination.params({}):
            sorted_pages.append((combination, combination.params({})))
        if rule == "PROJ-ONLY-VISIBLE":
            hidden = kit.withheld(combination.reader)
            if hidden is None or not (hidden.spaces if combination.op == "listSpaces" else hidden.nodes):
                continue
            later.append((combination, combination.params({"$word": search_word})))
        if rule in FILTERED_BESIDE:
            continue  # its test reads the combination with its filter added only (the effect read above)
        params = combination.params({"$word": search_word})
        first[(combination.reader, paths[combination.op], tuple(sorted(params.items())))] = params
    fanout.gather([functools.partial(fetch, reader, path, **params) for (reader, path, _), params in first.items()],
                  at_once)
    pages: dict[Key, dict[str, str]] = {}
    for combination, asked in later:
        page = int(asked.get("page", 1))
        resp = fetch(combination.reader, paths[combination.op], **asked)  # read above: from the cache
        if page <= 1 or resp.status != 200 or envelope_type_problems(resp.json()):
            continue
        for earlier in range(max(1, page - EARLIER_PAGES), page):
            params = asked | {"page": str(earlier)}
            pages[(combination.reader, paths[combination.op], tuple(sorted(params.items())))] = params
    for combination, asked in sorted_pages:  # the pages an expert sort's order is followed across
        resp = fetch(combination.reader, paths[combination.op], **asked)  # read above: from the cache
        if resp.status != 200 or envelope_type_problems(resp.json()):
            continue
        page = int(asked.get("page", 1))
        for other in range(1, max(page, min(int(resp.json().get("pageCount") or 1), SORT_PAGES)) + 1):
            if other == page:
                continue
            params = asked | {"page": str(other)}
            pages[(combination.reader, paths[combination.op], tuple(sorted(params.items())))] = params
    fanout.gather([functools.partial(fetch, reader, path, **params) for (reader, path, _), params in pages.items()],
                  at_once)
