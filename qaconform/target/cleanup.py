"""Removing what a run created, with the site's delete action the profile names ([cleanup]).

The description's 19 operations delete nothing, but real sites of this product delete a node with a PUT on it (verb
"deleted"). When the profile names that action, ``qaconform run`` removes the answers and comments it created
(report.json's ``created``) at its end, and ``qaconform cleanup RUN_DIR`` does the same later; both record per item
what happened, so the report says what was removed and what was left behind (and why).

Order: answers first. Deleting an answer removes its comments on this product (the reference server does too), so a
comment the run posted under an answer it removed costs no call of its own ("removed with its answer"); only the
other comments are deleted one by one. A comment's parent is read from the URL the run posted it to (the entry's
``url``); a comment whose parent is unknown is deleted on its own. ``[cleanup] cascades = false`` (a site that keeps
an answer's comments) deletes every comment on its own, before the answers.

Every call goes through :class:`ApiClient` (the profile's politeness limits, redacted exchanges); the loop is bounded
by the number of items and by a deadline. Deletes that do not wait for another go together
(:mod:`qaconform.target.fanout`: at most the process's share of ``max_concurrency`` at once, one at a time with 1):
an item waits for every item of the group before its own (answers, then comments; comments first without cascades)
and for the item it was posted under when that is an earlier item (a comment under an answer: removed with it, or
deleted once the answer is known not to be gone), so every item ends as it would one after another, and the record
lists the items in the order created, whichever answer came first. A node already gone (404 or 410) is "already
gone", not an error, so a second cleanup of the same run is harmless.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from qaconform.target import fanout
from qaconform.target.client import ApiClient, ApiResponse, Recorder, TargetError, TargetUnreachable
from qaconform.target.politeness import MARGIN_S, WINDOW_S
from qaconform.target.profile import Cleanup, Profile

REMOVABLE = ("answer", "comment")
"""What the delete action removes: nodes. A data-protection job or anything else a run created stays."""

REMOVED, WITH_PARENT, ALREADY_GONE, LEFT = "removed", "removed with its answer", "already gone", "left behind"
"""The status of one item after a cleanup."""
KEPT = "kept: a failing test's request names it, so its curl replays"
"""The start of the why of a node the run's cleanup kept for a failed test (``commands.cleanup.named_by_failures``)."""

GONE = (REMOVED, WITH_PARENT, ALREADY_GONE)
"""Statuses of items no longer on the target."""

DEADLINE_S = 300.0
"""A cleanup stops sending after this long; what it did not reach is left behind, saying so."""

_PARENT = re.compile(r"/node/(\d+)/comment\.json(?:$|\?)")


@dataclass
class Item:
    """One created object and what the cleanup did with it."""

    kind: str
    id: Any
    by: str | None
    parent: int | None = None
    status: str = LEFT
    http: int | None = None
    why: str | None = None

    def as_dict(self) -> dict[str, Any]:
        out = {"kind": self.kind, "id": self.id, "by": self.by, "status": self.status}
        if self.http is not None:
            out["http"] = self.http
        if self.why:
            out["why"] = self.why
        return out


@dataclass
class Outcome:
    """A cleanup's record: report.json ``cleanup`` and ``cleanup.json`` of ``qaconform cleanup``."""

    operation: str | None
    account: str | None
    items: list[Item] = field(default_factory=list)
    calls: int = 0
    seconds: float = 0.0
    skipped: str | None = None
    """Why nothing was tried (no [cleanup] in the profile, --no-cleanup), or None."""

    def count(self, *statuses: str) -> int:
        return sum(1 for i in self.items if i.status in statuses)

    def as_dict(self) -> dict[str, Any]:
        return {"operation": self.operation, "account": self.account, "skipped": self.skipped,
                "created": len(self.items), "removed": self.count(REMOVED, WITH_PARENT),
                "already_gone": self.count(ALREADY_GONE), "left_behind": self.count(LEFT),
                "calls": self.calls, "seconds": round(self.seconds, 2), "items": [i.as_dict() for i in self.items]}


def items_of(created: Iterable[Any]) -> list[Item]:
    """One item per created object (kind, id), in the order created; the parent of a comment from its post URL."""
    seen: set[tuple[str, str]] = set()
    out: list[Item] = []
    for c in created:
        if not isinstance(c, Mapping):
            continue
        kind, cid = str(c.get("kind") or "content"), c.get("id")
        key = (kind, str(cid))
        if key in seen:
            continue
        seen.add(key)
        match = _PARENT.search(str(c.get("url") or "")) if kind == "comment" else None
        parent = int(match.group(1)) if match else node_id(c.get("parent")) if kind == "comment" else None
        by = c.get("by", c.get("role"))  # a load run's record names the account "role"
        out.append(Item(kind, cid, None if by is None else str(by), parent=parent))
    return out


