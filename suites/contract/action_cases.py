"""The combinations test_action_matrix.py sends: per node action, a covering array over the caller's role, its
relation to the node (the node's author, its parent's author, its question's author, none), the node's kind and the
node's state (spec/dimensions.yaml ``actions``), drawn by allpairspy and seeded by the run's ``--seed``, with what the
description expects of each (the permission table, the state table).

Pure: no request is made here. What the run can act on is a fixed set of nodes (:data:`POOL`): the shared writes of
suites/conftest.py that other suites make anyway (answers, comments, locks, a moderation) and this suite's own
(:data:`PAID`): by default two accepted writes, the lock of a comment and moderator's answer to a question member
wrote (found with reads: the run writes no question, and "own taken from the question's author" is only seen where
the caller wrote the question and not the node), with no write budget also the moderation of a comment, two more.
A combination is drawn only when it is *admissible*:

- a node of its kind and state exists (by default, not a :data:`THOROUGH_ONLY` one) to which the caller's role stands
  in the relation the combination says (:func:`relations`), and which the caller can see
  (who sees a node in moderation is not shown: a 404 there would judge visibility, not the permission);
- a call the description allows that changes the node (a lock, a send to moderation: an accepted write) is one of the
  run's shared writes (:data:`REUSED`, read, never sent again), or, with no write budget (``--thorough``), made on a
  node built for it (:data:`BUILT`: by the caller for its own node, else by member);
- never a lock or a moderation of the fixture question, which every suite reads (a lock or moderation wrongly let
  in would spend it for this and every later run), and the interface cannot create one; on a question member wrote
  (found with reads, not the run's: ``found``) only the calls the permission table refuses.

The role, the relation, the kind and the state are crossed pairwise over the admissible combinations: every pair of
values that some admissible combination holds is tried at least once (:func:`coverage` counts them); and every
admissible combination the permission table refuses is tried too (:func:`_refusals`: free of writes, one request
each), and so is every admissible allowed call that writes nothing (:func:`_unwritten`: the node's state refuses it),
so a default run tries every admissible combination (combos, issue 44: a permission refused in one cell of role x
relation x kind and state, which pairs need not meet). Under
``--thorough`` (``every``) each admissible combination is drawn: the product is a few hundred rows per action.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, product
from typing import Any

from allpairspy import AllPairs
from covering import kept_rows

from qaconform.contract import Dimensions

ROLE_DIM, RELATION, KIND, STATE = "role", "relation", "node_kind", "node_state"
LOCK, SEND, WIKI, FAVORITE = "lockNode", "sendToModeration", "cancelWiki", "unmarkFavorite"
ACTIONS = (LOCK, SEND, WIKI, FAVORITE)
CREATED, LOCKED, MODERATED = "created", "locked", "moderated"
QUESTION_LOCKED = "question_locked"
"""An answer as created (unlocked, published) under a question that is locked: a state after two transitions (the
question's lock, then the answer), on the profile's ``locked_question_id`` (combos, issue 44). What a question's lock
does to its answers is not shown: only the permission table is judged there (a state refusal is taken from a refused
caller, :attr:`Case.state_met`), and no allowed change is drawn on it (the run builds no node under it)."""
UNWIKIFIED = "unwikified"
"""A node after the state change unwikify ("Wikified node (wiki true) | PUT cancelwiki | ... | Not wiki"), published
and unlocked again: the profile's one-shot member_wiki_node_id once member unwikified it (fix30, issue 44;
unwikified_node.py). The interface makes no wiki node, so it is the only one: admin's send to moderation of it and
moderator's lock right after (accept24) are the allowed changes drawn there (:data:`REUSED`), and the calls the
permission table refuses are tried on it."""
AUTHOR, PARENT_AUTHOR, QUESTION_AUTHOR_OF, NONE = "author", "parent_author", "question_author", "none"
RELATIONS = frozenset({AUTHOR, PARENT_AUTHOR, QUESTION_AUTHOR_OF, NONE})
"""The caller's relation to the node acted on: the node's author, the author of the node it is under (the answer a
comment is under, the question an answer is under), the author of the question it is under, or none of them. An
answer's parent is its question, so its question's author is its parent's author too (both values hold)."""

