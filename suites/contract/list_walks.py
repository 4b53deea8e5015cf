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

import functools
import json
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from qaconform.invariants import not_an_envelope
from qaconform.target import fanout
from qaconform.target.client import ApiClient, ApiResponse, TargetError, TargetUnreachable
from qaconform.target.politeness import PACE

MAX_PAGES = 6
"""Pages one walk reads at most (besides the last page of a window): a drawn page size is raised to
ceil(totalCount / MAX_PAGES) when smaller, so that a short list is walked whole."""
WINDOW = 120
"""Items a walk of a longer list reads: its first pages up to about this many items (a *window*), then its last
page. So a walk costs the same on a target whose lists the kit's earlier runs grew, or that holds a million
questions, as on a fresh one. What a window can show: no item twice, one totalCount on every page, every page
before the last full and the last holding the rest (the count arithmetic of a partition), and, compared with a
window of the same list in the same order, the same first items (page size splits the items, it does not choose
or reorder them)."""

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
    window: bool = False
    """The list was longer than WINDOW (or than MAX_PAGES pages at this size): ``pages`` are its first pages only,
    and ``tail`` its last page (when it has one after them)."""
    tail: ApiResponse | None = None
    tail_body: dict[str, Any] | None = None
    last_page: int | None = None
    """The number of the list's last page at this size (from totalCount), for a window."""
    before: str | None = None
    """round88 (issue 44): the account whose read of page N-1 of the same request came right before each page N after
    the first (a walk page by page): a server that keeps where a page ended by its URL, not by its reader, starts the
    next page where ANOTHER account's page ended."""

    @property
    def served_size(self) -> int:
        """The page size the pages hold: the one asked for, or the smaller one the first page reports (a site that
        caps pageSize without the profile saying so splits the list at its cap)."""
        echo = self.bodies[0].get("pageSize") if self.bodies else None
        ok = isinstance(echo, int) and not isinstance(echo, bool) and 1 <= echo <= self.size
        return echo if ok else self.size  # type: ignore[return-value]

    @property
    def complete(self) -> bool:
        """Every page of the list was read: its items are the whole list."""
        return not self.window and not self.truncated and self.refused is None

    @property
    def items(self) -> list[Any]:
        """The items of the pages read in order (a window's first pages; never its tail)."""
        return [item for body in self.bodies for item in body["list"]]

    @property
    def tail_ids(self) -> list[Any]:
        return [item_id(i) for i in self.tail_body["list"]] if self.tail_body is not None else []

    @property
    def all_bodies(self) -> list[dict[str, Any]]:
        """Every body read, the tail's last."""
        return [*self.bodies, *([self.tail_body] if self.tail_body is not None else [])]

    @property
    def all_pages(self) -> list[ApiResponse]:
        return [*self.pages, *([self.tail] if self.tail is not None else [])]

    @property
    def ids(self) -> list[Any]:
        return [item_id(item) for item in self.items]

    @property
    def total(self) -> Any:
        return self.bodies[0].get("totalCount") if self.bodies else None

    def request(self) -> str:
        """The walk as one line: which list, as whom, with which parameters."""
        shown = urlencode([*self.params, ("pageSize", self.size)])
        if self.before is not None:
            shown += f"; each page after the first read right after {self.before}'s read of the page before"
        if self.window:
            last = self.first_page + len(self.pages) - 1
            also = f" and its last page {self.last_page}" if self.tail is not None else ""
            return (f"GET {self.path}?{shown} (pages {self.first_page}-{last} of a list of {self.total} items{also}) "
                    f"as {self.role}")
        return f"GET {self.path}?{shown} (every page from {self.first_page}) as {self.role}"

    def page_of(self, wanted: Any) -> ApiResponse:
        """The response of the page listing ``wanted`` (an id), else the first page."""
        for resp, body in zip(self.all_pages, self.all_bodies, strict=True):
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


def window_pages(size: int, total: Any) -> int | None:
    """How many first pages a walk at ``size`` reads of a list of ``total`` items when it cannot read them all
    (more than WINDOW items, or more than MAX_PAGES pages at this size); None: it reads every page."""
    if not isinstance(total, int) or isinstance(total, bool) or size < 1:
        return None
    if total <= WINDOW and math.ceil(total / size) <= MAX_PAGES:
        return None
    return max(1, min(MAX_PAGES, math.ceil(WINDOW / size)))


