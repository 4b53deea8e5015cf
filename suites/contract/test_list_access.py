"""Who may read each list, and which of its items, whatever the request carries and whoever read it just before
(issue 44): the list permission rules and the visibility rules crossed by default (list_access.py).

A server that checks a list's permission only for the plain request (a projection, a sort or a page size takes
another path that forgets it), or answers from a response kept by URL for the caller who asked first, passes every
test that sends one plain request per account. Here every account reads every list with the parameters a covering
array draws over everything the list admits, sometimes right after admin or member read the very same URL (the
``order`` dimension): a refused reader must stay refused, an allowed one served, and a served one shown only what
it may see.

Each row is read once and judged by every rule crossed over its list (the ``fetch`` cache for a read on its own, the
module's ``pair`` cache for a read right after another account's; the module runs on one worker,
parallel.GROUPS "list-access"). Nothing here writes. What the kit knows a reader may not see comes from reads made
apart from the rows, with URLs no row uses (a page size of their own), so a server that keeps responses by URL
cannot blind the kit to its own leak.

The pairs of a list's rows are read ahead a few at once (each pair in one task), so another row's read may come
between a pair's two on the target; a server that reuses the visibility worked out for the request before (for a few
seconds) is then seen only by chance, least of all on a busy machine. So each node list projection covers is also read
by every reader with something withheld right after admin's plain read of the same list, the two back to back inside
the test (order20, issue 44 item 6).

Not judged (a skip naming why): a combination the target refuses with a 4xx other than 401/403 (values the
description does not show: q, type, lang, topics, wrap, v1), a non-envelope answer under wrap or v1, anonymous where
its plain read is neither served nor refused, a reader from whom reads show nothing withheld.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import list_answers
import node_kinds
import pytest
import search_words
from cells import cell_marks
from covering import PAIRS, TRIPLES, thorough
from list_access import (
    ALLOW,
    AS_PLAIN,
    DENIED_RULES,
    DENY,
    OWN_PATH,
    VISIBILITY_RULES,
    Case,
    Row,
    cases,
    folded,
    verdict,
)
from listops import LIST_OPS, Fetch, RunOnce

from qaconform.contract import load_contract
from qaconform.contract import path as contract_path
from qaconform.pytest.exchange_log import judged_again, outside_tests
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.refusals import off_the_interface, why_not_refused
from qaconform.pytest.support import list_all
from qaconform.target import fanout
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.contract, pytest.mark.permissions]

APART_PAGE_SIZE = 97
"""The page size of admin's reads that learn what a reader may not see, and less one per account of each reader's
own (:func:`apart_size`): no row uses them and no two accounts share one, so no response kept by URL for another
caller answers them."""
MAX_PAGES = 10
MAX_HIDDEN_SPACES = 5


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``case``: every crossed rule on every row of each of its lists (list_access.cases), each marked with its
    rule, its id naming rule, list, reader, parameters and read order; the visibility rules of one row in one test
    (list_access.folded, speed24), marked with each."""
    if "case" not in metafunc.fixturenames:
        return
    from qaconform.pytest.properties.plugin import STATE

    seed = metafunc.config.stash[STATE].seed
    strength = TRIPLES if thorough(metafunc.config) else PAIRS
    metafunc.parametrize("case", [pytest.param(c, id=c.label,
                                               marks=[pytest.mark.rule(*judged_rules(c)), *cell_marks(c)])
                                  for c in folded(cases(seed, strength=strength))])


# --- what the rows read ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fetch(run_fetch: Fetch) -> Fetch:
    """The rows' reads on their own, sent once per run whichever worker asks first (conftest.run_fetch; speed,
    issue 44): each row judges one response whenever it was read; the reads right after another account's are this
    module's own, back to back."""
    return run_fetch


@pytest.fixture(scope="session")
def access_paths(api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int],
                 run_once: RunOnce) -> dict[str, str]:
    """operationId -> the path read: the user lists of member (who wrote in the space hidden from novice on the
    reference site; any account on another), the fixture question's followers, a listed answer's comments. Found
    once per run (each list is a unit of work: parallel.GROUPS "list-access")."""
    return dict(run_once("list access paths", lambda: _access_paths(api, profile, user_ids)))


