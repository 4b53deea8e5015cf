"""Read-only rules crossed with the circumstances they must hold in, pairwise (issue 33).

A rule that holds "for a caller" and "for a request" holds in every combination of the readers and the optional
parameters the description states for a list; a server that breaks it in one combination only (a search that
forgets what the caller may see, a count wrong only with a projection, a sort echo wrong on one of two lists) passes
every test aimed at one circumstance. Each rule declares the dimensions it must hold across and the lists it is
crossed over in spec/dimensions.yaml; covering.py draws, per list, a covering array of those dimensions (allpairspy,
seeded by the run's ``--seed``), so every pair of values is tried at least once in a few requests per list.

Each combination is a test whose id names it (``listQuestions-novice-pageSize=1&q=$word``), so a failure says
which combination broke which rule (PAGING-LISTCOUNT's test judges the ``FOLDED`` rules on the same response too,
speed23). One GET per combination and reader, shared by every rule judged on it (the ``fetch`` cache; the module runs
on one worker, parallel.GROUPS "matrix"). Nothing here writes: the lists are read
where the profile's fixtures and earlier reads put them.

What is not judged, and why (each a skip naming it, never a pass): a reader the site does not serve (anonymous
refused), a combination the target refuses with a 4xx (the description does not state that every value is accepted:
q, type, lang, wrap and v1 are "not shown"), a response under wrap or v1 that is not the envelope (their effect is not
shown), a reader from whom reads show nothing withheld (nothing to leak).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import filter_values
import matrix_reads
import pytest
import search_words
from covering import (
    EXPERT_LISTS,
    PAIRS,
    TRIPLES,
    Combination,
    parametrize_by_rule,
    rule_rows,
    thorough,
)
from list_effects import EXPERT_SORT_MEANINGS, met_twice, not_user_items, order_break, outside_space
from listops import LIST_OPS, RunOnce
from matrix_kit import INVALID_SORT, SORT_PAGES, MatrixKit
from matrix_reads import (
    EARLIER_PAGES,
    SpaceIndex,
    Withheld,
    explicit_default_forms,
    index_spaces,
    read_combination,
    relations_read,
    withheld_of,
)

from qaconform.contract import NONE, Dimensions, load_contract
from qaconform.contract import path as contract_path
from qaconform.invariants import (
    envelope_type_problems,
    listcount_problems,
    millis_problems,
    pagecount_problem,
    projection_problems,
)
from qaconform.pytest.exchange_log import outside_tests
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.support import list_all
from qaconform.target.client import ApiClient

pytestmark = pytest.mark.contract

_WORD = re.compile(r"[A-Za-z]{4,}")


# --- the combinations: drawn at collection, from the rule's declaration and the run's seed -----------------------

def _rows_named_sort(c: Combination) -> bool:
    """PAGING-SORT-ECHO judges a documented sort asked for by name (``default``'s name in effect is configured)."""
    return c.value("sort") not in (NONE, "sort=default")


def _rows_sort_with_meaning(c: Combination) -> bool:
    """SORT-EXPERTS-ORDER judges a sort whose key the description names (``default`` is configurable)."""
    return c.value("sort").removeprefix("sort=") in EXPERT_SORT_MEANINGS


def _rows_include_only(c: Combination) -> bool:
    """PROJ-INCLUDEONLY judges the rows that ask for includeOnly."""
    return c.value("projection").startswith("includeOnly=")


def _rows_type_kept(c: Combination) -> bool:
    """FOLLOWERS-DETAILS-DEFAULT judges items by their type: rows whose includeOnly keeps no type, or that ask for
    details (relations by design; round34: active=false without details stays), are left out."""
    return not _rows_include_only(c) and "details=true" not in c.value("follow")


def _rows_items_as_stated(c: Combination) -> bool:
    """LIST-ITEM-TYPE and SHAPE-DATES-MILLIS judge items as the description gives them: not under wrap or v1 (their
    effect is not shown), and an includeOnly row only for the fields it keeps (type must be among them)."""
    return c.value("wrap") == NONE and c.value("v1") == NONE


ROW_FILTER: dict[str, Callable[[Combination], bool]] = {"PAGING-SORT-ECHO": _rows_named_sort,
                                                        "LIST-ITEM-TYPE": _rows_items_as_stated,
                                                        "SHAPE-DATES-MILLIS": _rows_items_as_stated,
                                                        "SORT-EXPERTS-ORDER": _rows_sort_with_meaning,
                                                        "PROJ-INCLUDEONLY": _rows_include_only,
                                                        "FOLLOWERS-DETAILS-DEFAULT": _rows_type_kept}
"""Rows a rule has nothing to judge on, left out of its tests (a test that cannot fail is a defect)."""


def _combinations(rule: str, dims: Dimensions, seed: int, config: pytest.Config) -> list[Combination]:
    """Every row of the covering array of each list ``rule`` is crossed over, and the rows :func:`covering.rule_rows`
    adds beside it for the rule, less the rows it cannot judge."""
    keep = ROW_FILTER.get(rule, lambda c: True)
    strength = TRIPLES if thorough(config) else PAIRS
    rows = [c for op in dims.rules[rule].lists for c in rule_rows(rule, op, dims, seed, strength) if keep(c)]
    return rows + _whole_pages(rows) if rule == "SORT-EXPERTS-ORDER" else rows


WHOLE_PAGE = "pageSize=10"
"""round81 (issue 44): the paging value SORT-EXPERTS-ORDER's rows add to the array's (``pageSize=1``,
``page=2&pageSize=2``): a page of up to ten users ("pageSize: Items per page"; 10, the largest size
PAGING-PAGESIZE-ECHO asks for). A page of one or two users shows almost no order: a server whose sized query orders
the page it took by another key (round81-active-realname-sized-by-username: realname asked, each page re-sorted by
username) passed every row, the unsized rows reading it by the other code path."""


def _whole_pages(rows: list[Combination]) -> list[Combination]:
    """Each (list, sort) of the rows without paging once more with :data:`WHOLE_PAGE`, under the reader of the first
    such row (the array's readers rotate over the sorts): about ten reads a run, one page each on a site whose expert
    lists are short, up to SORT_PAGES on a long one."""
    out: dict[tuple[str, str], Combination] = {}
    for c in rows:
        if c.value("paging") == NONE and (c.op, c.value("sort")) not in out:
            out[(c.op, c.value("sort"))] = Combination(c.op, c.reader, tuple(
                (n, WHOLE_PAGE if n == "paging" else v) for n, v in c.values))
    return list(out.values())


FOLDED = ("PAGING-PAGECOUNT", "SHAPE-DATES-MILLIS")
"""Rules judged in PAGING-LISTCOUNT's test, on the rows each is drawn for (speed23, issue 44: one item per read in
place of three, each a small check of the same response; their rows are among PAGING-LISTCOUNT's, as their ``across``
is within its own and their lists the same: tests/test_matrix_folded.py)."""


def folded_rules(dims: Dimensions, seed: int, config: pytest.Config) -> Callable[[Combination], tuple[str, ...]]:
    """combination -> the :data:`FOLDED` rules whose own rows hold it (by label), in that order."""
    drawn = {rule: {c.label for c in _combinations(rule, dims, seed, config)} for rule in FOLDED}
    return lambda c: tuple(rule for rule in FOLDED if c.label in drawn[rule])


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``combination``: every row of the covering array of each list the test's rule is crossed over (for the
    list-count test, each row also marked with the :data:`FOLDED` rules judged on it)."""
    also_of = None
    if metafunc.function is test_counts_and_dates_in_every_combination:
        from qaconform.pytest.properties.plugin import STATE

        also_of = folded_rules(load_contract().dimensions, metafunc.config.stash[STATE].seed, metafunc.config)
    parametrize_by_rule(metafunc, "combination", _combinations, "a matrix", beside=matrix_reads.JUDGED_BESIDE,
                        also_of=also_of)


# --- reads the combinations share ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def matrix(request: pytest.FixtureRequest) -> MatrixKit:
    """Everything a test here reads, one fixture (matrix_kit.py, speed22): the module's reads (published_fetch, written
    for the other workers' crossing suites too; it never takes theirs, as its effect tests compare responses it read
    close together), the lists' paths, the search words, the withheld items, the profile, and each list read ahead."""
    return MatrixKit.of(request)


