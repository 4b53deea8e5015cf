"""Nodes the profile's accounts wrote, found on the target with reads, and the refused node actions tried on them in
every relation (histories6, issue 44 item 2).

The action matrix (action_cases.py) acts on the run's own writes and on two questions it finds; a cell of role x
relation x kind it cannot place (novice on its own PUBLISHED answer: every answer novice posts goes to moderation;
member on an answer or a comment of another's under a question it did not write) is named unreachable in
spec/dimensions.yaml. Those cells need no write: the permission table refuses them, and the node exists on the target,
written by the accounts before the run. This module finds them with reads only (the accounts' question and answer
lists, the comment lists of the answers found) and says, for every refused (action, role, relation, kind), the first
found node that stands to the role in that relation (:func:`placed`). Pure but for :func:`find`.

Never a node the run writes or changes: not the profile's fixtures or pools, not under the fixture question or the
locked question (every suite writes there), not wiki (but for the unwikify cells) or closed, no body carrying a run
tag, no private comment (who reads it is the privacy model's). Only refused calls are made on a found node: a server
that wrongly takes one changes a node of the accounts' (the same trade as ``members_question``); no allowed call is
ever sent to one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from action_cases import ACTIONS, AUTHOR, FAVORITE, NONE, PARENT_AUTHOR, QUESTION_AUTHOR_OF, WIKI, allowed

from qaconform.target import fanout
from qaconform.target.client import ApiClient, ApiResponse, TargetError
from qaconform.target.profile import Profile

T = TypeVar("T")

ROLES = ("admin", "moderator", "member", "novice", "anonymous")
WRITERS = ("admin", "moderator", "member", "novice")
KINDS = ("question", "answer", "comment")
OTHER = "?"
"""The author of a node none of the profile's accounts wrote."""
COMMENTER = "commenter"
"""paths13 (issue 44 item 3): the caller wrote a public comment directly under the node (an answer) and did not write
the node. The permission table knows no such relation: "for the caller's own node" is the node acted on, so a
commenter is refused whatever "none" is refused (a server taking "own" from the comments under a node grants it)."""
ANSWERER = "answerer"
"""paths15 (issue 44): the caller wrote a published answer directly under the node (a question) and did not write the
node. Like :data:`COMMENTER`, a relation of the walk only: a server taking "own" from the answers under a question
grants what "none" is refused (round41-cancelwiki-own-by-answerer). Its unwikify is placed on a WIKI question only: on
one that is not wiki, any caller is refused by the node's state, so the permission would not be what is tried."""
REPLY = "reply"
"""paths15 (issue 44): a kind of the walk only, a public comment directly under a public comment (a reply), read in
the comment lists the walk reads anyway. Its cells are the author of the comment it is under (:data:`PARENT_AUTHOR`)
refused what "none" is refused: a server taking a reply's owner from its thread (round38-lock-own-reply-by-thread-root)
grants them. Kept apart from first-level comments so that no cell placed before moves."""
PAGES = 15
PAGE_SIZE = 100
"""Pages of an account's question and answer list read (bounded: 1,500 items, or 300 on a site capping pageSize
at 20, which CI builds against one server reach as their answers and comments accumulate)."""
ANSWERS_READ = 12
"""Answers whose comment lists are read for comments (one read each, bounded)."""
RUN_TAG_MARK = "[qc-"
"""What a body the kit wrote carries (the run tag): such a node is some run's, not the accounts'."""
STABLE = ("id", "type", "title", "body", "wiki", "marked", "nodeStates", "visibility", "recipients")
"""The fields of a listed node no refused action may change (PERM-DENIED-NO-EFFECT): what a lock, a send to
moderation, an unwikify or an unfavorite could change that a list shows, and nothing a read or another node's post
moves (viewCount, lastActiveDate, answers, answerCount)."""