CALLER_LABEL = {("member", AUTHOR): "author", ("member", PARENT_AUTHOR): "parent_author",
                ("member", NONE): "not_author", ("novice", AUTHOR): "novice_author", ("moderator", NONE): "moderator",
                ("admin", NONE): "admin", ("anonymous", NONE): "anonymous"}
"""The caller part of a test id for the (role, relation) pairs the matrix drew before the two were dimensions of
their own (the ids stay as they were); any other pair is ``<role>_<relation>`` (``member_question_author``)."""

ALLOWED: dict[str, dict[str, frozenset[str]]] = {
    # "Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation Roles)"
    LOCK: {"admin": RELATIONS, "moderator": RELATIONS, "member": frozenset({AUTHOR})},
    # "Send already published question to moderation (Moderation Roles)": no own-node clause, no question's author
    SEND: {"admin": RELATIONS, "moderator": RELATIONS},
    # "Mark as community wiki; for the caller's own node, Convert own posts to community wiki"
    WIKI: {"admin": RELATIONS, "moderator": RELATIONS, "member": frozenset({AUTHOR})},
    # "Mark as favorite (Standard Roles) and View the question page (Anonymous Roles)": member too, on any node
    FAVORITE: {"admin": RELATIONS, "moderator": RELATIONS, "member": RELATIONS},
}
"""action -> role -> the relations to the node in which the permission table lets that role call it (the profile's
roles: target-profile.md; member holds the own-node permissions only: "for the caller's own node" is the node acted
on, not its parent, not its question)."""

CHANGES_NODE = (LOCK, SEND)
"""Actions an allowed caller carries out on any node the pool holds (an accepted write). Unfavorite and unwikify
need a node that is the caller's favorite or wiki, which no pool node is (the one-shot fixtures are theirs): an
allowed call is refused for the node's state and costs nothing."""

PERMISSION_RULE: dict[str, tuple[str, str]] = {
    LOCK: ("PERM-LOCK-OWN", "PERM-LOCK"),
    SEND: ("PERM-SENDTOMOD", "PERM-SENDTOMOD"),
    WIKI: ("PERM-CANCELWIKI-OWN", "PERM-CANCELWIKI"),
    FAVORITE: ("PERM-UNFAVORITE", "PERM-UNFAVORITE"),
}
"""action -> (the rule deciding member's calls, whatever its relation: the own-node rule; the rule deciding the other
roles': the action's permission rule) in spec/rules.yaml."""


def caller_label(role: str, relation: str) -> str:
    return CALLER_LABEL.get((role, relation), f"{role}_{relation}")


@dataclass(frozen=True)
class PoolNode:
    """A node the run can act on: how the suite gets it (``key``), its kind and state once the pool is ready, who
    wrote it, the node it is under and the question it is under (roles; ``question`` for the fixture question's
    author, whom the target says; None for a question's own parent and question)."""

    key: str
    kind: str
    state: str
    author: str
    parent_author: str | None
    question_author: str | None
    found: bool = False
    """A node the run did not write, found with reads: only calls the permission table refuses are tried on it."""


QUESTION_AUTHOR = "question"
"""The fixture question's author as a role: whoever the target says wrote it (test_action_matrix.py reads it and
skips a combination whose relation the target's question does not give)."""

LOCKED_QUESTION_AUTHOR = "locked_question"
"""The author of the profile's locked question as a role: whoever the target says wrote it (test_action_matrix.py
reads it from the accounts' question lists and skips a combination whose relation it does not give)."""

ASSUMED_LOCKED_QUESTION_AUTHOR = "admin"
"""Who the pool takes the locked question's author to be (the reference server's seed: admin's question, locked by
admin)."""