@pytest.fixture(scope="session")
def withheld(api: dict[str, ApiClient], run_once: RunOnce) -> Callable[[str], Withheld | None]:
    """``withheld(reader)``, read once per reader and run (whichever worker runs one of the lists first: each list
    is a unit of work); None when the reader's own space list cannot be read. Its reads belong to no test in the
    exchange log (``outside_tests``): tests judge with what they found, whichever test (or read-ahead) asked first."""
    cache: dict[str, Withheld | None] = {}

    def of(reader: str) -> Withheld | None:
        if reader not in cache:
            with outside_tests():
                cache[reader] = Withheld.of_json(run_once(f"matrix withheld {reader}", lambda: _json(
                    withheld_of(api, reader))))
        return cache[reader]

    return of


def _json(found: Withheld | None) -> dict[str, list[str]] | None:
    return None if found is None else found.as_json()


@pytest.fixture(scope="session")
def question_word(api: dict[str, ApiClient], withheld: Callable[[str], Withheld | None], run_once: RunOnce) -> str:
    """``$word``: a word of a title withheld from novice that no title novice lists holds (so a search that forgets
    the caller finds the withheld question on its first page, and a correct one finds few), else of the first
    question admin lists. The description does not show q's format; any text is a search. Found once per run."""
    return str(run_once("matrix search word", lambda: _search_word(api, withheld)))


