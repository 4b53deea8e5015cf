"""Every comment rule on every combination of the comment list as it shows the run's own subtree (issue 44,
commentcross).

The comment list of the contract suite's privacy thread (privacy_thread.py: an answer and six comments, three of
them private and a reply that inherits one's settings, each account denied at least one; written once per run for
test_list_relations.py too) is read once per row of the list's covering array (every reader, wrap and v1 in their
combinations, the request form, sort: round48), and every rule subtree_rows.py derives is judged on the response: no
private comment (nor its id) shown to a reader it is not private to, on every row; where the items are judged
(neither wrap nor v1), every comment the reader is entitled to listed with its settings and its text, a listed
reply with the settings it inherited.

Reads: one per row (about 20), made before the first test a few at once; no write of its own. Lists may lag writes:
the thread is awaited once within the settle window before the rows are read, and a row missing what must be listed
is read again within it; what must not be shown is judged at once.

Not judged (a skip saying why): a thread not written (--read-only, a target before 2.16.0), a reader the site does
not serve the list, a combination the target refuses with a 4xx (the values of wrap and v1 are not shown).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest
from alone_rows import response_rows
from covering import Combination, parametrize_rows
from list_responses import HEADERS, JSON_FORM, Row, array
from matrix_reads import PERMISSION_RULE
from privacy_thread import Thread
from relation_checks import Audience
from subtree_rows import CHECKS, LEAK_RULES, Seen, items_judged, load, rules_of, subtree_rules

from qaconform.contract import load_contract
from qaconform.contract import path as contract_path
from qaconform.pytest.exchange_log import judged_again, outside_tests
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.support import list_all, settle
from qaconform.target import fanout
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.contract, pytest.mark.comments, pytest.mark.writes]  # the privacy thread, if first


def _rows(seed: int, strength: int) -> list[tuple[Row, tuple[str, ...]]]:
    contract = load_contract()
    section = load(contract)
    rules = subtree_rules(contract, section)
    out = []
    for op in section.lists:
        drawn = array(op, seed, strength, contract, extra=section.conventions)  # round48: sort too
        alone = response_rows(drawn, JSON_FORM, {row.label for row in drawn})  # paths14 (issue 44): each value alone
        for row in [*drawn, *alone]:
            judged = rules_of(row, rules, section)
            if judged:
                out.append((row, judged))
    return out


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``subtree_row``: every row of the subtree lists' covering arrays, marked with the rules judged on it."""
    parametrize_rows(metafunc, "subtree_row", _rows)


@pytest.fixture(scope="module")
def settled_thread(privacy_thread: Thread, api: dict[str, ApiClient]) -> Thread:
    """The thread, once its comments show to member (a list that lags writes shows them a moment after the 201s);
    skipped when it was not written."""
    if not privacy_thread.posted:
        skip(SkipKind.OTHER, "not checked: the privacy thread was not written on this target (--read-only, or a "
                             "service version before 2.16.0): no comment of known audience to judge")
    public = {str(c) for c, p in privacy_thread.posted.items() if p.recipient is None}
    with outside_tests():
        list_all(api["member"], contract_path("listAnswerComments", answerId=privacy_thread.answer_id),
                 until=lambda items: public <= {str(i.get("id")) for i in items})
    return privacy_thread


@pytest.fixture(scope="module")
def read_subtree_row(api: dict[str, ApiClient], settled_thread: Thread) -> Callable[[Row, bool], ApiResponse]:
    """``read(row, fresh)``: the row's response, read once (``fresh``: read again, a read-back within the window)."""
    cache: dict[str, ApiResponse] = {}

    def read(row: Row, fresh: bool = False) -> ApiResponse:
        if row.label in cache and not fresh:
            judged_again(cache[row.label].exchange)
            return cache[row.label]
        path = contract_path(row.op, answerId=settled_thread.answer_id)
        params = row.combination.params({})
        cache[row.label] = api[row.reader].get(path, params=params or None, headers=HEADERS[row.form])
        return cache[row.label]

    return read


@pytest.fixture(scope="module", autouse=True)
def read_subtree_ahead(request: pytest.FixtureRequest, read_subtree_row: Callable[[Row, bool], ApiResponse],
                       profile: Profile) -> None:
    """Every row's read before the first test, a few at once (within ``fanout.width``), as test_list_responses.py
    reads its rows: each test then judges the answer its row got."""
    at_once = fanout.width(profile)
    if at_once <= 1:
        return
    mine = [item for item in request.session.items if getattr(item, "module", None) is request.module]
    rows = [item.callspec.params["subtree_row"] for item in mine  # type: ignore[attr-defined]
            if "subtree_row" in getattr(item, "callspec", _NO).params]
    try:
        with outside_tests():
            fanout.gather([functools.partial(read_subtree_row, row, False) for row in rows], at_once)
    except (Exception, pytest.fail.Exception, pytest.skip.Exception):  # noqa: BLE001 - a head start only
        pass


