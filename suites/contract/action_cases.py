"""The combinations test_action_matrix.py sends: per node action, a covering array over the caller, the node's kind
and the node's state (spec/dimensions.yaml ``actions``), drawn by allpairspy and seeded by the run's ``--seed``, with
what the description expects of each (the permission table, the state table).

Pure: no request is made here. What the run can act on is a fixed set of nodes (:data:`POOL`): the shared writes of
suites/conftest.py that other suites make anyway (answers, comments, locks, a moderation) and this suite's own
(:data:`PAID`): by default one accepted write, the lock of a comment (with no write budget also the moderation of a
comment, two more). A combination is drawn only when it is *admissible*:

- a node of its kind and state exists (by default, not a :data:`THOROUGH_ONLY` one) whose author stands to the
  caller as the caller value says (the node's author, its parent's author, neither), and which the caller can see
  (who sees a node in moderation is not shown: a 404 there would judge visibility, not the permission);
- a call the description allows that changes the node (a lock, a send to moderation: an accepted write) is one of the
  run's shared writes (:data:`REUSED`, read, never sent again), or, with no write budget (``--thorough``), made on a
  node built for it (:data:`BUILT_FOR`);
- never a lock or a moderation of a question: the one question a run may act on is the profile's fixture question,
  which every suite reads (a lock or moderation wrongly let in would spend it for this and every later run), and the
  interface cannot create one.

The caller, the kind and the state are crossed pairwise over the admissible combinations: every pair of values that
some admissible combination holds is tried at least once (:func:`coverage` counts them).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any

from allpairspy import AllPairs
from covering import kept_rows

from qaconform.contract import Dimensions

CALLER, KIND, STATE = "caller", "node_kind", "node_state"
LOCK, SEND, WIKI, FAVORITE = "lockNode", "sendToModeration", "cancelWiki", "unmarkFavorite"
ACTIONS = (LOCK, SEND, WIKI, FAVORITE)
CREATED, LOCKED, MODERATED = "created", "locked", "moderated"

ROLE = {"author": "member", "parent_author": "member", "not_author": "member", "novice_author": "novice",
        "moderator": "moderator", "admin": "admin", "anonymous": "anonymous"}
"""The account each caller value signs in as."""
MEMBER_RELATIONS = ("author", "parent_author", "not_author")
"""Caller values that are member's relation to the node: the own-node clauses decide them."""

ALLOWED: dict[str, frozenset[str]] = {
    # "Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation Roles)"
    LOCK: frozenset({"admin", "moderator", "author"}),
    # "Send already published question to moderation (Moderation Roles)": no own-node clause
    SEND: frozenset({"admin", "moderator"}),
    # "Mark as community wiki; for the caller's own node, Convert own posts to community wiki"
    WIKI: frozenset({"admin", "moderator", "author"}),
    # "Mark as favorite (Standard Roles) and View the question page (Anonymous Roles)": member too, on any node
    FAVORITE: frozenset({"admin", "moderator", "author", "parent_author", "not_author"}),
}
"""Which caller values the permission table lets call each action (the profile's roles: target-profile.md)."""

CHANGES_NODE = (LOCK, SEND)
"""Actions an allowed caller carries out on any node the pool holds (an accepted write). Unfavorite and unwikify
need a node that is the caller's favorite or wiki, which no pool node is (the one-shot fixtures are theirs): an
allowed call is refused for the node's state and costs nothing."""

PERMISSION_RULE: dict[str, dict[str, str]] = {
    LOCK: {**{c: "PERM-LOCK-OWN" for c in MEMBER_RELATIONS}, **{c: "PERM-LOCK" for c in
                                                                 ("admin", "moderator", "novice_author", "anonymous")}},
    SEND: {c: "PERM-SENDTOMOD" for c in ROLE},
    WIKI: {**{c: "PERM-CANCELWIKI-OWN" for c in MEMBER_RELATIONS},
           **{c: "PERM-CANCELWIKI" for c in ("admin", "moderator", "novice_author", "anonymous")}},
    FAVORITE: {c: "PERM-UNFAVORITE" for c in ROLE},
}
"""The rule of spec/rules.yaml that decides one caller value's call of one action (member's relation: the own-node
rule; the others: the action's permission rule)."""


