"""A one-shot fixture node's state, found on the target with reads that do not grow with its history.

A CI build starts from a fresh checkout: the record of consumed fixtures beside the profile (``ledger``) is gone,
so the state must come from the target. A wiki node's state is shown by the lists (``wiki``); a favorite's by no
read at all. Reading a list page by page from the start until the node turns up costs a run more every time runs
add to that list, and gives up somewhere (a node on page 17 of a list the kit's own writes grew was missed and
the doctor said "this run uses node 156"). So each list that may hold the node is read projected to ``id,wiki``
("includeOnly takes a comma-separated list of field names and limits the returned items to those fields"), with
a large pageSize, at both ends (a fixture is older than anything a run wrote, and the default sort is the site's:
newest or oldest first): the first page gives totalCount/pageCount, then the last pages; at most ``END_PAGES + 1``
pages a list, the lists in a fixed order, stopping once every node asked for is found. A node that none of those
reads shows stays unshown: "unknown", never "in its state".

Three states (:class:`FixtureState`); :func:`decide` puts the target's answer first (a node shown wiki again was
renewed), then the record's latest entry (consumed, or fresh: renewed by who knows), else unknown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

from qaconform.contract import path
from qaconform.target import ledger
from qaconform.target.client import ApiClient, TargetError
from qaconform.target.created_id import as_id

PAGE_SIZE = 200
"""Items asked per page (projected to two fields, so a page stays small); a site may cap it lower."""
END_PAGES = 2
"""Pages read from the far end of a list after its first page: the bound that keeps the cost flat."""
PROJECTION = {"includeOnly": "id,wiki"}


class FixtureState(StrEnum):
    """What the doctor knows of a one-shot node before the run uses it."""

    IN_STATE = "in its state"
    """A list shows it in its state (wiki), or the record's latest entry says it was renewed (fresh)."""
    NOT_IN_STATE = "not in its state"
    """A list shows it consumed (wiki false), or the record's latest entry says a run consumed it."""
    UNKNOWN = "unknown"
    """No read shows it and no record speaks of it (a favorite is never shown by any read)."""


def decide(fixture: str, pool: Iterable[int], shown: Mapping[int, bool],
           entries: Mapping[tuple[str, int], ledger.Consumed]) -> dict[int, FixtureState]:
    """Each node's state: the target first (it is the truth where it shows the state), then the record."""
    out: dict[int, FixtureState] = {}
    for node in pool:
        entry = entries.get((fixture, node))
        if node in shown:
            out[node] = FixtureState.IN_STATE if shown[node] else FixtureState.NOT_IN_STATE
        elif entry is not None:
            out[node] = FixtureState.NOT_IN_STATE if entry.consumed else FixtureState.IN_STATE
        else:
            out[node] = FixtureState.UNKNOWN
    return out


def choose(states: Mapping[int, FixtureState]) -> int | None:
    """The node a run takes: the first known in its state, else the first unknown (tried: its tests skip at run
    time if it proves consumed), else none."""
    for wanted in (FixtureState.IN_STATE, FixtureState.UNKNOWN):
        node = next((n for n, s in states.items() if s is wanted), None)
        if node is not None:
            return node
    return None


def wiki_lists(user_ids: Mapping[str, int]) -> list[str]:
    """The lists that may hold a wiki node, those runs do not grow first: each account's questions (member's own
    first: member_wiki_node_id is member's), then their answers (where the kit writes), then the question list."""
    order = sorted(user_ids, key=lambda role: role != "member")
    return ([path("listUserQuestions", userId=user_ids[r]) for r in order]
            + [path("listUserAnswers", userId=user_ids[r]) for r in order] + [path("listQuestions")])


def wiki_shown(client: ApiClient, user_ids: Mapping[str, int], nodes: Iterable[int]) -> dict[int, bool]:
    """``wiki`` of each of ``nodes`` that a bounded read shows (nodes no read shows are left out)."""
    wanted = set(nodes)
    found: dict[int, bool] = {}
    for api_path in wiki_lists(user_ids):
        if not wanted - set(found):
            break
        for item in read_ends(client, api_path, wanted - set(found)):
            nid, wiki = as_id(item.get("id")), item.get("wiki")
            if nid in wanted and isinstance(wiki, bool):
                found[nid] = wiki
    return found


def read_ends(client: ApiClient, api_path: str, wanted: set[int]) -> list[dict[str, Any]]:
    """Items of the first page of a list and of its last ``END_PAGES`` pages (fewer once every wanted id is seen):
    at most ``END_PAGES + 1`` requests, whatever the list's length."""
    first = _page(client, api_path, 1)
    if first is None:
        return []
    items, body = first
    last = _last_page(body, len(items))
    pages = range(last, max(1, last - END_PAGES), -1) if last is not None else range(2, 2 + END_PAGES)
    for page in pages:
        if wanted <= {as_id(i.get("id")) for i in items}:
            break
        got = _page(client, api_path, page)
        if got is None or not got[0]:
            break
        items += got[0]
    return items


def _page(client: ApiClient, api_path: str, page: int) -> tuple[list[dict[str, Any]], dict[str, Any]] | None:
    try:
        resp = client.get(api_path, params={**PROJECTION, "page": page, "pageSize": PAGE_SIZE})
        body = resp.json() if resp.status == 200 else None
    except (TargetError, ValueError):
        return None
    got = body.get("list") if isinstance(body, dict) else None
    if not isinstance(got, list) or not isinstance(body, dict):
        return None
    return [i for i in got if isinstance(i, dict)], body


def _last_page(body: Mapping[str, Any], on_first: int) -> int | None:
    """The last page by the envelope's own counts (pageCount, else totalCount over the page size in effect: a site
    may cap pageSize below what was asked); None when it gives neither."""
    count, total, size = (_count(body.get(k)) for k in ("pageCount", "totalCount", "pageSize"))
    if count is not None and count > 0:
        return count
    per_page = size if size is not None and size > 0 else on_first
    if total is not None and per_page > 0:
        return max(1, -(-total // per_page))
    return None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