@pytest.fixture(scope="session")
def list_words(api: dict[str, ApiClient], run_once: RunOnce) -> dict[str, str]:
    """``$word@<list>``: the word a list searched by its items' names searches for (search_words.py), once a run."""
    return dict(run_once("matrix list words", lambda: search_words.per_list(api["admin"])))


def _search_word(api: dict[str, ApiClient], withheld: Callable[[str], Withheld | None]) -> str:
    hidden = withheld("novice")
    titles = list(hidden.titles) if hidden else []
    shown: set[str] = set()
    if titles:
        seen = list_all(api["novice"], contract_path("listQuestions"), page_size=100, max_pages=3)
        shown = {w.lower() for q in seen for w in _WORD.findall(str(q.get("title") or ""))}
    else:
        first = api["admin"].get(contract_path("listQuestions"), params={"pageSize": 5})
        body = first.json() if first.status == 200 else {}
        titles = [str(q.get("title") or "") for q in (body.get("list") or []) if isinstance(q, dict)]
    words = sorted({w.lower() for t in titles for w in _WORD.findall(t)}, key=lambda w: (w in shown, -len(w), w))
    return words[0] if words else "a"


# --- the rules -------------------------------------------------------------------------------------------------

@pytest.mark.rule("PROJ-ONLY-VISIBLE")
@pytest.mark.permissions
def test_only_items_the_reader_may_see_in_every_combination(
    combination: Combination, matrix: MatrixKit
) -> None:
    """"Only items the caller may see are returned", for every reader whatever parameters it adds."""
    fetch, matrix_paths, search_word = matrix.at(combination)
    hidden = matrix.withheld(combination.reader)
    if hidden is None or not (hidden.spaces if combination.op == "listSpaces" else hidden.nodes):
        skip(SkipKind.OTHER, f"not judged: reads show nothing withheld from {combination.reader} on this target "
             "(every space admin lists is in its space list), so there is nothing to leak")
    forbidden = hidden.spaces if combination.op == "listSpaces" else hidden.nodes
    body, resp = read_combination(combination, fetch, matrix_paths, search_word)
    # a later page is judged with the pages before it (at most EARLIER_PAGES of them), read with the same
    # parameters: which items a reader sees does not depend on where a page starts, and a leak a page 2 does not
    # show would otherwise need three values at once (reader, parameter, page) that pairwise does not promise
    asked = combination.params({"$word": search_word})
    pages = [(body, resp)]
    for earlier in range(max(1, int(asked.get("page", 1)) - EARLIER_PAGES), int(asked.get("page", 1))):
        pages.append(read_combination(combination, fetch, matrix_paths, search_word, page=earlier))
    for body, resp in pages:
        leaked = [i.get("id") for i in body["list"] if isinstance(i, dict) and str(i.get("id")) in forbidden]
        if not leaked:
            continue
        what = "spaces its space list leaves out" if combination.op == "listSpaces" else \
            "questions and answers of spaces its space list leaves out"
        fail(["PROJ-ONLY-VISIBLE"], f"{combination.label}: {combination.reader} is shown {leaked[:10]}, {what} "
             f"(\"Only items the caller may see are returned\"), on page {body.get('page')}", resp)


