"""Every rule judged on a list's response, on every combination the list admits (issue 44, listcross).

A server that breaks a shape, an echo, a count or a field of the items only under one filter, one search, one
projection, one reader or one request form passes every test that sends a few plain requests. Here each list is
read once per row of a covering array over its reader, its stated parameters, its own (spaceId, unanswered, topics;
details, active) and the request form (Accept application/json as the samples send, or ``*/*``: the .json path alone
selects the format), and every response rule of that list is judged on the response (list_responses.py: which
rules, which rows, what each check asserts). Each row is one test, marked with the rules judged on it, whose id names
the row; a failure names every rule the response breaks.

Nothing here writes; the lists are read where the profile's fixtures and reads put them (``matrix_paths``). The
module runs on one worker (parallel.GROUPS "list-responses"): a row read for the JSON form goes through the ``fetch``
cache the other contract tests of the process share.

Not judged (a skip saying why): a combination the target refuses with a 4xx (q, type, lang, topics, wrap, v1 are
values the description does not show), a non-envelope answer under wrap or v1, anonymous where the site does not
serve the list, a list the target gives no path for. A 5xx blocks on CONV-NO-SERVER-ERROR, a refused signed-in
reader on the list's permission rule.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable
from typing import Any

import list_answers
import pytest
import response_params
import search_words
from alone_rows import own_in_every_form, response_rows
from covering import parametrize_rows
from list_kind_rows import every_other_kind
from list_responses import (
    ACCEPT,
    CHECKS,
    FIRST,
    HEADERS,
    JSON_FORM,
    Row,
    Seen,
    array,
    every_sort_name,
    excused,
    load,
    other_version,
    own_dimensions,
    response_rules,
    rules_of,
    schema_errors,
)
from listops import LIST_OPS, Fetch, RunOnce
from matrix_reads import PERMISSION_RULE
from owner_rows import every_owner, every_sort_of_holders
from response_params import sent
from rule_assertions import rules_for_schema_error
from sort_sweeps import PROJECTED_RULES, every_sort_elsewhere, every_sort_projected, is_projected, without_sort

from qaconform.contract import load_contract
from qaconform.contract import path as contract_path
from qaconform.pytest.exchange_log import judged_again, outside_tests
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.support import list_all
from qaconform.target import fanout
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = pytest.mark.contract

_WORD = re.compile(r"[A-Za-z]{4,}")


def _rows(seed: int, strength: int) -> list[tuple[Row, tuple[str, ...]]]:
    """Every row of every list with the response rules judged on it (rows on which none is judged left out)."""
    contract = load_contract()
    section = load(contract)
    rules = response_rules(contract, section)
    out = []
    for op in LIST_OPS:
        drawn = array(op, seed, strength, contract, deeper=True)
        owners = every_owner(op, contract)
        for row in [*drawn, *every_sort_name(op, drawn, contract), *owners, *_asked_nothing(owners),
                    *every_other_kind(op, contract), *every_sort_of_holders(op, contract, drawn)]:
            judged = rules_of(row, rules, section)
            if judged:
                out.append((row, judged))
        for row in every_sort_elsewhere(op, drawn, contract):  # fix24 (issue 44): sort_sweeps.py
            judged = rules_of(row, rules, section)
            if judged:
                out.append((row, judged))
        for row in every_sort_projected(op, contract):
            judged = tuple(r for r in rules_of(row, rules, section) if r in PROJECTED_RULES)
            if judged:
                out.append((row, judged))
        have = {row.label for row, _ in out if row.op == op} | {row.label for row in drawn}
        own = own_dimensions(contract).get(op, ())  # reads16 (issue 44): the list's own filters in every form
        for row in [*response_rows(drawn, JSON_FORM, have), *own_in_every_form(drawn, own, have)]:
            judged = rules_of(row, rules, section)
            if judged:
                out.append((row, judged))
    return out


ASKED_NOTHING = "asked_nothing"
"""round52 (issue 44): the owner of one more row of each user list, a user who wrote no question as far as admin's
question list shows. The profile's accounts all have posts to list, so a server that drops an author filter built
from an empty set of ids (the site's list served as the user's) was never met (round52-user-questions-none-site-list).
"""


def _asked_nothing(owners: list[Row]) -> list[Row]:
    return [dataclasses.replace(owners[0], owner=ASKED_NOTHING)] if owners else []


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``row``: every row of each list's covering array, marked with the response rules judged on it."""
    parametrize_rows(metafunc, "row", _rows, family="list_rows")


