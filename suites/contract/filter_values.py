"""Filter values drawn from the list's own items, and a filtered read judged against the unfiltered one (reads16,
issue 44 item 1).

Why: a filter sent a value that selects nothing judges no row. test_matrix.py added ``spaceId`` (the profile's
space) to every combination of the question list, searches (``q=$word``) among them; the word's question lives in
another space, so those rows listed nothing and "restricts to one space" was judged on empty pages (12 of 25 reads
with q and spaceId on the reference server). The space is now the one the same reader's unfiltered read of the same
combination shows most questions of (unprojected, so each item names its space), and the filtered read must hold
what the unfiltered one showed of that space: "spaceId (integer; restricts to one space)" keeps the questions of the
space, so a filtered list that comes back empty although the unfiltered one showed a question of the space (its own
``primaryContainerId``) is the filter's effect, a finding, not a silent pass.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from covering import Combination

from qaconform.pytest.outcomes import fail
from qaconform.target.client import ApiResponse
from qaconform.target.profile import Profile

PROJECTIONS = ("include", "exclude", "includeOnly")
"""Left out of the unfiltered read a value is drawn from: every item then shows the fields the value is taken from."""
PAGING = ("page",)
"""Left out too: the value is drawn from the combination's first page (a later page may hold nothing to draw)."""


def drawn_space(fetch: Any, combination: Combination, paths: dict[str, str], words: dict[str, str],
                profile: Profile) -> tuple[str, list[str]]:
    """The space the most questions of the reader's unfiltered, unprojected first page of ``combination`` name as
    their own (``primaryContainerId``), and the ids of those questions; the profile's space and no id when the read
    shows none (a refusal or an empty list: the row then judges the profile's space, as before). One read, shared
    through the ``fetch`` cache with the combination's other rules. ``words``: the tokens the combination is filled
    with (the topics filter's a topic the question list's items carry: search_words.per_list)."""
    params = combination.params(words)
    plain = {k: v for k, v in params.items() if k not in (*PROJECTIONS, *PAGING, "spaceId")}
    resp: ApiResponse = fetch(combination.reader, paths[combination.op], **plain)
    items = _items(resp)
    held = Counter(str(i["primaryContainerId"]) for i in items if i.get("primaryContainerId") is not None)
    if not held:
        return str(profile.fixtures.space_id), []
    space = max(held, key=lambda s: (held[s], s))
    return space, [str(i.get("id")) for i in items if str(i.get("primaryContainerId")) == space]


def judge_lost(body: dict[str, Any], resp: ApiResponse, space: str, shown: list[str], label: str) -> None:
    """FILTER-SPACEID fails when the filtered read lists nothing (``totalCount`` 0, or an empty first page) although
    the unfiltered read showed questions of ``space`` (``shown``) to the same reader."""
    total = body.get("totalCount")
    first = body.get("page") in (None, 1, "1")
    if not shown or not ((isinstance(total, int) and total == 0) or (first and not body.get("list"))):
        return
    fail(["FILTER-SPACEID"], f"{label}&spaceId={space}: lists nothing (totalCount {total!r}), although the same "
         f"read without spaceId shows this caller questions of space {space} (ids {shown[:5]}, primaryContainerId "
         f"{space}): \"spaceId (integer; restricts to one space)\" keeps the space's questions; check the filter "
         "beside the request's other parameters", resp)


def _items(resp: ApiResponse) -> list[dict[str, Any]]:
    """The dict items of a 200 list response; [] for anything else (the combination's own rules judge it)."""
    try:
        body: Any = resp.json() if resp.status == 200 else {}
    except Exception:  # noqa: BLE001 - a list that is not JSON is judged by the combination's own rules
        body = {}
    items = body.get("list") if isinstance(body, dict) else None
    return [i for i in items or [] if isinstance(i, dict)]