Q = QUESTION_AUTHOR
LQ = LOCKED_QUESTION_AUTHOR
POOL: tuple[PoolNode, ...] = (
    PoolNode("question", "question", CREATED, Q, None, None),
    PoolNode("shared_answer", "answer", CREATED, "member", Q, Q),
    PoolNode("answer_of:member", "answer", LOCKED, "member", Q, Q),       # locked_by("member")
    PoolNode("answer_of:admin", "answer", LOCKED, "admin", Q, Q),         # locked_by("moderator")
    PoolNode("sent_to_mod:moderator", "answer", MODERATED, "moderator", Q, Q),  # moderator's own, sent by it
    PoolNode("answer_of:novice", "answer", MODERATED, "novice", Q, Q),    # no Publish answer
    PoolNode("comment_of:member", "comment", CREATED, "member", "member", Q),  # under shared_answer
    PoolNode("comment_of:admin", "comment", CREATED, "admin", "member", Q),
    PoolNode("comment_of:novice", "comment", CREATED, "novice", "member", Q),
    PoolNode("locked_comment", "comment", LOCKED, "member", "member", Q),  # under shared_answer, then sent_to_mod:admin
    PoolNode("sent_to_mod:admin", "comment", MODERATED, "member", "member", Q),  # locked_comment, sent to moderation
    PoolNode("locked_comment:under_locker", "comment", LOCKED, "member", "admin", Q),  # locks25: the seeds placing
    PoolNode("sent_to_mod:admin:under_locker", "comment", MODERATED, "member", "admin", Q),  # it under admin's comment
    PoolNode("moderated_comment", "comment", MODERATED, "novice", "member", Q),
    PoolNode("answer_under:member", "answer", CREATED, "moderator", "member", "member"),
    PoolNode("members_question", "question", CREATED, "member", None, None, found=True),
    PoolNode("novices_question", "question", CREATED, "novice", None, None, found=True),
    PoolNode("answer_under:locked_question", "answer", QUESTION_LOCKED, "moderator", LQ, LQ),  # answer_of:moderator
    PoolNode("unwikified:member", "question", UNWIKIFIED, "member", None, None, found=True),  # member_wiki_node_id
)
"""Every node the matrix acts on, in preference order: the shared writes of suites/conftest.py and those of
:data:`PAID`. The fixture question's author is assumed to be no account but novice, as on the reference server; the
last two are moderator's answer to a question member wrote (found on the target with reads: suites/conftest.py
``answer_under_members_question``), where member is the author of the node's parent and question, not of the node,
and that question itself: not the run's, so only refusals are tried on it (a lock or moderation of it by its author,
who holds no such permission, by novice, by anonymous). The last is a question novice wrote, not the fixture
question (found with reads, suites/conftest.py ``novices_question_id``; never one no account of the profile wrote:
the kit writes only under its fixtures, its accounts' questions and what the run created), on which member stands
in no relation: the refusals of a lock or a send to moderation of a question the caller did not write, which the fixture
question (never locked nor sent) cannot give (blindp, issue 44: an own check skipped for questions)."""

UNDER_DRAWN_PARENT = {"locked_comment": "member", "sent_to_mod:admin": "member",
                      "locked_comment:under_locker": "admin", "sent_to_mod:admin:under_locker": "admin"}
"""locks25 (issue 44, round92-lock-moderator-comment-under-own-node-refused): pool comments whose parent the run's seed
draws (seed_draws "locked comment parent": member's reply that admin locks, then sends to moderation, goes under
member's shared comment or admin's), each key with the parent's author it stands for. Both placements are in the
pool (``:under_locker``: the same node, read through the key before the colon's write), and the action matrix's
cells of admin on it are drawn in both relations (none, parent_author: :data:`REUSED`); each run judges the ones the
run's placement gives and skips the others, saying so (action_scene.Scene.relation_holds)."""


def written_key(key: str) -> str:
    """The shared write a pool key reads (``locked_comment:under_locker`` is ``locked_comment``'s node)."""
    return key.removesuffix(":under_locker")


ASSUMED_QUESTION_AUTHOR = "novice"
"""Who the pool takes the fixture question's author to be when it decides which relations a node gives (member is
neither its author nor its answers' parent's author); test_action_matrix.py checks it on the target."""