def _access_paths(api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int]) -> dict[str, str]:
    question = profile.fixtures.question_id
    with outside_tests():
        questions = list_all(api["admin"], contract_path("listQuestions"), page_size=APART_PAGE_SIZE, max_pages=1)
    answers = [a for q in questions for a in (q.get("answers") or []) if str(a).isdecimal()]
    ids: dict[str, dict[str, Any]] = {
        "listUserAnswers": {"userId": user_ids.get("member")},
        "listUserQuestions": {"userId": user_ids.get("member")},
        "listNodeFollowers": {"nodeId": question},
        "listAnswerComments": {"answerId": answers[0] if answers else None},
    }
    return {op: contract_path(op, **ids.get(op, {})) for op in LIST_OPS
            if op not in ids or all(v is not None for v in ids[op].values())}


@pytest.fixture(scope="session")
def kind_paths(api: dict[str, ApiClient], profile: Profile, run_once: RunOnce) -> dict[str, str]:
    """"<operationId> <kind>" -> the path of a node list at a question of each kind (list_access.KIND_PATH,
    NODE_KINDS), found once per run in the question list of the least privileged signed-in account."""
    return dict(run_once("list access kind paths", lambda: node_kinds.kind_paths(api, profile, APART_PAGE_SIZE)))


@pytest.fixture(scope="session")
def own_paths(api: dict[str, ApiClient], user_ids: dict[str, int], run_once: RunOnce) -> dict[str, str]:
    """"<reader> <operationId>" -> the path of the list at a path of the reader's own (list_access.OWN_PATH): its own
    user's lists, the comments of an answer and the followers of a question it wrote, as its own user lists show
    them. Found once per run (blind10, issue 44)."""
    return dict(run_once("list access own paths", lambda: _own_paths(api, user_ids)))


def _own_paths(api: dict[str, ApiClient], user_ids: dict[str, int]) -> dict[str, str]:
    out: dict[str, str] = {}
    for reader, uid in sorted(user_ids.items()):
        if reader not in api or reader == "anonymous":
            continue
        first: dict[str, Any] = {}
        with outside_tests():
            for op, kind in (("listUserAnswers", "answerId"), ("listUserQuestions", "nodeId")):
                resp = api[reader].get(contract_path(op, userId=uid), params={"pageSize": 1})
                items = resp.json().get("list") if resp.status == 200 and isinstance(resp.json(), dict) else None
                if isinstance(items, list) and items and isinstance(items[0], dict) and items[0].get("id"):
                    first[kind] = items[0]["id"]
        for op, name in OWN_PATH.items():
            value = uid if name == "userId" else first.get(name)
            if value is not None:
                out[f"{reader} {op}"] = contract_path(op, **{name: value})
    return out


@dataclass(frozen=True)
class Hidden:
    """What reads apart from the rows show ``reader`` may not see: spaces admin lists and its space list leaves
    out (and the profile's hidden_space_id for novice), the questions and answers admin lists in them, and every
    group (for a reader the group list refuses)."""

    spaces: frozenset[str]
    nodes: frozenset[str]
    titles: tuple[str, ...]
    groups: frozenset[str]

    def as_json(self) -> dict[str, list[str]]:
        """The JSON form a worker hands the others (conftest.run_once)."""
        return {"spaces": sorted(self.spaces), "nodes": sorted(self.nodes), "titles": list(self.titles),
                "groups": sorted(self.groups)}

    @classmethod
    def of_json(cls, raw: dict[str, list[str]] | None) -> Hidden | None:
        if raw is None:
            return None
        return cls(frozenset(raw["spaces"]), frozenset(raw["nodes"]), tuple(raw["titles"]), frozenset(raw["groups"]))


@pytest.fixture(scope="session")
def hidden(api: dict[str, ApiClient], profile: Profile, run_once: RunOnce) -> Callable[[str], Hidden | None]:
    """``hidden(reader)``, read once per reader and run (None: its own space list cannot be read), outside any
    test."""
    kept: dict[str, Hidden | None] = {}

    def of(reader: str) -> Hidden | None:
        if reader not in kept:
            with outside_tests():
                kept[reader] = Hidden.of_json(run_once(f"list access hidden {reader}", lambda: _json(
                    _hidden(api, profile, reader))))
        return kept[reader]

    return of


def _json(found: Hidden | None) -> dict[str, list[str]] | None:
    return None if found is None else found.as_json()


def apart_size(reader: str) -> int:
    """The page size of ``reader``'s own reads apart from the rows: one of its own (see :data:`APART_PAGE_SIZE`)."""
    return APART_PAGE_SIZE - 1 - sorted(LIST_OPS["listQuestions"].roles + ("anonymous",)).index(reader)