# --- what the rows read ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fetch(run_fetch: Fetch) -> Fetch:
    """The rows' reads on their own, sent once per run whichever worker asks first (conftest.run_fetch; speed,
    issue 44): each row judges one response whenever it was read; the reads right after another account's are this
    module's own, back to back."""
    return run_fetch


@pytest.fixture(scope="session")
def row_tokens(api: dict[str, ApiClient], profile: Profile, run_once: RunOnce) -> dict[str, str]:
    """``$word``: a word of the title of a question admin lists (q's format is not shown: any text is a search),
    on the topic list a word of a topic name (search_words.py: a search with items to judge); ``$space``: the
    profile's space (one that holds questions). Found once per run (each list a unit of work)."""
    return dict(run_once("list responses tokens", lambda: _row_tokens(api, profile)))


def _row_tokens(api: dict[str, ApiClient], profile: Profile) -> dict[str, str]:
    with outside_tests():
        first = api["admin"].get(contract_path("listQuestions"), params={"pageSize": 5})
    body = first.json() if first.status == 200 else {}
    titles = [str(q.get("title") or "") for q in (body.get("list") or []) if isinstance(q, dict)]
    words = sorted({w.lower() for t in titles for w in _WORD.findall(t)}, key=lambda w: (-len(w), w))
    return {"$word": words[0] if words else "a", "$space": str(profile.fixtures.space_id),
            response_params.MAX_TOKEN: str(response_params.max_page(profile)),
            **search_words.per_list(api["admin"])}


@pytest.fixture(scope="session")
def question_marks(api: dict[str, ApiClient], run_once: RunOnce) -> dict[str, bool]:
    """Question id -> marked, as admin lists the questions (bounded): the question an accepted answer belongs to.
    Read once per run."""
    def marks() -> dict[str, bool]:
        with outside_tests():
            questions = list_all(api["admin"], contract_path("listQuestions"), page_size=100, max_pages=5)
        return {str(q.get("id")): q.get("marked") is True for q in questions if isinstance(q, dict)}

    return dict(run_once("list responses question marks", marks))


@pytest.fixture(scope="session")
def owner_ids(api: dict[str, ApiClient], user_ids: dict[str, int], run_once: RunOnce) -> dict[str, int]:
    """The profile's accounts' ids and, under :data:`ASKED_NOTHING`, the first user of the active expert list who
    wrote none of the questions admin lists, one showing postCount 0 first (it may have answered nothing either: the
    answer list's row then meets the empty author set too; postCount only chooses, it is never judged). Reads only;
    left out when every listed user wrote a question. Found once."""
    def find() -> dict[str, int]:
        with outside_tests():
            askers = {str((q.get("author") or {}).get("id")) for q in list_all(
                api["admin"], contract_path("listQuestions"), page_size=100, max_pages=5) if isinstance(q, dict)}
            experts = api["admin"].get(contract_path("listActiveExperts"), params={"pageSize": 50})
        users = (experts.json() or {}).get("list") if experts.status == 200 else None
        found = sorted((u.get("postCount") != 0, i) for i, u in enumerate(users or []) if isinstance(u, dict)
                       and isinstance(u.get("id"), int) and str(u["id"]) not in askers)
        return {ASKED_NOTHING: users[found[0][1]]["id"]} if users and found else {}

    return {**user_ids, **dict(run_once("list responses user who asked nothing", find))}