def node_id(value: Any) -> int | None:
    """The node id of a created entry (an int, or digits as a string: some sites send ids as strings)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value > 0 else None
    if isinstance(value, str) and value.strip().isdecimal():
        return int(value.strip())
    return None


def skipped(created: Iterable[Any], why: str) -> Outcome:
    """The record of a cleanup that was not tried: everything the run created is left behind, with ``why``."""
    items = items_of(created)
    for i in items:
        i.why = why
    return Outcome(operation=None, account=None, items=items, skipped=why)


def remove_created(profile: Profile, created: Iterable[Any], *, deadline_s: float = DEADLINE_S,
                   clients: Mapping[str, ApiClient] | None = None) -> Outcome:
    """Delete what ``created`` lists with the profile's [cleanup] action; every item ends with a status."""
    spec = profile.cleanup
    if spec is None:
        return skipped(created, "the profile names no delete action ([cleanup]); see docs/profile.md#cleanup")
    started = time.monotonic()
    outcome = Outcome(operation=f"{spec.method} {spec.path}", account=spec.account, items=items_of(created))
    if outcome.items and profile.safety.max_rps is not None:
        # The suites' processes may have spent the whole max_rps of the last second, and this process's limiter
        # cannot know it (measured: 4 requests of a worker's last test, then 7 deletes within one second, 11 > 10).
        time.sleep(WINDOW_S + MARGIN_S)
    clients = dict(clients) if clients is not None else _clients(profile)
    try:
        _Remover(profile, spec, outcome, clients, started + deadline_s).run()
    finally:
        outcome.seconds = time.monotonic() - started
    return outcome


def _clients(profile: Profile) -> dict[str, ApiClient]:
    rec = Recorder(secrets=set(profile.passwords()), keep=0)
    return {role: ApiClient(profile, role, a.username, a.password, rec, user_id=a.id)
            for role, a in profile.accounts.items()}


class _Remover:
    """One pass over the items: answers, then the comments not removed with them (or comments first when the site
    does not cascade), each deleted at most once."""

    def __init__(self, profile: Profile, spec: Cleanup, outcome: Outcome, clients: Mapping[str, ApiClient],
                 deadline: float) -> None:
        self.profile, self.spec, self.outcome, self.clients, self.deadline = profile, spec, outcome, clients, deadline
        self.stopped: str | None = None

    def run(self) -> None:
        items = self.outcome.items
        for i in items:
            if i.kind not in REMOVABLE:
                i.why = f"a {i.kind}: the site's delete action removes answers and comments only"
            elif node_id(i.id) is None:
                i.why = f"no node id was recorded for it ({i.id!r})"
        answers = [i for i in items if i.kind == "answer" and node_id(i.id) is not None]
        comments = [i for i in items if i.kind == "comment" and node_id(i.id) is not None]
        groups = [answers, comments] if self.spec.cascades else [comments, answers]
        order = [*groups[0], *groups[1]]
        group_of = [0] * len(groups[0]) + [1] * len(groups[1])
        # the earlier item each item was posted under (the last one of that node id, as a dict of ids would keep)
        under: list[int | None] = []
        position: dict[int, int] = {}
        for at, item in enumerate(order):
            under.append(position.get(item.parent) if item.parent is not None else None)
            position[_nid(item)] = at
        resolved = [False] * len(order)
        at_once = fanout.width(self.profile)
        for _ in range(len(order) + 1):  # each wave resolves at least one item
            pending = [at for at in range(len(order)) if not resolved[at]]
            if not pending:
                return
            group = group_of[pending[0]]  # a group starts once every item of the group before it is resolved
            ready = [at for at in pending if group_of[at] == group and _resolved(under[at], resolved)]
            sends = []
            for at in ready:
                item, parent_at = order[at], under[at]
                parent = order[parent_at] if parent_at is not None else None
                if self.spec.cascades and item.kind == "comment" and parent is not None and parent.status in GONE:
                    # under a node this cleanup removed: removed with it; under one already gone: already gone too
                    item.status = WITH_PARENT if parent.status != ALREADY_GONE else ALREADY_GONE
                    item.why = f"its parent {item.parent} was removed" if parent.status != ALREADY_GONE else None
                    continue
                send = self._prepare(item, _nid(item))
                if send is not None:
                    sends.append(send)
            fanout.gather(sends, at_once)
            for at in ready:
                resolved[at] = True

    def _client(self, item: Item) -> ApiClient | None:
        role = item.by if self.spec.account == "author" else self.spec.account
        client = self.clients.get(role or "")
        if client is None:
            item.why = (f"created by {role!r}, an account the profile does not have; set [cleanup] account = "
                        '"admin" to remove it')
        return client

    def _prepare(self, item: Item, nid: int) -> Callable[[], None] | None:
        """The delete of one item, to be sent (None: not sent, ``item.why`` says why)."""
        if self.stopped is None and time.monotonic() > self.deadline:
            self.stopped = "not tried: the cleanup ran out of time; run `qaconform cleanup RUN_DIR` to finish"
        if self.stopped is not None:
            item.why = self.stopped
            return None
        client = self._client(item)
        if client is None:
            return None
        self.outcome.calls += 1
        return partial(self._delete, client, item, self.profile.base_url + self.spec.path.replace("{id}", str(nid)))

    def _delete(self, client: ApiClient, item: Item, url: str) -> None:
        try:
            resp = client.request(self.spec.method, url, operation="cleanup")
        except (TargetError, TargetUnreachable) as exc:
            item.why = f"no answer: {exc}"[:300]
            if client.recorder.holding_back():
                self.stopped = "not tried: the target stopped answering during the cleanup"
            return
        judge(item, resp)