def _hidden(api: dict[str, ApiClient], profile: Profile, reader: str) -> Hidden | None:
    spaces_path = contract_path("listSpaces")
    every = {str(s.get("id")) for s in list_all(api["admin"], spaces_path, page_size=APART_PAGE_SIZE,
                                                max_pages=MAX_PAGES)}
    own = api[reader].get(spaces_path, params={"page": 1, "pageSize": apart_size(reader)})
    if own.status != 200:
        return None
    seen = {str(s.get("id")) for s in list_all(api[reader], spaces_path, page_size=apart_size(reader),
                                               max_pages=MAX_PAGES)}
    withheld = every - seen
    if reader == "novice" and profile.fixtures.hidden_space_id is not None:
        withheld.add(str(profile.fixtures.hidden_space_id))  # the profile: a space novice may not see
    nodes: set[str] = set()
    titles: list[str] = []
    for space in sorted(withheld)[:MAX_HIDDEN_SPACES]:
        for q in list_all(api["admin"], contract_path("listQuestions"), params={"spaceId": space},
                          page_size=APART_PAGE_SIZE, max_pages=2):
            nodes.add(str(q.get("id")))
            nodes.update(str(a) for a in (q.get("answers") or []))
            titles.append(str(q.get("title") or ""))
    groups: set[str] = set()
    if verdict("listGroups", reader) == DENY:
        groups = {str(g.get("id")) for g in list_all(api["admin"], contract_path("listGroups"),
                                                     page_size=APART_PAGE_SIZE, max_pages=MAX_PAGES)}
    return Hidden(frozenset(withheld), frozenset(nodes), tuple(titles), frozenset(groups))


@pytest.fixture(scope="session")
def tokens(api: dict[str, ApiClient], hidden: Callable[[str], Hidden | None], run_once: RunOnce) -> dict[str, str]:
    """``$word``: a word of a title withheld from novice (else of a question admin lists); ``$space``: a space
    withheld from novice (else the first admin lists). Values whose format the description does not show (q,
    topics) are any text. Found once per run."""
    return dict(run_once("list access tokens", lambda: _tokens(api, hidden)))


def _tokens(api: dict[str, ApiClient], hidden: Callable[[str], Hidden | None]) -> dict[str, str]:
    novice = hidden("novice")
    titles = list(novice.titles) if novice else []
    spaces = sorted(novice.spaces) if novice else []
    if not titles or not spaces:
        with outside_tests():
            first = list_all(api["admin"], contract_path("listQuestions"), page_size=APART_PAGE_SIZE, max_pages=1)
            listed = list_all(api["admin"], contract_path("listSpaces"), page_size=APART_PAGE_SIZE, max_pages=1)
        titles = titles or [str(q.get("title") or "") for q in first[:5]]
        spaces = spaces or [str(s.get("id")) for s in listed[:1]]
    words = sorted({w for t in titles for w in t.split() if w.isalpha() and len(w) >= 4}, key=lambda w: (-len(w), w))
    space = spaces[0] if spaces else "1"
    return {"$word": words[0].lower() if words else "a", "$space": space, **_selecting(api["admin"], space)}


def _selecting(admin: ApiClient, space: str) -> dict[str, str]:
    """reads16 (issue 44 item 1): every filter value drawn from the list's own items, so each filtered row has rows
    to judge. The title word filled ``topics`` and the topic list's ``q`` alike, and names no topic: 18 of the
    question list's topics rows and 14 of the topic list's search rows judged an empty list on the reference server
    (the permission and visibility rules saw no item). ``topics`` is now a topic the questions of ``$space`` carry
    (admin's read of it: a space withheld from novice, so the visibility rows judge items the filter selects and a
    reader may not see), else one admin's first page carries; the topic list's q a fragment its names share
    (search_words.per_list). What either selects is not shown: nothing asserts it, the rows' own rules judge it."""
    found = search_words.per_list(admin)
    topic = search_words.topic_within(admin, {"spaceId": space})
    return found | ({search_words.TOPICS_TOKEN: topic} if topic else {})


