"""Fixtures of the contract suite: the paths the lists are called on, cached reads, a small list of its own.

Reads that several tests only look at are cached per (account, path, parameters) to keep the suite within its time
budget; tests that need a fresh answer from the target call the client directly. The list table is listops.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from listops import LIST_OPS, Fetch, RunOnce, items_of
from privacy_thread import Thread, thread_of
from privacy_thread import write as write_thread

from qaconform.contract import path as contract_path
from qaconform.pytest.exchange_log import judged_again
from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.pytest.shared_reads import Key, RunReads, once, run_folder
from qaconform.pytest.support import (
    answer_posted,
    expect_created,
    list_all,
    once_per_run,
    post_answer,
    post_comment,
)
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile


class _Reads:
    """The contract suites' cached GETs: :meth:`process` is ``fetch`` (this process's cache); :meth:`run` is
    ``run_fetch`` (that cache, then the run's: :mod:`qaconform.pytest.shared_reads`); :meth:`published` is
    ``published_fetch`` (``fetch``, its new reads written for the others)."""

    def __init__(self, api: dict[str, ApiClient], runs: RunReads) -> None:
        self.api = api
        self.cache: dict[Key, ApiResponse] = {}
        """What this process read."""
        self.taken: dict[Key, ApiResponse] = {}
        """What other workers read, as ``run`` took it."""
        self.runs = runs

    def process(self, role: str, path: str, **params: Any) -> ApiResponse:
        key = _key(role, path, params)
        if key not in self.cache:
            self.cache[key] = self.api[role].get(path, params=params or None)
        else:
            judged_again(self.cache[key].exchange)  # the test's HAR cassette holds the answer it judged
        return self.cache[key]

    def run(self, role: str, path: str, **params: Any) -> ApiResponse:
        return self._shared(role, path, params, take=True)

    def published(self, role: str, path: str, **params: Any) -> ApiResponse:
        return self._shared(role, path, params, take=False)

    def _shared(self, role: str, path: str, params: dict[str, Any], take: bool) -> ApiResponse:
        key = _key(role, path, params)
        kept = self.cache[key] if key in self.cache else self.taken[key] if take and key in self.taken else None
        if kept is not None:
            judged_again(kept.exchange)
            return kept
        resp, theirs = self.runs.get(key, lambda: self.api[role].get(path, params=params or None), take=take)
        if theirs:
            judged_again(resp.exchange)  # sent by another worker: logged again under the test that judges it
            self.taken[key] = resp
        else:
            self.cache[key] = resp
        return resp


def _key(role: str, path: str, params: dict[str, Any]) -> Key:
    return (role, path.lstrip("/"), tuple(sorted((k, str(v)) for k, v in params.items())))


@pytest.fixture(scope="session")
def _reads(api: dict[str, ApiClient], request: pytest.FixtureRequest) -> _Reads:
    return _Reads(api, RunReads(run_folder(request.config)))


@pytest.fixture(scope="session")
def fetch(_reads: _Reads) -> Fetch:
    """``fetch(role, path, **params)``: a GET whose response is cached for the session (read-only tests share it)."""
    return _reads.process


@pytest.fixture(scope="session")
def run_fetch(_reads: _Reads) -> Fetch:
    """``run_fetch(role, path, **params)``: as ``fetch``, and shared by every worker of the run: sent once per run,
    by whichever worker asks first (qaconform/pytest/shared_reads.py). For the crossing suites, whose rows judge one
    response whenever it was read; a module takes it by overriding ``fetch`` with it."""
    return _reads.run


@pytest.fixture(scope="session")
def process_fetch(_reads: _Reads) -> Fetch:
    """``fetch`` of this process only, for a test of a module whose ``fetch`` is ``run_fetch`` that compares a
    response with reads it makes itself (test_envelope_and_paging.py's union of pages)."""
    return _reads.process


@pytest.fixture(scope="session")
def published_fetch(_reads: _Reads) -> Fetch:
    """``published_fetch(role, path, **params)``: ``fetch``, whose new reads are written for the other workers'
    ``run_fetch`` (never taking theirs): for a suite that compares responses it read close together."""
    return _reads.published


@pytest.fixture(scope="session")
def run_once(request: pytest.FixtureRequest) -> RunOnce:
    """``run_once(key, make)``: ``make()``'s JSON value, made by the first worker of the run that asks
    (qaconform/pytest/shared_reads.py ``once``): what the crossing suites learn with reads apart from their rows,
    read once per run although their lists run on several workers."""
    folder = run_folder(request.config)
    return lambda key, make: once(folder, key, make)


@pytest.fixture(scope="session")
def read_only(request: pytest.FixtureRequest) -> bool:
    """True under --read-only: the suite then lists what the target already has and creates nothing."""
    return bool(request.config.getoption("qc_read_only"))


@pytest.fixture(scope="session")
def _answer_threads(
    api: dict[str, ApiClient], question_id: int, run_tag: str, created: Any, request: pytest.FixtureRequest,
    profile: Profile, user_ids: dict[str, int]
) -> dict[str, Any]:
    """member's answer, its three public comments and (from 2.16.0) the privacy thread under it, written once per run
    (:func:`qaconform.pytest.support.once_per_run`: every worker reads the same answer). One answer serves
    ``commented_answer`` and ``privacy_thread`` (trade11, issue 44): both are read only, and every reader of either
    judges each caller's list on its own, so the other's comments are items like any other (docs/write-audit.md)."""
    return dict(once_per_run(request, profile.base_url, "commented_answer",
                             lambda: _commented_answer(api, question_id, run_tag, created, profile, user_ids)))


@pytest.fixture(scope="session")
def commented_answer(read_only: bool, api: dict[str, ApiClient],
                     request: pytest.FixtureRequest) -> tuple[int, list[int]]:
    """An answer by member with three full-visibility comments, written only by this suite: a small stable list (the
    privacy thread's comments beside them, each caller's share of them the same on every read).

    Under --read-only nothing is written: the first answer of a listed question stands in, with no comment ids.
    """
    if read_only:
        return _existing_answer(api["admin"]), []
    made = request.getfixturevalue("_answer_threads")
    return int(made["answer"]), [int(i) for i in made["comments"]]


def _commented_answer(api: dict[str, ApiClient], question_id: int, run_tag: str, created: Any, profile: Profile,
                      user_ids: dict[str, int]) -> dict[str, Any]:
    """Once per run: the answer, its three public comments, then the privacy thread under the same answer."""
    member = api["member"]
    resp = post_answer(member, question_id, run_tag, created, text="contract suite: answer with three comments")
    answer_id = answer_posted(resp)
    comment_ids = []
    for n in range(3):
        c = post_comment(member, answer_id, run_tag, created, text=f"contract suite comment {n}")
        comment_ids.append(expect_created(c, "SHAPE-POST-COMMENT",
                                          f"member could not comment on its own answer {answer_id}"))
    thread = write_thread(api, answer_id, run_tag, created, profile, user_ids) if profile.supports("2.16.0") else None
    # the tests below take this list as stable: wait (within the settle window) until a list that lags writes
    # shows every public comment, so that none of them turns up while a test walks its pages
    wanted = {str(i) for i in comment_ids} | {c for c, p in (thread or {}).get("comments", {}).items() if p[1] is None}
    list_all(member, contract_path("listAnswerComments", answerId=answer_id),
             until=lambda items: wanted <= {str(i.get("id")) for i in items})
    return {"answer": answer_id, "comments": comment_ids, "thread": thread}


def _existing_answer(admin: ApiClient) -> int:
    resp = admin.get(contract_path("listQuestions"), params={"pageSize": 50})
    for q in items_of(resp, "admin lists questions"):
        answers = q.get("answers") if isinstance(q, dict) else None
        if isinstance(answers, list) and answers and str(answers[0]).isdecimal():
            return int(answers[0])
    skip(SkipKind.SAFETY,
         "--read-only: no question on page 1 of the question list has an answer whose comments could be listed")


@pytest.fixture(scope="session")
def filled_by_suite(read_only: bool) -> frozenset[str]:
    """List operations that hold items because the suite wrote them (member's answers, its answer's comments)."""
    return frozenset() if read_only else frozenset({"listUserAnswers", "listAnswerComments"})


@pytest.fixture(scope="session")
def question_author_id(api: dict[str, ApiClient], question_id: int) -> int:
    """A user who has questions: the author of the fixture question if page 1 shows it, else of the first question."""
    resp = api["admin"].get(contract_path("listQuestions"), params={"pageSize": 50})
    items = [i for i in items_of(resp, "admin lists questions") if isinstance(i, dict)]
    assert items, f"the question list is empty although the profile names question {question_id}\n{resp.describe()}"
    chosen = next((i for i in items if str(i.get("id")) == str(question_id)), items[0])
    author = chosen.get("author")
    assert isinstance(author, dict) and isinstance(author.get("id"), int), (
        f"question {chosen.get('id')} has no author.id (Node.author is an object with an integer id)\n{resp.describe()}"
    )
    return int(author["id"])


@pytest.fixture(scope="session")
def list_paths(
    profile: Profile, user_ids: dict[str, int], question_author_id: int, commented_answer: tuple[int, list[int]]
) -> dict[str, str]:
    """operationId -> the path the suite lists, with ids the profile guarantees (or the suite created)."""
    member_id = user_ids.get("member")
    assert member_id is not None, (
        "member's user id is unknown: add id = ... under [accounts.member] in the profile (it was not found in the "
        "expert lists either)"
    )
    ids: dict[str, dict[str, Any]] = {
        "listUserAnswers": {"userId": member_id},
        "listUserQuestions": {"userId": question_author_id},
        "listNodeFollowers": {"nodeId": profile.fixtures.question_id},
        "listAnswerComments": {"answerId": commented_answer[0]},
    }
    return {op: contract_path(op, **ids.get(op, {})) for op in LIST_OPS}


@pytest.fixture(scope="session")
def matrix_paths(api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int],
                 run_once: RunOnce) -> dict[str, str]:
    """operationId -> the path the matrices read (test_matrix.py, test_list_responses.py), from the profile and reads
    only (they write nothing); found once per run, whichever worker runs one of their lists first."""
    return dict(run_once("matrix_paths", lambda: _matrix_paths(api, profile, user_ids)))


def _matrix_paths(api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int]) -> dict[str, str]:
    question = profile.fixtures.question_id
    questions = list_all(api["admin"], contract_path("listQuestions"), page_size=50, max_pages=2)
    chosen = next((q for q in questions if str(q.get("id")) == str(question)), questions[0] if questions else {})
    author = chosen.get("author") if isinstance(chosen, dict) else None
    answers = [a for q in [chosen, *questions] for a in (q.get("answers") or []) if str(a).isdecimal()]
    ids: dict[str, dict[str, Any]] = {
        "listUserAnswers": {"userId": user_ids.get("member")},
        "listUserQuestions": {"userId": author.get("id") if isinstance(author, dict) else user_ids.get("member")},
        "listNodeFollowers": {"nodeId": question},
        "listAnswerComments": {"answerId": answers[0] if answers else None},
    }
    return {op: contract_path(op, **ids.get(op, {})) for op in LIST_OPS
            if op not in ids or all(v is not None for v in ids[op].values())}


@pytest.fixture(scope="session")
def privacy_thread(profile: Profile, read_only: bool, commented_answer: tuple[int, list[int]],
                   request: pytest.FixtureRequest) -> Thread:
    """Under --read-only (or a target before 2.16.0) the contract suite's answer, whose comments are judged by the
    fields they show; else the comments of privacy_thread.THREAD under that same answer, one for every worker of the
    run (the lists whose relations read it may be on different workers: ``_answer_threads``)."""
    if read_only or not profile.supports("2.16.0"):
        return Thread(commented_answer[0], {})
    return thread_of(request.getfixturevalue("_answer_threads")["thread"])
