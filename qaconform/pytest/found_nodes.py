"""Questions found on the target with reads, for the relations the run cannot write (issue 44).

The interface creates no question, so a question one of the profile's accounts wrote can only be found among what
the target lists. The finder reads a bounded number of pages and skips the profile's fixtures and pools, so a found
node is never one another test changes. Only questions the profile's own accounts wrote are ever found: the kit
writes only under the profile's fixtures, its accounts' questions and what the run created, so a question nobody of
the profile wrote is never the target of a call, not even one the permission table refuses (a server that wrongly
takes it would change a stranger's post).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.pytest.support import answer_form, once_per_run
from qaconform.target.client import ApiClient, ApiResponse, TargetError
from qaconform.target.profile import Profile

QUESTION_PAGES = 3
"""Pages of an account's question list read (20 a page) to find a question to act under (bounded)."""


def _read(resp: ApiResponse) -> Any:
    """A finder's read: the 200's JSON, else None. A body that is not JSON finds nothing (the reads' own rules judge
    it elsewhere): a finder never fails the tests that only use what it finds (spaces-not-json once turned 14 rules
    red through admin's shared answer)."""
    if resp.status != 200:
        return None
    try:
        return resp.json()
    except TargetError:
        return None


def question_of(role: str, api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int],
                spaces: frozenset[int] | None = None, followed_by: str | None = None) -> int | None:
    """A question ``role`` wrote that novice lists (so every signed-in account reads it), not wiki, not closed and no
    fixture of the profile (in one of ``spaces`` when given: its primaryContainerId): found with reads, since the
    interface cannot create a question. ``followed_by``: the first such question that account follows
    (:func:`followed`) where one is among the first :data:`FOLLOWED_CANDIDATES`, else the first. None when there is
    none."""
    uid = user_ids.get(role)
    if uid is None:
        return None
    fixtures = profile.fixtures
    taken = {fixtures.question_id, fixtures.member_wiki_node_id, fixtures.wiki_node_id, fixtures.favorite_node_id,
             fixtures.locked_question_id}
    taken |= {getattr(fixtures, n, None) for n in ("wiki_answer_id", "accepted_wiki_question_id")}  # wiki21
    taken |= {n for pool in profile.pools.values() for n in pool}
    found: list[int] = []
    for page in range(1, QUESTION_PAGES + 1):
        resp = api["novice"].get(f"user/{uid}/question.json", params={"page": page, "pageSize": 20},
                                 operation="listUserQuestions")
        body = _read(resp)
        items = body.get("list") if isinstance(body, dict) else None
        if not isinstance(items, list) or not items:
            break
        found += [int(q["id"]) for q in items
                  if (isinstance(q, dict) and isinstance(q.get("id"), int) and q["id"] not in taken
                      and q.get("wiki") is not True and "closed" not in (q.get("nodeStates") or ())
                      and (q.get("author") or {}).get("id", uid) == uid
                      and (spaces is None or q.get("primaryContainerId") in spaces))]
        if found and followed_by is None:
            break
    follower = user_ids.get(followed_by) if followed_by else None
    if follower is not None:
        for question in found[:FOLLOWED_CANDIDATES]:
            if followed(api, question, follower):
                return question
    return found[0] if found else None


FOLLOWED_CANDIDATES = 5
"""How many found questions are read for their followers (one read each, bounded)."""


def followed(api: dict[str, ApiClient], node: int, user_id: int) -> bool:
    """Whether ``user_id`` is among the node's active followers (its first page of 100, read as novice: "When
    details is false only follower information is returned", default-mode items are User items)."""
    body = _read(api["novice"].get(f"node/{node}/followers.json", params={"pageSize": 100},
                                   operation="listNodeFollowers"))
    items = body.get("list") if isinstance(body, dict) else None
    return any(isinstance(i, dict) and i.get("id") == user_id for i in items or ())


CHILD_SPACE_WRITERS = ("member", "admin", "moderator", "novice")
"""Whose questions are searched for one in a child space (:func:`child_space_question`), in this order."""


def child_spaces(api: dict[str, ApiClient]) -> frozenset[int]:
    """The spaces novice lists whose parentId names another space it lists ("Space ... parentId": spaces form a
    tree): one read of the space list (its first 100)."""
    resp = api["novice"].get("space.json", params={"pageSize": 100}, operation="listSpaces")
    body = _read(resp)
    items = [s for s in (body.get("list") if isinstance(body, dict) else None) or [] if isinstance(s, dict)]
    ids = {s.get("id") for s in items if isinstance(s.get("id"), int)}
    return frozenset(s["id"] for s in items if s.get("id") in ids and s.get("parentId") in ids - {s.get("id")})


def child_space_question(api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int]) -> int | None:
    """A question of a profile account (:func:`question_of`) in a child space (:func:`child_spaces`), none of the
    profile's fixtures: where an answer goes one step deeper in the space tree than the fixture question's (blind12,
    issue 44: a server reading a space setting from the wrong node of the tree). None when the reads find none."""
    spaces = child_spaces(api)
    if not spaces:
        return None
    for role in CHILD_SPACE_WRITERS:
        found = question_of(role, api, profile, user_ids, spaces)
        if found is not None:
            return found
    return None


def members_question(api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int]) -> int | None:
    """:func:`question_of` member: the question under which moderator's answer makes member its parent's author."""
    return question_of("member", api, profile, user_ids)


