"""pool26: a one-shot pool moves on to its next node within the run.

A CI build starts from a fresh checkout (no record beside the profile), so the doctor cannot tell whether a pooled
favorite is still one: the run tries the pool's first node it does not know consumed. Before this, when the owner's
call then met that node consumed (an earlier build's doing, never the target's failure), the run recorded it and
skipped the unfavorite rules, and so did every later fresh build: on a long-lived staging site the rules were never
checked again although the pool still held nodes. Now the run moves on to the pool's next node within the same run
(suites/one_shot_calls.py ``_owner_call``): the refused callers' calls (no accepted write on a conforming target)
are made again on it, then the owner's call. A wiki node is read first instead (a list shows ``wiki``): a node the
bounded read shows not wiki is passed over before any call (:func:`read_first`). Only a pool with no node left
skips, naming the pool and what to add to the profile.

The move is made on the run's one resolved profile and diagnosis (every fixture and test reads
``profile.fixtures.<name>`` and ``doctor_state`` from them), per worker: each xdist worker meets the same shared
response of the owner's call (suites/one_shot_calls.py ``once_per_target``) and so moves the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from qaconform.target.diagnosis import Diagnosis
from qaconform.target.profile import Profile

POOL_KINDS = ("favorite_node_id", "wiki_node_id", "member_wiki_node_id")
"""The one-shot fixtures a profile may give as a pool (docs/profile.md)."""

SPENT = "spent on the consumed node"
""":data:`MOVED`'s value for a call whose one accepted write went to the node met consumed (admin's unfavorite
first, accepted there): it is not made again on the next node (no accepted write more than the first node's)."""

MOVED: dict[str, Any] = {}
"""Per worker: the responses of the calls made again on the pool's next node, by the name of the session fixture
whose value they replace when that value cannot be updated in place (``admin_unfavorite_first``)."""


def pool_of(diagnosis: Diagnosis, name: str) -> tuple[int, ...]:
    shot = diagnosis.one_shots.get(name)
    return shot.pool if shot is not None else ()


def next_node(diagnosis: Diagnosis, name: str, met: int) -> int | None:
    """The pool's node after ``met`` not known consumed; None when the pool holds none (or is no pool)."""
    shot = diagnosis.one_shots.get(name)
    if shot is None or met not in shot.pool:
        return None
    return next((n for n in shot.pool[shot.pool.index(met) + 1:] if n not in shot.consumed and n != met), None)


def move_on(profile: Profile, diagnosis: Diagnosis, name: str, met: int, node: int) -> None:
    """This run takes ``node`` for ``name`` from now on, ``met`` consumed: in the diagnosis (what the doctor knew
    of ``node`` stays as it was: unknown, or in its state) and in the resolved profile every fixture reads."""
    shot = diagnosis.one_shots[name]
    left = [n for n in shot.pool if n not in shot.consumed and n != met]
    after = left[left.index(node) + 1:] if node in left else []
    diagnosis.one_shots[name] = dataclasses.replace(shot, chosen=node, consumed=(*shot.consumed, met),
                                                    left_after=len(after))
    # the profile is frozen and shared by every fixture of the session: the one object they all read is updated
    object.__setattr__(profile, "fixtures", profile.fixtures.model_copy(update={name: node}))


def exhausted(diagnosis: Diagnosis, name: str, met: int) -> str:
    """What a skip says when ``met`` was the pool's last node: the pool, and what to add to the profile."""
    pool = pool_of(diagnosis, name)
    if len(pool) <= 1:
        return ""
    return (f"; the pool {list(pool)} holds no node after it: add nodes in their state to [fixtures] {name} (a list "
            "is a pool: docs/profile.md)")


def read_first(profile: Profile, diagnosis: Diagnosis, name: str, node: int,
               wiki_now: Callable[[int], bool | None], consumed: Callable[[int], None]) -> int:
    """A wiki kind's node before any call on it, when the doctor could not tell its state: read (``wiki_now``:
    the bounded read the doctor makes) and, while the read shows it not wiki, pass it over (``consumed`` records
    it) for the pool's next node. A node no read shows is tried as before. Returns the node this run takes."""
    while True:
        shot = diagnosis.one_shots.get(name)
        if shot is None or node not in shot.unknown or wiki_now(node) is not False:
            return node
        following = next_node(diagnosis, name, node)
        if following is None:
            return node  # the owner's call then meets it, and skips naming the pool
        consumed(node)
        move_on(profile, diagnosis, name, node, following)
        node = following


def take(profile: Profile, diagnosis: Diagnosis, name: str, node: int) -> None:
    """Move this worker's run along ``name``'s pool until it takes ``node`` (what another worker's
    :func:`read_first` decided), each node passed over consumed."""
    shot = diagnosis.one_shots.get(name)
    while shot is not None and shot.chosen is not None and shot.chosen != node and node in shot.pool:
        following = next_node(diagnosis, name, shot.chosen)
        if following is None:
            return
        move_on(profile, diagnosis, name, shot.chosen, following)
        shot = diagnosis.one_shots.get(name)
