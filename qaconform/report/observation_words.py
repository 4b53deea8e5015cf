"""An observation in words (qa18): what the kit asked, what the target did, and where the description is silent.

A test records an observation as ``observe(rule, **facts)``: free facts, the JSON a reader had to decode. The
report model gives each one an :class:`ObservationSummary` made from those facts and its rule's spec/rules.yaml
entry (``summary``: what the rule records; ``source``: the place in interface-v2.md that leaves it open, or its
``quote``); report.json carries it beside the facts (``observations[rule][i].summary``), and report.html and the
terminal read it back with :meth:`ObservationSummary.of`, so the three say the same sentence. The words come from
the facts alone: the facts that describe the request (:data:`ASKED`) say what was asked, the status and the error
the answer, the other facts (a few, cut short) the rest; the facts stay whole under it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

ASKED = ("operation", "line", "caller", "path", "request", "option", "param", "params", "accept", "page_asked",
         "pageSize_asked", "exclude", "word", "topics", "action", "item", "type", "segment", "node", "bytes",
         "requests", "recipients", "author")
"""Facts that say what the kit sent (the suites' names for them), in the order they are said."""
_QUIET = frozenset({"content_type", "keys", "snippet", "seed"})
"""Facts the sentence leaves to the JSON under it: the media type, key lists, a body's start, the seed."""
_NOTES = ("why", "reason")
"""The kit's own words on why it recorded this rather than judged it: said after the answer, in brackets."""
_STATUS = ("status", "first_status", "send_status", "lock_status", "post_status")
_MOST = 4
"""How many other facts the sentence names (the rest are under it)."""
_WIDTH = 70
_EMPTY = "\u2018\u2019"
"""How long one fact's value may be in the sentence."""


@dataclass(frozen=True)
class ObservationSummary:
    """One observation in words: ``asked`` (may be empty: the rule's summary says it), ``did`` and ``silent`` (the
    description's place that leaves it open, from the rule's ``source``, with its ``quote`` when it has one)."""

    rule: str
    asked: str
    did: str
    silent: str

    @property
    def sentence(self) -> str:
        """The one line a reader sees: ``Asked X: the target did Y.``"""
        return f"Asked {self.asked}: the target {self.did}." if self.asked else f"The target {self.did}."

    def as_dict(self) -> dict[str, str]:
        return {"asked": self.asked, "did": self.did, "silent": self.silent, "sentence": self.sentence}

    @classmethod
    def of(cls, rule: str, raw: Mapping[str, Any]) -> ObservationSummary:
        """The summary report.json carries for an observation (``raw``: the observation); one of a report.json an
        older kit wrote (none) is made from its facts here, without the rule's source."""
        given = raw.get("summary")
        if isinstance(given, Mapping):
            return cls(rule=rule, asked=str(given.get("asked") or ""), did=str(given.get("did") or ""),
                       silent=str(given.get("silent") or ""))
        facts = raw.get("facts")
        return summarise(rule, facts if isinstance(facts, Mapping) else {}, "")


def silence(source: str, quote: str = "") -> str:
    """Where the description leaves the behaviour open: the rule's source, and its quote when it has one."""
    said = source.strip() or "spec/rules.yaml names no place in interface-v2.md"
    return f"{said}: \u201c{quote.strip()}\u201d" if quote.strip() else said


def summarise(rule: str, facts: Mapping[str, Any], silent: str) -> ObservationSummary:
    """The words for one observation's facts (see the module docstring)."""
    asked = ", ".join(_fact(k, facts[k], bare=k in ("operation", "line", "path", "request")) for k in ASKED
                      if k in facts and facts[k] not in (None, ""))
    status = next(((k, facts[k]) for k in _STATUS if isinstance(facts.get(k), int)), None)
    did = f"answered {status[1]}" if status and status[0] == "status" else \
        f"answered {status[0].replace('_', ' ')} {status[1]}" if status else "gave"
    error = _error(facts)
    if error:
        did += f" \u201c{_cut(error)}\u201d"
    notes = [k for k in _NOTES if isinstance(facts.get(k), str) and facts[k]]
    rest = [k for k in facts if k not in ASKED and k not in _QUIET and k not in notes
            and (status is None or k != status[0]) and not (error and k in ("error", "body"))]
    shown = [_fact(k, facts[k]) for k in rest[:_MOST]]
    if shown:
        did += (" with " if status or error else " ") + ", ".join(shown)
    if len(rest) > _MOST:
        did += f" and {len(rest) - _MOST} more fact(s)"
    if not status and not error and not shown:
        did += " nothing beyond the facts below"
    did += "".join(f" ({_cut(facts[k], 2 * _WIDTH)})" for k in notes)
    return ObservationSummary(rule=rule, asked=asked, did=did, silent=silent)


def _error(facts: Mapping[str, Any]) -> str:
    """The error text the answer carried: ``error`` (a string or ``{message}``), else a body's ``error``."""
    for key in ("error", "body"):
        value = facts.get(key)
        if isinstance(value, str) and key == "body" and value.startswith("{"):
            try:
                value = json.loads(value)
            except ValueError:
                continue
        if isinstance(value, Mapping):
            value = value.get("error") if key == "body" else value.get("message") or value.get("error")
            value = value.get("message") if isinstance(value, Mapping) else value
        if isinstance(value, str) and value and (key == "error" or facts.get(key) != value):
            return value
    return ""


def _fact(key: str, value: Any, bare: bool = False) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    text = _cut(text)
    return text if bare else f"{key} {text or _EMPTY}"


def _cut(text: str, width: int = _WIDTH) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "\u2026"


def terminal_lines(observations: Mapping[str, Any], most: int = 3) -> list[str]:
    """The run's observations on the terminal: how many, of how many rules, then the ``most`` rules with the most
    observations, each with its first observation's sentence (report.json's ``observations``)."""
    groups = {str(rid): items for rid, items in observations.items() if isinstance(items, list) and items}
    if not groups:
        return []
    count = sum(len(items) for items in groups.values())
    lines = [f"observations (the description is silent; never a failure): {count} recorded for {len(groups)} "
             "rule(s), each in a sentence in the report's Observations section"]
    for rid, items in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:most]:
        first = items[0] if isinstance(items[0], Mapping) else {}
        line = f"  {rid} ({len(items)}): {ObservationSummary.of(rid, first).sentence}"
        lines.append(line if len(line) <= 150 else line[:149] + "\u2026")
    return lines
