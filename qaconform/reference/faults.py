"""Planted bugs of the reference server, switched on by name.

The kit tests itself by running its suites against a reference server with exactly one fault on and checking
that the suite for the broken rule fails (architecture rule 5). Every fault lives in this registry and is checked
with :func:`is_on` at the one place in the code it breaks, so a fault costs a frozenset lookup when off.

Adding a fault is a two-line change: one ``Fault(...)`` entry in :mod:`faults_reads` (what lists answer) or
:mod:`faults_writes` (writes, actions, permissions) and one ``if is_on("name"):`` where it bites. A fault that
only changes who may call an operation needs no code at all: its ``overrides`` change rows of the route table
(app.py), which :mod:`access` applies when the fault is on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from .fault_list import ALL as _ALL
from .fault_list import DRAWS_NAMED_HERE as _DRAWS_NAMED_HERE
from .fault_model import Effect, Fault, Override

__all__ = ["FAULTS", "Effect", "Fault", "Override", "UnknownFaultError", "activate", "active", "closed_site",
           "describe", "is_on", "overrides"]

FAULTS: dict[str, Fault] = {f.name: dataclasses.replace(f, draws=_DRAWS_NAMED_HERE[f.name])
                            if f.name in _DRAWS_NAMED_HERE else f for f in _ALL}
"""Every known fault by name."""

_active: frozenset[str] = frozenset()
_overrides: dict[tuple[str, str], tuple[Override, ...]] = {}


class UnknownFaultError(ValueError):
    """A fault name that is not in the registry."""


def activate(names: Iterable[str]) -> None:
    """Switch on exactly these faults (all others off). Unknown names raise with the list of known ones."""
    global _active
    wanted = frozenset(names)
    unknown = sorted(wanted - FAULTS.keys())
    if unknown:
        raise UnknownFaultError(
            f"unknown fault {unknown[0]!r}; run with --list-faults to see the {len(FAULTS)} known faults"
        )
    global _overrides
    _active = wanted
    by_row: dict[tuple[str, str], list[Override]] = {}
    for name in sorted(wanted):
        for override in FAULTS[name].overrides:
            for operation in override.operations:
                by_row.setdefault((operation, override.at), []).append(override)
    _overrides = {key: tuple(found) for key, found in by_row.items()}


def overrides(operation: str, at: str = "enter") -> tuple[Override, ...]:
    """The overrides of the faults switched on for one check (``at``) of one operation; empty when none is on."""
    return _overrides.get((operation, at), ())


def is_on(name: str) -> bool:
    """Whether the named fault is switched on. Called where the fault breaks the server."""
    return name in _active


def closed_site() -> bool:
    """Whether a closed-site fault is on: the site then grants anonymous no Anonymous Roles (and says so in the
    profile it writes), so that the one read each such fault leaves open is a broken rule."""
    return any(name.startswith("closed-site-") for name in _active)


def active() -> frozenset[str]:
    return _active


def describe() -> str:
    """The registry as text, one fault a line, for --list-faults."""
    width = max(len(n) for n in FAULTS)
    rwidth = max(len(f.rule) for f in FAULTS.values())
    return "\n".join(f"{f.name:<{width}}  {f.rule:<{rwidth}}  {f.description}" for f in FAULTS.values())