def walk(client: ApiClient, path: str, params: Params, size: int, first_page: int, at_once: int = 1,
         known: dict[int, ApiResponse] | None = None, before: ApiClient | None = None) -> Walk:
    """Every page from ``first_page`` on, until the envelope's pageCount or an empty page (at most MAX_PAGES); of a
    list longer than its first page's totalCount lets a walk read whole (``window_pages``), the first pages of the
    window and then the last page (its number from totalCount and the page size asked).

    With ``at_once`` above 1 the pages after the first are asked together once the first has said how many there
    are (and a window's last page with them), at most ``at_once`` at a time: against a target 25 ms away a walk of
    six pages takes two round trips instead of six. They are read in page order all the same, so the walk is the
    one a page-by-page walk makes of the same answers (it stops where that one stops; pages asked beyond an empty
    page or a refused one are not read). ``known``: pages read just before by the caller with the same requests
    (``Walks.first_page``'s probe), by their place in the walk (0: its first page), so that none is asked twice.
    ``before``: another account that reads page N-1 right before each page N after the first (round88: the walk goes
    page by page then, none asked ahead or known)."""
    w = Walk(client.role, path, params, size, first_page, before=None if before is None else before.role)
    if before is not None:
        at_once, known = 1, None
    limit: int | None = None
    ahead: dict[int, ApiResponse | Exception] = {}
    known = dict(known or {})
    for n in range(MAX_PAGES):
        if before is not None and n > 0:
            _page(before, w, first_page + n - 1)
        resp = _taken(ahead.pop(n)) if n in ahead else known.pop(n) if n in known else _page(client, w, first_page + n)
        body = resp.json() if resp.status == 200 else None
        if not isinstance(body, dict) or not_an_envelope(body) is not None:
            w.refused = resp
            return w
        w.pages.append(resp)
        w.bodies.append(body)
        count = body.get("pageCount")
        if n == 0:
            limit = window_pages(size, body.get("totalCount"))
            if body["list"] and at_once > 1:
                ahead = _read_ahead(client, w, _pages_after_first(count, limit), limit, at_once, set(known))
        if not body["list"] or (isinstance(count, int) and n + 1 >= count):
            break
        if limit is not None and n + 1 >= limit:
            _read_tail(client, w, ahead.pop(-1, None))
            break
    else:
        w.truncated = True
    return w


def _page(client: ApiClient, w: Walk, number: int) -> ApiResponse:
    return client.get(w.path, params=[*w.params, ("page", number), ("pageSize", w.size)])


def _taken(got: ApiResponse | Exception) -> ApiResponse:
    """A page asked ahead: its response, or the exception asking it raised, raised where the walk reads it (as a
    page-by-page walk would have raised it there, and only if it gets there)."""
    if isinstance(got, Exception):
        raise got.with_traceback(None)
    return got


def _pages_after_first(count: Any, limit: int | None) -> int:
    """How many pages after the first a walk reads when no page stops it early: up to the first page's pageCount,
    the window and MAX_PAGES (none when the first page gives no usable pageCount: the walk goes page by page)."""
    if not isinstance(count, int) or isinstance(count, bool):
        return 0
    return max(0, min(count, MAX_PAGES, limit if limit is not None else MAX_PAGES) - 1)


def _read_ahead(client: ApiClient, w: Walk, pages: int, limit: int | None, at_once: int, known: set[int]
                ) -> dict[int, ApiResponse | Exception]:
    """Pages 1 to ``pages`` of the walk (counted from its first, which is read) but the ``known`` ones, and for a
    window its last page (key -1), asked together: each page's response, or the exception asking it raised."""
    wanted = [(n, w.first_page + n) for n in range(1, pages + 1) if n not in known]
    tail = _tail_page(w, limit) if limit is not None and pages + 1 >= limit else None
    if tail is not None:
        wanted.append((-1, tail))

    got = fanout.settled([functools.partial(_page, client, w, number) for _, number in wanted], at_once)
    return {key: value for (key, _), value in zip(wanted, got, strict=True)}


def _last_page(w: Walk) -> int | None:
    """The number of the list's last page at the walk's size, from its first page's totalCount (None: no items)."""
    total = w.total
    last = math.ceil(total / w.served_size) if isinstance(total, int) and total > 0 else 0
    return w.first_page + last - 1 if last else None


def _tail_page(w: Walk, limit: int) -> int | None:
    """The number of a window's last page when it lies after the window's ``limit`` pages, else None (the
    page ``_read_tail`` asks for)."""
    last = _last_page(w)
    return None if last is None or last < w.first_page + limit else last


