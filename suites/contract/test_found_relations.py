"""Every role in every relation refused where the permission table refuses it, on nodes the accounts wrote, found with
reads (histories6, issue 44 item 2).

The action matrix places its calls on the run's own writes; a cell it cannot place is named unreachable in
spec/dimensions.yaml, and a server that grants a refused call only there passes: novice locking its own PUBLISHED
answer (the run's answers of novice's go to moderation), member sending to moderation or locking an answer or a
comment of another's under a question it did not write. The target holds such nodes, written by the accounts before
the run; found_relations.py finds them with reads, and every (action, role, relation, kind) the table refuses is
tried on the first found node in that relation: one request each, nothing written on a conforming target.

Judged, per cell: the call is refused (any 4xx of the interface: a found node's lock or moderation is not shown, so
a refusal for its state may come first; PERM-DENIED-STATUS for a 5xx or an answer from outside the interface), and
the node is unchanged after (PERM-DENIED-NO-EFFECT): every account (anonymous too) reads the list that shows it
(its author's question or answer list, its answer's comment list) before the first call and after the last, and
sees it listed as before with the same fields (found_relations.STABLE). A cell with no found node in its relation
skips, saying so (never a failure: the target need not hold one).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import pytest
from action_cases import LOCK
from found_relations import CELLS, PAGE_SIZE, PAGES, ROLES, Cell, Found, also_placed, find, last_page, placed, stable

from qaconform.contract import path as contract_path
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.refusals import off_the_interface, why_not_refused
from qaconform.pytest.support import MARKUP_TEXT, find_item, refused_in_body, settle
from qaconform.target import fanout
from qaconform.target.client import ApiClient, ApiResponse, TargetError
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.actions, pytest.mark.writes]

UNREAD = "unread"
"""A reader whose read of the list was no 200 (not judged for that reader)."""


@dataclass
class FoundScene:
    """The found nodes, the node each cell acted on, every call's response, and each node as every account read it
    before the first call and after the last."""

    found: list[Found]
    nodes: dict[Cell, Found] = field(default_factory=dict)
    calls: dict[Cell, ApiResponse] = field(default_factory=dict)
    also: dict[Cell, list[tuple[Found, ApiResponse]]] = field(default_factory=dict)
    """closeb: the other found wiki nodes an unwikify cell tried (found_relations.also_placed), and their answers."""
    before: dict[tuple[int, str], Any] = field(default_factory=dict)
    after: dict[tuple[int, str], Any] = field(default_factory=dict)


def _seen(client: ApiClient, node: Found) -> Any:
    """The node as ``client`` finds it in the list that shows it (its stable fields), None when the whole list was
    read and does not show it, :data:`UNREAD` when a read is no 200 or the list is longer than the pages read (not
    "no longer listed": on a site capping pageSize, or after many builds, the node may sit further down)."""
    read = 0
    for page in range(1, PAGES + 1):
        resp = client.get(node.list_path, params={"page": page, "pageSize": PAGE_SIZE},
                          operation=node.list_operation)
        try:
            body = resp.json() if resp.status == 200 else None
        except TargetError:
            body = None
        items = body.get("list") if isinstance(body, dict) else None
        if not isinstance(items, list):
            return UNREAD
        hit = find_item([i for i in items if isinstance(i, dict)], node.id)
        if hit is not None:
            return stable(hit)
        read += len(items)
        if last_page(resp, items, read):
            return None
    return UNREAD


def _seen_in(client: ApiClient, nodes: list[Found]) -> dict[int, Any]:
    """Each of ``nodes``, all shown by one list, as :func:`_seen` finds it, that list read once for all of them (its
    pages in order, up to the one the last of them needs): what reading it again for each node would show, without
    the repeats (speed17: a list showing several found nodes was read again for each of them, by every account)."""
    seen: dict[int, Any] = {}
    read = 0
    for page in range(1, PAGES + 1):
        resp = client.get(nodes[0].list_path, params={"page": page, "pageSize": PAGE_SIZE},
                          operation=nodes[0].list_operation)
        try:
            body = resp.json() if resp.status == 200 else None
        except TargetError:
            body = None
        items = body.get("list") if isinstance(body, dict) else None
        if not isinstance(items, list):
            return {n.id: seen[n.id] if n.id in seen else UNREAD for n in nodes}
        listed = [i for i in items if isinstance(i, dict)]
        for n in nodes:
            if n.id not in seen and (hit := find_item(listed, n.id)) is not None:
                seen[n.id] = stable(hit)
        if len(seen) == len(nodes):
            return seen
        read += len(items)
        if last_page(resp, items, read):
            return {n.id: seen.get(n.id) for n in nodes}
    return {n.id: seen[n.id] if n.id in seen else UNREAD for n in nodes}


def _read_all(api: dict[str, ApiClient], nodes: list[Found], at_once: int) -> dict[tuple[int, str], Any]:
    """Every node as every account reads it: each list that shows some of them read once per account, and those reads
    a few at once (``fanout.width``; none of them writes, and nothing else is sent meanwhile)."""
    lists: dict[tuple[str, str], list[Found]] = {}
    for n in nodes:
        lists.setdefault((n.list_path, n.list_operation), []).append(n)
    reads = [(role, shown) for shown in lists.values() for role in ROLES]
    seen = fanout.gather([functools.partial(_seen_in, api[role], shown) for role, shown in reads], at_once)
    return {(n.id, role): got[n.id] for (role, shown), got in zip(reads, seen, strict=True) for n in shown}


@pytest.fixture(scope="module")
def found_scene(api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int], run_tag: str) -> FoundScene:
    """Find the nodes, read them, make every refused call once, read them again (one worker: parallel.GROUPS
    "found-relations")."""
    at_once = fanout.width(profile)
    scene = FoundScene(find(api, profile, user_ids, at_once))
    scene.nodes = {c: n for c in CELLS if (n := placed(c, scene.found)) is not None}
    more = {c: got for c in CELLS if (got := also_placed(c, scene.found))}
    nodes = list({n.id: n for n in [*scene.nodes.values(), *(n for ns in more.values() for n in ns)]}.values())
    scene.before = _read_all(api, nodes, at_once)
    prompt = f"found relations lock: {MARKUP_TEXT} [{run_tag}]"
    for cell, node in scene.nodes.items():
        params = {"prompt": prompt} if cell.action == LOCK else None
        scene.calls[cell] = api[cell.role].put(contract_path(cell.action, nodeId=node.id), params=params,
                                               operation=cell.action)
    for cell, ns in more.items():  # closeb: after every placed call, so that those meet what they met before
        scene.also[cell] = [(n, api[cell.role].put(contract_path(cell.action, nodeId=n.id), operation=cell.action))
                            for n in ns]
    scene.after = _read_all(api, nodes, at_once)
    return scene


def _tried(scene: FoundScene, cell: Cell) -> list[tuple[Found, ApiResponse]]:
    """The nodes the cell's call was made on and their answers: the node it is placed on, then (closeb, unwikify
    cells) the other found wiki nodes in its relation; a skip naming what was found when there is none."""
    tried = ([(scene.nodes[cell], scene.calls[cell])] if cell in scene.nodes else []) + scene.also.get(cell, [])
    if not tried:
        kinds = sorted({f"{n.kind} {n.id}" for n in scene.found})
        skip(SkipKind.OTHER, f"not judged: no node the accounts wrote, found with reads, is {_in_words(cell)} "
                             f"(found: {', '.join(kinds) or 'none'})")
    return tried


def _calls_on(scene: FoundScene, node: Found) -> list[tuple[Cell, ApiResponse]]:
    """Every call made on ``node``, placed or tried besides (closeb)."""
    return [(c, r) for c, r in scene.calls.items() if scene.nodes[c].id == node.id] + [
        (c, r) for c, tried in scene.also.items() for n, r in tried if n.id == node.id]


def _in_words(cell: Cell) -> str:
    """The node a cell needs, as a site's admin would look for it ("a comment under a question novice wrote"), not
    the relation's identifier ("parent_author of a comment", user11)."""
    a, who = f"{'an' if cell.kind[:1] in 'aeiou' else 'a'} {cell.kind}", cell.role
    above = "a question" if cell.kind == "answer" else "a node and a question"
    parent = "comment" if cell.kind == "reply" else "node"
    return {"author": f"{a} {who} wrote", "parent_author": f"{a} under a {parent} {who} wrote",
            "question_author": f"{a} under a question {who} wrote",
            "none": f"{a} {who} did not write, under {above} {who} did not write",
            "commenter": f"{a} {who} did not write, with a public comment of {who}'s under it",
            "answerer": f"{a} {who} did not write, with an answer of {who}'s under it"
                        + (" (a community wiki one: an unwikify of any other is refused by its state)"
                           if cell.action == "cancelWiki" else "")}.get(
        cell.relation, f"{a} to which {who} stands as {cell.relation}")


