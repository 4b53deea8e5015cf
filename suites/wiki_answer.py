"""wiki20 (issue 44 items 2 and 5), wiki21: the node the drawn unwikifier's one-shot unwikify acts on, and the refused
attempts before it: the profile's wiki question (wiki_node_id), or, on the seeds that draw "an answer"
(qaconform.pytest.seed_draws ``WIKI_NODE_KINDS``), the profile's community-wiki answer (wiki_answer_id); round59
(issue 44): on the seeds that draw "an accepted question", the profile's community-wiki question holding an accepted
answer (accepted_wiki_question_id).

Why: every accepted unwikify of the run was of a wiki question (wiki_node_id, member_wiki_node_id), so a server whose
answers are unwikified on another code path (the answer service's record key, its flag never cleared) was never met
(round51-cancelwiki-answer-stays-wiki, round54-cancelwiki-answer-wikiaction-key, round55-cancelwiki-answer-wrapper-key).
The same one accepted write either way: on those seeds wiki_node_id is not acted on at all.

Which node: wiki20 found one by reads (the first wiki answer of moderator's or admin's under a question no account
wrote: :func:`find_wiki_answer`; :func:`find_accepted_wiki_question`); the lead withdrew that at the end of the
eighteenth session (a found node is the site's own content: a run writes only under the profile's fixtures and what
it created, tests/hostile/test_safety.py). wiki21 brings the paths back through the profile: two optional one-shot
fixtures (qaconform/target/profile_fixtures.py), checked by the doctor as the other wiki fixtures are (in its state,
pools, the record beside the profile), of their kind as the lists show them (:func:`kind_problem`: else the tests
skip, saying so). A profile without one keeps the question on those seeds: the run unwikifies wiki_node_id as on the
others, at the same cost, and the doctor's note says why; nothing is blamed on the server. The finders stay as
``qaconform init``'s way to propose such a node one day (read only).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.pytest.properties.plugin import STATE
from qaconform.pytest.seed_draws import wiki_node_kind_for_seed
from qaconform.pytest.support import once_per_run
from qaconform.target.client import ApiClient, TargetError
from qaconform.target.created_id import as_id
from qaconform.target.fixture_state import END_PAGES
from qaconform.target.profile import Profile

UNWIKIFIER_ACCOUNTS = ("moderator", "admin")
"""The accounts whose answer lists are read for a wiki answer: the two that hold Mark as community wiki."""
RUN_TAG_MARK = "[qc-"
"""What a body the kit wrote carries (found_relations.RUN_TAG_MARK): such a node is some run's."""
PAGE_SIZE = 100


@dataclass(frozen=True)
class WikiTarget:
    """The node the unwikify acts on: ``name`` (the profile's fixture: ``wiki_node_id`` or one of :data:`FIXTURES`),
    its id, its kind, and its author where a list showed it (None for wiki_node_id's question: the unwikify's record
    says who wikified it)."""

    name: str
    node: int
    kind: str
    author: int | None = None


def _pages(client: ApiClient, api_path: str) -> list[dict[str, Any]]:
    """The items of the first page of a list and of its last ``END_PAGES`` pages (bounded reads)."""
    items: list[dict[str, Any]] = []
    pages = [1]
    while pages:
        page = pages.pop(0)
        try:
            resp = client.get(api_path, params={"page": page, "pageSize": PAGE_SIZE})
            body = resp.json() if resp.status == 200 else None
        except (TargetError, ValueError):
            return items
        if not isinstance(body, dict) or not isinstance(body.get("list"), list):
            return items
        items += [i for i in body["list"] if isinstance(i, dict)]
        count = body.get("pageCount")
        if page == 1 and isinstance(count, int) and not isinstance(count, bool):
            pages = list(range(count, max(1, count - END_PAGES), -1))
    return items


def _candidates(admin: ApiClient, user_ids: dict[str, int], taken: set[int]) -> list[tuple[int, int, int]]:
    """(answer, its question, its author) of every wiki answer the unwikifier accounts' lists show, not a run's."""
    found = []
    for role in UNWIKIFIER_ACCOUNTS:
        uid = user_ids.get(role)
        if uid is None:
            continue
        for a in _pages(admin, f"user/{uid}/answer.json"):
            aid, question = as_id(a.get("id")), as_id(a.get("originalParentId", a.get("parentId")))
            body = str(a.get("body") or "") + str(a.get("bodyAsHTML") or "")
            if (a.get("wiki") is True and aid is not None and question is not None and RUN_TAG_MARK not in body
                    and aid not in taken and question not in taken and (a.get("author") or {}).get("id") == uid):
                found.append((aid, question, uid))
    return found


def find_wiki_answer(admin: ApiClient, user_ids: dict[str, int], taken: set[int]) -> tuple[int, int] | None:
    """(answer, author) of the first wiki answer :func:`_candidates` finds under a question no account wrote."""
    found = _candidates(admin, user_ids, taken)
    if not found:
        return None
    asked: set[int] = set()
    for uid in sorted(set(user_ids.values())):
        asked |= {i for q in _pages(admin, f"user/{uid}/question.json") if (i := as_id(q.get("id"))) is not None}
    return next(((aid, author) for aid, question, author in found if question not in asked), None)