def _read_tail(client: ApiClient, w: Walk, asked: ApiResponse | Exception | None = None) -> None:
    """A window's last page (when the list has one after the pages read): where a count or a later page is most
    often wrong. A refused last page leaves the window without it (the window is still judged). ``asked``: that
    page, already asked with the window's pages (used when it is the page this walk needs)."""
    w.window = True
    w.last_page = _last_page(w)
    if w.last_page is None or w.last_page < w.first_page + len(w.pages):
        return
    resp = _taken(asked) if asked is not None else _page(client, w, w.last_page)
    body = resp.json() if resp.status == 200 else None
    if isinstance(body, dict) and not_an_envelope(body) is None:
        w.tail, w.tail_body = resp, body


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

    def __init__(self, api: dict[str, ApiClient], settle_s: float = 0.0, cap: int | None = None,
                 at_once: int = 1) -> None:
        self.api = api
        self._at_once = at_once
        self.cap = cap
        """The site's pageSize cap (profile ``max_page_size``): a larger size asked is walked at the cap."""
        self.settle_s = settle_s
        """How long a disagreement is walked again while the target's lists catch up with a write (profile
        ``settle_s``); at least one retake is made whatever it is."""
        self._cache: dict[tuple[str, str, Params, int], Walk] = {}
        self._broken: dict[tuple[str, str, Params, int], TargetError | TargetUnreachable] = {}
        """Walks the target answered with something the kit cannot use: every relation that needs one meets the
        same answer again (it is the target's, reported once per test) without sending the walk again (a 100 MB
        list or a hanging one would otherwise cost its time once per relation)."""
        self._first: dict[tuple[str, str, int], int] = {}
        self._probed: dict[tuple[str, str, Params, int], dict[int, ApiResponse]] = {}
        """The pages ``first_page`` asked (page -> response), by (account, path, parameters, page size): the first
        walk of those parameters takes its first pages from them instead of asking them again (speed, issue 44)."""
        self._lock = threading.Lock()
        self._taking: dict[tuple[str, str, Params, int], threading.Event] = {}
        """Walks being taken now, by key: a thread that wants one waits for it (set when it is cached or broken)."""
        self._slots = threading.BoundedSemaphore(max(1, at_once))
        self.moving_paths: set[str] = set()
        """Lists already found changing under the walks for a whole settle window (other tests or workers write to
        them, e.g. member's answers while the generated tests run): later disagreements on them get the quick retakes
        only, not the window again (waiting cannot make a list that is being written hold still; five relations on
        one such list waited 22 s each against a server that lags its lists)."""
        self.zero_based_paths: set[str] = set()
        """Paths whose first page may be 0 (the follower list: 'A follower list shows 0')."""

    @property
    def at_once(self) -> int:
        """How many requests of this process's walks go at once: the process's share of the profile's
        ``max_concurrency`` (qaconform.target.fanout.width, given), or 1 once the target has held the run back
        (a target that rate-limits: ``PACE.was_held``); 1 walks page by page."""
        return 1 if PACE.was_held else self._at_once

    def get(self, role: str, path: str, params: Params, size: int, fresh: bool = False,
            before: str | None = None) -> Walk:
        """The walk of ``path`` as ``role``; ``fresh``: take it again (and keep the new one); ``before``: each page
        after the first read right after that account's read of the page before (``walk``).

        Relations check their drawn examples side by side (``Explorer``), so two threads may want one walk at once:
        the second waits for the first's instead of sending it again."""
        size = min(size, self.cap) if self.cap else size
        key = (role, path, params, size) if before is None else (f"{role} after {before}", path, params, size)
        while True:
            with self._lock:
                if key in self._broken:
                    raise self._broken[key].with_traceback(None)
                if not fresh and key in self._cache:
                    return self._cache[key]
                taking = self._taking.get(key)
                mine = taking is None
                if taking is None:
                    taking = self._taking[key] = threading.Event()
            if not mine:
                taking.wait()  # then the cached walk (or its failure), or, for ``fresh``, a take of its own
                continue
            try:
                client = self.client(role)
                start = self.first_page(client, path, params, size)
                with self._lock:
                    probed = self._probed.pop((role, path, params, size), {}) if before is None else {}
                taken = walk(client, path, params, size, start, self.at_once,
                             {page - start: resp for page, resp in probed.items() if page >= start},
                             None if before is None else self.api[before])
            except (TargetError, TargetUnreachable) as exc:
                with self._lock:
                    self._broken[key] = exc
                raise
            finally:
                with self._lock:
                    del self._taking[key]
                taking.set()
            with self._lock:
                self._cache[key] = taken
            return taken

    def client(self, role: str) -> ApiClient:
        """``role``'s client, through this run's slots when walks ask pages together: however many threads walk,
        the walks of this process have at most ``at_once`` requests in flight."""
        if self.at_once <= 1:
            return self.api[role]
        return _Slotted(self.api[role], self._slots)  # type: ignore[return-value]

    def first_page(self, client: ApiClient, path: str, params: Params, size: int) -> int:
        """1, or 0 for a follower list whose page 0 is not page 1 (its pages counted from 0): asked once per
        account, list and page size, with the page size of the walk (page 0 and page 1 of one item each could
        agree by chance on a list of one item)."""
        if path not in self.zero_based_paths:
            return 1
        key = (client.role, path, size)
        if key not in self._first:
            asked = [functools.partial(client.get, path, params=[*params, ("page", page), ("pageSize", size)])
                     for page in (0, 1)]
            got = fanout.gather(asked, self.at_once)
            ids = [_ids(r) for r in got]
            self._first[key] = 0 if ids[0] and ids[0] != ids[1] else 1
            with self._lock:
                self._probed[(client.role, path, params, size)] = dict(zip((0, 1), got, strict=True))
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
            fresh = [self.get(w.role, w.path, w.params, w.size, fresh=True, before=w.before) for w in walks]
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
            totals = {repr(body.get("totalCount")) for body in w.all_bodies}
            if len(totals) > 1 or w.truncated:
                return w.request()
            if w.refused is not None or not w.bodies:
                continue
            again = walk(self.client(w.role), w.path, w.params, w.size, w.first_page, self.at_once)
            if again.refused is not None or {repr(b.get("totalCount")) for b in again.all_bodies} != totals \
                    or _values_moved(w, again):
                return w.request()
        return None