def row_path(row: Row, matrix_paths: dict[str, str], user_ids: dict[str, int]) -> str:
    """The path a row reads: its owner's list (blind9), else the list ``matrix_paths`` reads."""
    if row.owner is not None:
        if row.owner == ASKED_NOTHING and row.owner not in user_ids:
            skip(SkipKind.OTHER, "not checked: every user of the active expert list wrote a question admin lists")
        if row.owner not in user_ids:
            skip(SkipKind.MISSING_FIXTURE, f"not checked: {row.owner}'s user id is unknown ([accounts.{row.owner}] id)",
                 fixtures=[f"accounts.{row.owner}.id"])
        return contract_path(row.op, userId=user_ids[row.owner])
    if row.op not in matrix_paths:
        skip(SkipKind.MISSING_FIXTURE, f"not checked: no {row.op} to read on this target (needs an answer of a "
             "listed question)")
    return matrix_paths[row.op]


RowKey = tuple[str, str, str, tuple[tuple[str, str], ...]]
"""A row's read: reader, path, request form and the parameters sent. Rows with one key are one read."""


@pytest.fixture(scope="module")
def row_key(matrix_paths: dict[str, str], row_tokens: dict[str, str],
            owner_ids: dict[str, int]) -> Callable[[Row], tuple[RowKey, str, dict[str, str]]]:
    """``row_key(row)``: the row's read (:data:`RowKey`), its path and the parameters sent."""

    def key(row: Row) -> tuple[RowKey, str, dict[str, str]]:
        path = row_path(row, matrix_paths, owner_ids)
        params = sent(row.op, row.combination.params(row_tokens))
        return (row.reader, path, row.form, tuple(sorted(params.items()))), path, params

    return key


@pytest.fixture(scope="module")
def read_row(api: dict[str, ApiClient], fetch: Any,
             row_key: Callable[[Row], tuple[RowKey, str, dict[str, str]]],
             ) -> Callable[[Row], tuple[ApiResponse, dict[str, str]]]:
    """``read_row(row)``: the row's response and the parameters sent, read once (JSON form: the ``fetch`` cache)."""
    cache: dict[RowKey, ApiResponse] = {}

    def read(row: Row) -> tuple[ApiResponse, dict[str, str]]:
        key, path, params = row_key(row)
        if row.form == JSON_FORM:
            return fetch(row.reader, path, **params), params
        if key in cache:
            judged_again(cache[key].exchange)
        else:
            cache[key] = api[row.reader].get(path, params=params or None, headers=HEADERS[row.form])
        return cache[key], params

    return read


SORTS_RULE = {"listQuestions": "PAGING-SORTS-QUESTIONS", "listUserQuestions": "PAGING-SORTS-QUESTIONS",
              "listAnswerComments": "PAGING-SORTS-COMMENTS"}
"""A missing sorts array is its rule's, not the shape's (the list schemas require it too)."""