@pytest.fixture(scope="module")
def read_row(api: dict[str, ApiClient], fetch: Any, access_paths: dict[str, str],
             tokens: dict[str, str], own_paths: dict[str, str], kind_paths: dict[str, str],
             user_ids: dict[str, int]) -> Callable[[Row], ApiResponse]:
    """``read_row(row)``: the reader's response to the row's request, read once per row. A read on its own comes
    from the shared ``fetch`` cache; one "after" another account is a fresh pair of reads, back to back, the other
    account's first (the same URL: the same parameters in the same order)."""
    pairs: dict[str, tuple[ApiResponse, ApiResponse]] = {}

    def read(row: Row) -> ApiResponse:
        c = row.combination
        if c.op not in access_paths:
            skip(SkipKind.MISSING_FIXTURE, f"not checked: no {c.op} to read on this target (needs an answer of a "
                 "listed question)")
        params = c.params(tokens)
        if row.own:  # blind10 (issue 44): the reader's own user, or an answer or question it wrote
            key = f"{c.reader} {c.op}"
            if key not in own_paths:
                skip(SkipKind.MISSING_FIXTURE, f"not checked: no {c.op} of {c.reader}'s own to read on this target "
                     f"(needs {c.reader}'s user id and, for a node, an answer or question {c.reader} wrote)")
            own: ApiResponse = fetch(c.reader, own_paths[key], **params)
            return own
        if row.node is not None:  # round82 (issue 44): a node list at a question of one kind
            if f"{c.op} {row.node}" not in kind_paths:
                skip(SkipKind.MISSING_FIXTURE, f"not checked: no {row.node} question (with an answer, for "
                     f"{c.op}) in the question list of this target")
            at_kind: ApiResponse = fetch(c.reader, kind_paths[f"{c.op} {row.node}"], **params)
            return at_kind
        if row.whose is not None:  # round14 (issue 44): another account's user lists
            if row.whose not in user_ids:
                skip(SkipKind.MISSING_FIXTURE, f"not checked: {row.whose}'s user id is unknown ([accounts.{row.whose}] "
                     "id)")
            other: ApiResponse = fetch(c.reader, contract_path(c.op, userId=user_ids[row.whose]), **params)
            return other
        if row.before is None:
            resp: ApiResponse = fetch(c.reader, access_paths[c.op], **params)
            return resp
        if row.label in pairs:
            for kept in pairs[row.label]:
                judged_again(kept.exchange)  # the test's HAR cassette holds both reads it judged
        else:
            first = api[row.before].get(access_paths[c.op], params=params or None)
            pairs[row.label] = (first, api[c.reader].get(access_paths[c.op], params=params or None))
        return pairs[row.label][1]

    return read


@dataclass
class AccessKit:
    """What the rows' test reads, one fixture (speed22, issue 44: pytest resolves every fixture of an item's closure
    for every item, cached or not; 22 an item here before, 6 now): the fixtures it needs, asked for by name once per
    module, and the lists this process read ahead (:meth:`at`)."""

    read_row: Callable[[Row], ApiResponse]
    fetch: Fetch
    access_paths: dict[str, str]
    hidden: Callable[[str], Hidden | None]
    profile: Profile
    session: pytest.Session
    module: Any
    read_ahead: set[str] = field(default_factory=set)

    def at(self, case: Case) -> AccessKit:
        """The kit, with the case's list read ahead first if it was not (as the autouse fixture it replaces did in
        the list's first test's setup)."""
        if case.row.combination.op not in self.read_ahead:
            self.read_ahead.add(case.row.combination.op)
            self._ahead(case.row.combination.op)
        return self

    def _ahead(self, op: str) -> None:
        """Every row the tests of one list read, read before the first of them, a few at once (each pair of reads of
        a row "after" another account still back to back, in one task), into the caches the tests then read from.

        Why: about 440 reads one after another are, against a target 25 ms away, an 11 s chain, longer than the rest
        of the run; and as one unit of work the module was the run's longest chain even so, so each list is a unit of
        its own (parallel.GROUPS "list-access"), read ahead when its first test starts. The answers are judged by each
        test as before (each a property of one response, or of a pair read back to back, whenever it was read)."""
        at_once = fanout.width(self.profile)
        if at_once <= 1:
            return
        try:
            with outside_tests():  # each answer is logged again under the test that judges it
                rows: dict[str, Row] = {}
                readers: set[str] = set()  # whose withheld items a visibility test reads
                plain: set[str] = set()  # lists whose anonymous rows a permission test judges by the plain read
                for item in self.session.items:
                    if getattr(item, "module", None) is not self.module:
                        continue
                    spec = getattr(item, "callspec", None)
                    other = spec.params.get("case") if spec is not None else None
                    if not isinstance(other, Case) or other.row.combination.op != op or op not in self.access_paths \
                            or other.row.node is not None:  # round82's rows: read by their test at their kind's path
                        continue
                    c = other.row.combination
                    rows.setdefault(other.row.label, other.row)
                    if other.rule in VISIBILITY_RULES:
                        readers.add(c.reader)
                    elif other.rule not in DENIED_RULES and verdict(c.op, c.reader) == AS_PLAIN:
                        plain.add(self.access_paths[c.op])
                if any(r.combination.reader == "anonymous" and not r.combination.query and r.before is None
                       and not r.own and r.whose is None and r.node is None for r in rows.values()):
                    plain.discard(self.access_paths[op])  # readers (issue 44): a row reads it; two at once: twice
                fanout.gather([functools.partial(self.hidden, r) for r in sorted(readers)], at_once)
                fanout.gather([functools.partial(self.read_row, r) for r in rows.values()]
                              + [functools.partial(self.fetch, "anonymous", p) for p in sorted(plain)], at_once)
        except (Exception, pytest.fail.Exception, pytest.skip.Exception):  # noqa: BLE001 - a head start only
            pass  # each test reads what it still needs itself, and meets the same answer there (its own verdict)