class _Slotted:
    """A client whose every request takes one of the process's walk slots (``Walks.client``)."""

    def __init__(self, client: ApiClient, slots: threading.BoundedSemaphore) -> None:
        self._client, self._slots = client, slots
        self.role = client.role

    def get(self, path: str, **kwargs: Any) -> ApiResponse:
        with self._slots:
            return self._client.get(path, **kwargs)


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
    """The drawn page size, raised so that a walk of ``total`` items takes at most MAX_PAGES pages, or, of a list
    longer than WINDOW, so that its window takes at most MAX_PAGES pages (``Walks.get`` keeps it under the site's
    cap)."""
    if not isinstance(total, int) or total <= 0:
        return drawn
    return max(drawn, math.ceil(min(total, WINDOW) / MAX_PAGES))


def boundary_size(total: Any) -> int:
    """A page size whose last page is not full when the count allows: one more than half the list (two pages, the
    second short, whenever the list holds three items or more: an even count split in halves has no short page, and
    the short last page is where a page's count, echo or offset is computed apart) for a list a walk reads whole,
    else the first size from WINDOW / MAX_PAGES up that does not divide ``total`` (its window's tail is a short last
    page)."""
    if not isinstance(total, int) or total <= 0:
        return 2
    if total <= WINDOW:
        return total // 2 + 1 if total >= 3 else 1
    low = math.ceil(WINDOW / MAX_PAGES)
    return next((s for s in range(low, 2 * low) if total % s), low)


def same_items(one: Walk, other: Walk) -> tuple[list[Any], list[Any]]:
    """The ids that must be the same set in two walks of one list: all of each when both read the whole list; of
    a window, the first ids up to the shorter walk (two walks in one order list the same first items whatever their
    page size: it splits the items, it does not choose them). Returns (only in ``one``, only in ``other``)."""
    mine, theirs = one.ids, other.ids
    if not (one.complete and other.complete):
        n = min(len(mine), len(theirs))
        mine, theirs = mine[:n], theirs[:n]
    return sorted(set(mine) - set(theirs), key=str), sorted(set(theirs) - set(mine), key=str)


def duplicates(ids: list[Any]) -> list[Any]:
    seen: set[Any] = set()
    twice = []
    for i in ids:
        if i in seen and i not in twice:
            twice.append(i)
        seen.add(repr(i) if isinstance(i, (dict, list)) else i)
    return twice