_NO = type("_NoCallspec", (), {"params": {}})()


def _body(row: Row, resp: ApiResponse) -> Any:
    """The row's body, or the skip or blocked failure that says why it cannot be judged."""
    if resp.status >= 500:
        fail(["CONV-NO-SERVER-ERROR"], f"{row.label}: the comment list failed with {resp.status}", resp)
    if resp.status in (401, 403):
        if row.reader == "anonymous":
            skip(SkipKind.OTHER, f"this site does not serve {row.op} to anonymous callers ({resp.status})")
        fail([PERMISSION_RULE[row.op]], f"{row.label}: {row.reader} may read {row.op}, yet it is refused", resp)
    if resp.status != 200:
        skip(SkipKind.OTHER, f"not judged: the target refused {row.label} with {resp.status}; the description does "
                             "not state the values of wrap and v1")
    try:
        return resp.json()
    except Exception:  # noqa: BLE001 - CONV-JSON-EXTENSION is test_list_responses.py's
        skip(SkipKind.OTHER, f"not judged: {row.label} answered a body that is not JSON")


def _seen(row: Row, resp: ApiResponse, thread: Thread, profile: Profile, user_ids: dict[str, int]) -> Seen:
    body = _body(row, resp)
    items = body.get("list") if isinstance(body, dict) else None
    judges = Audience.of(profile, row.reader, user_ids.get(row.reader), thread.private).judges
    return Seen(row, thread, profile.visibility, user_ids, judges, body,
                [i for i in items if isinstance(i, dict)] if isinstance(items, list) else [])


def _broken(seen: Seen, rules: tuple[str, ...], leaks_only: bool) -> dict[str, list[str]]:
    on_items = items_judged(seen.row) and isinstance((seen.body or {}).get("list") if isinstance(seen.body, dict)
                                                     else None, list)
    out: dict[str, list[str]] = {}
    for rule in rules:
        check = CHECKS[rule]
        problems = check.problems(seen)
        if on_items and not leaks_only:
            problems = problems + check.on_items(seen)
        if problems:
            out[rule] = problems
    return out


def test_every_comment_rule_holds_on_every_combination_of_the_comment_list(
    subtree_row: Row, request: pytest.FixtureRequest, read_subtree_row: Callable[[Row, bool], ApiResponse],
    settled_thread: Thread, profile: Profile, user_ids: dict[str, int], api: dict[str, ApiClient],
) -> None:
    """Each rule marked on the row (subtree_rows.CHECKS) holds on the row's one response, whatever reader, options and
    request form: nothing private shown to a reader it is not private to, what the reader is entitled to listed."""
    rules = tuple(r for m in request.node.iter_markers("rule") for r in m.args)
    resp = read_subtree_row(subtree_row, False)
    seen = _seen(subtree_row, resp, settled_thread, profile, user_ids)
    leaked = _broken(seen, tuple(r for r in rules if r in LEAK_RULES), True)
    if "COMMENT-2" in leaked:  # the list forgets privacy itself: the replies shown with it say nothing of rules 3, 5
        for reply_rule in ("COMMENT-3", "COMMENT-5"):
            leaked.pop(reply_rule, None)
    if leaked:  # what must not be shown is judged at once
        _fail(subtree_row, leaked, resp)
    if items_judged(subtree_row) and _broken(seen, rules, False):  # what must be listed may lag: read again
        resp = settle(api[subtree_row.reader], f"{subtree_row.label} (the privacy thread)",
                      lambda: read_subtree_row(subtree_row, True),
                      lambda r: not _broken(_seen(subtree_row, r, settled_thread, profile, user_ids), rules, False))
        seen = _seen(subtree_row, resp, settled_thread, profile, user_ids)
    broken = _one_cause(_broken(seen, rules, False))
    if items_judged(subtree_row) and "VERSION-PRIVATE-COMMENTS-2160" in rules:
        broken = _fields_absent(seen, broken)  # round48: both fields missing is the version's rule, as on a walk
    if broken:
        _fail(subtree_row, broken, resp)


def _one_cause(broken: dict[str, list[str]]) -> dict[str, list[str]]:
    """The rules a row's items break, each charged where its own sentence is the cause: VERSION-PRIVATE-COMMENTS-2160
    quotes the sentence COMMENT-VISIBILITY-RETURNED does ("Both visibility and recipients are returned when a comment
    is retrieved") and is judged by the same check, so it is charged only where that rule is not; a list that loses
    the settings of the comments themselves, or does not show an entitled reader its private comment (COMMENT-2),
    says nothing of rules 3 and 5 through the replies' settings (as with a leak: one fault, one rule where it can)."""
    if "COMMENT-VISIBILITY-RETURNED" in broken:
        broken.pop("VERSION-PRIVATE-COMMENTS-2160", None)
    if "COMMENT-VISIBILITY-RETURNED" in broken or "COMMENT-2" in broken:
        for reply_rule in ("COMMENT-3", "COMMENT-5"):
            broken.pop(reply_rule, None)
    return broken