@pytest.mark.rule("PAGING-LISTCOUNT")
@pytest.mark.paging
def test_counts_and_dates_in_every_combination(
    combination: Combination, matrix: MatrixKit, request: pytest.FixtureRequest
) -> None:
    """"Number of items in this page" and "Total number of pages": ceil(totalCount / pageSize); and, on the rows
    SHAPE-DATES-MILLIS is drawn for, "creationDate: Epoch time in milliseconds" (and the other dates so documented)
    for every date an item carries: whatever reader and parameters, all judged on the combination's one response.
    A failure names each rule the response breaks (the others of the row hold: qaconform.blame); a read that cannot
    be judged skips, or is blocked, for every rule of the row alike, as each rule's own test was."""
    fetch, matrix_paths, search_word = matrix.at(combination)
    body, resp = read_combination(combination, fetch, matrix_paths, search_word)
    judged = {str(a) for m in request.node.iter_markers("rule") for a in m.args}
    broken: dict[str, str] = {}
    problems = listcount_problems(body)  # listCount is the number of items, no more than pageSize
    if problems:
        broken["PAGING-LISTCOUNT"] = "; ".join(problems)
    problem = pagecount_problem(body) if "PAGING-PAGECOUNT" in judged else None
    if problem:
        broken["PAGING-PAGECOUNT"] = problem
    dates = millis_problems(body["list"], "$.list") if "SHAPE-DATES-MILLIS" in judged else []
    if dates:
        broken["SHAPE-DATES-MILLIS"] = "; ".join(dates)
    if broken:
        fail(list(broken), f"{combination.label}: " + "; ".join(f"[{r}] {text}" for r, text in broken.items()), resp)


@pytest.mark.rule("PAGING-SORT-ECHO")
@pytest.mark.paging
def test_sort_in_effect_in_every_combination(
    combination: Combination, matrix: MatrixKit
) -> None:
    """"Sort criterion in effect": a documented expert sort asked for is in effect, on both expert lists, with or
    without paging (an empty sort is a value seen: a server that names no criterion)."""
    fetch, matrix_paths, search_word = matrix.at(combination)
    assert combination.op in EXPERT_LISTS, f"PAGING-SORT-ECHO is stated for the expert lists, not {combination.op}"
    body, resp = read_combination(combination, fetch, matrix_paths, search_word)
    asked = combination.params({})["sort"]
    if body.get("sort") not in (asked, ""):
        fail(["PAGING-SORT-ECHO"], f"{combination.label}: sort={asked} is a documented expert sort, so it is the "
             f"criterion in effect; the envelope reports sort {body.get('sort')!r}", resp)


@pytest.mark.rule("PAGING-ENVELOPE")
@pytest.mark.paging
def test_the_envelope_in_every_combination(
    combination: Combination, matrix: MatrixKit
) -> None:
    """"Every list endpoint returns this object": its fields and their types, whatever reader and parameters (under
    wrap or v1, whose effect is not shown, another shape is not judged)."""
    fetch, matrix_paths, search_word = matrix.at(combination)
    read_combination(combination, fetch, matrix_paths, search_word)  # fails PAGING-ENVELOPE where it is not one


@pytest.mark.rule("LIST-ITEM-TYPE")
def test_items_are_of_the_lists_type_in_every_combination(
    combination: Combination, matrix: MatrixKit
) -> None:
    """"paged list envelope with Node items of type question" (and each list's own type), whatever reader and
    parameters: every item that carries a type carries the list's (an includeOnly that keeps no type hides it)."""
    fetch, matrix_paths, search_word = matrix.at(combination)
    want = LIST_OPS[combination.op].item_type
    body, resp = read_combination(combination, fetch, matrix_paths, search_word)
    typed = [i for i in body["list"] if isinstance(i, dict) and "type" in i]
    if not typed:
        skip(SkipKind.OTHER, f"not judged: {combination.label} shows no item with a type")
    wrong = [(i.get("id"), i.get("type")) for i in typed if i.get("type") != want]
    if wrong:
        fail(["LIST-ITEM-TYPE"], f"{combination.label}: {combination.op} holds {want} items; these are not "
             f"(id, type): {wrong[:5]}", resp)