@dataclass(frozen=True)
class PoolNode:
    """A node the run can act on: how the suite gets it (``key``), its kind and state once the pool is ready, who
    wrote it and its parent (roles; ``question`` for the fixture question, whose author the target says)."""

    key: str
    kind: str
    state: str
    author: str
    parent_author: str | None


QUESTION_AUTHOR = "question"
"""The fixture question's author as a role: whoever the target says wrote it (test_action_matrix.py reads it and
skips a combination whose relation the target's question does not give)."""

POOL: tuple[PoolNode, ...] = (
    PoolNode("question", "question", CREATED, QUESTION_AUTHOR, None),
    PoolNode("shared_answer", "answer", CREATED, "member", QUESTION_AUTHOR),
    PoolNode("answer_of:member", "answer", LOCKED, "member", QUESTION_AUTHOR),       # locked_by("member")
    PoolNode("answer_of:admin", "answer", LOCKED, "admin", QUESTION_AUTHOR),         # locked_by("moderator")
    PoolNode("answer_of:moderator", "answer", LOCKED, "moderator", QUESTION_AUTHOR),  # locked_by("admin")
    PoolNode("sent_to_mod:moderator", "answer", MODERATED, "member", QUESTION_AUTHOR),
    PoolNode("answer_of:novice", "answer", MODERATED, "novice", QUESTION_AUTHOR),    # no Publish answer
    PoolNode("comment_of:member", "comment", CREATED, "member", "member"),           # under shared_answer
    PoolNode("comment_of:admin", "comment", CREATED, "admin", "member"),
    PoolNode("comment_of:novice", "comment", CREATED, "novice", "member"),
    PoolNode("locked_comment", "comment", LOCKED, "moderator", "member"),            # comment_of("moderator")
    PoolNode("moderated_comment", "comment", MODERATED, "novice", "member"),
)
"""Every node the matrix acts on, in preference order: the shared writes of suites/conftest.py and those of
:data:`PAID`. The fixture question's author is assumed to be no account but novice, as on the reference server."""

ASSUMED_QUESTION_AUTHOR = "novice"
"""Who the pool takes the fixture question's author to be when it decides which relations a node gives (member is
neither its author nor its answers' parent's author); test_action_matrix.py checks it on the target."""

REUSED: dict[tuple[str, str, str, str], str] = {
    (LOCK, "answer", CREATED, "author"): "locked_by:member",
    (LOCK, "answer", CREATED, "moderator"): "locked_by:moderator",
    (LOCK, "answer", CREATED, "admin"): "locked_by:admin",
    (LOCK, "comment", CREATED, "admin"): "locked_comment",
    (SEND, "answer", CREATED, "moderator"): "sent_to_mod:moderator",
    (SEND, "answer", CREATED, "admin"): "sent_to_mod:admin",
    (SEND, "comment", CREATED, "moderator"): "moderated_comment",
}
"""Allowed calls that change their node and are one of the run's shared writes, made on a node as created: the
combination reads that write's response (suites/conftest.py ``locked_by``, ``sent_to_mod_by``, ``locked_comment``,
``moderated_comment``) instead of sending another."""

PAID = {"locked_comment": 1, "moderated_comment": 2}
"""This suite's own shared writes and their accepted writes: admin locks moderator's shared comment; novice comments
under the shared answer and moderator sends that comment to moderation."""

THOROUGH_ONLY = frozenset({"moderated_comment"})
"""Paid nodes (and the shared writes that make them) drawn only with no write budget. Each accepted write of the
suites' share takes room from the refused probes in flight at its end (a pool at 80 of 80, counting a write in
flight, holds back another worker's probe: measured, three CONV-BODY-FORMAT cases held back with both paid writes on
at 79 of 80), so a budgeted run pays for the lock of a comment only (one write, 77 of 80)."""

BUILT_FOR = ("answer", "comment")
"""Kinds of node built for an allowed call that changes it, when the run has no write budget: an answer of member's
to the fixture question, a comment of member's under the shared answer, put in the combination's state first."""


