"""Search words per list: the ``$word`` a list's search rows send, taken from that list's own items.

Why: "Search parameters on question and topic lists: q". The crossings fill ``q=$word`` with a word of a question
title (one a reader may not see, for the visibility rules); a topic list searched for it finds nothing, so every rule
judged on the items of a topic search (includeOnly, the shape, the dates, the counts of a page) judged an empty list
and could not fail (blinde, issue 44: includeOnly ignored only when q is given passed every run). The topic list's
rows search for a word of a topic name instead: the meaning of q is not shown, so nothing asserts what it finds;
the search then has items for the rules to judge. Keyed ``$word@<list>`` (covering.Combination.params), so the test
ids (``q=$word``) stay the same.
"""

from __future__ import annotations

import re
from typing import Any

from qaconform.contract import path as contract_path
from qaconform.pytest.exchange_log import outside_tests
from qaconform.target.client import ApiClient

_WORD = re.compile(r"[A-Za-z]{3,}")
SEARCHED_BY_NAME = ("listTopics",)
"""The lists besides the question list that take q (section 14), whose items have a name to take a word from."""


def per_list(admin: ApiClient) -> dict[str, str]:
    """``{"$word@listTopics": <a word of a topic name admin lists>}`` (one read, page 1); empty when the list has no
    item with a name (the rows then search for the question word, as before)."""
    out: dict[str, str] = {}
    for op in SEARCHED_BY_NAME:
        with outside_tests():
            resp = admin.get(contract_path(op), params={"pageSize": 10})
        try:
            body: Any = resp.json() if resp.status == 200 else {}
        except Exception:  # noqa: BLE001 - a topic list that is not JSON is judged by its own rows, not here
            body = {}
        items = body.get("list") if isinstance(body, dict) else None
        names = [str(i.get("name") or "") for i in items or [] if isinstance(i, dict)]
        words = sorted({w.lower() for n in names for w in _WORD.findall(n)}, key=lambda w: (-len(w), w))
        if words:
            out[f"$word@{op}"] = words[0]
    return out
