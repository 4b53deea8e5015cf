"""The refusals of the comment and action matrices at the parent's depth (issue 44, refusals3): the description's
rules for operation 1 and the permission table hold at every depth of a thread, so a refused comment and a refused
node action are tried under a first-level comment (depth 1: a comment on a question or an answer), under a reply
(depth 2: a comment under a comment) and under a reply to a reply (depth 3) wherever the run holds such a node.

Pure: no request is made here. The nodes are the pool's (action_cases.POOL), each with the depth the run writes it
at (:data:`DEPTH`: novice's shared plain comment is a reply to admin's, suites/conftest.py ``COMMENT_AS_REPLY``;
the locked comment is member's reply to its own shared comment, ``locked_comment``), and with its parent's author
as the run writes it (:data:`AT_DEPTH`: the pool takes every comment to be under the shared answer). A combination
(what, role, relation, state, option, depth) is *tried*:

- by the depth-1 matrices, where the node they draw for it (comment_refusals.parent_for, action_cases.node_for) is at
  that depth and stands to the caller as the combination says (:func:`drawn_by_matrix`);
- else by suites/contract/test_deep_refusals.py, on the first pool node of that depth that does (:func:`cases`),
  once. No node is written for it: a refusal is no accepted write.

What neither reaches is named with its reason in spec/dimensions.yaml ``depth_cells.unreachable`` (depth 3: neither
the profile nor the run's writes give a public reply to a reply the kit may read on every target;
tests/test_deep_refusals.py fails when a combination is neither tried nor named, or both).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from action_cases import ACTIONS, POOL, THOROUGH_ONLY, PoolNode, allowed, fits, node_for, sees
from comment_refusals import OPTIONS, RELATIONS, ROLES, STATES, WRONG_PASSWORD, parent_for, refusal

COMMENT = "comment"
POST = "postComment"
DEPTHS = (1, 2, 3)
ACTION_ROLES = ("admin", "moderator", "member", "novice", "anonymous")
ACTION_STATES = ("created", "locked", "moderated", "question_locked")
"""The action matrix's roles and node states (spec/dimensions.yaml ``dimensions``)."""
NO_OPTION = "-"
"""The option field of a node action's combination (an action takes no visibility)."""

DEPTH: dict[str, int] = {
    "comment_of:member": 1, "comment_of:admin": 1, "moderated_comment": 1,
    "comment_of:novice": 2, "locked_comment": 2, "sent_to_mod:admin": 2,
}
"""The depth of each pool comment as the run writes it (suites/conftest.py): a reply is 2."""

AT_DEPTH: dict[str, PoolNode] = {
    "comment_of:novice": PoolNode("comment_of:novice", COMMENT, "created", "novice", "admin", "question"),
}
"""Pool comments whose parent is not the shared answer's author's: novice's reply to admin's shared comment."""

REPLY_OF: dict[str, str] = {"comment_of:novice": "admin", "locked_comment": "member"}
"""Whose shared plain comment each depth-2 pool node replies to (test_deep_refusals.py checks the run wrote it so;
the locked comment's parent is drawn by the seed since locks25: the test reads it from ``locked_comment_parent``, and
the refused callers stand to it alike under either parent)."""


def node_at(key: str) -> PoolNode:
    """The pool node ``key`` with its parent as the run writes it."""
    return AT_DEPTH.get(key) or next(n for n in POOL if n.key == key)


def comment_nodes(depth: int) -> list[PoolNode]:
    """The pool's comments at ``depth`` in preference order, never a paid node of --thorough only."""
    return [node_at(n.key) for n in POOL if n.kind == COMMENT and DEPTH.get(n.key) == depth
            and n.key not in THOROUGH_ONLY]


@dataclass(frozen=True)
class DeepCase:
    """One refused combination at a depth: a comment (``what`` postComment, with its option) or a node action."""

    what: str
    role: str
    relation: str
    state: str
    option: str
    depth: int
    node: str
    """The pool key of the node (the comment's parent or the node acted on)."""

    @property
    def label(self) -> str:
        tail = "" if self.what != POST else f"-{self.option}"
        return f"depth{self.depth}-{self.what}-{self.role}-{self.relation}-{self.state}{tail}"

    @property
    def cell(self) -> tuple[str, str, str, str, str, str]:
        return self.what, self.role, self.relation, self.state, self.option, str(self.depth)


def refused_cells() -> list[tuple[str, str, str, str, str, str]]:
    """Every refused combination (what, role, relation, state, option, depth) on a comment: the comment matrix's
    refusals and the action matrix's (the permission table's), at each depth."""
    out = [(POST, r, rel, s, o, str(d)) for r, rel, s, o, d in product(ROLES, RELATIONS, STATES, OPTIONS, DEPTHS)
           if refusal(r, o) is not None]
    out += [(a, r, rel, s, NO_OPTION, str(d)) for a, r, rel, s, d in product(
        ACTIONS, ACTION_ROLES, RELATIONS, ACTION_STATES, DEPTHS) if not allowed(a, r, rel)]
    return out


def _caller(role: str) -> str:
    return "anonymous" if role == WRONG_PASSWORD else role


def _matrix_node(what: str, role: str, relation: str, state: str) -> PoolNode | None:
    """The node the depth-1 matrix draws for the combination (comment_refusals.parent_for, action_cases.node_for)."""
    if what == POST:
        return parent_for(role, relation, COMMENT, state)
    return node_for(what, COMMENT, state, role, relation)


def drawn_by_matrix(cell: tuple[str, ...]) -> bool:
    """Whether the depth-1 matrices already send the combination on a node at its depth, in its relation."""
    what, role, relation, state, _option, depth = cell
    node = _matrix_node(what, role, relation, state)
    return node is not None and DEPTH.get(node.key) == int(depth) and fits(node_at(node.key), _caller(role),
                                                                           relation)


def _deep_node(cell: tuple[str, ...]) -> PoolNode | None:
    what, role, relation, state, _option, depth = cell
    caller = _caller(role)
    return next((n for n in comment_nodes(int(depth)) if n.state == state and fits(n, caller, relation)
                 and sees(n, caller)), None)


def cases() -> list[DeepCase]:
    """Every refused combination at a depth the depth-1 matrices do not send there and a pool node gives, once."""
    out = []
    for cell in refused_cells():
        if drawn_by_matrix(cell):
            continue
        node = _deep_node(cell)
        if node is not None:
            what, role, relation, state, option, depth = cell
            out.append(DeepCase(what, role, relation, state, option, int(depth), node.key))
    return out


def tried() -> set[tuple[str, ...]]:
    """The combinations a default run tries, by either matrix or by test_deep_refusals.py."""
    return {c for c in refused_cells() if drawn_by_matrix(c)} | {c.cell for c in cases()}