def allowed(action: str, caller: str) -> bool:
    return caller in ALLOWED[action]


def changes_node(action: str, caller: str) -> bool:
    """The call is allowed and carried out on any pool node: an accepted write."""
    return action in CHANGES_NODE and allowed(action, caller)


def sees(node: PoolNode, caller: str) -> bool:
    """Whether the caller can be known to see the node: a node in moderation only by its author and the moderation
    roles (the description shows no more: OBS-SENDTOMOD-LISTED records it)."""
    if node.state != MODERATED:
        return True
    return caller in ("admin", "moderator", "anonymous") or node.author == ROLE[caller]


def fits(node: PoolNode, caller: str, question_author: str = ASSUMED_QUESTION_AUTHOR) -> bool:
    """Whether the node's authors stand to the caller as the caller value says, and the caller sees it
    (``question_author``: the fixture question's author as a role, ``?`` for no account of the profile)."""
    author = question_author if node.author == QUESTION_AUTHOR else node.author
    parent = question_author if node.parent_author == QUESTION_AUTHOR else node.parent_author
    relation = {
        "author": author == "member",
        "parent_author": parent == "member" and author != "member",
        "not_author": author != "member" and parent != "member",
        "novice_author": author == "novice",
        "admin": author != "admin",
        "moderator": author != "moderator",
        "anonymous": True,
    }[caller]
    return relation and sees(node, caller)


def node_for(action: str, kind: str, state: str, caller: str, thorough: bool = False) -> PoolNode | None:
    """The first pool node a combination that does not change its node acts on, or None."""
    return next((n for n in POOL if n.kind == kind and n.state == state and fits(n, caller)
                 and (thorough or n.key not in THOROUGH_ONLY)), None)


def reused(action: str, kind: str, state: str, caller: str, thorough: bool = False) -> str | None:
    """The shared write an allowed change reads (:data:`REUSED`), if the run makes it."""
    key = REUSED.get((action, kind, state, caller))
    return key if key is not None and (thorough or key not in THOROUGH_ONLY) else None


def admissible(action: str, kind: str, state: str, caller: str, thorough: bool) -> bool:
    """Whether the combination is drawn (see the module's docstring)."""
    if kind == "question" and action in CHANGES_NODE:
        return False
    if changes_node(action, caller):
        return reused(action, kind, state, caller, thorough) is not None or (thorough and kind in BUILT_FOR)
    return node_for(action, kind, state, caller, thorough) is not None


@dataclass(frozen=True)
class Case:
    """One drawn combination of an action: the caller, the node's kind and state, and what is expected."""

    action: str
    caller: str
    kind: str
    state: str

    @property
    def label(self) -> str:
        """The test id: names the whole combination (``lockNode-parent_author-comment-created``)."""
        return f"{self.action}-{self.caller}-{self.kind}-{self.state}"

    @property
    def role(self) -> str:
        return ROLE[self.caller]

    @property
    def allowed(self) -> bool:
        return allowed(self.action, self.caller)

    @property
    def rule(self) -> str:
        """The permission rule that decides this call."""
        return PERMISSION_RULE[self.action][self.caller]

    @property
    def reused(self) -> str | None:
        """The shared write whose response this combination reads, if any."""
        return REUSED.get((self.action, self.kind, self.state, self.caller))

    @property
    def changes_node(self) -> bool:
        return changes_node(self.action, self.caller)

    @property
    def state_met(self) -> bool:
        """Whether the node is in the state the action needs, so only the permission can refuse the call: an
        unlocked, published node for a lock or a send to moderation (never a favorite or a wiki node: the pool holds
        none)."""
        return self.action in CHANGES_NODE and self.state == CREATED

    def value(self, dimension: str) -> str:
        return {CALLER: self.caller, KIND: self.kind, STATE: self.state}[dimension]


@dataclass(frozen=True)
class ActionMatrix:
    """One action's covering array: its dimensions, the values of each (in the seed's order), the drawn cases, and
    whether it was drawn for a run without write budget."""

    action: str
    names: tuple[str, ...]
    columns: tuple[tuple[str, ...], ...]
    cases: tuple[Case, ...]
    thorough: bool


