"""Rules read in groups: the skip reasons of a rule's tests with a count, the skipped rules by reason, the blocked
rules by the step that blocked them.

Why one module: the report's data (report.json ``rules[].skip_reasons``, ``summary.skipped_groups`` and
``summary.blocked``) is made here once, and the terminal and the HTML page print it as it is. Before (qa14), a rule
crossed with many combinations showed one skip reason per combination (GDPR-OPERATIONS-INVALID: ten times "not
checked: GDPR-OPERATIONS-INVALID scheduleGdprJob-json-none-admin needs fixture gdpr_csv_file_id ...", each naming
its own row), and one broken lock answer listed twenty rules as failed.

A skip reason is grouped by its text without the words that name the test's own parameters (the row label and the
rule id its node id carries: ``[GDPR-OPERATIONS-INVALID-scheduleGdprJob-json-none-admin]``): what stays is why, the
same for every row; the count says how many tests gave it. A reason that names nothing of its test's parameters is
kept whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from qaconform.status import Effect, Status

_WORD = re.compile(r"\S+")
_EDGE = ".,;:()[]'\""
_OWN_COUNT = re.compile(r"\s*\(\d+ test\(s\) exist\)$")
"""user26: the figure a rule's own reason ends with ("not selected by --only X (12 test(s) exist)"): the rules
--only left out are one group, not one per count (an --only run listed "not selected" eight times, by count)."""
_JUDGED = (Effect.BROKE, Effect.WARN, Effect.HELD)
"""A rule in a status of these effects has a verdict from its tests: failed, warning, observed or passed."""


@dataclass(frozen=True)
class ReasonGroup:
    """One reason a rule's tests were skipped for, and how many of its tests gave it."""

    reason: str
    tests: int

    def text(self) -> str:
        return self.reason if self.tests == 1 else f"{self.reason} ({self.tests} tests)"

    def as_dict(self) -> dict[str, Any]:
        return {"reason": self.reason, "tests": self.tests}


def _params(nodeid: str) -> str:
    """The parameter id of a node id (``test_x[GDPR-X-json-admin]`` -> ``GDPR-X-json-admin``), or ""."""
    return nodeid[nodeid.index("[") + 1:-1] if nodeid.endswith("]") and "[" in nodeid else ""


def reason_key(message: str, nodeid: str) -> str:
    """``message`` without the words that name its test's own parameters: a word (its edge punctuation aside) of at
    least five characters, with a hyphen, found inside the test's parameter id. Spaces left behind are closed up."""
    params = _params(nodeid)
    if not params:
        return message.strip()

    def drop(m: re.Match[str]) -> str:
        text = m.group(0)
        word = text.strip(_EDGE)
        if len(word) < 5 or "-" not in word or word not in params:
            return text
        start = text.index(word)
        return text[:start] + text[start + len(word):]  # "(row operations-empty)" -> "(row )", closed up below

    kept = re.sub(r"\s{2,}", " ", _WORD.sub(drop, message))
    return re.sub(r"\s+([:;,)])", r"\1", kept).strip()


def grouped_reasons(skips: Iterable[tuple[str, str]]) -> list[ReasonGroup]:
    """(message, node id) of a rule's skipped tests, grouped by :func:`reason_key`, in the order first given."""
    counts: dict[str, int] = {}
    for message, nodeid in skips:
        key = reason_key(message or "skipped", nodeid)
        counts[key] = counts.get(key, 0) + 1
    return [ReasonGroup(r, n) for r, n in counts.items()]


def skipped_groups(rules: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """report.json ``summary.skipped_groups``: the skipped rules by their reason, each group with its rules (left
    unjudged: every test naming them skipped), how many tests skipped so (each test once, however many of the group's
    rules it names), and how many other rules those tests name that other tests judged (``judged_elsewhere``); the
    most rules first.

    Why the last two (tidy24): "1 rule(s), 48 test(s)" read as 48 tests of GDPR-DATE-TIMESTAMP lost, when the 48
    skipped rows named eight more GDPR rules, each of which other tests held; and a test naming two rules of a group
    was counted twice."""
    named: dict[str, set[str]] = {}  # node id -> every rule whose tests list it
    for r in rules:
        for t in r.get("tests") or []:
            named.setdefault(str(t.get("nodeid")), set()).add(str(r["id"]))
    judged = {str(r["id"]) for r in rules if (s := Status.of(r.get("status"))) is not None and s.effect in _JUDGED}
    groups: dict[str, dict[str, Any]] = {}
    ids: dict[str, set[str]] = {}
    for r in rules:
        if r.get("status") != "skipped":
            continue
        reason = _OWN_COUNT.sub("", str(r.get("reason") or "skipped"))
        group = groups.setdefault(reason, {"reason": reason, "rules": [], "tests": 0})
        group["rules"].append(str(r["id"]))
        if "tests" in r:  # none for a rule --only left out: no test of it ran, nor skipped
            ids.setdefault(reason, set()).update(str(t.get("nodeid")) for t in r.get("tests") or [])
        else:  # a rule entry without its tests (a report of an older kit): its skip reasons' counts
            group["tests"] += sum(int(g.get("tests") or 0) for g in r.get("skip_reasons") or []) or 1
    for reason, group in groups.items():
        tests = ids.get(reason, set())
        group["tests"] += len(tests)
        others = {rid for n in tests for rid in named.get(n, ())} - set(group["rules"])
        group["judged_elsewhere"] = len(others & judged)
    return sorted(groups.values(), key=lambda g: (-len(g["rules"]), g["reason"]))


def blocked_groups(tests: Iterable[tuple[Iterable[str], str | None]],
                   rules: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """report.json ``summary.blocked``: the blocked tests by what blocked them (``tests``: each blocked test's
    ``blocked_by`` and call), each group with its first call, how many tests and calls, and the rules left blocked
    (no other test judged them); so the reader fixes that one rule first. A rule another test held is not listed."""
    blocked_rules = {str(r["id"]): [str(b) for b in (r.get("blocked") or {}).get("by") or []]
                     for r in rules if r.get("status") == "blocked" and isinstance(r.get("blocked"), Mapping)}
    groups: dict[tuple[str, ...], dict[str, Any]] = {}
    for by_given, call in tests:
        by = tuple(str(b) for b in by_given)
        if not by:
            continue
        group = groups.setdefault(by, {"by": list(by), "call": call, "tests": 0, "calls": [], "rules": []})
        group["tests"] += 1
        if call and call not in group["calls"]:
            group["calls"].append(call)
        group["call"] = group["call"] or call
    for rid, blockers in blocked_rules.items():
        if tuple(blockers) in groups:
            groups[tuple(blockers)]["rules"].append(rid)
    for group in groups.values():
        group["calls"] = len(group["calls"])
    return list(groups.values())


def blocked_line(group: Mapping[str, Any]) -> str:
    """``CONV-JSON-EXTENSION broken by PUT /services/v2/node/99/lock.json as member -> 200 (and 3 other calls)``: one
    group's cause."""
    by = ", ".join(group.get("by") or [])
    others = int(group.get("calls") or 0) - 1
    more = f" (and {others} other call{'s' if others > 1 else ''})" if others > 0 else ""
    return f"{by} broken by {group['call']}{more}" if group.get("call") else f"{by} broken"