@dataclass(frozen=True)
class Found:
    """A node found with reads: its kind, who wrote it, its parent and its question (roles, :data:`OTHER` for none of
    the accounts), and the list that shows it (``list_path``: the author's question or answer list, the answer's
    comment list)."""

    id: int
    kind: str
    author: str
    parent_author: str | None
    question_author: str | None
    list_path: str
    list_operation: str
    commenters: frozenset[str] = frozenset()
    """The accounts that wrote a public comment directly under the node (:data:`COMMENTER`; answers only: the
    comment lists read are the answers')."""
    answerers: frozenset[str] = frozenset()
    """The accounts whose found answer is directly under the node (:data:`ANSWERER`; questions only)."""
    wiki: bool = False
    """A community-wiki node: a question placed only for :data:`ANSWERER` cells (the walk acted on none before
    paths15); an answer (round50, issue 44) only for unwikify cells, which take it before any node that is not wiki:
    on a node that is not wiki every caller is refused by its state, so "for the caller's own node" was never what an
    unwikify in a relation tried (round50-cancelwiki-question-author-owns-answer: the question's author taken as
    the answer's owner)."""
    accepted: frozenset[str] = frozenset()
    """round48 (issue 44): the accounts whose found answer under the question is its accepted one (marked): an
    :data:`ANSWERER` cell is placed on such a question first, where "own" may be taken from the accepted answer."""

    def relations(self, role: str) -> frozenset[str]:
        """The relations ``role`` stands in to this node (action_cases.relations: an answer's parent is its
        question, so both hold there), and :data:`COMMENTER` beside them where it wrote a comment under it."""
        if role == "anonymous":
            return frozenset({NONE})
        if self.author == role:
            return frozenset({AUTHOR})
        held = {r for r, a in ((PARENT_AUTHOR, self.parent_author), (QUESTION_AUTHOR_OF, self.question_author))
                if a == role}
        return frozenset((held or {NONE}) | ({COMMENTER} if role in self.commenters else set())
                         | ({ANSWERER} if role in self.answerers else set()))


@dataclass(frozen=True)
class Cell:
    """One refused call: an action, the caller's role, its relation to the node and the node's kind."""

    action: str
    role: str
    relation: str
    kind: str

    @property
    def label(self) -> str:
        return f"{self.action}-{self.role}-{self.relation}-{self.kind}"

    @property
    def rule(self) -> str:
        """The permission rule that refuses it (action_cases.PERMISSION_RULE: member's calls are the own-node
        rule's)."""
        from action_cases import PERMISSION_RULE

        own, other = PERMISSION_RULE[self.action]
        return own if self.role == "member" else other


def _relations_of(kind: str, role: str) -> tuple[str, ...]:
    if role == "anonymous":
        return (NONE,)
    if kind == "question":
        return (AUTHOR, NONE)
    return (AUTHOR, PARENT_AUTHOR, QUESTION_AUTHOR_OF, NONE)


CELLS: tuple[Cell, ...] = tuple(
    Cell(action, role, relation, kind)
    for action in ACTIONS for role in ROLES for kind in KINDS for relation in _relations_of(kind, role)
    if not allowed(action, role, relation) and not (action == FAVORITE and role in ("admin", "moderator"))) + tuple(
    Cell(action, role, COMMENTER, "answer") for action in ACTIONS for role in ("member", "novice")
    if not allowed(action, role, NONE)) + tuple(
    Cell(action, role, relation, kind) for relation, kind in ((ANSWERER, "question"), (PARENT_AUTHOR, REPLY))
    for action in ACTIONS for role in ("member", "novice") if not allowed(action, role, NONE))
"""Every (action, role, relation, kind) the permission table refuses (a question is under no node, anonymous wrote
nothing); then (paths13) each call refused to member and novice with no relation, on an answer they commented on;
last (paths15) the same calls on a question they answered and on a reply under a comment they wrote. admin and
moderator hold every permission of the four actions in every relation: no cell of theirs."""


def placed(cell: Cell, found: Iterable[Found]) -> Found | None:
    """The first found node of the cell's kind to which its role stands in its relation (a wiki question only for an
    :data:`ANSWERER` cell, and for its unwikify only a wiki one: :data:`ANSWERER`; round48: a question whose accepted
    answer the role wrote before any other, then a wiki one)."""
    fit = [n for n in found if n.kind == cell.kind and cell.relation in n.relations(cell.role)]
    if cell.relation != ANSWERER and cell.action == WIKI and cell.kind == "answer":  # round50: a wiki answer first
        return next((n for n in fit if n.wiki), next((n for n in fit if not n.wiki), None))
    if cell.relation != ANSWERER:
        return next((n for n in fit if not n.wiki), None)
    fit.sort(key=lambda n: (cell.role not in n.accepted, not n.wiki))  # round48: the accepted answer's author first
    return next((n for n in fit if n.wiki or cell.action != WIKI), None)


WIKI_TRIES = 4
"""closeb (issue 44): the found wiki nodes an unwikify cell tries besides the one it is placed on, at most."""


def also_placed(cell: Cell, found: Iterable[Found]) -> list[Found]:
    """closeb (issue 44): for an unwikify cell, every other found WIKI node of its kind to which its role stands in
    its relation (:data:`WIKI_TRIES` at most), after the one :func:`placed` gives. One node per relation met only the
    relations the walk names on the first wiki node that holds them (member's first NONE wiki answer is one it
    commented on; its NONE question cell a question that is not wiki, refused by its state), so a server taking
    "own" from a relation the walk does not name (the wiki node's author answered a question of the caller's:
    round77-cancelwiki-owner-answered-callers-question) let member in unseen on a stranger's wiki node. Refusals
    only: the permission table refuses each of these calls whatever wiki node it acts on."""
    if cell.action != WIKI:
        return []
    first = placed(cell, found)
    return [n for n in found if n.kind == cell.kind and n.wiki and n != first
            and cell.relation in n.relations(cell.role)][:WIKI_TRIES]