@pytest.fixture(scope="module")
def access(request: pytest.FixtureRequest) -> AccessKit:
    """:class:`AccessKit`, built in the module's first test's setup."""
    value = request.getfixturevalue
    return AccessKit(value("read_row"), value("fetch"), value("access_paths"), value("hidden"), value("profile"),
                     request.session, request.module)


def _envelope(case: Case, resp: ApiResponse) -> dict[str, Any]:
    """The 200 envelope of a served row, or the skip that says why it cannot be judged for items."""
    c = case.row.combination
    if resp.status >= 500:
        fail(["CONV-NO-SERVER-ERROR"], f"{case.row.label}: the list failed with {resp.status}", resp)
    if resp.status != 200:
        skip(SkipKind.OTHER, f"not judged for items: {case.row.label} was answered {resp.status}")
    return list_answers.envelope(case.row.label, c.value, resp, resp.json())


# --- the verdicts ---------------------------------------------------------------------------------------------

PERMISSION_RULES = {op: r.id for r in load_contract().rules.values()
                    if r.area == "permissions" and r.level == "must" and r.operations
                    and all(op in LIST_OPS for op in r.operations) and r.id not in (*VISIBILITY_RULES, *DENIED_RULES)
                    for op in r.operations}
"""List -> the rule of its line of the permission table (a served refused reader breaks it), from spec/rules.yaml:
the permission rules whose operations are lists only."""
DENIED_STATUS_LISTS = frozenset(load_contract().rule("PERM-DENIED-STATUS").operations)


# --- the Errors table's answer to a caller without credentials (blindr, issue 44) -----------------------------------
CREDENTIALS_RULES = {op: r.id for r in load_contract().rules.values()
                     if r.area == "auth" and r.level == "must" and r.operations
                     and all(op in LIST_OPS for op in r.operations) for op in r.operations}
"""List -> the rule of its row of the Errors table for a caller without credentials ("401 | Expert lists | Missing
or bad credentials"), from spec/rules.yaml: the auth rules whose operations are lists only. Judged on the refused
anonymous rows of the list's permission rule, so with every parameter and right after a signed-in read of the same
URL too (a response kept by URL ahead of the credentials check serves anonymous the signed-in page)."""


def credentials_rule(case: Case) -> str | None:
    """The Errors-table rule judged on ``case`` besides its own: on anonymous rows the table refuses, of the list's
    permission rule."""
    c = case.row.combination
    if c.reader != "anonymous" or case.rule != PERMISSION_RULES.get(c.op) or verdict(c.op, c.reader) != DENY:
        return None
    return CREDENTIALS_RULES.get(c.op)


def judged_rules(case: Case) -> tuple[str, ...]:
    """The rules a case's test is marked with: its own, those folded into it, and the Errors-table rule it judges
    too."""
    extra = credentials_rule(case)
    return (case.rule, *case.also, extra) if extra else (case.rule, *case.also)


