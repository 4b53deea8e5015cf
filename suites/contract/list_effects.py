"""What a stated parameter does to a list, as pure checks on the items it returns (issue 44 item 4: effects, not
echoes). test_matrix.py crosses each with the reader and the other parameters the list states.

A server can echo a sort name and ignore it, or honour a filter on one path and not another; a test of the envelope
alone passes both. Each check here judges the items, and only what a sentence of interface-v2.md gives a meaning:

- the expert lists' sort ("sort must be one of reputation, username, realname, recent, oldest, default"): each name
  but ``default`` (configurable) orders by a field the User items carry. Where the description gives no direction
  (reputation, username, realname) either monotonic direction is accepted, one throughout the pages read; text is
  compared as stored or case-folded (a collation is not stated); recent lists the newest first and oldest the oldest
  first, by a date the users carry (creationDate, or modificationDate: which date is not stated);
- spaceId ("restricts to one space") on the question list: every item of the space, whatever else is asked;
- active on the follower list ("when false all relations, including inactive ones"), whatever details says;
- details on the follower list ("details (boolean, default false)"): without it the items are User items, whatever
  else is asked.

The sort names the description has only *seen* in a sorts array (newest, votes, viewCount ...) get no check here:
"Accepted sort values for lists other than the expert lists: not shown", so neither their key nor their direction is
stated (OBS-SORT-SEEN-ORDER records what a target does).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

Key = Callable[[dict[str, Any]], Any]
"""The value an item is ordered by, or None where the item does not carry it (not judged)."""


def _int(field: str) -> Key:
    def key(item: dict[str, Any]) -> Any:
        value = item.get(field)
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    return key


def _text(field: str, fold: bool) -> Key:
    def key(item: dict[str, Any]) -> Any:
        value = item.get(field)
        if not isinstance(value, str) or not value.strip():
            return None  # realname is optional ("string or null"; samples show it empty): not ranked
        return value.casefold() if fold else value
    return key


@dataclass(frozen=True)
class SortMeaning:
    """What a documented sort name orders by: the readings of its key the description leaves open, and the
    directions it allows (``(True,)`` ascending only, ``(False,)`` descending only, both when not stated)."""

    keys: tuple[tuple[str, Key], ...]
    ascending: tuple[bool, ...]
    says: str


EXPERT_SORT_MEANINGS: dict[str, SortMeaning] = {
    "reputation": SortMeaning((("reputation", _int("reputation")),), (True, False), "by reputation"),
    "username": SortMeaning((("username", _text("username", False)), ("username case-folded",
                                                                        _text("username", True))),
                            (True, False), "by username"),
    "realname": SortMeaning((("realname", _text("realname", False)), ("realname case-folded",
                                                                        _text("realname", True))),
                            (True, False), "by realname (users without one not ranked)"),
    "recent": SortMeaning((("creationDate", _int("creationDate")), ("modificationDate", _int("modificationDate"))),
                          (False,), "newest first, by a date the users carry"),
    "oldest": SortMeaning((("creationDate", _int("creationDate")), ("modificationDate", _int("modificationDate"))),
                          (True,), "oldest first, by a date the users carry"),
}
"""Every documented expert sort with a stated meaning; ``default`` is configurable ("the default sort is
configurable"), so it orders by nothing the description states."""


def _monotonic(values: Sequence[Any], ascending: bool) -> int | None:
    """The index of the first value out of order (ties allowed), or None."""
    for i in range(1, len(values)):
        if (values[i] < values[i - 1]) if ascending else (values[i] > values[i - 1]):
            return i
    return None


@dataclass(frozen=True)
class OrderBreak:
    """Why items are not in a sort's order: under each reading, where the order first breaks."""

    sort: str
    ranked: int
    shown: str


def order_break(sort: str, items: Sequence[Any]) -> OrderBreak | None:
    """None when ``items`` (the pages read, in order) are ordered by some reading of ``sort``'s key in an allowed
    direction, one throughout; else what each reading shows. Fewer than two ranked items cannot be out of order."""
    meaning = EXPERT_SORT_MEANINGS[sort]
    shown = []
    ranked = 0
    for name, key in meaning.keys:
        pairs = [(i.get("id"), key(i)) for i in items if isinstance(i, dict) and key(i) is not None]
        ranked = max(ranked, len(pairs))
        if len(pairs) < 2:
            continue  # a reading the items do not carry (modificationDate left out) neither holds nor breaks
        values = [v for _, v in pairs]
        breaks = {asc: _monotonic(values, asc) for asc in meaning.ascending}
        if any(b is None for b in breaks.values()):
            return None
        first = min(b for b in breaks.values() if b is not None)
        shown.append(f"{name}: {[v for _, v in pairs[max(0, first - 2):first + 2]]} "
                     f"(ids {[i for i, _ in pairs[max(0, first - 2):first + 2]]})")
    return OrderBreak(sort, ranked, "; ".join(shown)) if shown else None


STILL_KEY_SORTS = ("username", "realname")
"""Expert sorts whose key the run never changes (a user's reputation moves with votes and accepted answers, and
which date recent and oldest read is not stated): a walk of their pages can hold a user twice only by the server."""


def met_twice(sort: str, pages: Sequence[tuple[int, dict[str, Any]]]) -> str | None:
    """Where one user appears on two pages of one walk of a still-key sort (round70): an order by a key, cut into
    pages, holds each user once, and the walk skipped whoever it held twice in their place. Judged only when every
    page counts the same totalCount (no user came or went) and the user's key is carried and met on no other user of
    the walk (a tie the description does not order could move between reads); None otherwise."""
    if sort not in STILL_KEY_SORTS or len({body.get("totalCount") for _, body in pages}) != 1:
        return None
    key = EXPERT_SORT_MEANINGS[sort].keys[0][1]
    first: dict[Any, int] = {}
    keyed: dict[Any, set[Any]] = {}
    for _, body in pages:
        for item in (i for i in body.get("list") or () if isinstance(i, dict) and i.get("id") is not None):
            keyed.setdefault(key(item), set()).add(item["id"])
    for n, body in pages:
        for item in (i for i in body.get("list") or () if isinstance(i, dict) and i.get("id") is not None):
            value = key(item)
            if item["id"] in first and first[item["id"]] != n and value is not None and len(keyed[value]) == 1:
                return (f"user {item['id']} ({sort} {value!r}) is on page {first[item['id']]} and again on page {n}, "
                        f"where the order continues past it")
            first.setdefault(item["id"], n)
    return None


def item_spaces(item: dict[str, Any]) -> set[str] | None:
    """The space ids an item shows (primaryContainerId, containerIds: "Ids of the containers (space and its
    parent)"), None when it shows neither (a projection left them out)."""
    if "primaryContainerId" not in item and not isinstance(item.get("containerIds"), list):
        return None
    found = {str(item.get("primaryContainerId"))} if item.get("primaryContainerId") is not None else set()
    if isinstance(item.get("containerIds"), list):
        found |= {str(c) for c in item["containerIds"]}
    return found


def outside_space(items: Sequence[Any], space: str, known: dict[str, set[str]]) -> list[tuple[Any, list[str]]]:
    """(id, its spaces) of every item not in ``space``: by its own fields, else by what an unprojected read of the
    list showed for that id (``known``); an item neither tells is not judged."""
    out = []
    for item in items:
        if not isinstance(item, dict):
            continue
        spaces = item_spaces(item)
        if spaces is None:
            spaces = known.get(str(item.get("id")))
        if spaces is not None and space not in spaces:
            out.append((item.get("id"), sorted(spaces)))
    return out


def not_user_items(items: Sequence[Any]) -> dict[str, list[Any]]:
    """Rule -> the items of a follower list asked without details that are no User item: one with no username is
    a follower relation (details on although "details (boolean, default false)"), FOLLOWERS-DETAILS-DEFAULT's; a
    User whose type is not ``user`` is LIST-ITEM-TYPE's."""
    out: dict[str, list[Any]] = {}
    for item in items:
        if isinstance(item, dict) and item.get("type") == "user":
            continue
        rule = "LIST-ITEM-TYPE" if isinstance(item, dict) and "username" in item else "FOLLOWERS-DETAILS-DEFAULT"
        out.setdefault(rule, []).append(item.get("id") if isinstance(item, dict) else item)
    return out


# --- what each stated query parameter of a list is checked for (tests/test_list_effects.py keeps it whole) -------

@dataclass(frozen=True)
class ParameterEffect:
    """The rule that judges what a list's query parameter does: a must-rule where a sentence gives the parameter a
    meaning (``stated``), else the observed rule that records it; ``matrix``: the effect is judged in every
    combination of the list's other parameters (spec/dimensions.yaml ``rules``, test_matrix.py)."""

    rule: str
    stated: bool
    matrix: bool
    why: str


_NOT_SHOWN_SEARCH = "'Meaning and value format of q, type, lang, topics and unanswered: not shown'"
PARAMETER_EFFECTS: dict[str, ParameterEffect] = {
    "page": ParameterEffect("PAGING-TOTALCOUNT-UNION", True, False,
                            "pages partition the items at any page size and sort (test_list_relations.py)"),
    "pageSize": ParameterEffect("PAGING-TOTALCOUNT-UNION", True, False,
                                "pages partition the items at any page size and sort (test_list_relations.py)"),
    "includeOnly": ParameterEffect("PROJ-INCLUDEONLY", True, True,
                                   "'limits the returned items to those fields'"),
    "include": ParameterEffect("PROJ-EXCLUDE", False, False, "only includeOnly's effect is described"),
    "exclude": ParameterEffect("PROJ-EXCLUDE", False, False, "only includeOnly's effect is described"),
    "spaceId": ParameterEffect("FILTER-SPACEID", True, True, "'restricts to one space'"),
    "active": ParameterEffect("FOLLOWERS-ACTIVE-DEFAULT", True, True,
                              "'when false all relations, including inactive ones'"),
    "details": ParameterEffect("FOLLOWERS-DETAILS-DEFAULT", True, True,
                               "default false gives User items; the relations' fields with true: not shown"),
    "topics": ParameterEffect("OBS-Q-FORMAT", False, False, _NOT_SHOWN_SEARCH),
    "unanswered": ParameterEffect("OBS-Q-FORMAT", False, False, _NOT_SHOWN_SEARCH),
    "q": ParameterEffect("OBS-Q-FORMAT", False, False, _NOT_SHOWN_SEARCH),
    "type": ParameterEffect("OBS-Q-FORMAT", False, False, _NOT_SHOWN_SEARCH),
    "lang": ParameterEffect("OBS-Q-FORMAT", False, False, _NOT_SHOWN_SEARCH),
    "wrap": ParameterEffect("OBS-WRAP", False, False, "'Values and effect of wrap and v1: not shown'"),
    "v1": ParameterEffect("OBS-V1", False, False, "'Values and effect of wrap and v1: not shown'"),
}
"""Every query parameter a list operation states, by name, but sort (:func:`parameter_effect`)."""
_SORT_EFFECTS = {
    "listActiveExperts": ParameterEffect("SORT-EXPERTS-ORDER", True, True, "'sort must be one of reputation, ...'"),
    "listEarnedExperts": ParameterEffect("SORT-EXPERTS-ORDER", True, True, "'sort must be one of reputation, ...'"),
    "listSpaces": ParameterEffect("SORT-FALLBACK-SPACES", True, True, "an invalid name falls back to the default"),
    "listTopics": ParameterEffect("SORT-FALLBACK-TOPICS", True, True, "an invalid name falls back to the default"),
    "listGroups": ParameterEffect("SORT-FALLBACK-GROUPS", True, True, "an invalid name falls back to the default"),
}
_SORT_SEEN = ParameterEffect("OBS-SORT-SEEN-ORDER", False, False,
                             "names only seen in a sorts array: 'Accepted sort values ...: not shown'")


def parameter_effect(op: str, name: str) -> ParameterEffect | None:
    """What checks the effect of query parameter ``name`` of list ``op``; None for a parameter nobody decided on."""
    if name == "sort":
        return _SORT_EFFECTS.get(op, _SORT_SEEN)
    return PARAMETER_EFFECTS.get(name)
