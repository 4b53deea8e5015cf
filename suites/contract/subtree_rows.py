"""The comment rules judged on every combination of the comment list as it shows the run's own subtree (issue 44,
commentcross): which rules, on which rows, and what each check asserts. test_subtree_rows.py reads the rows.

Why: the comment rules (privacy, the settings read back, the body, the listing) were judged on the comment list as
one or two accounts read it plainly; a server that renders the list per caller, or takes another path under wrap or
v1, breaks them for the others and passes. Here the list the contract suite's privacy thread (privacy_thread.py: an
answer and six comments of known audience, written once per run anyway) is read once per row of the list's covering
array (list_responses.array: every reader, wrap and v1 in their combinations, the request form, and the Conventions'
parameters ``subtree_responses.conventions`` names: sort), and every rule is judged on the response.

Derived, not listed: the rules are the must-rules of ``list_responses.not_response`` (judged on the run's own
comments, not on any response) whose operations include a list of ``subtree_responses.lists`` in
spec/dimensions.yaml, less ``subtree_responses.left_out`` (each with why: what the thread does not hold). Each has a
check in :data:`CHECKS` (tests/test_subtree_crossing.py keeps the two in step). What a rule is not judged across
(the settings and bodies of items under wrap or v1, whose effect is not shown) is ``subtree_responses.not_across``.

What is judged on every row, whatever the shape under wrap or v1: no node the reader is not entitled to is in the
body (found by id anywhere in it), and no commentIds or childrenIds names one. On the rows the items are judged
(neither wrap nor v1): every comment the reader is entitled to is listed, a public one with full visibility and no
recipients, a private one with visibility recipients and its recipient, each with its text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from list_responses import SHAPE_OPTIONS, Row, raw_all
from list_responses import load as load_responses
from privacy_thread import Posted, Thread

from qaconform.contract import NONE, Contract, ContractError, load_contract
from qaconform.pytest.support import body_holds
from qaconform.target.profile import VisibilityOptions

SECTION = "subtree_responses"
LEAK_RULES = ("COMMENT-PRIVACY-LIST", "COMMENT-2", "COMMENT-3", "COMMENT-5", "COMMENT-PRIVACY-IDS")
"""Judged at once on every row: a private comment shown to a reader it is not private to breaks "the comment is
private to those recipients" (rule 2; rule 3 for a reply that inherited its settings, rule 5 for a reply to a public
comment with its own; the list's own privacy rule), and so does its id named to that reader where the comment itself
is not shown (:func:`_ids`)."""


@dataclass(frozen=True)
class Section:
    """spec/dimensions.yaml ``subtree_responses``: the lists that show the subtree, the rules left out (rule -> why)
    and what a rule is not judged across (rule -> dimension -> why)."""

    lists: tuple[str, ...]
    left_out: Mapping[str, str]
    not_across: Mapping[str, Mapping[str, str]]
    conventions: tuple[str, ...] = ()
    """round48 (issue 44): the Conventions' parameters the rows cross beside the list's own (sort: a sorted read
    served by another query dropped the private items' settings, round48-answer-comments-sorted-privacy-dropped)."""


def load(contract: Contract | None = None) -> Section:
    """The section, every name checked against the contract (a misspelt one is a ContractError naming the key)."""
    contract = contract or load_contract()
    raw = raw_all(contract).get(SECTION) or {}
    where = f"{contract.dimensions_path}: {SECTION}"
    across = {str(k): {str(d): str(w) for d, w in (v or {}).items()} for k, v in (raw.get("not_across") or {}).items()}
    out = Section(tuple(str(op) for op in raw.get("lists") or ()),
                  {str(k): str(v) for k, v in (raw.get("left_out") or {}).items()}, across,
                  tuple(str(d) for d in raw.get("conventions") or ()))
    for dim in out.conventions:
        if dim not in contract.dimensions.values:
            raise ContractError(f"{where}.conventions names {dim!r}, not a dimension")
    for op in out.lists:
        if op not in contract.dimensions.lists:
            raise ContractError(f"{where}.lists names {op!r}, not a list of 'lists:'")
    for rule in [*out.left_out, *out.not_across]:
        if rule not in contract.rules:
            raise ContractError(f"{where} names rule {rule!r}, which spec/rules.yaml does not hold")
    for rule, left in out.not_across.items():
        bad = [d for d in left if d not in contract.dimensions.values]
        if bad:
            raise ContractError(f"{where}.not_across.{rule} names {bad[0]!r}, not a dimension")
    return out


def subtree_rules(contract: Contract | None = None, section: Section | None = None) -> dict[str, tuple[str, ...]]:
    """rule -> the subtree lists its check runs on: each must-rule ``list_responses.not_response`` names whose
    operations include one, less ``left_out``."""
    contract = contract or load_contract()
    section = section or load(contract)
    out: dict[str, tuple[str, ...]] = {}
    for rule in load_responses(contract).not_response:
        ops = tuple(op for op in contract.rules[rule].operations if op in section.lists)
        if ops and contract.rules[rule].level == "must" and rule not in section.left_out:
            out[rule] = ops
    return out


# --- what one response shows ----------------------------------------------------------------------------------

@dataclass
class Seen:
    """One row's response as the checks judge it: the reader, its thread, what the reader is entitled to and whether
    its view of private comments is judged (the profile's ``[visibility] readers``), the body and the items."""

    row: Row
    thread: Thread
    vis: VisibilityOptions
    user_ids: Mapping[str, int]
    judges_leaks: bool
    body: Any
    items: list[dict[str, Any]] = field(default_factory=list)
    supports_private: bool = True

    @property
    def reader(self) -> str:
        return self.row.reader

    def entitled(self, posted: Posted) -> bool:
        return posted.recipient is None or self.reader in posted.audience

    @property
    def withheld(self) -> set[int]:
        """The thread's private comments this reader may not be shown (none when its view is not judged)."""
        if not self.judges_leaks:
            return set()
        return {c for c, p in self.thread.posted.items() if not self.entitled(p)}

    def listed(self) -> dict[int, dict[str, Any]]:
        return {int(i["id"]): i for i in self.items if str(i.get("id", "")).isdecimal()}


def nodes(value: Any) -> Iterator[dict[str, Any]]:
    """Every object with an id anywhere in a JSON value: the items whatever wrap or v1 wraps them in."""
    if isinstance(value, dict):
        if "id" in value:
            yield value
        for v in value.values():
            yield from nodes(v)
    elif isinstance(value, list):
        for v in value:
            yield from nodes(v)


Problems = list[str]


def _kind(p: Posted) -> str:
    """"comment" (on the answer), "inherits" (a reply inheriting a private comment's settings) or "own" (a reply to a
    public comment with its own)."""
    return "comment" if p.parent is None else "inherits" if p.inherits else "own"


def _shown(seen: Seen) -> dict[int, dict[str, Any]]:
    """Every node with a decimal id anywhere in the body, by id."""
    return {int(n["id"]): n for n in nodes(seen.body) if str(n.get("id", "")).isdecimal()}


def _leaks(seen: Seen, kind: str | None = None) -> Problems:
    """The withheld comments anywhere in the body (``kind``: only those of that kind, :func:`_kind`)."""
    withheld = {c for c in seen.withheld if kind is None or _kind(seen.thread.posted[c]) == kind}
    shown = sorted(set(_shown(seen)) & withheld)
    return [f"{seen.reader} is shown comment {c} by {seen.thread.posted[c].author}"
            f"{' (a reply that inherited its settings)' if seen.thread.posted[c].parent else ''}, private to "
            f"{sorted(seen.thread.posted[c].audience)} (\"the comment is private to those recipients\")"
            for c in shown]


def _ids(seen: Seen) -> Problems:
    """The withheld comments named in a commentIds or childrenIds but not shown themselves: "Nor does its id appear"
    adds to the list's rule only where the comment is hidden; a comment shown whole names its id with it, one leak
    that COMMENT-PRIVACY-LIST is charged with (one fault, one rule where it can)."""
    withheld = seen.withheld - set(_shown(seen))
    out = []
    for n in nodes(seen.body):
        named = {int(v) for key in ("commentIds", "childrenIds") if isinstance(n.get(key), list)
                 for v in n[key] if str(v).isdecimal()}
        for c in sorted(named & withheld):
            out.append(f"node {n.get('id')}'s commentIds/childrenIds name comment {c} to {seen.reader}, though it is "
                       f"private to {sorted(seen.thread.posted[c].audience)}")
    return out


def _missing(seen: Seen, private: bool) -> Problems:
    listed = seen.listed()
    return [f"{seen.reader} is not shown comment {c} by {p.author} "
            f"({f'private to {p.recipient}, which it is entitled to' if private else 'public'}; "
            "\"a later GET returns\" it)"
            for c, p in seen.thread.posted.items()
            if (p.recipient is not None) == private and p.parent is None and seen.entitled(p) and c not in listed]


def _listed(seen: Seen) -> Problems:
    """Every public comment is listed to every served reader, with its text (its head at least: the rest is
    TEXT-NON-ASCII's)."""
    listed = seen.listed()
    wrong = [f"public comment {c} is listed to {seen.reader} with body {str(listed[c].get('body'))[:80]!r}, not its "
             f"text {p.text!r}" for c, p in seen.thread.posted.items()
             if p.recipient is None and c in listed and not body_holds(listed[c].get("body"), p.head)]
    return _missing(seen, False) + wrong


def _full(seen: Seen) -> Problems:
    listed = seen.listed()
    out = []
    for c, p in seen.thread.posted.items():
        item = listed.get(c)
        if p.recipient is not None or item is None:
            continue
        if not seen.vis.reads_as_full(item.get("visibility")) or _recipients(item):
            out.append(f"comment {c} was posted without visibility and recipients; {seen.reader} reads it with "
                       f"visibility {item.get('visibility')!r} and recipients {item.get('recipients')!r}")
    return out


def _recipients(item: dict[str, Any]) -> set[str]:
    value = item.get("recipients")
    return {str(r.get("id")) for r in value if isinstance(r, dict)} if isinstance(value, list) else set()


def _settings(seen: Seen, kind: str = "comment") -> Problems:
    """Each private comment of ``kind`` listed to a reader entitled to it carries visibility recipients and its
    recipient (a reply inheriting: the ones it inherited; whether replies are listed at all is not stated, so only a
    listed one is judged)."""
    listed = seen.listed()
    out = []
    for c, p in seen.thread.posted.items():
        item = listed.get(c)
        if p.recipient is None or item is None or _kind(p) != kind:
            continue
        want = str(seen.user_ids[p.recipient])
        if item.get("visibility") != seen.vis.recipients or _recipients(item) != {want}:
            out.append(f"private comment {c} (visibility {seen.vis.recipients!r}, recipients [{want}]) reads back to "
                       f"{seen.reader} with visibility {item.get('visibility')!r} and recipients "
                       f"{item.get('recipients')!r}")
    return out


def _text(seen: Seen) -> Problems:
    """Each listed comment whose ASCII head is there holds the text beyond ASCII too (a lost body is LISTED's)."""
    listed = seen.listed()
    return [f"comment {c} reads back to {seen.reader} as {str(listed[c].get('body'))[:120]!r}; it was posted as "
            f"{p.text!r}" for c, p in seen.thread.posted.items()
            if c in listed and body_holds(listed[c].get("body"), p.head) and not body_holds(listed[c].get("body"),
                                                                                              p.text)]


def _none(seen: Seen) -> Problems:
    return []


@dataclass(frozen=True)
class Check:
    """One rule's check: ``problems`` on every row's response, whatever its shape; ``on_items`` besides on the rows
    whose items are judged (:func:`items_judged`)."""

    problems: Callable[[Seen], Problems]
    on_items: Callable[[Seen], Problems] = _none


CHECKS: dict[str, Check] = {
    "COMMENT-PRIVACY-LIST": Check(_leaks),
    "COMMENT-2": Check(lambda seen: _leaks(seen, "comment"), lambda seen: _missing(seen, True)),
    "COMMENT-3": Check(lambda seen: _leaks(seen, "inherits"), lambda seen: _settings(seen, "inherits")),
    "COMMENT-5": Check(lambda seen: _leaks(seen, "own"), lambda seen: _settings(seen, "own")),
    "COMMENT-PRIVACY-IDS": Check(_ids),
    "COMMENT-1": Check(_none, _full),
    "COMMENT-LISTED": Check(_none, _listed),
    "COMMENT-VISIBILITY-RETURNED": Check(_none, _settings),
    "VERSION-PRIVATE-COMMENTS-2160": Check(_none, _settings),
    "TEXT-NON-ASCII": Check(_none, _text),
}
"""Rule -> its check. The leak rules judge every row; COMMENT-2 besides, where the items are judged, that the private
comments its reader is entitled to are listed, COMMENT-3 and COMMENT-5 that a reply, where listed, carries the settings
it inherited or was given; the settings, bodies and listing rules only there (``not_across``: wrap and v1)."""


def items_judged(row: Row) -> bool:
    """Neither wrap nor v1: "Values and effect of wrap and v1: not shown"."""
    return all(row.value(option) == NONE for option in SHAPE_OPTIONS)


def rules_of(row: Row, rules: Mapping[str, tuple[str, ...]], section: Section) -> tuple[str, ...]:
    """The rules judged on ``row``: each of its list's, across every dimension ``not_across`` does not leave the rule
    out of for the row's value."""
    out = []
    for rule, ops in rules.items():
        if row.op not in ops:
            continue
        left = section.not_across.get(rule, {})
        if any(row.value(dim) != NONE for dim in left if dim in SHAPE_OPTIONS):
            continue
        out.append(rule)
    return tuple(out)