# --- the reads ----------------------------------------------------------------------------------------------------

def _items(resp: ApiResponse) -> list[dict[str, Any]] | None:
    """A paged list's items, or None when the read is no 200 with a JSON envelope (a finder finds nothing then)."""
    if resp.status != 200:
        return None
    try:
        body = resp.json()
    except TargetError:
        return None
    items = body.get("list") if isinstance(body, dict) else None
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else None


def last_page(resp: ApiResponse, items: list[Any], read: int) -> bool:
    """Whether this page of a walk asking :data:`PAGE_SIZE` a page is the list's last, ``read`` items read so far
    (this page's too). A site may cap pageSize below what was asked (the description states no maximum; the
    envelope's pageSize says what it served): a page as full as the size served is not the last one, however short
    of the size asked. An empty page, or ``totalCount`` items read, ends it."""
    try:
        body = resp.json()
    except TargetError:
        body = None
    total, served = (body.get("totalCount"), body.get("pageSize")) if isinstance(body, dict) else (None, None)
    if not items or (isinstance(total, int) and not isinstance(total, bool) and read >= total):
        return True
    full = served if isinstance(served, int) and 0 < served < PAGE_SIZE else PAGE_SIZE
    return len(items) < full


def _whole(client: ApiClient, path: str, operation: str) -> tuple[list[dict[str, Any]], bool]:
    """Up to :data:`PAGES` pages of a list, and whether that was all of it."""
    got: list[dict[str, Any]] = []
    for page in range(1, PAGES + 1):
        resp = client.get(path, params={"page": page, "pageSize": PAGE_SIZE}, operation=operation)
        items = _items(resp)
        if items is None:
            return got, False
        got += items
        if last_page(resp, items, len(got)):
            return got, True
    return got, False


def _ours(item: dict[str, Any]) -> bool:
    """A node some run of the kit wrote (its body carries a run tag)."""
    return RUN_TAG_MARK in str(item.get("body") or "") + str(item.get("bodyAsHTML") or "")


def taken(profile: Profile) -> set[int]:
    """The profile's fixtures and pools: never a found node, nor a node under one of its questions."""
    f = profile.fixtures
    ids = {f.question_id, f.member_wiki_node_id, f.wiki_node_id, f.favorite_node_id, f.locked_question_id}
    ids |= {getattr(f, n, None) for n in ("wiki_answer_id", "accepted_wiki_question_id")}  # wiki21
    ids |= {n for pool in profile.pools.values() for n in pool}
    return {i for i in ids if i is not None}