REUSED: dict[tuple[str, str, str, str, str], str] = {
    (LOCK, "answer", CREATED, "member", AUTHOR): "locked_by:member",
    (LOCK, "answer", CREATED, "moderator", NONE): "locked_by:moderator",
    (LOCK, "answer", MODERATED, "admin", NONE): "locked_by:admin",
    (LOCK, "comment", CREATED, "admin", NONE): "locked_comment",
    (LOCK, "comment", CREATED, "admin", PARENT_AUTHOR): "locked_comment",  # locks25: under admin's comment
    (SEND, "answer", CREATED, "moderator", AUTHOR): "sent_to_mod:moderator",
    (SEND, "comment", LOCKED, "admin", NONE): "sent_to_mod:admin",
    (SEND, "comment", LOCKED, "admin", PARENT_AUTHOR): "sent_to_mod:admin",  # locks25: under admin's comment
    (SEND, "comment", CREATED, "moderator", NONE): "moderated_comment",
    (SEND, "answer", CREATED, "admin", NONE): "answer_sent_to_mod_by_admin",
    (SEND, "question", UNWIKIFIED, "admin", NONE): "sent_after_unwikify",
    (LOCK, "question", UNWIKIFIED, "moderator", NONE): "locked_after_unwikify",  # accept24: after admin's send
}
"""Allowed calls that change their node and are one of the run's shared writes, made on a node as created: the
combination reads that write's response (suites/conftest.py ``locked_by``, ``sent_to_mod_by``, ``locked_comment``,
``moderated_comment``, ``answer_sent_to_mod_by_admin``) instead of sending another. (action, kind, state, role,
relation) -> the write. Two of them act on a node already in the other state the table names (issue 44 item 5: an
action after a state change, at no write of its own): admin locks the answer it sent to moderation (round34; novice's
answer, held in moderation, when that send did not take) ("Unlocked
node": a node in moderation is not locked), and sends to moderation the comment it locked ("Published node": a lock
does not unpublish)."""

REUSED_NODES: dict[str, PoolNode] = {
    "locked_by:member": PoolNode("answer_of:member", "answer", CREATED, "member", Q, Q),
    "locked_by:moderator": PoolNode("answer_of:admin", "answer", CREATED, "admin", Q, Q),
    "locked_by:admin": PoolNode("answer_sent_to_mod_by_admin", "answer", MODERATED, "member", Q, Q),  # round34
    "locked_comment": PoolNode("locked_comment", "comment", CREATED, "member", "member", Q),
    "sent_to_mod:moderator": PoolNode("sent_to_mod:moderator", "answer", CREATED, "moderator", Q, Q),  # or a child
    # space's question where found (closeb): moderator, its author, stands to it as AUTHOR under either
    "sent_to_mod:admin": PoolNode("sent_to_mod:admin", "comment", LOCKED, "member", "member", Q),
    "moderated_comment": PoolNode("moderated_comment", "comment", CREATED, "novice", "member", Q),
    "answer_sent_to_mod_by_admin": PoolNode("answer_sent_to_mod_by_admin", "answer", CREATED, "member", Q, Q),
    "sent_after_unwikify": PoolNode("sent_after_unwikify", "question", UNWIKIFIED, "member", None, None),
    "locked_after_unwikify": PoolNode("locked_after_unwikify", "question", UNWIKIFIED, "member", None, None),
}
"""The node each reused write acts on, as it was before: whose relation to the caller the target's fixture question
may change (test_action_matrix.py skips a reused combination whose relation it does not give)."""

PAID = {"locked_comment": 1, "moderated_comment": 2, "answer_under:member": 1, "sent_after_unwikify": 1,
        "locked_after_unwikify": 1}
"""This suite's own shared writes and their accepted writes: admin locks the comment it sends to moderation; novice
comments under the shared answer and moderator sends that comment to moderation; moderator answers a question member
wrote; admin sends member's one-shot wiki question to moderation once member unwikified it (fix30: a send after
the state change unwikify). (admin's send of an answer of member's, ``answer_sent_to_mod_by_admin``, is
test_node_actions.py's shared write, made anyway: the matrix reads it.)"""

THOROUGH_ONLY = frozenset({"moderated_comment"})
"""Paid nodes (and the shared writes that make them) drawn only with no write budget. Each accepted write of the
suites' share takes room from the refused probes in flight at its end (a pool at 80 of 80, counting a write in
flight, holds back another worker's probe: measured, three CONV-BODY-FORMAT cases held back with both paid writes on
at 79 of 80), so a budgeted run pays for the lock of a comment and the answer under member's question only."""

