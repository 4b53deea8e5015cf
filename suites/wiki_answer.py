"""wiki20 (issue 44 items 2 and 5): the node the drawn unwikifier's one-shot unwikify acts on, and the refused
attempts before it: the profile's wiki question (wiki_node_id), or, on the seeds that draw "an answer"
(qaconform.pytest.seed_draws ``WIKI_NODE_KINDS``), a community-wiki answer found by reads; round59 (issue 44): on
the seeds that draw "an accepted question", a community-wiki question holding an accepted answer found by reads
(:func:`find_accepted_wiki_question`: a wiki node in another state, which no accepted unwikify of the run met).

Why: every accepted unwikify of the run was of a wiki question (wiki_node_id, member_wiki_node_id), so a server whose
answers are unwikified on another code path (the answer service's record key, its flag never cleared) was never met
(round51-cancelwiki-answer-stays-wiki, round54-cancelwiki-answer-wikiaction-key, round55-cancelwiki-answer-wrapper-key).
The same one accepted write either way: on the answer seeds wiki_node_id is not acted on at all.

Which answer: the interface makes no wiki node, so it is one the accounts' sites hold: the first ``wiki: true``
answer in the answer lists of the two accounts holding Mark as community wiki (moderator's, then admin's; bounded
reads: the first page and the last ``END_PAGES``), that no run wrote (no run tag in its body) and that is under a
question none of the profile's accounts wrote (their question lists, bounded): the found-relations walk
(suites/contract/found_relations.py) acts only under the accounts' questions, so its refused unwikify cells never meet
the answer this run unwikifies. Never a profile fixture or pool. A target without one (none listed, or every one
unwikified by earlier runs: each run consumes one, as the fixtures' one-shots are) keeps the question: the run
unwikifies wiki_node_id as on the other seeds and judges it as before, at the same cost; nothing is blamed on the
server for the missing answer (the answer path is simply not taken on that target). The answer is found ONCE per
run and target (every xdist worker reads the one choice).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

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
ANSWER = "wiki answer"
"""The name the found answer goes by in the refusals' and the unwikify's keys and messages."""
ACCEPTED = "accepted wiki question"
"""round59 (issue 44): the name the found accepted wiki question goes by (:func:`find_accepted_wiki_question`)."""
FOUND = (ANSWER, ACCEPTED)
"""The names of a node found by this run's reads (no fixture of the profile's: no doctor state, no ledger entry)."""


@dataclass(frozen=True)
class WikiTarget:
    """The node the unwikify acts on: ``name`` (``wiki_node_id`` or :data:`ANSWER`), its id, its kind, and the
    answer's author (None for the profile's question: the unwikify's record says who wikified it)."""

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


def _taken(profile: Profile) -> set[int]:
    f = profile.fixtures
    ids = {f.question_id, f.member_wiki_node_id, f.wiki_node_id, f.favorite_node_id, f.locked_question_id}
    ids |= {n for pool in profile.pools.values() for n in pool}
    return {i for i in ids if i is not None}


def drawn_kind(request: pytest.FixtureRequest) -> str:
    """The run's ``WIKI_NODE_KINDS`` entry (a question when no seed is set)."""
    seed = request.config.stash[STATE].seed if STATE in request.config.stash else 0
    return wiki_node_kind_for_seed(seed)


FOUND_NODES_WRITTEN = False
"""Off (the lead, eighteenth session): a found wiki node is the site's own content, and a run writes only under the
profile's fixtures and what it created (tests/hostile/test_safety.py failed on the unwikify of a found answer). The
draw stays; every kind acts on wiki_node_id until a profile can name such a node as a fixture."""


def wiki_target(request: pytest.FixtureRequest, question: int) -> WikiTarget:
    """The node this run's unwikify of another's wiki node acts on: ``question`` (wiki_node_id's node this run
    takes) unless the seed draws an answer (:func:`find_wiki_answer`) or an accepted question
    (:func:`find_accepted_wiki_question`, round59) and the reads find one (once per run and target)."""
    kind = drawn_kind(request)
    if kind == "a question" or not FOUND_NODES_WRITTEN:
        return WikiTarget("wiki_node_id", question, "question")
    profile: Profile = request.getfixturevalue("profile")
    api: dict[str, ApiClient] = request.getfixturevalue("api")
    user_ids: dict[str, int] = request.getfixturevalue("user_ids")
    finder = find_wiki_answer if kind == "an answer" else find_accepted_wiki_question

    def find() -> dict[str, Any]:
        got = finder(api["admin"], user_ids, _taken(profile))
        return {"node": got[0], "author": got[1]} if got is not None else {}

    # once per session too: without xdist workers once_per_run shares nothing and would look again, after the
    # unwikify, and find no wiki node left (a serial run's tests then read back wiki_node_id instead)
    memo: dict[str, dict[str, Any]] = request.config.__dict__.setdefault("_qaconform_wiki_found", {})
    key = f"{profile.base_url} {kind}"
    if key not in memo:
        memo[key] = once_per_run(request, profile.base_url, f"wiki20 {kind}", find)
    found = memo[key]
    if not found:
        return WikiTarget("wiki_node_id", question, "question")  # none listed: the question, as before
    if kind == "an answer":
        return WikiTarget(ANSWER, int(found["node"]), "answer", int(found["author"]))
    return WikiTarget(ACCEPTED, int(found["node"]), "question", int(found["author"]))
