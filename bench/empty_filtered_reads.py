"""How many filtered list reads judged no row (reads16, issue 44 item 1): a filter sent a value that selects nothing
judges an empty list, and every rule judged on its rows (shape, privacy, permission, paging) then cannot fail.

The count comes from a run's HAR of every exchange (``qaconform run --har all``: <run>/har/all.har): every GET of a
list answered 200 with a paged envelope whose query holds a filter (spaceId, topics, unanswered, the search q,
type, lang; the follower list's details and active) or whose path names the one it filters by (a user's answers
and questions, a node's followers, an answer's comments), read at its first page (a later page may be empty by
design), counted empty when its ``totalCount`` (else ``listCount``) is 0. Some empty reads are the point of their
test (a list shape "empty", a reader from whom every item is withheld, a history read before its first comment):
the figure is a measure to compare runs by, not a verdict; the tests that read the most empty lists are named.

Run: python bench/empty_filtered_reads.py RUN/har/all.har [--top N]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit

FILTERS = frozenset({"spaceId", "topics", "unanswered", "q", "type", "lang", "details", "active"})
"""The query parameters that narrow a list (3. List questions, 14. List topics, 16. List followers)."""
LISTS = ((re.compile(r"/user/[^/]+/answer\.json$"), "listUserAnswers userId"),
         (re.compile(r"/user/[^/]+/question\.json$"), "listUserQuestions userId"),
         (re.compile(r"/node/[^/]+/followers\.json$"), "listNodeFollowers nodeId"),
         (re.compile(r"/answer/[^/]+/comment\.json$"), "listAnswerComments answerId"),
         (re.compile(r"/question\.json$"), "listQuestions"),
         (re.compile(r"/topic\.json$"), "listTopics"))
"""The paged lists a filter or a path id narrows, by path (the path's id is a filter of its own)."""
_COUNT = re.compile(r'"(totalCount|listCount)"\s*:\s*(\d+)')
_TEST = re.compile(r"test: (\S+)")


def tally(entries: Iterable[Mapping[str, Any]]) -> tuple[Counter[str], Counter[str], dict[str, Counter[str]]]:
    """(reads, empty reads, tests reading each kind empty) per kind of filtered read (the list and its filters)."""
    reads: Counter[str] = Counter()
    empty: Counter[str] = Counter()
    where: dict[str, Counter[str]] = defaultdict(Counter)
    for entry in entries:
        request, response = entry["request"], entry["response"]
        if request.get("method") != "GET" or response.get("status") != 200:
            continue
        url = urlsplit(request["url"])
        query = dict(parse_qsl(url.query))
        name = next((n for rx, n in LISTS if rx.search(url.path)), None)
        keys = sorted(k for k in query if k in FILTERS)
        if name is None or (" " not in name and not keys) or query.get("page", "1") != "1":
            continue
        counts = dict((k, int(v)) for k, v in _COUNT.findall((response.get("content") or {}).get("text") or ""))
        if not counts:
            continue
        kind = name + (" " + ",".join(keys) if keys else "")
        reads[kind] += 1
        if counts.get("totalCount", counts.get("listCount")) == 0:
            empty[kind] += 1
            test = _TEST.search(entry.get("comment") or "")
            where[kind][test.group(1).split("[")[0] if test else "(outside a test)"] += 1
    return reads, empty, where


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("har", help="a run's har/all.har (qaconform run --har all)")
    parser.add_argument("--top", type=int, default=3, help="tests named per kind (default 3)")
    args = parser.parse_args(argv)
    with open(args.har, encoding="utf-8") as f:
        entries = json.load(f)["log"]["entries"]
    reads, empty, where = tally(entries)
    print(f"filtered list reads: {sum(reads.values())}, judged zero rows: {sum(empty.values())}")
    for kind in sorted(reads):
        tests = ", ".join(f"{t} {n}" for t, n in where[kind].most_common(args.top))
        print(f"  {kind:50} {empty[kind]:4} empty of {reads[kind]:5}" + (f"  ({tests})" if tests else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
