"""Planted bugs of the reference server, switched on by name.

The kit tests itself by running its suites against a reference server with exactly one fault on and checking
that the suite for the broken rule fails (architecture rule 5). Every fault lives in this registry and is checked
with :func:`is_on` at the one place in the code it breaks, so a fault costs a frozenset lookup when off.

Adding a fault is a two-line change: one ``Fault(...)`` entry below and one ``if is_on("name"):`` where it bites.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Fault:
    """One planted bug: its name (used on the command line), the rule id it breaks, what it does."""

    name: str
    rule: str
    description: str


_ALL: tuple[Fault, ...] = (
    Fault("envelope-listcount-wrong", "PAGING-LISTCOUNT", "listCount is one more than the items in the page"),
    Fault(
        "comment-private-leaks-in-answer-list",
        "COMMENT-PRIVACY-LIST",
        "the answer's comment list shows private comments to every caller",
    ),
    Fault("wrong-password-accepted", "AUTH-BAD-CREDENTIALS", "a known username with a wrong password is let in"),
    Fault("gdpr-past-date-accepted", "GDPR-PAST-DATE", "a data-protection job may be scheduled in the past"),
    Fault("lock-extra-not-prompt", "ACTION-LOCK-EXTRA", "the lock action's extra is null instead of the prompt"),
    Fault("groups-allowed-without-permission", "PERM-GROUPS", "any authenticated caller may list groups"),
)

FAULTS: dict[str, Fault] = {f.name: f for f in _ALL}
"""Every known fault by name."""

_active: frozenset[str] = frozenset()


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
    _active = wanted


def is_on(name: str) -> bool:
    """Whether the named fault is switched on. Called where the fault breaks the server."""
    return name in _active


def active() -> frozenset[str]:
    return _active


def describe() -> str:
    """The registry as text, one fault a line, for --list-faults."""
    width = max(len(n) for n in FAULTS)
    rwidth = max(len(f.rule) for f in FAULTS.values())
    return "\n".join(f"{f.name:<{width}}  {f.rule:<{rwidth}}  {f.description}" for f in FAULTS.values())
