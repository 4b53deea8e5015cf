"""Walks of paged lists for the metamorphic relations (test_list_relations.py): every page of one list, as one
account, with one set of parameters, taken once per run and shared by every relation that compares with it.

A relation compares two walks that must list the same items. A list may change between two walks for reasons that
are no fault of the server: another test (or another xdist worker) wrote to it, or the target's lists lag a write.
So a disagreement between walks from the cache is never reported at once: the walks involved are taken again, one
right after the other, and only a disagreement that the fresh walks repeat is a violation (the fresh walks replace
the cached ones, so a list that changed once costs one retake, not one per comparison). A repeated disagreement
counts only when the fresh walks were steady: every page of each reported one totalCount, and its first page read
again right after the walks reports it still. On a target other tests (or xdist workers) write to while a relation
walks, a walk that is never steady is not judged (``Unsteady``): its relation reads "not checked" for that draw,
never failed for what the kit itself was writing.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from qaconform.invariants import not_an_envelope
from qaconform.target.client import ApiClient, ApiResponse, TargetError, TargetUnreachable

MAX_PAGES = 6
"""Pages one walk reads at most: a drawn page size is raised to ceil(totalCount / MAX_PAGES) when smaller."""
WALK_LIMIT = 400
"""Lists holding more items are not walked (a real site's question list may hold a million)."""

STEADY_TRIES = 3
"""Fresh takes of a disagreeing relation's walks before walks that never held still are given up as unsteady."""
FIRST_PAUSE_S = 0.05
"""The pause before a disagreement is walked again a second time; each later pause doubles, up to a second."""

Params = tuple[tuple[str, str], ...]
"""A walk's parameters other than page and pageSize, sorted (hashable, the cache key)."""


def params_of(**given: Any) -> Params:
    """The parameters that are not None, as strings, sorted: ``params_of(sort=None, spaceId=3)``."""
    return tuple(sorted((k, str(v).lower() if isinstance(v, bool) else str(v)) for k, v in given.items()
                        if v is not None))


@dataclass
class Walk:
    """Every page of one list as one account saw it: the pages' responses and bodies, in order."""

    role: str
    path: str
    params: Params
    size: int
    first_page: int
    pages: list[ApiResponse] = field(default_factory=list)
    bodies: list[dict[str, Any]] = field(default_factory=list)
    refused: ApiResponse | None = None
    """The first page that was not a 200 envelope (then ``pages`` ends before it)."""
    truncated: bool = False
    """The walk stopped at MAX_PAGES before the list's last page (it grew past what its page size was chosen for)."""

    @property
    def items(self) -> list[Any]:
        return [item for body in self.bodies for item in body["list"]]

    @property
    def ids(self) -> list[Any]:
        return [item_id(item) for item in self.items]

    @property
    def total(self) -> Any:
        return self.bodies[0].get("totalCount") if self.bodies else None

    def request(self) -> str:
        """The walk as one line: which list, as whom, with which parameters."""
        shown = urlencode([*self.params, ("pageSize", self.size)])
        return f"GET {self.path}?{shown} (every page from {self.first_page}) as {self.role}"

    def page_of(self, wanted: Any) -> ApiResponse:
        """The response of the page listing ``wanted`` (an id), else the first page."""
        for resp, body in zip(self.pages, self.bodies, strict=True):
            if any(item_id(i) == wanted for i in body["list"]):
                return resp
        return self.pages[0] if self.pages else self.refused  # type: ignore[return-value]

    def shown(self, wanted: Any = None) -> str:
        """The walk and the curl of the page that shows ``wanted`` (or of its first page), for a message."""
        resp = self.page_of(wanted)
        return f"{self.request()}\n  page {page_param(resp)}: {resp.describe()}"


def page_param(resp: ApiResponse) -> str:
    """The page number a response was asked for (from its URL)."""
    for part in resp.url.split("?", 1)[-1].split("&"):
        if part.startswith("page="):
            return part[5:]
    return "?"


def item_id(item: Any) -> Any:
    """An item's identity: its id; for a follower relation (details=true) the following user's id."""
    if not isinstance(item, dict):
        return repr(item)
    if "id" in item:
        return item["id"]
    user = item.get("user")
    return user.get("id") if isinstance(user, dict) else repr(sorted(item))


def walk(client: ApiClient, path: str, params: Params, size: int, first_page: int) -> Walk:
    """Every page from ``first_page`` on, until the envelope's pageCount or an empty page (at most MAX_PAGES)."""
    w = Walk(client.role, path, params, size, first_page)
    for n in range(MAX_PAGES):
        resp = client.get(path, params=[*params, ("page", first_page + n), ("pageSize", size)])
        body = resp.json() if resp.status == 200 else None
        if not isinstance(body, dict) or not_an_envelope(body) is not None:
            w.refused = resp
            return w
        w.pages.append(resp)
        w.bodies.append(body)
        count = body.get("pageCount")
        if not body["list"] or (isinstance(count, int) and n + 1 >= count):
            break
    else:
        w.truncated = True
    return w


@dataclass(frozen=True)
class Violation:
    """A relation that did not hold: the rules it breaks and the message (both requests, both curls)."""

    rules: tuple[str, ...]
    message: str
    response: ApiResponse | None


@dataclass(frozen=True)
class Unsteady:
    """A disagreement seen only on walks taken while their list changed (its totalCount moved during a walk or just
    after it): another test or worker was writing to it. Not a verdict on the target."""

    why: str


Check = Callable[..., Violation | None]


class Walks:
    """The run's walks, one per (account, list, parameters, page size), shared by every relation (session-wide)."""

    def __init__(self, api: dict[str, ApiClient], settle_s: float = 0.0) -> None:
        self.api = api
        self.settle_s = settle_s
        """How long a disagreement is walked again while the target's lists catch up with a write (profile
        ``settle_s``); at least one retake is made whatever it is."""
        self._cache: dict[tuple[str, str, Params, int], Walk] = {}
        self._broken: dict[tuple[str, str, Params, int], TargetError | TargetUnreachable] = {}
        """Walks the target answered with something the kit cannot use: every relation that needs one meets the
        same answer again (it is the target's, reported once per test) without sending the walk again (a 100 MB
        list or a hanging one would otherwise cost its time once per relation)."""
        self._first: dict[tuple[str, str, int], int] = {}
        self.moving_paths: set[str] = set()
        """Lists already found changing under the walks for a whole settle window (other tests or workers write to
        them, e.g. member's answers while the generated tests run): later disagreements on them get the quick retakes
        only, not the window again (waiting cannot make a list that is being written hold still; five relations on
        one such list waited 22 s each against a server that lags its lists)."""
        self.zero_based_paths: set[str] = set()
        """Paths whose first page may be 0 (the follower list: 'A follower list shows 0')."""

    def get(self, role: str, path: str, params: Params, size: int, fresh: bool = False) -> Walk:
        """The walk of ``path`` as ``role``; ``fresh``: take it again (and keep the new one)."""
        key = (role, path, params, size)
        if key in self._broken:
            raise self._broken[key].with_traceback(None)
        if fresh or key not in self._cache:
            client = self.api[role]
            try:
                self._cache[key] = walk(client, path, params, size, self.first_page(client, path, params, size))
            except (TargetError, TargetUnreachable) as exc:
                self._broken[key] = exc
                raise
        return self._cache[key]

    def first_page(self, client: ApiClient, path: str, params: Params, size: int) -> int:
        """1, or 0 for a follower list whose page 0 is not page 1 (its pages counted from 0): asked once per
        account, list and page size, with the page size of the walk (page 0 and page 1 of one item each could
        agree by chance on a list of one item)."""
        if path not in self.zero_based_paths:
            return 1
        key = (client.role, path, size)
        if key not in self._first:
            zero = client.get(path, params=[*params, ("page", 0), ("pageSize", size)])
            one = client.get(path, params=[*params, ("page", 1), ("pageSize", size)])
            ids = [_ids(r) for r in (zero, one)]
            self._first[key] = 0 if ids[0] and ids[0] != ids[1] else 1
        return self._first[key]

    def confirmed(self, check: Check, *walks: Walk) -> Violation | Unsteady | None:
        """``check(*walks)``, and when it finds a violation, ``check`` again on the same walks taken afresh one
        after the other: only a violation steady fresh walks repeat counts (see the module docstring). Walks that
        changed are taken again, with growing pauses, for the settle window (once per list: see ``moving_paths``) and
        at least STEADY_TRIES times."""
        found = check(*walks)
        if found is None:
            return None
        paths = {w.path for w in walks}
        window = 0.0 if paths & self.moving_paths else self.settle_s
        deadline, pause, tries = time.monotonic() + window, FIRST_PAUSE_S, 0
        while True:
            fresh = [self.get(w.role, w.path, w.params, w.size, fresh=True) for w in walks]
            found = check(*fresh)
            if found is None:
                return None
            tries += 1
            moving = self.unsteady_list(*fresh)
            if moving is None:
                return found  # the lists held still and still disagree: waiting would not change them
            if time.monotonic() >= deadline and tries >= STEADY_TRIES:
                self.moving_paths |= paths
                return Unsteady(f"{moving} changed during each of {tries} walks (another test or worker wrote to it "
                                "meanwhile)")
            time.sleep(pause)
            pause = min(pause * 2, 1.0)

    def unsteady_list(self, *walks: Walk) -> str | None:
        """The request of a walk whose list changed while the relation looked at it, else None: its pages disagree
        on totalCount, it grew past the pages a walk reads at its page size, or the same walk taken once more shows
        another totalCount or other values for an item both takes list (another answer made a question active, a
        new comment moved a count). Only the order may differ between the takes: a server that orders ties anew on
        every request changes no value, and stays judged."""
        for w in walks:
            totals = {repr(body.get("totalCount")) for body in w.bodies}
            if len(totals) > 1 or w.truncated:
                return w.request()
            if w.refused is not None or not w.bodies:
                continue
            again = walk(self.api[w.role], w.path, w.params, w.size, w.first_page)
            if again.refused is not None or {repr(b.get("totalCount")) for b in again.bodies} != totals \
                    or _values_moved(w, again):
                return w.request()
        return None


def _values_moved(one: Walk, other: Walk) -> bool:
    """Whether an item both walks list has other values in one than in the other."""
    def by_id(w: Walk) -> dict[Any, str]:
        return {item_id(i): json.dumps(i, sort_keys=True, default=str) for i in w.items}

    mine, theirs = by_id(one), by_id(other)
    return any(theirs[k] != v for k, v in mine.items() if k in theirs)


def _ids(resp: ApiResponse) -> list[Any]:
    if resp.status != 200:
        return []
    body = resp.json()
    return [item_id(i) for i in body["list"]] if not_an_envelope(body) is None else []


def effective_size(drawn: int, total: Any) -> int:
    """The drawn page size, raised so that a walk of ``total`` items takes at most MAX_PAGES pages."""
    if not isinstance(total, int) or total <= 0:
        return drawn
    return max(drawn, math.ceil(total / MAX_PAGES))


def duplicates(ids: list[Any]) -> list[Any]:
    seen: set[Any] = set()
    twice = []
    for i in ids:
        if i in seen and i not in twice:
            twice.append(i)
        seen.add(repr(i) if isinstance(i, (dict, list)) else i)
    return twice
