"""Every response rule of a list judged on every shape of the list (issue 44, lists).

A server's paging code branches on the shape of the page: an empty list (the empty-list serializer), a page exactly
full (``total // size + 1``), the last page short, a page past the end (a count over the page's window). Here each
list is read once per shape (list_shapes.py: which shapes, how page and pageSize are chosen against the totalCount
the row's reader reads first, where an empty list is found), and every response rule of the list
(list_responses.py: the same checks the covering arrays run) is judged on that page; a stable list's page also
reports the totalCount the plain read gave (PAGING-TOTALCOUNT-UNION: "Total number of items", of the list, not of
the page).

Nothing here writes. A shape the target does not let the reads reach (no user without questions among those the
reads show, a search the target does not narrow, a list too long for one page) is a skip that names what is
missing, after the rules were judged on the page read; never a silent pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import list_responses
import list_shapes
import pytest
from cells import cell_marks
from list_responses import CHECKS, FIRST, Row, Seen, load, response_rules, rules_of, schema_errors
from list_shapes import EMPTY, NO_MATCH, SEARCHED, ShapeRow
from listops import LIST_OPS, Fetch, RunOnce
from rule_assertions import rules_for_schema_error
from test_list_responses import (  # the checks' own helpers, one place for both crossings
    SORTS_RULE,
    _for_rule,
    _item_type_alone,
    _user_id,
    envelope_of,
    judge_first,
    question_marks,
)

from qaconform.contract import load_contract
from qaconform.contract import path as contract_path
from qaconform.pytest.exchange_log import outside_tests
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

pytestmark = pytest.mark.contract
__all__ = ["question_marks"]  # the fixture, shared with test_list_responses.py

UNION = "PAGING-TOTALCOUNT-UNION"
CANDIDATES = 10
"""At most this many users, nodes or answers are read to find an empty list (a read each)."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``shape_row``: every (list, shape) row, marked with the response rules judged on it."""
    if "shape_row" not in metafunc.fixturenames:
        return
    from qaconform.pytest.properties.plugin import STATE

    contract = load_contract()
    section = load(contract)
    rules = response_rules(contract, section)
    params = []
    seed = metafunc.config.stash[STATE].seed
    for row in list_shapes.rows(seed, contract):
        judged = rules_of(list_shapes.stand_in(row, contract), rules, section)
        params.append(pytest.param(row, id=row.label, marks=[pytest.mark.rule(*judged), *cell_marks(row)]))
    for row, judged in list_shapes.added(seed, contract):  # crossing13: a stated parameter beside the shape
        params.append(pytest.param(row, id=row.label, marks=[pytest.mark.rule(*judged), *cell_marks(row)]))
    metafunc.parametrize("shape_row", params)


# --- where each list is empty, found with reads ------------------------------------------------------------------

@pytest.fixture(scope="session")
def empty_places(api: dict[str, ApiClient], user_ids: dict[str, int], run_once: RunOnce,
                 profile: Profile) -> dict[str, Any]:
    """List -> the path of an empty one ({"path": ...}) or why none was found ({"missing": ...}): a user with no
    questions or no answers, a node no one follows, an answer with no comments, among the users and nodes admin's
    reads show; found once per run, with reads only."""
    return dict(run_once("list shapes empty places",
                         lambda: _empty_places(api["admin"], user_ids, profile.fixtures.question_id, api)))


def _held(client: ApiClient, path: str, **params: Any) -> Any:
    """How many items the list's first page holds (None when it is no envelope). Why not totalCount: an empty list
    is known by its first page holding nothing; a count is one of the things judged on it."""
    resp = client.get(path, params=params or None)
    body = resp.json() if resp.status == 200 else None
    return len(body["list"]) if isinstance(body, dict) and isinstance(body.get("list"), list) else None


def _first_empty(client: ApiClient, op: str, key: str, ids: list[Any], what: str, paged: bool,
                 readers: Sequence[ApiClient] = ()) -> dict[str, str]:
    """The first of ``ids`` whose list admin reads empty and every one of ``readers`` is served (200): the rows read
    it as each signed-in account, and a node only admin may see (an answer in a space novice may not list, one
    waiting in moderation: the oldest nodes of a site often are) would be a 404 the target is not to blame for."""
    seen: list[str] = []
    for found in dict.fromkeys(str(i) for i in ids if str(i).isdecimal()):
        if len(seen) >= CANDIDATES:
            break
        seen.append(found)
        path = contract_path(op, **{key: found})
        if _held(client, path, **({"pageSize": 1} if paged else {})) == 0 and all(
                r.get(path, params={"pageSize": 1} if paged else None).status == 200 for r in readers):
            return {"path": path}
    return {"missing": f"no {what} among the {len(seen)} admin's reads show ({', '.join(seen) or 'none'})"}