def _fail(row: Row, broken: dict[str, list[str]], resp: ApiResponse) -> None:
    lines = "\n  ".join(f"{rule}: {'; '.join(p[:3])}" for rule, p in broken.items())
    fail(sorted(broken), f"{row.label} (answer of the privacy thread):\n  {lines}", resp)


# --- every page of a walk (fix1819, issue 44) -----------------------------------------------------------------------

WALK_SIZE = 2
"""The page size of the walk: the thread's comments spread over several pages, most of them past the first."""
WALK_PAGES = 12
WALK_READERS = ("member", "moderator", "admin", "novice")


def _walk(client: ApiClient, path: str) -> tuple[list[dict[str, Any]], ApiResponse] | None:
    """Every item of the comment list at :data:`WALK_SIZE` a page (the pages of one walk), and the last page read;
    None when totalCount moved during the walk in both tries (another test wrote to the answer)."""
    for _ in range(2):
        items: list[dict[str, Any]] = []
        totals: set[Any] = set()
        last: ApiResponse | None = None
        for page in range(1, WALK_PAGES + 1):
            last = client.get(path, params={"page": page, "pageSize": WALK_SIZE})
            got = last.json() if last.status == 200 else None
            body: dict[str, Any] = got if isinstance(got, dict) else {}
            listed = body.get("list")
            if not isinstance(listed, list):
                skip(SkipKind.OTHER, f"not checked: page {page} of {path} at pageSize {WALK_SIZE} answered "
                                     f"{last.status}, not a list envelope (the list's own tests judge that)")
            totals.add(body.get("totalCount"))
            items += [i for i in listed if isinstance(i, dict)]
            total = body.get("totalCount")
            if not listed or (isinstance(total, int) and len(items) >= total):
                break
        if len(totals) == 1 and last is not None:
            return items, last
    return None


@pytest.mark.rule(*sorted(CHECKS))
@pytest.mark.parametrize("reader", WALK_READERS)
def test_every_comment_rule_holds_on_every_page_of_a_walk(
    reader: str, settled_thread: Thread, profile: Profile, user_ids: dict[str, int], api: dict[str, ApiClient],
) -> None:
    """The rows above read the thread's list in one page; a server whose later pages are rendered apart (the 1.x
    serializer, without visibility and recipients: blind18, issue 44) passed them. Here each account walks the list
    two comments a page, and every comment rule is judged on the items of all its pages together, as on a row."""
    if reader not in api:
        skip(SkipKind.OTHER, f"not checked: the profile has no {reader} account")
    path = contract_path("listAnswerComments", answerId=settled_thread.answer_id)
    walked = _walk(api[reader], path)
    if walked is None:
        skip(SkipKind.OTHER, f"not checked: {path}'s totalCount moved while {reader} walked it, twice")
    items, last = walked
    row = Row(Combination("listAnswerComments", reader, ()), JSON_FORM)
    judges = Audience.of(profile, reader, user_ids.get(reader), settled_thread.private).judges
    seen = Seen(row, settled_thread, profile.visibility, user_ids, judges, {"list": items}, items)
    broken = _fields_absent(seen, _one_cause(_broken(seen, tuple(CHECKS), False)))
    if broken:
        lines = "\n  ".join(f"{rule}: {'; '.join(p[:3])}" for rule, p in broken.items())
        fail(sorted(broken), f"{reader} walking {path} at pageSize {WALK_SIZE} (every page together):\n  {lines}",
             last)


def _fields_absent(seen: Seen, broken: dict[str, list[str]]) -> dict[str, list[str]]:
    """Private comments listed without the two fields at all are VERSION-PRIVATE-COMMENTS-2160's ("Private comments
    (visibility and recipients) were introduced in version 2.16.0": the fields themselves missing is the version's
    rule); COMMENT-VISIBILITY-RETURNED keeps the comments listed with other settings than were set."""
    listed = seen.listed()
    absent = sorted(c for c, p in seen.thread.posted.items() if p.recipient is not None and c in listed
                    and "visibility" not in listed[c] and "recipients" not in listed[c])
    if not absent:
        return broken
    returned = broken.get("COMMENT-VISIBILITY-RETURNED", [])
    if all(any(f"private comment {c} " in problem for c in absent) for problem in returned):
        broken.pop("COMMENT-VISIBILITY-RETURNED", None)
    broken["VERSION-PRIVATE-COMMENTS-2160"] = [
        f"private comments {absent[:5]} are listed to {seen.reader} without visibility and recipients: a target at "
        "2.16.0 or later returns both when a comment is retrieved, on every page"]
    return broken