def judge_missing_credentials(case: Case, resp: ApiResponse, rule: str) -> None:
    """"401 ... Either JSON {errors: {message: ...}} or an HTML error page titled HTTP Status 401" to anonymous."""
    if resp.status == 401:
        try:
            body = resp.json()
        except AssertionError:
            body = None
        errors = body.get("errors") if isinstance(body, dict) else None
        if (isinstance(errors, dict) and isinstance(errors.get("message"), str)) or "HTTP Status 401" in resp.text:
            return
    after = f" right after {case.row.before} read the same URL" if case.row.before else ""
    fail([rule], f"{case.row.label}: a caller without credentials gets 401 with JSON {{errors: {{message}}}} or an "
         f"HTML page titled HTTP Status 401 (Errors table); got {resp.status}{after}", resp)


def _expected(case: Case, fetch: Any, access_paths: dict[str, str]) -> str:
    """ALLOW or DENY for the row's reader: the table's, or for anonymous on an Anonymous Roles list the answer to
    its plain request (the site says whether anonymous holds those roles; no parameter changes who the caller
    is)."""
    c = case.row.combination
    expected = verdict(c.op, c.reader)
    if expected != AS_PLAIN:
        return expected
    plain: ApiResponse = fetch(c.reader, access_paths[c.op])
    if plain.status == 200:
        return ALLOW
    if plain.status in (401, 403):
        return DENY
    skip(SkipKind.OTHER, f"not judged: anonymous's plain {c.op} is answered {plain.status}, neither served nor "
         "refused, so nothing says which it holds")
    raise AssertionError  # pragma: no cover - skip raises


def _served(resp: ApiResponse) -> str:
    try:
        body = resp.json()
    except AssertionError:
        return "a body that is not JSON"
    items = body.get("list") if isinstance(body, dict) else body
    return f"{len(items)} items" if isinstance(items, list) else "a body"


def judge_permission(case: Case, resp: ApiResponse, expected: str) -> None:
    """The list's permission with these parameters: a refused reader gets a 4xx (401 or 403 for the refusal
    itself), an allowed one is not refused."""
    c, rule = case.row.combination, case.rule
    after = f" right after {case.row.before} read the same URL" if case.row.before else ""
    if expected == ALLOW:
        if off_the_interface(resp):  # round13 (issue 44): a login page is no answer of the list to a value
            fail([rule], f"{case.row.label}: {c.reader} may read {c.op} (\"Every operation requires the permissions "
                 f"below\"; no parameter changes who the caller is), yet it is sent away from the interface; "
                 f"{why_not_refused(resp)}{after}", resp)
        if resp.status in (401, 403):
            fail([rule], f"{case.row.label}: {c.reader} may read {c.op} (\"Every operation requires the permissions "
                 f"below\"; no parameter changes who the caller is), yet it is refused {resp.status}{after}", resp)
        if resp.status >= 500:
            fail(["CONV-NO-SERVER-ERROR"], f"{case.row.label}: the list failed with {resp.status}", resp)
        if resp.status != 200:
            skip(SkipKind.OTHER, f"not judged: the target refused {case.row.label} with {resp.status}; the "
                 f"description does not state that {c.op} accepts these values")
        return
    credentials = credentials_rule(case)
    if 200 <= resp.status < 300:
        fail([PERMISSION_RULES.get(c.op, rule), *([credentials] if credentials else [])],
             f"{case.row.label}: {c.reader} lacks the permissions {c.op} requires, yet it is served "
             f"{_served(resp)}{after}", resp)
    if (why := why_not_refused(resp)) is not None:
        fail(["PERM-DENIED-STATUS"] if c.op in DENIED_STATUS_LISTS else [rule],
             f"{case.row.label}: a permission refusal is a 4xx of the interface itself; {why}{after}", resp)
    if credentials:
        judge_missing_credentials(case, resp, credentials)


def judge_denied_body(case: Case, resp: ApiResponse) -> None:
    """"JSON {errors: {message: <same permission text>}}" on the group list's refusal, whatever the parameters."""
    c = case.row.combination
    if resp.status not in (401, 403):
        skip(SkipKind.OTHER, f"not judged: {case.row.label} was answered {resp.status}, not a permission refusal "
             "(the permission rule judges it)")
    try:
        problems = load_contract().validate("errors", resp.json())
    except AssertionError:
        problems = ["the body is not JSON"]
    if problems:
        fail([case.rule], f"{case.row.label}: {c.reader}'s refused {c.op} carries JSON {{errors: {{message}}}}; "
             f"{'; '.join(problems)}", resp)