def _empty_places(admin: ApiClient, user_ids: dict[str, int], busy_question: Any = None,
                  api: dict[str, ApiClient] | None = None) -> dict[str, dict[str, str]]:
    """The empty lists, the site's oldest nodes first: a node another build made minutes ago (an answer without
    comments yet, under the fixture question every build writes under) is removed by that build's cleanup, or
    commented, while this run reads it (measured: two CI builds at once, one read another's answer 387 as the empty
    comment list after the other had deleted it, a 404 and a false VERSION-PATH failure). So the nodes under
    ``busy_question`` come last, and the rest oldest first (a build's nodes are the newest on the site)."""
    with outside_tests():
        questions = _items(admin, contract_path("listQuestions"), pageSize=50)
        experts = [*_items(admin, contract_path("listActiveExperts"), pageSize=50),
                   *_items(admin, contract_path("listEarnedExperts"), pageSize=50)]
        accounts = {str(i) for i in user_ids.values()}
        people = [u.get("id") for u in experts] + [(q.get("author") or {}).get("id") for q in questions
                                                   if isinstance(q.get("author"), dict)]
        users = [u for u in people if str(u) not in accounts] + list(user_ids.values())
        busy = {str(a) for q in questions if str(q.get("id")) == str(busy_question) for a in q.get("answers") or []}
        answers = list_shapes.oldest_first([a for q in questions for a in (q.get("answers") or [])], busy)
        nodes = list_shapes.oldest_first(answers + [q.get("id") for q in questions], busy | {str(busy_question)})
        return {
            "listUserQuestions": _first_empty(admin, "listUserQuestions", "userId", users, "user without questions",
                                              True),
            "listUserAnswers": _first_empty(admin, "listUserAnswers", "userId", users, "user without answers", True),
            "listNodeFollowers": _first_empty(admin, "listNodeFollowers", "nodeId", nodes, "node no one follows", True,
                                              _row_readers("listNodeFollowers", api)),
            "listAnswerComments": _first_empty(admin, "listAnswerComments", "answerId", answers,
                                               "answer without comments", False,
                                               _row_readers("listAnswerComments", api)),
        }


def _row_readers(op: str, api: dict[str, ApiClient] | None) -> list[ApiClient]:
    """The signed-in accounts other than admin that the list's section lets read ``op`` (those its rows read it as)."""
    allowed = set(list_responses.readers(op, load_contract())) - {"admin", "anonymous"}
    return [c for r, c in (api or {}).items() if r in allowed]


def _items(client: ApiClient, path: str, **params: Any) -> list[dict[str, Any]]:
    resp = client.get(path, params=params)
    body = resp.json() if resp.status == 200 else {}
    return [i for i in (body.get("list") or []) if isinstance(i, dict)] if isinstance(body, dict) else []