@dataclasses.dataclass
class RowsKit:
    """What the test reads, one fixture (speed22, issue 44: pytest resolves every fixture of an item's closure for
    every item, cached or not; 23 an item here before, 6 now): the session and module fixtures it needs, asked for by
    name once per module, and the lists this process read ahead (:meth:`at`)."""

    read_row: Callable[[Row], tuple[ApiResponse, dict[str, str]]]
    row_key: Callable[[Row], tuple[RowKey, str, dict[str, str]]]
    matrix_paths: dict[str, str]
    question_marks: dict[str, bool]
    owner_ids: dict[str, int]
    profile: Profile
    session: pytest.Session
    module: Any
    read_ahead: set[str] = dataclasses.field(default_factory=set)

    def at(self, row: Row) -> RowsKit:
        """The kit, with the row's list read ahead first if it was not (as the autouse fixture it replaces did in
        the list's first test's setup)."""
        if row.op not in self.read_ahead:
            self.read_ahead.add(row.op)
            self._ahead(row.op)
        return self

    def _ahead(self, op: str) -> None:
        """Every row's read of the list, made before the first of its tests, a few at once (within
        ``fanout.width``), into the caches the tests then read from. Why: the module's 600-odd rows, read one after
        another, are 600 x 25 ms = 15 s against a target 25 ms away (with the read-ahead the module took 29 s there,
        as without the delay on the same busy machine); and as one unit of work they were the run's longest chain,
        so each list is a unit of its own (parallel.GROUPS "list-responses"), read ahead when its first test starts.
        Each answer is judged by its test as before (a property of one response, whenever it was read) and logged
        again under it."""
        at_once = fanout.width(self.profile)
        if at_once <= 1:
            return
        rows = [item.callspec.params["row"] for item in self.session.items  # type: ignore[attr-defined]
                if getattr(item, "module", None) is self.module
                and getattr(getattr(item, "callspec", _NO).params.get("row"), "op", None) == op]
        # one read per key: rows that differ only in what they judge (paths14's alone rows beside the array's) send
        # the same request, which read one after another the cache answers, but read at once would go twice
        unique = list({self.row_key(row)[0]: row for row in rows}.values())
        try:
            with outside_tests():
                fanout.gather([functools.partial(self.read_row, row) for row in unique], at_once)
        except (Exception, pytest.fail.Exception, pytest.skip.Exception):  # noqa: BLE001 - a head start only
            pass  # each test reads what it still needs itself, and meets the same answer there (its own verdict)


@pytest.fixture(scope="module")
def rows(request: pytest.FixtureRequest) -> RowsKit:
    """:class:`RowsKit`, built in the module's first test's setup."""
    value = request.getfixturevalue
    return RowsKit(value("read_row"), value("row_key"), value("matrix_paths"), value("question_marks"),
                   value("owner_ids"), value("profile"), request.session, request.module)


_NO = type("_NoCallspec", (), {"params": {}})()


def _user_id(path: str) -> str | None:
    found = re.search(r"/user/(\d+)/", path)
    return found.group(1) if found else None


# --- the test ----------------------------------------------------------------------------------------------------

@functools.cache
def _section() -> Any:
    """The list_responses section of spec/dimensions.yaml, read once."""
    return load()


def judge_first(row: Row, rules: tuple[str, ...], resp: ApiResponse) -> Any:
    """The rules judged on the status and the body's form, before the envelope: the expert lists' 401 to anonymous,
    a documented expert sort served, a 200 whose body is JSON. Returns the parsed body (None when refused)."""
    if "EXPERTS-401" in rules:
        body_ok = _errors_message(resp) or "HTTP Status 401" in resp.text
        if resp.status != 401 or not body_ok:
            fail(["EXPERTS-401"], f"{row.label}: the expert lists answer a caller without credentials 401 with "
                 "{errors: {message}} or an HTML page titled HTTP Status 401; got "
                 f"{resp.status}", resp)
        return None
    moved = other_version(resp.url, resp.headers.get("location")) if "VERSION-PATH" in rules else None
    if moved is not None:  # round14 (issue 44): whatever the values, another version's path is not /services/v2
        fail(["VERSION-PATH"], f"{row.label}: every endpoint lives under /services/v2, yet {row.op} is answered from "
             f"{moved} ({resp.status})", resp)
    if "VERSION-PATH" in rules and resp.status == 404 and not excused("VERSION-PATH", row, _section()):
        fail(["VERSION-PATH"], f"{row.label}: every endpoint lives under /services/v2, yet {row.op} answers 404 at its "
             "path with these parameters (stated ones, whose values the description shows)", resp)
    if "AUTH-BASIC" in rules and resp.status == 401:
        fail(["AUTH-BASIC", PERMISSION_RULE[row.op]], f"{row.label}: {row.reader}'s valid Basic credentials "
             "(\"Requests are authenticated with HTTP Basic authentication\") are refused with 401", resp)
    if "SORT-EXPERTS-VALUES" in rules and resp.status != 200 and resp.status not in (401, 403):
        fail(["SORT-EXPERTS-VALUES"], f"{row.label}: sort={row.combination.params({}).get('sort')} is one of the "
             f"documented expert sorts, so it is accepted (200), with any page; got {resp.status}", resp)
    if resp.status != 200:
        return None
    try:
        return resp.json()
    except Exception:  # noqa: BLE001 - the failure says what came instead (TargetError's message)
        fail(["CONV-JSON-EXTENSION"], f"{row.label}: the path ends in .json, which selects the JSON format, yet the "
             f"200 body is not JSON (Content-Type {resp.content_type or 'missing'}; Accept {ACCEPT[row.form]})", resp)