def _case(action: str, names: Sequence[str], row: Sequence[str]) -> Case:
    values = dict(zip(names, row, strict=True))
    return Case(action, values[CALLER], values[KIND], values[STATE])


def array(action: str, dims: Dimensions, seed: int, thorough: bool = False) -> ActionMatrix:
    """The covering array (strength 2) of ``action`` over its admissible combinations, for the run's seed.

    allpairspy draws the rows, told which partial rows can still be completed admissibly; a pair it leaves untried
    (a greedy construction under a filter may) is then added with the first admissible row that holds it, so every
    pair some admissible combination holds is tried (tests/test_action_cases.py checks it for several seeds)."""
    rng = random.Random(f"{seed}|{action}")
    names = dims.actions[action]
    columns = []
    for name in names:
        values = list(dims.values[name])
        rng.shuffle(values)
        columns.append(values)
    valid = [row for row in product(*columns) if admissible(action, *_order(names, row), thorough)]

    def completable(partial: Sequence[str]) -> bool:
        n = len(partial)
        return any(tuple(row[:n]) == tuple(partial) for row in valid)

    def usable(kept: Any) -> bool:  # admissible rows only, whatever the file holds
        return isinstance(kept, list) and all(isinstance(r, list) and tuple(r) in admitted for r in kept)

    admitted = set(valid)
    # the filtered construction is the costly part: every worker drew the 4 arrays, 12 times in all (7 % of a
    # worker's collection under cProfile); kept by the columns in their seeded order and the admissible rows,
    # which decide it
    rows = [tuple(r) for r in kept_rows(["action", columns, [list(r) for r in valid]],
                                        lambda: [list(r) for r in AllPairs(columns, filter_func=completable)],
                                        usable)] if valid else []
    for pair in sorted(_pairs(valid) - _pairs(rows)):
        rows.append(next(r for r in valid if pair in _row_pairs(r)))
    cases = tuple(dict.fromkeys(_case(action, names, r) for r in rows))
    return ActionMatrix(action, tuple(names), tuple(tuple(c) for c in columns), cases, thorough)


def _order(names: Sequence[str], row: Sequence[str]) -> tuple[str, str, str]:
    """(kind, state, caller) of a row in the action's dimension order, for :func:`admissible`."""
    values = dict(zip(names, row, strict=True))
    return values[KIND], values[STATE], values[CALLER]


def _row_pairs(row: Sequence[str]) -> frozenset[tuple[tuple[int, str], tuple[int, str]]]:
    return frozenset(combinations(enumerate(row), 2))


def _pairs(rows: Iterable[Sequence[str]]) -> set[tuple[tuple[int, str], tuple[int, str]]]:
    return {pair for row in rows for pair in _row_pairs(row)}


@dataclass(frozen=True)
class Coverage:
    """Pairs of values the cases try, the pairs some admissible combination holds, and every pair of the values."""

    covered: int
    admissible: int
    every: int


def coverage(matrix: ActionMatrix) -> Coverage:
    """Count the distinct value pairs of two dimensions the cases try against those admissible and all of them."""
    names = matrix.names
    valid = [row for row in product(*matrix.columns)
             if admissible(matrix.action, *_order(names, row), matrix.thorough)]
    drawn = [tuple(c.value(n) for n in names) for c in matrix.cases]
    every = sum(len(a) * len(b) for a, b in combinations(matrix.columns, 2))
    return Coverage(len(_pairs(drawn)), len(_pairs(valid)), every)


def writes_of(matrices: Iterable[ActionMatrix]) -> int:
    """Accepted writes the matrix itself makes against a conforming target (the paid shared writes its cases read;
    a built node is one write and one more for its state, plus the call): what a default run spends on it."""
    cost = 0
    paid: set[str] = set()
    for m in matrices:
        for c in m.cases:
            if c.reused is not None:
                paid.add(c.reused)
            elif c.changes_node:
                cost += 2 + (c.state != CREATED)
            else:
                node = node_for(c.action, c.kind, c.state, c.caller, m.thorough)
                paid.add(node.key if node is not None else "")
    return cost + sum(PAID.get(p, 0) for p in paid)
