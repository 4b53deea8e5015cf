"""Which servers the self-test's variant check starts: every allowed variant in a few composed groups, and a group
that fails split in halves until the variants that give the false positive are named.

Why: each variant alone is a full run of every suite against its own server (59 runs took 449 s of CI's 1,505 s).
The registry already knows which variants compose (``variants.composable()``, what ``all`` switches on: every
variant without a choice and the first alternative of each choice); the other alternatives of a choice compose with
the rest in the same way. So ``all`` plus one group per further alternative (all, with each choice's second
alternative in place of its first; then the third; ...) switches every variant on in at most five servers. A group
that raises a false positive is bisected: its halves run, a failing half is split again down to one variant, and a
group whose halves both pass is itself named (variants that fail only together). What grouping cannot see: a variant
whose false positive another variant of its group hides; ``qaconform selftest --each-variant`` runs every variant
alone too. Pure: the runs are the caller's (``bisect`` is given a function that runs one group).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

R = TypeVar("R")

MAX_GROUP_RUNS = 200
"""Bound on the runs one bisection may ask for (2n - 2 for a group of n; the registry has 61 variants)."""


def groups() -> list[tuple[str, ...]]:
    """``("all",)`` first (the generated tests and the extra seeds run there), then for k = 2, 3, ... the composable
    set with each choice's k-th alternative in place of its first, while any choice has a k-th."""
    from qaconform.reference import variants as allowed

    base = allowed.composable()
    by_choice: dict[str, list[str]] = {}
    for v in allowed.VARIANTS.values():
        if v.choice is not None:
            by_choice.setdefault(v.choice, []).append(v.name)
    out: list[tuple[str, ...]] = [(allowed.ALL,)]
    k = 1
    while any(len(alts) > k for alts in by_choice.values()):
        swap = {alts[0]: alts[k] for alts in by_choice.values() if len(alts) > k}
        out.append(tuple(swap.get(n, n) for n in base))
        k += 1
    return out


def expand(group: Sequence[str]) -> tuple[str, ...]:
    """The variants a run switched on (``all`` written out); names the registry does not know are kept as they are
    (a result read back from another version)."""
    from qaconform.reference import variants as allowed

    out: list[str] = []
    for n in group:
        for m in allowed.composable() if n == allowed.ALL else (n,):
            if m not in out:
                out.append(m)
    return tuple(out)


def alternatives(group: Sequence[str]) -> list[str]:
    """The variants of ``group`` that ``all`` does not switch on (what the group is there for)."""
    from qaconform.reference import variants as allowed

    base = set(allowed.composable())
    return [n for n in group if n != allowed.ALL and n not in base]


def label(group: Sequence[str]) -> str:
    """How a run is named: ``variant NAME`` for one variant (``variant all``), ``variants all with A, B`` for a
    group of alternatives, ``variants A + B + ...`` for a part of a group."""
    from qaconform.reference import variants as allowed

    if len(group) == 1:
        return f"variant {group[0]}"
    alts = alternatives(group)
    if len(group) == len(allowed.composable()) and alts:
        return "variants all with " + ", ".join(alts)
    return "variants " + " + ".join(group)


def bisect(group: Sequence[str], run: Callable[[tuple[str, ...]], R], failed: Callable[[R], bool]) -> list[R]:
    """The runs that name which of ``group`` (a group whose run failed) give its false positive: each half runs; a
    failing half of more than one variant is split again. Returns every run made, in order; the runs that failed
    and whose own halves (if any were run) did not both pass name the culprits (:func:`named`)."""
    out: list[R] = []
    pending = [tuple(group)]
    while pending and len(out) < MAX_GROUP_RUNS:
        part = pending.pop(0)
        half = len(part) // 2
        for piece in (part[:half], part[half:]):
            if not piece:
                continue
            res = run(piece)
            out.append(res)
            if failed(res) and len(piece) > 1:
                pending.append(piece)
    return out


def named(runs: Sequence[tuple[tuple[str, ...], bool]]) -> list[tuple[str, ...]]:
    """From (group, failed) of a group and its bisection: the smallest failing groups, those with no failing part
    among the runs (one variant, or variants that fail only together)."""
    failing = [g for g, bad in runs if bad]
    return [g for g in failing if not any(h != g and set(h) < set(g) for h in failing)]