BUILT: dict[str, PoolNode] = {
    "answer": PoolNode("built:answer", "answer", CREATED, "member", Q, Q),
    "comment": PoolNode("built:comment", "comment", CREATED, "member", "member", Q),
}
"""Nodes built for an allowed call that changes them, when the run has no write budget: an answer of member's to the
fixture question, a comment of member's under the shared answer, put in the combination's state first; written by the
caller itself when the combination is the caller's own node (moderator locking what it wrote: :func:`built_node`)."""


def built_node(kind: str, role: str, relation: str) -> PoolNode | None:
    """The node built for a combination that changes it (no write budget): the caller's own for ``author``, else
    member's (:data:`BUILT`)."""
    node = BUILT.get(kind)
    if node is None or relation != AUTHOR or role == "anonymous":
        return node
    return replace(node, key=f"built:{kind}:{role}", author=role)


def allowed(action: str, role: str, relation: str) -> bool:
    return relation in ALLOWED[action].get(role, frozenset())


def changes_node(action: str, role: str, relation: str) -> bool:
    """The call is allowed and carried out on any pool node: an accepted write."""
    return action in CHANGES_NODE and allowed(action, role, relation)


def sees(node: PoolNode, role: str) -> bool:
    """Whether the caller can be known to see the node: a node in moderation only by its author and the moderation
    roles (the description shows no more: OBS-SENDTOMOD-LISTED records it)."""
    if node.state != MODERATED:
        return True
    return role in ("admin", "moderator", "anonymous") or node.author == role


def relations(node: PoolNode, role: str, question_author: str = ASSUMED_QUESTION_AUTHOR,
              locked_author: str = ASSUMED_LOCKED_QUESTION_AUTHOR) -> frozenset[str]:
    """The relations ``role`` stands in to the node (``question_author``: the fixture question's author as a role,
    ``locked_author`` the locked question's, ``?`` for no account of the profile): its author; else the author of its
    parent, of its question, or both; else none. Anonymous wrote nothing."""
    if role == "anonymous":
        return frozenset({NONE})

    def who(author: str | None) -> str | None:
        return question_author if author == QUESTION_AUTHOR else locked_author if author == LQ else author

    if who(node.author) == role:
        return frozenset({AUTHOR})
    held = {r for r, a in ((PARENT_AUTHOR, node.parent_author), (QUESTION_AUTHOR_OF, node.question_author))
            if who(a) == role}
    return frozenset(held or {NONE})


def fits(node: PoolNode, role: str, relation: str, question_author: str = ASSUMED_QUESTION_AUTHOR,
         locked_author: str = ASSUMED_LOCKED_QUESTION_AUTHOR) -> bool:
    """Whether the caller stands to the node in ``relation`` and sees it."""
    return relation in relations(node, role, question_author, locked_author) and sees(node, role)


def node_for(action: str, kind: str, state: str, role: str, relation: str, thorough: bool = False) -> PoolNode | None:
    """The first pool node a combination that does not change its node acts on, or None: a node the run did not
    write (``found``) only for a call the permission table refuses (anonymous too since paths13: whether anonymous
    sees a found node is not known, so its refusal there may be a 404, :func:`unseen_refusal`), and a question for a
    lock or a moderation only then (the fixture question, every suite's, never: a lock wrongly let in would spend it
    for every later run)."""
    refused = not allowed(action, role, relation)
    return next((n for n in POOL if n.kind == kind and n.state == state and fits(n, role, relation)
                 and (thorough or n.key not in THOROUGH_ONLY) and (not n.found or refused)
                 and (n.found or not (kind == "question" and action in CHANGES_NODE))), None)


def anonymous_found(action: str, kind: str, state: str, role: str, relation: str, thorough: bool = False) -> bool:
    """Whether the combination is anonymous's on a node found with reads (paths13, issue 44 item 1: anonymous on
    found nodes in every state the run holds: a question as published, the one-shot question after its unwikify).
    Such refusals are tried after the pairwise rows (:func:`array`), so the drawn rows and their ids stay as before."""
    if role != "anonymous":
        return False
    node = node_for(action, kind, state, role, relation, thorough)
    return node is not None and node.found


def unseen_refusal(case: Case) -> bool:
    """Whether a 404 is a refusal of the case too: anonymous on a node found with reads by novice (whether anonymous
    sees it is not shown: a site may hide the node's space from anonymous)."""
    return anonymous_found(case.action, case.kind, case.state, case.role, case.relation, True)


