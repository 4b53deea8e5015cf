"""What changes from one run to the next of the same server, and so is not a change: ids, timestamps, run tags,
and counts the kit's own writes moved.

``qaconform diff`` compares what the target *does*: two runs of the same server must show no difference. Facts an
observation records carry values no two runs share (the id of the comment this run posted, the time it was
posted, the run tag in its body, the random future date a test sent). Before two sets of facts are compared,
:func:`normalise` keeps the *shape* of those values (a number is still a number, a missing id is still missing)
and drops their value:

- fields named in :data:`VOLATILE_KEYS` (ids, dates, what the kit itself sent at random, counts that grow with what
  earlier tests created) become ``<int>``, ``<str>``, ``<list>``...;
- a field named for a kind of node (``answer``, ``comment`` ...: :data:`ID_KEYS`) that holds a number holds its id,
  and is compared by type only too;
- counts (:data:`COUNT_KEYS`: ``totalCount``, ``answerCount``, ``array_length`` ...) grow with every answer and
  comment a run posts, so the next run of the same server sees larger ones: a count is compared as zero or not
  zero (a list that was empty and is not, or the reverse, is still a change);
- inside any text, run tags, timestamps (ISO, ``11/23/2026 02:04 PM``, epoch seconds and milliseconds), the
  random hex the kit puts in bodies, and ids (``node 245``, ``"id":231``, ``/answer/282.json``, ``?nodeId=12``)
  become placeholders: a Location header or a URL names what this run created; an absolute URL's origin (scheme,
  host, port) becomes ``<origin>``: two runs of the reference server listen on two ports, a target may move;
- a ``snippet`` (:data:`SNIPPET_KEYS`: the first 200 or 300 characters of a body, as the target sent it) ends where
  the cut fell, and the ids and times before the cut are longer or shorter in every run: a long one is compared on
  its first :data:`SNIPPET_COMPARED` characters once normalised (two builds of one server showed ``... [qc-188`` ->
  ``... [qc-1c`` as a changed observation).
"""

from __future__ import annotations

import re
from typing import Any

VOLATILE_KEYS = re.compile(
    r"^(?:id|ids|.*Ids?|.*_ids?|.*_id_\w+|jobId|"   # ids: of what this run created, they differ every run
    r".*Date|.*DateFormatted|.*_date|.*_at|date|time|timestamp|"  # times of what this run created
    r"sent|entries)$"  # what the kit sent at random; how many content entries earlier tests of the run left
)
"""Field names whose values are compared by type only."""

ID_KEYS = re.compile(r"^(?:answer|comment|node|question|user|job|parent|space|topic|group)$")
"""Field names whose number values are ids (``answer=279``: the answer this run posted)."""

COUNT_KEYS = re.compile(r"^(?:.*Count|.*_count|count|.*_length|length|answers|comments|followers|questions)$")
"""Field names whose number values are counts, which the kit's own writes move from one run to the next."""

_TEXT = (
    (re.compile(r"\bhttps?://[^/\s\"'<>]+"), "<origin>"),  # the target's address (a reference server's own port)
    (re.compile(r"\bqc-[0-9a-f]{8}\b"), "<run-tag>"),
    (re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"), "<time>"),
    (re.compile(r"\b\d{1,2}/\d{1,2}/\d{4} \d{1,2}:\d{2}(?: ?[AP]M)?"), "<time>"),
    (re.compile(r"\b\d{4}-\d{2}-\d{2}\b"), "<date>"),
    (re.compile(r"(\"\w*(?:id|Id|ID|Date)\"\s*:\s*)\"?-?\d+\"?"), r"\1<n>"),
    (re.compile(r"(?<=/)\d+(?=\.\w+\b|/|[?#\s\"'<>),\]]|$)"), "<id>"),  # ids in URL paths: /answer/282.json
    (re.compile(r"([?&]\w*(?:[iI]d|node|answer|question|comment|user)=)\d+"), r"\1<id>"),  # ... and in queries
    (re.compile(r"\b(node|answer|comment|question|user|job|space|topic|group|item)(s?)( id)?([ #:]+)\d+\b",
                re.IGNORECASE), r"\1\2\3\4<id>"),
    (re.compile(r"\b\d{10,13}\b"), "<epoch>"),
    (re.compile(r"\b[0-9a-f]{8}(?:[0-9a-f]{24})?\b"), "<hex>"),
)


SNIPPET_KEYS = frozenset({"snippet"})
"""Field names whose text is the start of a body, cut at a fixed number of the target's characters."""

SNIPPET_CUT = 200
"""The shortest cut a suite makes (``resp.text[:200]``): a snippet this long may end mid-value."""

SNIPPET_COMPARED = 150
"""How many normalised characters of a snippet that may be cut are compared."""


def normalise_text(text: str) -> str:
    """A text with run tags, timestamps, ids and random hex replaced by placeholders."""
    for pattern, repl in _TEXT:
        text = pattern.sub(repl, text)
    return text


def shape(value: Any) -> str:
    """The type of a value, as compared for volatile fields."""
    if value is None:
        return "<null>"
    if isinstance(value, bool):
        return "<bool>"
    if isinstance(value, int | float):
        return "<number>"
    if isinstance(value, str):
        return "<str>" if value else "<empty str>"
    if isinstance(value, list):
        return "<list>" if value else "<empty list>"
    if isinstance(value, dict):
        return "<object>"
    return f"<{type(value).__name__}>"


def normalise(value: Any, key: str = "") -> Any:
    """A copy of a JSON-like value with volatile fields reduced to their shape and volatile text replaced."""
    if key and VOLATILE_KEYS.match(key):
        return shape(value)
    if isinstance(value, int) and not isinstance(value, bool) and key:
        if ID_KEYS.match(key):
            return shape(value)
        if COUNT_KEYS.match(key):
            return value if value <= 0 else "<count>"
    if isinstance(value, dict):
        return {k: normalise(v, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise(v) for v in value]
    if isinstance(value, str):
        if key in SNIPPET_KEYS and len(value) >= SNIPPET_CUT:
            return normalise_text(value)[:SNIPPET_COMPARED] + "<cut>"
        return normalise_text(value)
    return value