def find(api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int], at_once: int = 1) -> list[Found]:
    """The accounts' questions novice lists, the answers novice lists in the accounts' answer lists, and the public
    comments under those answers and under the other answers of the accounts' questions (novice's read of each
    answer's comment list, :data:`ANSWERS_READ` at most), each with who wrote it, its parent and its question, in that
    order. Novice reads what is acted on (every signed-in account then sees it: a node of a space hidden from novice
    would be refused for its visibility, not its permission); admin's reads of the question lists say whose question
    an answer is under (a question of a hidden space too). The reads of each step do not depend on one another: they
    go ``at_once`` at a time (speed17), their answers taken in the order the loops read them."""
    who = {uid: role for role, uid in user_ids.items() if role in WRITERS}
    off = taken(profile)
    questions: dict[int, str] = {}
    answer_ids: dict[int, list[int]] = {}
    found: list[Found] = []
    writers = [(role, uid) for role in WRITERS if (uid := user_ids.get(role)) is not None]
    asked = _in_order([functools.partial(_whole, api[reader], f"user/{uid}/question.json", "listUserQuestions")
                       for _, uid in writers for reader in ("admin", "novice")], at_once)
    for role, uid in writers:
        path = f"user/{uid}/question.json"
        for q in next(asked)[0]:
            if isinstance(q.get("id"), int) and (q.get("author") or {}).get("id") == uid:
                questions[q["id"]] = role
        for q in next(asked)[0]:
            if isinstance(q.get("id"), int) and (q.get("author") or {}).get("id") == uid:
                questions[q["id"]] = role
                answer_ids[q["id"]] = [a for a in q.get("answers") or () if isinstance(a, int)]
                if q["id"] not in off and "closed" not in (q.get("nodeStates") or ()) and not _ours(q):
                    found.append(Found(q["id"], "question", role, None, None, path, "listUserQuestions",
                                       wiki=q.get("wiki") is True))  # paths15: a wiki one for ANSWERER cells only
    answers: list[Found] = []
    questions_of: dict[int, int] = {}
    marked: set[int] = set()
    answered = _in_order([functools.partial(_whole, api["novice"], f"user/{uid}/answer.json", "listUserAnswers")
                          for _, uid in writers], at_once)
    for role, uid in writers:
        path = f"user/{uid}/answer.json"
        for a in next(answered)[0]:
            question = a.get("originalParentId", a.get("parentId"))
            if (not isinstance(a.get("id"), int) or not isinstance(question, int) or question in off
                    or a["id"] in off or _ours(a)
                    or (a.get("author") or {}).get("id") != uid or question not in questions):
                continue  # only under a question an account wrote: the kit acts only under what its accounts wrote
            asker = questions.get(question, OTHER)
            answers.append(Found(a["id"], "answer", role, asker, asker, path, "listUserAnswers",
                                 wiki=a.get("wiki") is True))  # round50: a wiki one for unwikify cells only
            questions_of[a["id"]] = question
            if a.get("marked") is True:
                marked.add(a["id"])
    found += answers
    known = {a.id for a in answers}
    answerers: dict[int, set[str]] = {}  # paths15 (issue 44): who answered each question, from the answers found
    accepted: dict[int, set[str]] = {}  # round48 (issue 44): whose found answer is the question's accepted one
    for node in answers:
        answerers.setdefault(questions_of[node.id], set()).add(node.author)
        if node.id in marked:
            accepted.setdefault(questions_of[node.id], set()).add(node.author)
    # the answers of the accounts' questions whose author no answer list read names: parents of comments only (a
    # node acted on needs its author known, "own" decides; its parent's author never turns a refusal into a grant)
    unnamed = [Found(a, "answer", OTHER, asker, asker, "", "") for q, ids in answer_ids.items() if q not in off
               for a in ids if a not in known for asker in (questions[q],)]
    commenters: dict[int, set[str]] = {}
    replies: list[Found] = []
    read = [*answers, *unnamed][:ANSWERS_READ]
    lists = _in_order([functools.partial(api["novice"].get, f"answer/{answer.id}/comment.json",
                                         params={"pageSize": PAGE_SIZE}, operation="listAnswerComments")
                       for answer in read], at_once)
    for answer in read:
        path = f"answer/{answer.id}/comment.json"
        listed = _items(next(lists)) or []
        public = {c["id"]: _writer(c, who) for c in listed if isinstance(c.get("id"), int) and _public(c, off)}
        for c in listed:
            if c.get("id") not in public:
                continue
            parent = c.get("parentId", answer.id)
            if parent == answer.id:
                found.append(Found(c["id"], "comment", public[c["id"]], answer.author, answer.question_author,
                                   path, "listAnswerComments"))
                commenters.setdefault(answer.id, set()).add(public[c["id"]])
            elif parent in public:  # paths15 (issue 44): a public reply to a public comment
                replies.append(Found(c["id"], REPLY, public[c["id"]], public[parent], answer.question_author,
                                     path, "listAnswerComments"))
    return [replace(n, commenters=frozenset(commenters.get(n.id, set()) - {n.author}),
                    answerers=frozenset(answerers.get(n.id, set()) - {n.author}),
                    accepted=frozenset(accepted.get(n.id, set()) - {n.author})) for n in found] + replies


def _in_order(calls: list[Callable[[], T]], at_once: int) -> Iterator[T]:
    """The calls' results, sent ``at_once`` at a time, in the order of the calls; an exception raised where a loop
    making them in turn would have met it (``fanout.settled``)."""
    for got in fanout.settled(calls, at_once):
        if isinstance(got, Exception):
            raise got
        yield got


def _public(c: dict[str, Any], off: set[int]) -> bool:
    """A public comment no run wrote and no fixture (a private one's readers are the privacy model's)."""
    return (not _ours(c) and c.get("visibility", "full") == "full" and not c.get("recipients")
            and c["id"] not in off)


def _writer(c: dict[str, Any], who: dict[int, str]) -> str:
    author = (c.get("author") or {}).get("id")
    return who.get(author, OTHER) if isinstance(author, int) else OTHER


def stable(item: dict[str, Any] | None) -> dict[str, Any] | None:
    """What a listed node shows that a refused action must leave as it was (:data:`STABLE`, and its author's id)."""
    if item is None:
        return None
    kept = {k: item.get(k) for k in STABLE if k in item}
    kept["author"] = (item.get("author") or {}).get("id")
    return kept