def reused(action: str, kind: str, state: str, role: str, relation: str, thorough: bool = False) -> str | None:
    """The shared write an allowed change reads (:data:`REUSED`), if the run makes it."""
    key = REUSED.get((action, kind, state, role, relation))
    return key if key is not None and (thorough or key not in THOROUGH_ONLY) else None


def built_fits(kind: str, state: str, role: str, relation: str) -> bool:
    """Whether a node built for the combination (:func:`built_node`) stands to the caller as it needs."""
    node = built_node(kind, role, relation)
    return node is not None and state not in (QUESTION_LOCKED, UNWIKIFIED) and fits(replace(node, state=state), role,
                                                                                    relation)


def admissible(action: str, kind: str, state: str, role: str, relation: str, thorough: bool) -> bool:
    """Whether the combination is drawn (see the module's docstring)."""
    if changes_node(action, role, relation):
        return reused(action, kind, state, role, relation, thorough) is not None or (
            thorough and built_fits(kind, state, role, relation))
    return node_for(action, kind, state, role, relation, thorough) is not None


@dataclass(frozen=True)
class Case:
    """One drawn combination of an action: the caller's role and its relation to the node, the node's kind and
    state, and what is expected."""

    action: str
    role: str
    relation: str
    kind: str
    state: str

    @property
    def caller(self) -> str:
        """The caller part of the test id (:data:`CALLER_LABEL`)."""
        return caller_label(self.role, self.relation)

    @property
    def label(self) -> str:
        """The test id: names the whole combination (``lockNode-parent_author-comment-created``,
        ``lockNode-member_question_author-answer-created``)."""
        return f"{self.action}-{self.caller}-{self.kind}-{self.state}"

    @property
    def allowed(self) -> bool:
        return allowed(self.action, self.role, self.relation)

    @property
    def rule(self) -> str:
        """The permission rule that decides this call."""
        own, other = PERMISSION_RULE[self.action]
        return own if self.role == "member" else other

    @property
    def reused(self) -> str | None:
        """The shared write whose response this combination reads, if any."""
        return REUSED.get((self.action, self.kind, self.state, self.role, self.relation))

    @property
    def changes_node(self) -> bool:
        return changes_node(self.action, self.role, self.relation)

    @property
    def state_stated(self) -> bool:
        """Whether the state table states the allowed call's answer on the node's state, so a 2xx and its effects are
        expected: a lock of any unlocked node ("Unlocked node"), a send to moderation of any published one
        ("Published node"), a locked node being published and a node in moderation unlocked. A node in moderation
        only for a caller holding the moderation permissions (who else sees one is not shown: :func:`sees`)."""
        if self.action not in CHANGES_NODE:
            return False
        if self.state == MODERATED or (self.state, self.action) == (UNWIKIFIED, LOCK):  # accept24: unlocked, sent
            return self.action == LOCK and self.role in ("admin", "moderator")
        return self.state == CREATED or self.action == SEND

    @property
    def state_met(self) -> bool:
        """Whether the node is in the state the action needs, so only the permission can refuse the call: an
        unlocked, published node for a lock or a send to moderation (never a favorite or a wiki node: the pool holds
        none)."""
        return self.action in CHANGES_NODE and self.state == CREATED

    def value(self, dimension: str) -> str:
        return {ROLE_DIM: self.role, RELATION: self.relation, KIND: self.kind, STATE: self.state}[dimension]


@dataclass(frozen=True)
class ActionMatrix:
    """One action's covering array: its dimensions, the values of each (in the seed's order), the drawn cases, and
    whether it was drawn for a run without write budget."""

    action: str
    names: tuple[str, ...]
    columns: tuple[tuple[str, ...], ...]
    cases: tuple[Case, ...]
    thorough: bool
    drawn: int | None = None
    """How many of ``cases`` the covering array and the refusals gave, before the allowed calls that write nothing
    (:func:`_unwritten`); None when every case was drawn alike (``every``)."""


def _case(action: str, names: Sequence[str], row: Sequence[str]) -> Case:
    values = dict(zip(names, row, strict=True))
    return Case(action, values[ROLE_DIM], values[RELATION], values[KIND], values[STATE])