# --- effects, not echoes (issue 44 item 4): what a stated parameter does to the items (list_effects.py) --------

@pytest.mark.rule("SORT-EXPERTS-ORDER")
@pytest.mark.paging
def test_each_expert_sort_orders_the_items_by_its_key_in_every_combination(
    combination: Combination, matrix: MatrixKit
) -> None:
    """"sort must be one of reputation, username, realname, recent, oldest, default": the sort asked for orders the
    items by its key, on the page read and across the pages before and after it (page 1 then 2 continue the
    order), whichever reader asks; an echo of the name alone is not the sort. Under a key the run never changes
    (username, realname) a user met on two pages of the walk is no such order either (round70: a later page ordered
    by another key repeats a user while the keys read still climb)."""
    fetch, matrix_paths, search_word = matrix.at(combination)
    sort = combination.params({})["sort"]
    body, resp = read_combination(combination, fetch, matrix_paths, search_word)
    asked_page = int(combination.params({}).get("page", 1))
    pages = [(asked_page, body, resp)]
    if "pageSize" in combination.params({}):
        last = max(asked_page, min(int(body.get("pageCount") or 1), SORT_PAGES))
        pages = [(n, *(read_combination(combination, fetch, matrix_paths, search_word, page=n) if n != asked_page
                       else (body, resp))) for n in range(1, last + 1)]
    items = [i for _, b, _ in pages for i in b["list"]]
    broken = order_break(sort, items)
    if broken is None and not any(len([i for i in items if isinstance(i, dict) and key(i) is not None]) >= 2
                                  for _, key in EXPERT_SORT_MEANINGS[sort].keys):
        skip(SkipKind.MISSING_FIXTURE, f"not checked: {combination.label} lists fewer than two users carrying the "
             f"key of sort={sort} (needs fixture: two experts)")
    if broken is not None:
        fail(["SORT-EXPERTS-ORDER"], f"{combination.label}: sort={sort} orders {EXPERT_SORT_MEANINGS[sort].says}, "
             f"yet pages {[n for n, _, _ in pages]} ({len(items)} users) are in no such order: {broken.shown}",
             pages[-1][2])
    twice = met_twice(sort, [(n, b) for n, b, _ in pages])
    if twice is not None:
        fail(["SORT-EXPERTS-ORDER"], f"{combination.label}: sort={sort} orders {EXPERT_SORT_MEANINGS[sort].says} "
             f"across the pages, yet {twice}", pages[-1][2])


@pytest.fixture(scope="session")
def space_index(api: dict[str, ApiClient], run_once: RunOnce) -> SpaceIndex:
    """Where each question admin lists lives (read once per run, outside any test)."""
    return SpaceIndex.of_json(run_once("matrix space index", lambda: index_spaces(api).as_json()))


@pytest.mark.rule("FILTER-SPACEID")
def test_space_id_restricts_the_questions_in_every_combination(
    combination: Combination, matrix: MatrixKit, space_index: SpaceIndex
) -> None:
    """"spaceId (integer; restricts to one space)" beside every combination, at the space the reader's unfiltered
    read shows most questions of (none lost: reads16, filter_values.py) and at the profile's (where a filter ignored
    shows): items of that space only, also at a page size one above the space's count (admin's list places them)."""
    fetch, matrix_paths, search_word = matrix.at(combination)
    words, profile = {"$word": search_word, **matrix.list_words}, matrix.profile
    drawn, shown = filter_values.drawn_space(fetch, combination, matrix_paths, words, profile)
    for space in dict.fromkeys((drawn, str(profile.fixtures.space_id))):
        body, resp = read_combination(combination, fetch, matrix_paths, words, extra={"spaceId": space})
        filter_values.judge_lost(body, resp, space, shown if space == drawn else [], combination.label)
        outside, held = outside_space(body["list"], space, space_index.spaces), space_index.holding(space)
        total = body.get("totalCount")
        if not outside and space_index.complete and isinstance(total, int) and total > held:
            body, resp = read_combination(combination, fetch, matrix_paths, words,
                                          extra={"spaceId": space, "page": "1", "pageSize": str(held + 1)})
            outside = outside_space(body["list"], space, space_index.spaces)
        if outside:
            fail(["FILTER-SPACEID"], f"{combination.label}&spaceId={space}: lists questions of other spaces "
                 f"(id, spaces): {outside[:5]} (\"restricts to one space\"; space {space} holds {held} questions as "
                 f"admin lists them, by primaryContainerId and containerIds)", resp)