def judge_visibility(case: Case, resp: ApiResponse, hidden: Hidden | None) -> None:
    """"Only items the caller may see are returned" (and, for spaces, "Only spaces for which the caller has View
    the questions list appear"), whatever the parameters and whoever read the URL before."""
    c = case.row.combination
    forbidden = (set() if hidden is None else
                 hidden.spaces if c.op == "listSpaces" else hidden.groups if c.op == "listGroups" else hidden.nodes)
    if not forbidden:
        skip(SkipKind.OTHER, f"not judged: reads show nothing withheld from {c.reader} on {c.op} here, so there "
             "is nothing to leak")
    if c.op == "listGroups" and not 200 <= resp.status < 300:
        return  # refused: shown nothing (the permission rules judge the refusal)
    body = _envelope(case, resp)
    leaked = [i.get("id") for i in body["list"] if isinstance(i, dict) and str(i.get("id")) in forbidden]
    if leaked:
        after = f", right after {case.row.before} read the same URL" if case.row.before else ""
        fail([case.rule, *case.also], f"{case.row.label}: {c.reader} is shown {leaked[:10]}, which it may not "
             f"see{after}", resp)


def test_who_reads_each_list_and_what_whatever_the_request_and_the_read_before(case: Case, access: AccessKit) -> None:
    """Each list permission and visibility rule on one drawn row (list_access.py says which rule on which row)."""
    kit = access.at(case)
    read_row, fetch, access_paths, hidden = kit.read_row, kit.fetch, kit.access_paths, kit.hidden
    resp = read_row(case.row)
    reader = case.row.combination.reader
    if case.rule in VISIBILITY_RULES:
        judge_visibility(case, resp, hidden(reader))
    elif case.rule == "PERM-DENIED-BODY":
        judge_denied_body(case, resp)
    else:
        judge_permission(case, resp, _expected(case, fetch, access_paths))


# --- a projected list right after admin's plain read of the same list (order20, issue 44 item 6) ------------------
PAIRED_LISTS = ("listQuestions", "listUserQuestions", "listUserAnswers")
"""The node lists projection's visibility sentence covers (PROJ-ONLY-VISIBLE) whose items a reader may be denied."""
PAIRED_READERS = ("novice", "anonymous", "member", "moderator")


@pytest.mark.rule("PROJ-ONLY-VISIBLE")
@pytest.mark.parametrize("reader", PAIRED_READERS)
@pytest.mark.parametrize("op", PAIRED_LISTS)
def test_a_projected_list_right_after_admins_plain_read_shows_only_what_the_reader_may_see(
    op: str, reader: str, api: dict[str, ApiClient], access_paths: dict[str, str],
    hidden: Callable[[str], Hidden | None],
) -> None:
    """"Only items the caller may see are returned" (Projection parameters), read right after admin read the same
    list without a projection. The rows above read such pairs ahead, a few at once, so another row's read may come
    between the two, and a visibility kept for the request before (round34, order20-kind-...) then goes unseen on a
    busy machine; here the two reads are sent back to back inside the test, after what the reader may not see is
    known, with nothing of this process between them."""
    withheld = hidden(reader)
    if op not in access_paths or withheld is None or not withheld.nodes:
        skip(SkipKind.OTHER, f"not judged: reads show nothing withheld from {reader} on {op} here (or no {op} to "
             "read), so there is nothing to leak")
    path = access_paths[op]
    api["admin"].get(path)  # the plain read the reader's follows (its answer is admin's own: not judged)
    resp = api[reader].get(path, params={"includeOnly": "id"})
    if resp.status != 200:
        skip(SkipKind.OTHER, f"not judged for items: {reader}'s projected {op} was answered {resp.status} (the "
             "permission rows judge who is served)")
    try:
        body = resp.json()
    except AssertionError:
        skip(SkipKind.OTHER, f"not judged for items: {reader}'s projected {op} is not JSON (the response rules judge "
             "its body)")
    items = body.get("list") if isinstance(body, dict) else body
    leaked = [i.get("id") for i in items or [] if isinstance(i, dict) and str(i.get("id")) in withheld.nodes]
    if leaked:
        fail(["PROJ-ONLY-VISIBLE"], f"{op}?includeOnly=id: {reader} is shown {leaked[:10]}, which it may not see "
             "(\"Only items the caller may see are returned\"), right after admin read the same list unprojected",
             resp)