_DRAWN: dict[tuple[str, int, int, bool, bool], tuple[Dimensions, ActionMatrix]] = {}
"""This process's arrays, by (action, the dimensions' identity, seed, thorough, every); the dimensions are kept beside
each so that their identity is never another's."""


def array(action: str, dims: Dimensions, seed: int, thorough: bool = False, every: bool = False) -> ActionMatrix:
    """:func:`drawn_array`, once per process for the same arguments (speed13, issue 44): test_action_matrix.py asks
    for each action's array once per test function, rule and option row, ~38 times on every worker for four actions
    (7 % of a worker's collection under cProfile); an :class:`ActionMatrix` is frozen, so every caller may share it."""
    key = (action, id(dims), seed, thorough, every)
    kept = _DRAWN.get(key)
    if kept is None or kept[0] is not dims:
        kept = _DRAWN[key] = (dims, drawn_array(action, dims, seed, thorough, every))
    return kept[1]


def drawn_array(action: str, dims: Dimensions, seed: int, thorough: bool = False, every: bool = False) -> ActionMatrix:
    """The covering array (strength 2) of ``action`` over its admissible combinations, for the run's seed; with
    ``every`` (``--thorough``) each admissible combination, in the seed's order (no draw, nothing kept).

    allpairspy draws the rows, told which partial rows can still be completed admissibly; a pair it leaves untried
    (a greedy construction under a filter may) is then added with the first admissible row that holds it, so every
    pair some admissible combination holds is tried (tests/test_action_cases.py checks it for several seeds)."""
    rng = random.Random(f"{seed}|{action}")
    names = dims.actions[action]
    columns = []
    for name in names:
        values = [v for v in dims.values[name] if v not in ADDED_VALUES]
        rng.shuffle(values)
        columns.append(values + [v for v in dims.values[name] if v in ADDED_VALUES])
    every_valid = [row for row in product(*columns) if admissible(action, *_order(names, row), thorough)]
    if every:
        cases = tuple(dict.fromkeys(_case(action, names, r) for r in every_valid))
        return ActionMatrix(action, tuple(names), tuple(tuple(c) for c in columns), cases, thorough)
    # the pairwise draw over the values it had before ADDED_VALUES (the same rows, the same ids, the same kept file)
    columns_drawn = [[v for v in c if v not in ADDED_VALUES] for c in columns]
    valid = [row for row in every_valid if not ADDED_VALUES.intersection(row)
             and not anonymous_found(action, *_order(names, row), thorough)
             and not placed_only(action, *_order(names, row), thorough)]  # locks25: the same rows as before

    def completable(partial: Sequence[str]) -> bool:
        n = len(partial)
        return any(tuple(row[:n]) == tuple(partial) for row in valid)

    def usable(kept: Any) -> bool:  # admissible rows only, whatever the file holds
        return isinstance(kept, list) and all(isinstance(r, list) and tuple(r) in admitted for r in kept)

    admitted = set(valid)
    # the filtered construction is the costly part: every worker drew the 4 arrays, 12 times in all (7 % of a
    # worker's collection under cProfile); kept by the columns in their seeded order and the admissible rows,
    # which decide it
    rows = [tuple(r) for r in kept_rows(["action", columns_drawn, [list(r) for r in valid]],
                                        lambda: [list(r) for r in AllPairs(columns_drawn, filter_func=completable)],
                                        usable)] if valid else []
    for pair in sorted(_pairs(valid) - _pairs(rows)):
        rows.append(next(r for r in valid if pair in _row_pairs(r)))
    drawn = tuple(dict.fromkeys([*(_case(action, names, r) for r in rows), *_refusals(action, names, valid)]))
    cases = tuple(dict.fromkeys([*drawn, *_refusals(action, names, every_valid),
                                 *_unwritten(action, names, every_valid), *_added_reused(action, names, every_valid),
                                 *_drawn_parent(action, names, every_valid)]))
    return ActionMatrix(action, tuple(names), tuple(tuple(c) for c in columns), cases, thorough, len(drawn))


