"""What each metamorphic relation of test_list_relations.py checks on walks (list_walks.py): pure functions that
return the violation (the rules it breaks, a message showing both requests with their curls, the response of the
page that shows the differing item) or None.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from list_walks import Violation, Walk, duplicates, item_id, page_param, same_items

from qaconform.contract import envelope
from qaconform.invariants import pagecount_problem
from qaconform.target.profile import Profile

NODE_SORTS: tuple[str | None, ...] = (None, *envelope().sorts_seen)
"""Question, answer and comment lists: no sort, or a name the description has seen in a sorts array (a server
that does not accept one refuses it: that draw is not judged)."""

_SHOWN = 12
"""Ids shown in a message at most."""


def _ids(values: Any) -> str:
    values = list(values)
    more = f" and {len(values) - _SHOWN} more" if len(values) > _SHOWN else ""
    return f"{values[:_SHOWN]}{more}"


def _two(what: str, rules: tuple[str, ...], this: Walk, other: Walk, wanted: Any = None) -> Violation:
    """A violation shown by two walks: the message names both requests, each with the curl of its page (this
    walk's page is the failure's response: RuleFailure appends it with its curl)."""
    page = this.page_of(wanted)
    message = (f"{what}\n- this walk: {this.request()}, page {page_param(page)} below\n"
               f"- the other walk: {other.shown(wanted)}")
    return Violation(rules, message, page)


def _one(what: str, rules: tuple[str, ...], this: Walk, wanted: Any = None) -> Violation:
    page = this.page_of(wanted)
    return Violation(rules, f"{what}\n- the walk: {this.request()}, page {page_param(page)} below", page)


# --- paging and counts ------------------------------------------------------------------------------------------

def count_violation(w: Walk) -> Violation | None:
    """One walk: no item twice, totalCount the same on every page and equal to the items listed, pageSize the one
    asked on every page (``page_size_echo_violation``), pageCount ceil(totalCount / pageSize) on every page (of a
    window: ``window_count_violation``). A wrong pageSize is named before the pageCount computed from it."""
    found = window_count_violation(w) if w.window else _whole_count_violation(w)
    if found is not None and found.rules != ("PAGING-PAGECOUNT",):
        return found
    return page_size_echo_violation(w) or found


def union_violation(w: Walk) -> Violation | None:
    """:func:`count_violation`'s PAGING-TOTALCOUNT-UNION part alone (no item twice, one totalCount, totalCount items
    listed; not pageCount nor the pageSize echo): round92 (issue 44), for a walk taken for another relation."""
    found = window_count_violation(w, pagecount=False) if w.window else _whole_count_violation(w)
    return found if found is not None and found.rules == ("PAGING-TOTALCOUNT-UNION",) else None


ECHOED_SIZES = range(1, 11)
"""The page sizes whose echo is judged: "A request with a small pageSize (1 to 10) reports that pageSize" (a site
may cap a larger one: "maximum pageSize: not shown")."""


def page_size_echo_violation(w: Walk) -> Violation | None:
    """Every page of a walk at a small page size reports that pageSize, its last (short) page too (blindc, issue
    44: a server that echoes the number of items served is right on every full page and wrong only on a short one,
    which the walks read on every list whose count the size does not divide)."""
    if w.size not in ECHOED_SIZES:
        return None
    for resp, body in zip(w.all_pages, w.all_bodies, strict=True):
        if body.get("pageSize") != w.size:
            return Violation(("PAGING-PAGESIZE-ECHO",), f"pageSize={w.size} was asked for; page {page_param(resp)} "
                             f"(holding {len(body['list'])} items) reports pageSize {body.get('pageSize')!r} "
                             f"(\"pageSize: Items per page\", whatever the page holds)\n- the walk: {w.request()}, "
                             f"page {page_param(resp)} below", resp)
    return None


def _whole_count_violation(w: Walk) -> Violation | None:
    union = ("PAGING-TOTALCOUNT-UNION",)
    twice = duplicates(w.ids)
    if twice:
        return _one(f"item {twice[0]} is listed on two pages of one walk (items listed twice: {_ids(twice)}); "
                    "the pages of a list hold each of its items once", union, w, twice[0])
    totals = [b.get("totalCount") for b in w.bodies]
    if len(set(map(str, totals))) > 1:
        return _one(f"totalCount changed from page to page of one walk: {totals}", union, w)
    if len(w.ids) != w.total:
        return _one(f"the walk's {len(w.bodies)} page(s) list {len(w.ids)} items; totalCount says {w.total} "
                    "(\"Total number of items\")", union, w)
    for resp, body in zip(w.pages, w.bodies, strict=True):
        problem = pagecount_problem(body) if isinstance(body.get("pageSize"), int) and isinstance(
            body.get("totalCount"), int) and "pageCount" in body else None
        if problem:
            return Violation(("PAGING-PAGECOUNT",), f"{problem}\n- the walk: {w.request()}, page "
                             f"{page_param(resp)} below", resp)
    return None


def window_count_violation(w: Walk, pagecount: bool = True) -> Violation | None:
    """A window (its first pages and its last): no item twice, totalCount the same on every page, pageCount
    ceil(totalCount / pageSize) on every page, every page before the last full and the last holding the rest:
    pages that split totalCount items so list totalCount of them, the part of a partition a window can show.
    ``pagecount``: False for a test that does not name PAGING-PAGECOUNT (another test checks it)."""
    union = ("PAGING-TOTALCOUNT-UNION",)
    twice = duplicates([*w.ids, *w.tail_ids])
    if twice:
        return _one(f"item {twice[0]} is listed on two pages of one walk (items listed twice: {_ids(twice)}); "
                    "the pages of a list hold each of its items once", union, w, twice[0])
    totals = [b.get("totalCount") for b in w.all_bodies]
    if len(set(map(str, totals))) > 1:
        return _one(f"totalCount changed from page to page of one walk: {totals}", union, w)
    for resp, body in zip(w.all_pages, w.all_bodies, strict=True):
        problem = pagecount_problem(body) if pagecount and isinstance(body.get("pageSize"), int) and isinstance(
            body.get("totalCount"), int) and "pageCount" in body else None
        if problem:
            return Violation(("PAGING-PAGECOUNT",), f"{problem}\n- the walk: {w.request()}, page "
                             f"{page_param(resp)} below", resp)
    size, total, last = w.served_size, w.total, w.last_page
    if not isinstance(total, int) or last is None:
        return None
    for n, (resp, body) in enumerate(zip(w.all_pages, w.all_bodies, strict=True)):
        number = last if body is w.tail_body else w.first_page + n
        want = size if number < last else total - (last - w.first_page) * size
        if len(body["list"]) != want:
            where = "the last page" if number == last else "a page before the last"
            return Violation(union, f"page {number} of a list of totalCount {total} items at pageSize {size} holds "
                             f"{len(body['list'])} items; as {where} it holds {want} (\"Total number of items\": "
                             f"{last - w.first_page + 1} pages of {size} hold {total} items only so)\n- the walk: "
                             f"{w.request()}, page {page_param(resp)} below", resp)
    return None


def partition_violation(w: Walk, base: Walk) -> Violation | None:
    """The walk is a partition (count_violation's union part) and lists the items of the walk at the base size
    (of a window, the same first items as the other walk in the same order)."""
    found = count_violation(w)
    if found is not None and found.rules != ("PAGING-PAGECOUNT",):
        return found
    extra, missing = same_items(w, base)
    if extra or missing:
        wanted = extra[0] if extra else None
        return _two(f"one caller's walks of one list at two page sizes or sorts list different items: "
                    f"{_ids(extra)} only in this walk, {_ids(missing)} only in the other (page size and sort "
                    "split and order the items, they do not choose them)", ("PAGING-SAME-ITEMS",), w, base, wanted)
    return None


# --- projection -------------------------------------------------------------------------------------------------

def projected_walk_violation(projected: Walk, plain: Walk, form: str, fields: tuple[str, ...]) -> Violation | None:
    """:func:`projection_violation`, and the projected walk judged a partition on its own (round92, issue 44:
    "totalCount | Total number of items" holds for a walk under a projection too, a parameter like any other; a
    projected query whose later pages start one item early repeats an item and never reaches the last, which the
    walks of the partition relation, taken without projections, never read). Both broken: one violation, both rules."""
    found, union = projection_violation(projected, plain, form, fields), union_violation(projected)
    if found is None or union is None:
        return found or union
    return Violation((*found.rules, *union.rules), f"{found.message}\n- and the projected walk alone: "
                     f"{union.message.splitlines()[0]}", found.response)


def projection_violation(projected: Walk, plain: Walk, form: str, fields: tuple[str, ...]) -> Violation | None:
    """The projected walk lists the plain walk's items in its order, each restricted to the kept fields."""
    plain_ids, shown = plain.ids, set(plain.ids)
    extra = [i for i in projected.ids if i not in shown]
    if extra:
        return _two(f"with {form}={','.join(fields)} the list shows {_ids(extra)}, which the plain request does not "
                    "list (\"Only items the caller may see are returned\")", ("PROJ-ONLY-VISIBLE",),
                    projected, plain, extra[0])
    if projected.ids != plain_ids:
        missing = [i for i in plain_ids if i not in set(projected.ids)]
        what = f"lacks {_ids(missing)}" if missing else "lists them in another order"
        return _two(f"with {form}={','.join(fields)} the list {what}: ids {_ids(projected.ids)}, the plain request "
                    f"{_ids(plain_ids)} (a projection limits fields, not items)", ("PROJ-SAME-ITEMS",),
                    projected, plain, missing[0] if missing else None)
    for mine, theirs in zip(projected.items, plain.items, strict=True):
        if not isinstance(mine, dict) or not isinstance(theirs, dict):
            continue
        if form == "includeOnly" and set(mine) - set(fields):
            return _two(f"includeOnly={','.join(fields)} returns item {item_id(mine)} with the fields "
                        f"{sorted(set(mine) - set(fields))} too (\"limits the returned items to those fields\")",
                        ("PROJ-INCLUDEONLY",), projected, plain, item_id(mine))
        changed = sorted(k for k in mine if k in theirs and mine[k] != theirs[k])
        if changed:
            k = changed[0]
            return _two(f"with {form}={','.join(fields)} item {item_id(mine)} has {k}={mine[k]!r}; the plain request "
                        f"lists it with {k}={theirs[k]!r} (a projection keeps the values of the fields it keeps)",
                        ("PROJ-SAME-ITEMS",), projected, plain, item_id(mine))
    return None


# --- privacy ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Audience:
    """What one caller may not see: the private comments of a thread it is not entitled to (known), and any listed
    comment private to recipients that names neither it nor its author (judged by the fields it shows)."""

    role: str
    user_id: int | None
    withheld: frozenset[int]
    judges: bool
    """False when the profile does not say whether this role reads every private comment: leaks are not judged."""
    recipients_value: str | None

    @classmethod
    def of(cls, profile: Profile, role: str, user_id: int | None, private: dict[int, frozenset[str]]) -> Audience:
        readers = profile.visibility.readers
        judges = not (role in ("admin", "moderator") and readers is None) and role not in (readers or [])
        withheld = frozenset(c for c, entitled in private.items() if role not in entitled) if judges else frozenset()
        return cls(role, user_id, withheld, judges, profile.visibility.recipients)

    def may_not_see(self, item: Any) -> bool:
        if not self.judges:
            return False
        if item_id(item) in self.withheld:
            return True
        if not isinstance(item, dict) or self.recipients_value is None or item.get("visibility") != \
                self.recipients_value or not isinstance(item.get("recipients"), list):
            return False
        if self.user_id is None:
            return True  # anonymous is neither the author nor a recipient of any comment
        named = {str(r.get("id")) for r in item["recipients"] if isinstance(r, dict)}
        author = item.get("author")
        author_id = str(author.get("id")) if isinstance(author, dict) else None
        return str(self.user_id) not in named and author_id != str(self.user_id)


def privacy_list_violation(w: Walk, base: Walk, audience: Audience) -> Violation | None:
    """The comment list shows the caller none it may not see, and the same comments as the plain walk."""
    for walk in (w, base):
        leaked = [item_id(i) for i in walk.items if audience.may_not_see(i)]
        if leaked:
            return _two(f"{audience.role} is shown the comments {_ids(leaked)}, private to others (\"the comment is "
                        "private to those recipients\")", ("COMMENT-PRIVACY-LIST",), walk,
                        base if walk is w else w, leaked[0])
    extra, missing = same_items(w, base)
    if extra or missing:
        return _two(f"the comments {audience.role} sees depend on the request: {_ids(extra)} only in this walk, "
                    f"{_ids(missing)} only in the other", ("PAGING-SAME-ITEMS",), w, base,
                    extra[0] if extra else None)
    return None


def privacy_ids_violation(w: Walk, answer_id: int, audience: Audience) -> Violation | None:
    """The answer's commentIds and childrenIds, where the walk shows them (a window's last page too), name no comment
    withheld from the caller."""
    for item in [*w.items, *(w.tail_body["list"] if w.tail_body is not None else [])]:
        if not isinstance(item, dict) or str(item.get("id")) != str(answer_id):
            continue
        named = [c for key in ("commentIds", "childrenIds") if isinstance(item.get(key), list) for c in item[key]]
        leaked = sorted({c for c in named if c in audience.withheld}, key=str)
        if leaked:
            return _one(f"answer {answer_id}'s commentIds/childrenIds name {_ids(leaked)} to {audience.role}, comments "
                        "private to others (\"the comment is private to those recipients\")",
                        ("COMMENT-PRIVACY-IDS",), w, item_id(item))
    return None


# --- filters ----------------------------------------------------------------------------------------------------

def _spaces(item: dict[str, Any]) -> set[str]:
    found = {str(item.get("primaryContainerId"))}
    if isinstance(item.get("containerIds"), list):
        found |= {str(c) for c in item["containerIds"]}
    return found


def space_violation(part: Walk, whole: Walk, space: str) -> Violation | None:
    """spaceId=S lists questions of S only, only questions the unfiltered walk shows, and every one of those in S
    (of windows in one sort order, as far as the unfiltered window reaches)."""
    rule = ("FILTER-SPACEID",)
    outside = [item_id(i) for i in part.items if isinstance(i, dict) and space not in _spaces(i)]
    if outside:
        return _two(f"spaceId={space} lists {_ids(outside)}, questions of other spaces (\"restricts to one space\")",
                    rule, part, whole, outside[0])
    of_space = [item_id(i) for i in whole.items if isinstance(i, dict) and str(i.get("primaryContainerId")) == space]
    shown = set(whole.ids)
    if whole.complete and part.complete:
        seen_by_whole, checked = part.ids, of_space
    else:
        # windows, in one order: the filtered list is the part of the unfiltered one in the space, so its first
        # len(of_space) items lie within the unfiltered window, and the filtered window holds every question of
        # the space the unfiltered window shows once it holds as many as that window has in the space (primary or
        # other containers)
        seen_by_whole = part.ids[:len(of_space)]
        reach = sum(1 for i in whole.items if isinstance(i, dict) and space in _spaces(i))
        checked = of_space if part.complete or len(part.ids) >= reach else []
    unseen = [i for i in seen_by_whole if i not in shown]
    if unseen:
        return _two(f"spaceId={space} lists {_ids(unseen)}, which the unfiltered list does not show this caller",
                    rule, part, whole, unseen[0])
    missing = [i for i in checked if i not in set(part.ids)]
    if missing:
        return _two(f"spaceId={space} leaves out {_ids(missing)}, questions of space {space} (primaryContainerId) "
                    "the unfiltered list shows", rule, whole, part, missing[0])
    return None


def owner_violation(w: Walk, user_id: int, rule: str) -> Violation | None:
    foreign = [(item_id(i), i["author"].get("id")) for i in w.items if isinstance(i, dict)
               and isinstance(i.get("author"), dict) and str(i["author"].get("id")) != str(user_id)]
    if foreign:
        return _one(f"user {user_id}'s list holds items by other users (id, author.id): {foreign[:5]}", (rule,), w,
                    foreign[0][0])
    return None


def followers_violation(omitted: Walk, true: Walk, false: Walk) -> Violation | None:
    """Without active: the relations of active=true; active=false: those and the inactive ones; where an item
    shows its relation's state, an active list shows only active ones."""
    rule = ("FOLLOWERS-ACTIVE-DEFAULT",)
    for w in (omitted, true):
        inactive = [item_id(i) for i in w.items if isinstance(i, dict) and i.get("active") is False]
        if inactive:
            return _one(f"the follower list without active=false shows the inactive relations of {_ids(inactive)} "
                        "(\"When active is true only active relations are returned\"; active defaults to true)",
                        rule, w, inactive[0])
    if set(omitted.ids) != set(true.ids):
        extra = sorted(set(omitted.ids) ^ set(true.ids), key=str)
        return _two(f"without active the followers are not those of active=true (they differ in {_ids(extra)}); "
                    "active defaults to true", rule, omitted, true, extra[0])
    missing = sorted(set(true.ids) - set(false.ids), key=str)
    if missing:
        return _two(f"active=false leaves out {_ids(missing)}, followers of active=true (\"when false all "
                    "relations, including inactive ones\")", rule, false, true, missing[0])
    return None