def _resolved(at: int | None, resolved: list[bool]) -> bool:
    """Whether the item at ``at`` (None: no earlier item) has its status."""
    return at is None or resolved[at]


def _nid(item: Item) -> int:
    nid = node_id(item.id)
    assert nid is not None  # only items with a node id are ordered
    return nid


def judge(item: Item, resp: ApiResponse) -> None:
    """The item's status from the delete action's answer."""
    item.http = resp.status_code
    if resp.status_code in (404, 410):
        item.status, item.why = ALREADY_GONE, None
    elif 200 <= resp.status_code < 300 and _success(resp) is not False:
        item.status, item.why = REMOVED, None
    elif 200 <= resp.status_code < 300:
        item.why = "the site answered success: false"
    elif resp.status_code in (401, 403):
        item.why = f"refused ({resp.status_code}): the cleanup account may not delete it; see [cleanup] account"
    else:
        item.why = f"the site answered {resp.status_code}: {resp.text[:160]}"


def _success(resp: ApiResponse) -> bool | None:
    try:
        body = resp.json()
    except Exception:  # noqa: BLE001 - a body that is not JSON says nothing about success
        return None
    value = body.get("success") if isinstance(body, dict) else None
    return value if isinstance(value, bool) else None


def summary_line(record: Mapping[str, Any]) -> str:
    """The one terminal line of a cleanup record (``Outcome.as_dict``)."""
    created, removed = int(record.get("created") or 0), int(record.get("removed") or 0)
    gone, left = int(record.get("already_gone") or 0), int(record.get("left_behind") or 0)
    if not created:
        return "cleanup: the run created nothing on the target"
    if record.get("skipped"):
        what = f"{left} created item{'s' if left != 1 else ''}" + _kinds(record, LEFT)
        return f"cleanup: {record['skipped']}; left behind: {what}"
    line = f"cleanup: removed {removed} of {created} created item{'s' if created != 1 else ''}"
    if gone:
        line += f" ({gone} already gone)"
    if left:
        line += f"; left behind: {left}{_kinds(record, LEFT)}, see report.json cleanup.items"
    kept = [i for i in record.get("items") or [] if isinstance(i, Mapping) and str(i.get("why")).startswith(KEPT)]
    if kept:  # the page shows this line too: say why a green cleanup left nodes, and how to remove them later
        kinds = Counter(str(i.get("kind")) for i in kept)
        line += (f"; kept for the failing tests' curls: {len(kept)} ("
                 + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) + ")"
                 + str(kept[0].get("why")).removeprefix(KEPT).replace("; ", ", ", 1) + " removes them once reproduced")
    return line


def _kinds(record: Mapping[str, Any], status: str) -> str:
    kinds: dict[str, int] = {}
    for i in record.get("items") or []:
        if isinstance(i, Mapping) and i.get("status") == status:
            kinds[str(i.get("kind"))] = kinds.get(str(i.get("kind")), 0) + 1
    return " (" + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) + ")" if kinds else ""
