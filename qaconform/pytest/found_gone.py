"""A 404 of a node the run only found, which another run deleted meanwhile: not the server's failure (overlap26).

The suites read nodes they did not create and the profile does not name: the profile question's first answer (the
list matrices' comment list), the answers the list-access and node-kind walks take from the question list, the
questions and answers the found-relations walk meets. On a shared target such a node may be another run's: two CI
builds at once, each with ``[cleanup]`` (docs/ci.md, "Builds that overlap"), and the other build's cleanup deletes
it while this build reads it. Its 404 then failed VERSION-PATH ("answers 404 at its path"): build 6 of 6 exited 1
for what the other build did (user26). A suite cannot know, at the line that judges, whether the node it reads was
found or made; so this is judged once, here, for every test: the plugin (:func:`pytest_runtest_call`, and the setup
of the fixtures that read) looks at a :class:`~qaconform.pytest.outcomes.RuleFailure` whose proof is a GET answered
404 at the path of one node's list (an answer's comments, a node's followers: :data:`NODE_READS`). When that node is
neither one this run created (the run folder's created log, every worker's) nor one of the profile's fixtures or
pools, the kit reads once whether it is still there (:func:`listed`): in admin's question list (its first
:data:`PAGES` pages of 50) as a question, among a question's ``answers``, ``childrenIds`` or ``commentIds``, else
read by admin as each of :data:`NODE_READS` (a 200 from either: still there). A node no longer listed is gone, and
the test is skipped "not checked" with that reason; a node still listed keeps the failure, so a server that answers
404 for a live node still fails (tests/test_found_gone.py plays both, and the race: deleted between the list and the
read).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterable
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from qaconform.contract import load_contract
from qaconform.contract import path as contract_path
from qaconform.pytest.outcomes import RuleFailure, SkipKind, skip
from qaconform.pytest.run_state import _in_suites, state
from qaconform.target.client import ApiClient, TargetError
from qaconform.target.created_log import read
from qaconform.target.profile import Profile

PAGES = 2
"""Pages of admin's question list (50 a page) read to confirm a node is gone: those the finders read nodes from
(suites/contract/conftest.py ``_matrix_paths``: two pages of 50)."""

NODE_READS = ("listAnswerComments", "listNodeFollowers")
"""The reads of one node's list: an answer's comments (operation 18), a node's followers (16)."""

_NODE_ID = re.compile(r"/(\d+)/[^/]+$")
"""The node's id in such a path: the segment before the last."""


def found_node(failure: BaseException, own: Callable[[], Iterable[str]]) -> int | None:
    """The node a failure's proof is a 404 of, when the run only found it: a :class:`RuleFailure` whose exchange is
    a GET answered 404 at one node's list (:data:`NODE_READS`), the node not among ``own()`` (what the run created
    and the profile's fixtures, as text); None for every other failure (asked only then)."""
    exchange = getattr(failure, "exchange", None) if isinstance(failure, RuleFailure) else None
    if exchange is None or exchange.status != 404 or exchange.method.upper() != "GET":
        return None
    if load_contract().operation_at("GET", exchange.url) not in NODE_READS:
        return None
    matched = _NODE_ID.search(urlsplit(exchange.url).path)
    if matched is None or matched.group(1) in set(own()):
        return None
    return int(matched.group(1))


def listed(admin: ApiClient, node: int) -> bool:
    """Whether ``node`` is still on the target: admin's question list shows it (:data:`PAGES` pages of 50) as a
    question, or an id in a question's ``answers``, ``childrenIds`` or ``commentIds``; else admin reads it by
    each of :data:`NODE_READS` (the one that failed again, and the other: a node past the pages read, or a comment
    under an answer, is still there when either answers 200). A list that cannot be read says yes (the failure
    stands: the kit never excuses what it could not confirm)."""
    if _in_question_list(admin, node):
        return True
    for op, key in (("listNodeFollowers", "nodeId"), ("listAnswerComments", "answerId")):
        try:
            resp = admin.get(contract_path(op, **{key: node}), params={"pageSize": 1}, operation=op)
        except TargetError:
            return True
        if resp.status == 200:
            return True
    return False


def _in_question_list(admin: ApiClient, node: int) -> bool:
    """:func:`listed`'s first read: admin's question list, :data:`PAGES` pages of 50."""
    for page in range(1, PAGES + 1):
        try:
            resp = admin.get(contract_path("listQuestions"), params={"page": page, "pageSize": 50},
                             operation="listQuestions")
            body = resp.json() if resp.status == 200 else None
        except TargetError:
            return True
        items = body.get("list") if isinstance(body, dict) else None
        if not isinstance(items, list):
            return True
        for q in items:
            if not isinstance(q, dict):
                continue
            ids = [q.get("id"), *[i for k in ("answers", "childrenIds", "commentIds") for i in q.get(k) or ()]]
            if any(str(i) == str(node) for i in ids):
                return True
        if len(items) < 50:
            break
    return False


def own_ids(profile: Profile, created: Iterable[str], log: Path | None) -> set[str]:
    """What a 404 is never excused for: the profile's fixtures and pools, what this process saw created
    (``created``), and what the run folder's created log holds (``log``: every worker's)."""
    out = {str(v) for v in profile.fixtures.model_dump().values() if isinstance(v, int) and not isinstance(v, bool)}
    out |= {str(n) for pool in profile.pools.values() for n in pool}
    out |= {str(c) for c in created}
    if log is not None:
        out |= {str(i.get("id")) for i in read(log)}
    return out


def unless_gone(failure: BaseException, admin: ApiClient | None, own: Callable[[], Iterable[str]],
                verdicts: dict[int, bool]) -> None:
    """Skip the test when ``failure`` is a 404 of a found node (:func:`found_node`) that is no longer listed
    (:func:`listed`, asked once per node and process: ``verdicts``); return otherwise (the failure stands)."""
    node = found_node(failure, own) if admin is not None else None
    if node is None or admin is None:
        return
    if node not in verdicts:
        verdicts[node] = listed(admin, node)
    if verdicts[node]:
        return
    rules = ", ".join(getattr(failure, "rules", ()))
    skip(SkipKind.OTHER, "not checked: the node it reads, found on the target (not created by this run nor a "
         "fixture), is no longer listed under any question (removed while the run read it: another run's cleanup?), "
         "so its 404 says nothing of the server", detail=f"node {node}; the 404 would have failed {rules}")


_VERDICTS = pytest.StashKey[dict[int, bool]]()


def _judge(item: pytest.Item, failure: BaseException) -> None:
    """:func:`unless_gone` for a suite test's failure (the kit's own tests are left as they are)."""
    run = state(item.config)
    target = run.holder.target
    if target is None or not _in_suites(item) or not isinstance(failure, RuleFailure):
        return
    verdicts = item.config.stash.setdefault(_VERDICTS, {})
    unless_gone(failure, target.clients.get("admin"),
                lambda: own_ids(target.profile, run.created_ids, target.recorder.created_log), verdicts)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    """A fixture's failure (one that reads a found node) is judged as the test's."""
    try:
        return (yield)
    except RuleFailure as failure:
        _judge(item, failure)
        raise


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """The test body's failure: a 404 of a found node that is gone is skipped (:func:`unless_gone`)."""
    try:
        return (yield)
    except RuleFailure as failure:
        _judge(item, failure)
        raise