def novices_question(api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int]) -> int | None:
    """:func:`question_of` novice, other than the fixture question: one on which member stands in no relation. The
    fixture question, novice's too, is never locked nor sent, so it cannot give the refusals of a lock or a send of
    another's question; novice holds neither permission, so every call drawn on it is refused.

    One member follows where the target has one (fix2nodes, issue 44): following is a relation to a node the caller
    did not write, and "for the caller's own node" grants nothing through it; a server that built "own nodes" from
    the nodes a caller wrote AND follows let member lock novice's question (round19-lock-own-follower). The only
    node member followed was the fixture question, on which nothing is ever locked."""
    return question_of("novice", api, profile, user_ids, followed_by="member")


Finder = Callable[[dict[str, ApiClient], Profile, dict[str, int]], "int | None"]


def found_once(request: Any, api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int],
               find: Finder) -> int | None:
    """A found question, the same for every worker of the run (``find`` once per run and target). Found once per
    process, it could differ between workers (an account's question list moves as the run writes under its
    questions), and a shared write posted under one worker's question was judged against another's (stop 57's CI:
    ANSWER-PARENT-FIELDS on member's param_wins answer, whose parentId was not the question the judging worker had
    found)."""
    found = once_per_run(request, profile.base_url, f"found {find.__name__}", lambda: find(api, profile, user_ids) or 0)
    return int(found) or None


def question_or_skip(role: str, question: int | None) -> int:
    """A found question of ``role``'s, or a skip saying why not judged (never a failure: the target may hold none)."""
    if question is None:
        skip(SkipKind.OTHER, f"not judged: {role} wrote no question novice lists that is not wiki, closed or a "
                             f"fixture ({QUESTION_PAGES} pages of {role}'s question list read)")
    return question


CHILD_SPACE_WRITER = "admin"
"""Whose shared answer (in its account's form) goes under a question in a child space (:func:`child_space_or`)."""


def child_space_or(request: Any, api: dict[str, ApiClient], profile: Profile, role: str, form: str,
                   question: int) -> int:
    """Where ``role``'s shared answer in ``form`` goes (suites/conftest.py ``answer_in``): :data:`CHILD_SPACE_WRITER`'s
    answer in its account's form under :func:`child_space_question`, found once per run (every worker answers under
    the same one), every other one under ``question``, as before (blind12, issue 44). The spaces form a tree
    ("parentId"), and every other answer of a run goes under a question of a root space (the fixture question,
    member's own, the locked one), so a server that reads a setting of the question's space from the wrong node of
    the tree (its parent's "moderate new answers") was never met; "Caller has Answer questions and Publish answer |
    Published" names no space. Where the reads find none, ``question``: admin's answer is posted anyway, so no write
    more."""
    if (role, form) != (CHILD_SPACE_WRITER, answer_form(CHILD_SPACE_WRITER)):
        return question
    return child_space_found(request, api, profile) or question


def child_space_found(request: Any, api: dict[str, ApiClient], profile: Profile) -> int | None:
    """:func:`child_space_question`, found once per run and target (every worker writes under the same one), or
    None: where :func:`child_space_or` puts admin's answer, and (closeb) moderator's answer it sends to moderation
    (suites/conftest.py ``sent_to_mod_by``)."""
    found = once_per_run(request, profile.base_url, "child_space_question", lambda: child_space_question(
        api, profile, request.getfixturevalue("user_ids")) or 0)
    return int(found) or None


NOVICE_ANSWER_PARENTS = ("the fixture question", "a question of a child space", "a question member wrote")
"""placements (issue 44, round90-novice-answer-child-space-500's kind): where novice's answers in a parameter form go
(suites/conftest.py ``answer_in``; its JSON one, the one every other form is compared with and ``answer_of``'s, stays
under the fixture question). The fixture question is novice's own in a root space; a child space's question
(:func:`child_space_found`, member's where member wrote one) and member's question (:func:`members_question`) are
another account's, one in a child space and one in a root space. "Caller has Answer questions but not Publish answer
| In the moderation queue | Answer is created." names no parent, so a server that finds the moderation queue, the
draft or the parent's fields through the question's space or author is met. No write more: the same three answers."""

NOVICE_PARAMETER_FORMS = ("query", "form", "param_wins")
"""novice's answers placed by :func:`novice_answer_parent`, in the rotation's order (spec/dimensions.yaml
``input_form`` without JSON)."""


def novice_answer_parent(form: str, seed: int) -> str | None:
    """The :data:`NOVICE_ANSWER_PARENTS` entry novice's answer in ``form`` goes under at ``seed`` (None: not placed,
    the JSON one): ``(index + seed) % 3``, so every run places one on each parent and three consecutive seeds each
    form on each."""
    if form not in NOVICE_PARAMETER_FORMS:
        return None
    return NOVICE_ANSWER_PARENTS[(NOVICE_PARAMETER_FORMS.index(form) + seed) % len(NOVICE_ANSWER_PARENTS)]


def novice_placed(request: Any, api: dict[str, ApiClient], profile: Profile, role: str, form: str, seed: int | None,
                  question: int) -> int:
    """Where novice's answer in ``form`` goes (:func:`novice_answer_parent`), found once per run; ``question`` for
    every other answer, and where the reads find no such question (the answer is posted anyway: no write more)."""
    where = novice_answer_parent(form, seed or 0) if role == "novice" else None
    if where == NOVICE_ANSWER_PARENTS[1]:
        return child_space_found(request, api, profile) or question
    if where == NOVICE_ANSWER_PARENTS[2]:
        return found_once(request, api, profile, request.getfixturevalue("user_ids"), members_question) or question
    return question
