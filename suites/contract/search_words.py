"""Search words per list: the ``$word`` a list's search rows send, taken from that list's own items.

Why: "Search parameters on question and topic lists: q". The crossings fill ``q=$word`` with a word of a question
title (one a reader may not see, for the visibility rules); a topic list searched for it finds nothing, so every rule
judged on the items of a topic search (includeOnly, the shape, the dates, the counts of a page) judged an empty list
and could not fail (blinde, issue 44: includeOnly ignored only when q is given passed every run). The topic list's
rows search for a word of a topic name instead: the meaning of q is not shown, so nothing asserts what it finds;
the search then has items for the rules to judge. Keyed ``$word@<list>`` (covering.Combination.params), so the test
ids (``q=$word``) stay the same.

fix23 (issue 44, blind round 23's r23-topics-search-invalid-sort-reversed): a word of one topic name found one topic,
so every rule of the ORDER of a topic search (the invalid-sort fallback, a sort's effect beside q) judged a list of
one item and could not fail. The word is now the fragment most names share whose search, tried on the target, lists
two items or more (what q matches is not shown: the target's own answer decides, never an assumed substring match);
the longest word of a name when none does.

round43 (issue 44): the question list's ``topics`` filter was filled with the same title word, which names no topic:
the filter selected nothing, so every rule judged on its items (the item shape, the dates, includeOnly under it)
judged an empty list (round43-question-topics-as-names-filtered passed). ``$word@topics=`` is now a topic the
question list's own items carry, by name, or by id when the target lists nothing for the name (the value format of
topics is not shown: the target's answer decides which form selects items; nothing asserts what it selects).
"""

from __future__ import annotations

import re
from typing import Any

from qaconform.contract import path as contract_path
from qaconform.pytest.exchange_log import outside_tests
from qaconform.target.client import ApiClient

_WORD = re.compile(r"[A-Za-z]{3,}")
MIN_FRAGMENT = 2
"""The shortest fragment of a name tried as a search word (names like "api" share no longer one)."""
PROBES = 3
"""How many shared fragments are tried (one read each, once per run), most shared first."""
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
        ordered = _listing_two(admin, op, names)
        if ordered or words:
            out[f"$word@{op}"] = ordered or words[0]
    topic = _selecting_topic(admin)
    if topic:
        out[TOPICS_TOKEN] = topic
    return out


TOPICS_TOKEN = "$word@topics="
"""The token of the topics filter's value (covering.Combination.params: a parameter's own token wins)."""


def _selecting_topic(admin: ApiClient, within: dict[str, str] | None = None) -> str:
    """The name (else the id) of the topic the most questions on admin's first page carry, in the first form whose
    filter the target answers with an item or more; "" when no item carries a topic or no form selects one.
    ``within`` (reads16, issue 44 item 1): the parameters of the unfiltered read the topic is drawn from (a space
    withheld from a reader: test_list_access.py's visibility rows), kept beside the probe's topics."""
    within = dict(within or {})
    with outside_tests():
        resp = admin.get(contract_path("listQuestions"), params={"pageSize": 10, **within})
    items = _items(resp)
    held: dict[tuple[str, str], int] = {}
    for item in items:
        for topic in item.get("topics") or [] if isinstance(item.get("topics"), list) else []:
            if isinstance(topic, dict) and topic.get("name"):
                key = (str(topic["name"]), str(topic.get("id") or ""))
                held[key] = held.get(key, 0) + 1
    if not held:
        return ""
    name, ident = max(held, key=lambda k: (held[k], k))
    for value in (name, ident):
        if not value:
            continue
        with outside_tests():
            probe = admin.get(contract_path("listQuestions"), params={"pageSize": 1, **within, "topics": value})
        if _items(probe):
            return value
    return ""


def topic_within(admin: ApiClient, within: dict[str, str]) -> str:
    """A topic the questions of admin's read with ``within`` carry, in a form the topics filter selects them by (one
    read and at most two probes); "" when none does."""
    return _selecting_topic(admin, within)


def _items(resp: Any) -> list[dict[str, Any]]:
    """The dict items of a 200 list response; [] for anything else (its own rows judge it, not this probe)."""
    try:
        body: Any = resp.json() if resp.status == 200 else {}
    except Exception:  # noqa: BLE001 - a list that is not JSON is judged by its own rows, not here
        body = {}
    items = body.get("list") if isinstance(body, dict) else None
    return [i for i in items or [] if isinstance(i, dict)]


def shared_fragments(names: list[str]) -> list[str]:
    """Letter runs (at least :data:`MIN_FRAGMENT` long) that two names or more hold, most shared first, then longest:
    the words most likely to find several items whatever a search matches on."""
    held: dict[str, int] = {}
    for name in {n.lower() for n in names}:
        frags = {w[i:j] for w in re.findall(r"[a-z]+", name) for i in range(len(w))
                 for j in range(i + MIN_FRAGMENT, len(w) + 1)}
        for frag in frags:
            held[frag] = held.get(frag, 0) + 1
    return sorted((f for f, n in held.items() if n >= 2), key=lambda f: (-held[f], -len(f), f))


def _listing_two(admin: ApiClient, op: str, names: list[str]) -> str:
    """The first shared fragment whose search the target answers with two items or more, or "" (no such one)."""
    for frag in shared_fragments(names)[:PROBES]:
        with outside_tests():
            resp = admin.get(contract_path(op), params={"pageSize": 10, "q": frag})
        try:
            body: Any = resp.json() if resp.status == 200 else {}
        except Exception:  # noqa: BLE001 - a search that is not JSON is judged by its own rows, not here
            body = {}
        items = body.get("list") if isinstance(body, dict) else None
        if isinstance(items, list) and len(items) >= 2:
            return frag
    return ""