def _what(cell: Cell, node: Found) -> str:
    return (f"{cell.label}: {cell.role} calls {cell.action} on {cell.kind} {node.id} (written by {node.author}, before "
            f"the run, found with reads), standing to it as {cell.relation}")


@pytest.mark.parametrize("cell", [pytest.param(c, id=c.label, marks=[
    pytest.mark.rule(c.rule, "PERM-DENIED-STATUS"),  # cross17: a 5xx or an off-interface answer names it
    pytest.mark.cell("found_relations", action=c.action, role=c.role, relation=c.relation, kind=c.kind)])
    for c in CELLS])
def test_a_refused_action_is_refused_on_found_nodes_in_every_relation(cell: Cell, found_scene: FoundScene) -> None:
    """The permission table refuses this call whatever node it is placed on; a node's lock or moderation state is
    not shown, so any 4xx of the interface is a refusal."""
    for node, resp in _tried(found_scene, cell):
        why = why_not_refused(resp)
        if why is None:
            continue
        rule = "PERM-DENIED-STATUS" if off_the_interface(resp) or resp.status >= 500 or refused_in_body(resp) \
            else cell.rule
        fail([rule], f"{_what(cell, node)}; the permission table refuses it (\"for the caller's own node\" is the "
                     f"node acted on), expected a 4xx, {why}", resp)