def _errors_message(resp: ApiResponse) -> bool:
    try:
        body = resp.json()
    except Exception:  # noqa: BLE001 - an HTML page is the other stated form
        return False
    errors = body.get("errors") if isinstance(body, dict) else None
    return isinstance(errors, dict) and isinstance(errors.get("message"), str)


def envelope_of(row: Row, resp: ApiResponse, body: Any) -> dict[str, Any]:
    """The row's response as an envelope, or the skip or blocked failure that says why it cannot be judged."""
    list_answers.served(row.label, row.op, row.reader, resp, PERMISSION_RULE[row.op])
    return list_answers.envelope(row.label, row.value, resp, body)


def test_every_response_rule_of_the_list_holds_in_every_combination(
    row: Row, request: pytest.FixtureRequest, rows: RowsKit
) -> None:
    """Each rule marked on the row (list_responses.CHECKS: a shape, an echo, a count, a field of the items, the
    status of a documented value) holds on the row's one response, whatever reader, parameters and request form."""
    kit = rows.at(row)
    read_row, matrix_paths, owner_ids = kit.read_row, kit.matrix_paths, kit.owner_ids
    rules = tuple(r for m in request.node.iter_markers("rule") for r in m.args)
    resp, asked = read_row(row)
    if is_projected(row) and resp.status not in (200, 401, 403):
        alone, _ = read_row(without_sort(row))
        if alone.status != 200:
            skip(SkipKind.OTHER, f"not judged: {row.label}: the projection alone is answered {alone.status} too; "
                 f"the description does not state that {row.op} takes it (\"accepted by most endpoints\")")
    body = judge_first(row, rules, resp)
    if "EXPERTS-401" in rules or is_projected(row):
        return
    envelope = envelope_of(row, resp, body)
    contract = load_contract()
    seen = Seen(row, asked, envelope, _user_id(row_path(row, matrix_paths, owner_ids)), kit.question_marks)
    sorts = {"sorts": SORTS_RULE[row.op]} if row.op in SORTS_RULE else {}
    seen.errors = schema_errors(seen, contract, lambda e: _item_type_alone(rules_for_schema_error(
        e, "SHAPE-LIST", is_list=True, field_rules=sorts)))
    broken: dict[str, list[str]] = {}
    for rule in rules:
        if rule in FIRST:
            continue
        problems = CHECKS[rule].problems(_for_rule(seen, rule))
        if problems:
            broken[rule] = problems
    if broken:
        lines = "\n  ".join(f"{rule}: {'; '.join(p[:3])}" for rule, p in broken.items())
        fail(sorted(broken), f"{row.label}:\n  {lines}", resp)


def _item_type_alone(rules: list[str]) -> list[str]:
    """An item of another type is LIST-ITEM-TYPE's (its check names the items), not the shape's too: one broken
    statement turns one rule red, however many lists show it."""
    return ["LIST-ITEM-TYPE"] if "LIST-ITEM-TYPE" in rules else rules


def _for_rule(seen: Seen, rule: str) -> Seen:
    """The view a shape rule judges: the schema errors attributed to the list's own shape rule under its id."""
    if rule.startswith("SHAPE-LIST-") and "SHAPE-LIST" in seen.errors:
        errors = dict(seen.errors)
        errors[rule] = errors.pop("SHAPE-LIST")
        return Seen(seen.row, seen.asked, seen.body, seen.user_id, seen.marked, errors)
    return seen