@pytest.mark.rule("FOLLOWERS-ACTIVE-DEFAULT")
def test_active_decides_the_followers_in_every_combination(
    combination: Combination, matrix: MatrixKit
) -> None:
    """"active (boolean, default true)"; "When active is true only active relations are returned; when false all
    relations, including inactive ones": every combination of the follower list (active left out: true) and with
    active=false counts the relations of matrix_reads.relations_read, whatever else comes with it, and with each
    parameter left out given at its stated default (fix23), and details=true alone (JUDGED_BESIDE); active=true:
    test_list_relations.py."""
    fetch, matrix_paths, search_word = matrix.at(combination)
    path = matrix_paths.get(combination.op, "")
    counted: dict[str, Any] = {}
    for active in ("true", "false"):
        rel = fetch(combination.reader, path, **relations_read(active))
        rel_body = rel.json() if rel.status == 200 else None
        if not isinstance(rel_body, dict) or envelope_type_problems(rel_body):
            skip(SkipKind.OTHER, f"not judged: {urlencode(relations_read(active))} answered {rel.status} without "
                 "the envelope, so the relations it counts are unknown")
        counted[active] = rel_body.get("totalCount")
        meaning = "active defaults to true: only active relations" if active == "true" else (
            "active=false returns all relations")
        extra = {} if active == "true" else {"active": "false"}
        for form in explicit_default_forms(combination.op, combination.params({"$word": search_word}), extra):
            body, resp = read_combination(combination, fetch, matrix_paths, search_word, extra=form or None)
            if body.get("totalCount") != rel_body.get("totalCount"):
                fail(["FOLLOWERS-ACTIVE-DEFAULT"], f"{combination.label}{''.join(f'&{k}={v}' for k, v in form.items())}"
                     f": totalCount {body.get('totalCount')}, yet details=true&active={active} counts "
                     f"{rel_body.get('totalCount')} relations: {meaning}, whatever else is asked", resp)
    matrix_reads.judge_defaulted_relations(combination, fetch, path, counted["true"])


@pytest.mark.rule("PROJ-INCLUDEONLY")
def test_include_only_limits_the_fields_in_every_combination(
    combination: Combination, matrix: MatrixKit
) -> None:
    """"includeOnly takes a comma-separated list of field names and limits the returned items to those fields",
    whatever reader, page, sort, search, wrap or v1 comes with it."""
    fetch, matrix_paths, search_word = matrix.at(combination)
    fields = tuple(combination.params({})["includeOnly"].split(","))
    body, resp = read_combination(combination, fetch, matrix_paths, search_word)
    if not body["list"]:
        skip(SkipKind.OTHER, f"not judged: {combination.label} lists no item, so no field to limit")
    problems = projection_problems(body["list"], fields)
    if problems:
        fail(["PROJ-INCLUDEONLY"], f"{combination.label}: {'; '.join(problems)}", resp)


@pytest.mark.rule("FOLLOWERS-DETAILS-DEFAULT")
def test_follower_items_are_users_without_details_in_every_combination(
    combination: Combination, matrix: MatrixKit
) -> None:
    """"details (boolean, default false)" and "default-mode items are User items": without details, whatever
    reader, page, sort, include, exclude, wrap or v1 is asked, the items are User items (type user)."""
    fetch, matrix_paths, search_word = matrix.at(combination)
    body, resp = read_combination(combination, fetch, matrix_paths, search_word)
    if not body["list"]:
        skip(SkipKind.OTHER, f"not judged: {combination.label} lists no follower")
    wrong = not_user_items(body["list"])
    if wrong:
        fail(sorted(wrong), f"{combination.label}: without details the items are User items (type user); these are "
             f"not: {[i for ids in wrong.values() for i in ids][:10]}", resp)


