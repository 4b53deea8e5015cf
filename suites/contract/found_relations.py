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
locked question (every suite writes there), not wiki or closed, no body carrying a run tag, no private comment (who
reads it is the privacy model's). Only refused calls are made on a found node: a server that wrongly takes one changes
a node of the accounts' (the same trade as ``members_question``); no allowed call is ever sent to one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from action_cases import ACTIONS, AUTHOR, FAVORITE, NONE, PARENT_AUTHOR, QUESTION_AUTHOR_OF, allowed

from qaconform.target.client import ApiClient, ApiResponse, TargetError
from qaconform.target.profile import Profile

ROLES = ("admin", "moderator", "member", "novice", "anonymous")
WRITERS = ("admin", "moderator", "member", "novice")
KINDS = ("question", "answer", "comment")
OTHER = "?"
"""The author of a node none of the profile's accounts wrote."""
COMMENTER = "commenter"
"""paths13 (issue 44 item 3): the caller wrote a public comment directly under the node (an answer) and did not write
the node. The permission table knows no such relation: "for the caller's own node" is the node acted on, so a
commenter is refused whatever "none" is refused (a server taking "own" from the comments under a node grants it)."""
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

    def relations(self, role: str) -> frozenset[str]:
        """The relations ``role`` stands in to this node (action_cases.relations: an answer's parent is its
        question, so both hold there), and :data:`COMMENTER` beside them where it wrote a comment under it."""
        if role == "anonymous":
            return frozenset({NONE})
        if self.author == role:
            return frozenset({AUTHOR})
        held = {r for r, a in ((PARENT_AUTHOR, self.parent_author), (QUESTION_AUTHOR_OF, self.question_author))
                if a == role}
        return frozenset((held or {NONE}) | ({COMMENTER} if role in self.commenters else set()))


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
    if not allowed(action, role, NONE))
"""Every (action, role, relation, kind) the permission table refuses (a question is under no node, anonymous wrote
nothing), and last (paths13) each call refused to member and novice with no relation, on an answer they commented
on. admin and moderator hold every permission of the four actions in every relation: no cell of theirs."""


def placed(cell: Cell, found: Iterable[Found]) -> Found | None:
    """The first found node of the cell's kind to which its role stands in its relation."""
    return next((n for n in found if n.kind == cell.kind and cell.relation in n.relations(cell.role)), None)


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
    ids |= {n for pool in profile.pools.values() for n in pool}
    return {i for i in ids if i is not None}


def find(api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int]) -> list[Found]:
    """The accounts' questions novice lists, the answers novice lists in the accounts' answer lists, and the public
    comments under those answers and under the other answers of the accounts' questions (novice's read of each
    answer's comment list, :data:`ANSWERS_READ` at most), each with who wrote it, its parent and its question, in that
    order. Novice reads what is acted on (every signed-in account then sees it: a node of a space hidden from novice
    would be refused for its visibility, not its permission); admin's reads of the question lists say whose question
    an answer is under (a question of a hidden space too)."""
    who = {uid: role for role, uid in user_ids.items() if role in WRITERS}
    off = taken(profile)
    questions: dict[int, str] = {}
    answer_ids: dict[int, list[int]] = {}
    found: list[Found] = []
    for role in WRITERS:
        uid = user_ids.get(role)
        if uid is None:
            continue
        path = f"user/{uid}/question.json"
        for q in _whole(api["admin"], path, "listUserQuestions")[0]:
            if isinstance(q.get("id"), int) and (q.get("author") or {}).get("id") == uid:
                questions[q["id"]] = role
        for q in _whole(api["novice"], path, "listUserQuestions")[0]:
            if isinstance(q.get("id"), int) and (q.get("author") or {}).get("id") == uid:
                questions[q["id"]] = role
                answer_ids[q["id"]] = [a for a in q.get("answers") or () if isinstance(a, int)]
                if (q["id"] not in off and q.get("wiki") is not True and "closed" not in (q.get("nodeStates") or ())
                        and not _ours(q)):
                    found.append(Found(q["id"], "question", role, None, None, path, "listUserQuestions"))
    answers: list[Found] = []
    for role in WRITERS:
        uid = user_ids.get(role)
        if uid is None:
            continue
        path = f"user/{uid}/answer.json"
        for a in _whole(api["novice"], path, "listUserAnswers")[0]:
            question = a.get("originalParentId", a.get("parentId"))
            if (not isinstance(a.get("id"), int) or not isinstance(question, int) or question in off
                    or a["id"] in off or a.get("wiki") is True or _ours(a)
                    or (a.get("author") or {}).get("id") != uid or question not in questions):
                continue  # only under a question an account wrote: the kit acts only under what its accounts wrote
            asker = questions.get(question, OTHER)
            answers.append(Found(a["id"], "answer", role, asker, asker, path, "listUserAnswers"))
    found += answers
    known = {a.id for a in answers}
    # the answers of the accounts' questions whose author no answer list read names: parents of comments only (a
    # node acted on needs its author known, "own" decides; its parent's author never turns a refusal into a grant)
    unnamed = [Found(a, "answer", OTHER, asker, asker, "", "") for q, ids in answer_ids.items() if q not in off
               for a in ids if a not in known for asker in (questions[q],)]
    commenters: dict[int, set[str]] = {}
    for answer in [*answers, *unnamed][:ANSWERS_READ]:
        path = f"answer/{answer.id}/comment.json"
        for c in _items(api["novice"].get(path, params={"pageSize": PAGE_SIZE}, operation="listAnswerComments")) or ():
            author = (c.get("author") or {}).get("id")
            if (isinstance(c.get("id"), int) and c.get("parentId", answer.id) == answer.id and not _ours(c)
                    and c.get("visibility", "full") == "full" and not c.get("recipients") and c["id"] not in off):
                writer = who.get(author, OTHER) if isinstance(author, int) else OTHER
                found.append(Found(c["id"], "comment", writer, answer.author, answer.question_author,
                                   path, "listAnswerComments"))
                commenters.setdefault(answer.id, set()).add(writer)
    return [replace(n, commenters=frozenset(commenters[n.id] - {n.author})) if n.kind == "answer"
            and n.id in commenters else n for n in found]


def stable(item: dict[str, Any] | None) -> dict[str, Any] | None:
    """What a listed node shows that a refused action must leave as it was (:data:`STABLE`, and its author's id)."""
    if item is None:
        return None
    kept = {k: item.get(k) for k in STABLE if k in item}
    kept["author"] = (item.get("author") or {}).get("id")
    return kept