def find_accepted_wiki_question(admin: ApiClient, user_ids: dict[str, int], taken: set[int]) -> tuple[int, int] | None:
    """round59 (issue 44): (question, author) of the first community-wiki question holding an accepted answer (marked
    true, or accepted in nodeStates) that the question list shows (bounded reads), not closed, not a run's, not the
    profile's, and written by none of the profile's accounts: the found-relations walk acts only on their nodes, so
    none of its refused calls meets the question this run unwikifies."""
    accounts = set(user_ids.values())
    for q in _pages(admin, "question.json"):
        qid, author = as_id(q.get("id")), as_id((q.get("author") or {}).get("id"))
        raw_states = q.get("nodeStates")
        states: list[Any] = raw_states if isinstance(raw_states, list) else []
        body = str(q.get("body") or "") + str(q.get("bodyAsHTML") or "")
        if (q.get("wiki") is True and (q.get("marked") is True or "accepted" in states) and "closed" not in states
                and qid is not None and author is not None and qid not in taken and author not in accounts
                and RUN_TAG_MARK not in body):
            return qid, author
    return None


def drawn_kind(request: pytest.FixtureRequest) -> str:
    """The run's ``WIKI_NODE_KINDS`` entry (a question when no seed is set)."""
    seed = request.config.stash[STATE].seed if STATE in request.config.stash else 0
    return wiki_node_kind_for_seed(seed)


FIXTURES = {"an answer": "wiki_answer_id", "an accepted question": "accepted_wiki_question_id"}
"""wiki21: the profile's fixture each drawn kind acts on (qaconform.target.profile_fixtures). A found node is the site's
own content, and a run writes only under the profile's fixtures and what it created (tests/hostile/test_safety.py
failed on the unwikify of a found answer, eighteenth session): the finders above are no longer a run's, the profile
names the node."""


def _locate(admin: ApiClient, user_ids: dict[str, int], node: int, kind: str) -> tuple[str, int | None, dict[str, Any]]:
    """Where bounded reads show ``node`` (the first page and the last ``END_PAGES`` of each list): ("answer",
    author, item) in an account's answer list, ("question", author, item) in the question list or an account's
    question list, the drawn kind's lists first; ("", None, {}) when none shows it."""
    uids = sorted(set(user_ids.values()))
    answers = [("answer", f"user/{uid}/answer.json") for uid in uids]
    questions = [("question", "question.json")] + [("question", f"user/{uid}/question.json") for uid in uids]
    for shown_as, api_path in (answers + questions if kind == "an answer" else questions + answers):
        for item in _pages(admin, api_path):
            if as_id(item.get("id")) == node:
                return shown_as, as_id((item.get("author") or {}).get("id")), item
    return "", None, {}


def kind_problem(kind: str, shown_as: str, item: dict[str, Any]) -> str:
    """Why the fixture of ``kind`` is not a node of that kind as the lists show it ('' when it is, or unshown)."""
    if kind == "an answer" and shown_as == "question":
        return "a question list shows it: it is a question, not an answer"
    if kind == "an accepted question" and shown_as == "answer":
        return "an answer list shows it: it is an answer, not a question"
    raw = item.get("nodeStates")
    if kind == "an accepted question" and shown_as and not (
            item.get("marked") is True or (isinstance(raw, list) and "accepted" in raw)):
        return "the question list shows it neither marked nor accepted: it holds no accepted answer"
    return ""


def wiki_target(request: pytest.FixtureRequest, question: Callable[[], int]) -> WikiTarget:
    """The node this run's unwikify of another's wiki node acts on: wiki_node_id's node (``question()``, a skip when
    the run has none) unless the seed draws "an answer" or "an accepted question" and the profile names a fixture of
    that kind (:data:`FIXTURES`, wiki21): then that node, in its state as the doctor found it (else its tests skip,
    as every one-shot's do), and of that kind as the lists show it (else its tests skip, saying so: the profile's
    word, never the server's failure). A profile without it keeps the question, as the doctor's note says."""
    kind = drawn_kind(request)
    name = FIXTURES.get(kind)
    profile: Profile = request.getfixturevalue("profile")
    if name is None or (getattr(profile.fixtures, name, None) is None
                         and name not in request.getfixturevalue("qc_target").diagnosis.unusable):
        return WikiTarget("wiki_node_id", question(), "question")
    node = int(request.getfixturevalue("usable_fixture")(name))
    api: dict[str, ApiClient] = request.getfixturevalue("api")
    user_ids: dict[str, int] = request.getfixturevalue("user_ids")

    def find() -> dict[str, Any]:
        shown_as, author, item = _locate(api["admin"], user_ids, node, kind)
        return {"author": author, "problem": kind_problem(kind, shown_as, item)}

    # once per session too: without xdist workers once_per_run shares nothing and would read again after the
    # unwikify, where a server may list the node otherwise (a serial run's tests must all read one answer)
    memo: dict[str, dict[str, Any]] = request.config.__dict__.setdefault("_qaconform_wiki_found", {})
    key = f"{profile.base_url} {name} {node}"
    if key not in memo:
        memo[key] = once_per_run(request, profile.base_url, f"wiki21 {name} {node}", find)
    found = memo[key]
    if found["problem"]:
        skip(SkipKind.FIXTURE_STATE, f"not checked: fixture {name} node {node} is not {kind} ({found['problem']}); "
             f"name {kind} under [fixtures] {name}")
    author = found["author"]
    return WikiTarget(name, node, "answer" if kind == "an answer" else "question",
                      int(author) if author is not None else None)