def _falls_back(rule: str, combination: Combination, fetch: Any, matrix_paths: dict[str, str],
                search_word: str) -> None:
    """The combination with an invalid sort in place of its own lists the items, in the order, and names the sort
    in effect of the combination without a sort: "an invalid sort name makes the request fall back to the default
    sort", whatever reader, page, search or projection comes with it."""
    default, _ = read_combination(combination, fetch, matrix_paths, search_word, without="sort")
    raw = fetch(combination.reader, matrix_paths[combination.op],
                **(combination.params({"$word": search_word}) | {"sort": INVALID_SORT}))
    if 400 <= raw.status < 500:
        fail([rule], f"{combination.label} with sort={INVALID_SORT} answered {raw.status}; without a sort it is "
             "served: an invalid sort name falls back to the default sort", raw)
    body, resp = read_combination(combination, fetch, matrix_paths, search_word, extra={"sort": INVALID_SORT})
    ids = [i.get("id") for i in body["list"] if isinstance(i, dict)]
    expected = [i.get("id") for i in default["list"] if isinstance(i, dict)]
    if ids != expected or body.get("sort") != default.get("sort"):
        fail([rule], f"{combination.label} with sort={INVALID_SORT} lists {ids[:12]} under sort "
             f"{body.get('sort')!r}; without a sort (the default) it lists {expected[:12]} under sort "
             f"{default.get('sort')!r}", resp)
    _own_sort_falls_back(rule, combination, fetch, matrix_paths, search_word, default)


def _own_sort_falls_back(rule: str, combination: Combination, fetch: Any, matrix_paths: dict[str, str],
                         search_word: str, default: dict[str, Any]) -> None:
    """The combination's own sort (a name the description has seen on the question and comment lists; which names
    this list accepts is not shown) judged as a second invalid name: where the envelope says the list fell back (it
    reports the default's sort, not the name asked for), the items are the default's, in its order. A name the list
    takes (reported as the sort in effect) is not judged; nor is one when the envelope names no sort (blind7, issue
    44: a name of another list's sort table must fall back like an unknown one)."""
    asked = combination.value("sort").removeprefix("sort=")
    fallen = default.get("sort")
    if asked == NONE or not isinstance(fallen, str) or fallen in ("", asked):
        return
    raw = fetch(combination.reader, matrix_paths[combination.op], **combination.params({"$word": search_word}))
    if 400 <= raw.status < 500:
        fail([rule], f"{combination.label} answered {raw.status}; without a sort it is served: a sort name the list "
             "does not take falls back to the default sort", raw)
    body, resp = read_combination(combination, fetch, matrix_paths, search_word)
    if body.get("sort") != fallen:
        return
    ids = [i.get("id") for i in body["list"] if isinstance(i, dict)]
    expected = [i.get("id") for i in default["list"] if isinstance(i, dict)]
    if ids != expected:
        fail([rule], f"{combination.label} reports the default sort {fallen!r} (sort={asked} fell back) but lists "
             f"{ids[:12]}; without a sort (the default) it lists {expected[:12]}", resp)


@pytest.mark.rule("SORT-FALLBACK-SPACES")
def test_an_invalid_space_sort_falls_back_in_every_combination(
    combination: Combination, matrix: MatrixKit
) -> None:
    fetch, matrix_paths, search_word = matrix.at(combination)
    _falls_back("SORT-FALLBACK-SPACES", combination, fetch, matrix_paths, search_word)


@pytest.mark.rule("SORT-FALLBACK-TOPICS")
def test_an_invalid_topic_sort_falls_back_in_every_combination(
    combination: Combination, matrix: MatrixKit
) -> None:
    fetch, matrix_paths, search_word = matrix.at(combination)
    _falls_back("SORT-FALLBACK-TOPICS", combination, fetch, matrix_paths, search_word)


@pytest.mark.rule("SORT-FALLBACK-GROUPS")
def test_an_invalid_group_sort_falls_back_in_every_combination(
    combination: Combination, matrix: MatrixKit
) -> None:
    fetch, matrix_paths, search_word = matrix.at(combination)
    _falls_back("SORT-FALLBACK-GROUPS", combination, fetch, matrix_paths, search_word)