def _place(row: ShapeRow, matrix_paths: dict[str, str], empty_places: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """The path the row reads and the parameters that narrow it (the empty search), or the skip saying what is
    missing."""
    if row.shape == EMPTY and row.op in SEARCHED:
        return matrix_paths[row.op], {"q": NO_MATCH}
    if row.shape == EMPTY:
        place = empty_places.get(row.op) or {"missing": f"no way to read {row.op} empty"}
        if "missing" in place:
            skip(SkipKind.MISSING_FIXTURE, f"not checked: {row.op} empty: {place['missing']}")
        return str(place["path"]), {}
    if row.op not in matrix_paths:
        skip(SkipKind.MISSING_FIXTURE, f"not checked: no {row.op} to read on this target (needs an answer of a "
             "listed question)")
    return matrix_paths[row.op], {}


# --- the test ----------------------------------------------------------------------------------------------------

def test_every_response_rule_of_the_list_holds_in_every_shape(
    shape_row: ShapeRow, request: pytest.FixtureRequest, run_fetch: Fetch, matrix_paths: dict[str, str],
    empty_places: dict[str, Any], question_marks: dict[str, bool], profile: Profile,
) -> None:
    """Each rule marked on the row holds on the page the row reads in its shape; the page reports the list's
    totalCount where the list is stable; a shape not reached is said (after the page was judged). A row that adds a
    stated parameter (list_shapes.added) reads its page with it, sized by a read with it where it narrows the list."""
    contract = load_contract()
    marked = tuple(r for m in request.node.iter_markers("rule") for r in m.args)
    path, narrow = _place(shape_row, matrix_paths, empty_places)
    extra = shape_row.added_params({"$space": str(profile.fixtures.space_id)})
    sizing = {**narrow, **({} if all(d in list_shapes.NOT_NARROWING for d, _ in shape_row.adds) else extra)}
    narrow = {**narrow, **extra}
    total: Any = None
    paging: dict[str, str] = {}
    if list_shapes.asks(shape_row.op, shape_row.shape, contract):
        if shape_row.shape != EMPTY:
            probe = run_fetch(shape_row.reader, path, **sizing)
            probe_row = list_shapes.as_row(shape_row, sizing, contract)
            total = envelope_of(probe_row, probe, judge_first(probe_row, (), probe)).get("totalCount")
            if not isinstance(total, int) or isinstance(total, bool):
                skip(SkipKind.OTHER, f"not checked: {path} gives no totalCount to size the {shape_row.shape} page by")
        paging = _sized(shape_row, total, profile)
    asked, envelope = _read_and_judge(shape_row, path, {**narrow, **paging}, total, marked, run_fetch, question_marks)
    why_not = list_shapes.reached(shape_row.shape, asked, envelope.get("totalCount"), len(envelope.get("list") or []))
    moved = envelope.get("totalCount")
    if why_not and paging and isinstance(moved, int) and not isinstance(moved, bool) and moved != total:
        # crossing12: the list changed between the sizing read and the page (the run's own writes land in it): the
        # page is sized again from the count it reported and read once more (one request), its rules judged again
        total, paging = moved, _sized(shape_row, moved, profile)
        asked, envelope = _read_and_judge(shape_row, path, {**narrow, **paging}, total, marked, run_fetch,
                                          question_marks)
        why_not = list_shapes.reached(shape_row.shape, asked, envelope.get("totalCount"),
                                      len(envelope.get("list") or []))
    if why_not and list_shapes.asks(shape_row.op, shape_row.shape, contract):
        skip(SkipKind.OTHER, f"{shape_row.label}: the rules held on the page read, but it is not the "
             f"{shape_row.shape.replace('_', ' ')} shape: the shape is not checked on this target", detail=why_not)
    if why_not and shape_row.shape == EMPTY and envelope.get("list"):
        skip(SkipKind.OTHER, f"{shape_row.label}: the rules held on the list read, but it is not empty (a comment "
             "written since it was found?)", detail=f"it holds {len(envelope['list'])}")


def _sized(shape_row: ShapeRow, total: Any, profile: Profile) -> dict[str, str]:
    """page and pageSize that give the row's shape for ``total`` items, or the skip saying why none does."""
    planned = list_shapes.plan(shape_row.shape, total or 0, list_shapes.largest_page(profile))
    if isinstance(planned, str):
        skip(SkipKind.OTHER, f"not checked: {shape_row.label}: {planned}",
             detail=f"{shape_row.reader}'s read of the list says totalCount {total}")
    return planned


def _read_and_judge(shape_row: ShapeRow, path: str, asked: dict[str, str], total: Any, marked: tuple[str, ...],
                    run_fetch: Fetch, question_marks: dict[str, bool]) -> tuple[dict[str, str], dict[str, Any]]:
    """Read the page ``asked`` names and judge every marked rule on it (a failure ends the test); the page's
    parameters and envelope."""
    contract = load_contract()
    row = list_shapes.as_row(shape_row, asked, contract)
    resp = run_fetch(shape_row.reader, path, **asked)
    body = judge_first(row, marked, resp)
    envelope = envelope_of(row, resp, body)
    broken = _broken(row, marked, asked, envelope, path, question_marks)
    if total is not None and LIST_OPS[row.op].stable and envelope.get("totalCount") != total and (
            UNION in marked or not shape_row.adds):
        broken.setdefault(UNION, []).append(
            f"the list's plain read by {row.reader} says totalCount {total}; this page of it says "
            f"{envelope.get('totalCount')!r} (totalCount is the list's, whichever page is read)")
    if broken:
        lines = "\n  ".join(f"{rule}: {'; '.join(p[:3])}" for rule, p in broken.items())
        fail(sorted(broken), f"{shape_row.label} ({'&'.join(f'{k}={v}' for k, v in asked.items())}):\n  {lines}", resp)
    return asked, envelope


def _broken(row: Row, marked: tuple[str, ...], asked: dict[str, str], envelope: dict[str, Any], path: str,
            marks: dict[str, bool]) -> dict[str, list[str]]:
    """The marked rules the page breaks, of those that judge the row as read (its page size known now)."""
    contract = load_contract()
    section = load(contract)
    judged = set(rules_of(row, response_rules(contract, section), section))
    seen = Seen(row, asked, envelope, _user_id(path), marks)
    sorts = {"sorts": SORTS_RULE[row.op]} if row.op in SORTS_RULE else {}
    seen.errors = schema_errors(seen, contract, lambda e: _item_type_alone(rules_for_schema_error(
        e, "SHAPE-LIST", is_list=True, field_rules=sorts)))
    broken: dict[str, list[str]] = {}
    for rule in marked:
        if rule in FIRST or rule not in judged:
            continue
        problems = CHECKS[rule].problems(_for_rule(seen, rule))
        if problems:
            broken[rule] = problems
    return broken