ADDED_VALUES = frozenset({QUESTION_LOCKED, UNWIKIFIED})
"""Values of a dimension added after the pairwise draws were first kept (combos, issue 44): every admissible
combination holding one writes nothing and is tried (:func:`_refusals`, :func:`_unwritten`), so the pairwise rows are
drawn over the other values, as before (the same rows and test ids for a seed)."""


def _refusals(action: str, names: Sequence[str], valid: Iterable[Sequence[str]]) -> list[Case]:
    """Every admissible combination the permission table refuses, after the drawn ones (blindp, issue 44): a refusal
    writes nothing and costs one request, and a permission decided on the wrong node or granted to one role on one
    kind of node is a combination of three values or more (member, no relation, a question), which pairs need not
    meet."""
    return [case for case in (_case(action, names, r) for r in valid) if not case.allowed]


def _unwritten(action: str, names: Sequence[str], valid: Iterable[Sequence[str]]) -> list[Case]:
    """Every admissible combination whose call writes nothing, after the drawn ones and the refusals (combos, issue
    44): the allowed calls a node's state refuses (an unfavorite of a node that is no favorite of the caller's, an
    unwikify of a node that is no wiki) cost one request each, like a refusal, and a permission refused in one cell
    of role x relation x kind and state (moderator, another's answer, in moderation) is met only where that cell is
    tried. With the shared writes the allowed changes read (:data:`REUSED`, every one admissible is drawn), a
    default run tries every admissible combination: 149 over the four actions (124 for seed 20260801, 122 for seed 0,
    pairwise and refused, before)."""
    return [case for case in (_case(action, names, r) for r in valid) if not case.changes_node]


def _added_reused(action: str, names: Sequence[str], valid: Iterable[Sequence[str]]) -> list[Case]:
    """Every admissible allowed change on a node in a state of :data:`ADDED_VALUES`, last (fix30, issue 44): the
    shared write it reads (:data:`REUSED`: admin's send of the unwikified one-shot) is made anyway, so the pairwise
    draw, which leaves the added values out, must not decide whether its effects are judged."""
    return [case for case in (_case(action, names, r) for r in valid)
            if case.state in ADDED_VALUES and case.reused is not None]


def _drawn_parent(action: str, names: Sequence[str], valid: Iterable[Sequence[str]]) -> list[Case]:
    """Every admissible allowed change reading a write of :data:`UNDER_DRAWN_PARENT`, last (locks25, issue 44): the
    run judges the relation its seed placed (admin's lock and send of member's reply with no relation, or as the
    reply's parent's author) and skips the other, so both are drawn whatever the pairwise rows hold; the write is
    one either way (the same shared lock and send)."""
    return [case for case in (_case(action, names, r) for r in valid)
            if case.reused is not None and case.reused in UNDER_DRAWN_PARENT]


PLACED_REUSED = frozenset({(LOCK, "comment", CREATED, "admin", PARENT_AUTHOR),
                           (SEND, "comment", LOCKED, "admin", PARENT_AUTHOR)})
"""The :data:`REUSED` entries only the locked comment's other placement gives (locks25)."""


def placed_only(action: str, kind: str, state: str, role: str, relation: str, thorough: bool = False) -> bool:
    """Whether the combination is admissible only through the locked comment's placement under the locker's own
    comment (locks25: a ``:under_locker`` pool node, or :data:`PLACED_REUSED`). Such combinations are left out of
    the pairwise draw, as :data:`ADDED_VALUES` are, and tried after it (:func:`_unwritten`, :func:`_drawn_parent`):
    the pairwise rows, their option crossings and their ids stay as they were for every seed."""
    if changes_node(action, role, relation):
        return (action, kind, state, role, relation) in PLACED_REUSED
    node = node_for(action, kind, state, role, relation, thorough)
    return node is not None and node.key.endswith(":under_locker")


def _order(names: Sequence[str], row: Sequence[str]) -> tuple[str, str, str, str]:
    """(kind, state, role, relation) of a row in the action's dimension order, for :func:`admissible`."""
    values = dict(zip(names, row, strict=True))
    return values[KIND], values[STATE], values[ROLE_DIM], values[RELATION]


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
                node = node_for(c.action, c.kind, c.state, c.role, c.relation, m.thorough)
                paid.add(node.key if node is not None else "")
    return cost + sum(PAID.get(p, 0) for p in paid)