@pytest.mark.parametrize("cell", [pytest.param(c, id=c.label, marks=pytest.mark.rule("PERM-DENIED-NO-EFFECT"))
                                  for c in CELLS])
def test_a_found_node_is_unchanged_after_refused_actions(cell: Cell, found_scene: FoundScene,
                                                          api: dict[str, ApiClient]) -> None:
    """"Every operation requires the permissions below": a refused call changes nothing, so every account reads the
    node acted on as it read it before the first call (listed or not, the same fields)."""
    tried = _tried(found_scene, cell)
    judged = [(n, r) for n, r in tried
              if not any(200 <= c.status < 300 and not refused_in_body(c) for _, c in _calls_on(found_scene, n))]
    if not judged:
        skip(SkipKind.OTHER, f"not judged: a call on {cell.kind} {tried[0][0].id} was let in (its permission test "
                             f"fails for it), so what it changed is not a refused call's")
    if not any([_unchanged(found_scene, cell, node, resp, api) for node, resp in judged]):
        node = judged[0][0]
        skip(SkipKind.OTHER, f"not judged: no account's read of {node.list_path} reached {cell.kind} {node.id} or the "
                             f"list's end within {PAGES} pages, before and after the calls (a long list, e.g. after "
                             f"many builds)")


def _unchanged(found_scene: FoundScene, cell: Cell, node: Found, resp: ApiResponse,
               api: dict[str, ApiClient]) -> bool:
    """Fail PERM-DENIED-NO-EFFECT when a reader sees ``node`` changed; whether any reader's reads judged it."""
    on_node = _calls_on(found_scene, node)
    unread = [role for role in ROLES if UNREAD in (found_scene.before[(node.id, role)],
                                                   found_scene.after[(node.id, role)])]
    if len(unread) == len(ROLES):
        return False
    for role in ROLES:
        before = found_scene.before[(node.id, role)]
        after = found_scene.after[(node.id, role)]
        if role in unread or before == after:
            continue
        if before is not None and after is None:  # what must still be listed waits for a lagging list
            after = settle(api[role], f"{node.list_path} as {role}, looking for {node.id}",
                           functools.partial(_seen, api[role], node), lambda got: got is not None)
            if after in (before, UNREAD):
                continue
        calls = ", ".join(f"{c.action} by {c.role} ({r.status})" for c, r in on_node)
        shown = "no longer listed" if after is None else (
            "listed now" if before is None else f"listed with {after}, not {before}")
        read = api[role].get(node.list_path, params={"page": 1, "pageSize": PAGE_SIZE}, operation=node.list_operation)
        fail(["PERM-DENIED-NO-EFFECT"], f"{_what(cell, node)}. Every call on it was refused ({calls}), yet {role}'s "
             f"read of {node.list_path} shows it {shown}: a refused call changes nothing. The read, to replay after "
             f"the call below (page=2, 3 ... until {node.id} or the list's end): {read.curl}", resp)
    return True
